"""Builders' field values in words, whatever a form or a hand-made request puts in a
field, and the role each action plays for the table's controls."""

from __future__ import annotations

from companion.games.builders import RULES
from companion.games.builders.model import PickWinner
from companion.rules import ROLL_TYPE, ActionRole
from tests.helpers.builders import new_game


def test_a_yes_or_no_without_its_own_words_is_yes_or_no() -> None:
    state = new_game()
    assert RULES.value_words(state, "reveal", "take", True) == "take 1 card"
    assert RULES.value_words(state, "reveal", "take", False) == "take none"
    assert RULES.value_words(state, "trade", "agreed", True) == "yes"
    assert RULES.value_words(state, "trade", "agreed", False) == "no"


def test_a_value_not_given_says_so() -> None:
    assert RULES.value_words(new_game(), "build", "rune_cost", None) == "not given"


def test_counts_are_numbers_and_only_seat_fields_are_names() -> None:
    state = new_game()
    assert RULES.value_words(state, "trade", "cards_received", 2) == "2"
    assert RULES.value_words(state, "correct_runes", "runes", 5) == "5"
    assert RULES.value_words(state, "trade", "partner", 2) == "Cleo"
    assert RULES.value_words(state, "curse", "runes", (1, 0, 2)) == "Ann 1, Bob 0, Cleo 2"


def test_a_value_of_an_unexpected_shape_is_shown_as_it_came() -> None:
    """A hand-made request's field is shown as given, never an exception."""
    state = new_game()
    assert RULES.value_words(state, "trade", "partner", "Bob") == "Bob"
    assert RULES.value_words(state, "build", "blueprint", {"head": 1}) == "{'head': 1}"
    assert RULES.value_words(state, "build", "parts", [1, 2]) == "[1, 2]"
    assert RULES.value_words(state, "build", "cards", [1, 2]) == "[1, 2]"


def test_BC_R12_a_pick_of_nobody_says_so() -> None:
    assert RULES.describe(new_game(), PickWinner(seats=())) == "Players decide: nobody wins"


def test_the_end_of_a_turn_and_the_corrections_have_their_roles() -> None:
    assert RULES.action_role("end_turn") is ActionRole.END_TURN
    for correction in ("correct_runes", "correct_hand", "correct_built"):
        assert RULES.action_role(correction) is ActionRole.CORRECTION
    assert RULES.action_role(ROLL_TYPE) is ActionRole.ROLL  # every game's, though unused here
    assert RULES.action_role("draw") is None
