"""Every Kolossus action outside its phase is refused by name with the status line, a
finished game refuses everything but a correction (K-R37) and a pending roll comes first
(K-R07)."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from companion.dice import Roll
from companion.errors import RuleViolation
from companion.games.corrections import Correction
from companion.games.kolossus import RULES
from companion.games.kolossus.model import GameResult
from tests.games.kolossus.helpers import NW, act, in_turn, new_game, ready_to_move, refusal

TURN = "Round 1/12 · Tua'tha (Ann) · 2 activation points: class, power or end of turn"
MOVE = "Round 1/12 · Tua'tha (Ann) · move a Warrior (2 movement points)"
CRYSTALS = " · crystals on the Citadel: 1"


@pytest.mark.parametrize(
    ("action", "what"),
    [
        ({"type": "move", "from": "0,0", "to": "0,0"}, "Moving"),
        ({"type": "spear", "target": "0,0"}, "The Spear of Vengeance"),
        ({"type": "hammer", "targets": ["0,0"]}, "The Hammer of Doom"),
        ({"type": "finish"}, "Finishing the activation"),
        ({"type": "swap", "a": "0,0", "b": "0,1"}, "Arranging miniatures"),
        ({"type": "ready"}, "Ready"),
        ({"type": "quake_move", "region": "row3", "direction": "east"}, "A Great Quake move"),
        ({"type": "allocate"}, "Allocating mana"),
    ],
)
def test_an_action_of_another_phase_is_refused_by_name_in_a_turn(
    action: dict[str, Any], what: str
) -> None:
    state = in_turn(new_game(chapter=3), NW, ap=2)
    assert refusal(state, action) == (f"{what} is not possible now ({TURN}{CRYSTALS}).", None)


@pytest.mark.parametrize(
    ("action", "what"),
    [
        ({"type": "choose_class", "cls": "W"}, "Choosing a class"),
        ({"type": "end_turn"}, "Ending the turn"),
        ({"type": "earthquake", "region": "row3", "direction": "east"}, "The Earthquake"),
        ({"type": "rebirth", "cls": "W", "to": "0,0"}, "Rebirth"),
    ],
)
def test_a_turn_action_is_refused_by_name_during_a_move(action: dict[str, Any], what: str) -> None:
    state = ready_to_move(new_game(chapter=3), NW, "W", 2)
    state = state.model_copy(update={"ap": 2})
    assert refusal(state, action) == (f"{what} is not possible now ({MOVE}{CRYSTALS}).", None)


def test_K_R37_a_finished_game_refuses_every_action() -> None:
    result = GameResult(alliance=None, reason="no_capture", text="A draw.")
    over = in_turn(new_game(), NW).model_copy(update={"phase": "over", "result": result})
    for action in ({"type": "end_turn"}, {"type": "ready"}):
        assert refusal(over, action) == ("The game is over.", "K-R37")
    with pytest.raises(RuleViolation) as refused:
        RULES.apply(over, Roll(values=(1,)))
    assert (refused.value.message, refused.value.ruling) == ("The game is over.", "K-R37")


def test_K_R07_a_pending_roll_comes_before_any_other_action() -> None:
    waiting = act(in_turn(new_game(), NW, ap=2), {"type": "choose_class", "cls": "W"})[0]
    assert refusal(waiting, {"type": "end_turn"}) == (
        "Roll first: Warrior movement: Tua'tha rolls 1d4.",
        "K-R07",
    )


class StrayCorrection(Correction):
    """A correction of no Kolossus kind (another game's, or a hand-made one)."""

    type: Literal["stray"] = "stray"


def test_a_correction_kolossus_does_not_know_is_refused() -> None:
    state = in_turn(new_game(), NW)
    with pytest.raises(RuleViolation) as refused:
        RULES.apply(state, StrayCorrection())  # type: ignore[arg-type]
    assert (refused.value.message, refused.value.ruling) == (
        "Kolossus has no such correction.",
        "0.2.1",
    )
