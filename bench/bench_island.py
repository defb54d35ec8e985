"""Timing of Road-Movement destinations on a 27-space island full of pieces.

Prints the median and p99 (milliseconds) of
  * ``destinations`` for one piece (what the LEDs show when a piece is touched), and
  * every legal Movement and Spawn of the current player (what ``legal_actions`` lists).
Target: p99 ≤ 0.3 ms for one piece (before it, < 2 ms).

Run: ``.venv/bin/python bench/bench_island.py [positions]``
"""

from __future__ import annotations

import statistics
import sys
import time

from companion.games.island import beast_master as bm
from companion.games.island.beast_master import model as bmm
from companion.games.island.mechanics import (
    destinations,
)
from companion.games.island.model import (
    BeastPos,
    SpaceState,
)
from companion.games.island.turns import move_actions, piece_spaces
from companion.rng import Rng

TARGET_P99_MS = 0.3


def full_board(seed: int) -> bm.BeastMasterState:
    """4 players, every Acolyte and Colossus on the board at random, the Beast somewhere."""
    state = bm.RULES.setup(["Ann", "Bob", "Cleo", "Dov"], bm.BeastMasterOptions(), seed)
    ids = state.board.ids
    rng = Rng(seed=seed)
    counts = [[0] * 4 for _ in ids]
    colossi = []
    for seat in range(4):
        for _ in range(state.acolytes_in_hand[seat]):
            k, rng = rng.randint(0, len(ids) - 1)
            counts[k][seat] += 1
        spot, rng = rng.choice(ids)
        colossi.append(spot)
    beast, rng = rng.choice(ids)
    spaces = tuple(SpaceState(acolytes=tuple(c)) for c in counts)
    return state.model_copy(
        update={
            "spaces": spaces,
            "acolytes_in_hand": (0, 0, 0, 0),
            "colossi": tuple(colossi),
            "beasts": (BeastPos(name="the Beast", space=beast),),
            "phase": "actions",
            "movements_left": 4,
        }
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    positions = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    cfg_state = full_board(0)
    cfg = bmm.config(cfg_state)
    one_piece: list[float] = []
    all_moves: list[float] = []
    reach_sizes: list[int] = []
    for seed in range(positions):
        state = full_board(seed)
        seat = seed % 4
        for piece, space in piece_spaces(state, seat):
            start = time.perf_counter()
            reach = destinations(state, seat, piece, space, cfg)
            one_piece.append((time.perf_counter() - start) * 1000)
            reach_sizes.append(len(reach))
        start = time.perf_counter()
        listed = list(move_actions(state, cfg, seat))
        all_moves.append((time.perf_counter() - start) * 1000)
        assert listed
    print(f"positions: {positions}, pieces timed: {len(one_piece)}")
    print(
        f"destinations of one piece: median {statistics.median(one_piece):.3f} ms, "
        f"p99 {percentile(one_piece, 0.99):.3f} ms "
        f"(mean reach {statistics.mean(reach_sizes):.1f} spaces)"
    )
    print(
        f"all Movements + Spawns of a player: median {statistics.median(all_moves):.3f} ms, "
        f"p99 {percentile(all_moves, 0.99):.3f} ms"
    )
    p99 = percentile(one_piece, 0.99)
    verdict = "met" if p99 <= TARGET_P99_MS else "NOT met"
    print(f"target: one piece p99 ≤ {TARGET_P99_MS} ms: {p99:.3f} ms, {verdict}")


if __name__ == "__main__":
    main()
