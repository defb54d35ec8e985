"""The refusals of Builders' manual corrections (RULINGS 0.2.1) and of a Blueprint table
(BC-R15) that the correction and content tests do not read word for word: counts in the
plural, the Parts deck running short, an action or a correction of another game."""

from __future__ import annotations

from typing import Literal

import pytest

from companion.errors import InvalidContent, RuleViolation
from companion.games.builders import RULES
from companion.games.builders.content import parse_blueprint_table
from companion.games.builders.model import BuildersState, CorrectBuilt, CorrectHand
from companion.games.corrections import Correction
from companion.model import Frozen
from tests.helpers.builders import TABLE, act, new_game


class CorrectWeather(Correction):
    """A correction Builders does not have (another game's, or a hand-made one)."""

    type: Literal["correct_weather"] = "correct_weather"


class Pray(Frozen):
    """An action Builders does not have."""

    type: Literal["pray"] = "pray"


def refusal(state: BuildersState, action: object) -> tuple[str, str | None]:
    before = RULES.dump_position(state)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, action)  # type: ignore[arg-type]
    assert RULES.dump_position(state) == before
    return err.value.message, err.value.ruling


def test_an_action_builders_does_not_have_is_refused() -> None:
    assert refusal(new_game(), Pray()) == ("Builders of the Colossus has no such action.", None)


def test_0_2_1_a_correction_builders_does_not_have_is_refused() -> None:
    assert refusal(new_game(), CorrectWeather()) == (
        "Builders of the Colossus has no such correction.",
        "0.2.1",
    )


def test_0_2_1_nothing_to_correct_counts_colossi_in_the_plural() -> None:
    state = act(new_game(), CorrectBuilt(player=1, colossi=2))
    assert refusal(state, CorrectBuilt(player=1, colossi=2)) == (
        "Nothing to correct: Bob has already built 2 Colossi.",
        "0.2.1",
    )


def test_0_2_1_a_hand_cannot_take_more_cards_than_the_deck_holds() -> None:
    state = new_game(3)  # 105 cards in the deck
    assert refusal(state, CorrectHand(player=0, cards=116)) == (
        "The Parts deck holds only 105 cards, so Ann cannot hold 116 (there are 135 Parts cards).",
        "0.2.1",
    )
    one_left = act(state, CorrectHand(player=0, cards=114))
    assert refusal(one_left, CorrectHand(player=1, cards=12)) == (
        "The Parts deck holds only 1 card, so Bob cannot hold 12 (there are 135 Parts cards).",
        "0.2.1",
    )


def test_BC_R15_a_blueprint_table_too_small_for_ten_colossi_says_its_size() -> None:
    with pytest.raises(InvalidContent) as err:
        parse_blueprint_table(TABLE[:11])
    assert err.value.message == (
        "The Blueprint table has 11 cards; 10 Colossi need at least 12 "
        "(3 face up and 9 replacements)."
    )
