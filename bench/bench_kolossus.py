"""Kolossus move-generator and full-game timings (prints figures; asserts nothing).

Worst case built here: Chapter 3, a Colossus with 12 MP from its dice plus 6 Attack,
the Sword of Storm and the Whip of Wrath both charged (``titan_weapons = all_four``),
on a crowded, quaked board with enemies of Defence 0..2 scattered over the pyramid.
Each sample clears the memo so it measures a cold touch, as on a fresh position.
Beside the times it prints the instructions each sample executed (``instructions.py``:
the same under load, so figures from a busy and a quiet hour compare).
Run: ``.venv/bin/python bench/bench_kolossus.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

from instructions import thread_counter

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the positions the tests check too

from companion.games.kolossus import RULES  # noqa: E402
from companion.games.kolossus.content import cell  # noqa: E402
from companion.games.kolossus.movement import reach  # noqa: E402
from companion.games.kolossus.position import all_destinations, occupants  # noqa: E402
from tests.helpers.kolossus_positions import worst_case  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


COUNTER = thread_counter()  # this thread's instructions (None: no counter on this machine)


def instructions() -> int:
    return 0 if COUNTER is None else COUNTER.read()


def instructions_text(counts: list[int]) -> str:
    """Median / p99 / max in thousands, or nothing where the CPU's counter is unreadable."""
    if COUNTER is None:
        return ""
    return (
        f"; instructions median {statistics.median(counts) / 1000:.0f} k, "
        f"p99 {percentile([float(c) for c in counts], 0.99) / 1000:.0f} k, "
        f"max {max(counts) / 1000:.0f} k"
    )


def bench_destinations(samples: int = 300) -> None:
    times: list[float] = []
    counts: list[int] = []
    executed: list[int] = []
    for seed in range(samples):
        state, piece = worst_case(seed)
        assert occupants(state.minis)[state.minis[piece]] == piece
        reach.cache_clear()
        first = instructions()
        start = time.perf_counter()
        ends = all_destinations(state, piece, state.mp)
        times.append((time.perf_counter() - start) * 1000)
        executed.append(instructions() - first)
        counts.append(len(ends))
    print(
        f"legal destinations (cold, all weapon combos): median {statistics.median(times):.2f} ms, "
        f"p99 {percentile(times, 0.99):.2f} ms, max {max(times):.2f} ms, "
        f"avg {statistics.mean(counts):.0f} destinations{instructions_text(executed)}"
    )
    touch: list[float] = []
    executed = []
    for seed in range(samples):
        state, piece = worst_case(seed)
        reach.cache_clear()
        first = instructions()
        start = time.perf_counter()
        RULES.highlights(state, cell(state.minis[piece]))
        touch.append((time.perf_counter() - start) * 1000)
        executed.append(instructions() - first)
    print(
        f"touch -> highlights (cold): median {statistics.median(touch):.2f} ms, "
        f"p99 {percentile(touch, 0.99):.2f} ms, max {max(touch):.2f} ms"
        f"{instructions_text(executed)}"
    )
    state, piece = worst_case(0)
    all_destinations(state, piece, state.mp)
    start = time.perf_counter()
    for _ in range(1000):
        all_destinations(state, piece, state.mp)
    print(f"legal destinations (memoised): {(time.perf_counter() - start):.3f} ms per call")


def bench_game(games: int = 5) -> None:
    durations = []
    actions = 0
    for seed in range(games):
        options = RULES.parse_options({"chapter": 3})
        state = RULES.setup(["Ann", "Bob", "Cleo", "Dov"], options, seed)
        rnd = random.Random(seed)
        start = time.perf_counter()
        while RULES.outcome(state) is None:
            listed = list(RULES.legal_actions(state))
            action = rnd.choices(listed, [RULES.interest(state, a) for a in listed])[0]
            state, _ = RULES.apply(state, action)
            actions += 1
        durations.append(time.perf_counter() - start)
    print(
        f"full random Chapter 3 game: median {statistics.median(durations) * 1000:.0f} ms, "
        f"max {max(durations) * 1000:.0f} ms ({actions / games:.0f} actions per game)"
    )


if __name__ == "__main__":
    bench_destinations()
    bench_game()
