"""One switch between the suite's bounded runs and the long runs of the bench.

``COMPANION_FAULTS=long`` (set by ``bench/bench_faults.py``) makes every test that sizes
its run with :func:`scaled` (the fault tests, the long property tests, the lesson walks)
use its long size (docs/testing.md lists them); the figures each run reports are printed
as one ``FAULTS`` line so the bench can collect them from pytest's output (run with
``-s``).
"""

from __future__ import annotations

import json
import os


def is_long() -> bool:
    return os.environ.get("COMPANION_FAULTS", "").strip().lower() == "long"


def scaled(short: int, long: int) -> int:
    """``short`` in the test suite, ``long`` when the bench asks for the long runs."""
    return long if is_long() else short


def report(name: str, **figures: int | float | str) -> None:
    """Print one line of figures, e.g. ``FAULTS kill_resume {"kills": 100, "lost": 0}``."""
    print(f"FAULTS {name} {json.dumps(figures, sort_keys=True)}", flush=True)


PLAYERS: dict[str, list[str]] = {
    "kolossus": ["Ann", "Bob"],
    "beast_master": ["Ann", "Bob"],
    "colossi": ["Ann", "Bob", "Cy"],
    "colossus_solo": ["Ann"],
    "builders": ["Ann", "Bob"],
}
"""The five games every fault test plays, with a table of players for each."""
