"""Home's cost against the number of games in the journal.

    .venv/bin/python bench/bench_home.py [--games 10 10000] [--repeats 50] [--json]

Home is shown after every game and after every touch that ends the shop's demo; it lists
the unfinished games to resume and the latest results. It reads them with two indexed,
limited queries (``Journal.recent_games``), so its cost should not grow with history.
For each journal size this prints the median and the 95th percentile of building Home's
view (``HomePresenter.view``), beside the full header listing Home used to read
(``Journal.games``) for comparison. Prints figures; asserts nothing. Target: Home at
10,000 games within 2× of Home at 10.

The journals are filled with realistic headers in one transaction each (a played game's
header: its game, players, options, a result for the finished ones), not by playing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from companion.games import available_games, get_rules
from companion.journal import Journal
from kiosk.presenters.home import HomePresenter

FINISHED_SHARE = 0.7  # most games in a shop's journal are finished ones


def fill(journal: Journal, count: int, seed: int = 1) -> None:
    """``count`` game headers, a mix of games, unfinished and finished, in one commit."""
    rnd = random.Random(seed)
    games = [name for name in available_games() if not name.startswith("toy")]
    options = {name: get_rules(name).parse_options({}).model_dump(mode="json") for name in games}
    rows = []
    for index in range(count):
        game = rnd.choice(games)
        finished = rnd.random() < FINISHED_SHARE
        day = f"2026-{1 + index * 11 // count:02d}-{1 + index % 28:02d}"
        when = f"{day}T12:{index % 60:02d}:00+00:00"
        outcome = {"text": "Ann wins with 7 crystals", "winners": [0]} if finished else None
        rows.append(
            (
                game,
                json.dumps(["Ann", "Bob"]),
                json.dumps(options[game], sort_keys=True),
                index,
                when,
                when,
                "finished" if finished else "active",
                None if outcome is None else json.dumps(outcome),
                rnd.randrange(10, 200),
            )
        )
    db = journal._db
    db.execute("BEGIN IMMEDIATE")
    db.executemany(
        "INSERT INTO games(game, players, options, seed, created, updated, status, outcome,"
        " entry_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    db.execute("COMMIT")


def timed(call: Callable[[], object], repeats: int) -> list[float]:
    call()  # warm: the first call loads the game summaries and fills SQLite's cache
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples


def figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 10_000])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for count in args.games:
            with Journal(Path(folder) / f"journal-{count}.sqlite3") as journal:
                fill(journal, count)
                home = HomePresenter(journal)
                results[str(count)] = {
                    "home_view": figures(timed(home.view, args.repeats)),
                    "all_headers": figures(timed(journal.games, max(3, args.repeats // 10))),
                }
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'games':>8}  {'Home view (median / p95)':>26}  {'every header, to compare':>24}")
    for count, row in results.items():
        view, full = row["home_view"], row["all_headers"]
        print(
            f"{int(count):>8,}  {view['median_ms']:>11.2f} ms / {view['p95_ms']:>7.2f} ms"
            f"  {full['median_ms']:>18.1f} ms"
        )
    sizes = list(results)
    if len(sizes) >= 2:
        first, last = results[sizes[0]]["home_view"], results[sizes[-1]]["home_view"]
        ratio = last["median_ms"] / first["median_ms"]
        print(f"Home at {int(sizes[-1]):,} games costs {ratio:.2f}× Home at {int(sizes[0]):,}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
