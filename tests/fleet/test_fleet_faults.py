"""Every finished game reaches the watcher's store exactly once, whatever is killed: a
real Mosquitto with the shipped configuration on 127.0.0.1, tables and the watcher as
processes (tests/fleet/chaos.py). A small run here; bench/bench_fleet_faults.py runs
≥ 1,000 games and prints the figures.

Before end-to-end delivery a table deleted a record on the broker's PUBACK and the
watcher acknowledged before storing: a broker crash before the watcher resubscribed, a
watcher killed mid-drain or a burst over the broker's queue lost games.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fleet.chaos import broker_dropped, run_burst, run_chaos

SEED = int(os.environ.get("FLEET_CHAOS_SEED", "7"))


@pytest.mark.slow
def test_no_game_is_lost_or_stored_twice_when_broker_watcher_and_tables_are_killed(
    tmp_path: Path,
) -> None:
    report = run_chaos(tmp_path, games=300, seed=SEED)
    assert report.broker_kills >= 5 and report.watcher_kills >= 2 and report.table_kills >= 2
    assert report.games == 300
    assert (report.lost, report.duplicated, report.left_in_outboxes) == (0, 0, 0), report.events


@pytest.mark.slow
def test_a_burst_larger_than_the_brokers_queue_loses_nothing(tmp_path: Path) -> None:
    report = run_burst(tmp_path, games=1000, max_queued=50)
    assert broker_dropped(tmp_path), "the burst should overflow the broker's queue"
    assert (report.stored, report.lost, report.left_in_outboxes) == (1000, 0, 0)
