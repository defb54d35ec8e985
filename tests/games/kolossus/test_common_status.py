"""The Kolossus status line in every phase: the stage, the warband and its player, what
the table is asked now and the crystals on the Citadel (K-R15, K-R37)."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.games.kolossus import RULES
from companion.games.kolossus.common import cell_arg, need_phase
from companion.games.kolossus.model import GameResult
from tests.games.kolossus.helpers import NE, NW, act, in_turn, new_game, roll, with_band


def test_the_invasion_asks_for_the_arrangement_the_skills_and_the_quake() -> None:
    state = new_game(chapter=2)
    assert RULES.status(state) == (
        "Invasion · Tua'tha (Ann) · arrange the miniatures, then ready · crystals on the Citadel: 1"
    )
    skills = act(state, {"type": "ready"})[0]
    assert RULES.status(skills) == (
        "Invasion · Tua'tha (Ann) · put 4 mana on the skills · crystals on the Citadel: 1"
    )
    quake = act(new_game(), {"type": "ready"})[0]
    assert RULES.status(quake) == (
        "Invasion · Tua'tha (Ann) · roll for the Great Quake · crystals on the Citadel: 1"
    )
    assert " · move a region · " in RULES.status(roll(quake, 2))


def test_the_allocations_say_how_much_mana_there_is() -> None:
    state = with_band(in_turn(new_game(chapter=2), NE, round_=4), NE, income=3, supply=17)
    allocate = state.model_copy(update={"phase": "allocate"})
    assert RULES.status(allocate) == (
        "Round 4/12 · Krell (Bob) · allocate 3 mana · crystals on the Citadel: 1"
    )
    quake = allocate.model_copy(update={"phase": "quake_allocate", "round": 0})
    assert (
        RULES.status(quake)
        == "Invasion · Krell (Bob) · allocate 3 mana · crystals on the Citadel: 1"
    )


def test_the_movement_dice_and_the_destiny_die_are_asked_by_name() -> None:
    state = in_turn(new_game(), NW, ap=4)
    chosen = act(state, {"type": "choose_class", "cls": "G"})[0]
    assert RULES.status(chosen) == (
        "Round 1/12 · Tua'tha (Ann) · roll the Guardian movement dice · crystals on the Citadel: 1"
    )
    destiny = state.model_copy(update={"phase": "destiny", "crystals": 3, "round": 12})
    assert RULES.status(destiny) == (
        "Round 12/12 · Tua'tha (Ann) · roll the Die of Destiny · crystals on the Citadel: 3"
    )


def test_K_R37_the_status_of_a_finished_game_is_its_result() -> None:
    result = GameResult(alliance=None, reason="no_capture", text="No crystal was captured.")
    over = new_game().model_copy(update={"phase": "over", "result": result})
    assert RULES.status(over) == "Game over: No crystal was captured."


def test_an_action_in_the_wrong_phase_is_refused_with_the_status() -> None:
    state = in_turn(new_game(), NW, ap=2)
    with pytest.raises(RuleViolation) as refused:
        need_phase(state, "move", "after_move", what="Moving")
    assert refused.value.message == (
        "Moving is not possible now (Round 1/12 · Tua'tha (Ann) · 2 activation points: class,"
        " power or end of turn · crystals on the Citadel: 1)."
    )
    assert refused.value.ruling is None
    need_phase(state, "move", "turn", what="Moving")  # any of the phases named


def test_K_R01_a_square_off_the_board_is_refused_by_name() -> None:
    assert cell_arg("10,10", "Target") == 120
    with pytest.raises(RuleViolation) as refused:
        cell_arg("11,0", "Target")
    assert refused.value.message == "Target '11,0' is not a square of the 11×11 board."
    assert refused.value.ruling == "K-R01"
