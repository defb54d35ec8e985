"""The end of a turn at the edges: the last card of the deck drawn (BC-R14), the word a
compulsory-building table asks for with just enough cards (BC-R03), and the zero-Rune
check of a player who emptied their own pile, won or lapsed (BC-R10)."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.events import GameEnded
from companion.games.builders import RULES
from companion.games.builders.model import (
    Build,
    BuildersState,
    Curse,
    Draw,
    EndTurn,
    ZeroCheck,
)
from tests.helpers.builders import TABLE, act, new_game, with_runes


def test_BC_R14_the_last_card_of_the_deck_can_be_drawn() -> None:
    state = new_game(3).model_copy(update={"hands": (10, 10, 114), "deck": 1})
    assert Draw() in list(RULES.legal_actions(state))
    after = act(state, Draw())
    assert (after.hands, after.deck, after.runes[0]) == ((11, 10, 114), 0, 11)


def needs_the_word(state: BuildersState) -> bool:
    """Whether ending the turn asks for the "no Blueprint can be completed" word."""
    ends = [a for a in RULES.legal_actions(state) if isinstance(a, EndTurn)]
    assert len(ends) == 1
    try:
        RULES.apply(state, EndTurn())
    except RuleViolation as err:
        assert err.ruling == "BC-R03"
        assert ends == [EndTurn(no_build_possible=True)]
        return True
    assert ends == [EndTurn()]
    return False


@pytest.mark.parametrize(("hand", "asked"), [(0, False), (1, True)])
def test_BC_R03_without_a_table_one_card_and_3_runes_may_build(hand: int, asked: bool) -> None:
    state = act(new_game(forced_build=True), Draw())
    state = state.model_copy(update={"hands": (hand, 10, 10), "deck": 135 - 20 - hand})
    assert needs_the_word(state) is asked


@pytest.mark.parametrize(("hand", "asked"), [(3, False), (4, True)])
def test_BC_R03_with_a_table_the_smallest_blueprint_s_cards_may_build(
    hand: int, asked: bool
) -> None:
    state = act(new_game(forced_build=True, blueprints=TABLE), Draw())  # 11 Runes
    state = state.model_copy(update={"hands": (hand, 10, 10), "deck": 135 - 20 - hand})
    assert needs_the_word(state) is asked


def test_BC_R03_with_every_slot_empty_nothing_can_be_built() -> None:
    state = act(new_game(forced_build=True, blueprints=TABLE), Draw())
    assert not needs_the_word(state.model_copy(update={"face_up": (None, None, None)}))


def test_BC_R10_after_a_full_round_a_player_at_zero_on_their_own_turn_is_checked_next_turn() -> (
    None
):
    state = with_runes(new_game(3, zero_check="full_round"), 3, 10, 10)
    after, events = RULES.apply(state, Build(slot=1, rune_cost=3, cards=5))
    assert after.zero_checks == (4, None, None)  # Bob's turn 2 and Cleo's 3 come first
    assert events[-1] == ZeroCheck(
        text="Ann has 0 Runes: they win if they still have 0 at the start of turn 4.",
        player=0,
        result="set",
        due_turn=4,
    )


def zero_after_own_build() -> BuildersState:
    """Ann draws her 3rd Rune, builds all 3 away on turn 1 and ends it; Bob is to play
    turn 2."""
    state = with_runes(new_game(2), 2, 10)
    return act(state, Draw(), Build(slot=1, rune_cost=3, cards=5), EndTurn())


def test_BC_R10_a_player_still_at_zero_when_their_turn_starts_wins() -> None:
    after, events = RULES.apply(act(zero_after_own_build(), Draw()), EndTurn())
    text = "Ann still has 0 Runes at the start of their turn and wins."
    assert events[1:] == (
        ZeroCheck(text=text, player=0, result="won", due_turn=3),
        GameEnded(text=text),
    )
    outcome = RULES.outcome(after)
    assert outcome is not None
    assert (outcome.winners, outcome.reason, outcome.text) == ((0,), "zero_runes", text)


def test_BC_R10_a_player_given_runes_again_sees_the_check_lapse() -> None:
    state = act(zero_after_own_build(), Curse(runes=(2, 0)))
    after, events = RULES.apply(state, EndTurn())
    assert events[1:] == (
        ZeroCheck(
            text="Ann has Runes again; the zero-Rune check lapses.",
            player=0,
            result="lapsed",
            due_turn=3,
        ),
    )
    assert RULES.outcome(after) is None and after.zero_checks == (None, None)
