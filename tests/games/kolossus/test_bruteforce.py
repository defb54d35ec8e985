"""The production move generator against a deliberately naive path enumerator.

``brute_force`` shares no code with ``companion.games.kolossus.movement``: it reads the
state's raw fields (landscape rows, piece squares, skills) and tries every sequence of
single steps that the rules (RULINGS Appendix B.1) allow, keeping for each end square
the best (no Sword, most MP left, most beats) result. Hypothesis draws thousands of
random positions over every class, chapter and weapon.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.kolossus import RULES
from companion.games.kolossus.content import cell, levels_of
from companion.games.kolossus.model import KolossusState
from companion.games.kolossus.movement import check_path
from companion.games.kolossus.position import destinations, occupancy
from tests.faults.scale import scaled
from tests.games.kolossus.helpers import listed, ready_to_move, with_band
from tests.helpers.kolossus import WEAPON_CASES, positions

LEVEL = {".": 1, "W": 2, "H": 3, "M": 4, "C": 5}
STEPS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]
KIND = ["C", "G", "G", "W", "W", "W", "W", "W"]


def brute_force(
    state: KolossusState, piece: int, mp: int, sword: bool, whip: bool
) -> tuple[dict[tuple[int, int], tuple[bool, int, int]], set[tuple[int, int]]]:
    """{end (r, c): (no sword used, MP left, beats)} and the enemy squares never entered."""
    options = state.options
    me = piece // 8
    kind = KIND[piece % 8]
    start = divmod(state.minis[piece], 11)
    who: dict[tuple[int, int], int] = {}
    for other, at in enumerate(state.minis):
        if at >= 0 and other != piece:
            who[divmod(at, 11)] = other

    def level(rc: tuple[int, int]) -> int:
        return LEVEL[state.terrain[rc[0]][rc[1]]]

    def is_friend(other: int) -> bool:
        theirs = other // 8
        return theirs == me or (options.allies_are_friendly and theirs % 2 == me % 2)

    def defence(other: int) -> int:
        if whip:
            return 0
        band = state.warbands[other // 8]
        index = {"W": 1, "G": 3, "C": 5}[KIND[other % 8]]
        return band.skills[index]

    best: dict[tuple[int, int], tuple[bool, int, int]] = {start: (True, mp, 0)}
    tried_enemies: set[tuple[int, int]] = set()

    def better(key: tuple[bool, int, int], sqr: tuple[int, int]) -> None:
        if sqr not in best or key > best[sqr]:
            best[sqr] = key

    def extend(
        pos: tuple[int, int],
        heading: int | None,
        turns_used: int,
        left: int,
        beaten: frozenset[tuple[int, int]],
        continued: bool,
    ) -> None:
        if beaten and not sword:
            return  # a beat ends the move (K-R31: only the Sword continues)
        for d, (dr, dc) in enumerate(STEPS):
            turn = heading is not None and d != heading
            if turn and (kind == "W" or turns_used == 1):
                continue
            nxt = (pos[0] + dr, pos[1] + dc)
            if not (0 <= nxt[0] <= 10 and 0 <= nxt[1] <= 10):
                continue
            if left < 1:
                continue
            occupant = who.get(nxt)
            if occupant is not None and nxt in beaten:
                occupant = None
            enemy = occupant is not None and not is_friend(occupant)
            if kind != "C" and abs(level(nxt) - level(pos)) > 1:
                if enemy:
                    tried_enemies.add(nxt)
                continue
            now_continued = continued or bool(beaten)
            remaining = left - 1
            if enemy:
                assert occupant is not None
                need = defence(occupant)
                tried_enemies.add(nxt)
                if remaining < need:
                    continue
                if options.defence_consumed:
                    remaining -= need
                new_beaten = beaten | {nxt}
                better((not now_continued, remaining, len(new_beaten)), nxt)
                extend(nxt, d, turns_used + turn, remaining, new_beaten, now_continued)
            elif occupant is not None:
                extend(nxt, d, turns_used + turn, remaining, beaten, now_continued)
            else:
                better((not now_continued, remaining, len(beaten)), nxt)
                extend(nxt, d, turns_used + turn, remaining, beaten, now_continued)

    extend(start, None, 0, mp, frozenset(), False)
    return best, tried_enemies - set(best)


def _compare(state: KolossusState, piece: int, mp: int, sword: bool, whip: bool) -> None:
    produced = destinations(state, piece, mp, sword=sword, whip=whip)
    expected, blocked = brute_force(state, piece, mp, sword, whip)
    got = {
        divmod(sq, 11): (not way.sword_used, way.left, len(way.beaten))
        for sq, way in produced.ends.items()
    }
    assert got == expected
    assert {divmod(sq, 11) for sq in produced.blocked} == blocked
    origin = state.minis[piece]
    cls = "CGGWWWWW"[piece % 8]
    occ = occupancy(state, piece // 8, whip=whip, vacated=origin)
    for sq, way in produced.ends.items():  # every canonical path passes the path checker
        assert (way.path[-1] if way.path else origin) == sq
        checked = check_path(
            levels_of(state.terrain),
            occ,
            origin,
            way.path,
            cls != "W",
            cls == "C",
            mp,
            sword,
            state.options.defence_consumed,
        )
        assert checked == way


@pytest.mark.parametrize("cls", ["W", "G", "C"])
@pytest.mark.parametrize("chapter", [1, 2, 3])
@settings(max_examples=scaled(25, 130), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generator_agrees_with_brute_force(cls: str, chapter: int, data: st.DataObject) -> None:
    state, piece, mp = data.draw(positions(cls, chapter))
    cases = WEAPON_CASES if cls == "C" and chapter == 3 else [(False, False)]
    for sword, whip in cases:
        _compare(state, piece, mp, sword, whip)


@pytest.mark.slow
@settings(max_examples=scaled(80, 700), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_colossus_with_weapons_agrees_with_brute_force_many(data: st.DataObject) -> None:
    state, piece, mp = data.draw(positions("C", 3))
    for sword, whip in WEAPON_CASES:
        _compare(state, piece, mp, sword, whip)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_listed_moves_are_the_brute_force_destinations(data: st.DataObject) -> None:
    """The referee's listed move actions = the naive ends with every charged weapon."""
    cls = data.draw(st.sampled_from(["W", "G", "C"]))
    state, piece, mp = data.draw(positions(cls, 3))
    band = piece // 8
    weapons = data.draw(st.sampled_from([(2, 0), (0, 2), (2, 2), (0, 0)]))
    state = state.model_copy(
        update={"options": state.options.model_copy(update={"titan_weapons": "all_four"})}
    )
    state = with_band(
        state,
        band,
        charges=(weapons[0], weapons[1], 0, 0),
        supply=state.warbands[band].supply - sum(weapons),
    )
    state = ready_to_move(state, band, cls, mp)
    state = state.model_copy(
        update={"activated": tuple(p for p in range(band * 8, band * 8 + 8) if p != piece)}
    )
    moves = {a["to"] for a in listed(state, "move")}
    colossus = cls == "C"
    expected, _ = brute_force(
        state, piece, mp, colossus and weapons[0] > 0, colossus and weapons[1] > 0
    )
    assert moves == {f"{r},{c}" for r, c in expected}
    for to in sorted(moves)[:6]:  # and the referee accepts them
        RULES.apply(
            state,
            RULES.parse_action({"type": "move", "from": cell(state.minis[piece]), "to": to}),
        )
