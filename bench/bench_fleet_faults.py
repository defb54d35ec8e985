"""The fleet under faults, full size: finished games through the shipped Mosquitto
configuration on 127.0.0.1 while the broker, the watcher and the tables are SIGKILLed at
random moments; then a burst larger than the broker's queue.

    .venv/bin/python bench/bench_fleet_faults.py [--games 1200] [--burst 10000]
        [--queue 1000] [--seed N] [--broker-kills 6]

Prints figures (lost, duplicated, left in the outboxes, wall time) and the events;
exits 1 if a game was lost or stored twice. tests/fleet/test_fleet_faults.py runs a
smaller version of the same (tests/fleet/chaos.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the fleet tests' broker and chaos helpers

from tests.fleet.chaos import broker_dropped, run_burst, run_chaos  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200, help="games under faults")
    parser.add_argument("--broker-kills", type=int, default=6)
    parser.add_argument("--seed", type=int, default=None, help="default: a random one")
    parser.add_argument("--burst", type=int, default=10_000, help="games in the burst")
    parser.add_argument("--queue", type=int, default=1000, help="the broker's queue limit")
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    failed = False
    with tempfile.TemporaryDirectory(dir=args.dir) as temp:
        root = Path(temp)
        report = run_chaos(
            root / "chaos", games=args.games, seed=seed, broker_kills=args.broker_kills, say=print
        )
        failed |= bool(report.lost or report.duplicated or report.left_in_outboxes)
        burst = run_burst(root / "burst", games=args.burst, max_queued=args.queue)
        dropped = broker_dropped(root / "burst")
        print(
            f"burst: {burst.games} games at once through a queue of {args.queue}"
            f" (the broker {'dropped' if dropped else 'did not drop'} messages):"
            f" {burst.stored} stored, {burst.lost} lost, {burst.duplicated} duplicated,"
            f" {burst.left_in_outboxes} left; {burst.seconds:.1f} s,"
            f" {burst.games / burst.seconds:.0f} games/s end to end"
        )
        failed |= bool(burst.lost or burst.duplicated or burst.left_in_outboxes)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
