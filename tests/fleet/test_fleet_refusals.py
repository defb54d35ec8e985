"""What the watcher refuses, counts and shows (a real SQLite store, no broker): a record
whose id is not its topic's table's, an unknown format version, a message over the size
cap; and what the page says — the broker's link, "Last heard" by the table's own clock,
a viewport for a phone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.fleet.messages import Health, Play, Status
from kiosk.fleet.page import render_page, summary_text
from kiosk.fleet.store import FleetStore

NOW = datetime.now(UTC).isoformat(timespec="seconds")


def _play(device: str, game_id: int, seq: int, *, id_: str | None = None) -> bytes:
    play = Play(
        device=device,
        id=id_ or f"{device}/{game_id}/{seq}",
        game_id=game_id,
        seq=seq,
        finished_at=NOW,
        record={"game": "toy_pig", "title": "Pig", "players": ["Ann"], "outcome": {"winners": [0]}},
    )
    return play.model_dump_json().encode()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FleetStore]:
    opened = FleetStore(tmp_path / "fleet.sqlite3", max_bytes=4096)
    yield opened
    opened.close()


def test_a_forged_id_is_refused_and_cannot_hide_another_tables_game(store: FleetStore) -> None:
    """table-3 sends, on its own topic, a record with table-2's id for game 25: refused
    and counted; table-2's real game 25 is then stored, not taken for a duplicate."""
    forged = store.take("colossus/table-3/plays", _play("table-3", 7, 4, id_="table-2/25/1"))
    assert forged.ack_id is None and forged.new_game is None
    assert "'table-2/25/1' is not this table's (expected 'table-3/7/4')" in forged.problems[0]
    real = store.take("colossus/table-2/plays", _play("table-2", 25, 1))
    assert real.new_game is not None and not real.duplicate and real.ack_id == "table-2/25/1"
    assert store.games_played() == 1
    (refusal,) = store.refusals()
    assert (refusal.device, refusal.reason, refusal.count) == ("table-3", "id", 1)
    assert any("table-3: 1 message(s) refused" in alert for alert in store.alerts())


def test_an_unknown_format_version_is_refused_and_counted(store: FleetStore) -> None:
    newer = json.loads(_play("table-1", 1, 2))
    newer["v"] = 2
    taken = store.take("colossus/table-1/plays", json.dumps(newer).encode())
    assert "format version 2 is unknown here (this watcher reads 1" in taken.problems[0]
    assert taken.ack_id is None and store.games_played() == 0  # the table keeps it
    taken = store.take("colossus/table-1/plays", json.dumps(newer).encode())
    assert [(r.reason, r.count) for r in store.refusals()] == [("version", 2)]


def test_a_message_over_the_size_cap_is_refused(store: FleetStore) -> None:
    big = json.loads(_play("table-1", 1, 2))
    big["record"]["actions"] = ["x" * 100] * 60  # 6 kB, over the 4 kB cap
    taken = store.take("colossus/table-1/plays", json.dumps(big).encode())
    assert "bytes, more than the 4,096 allowed" in taken.problems[0]
    assert store.games_played() == 0 and store.refusals()[0].reason == "size"
    assert store.take("colossus/table-1/plays", _play("table-1", 1, 2)).new_game is not None


def test_a_topic_whose_table_is_not_a_device_id_is_refused(store: FleetStore) -> None:
    taken = store.take("colossus/table.1/plays", _play("table.1", 1, 2))
    assert "is not a device id" in taken.problems[0] and store.games_played() == 0


def test_the_page_shows_each_refusal_the_broker_link_and_fits_a_phone(store: FleetStore) -> None:
    store.take("colossus/table-3/plays", _play("table-3", 7, 4, id_="table-2/25/1"))
    store.set_broker(connected=True)
    page = render_page(store)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "table-3: 1 message(s) refused by the watcher" in page
    assert "Broker connected since" in page
    store.set_broker(connected=False, heard=False, error="cannot connect to b:1883: refused")
    page = render_page(store)
    assert "The watcher is not connected to the broker since" in page
    assert "cannot connect to b:1883: refused" in page and "as last heard" in page
    assert "not connected to the broker" in summary_text(store)


def test_last_heard_is_the_tables_own_time_not_when_the_watcher_got_it(
    store: FleetStore,
) -> None:
    """Retained values replayed when the watcher reconnects are old news: "Last heard"
    is the latest of the table's own timestamps."""
    then = (datetime.now(UTC) - timedelta(hours=3)).replace(microsecond=0)
    status = Status(device="table-1", state="online", since=then.isoformat())
    health = Health(
        device="table-1",
        at=(then + timedelta(minutes=5)).isoformat(),
        uptime_s=300,
        outbox_waiting=15,
        outbox_dropped=0,
    )
    store.take("colossus/table-1/status", status.model_dump_json().encode())
    store.take("colossus/table-1/health", health.model_dump_json().encode())
    (state,) = store.tables()
    assert state.last_seen == (then + timedelta(minutes=5)).isoformat()
