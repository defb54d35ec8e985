"""The fast move generator returns exactly what the first, straightforward one returned.

``reference_reach`` below is the generator as it stood before it was tuned for the Pi:
a recursive walk that builds every path as it goes. The tuned
``companion.games.kolossus.movement.reach`` must give the same ends, in the same order,
with the same canonical way to each (path, MP left, beaten squares, Sword used) and the
same blocked squares: the referee applies that way, the preview draws it and the
highlights light it. Where ``test_bruteforce`` checks the rules themselves, this checks
that tuning changed nothing, on random boards (any landscape, after the Great Quake or
a region shift: K-R01, K-R04, K-R41), every class, chapter and weapon, the bench's worst
case and positions from random games.

Rulings relied on: K-R09 (one change of direction, reversal included), K-R10 (levels;
the Colossus ignores them), K-R11 (friends and allies passed, never ended on), K-R12 and
K-R13 (entering an enemy needs MP left >= its Defence, consumed or not), K-R31 (a beat
ends the move unless the Sword continues it), K-R32 (the Whip: Defence 0), K-R39 (no
step off the board).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.kolossus import RULES
from companion.games.kolossus.content import RAYS
from companion.games.kolossus.model import KolossusState
from companion.games.kolossus.movement import EMPTY, FRIEND, Reach, reach
from companion.games.kolossus.position import (
    ReachQuery,
    class_of,
    movable_pieces,
    reach_query,
)
from tests.faults.scale import scaled
from tests.games.random_play import random_game
from tests.helpers.kolossus import WEAPON_CASES, positions
from tests.helpers.kolossus_positions import worst_case

Walk = Callable[[int, int, int, tuple[int, ...], bool, tuple[int, ...], bool], None]


def reference_reach(query: ReachQuery) -> tuple[dict[int, Reach], frozenset[int]]:
    """The generator before tuning, kept verbatim (without its memo) as the reference:
    its ends (each with its canonical way) and its blocked squares."""
    levels, occ, origin, may_turn, ignore_levels, mp, sword, consume = query
    best: dict[int, int] = {origin: (1 << 16) | (mp << 6)}
    found: dict[int, Reach] = {origin: Reach((), mp, (), False)}
    blocked: set[int] = set()

    def walk(
        start: int,
        d: int,
        left: int,
        beaten: tuple[int, ...],
        sword_used: bool,
        prefix: tuple[int, ...],
        turned: bool,
    ) -> None:
        lv_pos = levels[start]
        entered: list[int] = []
        turns = may_turn and not turned
        for nxt in RAYS[start][d]:
            if left == 0:
                return
            lv_next = levels[nxt]
            o = occ[nxt]
            if beaten:
                sword_used = True
                if nxt in beaten:
                    o = EMPTY
            if not ignore_levels and (lv_next - lv_pos > 1 or lv_pos - lv_next > 1):
                if o >= 0:
                    blocked.add(nxt)
                return
            left -= 1
            entered.append(nxt)
            if o >= 0:
                if left < o:
                    blocked.add(nxt)
                    return
                if consume:
                    left -= o
                beaten = (*beaten, nxt)
            if o != FRIEND:
                score = ((not sword_used) << 16) | (left << 6) | len(beaten)
                if score > best.get(nxt, -1):
                    best[nxt] = score
                    found[nxt] = Reach((*prefix, *entered), left, beaten, sword_used)
                if o >= 0 and not sword:
                    return
            if turns and left > 0:
                here = (*prefix, *entered)
                for d2 in range(8):
                    if d2 != d:
                        walk(nxt, d2, left, beaten, sword_used, here, True)
            lv_pos = lv_next

    if mp > 0:
        for d in range(8):
            walk(origin, d, mp, (), False, (), False)
    return found, frozenset(blocked - set(found))


def assert_same_as_reference(
    state: KolossusState, piece: int, mp: int, sword: bool, whip: bool
) -> None:
    """Ends (in order, with their ways) and blocked squares equal the reference's."""
    query = reach_query(state, piece, mp, sword=sword, whip=whip)
    reach.cache_clear()  # computed afresh, not recalled from an earlier test's memo
    produced = reach(*query)
    ends, blocked = reference_reach(query)
    assert list(produced.ends.items()) == list(ends.items())
    assert produced.blocked == blocked


@pytest.mark.slow
@settings(
    max_examples=scaled(100, 900), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(data=st.data())
def test_K_R09_K_R10_K_R11_K_R13_K_R31_K_R32_random_boards_give_the_reference_destinations(
    data: st.DataObject,
) -> None:
    """Every class and chapter, the Colossus most often, with every weapon in Chapter 3;
    MP up to 1023 (all the reference ranks right)."""
    cls = data.draw(st.sampled_from(["W", "G", "C", "C"]))
    chapter = data.draw(st.integers(1, 3))
    state, piece, mp = data.draw(positions(cls, chapter))
    mp = data.draw(st.just(mp) | st.integers(0, 1023))
    cases = WEAPON_CASES if cls == "C" and chapter == 3 else [(False, False)]
    for sword, whip in cases:
        assert_same_as_reference(state, piece, mp, sword, whip)


def test_K_R31_K_R32_the_benchs_worst_cases_give_the_reference_destinations() -> None:
    """A Chapter 3 Colossus with 18 MP, Sword and Whip charged, on crowded boards."""
    for seed in range(scaled(12, 60)):
        state, piece = worst_case(seed)
        for sword, whip in WEAPON_CASES:
            assert_same_as_reference(state, piece, state.mp, sword, whip)


@pytest.mark.parametrize("seed", range(4))
def test_K_R01_K_R04_positions_of_random_games_give_the_reference_destinations(seed: int) -> None:
    """Every miniature that may move in random Chapter 3 games (after the Great Quake)."""
    options = RULES.parse_options(
        {"chapter": 3, "titan_weapons": "all_four", "defence_consumed": seed % 2 == 0}
    )
    start = RULES.setup(["Ann", "Bob", "Cleo", "Dov"], options, seed)
    played = random_game(RULES, start, seed, 400)
    rnd = random.Random(seed)
    checked = 0
    for state in played.states:
        if state.phase != "move" or not state.mp:
            continue
        for piece in movable_pieces(state):
            sword, whip = rnd.choice(WEAPON_CASES) if class_of(piece) == "C" else (False, False)
            assert_same_as_reference(state, piece, state.mp, sword, whip)
            checked += 1
    assert checked > 20
