"""Kolossus for the property tests: option choices and their strategy, random positions
for the move generator, and the invariants every position keeps."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from companion.games.kolossus.content import LANDSCAPE_TOTALS
from companion.games.kolossus.model import KolossusState
from tests.games.kolossus.helpers import new_game, with_band

OPTION_CHOICES: dict[str, list[Any]] = {
    "quake_candidates": ["central10", "all22"],
    "region_move_model": ["rigid", "push_compress"],
    "quake_distance": ["exact", "up_to_roll"],
    "allies_are_friendly": [True, False],
    "defence_consumed": [True, False],
    "crystal_placement": ["one_per_round_accumulate", "refill_if_empty"],
    "capture_requires_entry": [False, True],
    "crystal_majority": ["relative", "absolute_7"],
    "elimination_unit": ["warband", "player"],
    "simultaneous_elimination": ["draw", "active_alliance_loses"],
    "titan_weapons": ["one_per_warband", "all_four"],
    "charge_from_pool": [False, True],
    "initiative_once_per_turn": [False, True],
}


def check_invariants(state: KolossusState) -> None:
    assert len(state.minis) == 32
    on_board = [s for s in state.minis if s >= 0]
    assert len(set(on_board)) == len(on_board), "two miniatures on one square"
    flat = "".join(state.terrain)
    assert flat.count("C") == 1, "the Citadel left the board"
    for ch, total in LANDSCAPE_TOTALS.items():
        assert flat.count(ch) <= total
    captured = sum(c.count for c in state.captures)
    assert state.crystals + state.crystal_supply + captured == 12
    beaten = sum(1 for s in state.minis if s < 0)
    assert beaten <= len(state.beats)  # every beaten piece was recorded (Rebirth undoes)
    if state.options.chapter >= 2:
        for band in state.warbands:
            assert band.mana_total() == 20, f"mana not conserved for {band.colour}"
            assert 0 <= band.pool <= 5
            assert min(band.supply, band.income, *band.skills, *band.charges) >= 0
    else:
        assert all(b.mana_total() == 0 for b in state.warbands)
    assert 0 <= state.round <= 12


@st.composite
def game_options(draw: st.DrawFn) -> dict[str, Any]:
    options: dict[str, Any] = {"chapter": draw(st.sampled_from([1, 2, 3]))}
    for name, choices in OPTION_CHOICES.items():
        if draw(st.booleans()):
            options[name] = draw(st.sampled_from(choices))
    return options


@st.composite
def positions(draw: st.DrawFn, cls: str, chapter: int) -> tuple[KolossusState, int, int]:
    options: dict[str, Any] = {
        "chapter": chapter,
        "allies_are_friendly": draw(st.booleans()),
        "defence_consumed": draw(st.booleans()),
    }
    state = new_game(2, seed=1, **options)
    mover_band = draw(st.integers(0, 3))
    slot = {"C": 0, "G": draw(st.sampled_from([1, 2])), "W": draw(st.integers(3, 7))}[cls]
    piece = mover_band * 8 + slot
    terrain_chars = draw(
        st.lists(st.sampled_from(".WHMC"), min_size=121, max_size=121)
        | st.just(list("".join(state.terrain)))
    )
    terrain_chars = ["M" if ch == "C" else ch for ch in terrain_chars]
    terrain_chars[draw(st.integers(0, 120))] = "C"  # exactly one Citadel, anywhere
    terrain = tuple("".join(terrain_chars[r * 11 : r * 11 + 11]) for r in range(11))
    squares = draw(st.permutations(list(range(121))))
    on_board = draw(st.lists(st.booleans(), min_size=32, max_size=32))
    minis = [squares[i] if on_board[i] else -1 for i in range(32)]
    minis[piece] = squares[piece]
    state = state.model_copy(update={"terrain": terrain, "minis": tuple(minis)})
    if chapter >= 2:
        for band in range(4):
            skills = tuple(draw(st.integers(0, 3)) for _ in range(6))
            state = with_band(state, band, skills=skills, supply=20 - sum(skills))
    mp = draw(st.integers(0, 20))
    return state, piece, mp


WEAPON_CASES = [(False, False), (True, False), (False, True), (True, True)]
