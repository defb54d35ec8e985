"""What Colossi lists on a turn's last Action: one Action left is enough for a move and
for a card (CA-R15: a card play needs 1 available Action); none left, only the end of
the turn. A card named from the content file is of the kind the file gives (CA-R14), and
the history's Gold rows are named by the Age's round."""

from __future__ import annotations

from companion.games.island import colossi as ca
from companion.games.island.colossi import model as cam
from companion.games.island.colossi.model import EndTurn
from companion.games.island.content import parse_content
from companion.games.island.model import Move, PlayCard

from .colossi_help import R, act, actions, refusal


def test_ca_r15_the_last_action_still_lists_the_moves_and_a_card_in_hand() -> None:
    state = actions(movements_left=1, cards_in_hand=(1, 0))
    listed = list(R.legal_actions(state))
    assert any(isinstance(a, Move) for a in listed)
    assert any(isinstance(a, PlayCard) for a in listed)  # one card is a card to play
    assert listed[-1] == EndTurn()


def test_ca_r15_no_card_is_listed_without_one_in_hand() -> None:
    listed = list(R.legal_actions(actions(movements_left=1, cards_in_hand=(0, 3))))
    assert any(isinstance(a, Move) for a in listed)
    assert not any(isinstance(a, PlayCard) for a in listed)


def test_ca_r15_no_action_left_lists_only_the_end_of_the_turn() -> None:
    assert list(R.legal_actions(actions(movements_left=0, cards_in_hand=(2, 0)))) == [EndTurn()]


def _with_cards() -> ca.ColossiState:
    """The Action Phase with a content file of a Perk card and a Beast card, by id."""
    content = parse_content(
        {
            "cards": [
                {"id": "eagle", "name": "Eagle Eye", "kind": "perk"},
                {"id": "roar", "name": "Roar", "kind": "beast"},
            ]
        }
    )
    return actions(options={"content": content.model_dump(mode="json")}, cards_in_hand=(2, 0))


def test_ca_r14_a_named_card_is_the_kind_its_content_file_gives() -> None:
    """The card's kind is read from the content file, whatever kind the play names."""
    state = _with_cards()
    err = refusal(state, PlayCard(kind="action", card="eagle"))
    assert (err.message, err.ruling) == (
        "Colossi's cards are Action, Beast and Divine Gift cards.",
        "CA-R14",
    )
    assert act(state, PlayCard(kind="action", card="roar")).movements_left == 4  # CA-R15


def test_the_history_row_of_the_first_turn_is_round_1() -> None:
    """Each end of a turn adds a Gold row to the history, named by the Age's round."""
    first = act(actions(), EndTurn())
    assert first.history[-1].label == "Age I round 1 (Ann)"
    assert act(first, EndTurn()).history[-1].label == "Age I round 1 (Bob)"


def test_ca_r14_a_card_the_content_file_does_not_hold_is_refused_by_name() -> None:
    state = _with_cards()
    err = refusal(state, PlayCard(kind="action", card="fireball"))
    assert err.message == "The content file has no card 'fireball'."


def test_the_age_card_scoring_and_the_harvest_begin_with_the_mantle_holder() -> None:
    """3.7: after the Age's last turn (Ann's), the Age card's scoring and then the Harvest
    are the Mantle holder's (Bob's) to enter and begin."""
    state = actions(mantle=1)
    state = state.model_copy(update={"age_turns": state.rounds * 2 - 1})
    scoring = act(state, EndTurn())
    assert (scoring.phase, scoring.active, R.current_player(scoring)) == ("age_scoring", 1, 1)
    harvest = act(scoring, cam.AgeScoring(gold=(0, 0)))
    assert (harvest.phase, harvest.active) == ("harvest", 1)
