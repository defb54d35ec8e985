"""The 10th Colossus ends Builders of the Colossus at once (BC-R01): the fewest Runes win,
then the most Colossi (BC-R12); a full tie goes to the players, who pick one or several
winners, or is shared. Each outcome's reason, winners and words, and the last row of
the score sheet, are checked here."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.events import Event, GameEnded
from companion.games.builders import RULES
from companion.games.builders.model import (
    Build,
    BuildersAction,
    BuildersState,
    CorrectRunes,
    PickWinner,
)
from companion.outcome import Outcome
from tests.helpers.builders import new_game, with_builds, with_runes

LAST = Build(slot=1, rune_cost=3, cards=5)  # the 10th Colossus, 3 Runes sealed


def before_last(*runes: int, builds: tuple[int, ...], final_tie: str = "manual") -> BuildersState:
    """Nine Colossi built by ``builds``, the Runes as given, Ann (seat 0) to build the 10th
    on turn 7."""
    state = new_game(len(runes), final_tie=final_tie)
    state = with_runes(with_builds(state, *builds), *runes)
    return state.model_copy(update={"turn": 7})


def finish(state: BuildersState, action: BuildersAction = LAST) -> tuple[BuildersState, Event]:
    after, events = RULES.apply(state, action)
    assert isinstance(events[-1], GameEnded)
    return after, events[-1]


def outcome(state: BuildersState) -> Outcome:
    result = RULES.outcome(state)
    assert result is not None
    return result


def test_BC_R01_the_10th_colossus_ends_the_game_with_a_last_score_row() -> None:
    state = before_last(10, 4, 9, builds=(1, 1, 1, 2, 2, 2, 0, 0, 0))
    after, ended = finish(state.model_copy(update={"current": 2}))  # Cleo builds the 10th
    last = RULES.scores(after).rows[-1]
    assert (last.label, last.values) == ("Turn 7 · Cleo (end)", (10, 4, 6))
    assert len(RULES.scores(after).rows) == len(RULES.scores(state).rows) + 1
    result = outcome(after)
    assert (result.winners, result.reason) == ((1,), "fewest_runes")
    assert result.text == ended.text == "10 Colossi built: Bob wins with 4 Runes."
    assert RULES.current_player(after) is None


def test_BC_R12_fewest_runes_wins_even_with_fewer_colossi() -> None:
    after, ended = finish(before_last(4, 2, builds=(1,) * 9))
    result = outcome(after)
    assert (result.winners, result.reason) == ((0,), "fewest_runes")  # Ann: 1 Rune left
    assert ended.text == "10 Colossi built: Ann wins with 1 Rune."


def test_BC_R12_more_colossi_breaks_a_runes_tie_among_three() -> None:
    # All three end on 5 Runes; Ann builds her 3rd, Bob has 3 and Cleo 4.
    state = before_last(8, 5, 5, builds=(0, 0, 1, 1, 2, 2, 2, 2, 1))
    after, ended = finish(state)
    result = outcome(after)
    assert (result.winners, result.reason) == ((2,), "more_colossi")
    assert ended.text == "10 Colossi built: Cleo wins with 5 Runes."


def test_BC_R12_a_full_tie_waits_for_the_players_who_are_named() -> None:
    state = before_last(8, 5, 5, 9, builds=(0, 0, 1, 1, 1, 2, 2, 2, 3))
    after, ended = finish(state)
    assert RULES.outcome(after) is None and after.tied == (0, 1, 2)
    assert ended.text == (
        "10 Colossi built; Ann or Bob or Cleo tie on Runes and Colossi: the players decide."
    )
    assert RULES.scores(after).rows[-1].label == "Turn 7 · Ann (end)"


def test_BC_R12_only_the_players_tied_on_colossi_too_are_asked() -> None:
    state = before_last(8, 5, 5, 9, builds=(0, 0, 1, 1, 1, 2, 2, 3, 3))
    after, ended = finish(state)
    assert after.tied == (0, 1)
    assert (
        ended.text == "10 Colossi built; Ann or Bob tie on Runes and Colossi: the players decide."
    )
    assert list(RULES.legal_actions(after)) == [
        PickWinner(seats=(0,)),
        PickWinner(seats=(1,)),
        PickWinner(seats=(0, 1)),
    ]


def test_BC_R12_a_full_tie_is_shared_at_a_table_that_shares() -> None:
    state = before_last(8, 5, 9, builds=(0, 0, 0, 0, 1, 1, 1, 1, 1), final_tie="shared")
    after, ended = finish(state)
    result = outcome(after)
    assert (result.winners, result.reason) == ((0, 1), "shared")
    assert (
        result.text == ended.text == "10 Colossi built: Ann and Bob share the victory with 5 Runes."
    )
    assert after.tied == ()


def tied_three() -> BuildersState:
    """Ann, Bob and Cleo tied on 5 Runes and 3 Colossi; Dov is out of it."""
    return finish(before_last(8, 5, 5, 9, builds=(0, 0, 1, 1, 1, 2, 2, 2, 3)))[0]


@pytest.mark.parametrize("seats", [(), (0, 0), (1, 3), (1, 1, 2)], ids=str)
def test_BC_R12_the_pick_names_tied_players_once_each(seats: tuple[int, ...]) -> None:
    state = tied_three()
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, PickWinner(seats=seats))
    assert (err.value.message, err.value.ruling) == (
        "Pick one or more of the tied players: Ann, Bob, Cleo.",
        "BC-R12",
    )


def test_BC_R12_the_players_pick_one_winner() -> None:
    after, ended = finish(tied_three(), PickWinner(seats=(2,)))
    result = outcome(after)
    assert (result.winners, result.reason) == ((2,), "players_decide")
    assert result.text == ended.text == "The players decide: Cleo wins."
    assert after.tied == () and list(RULES.legal_actions(after)) == []


def test_BC_R12_the_players_pick_several_winners_in_seat_order() -> None:
    after, ended = finish(tied_three(), PickWinner(seats=(2, 0)))
    result = outcome(after)
    assert (result.winners, result.reason) == ((0, 2), "players_decide")
    assert result.text == ended.text == "The players decide: Ann and Cleo share the victory."
    assert after.tied == ()


def test_BC_R12_every_tied_player_may_be_picked() -> None:
    after, ended = finish(tied_three(), PickWinner(seats=(0, 1, 2)))
    assert outcome(after).winners == (0, 1, 2)
    assert ended.text == "The players decide: Ann and Bob and Cleo share the victory."


def test_0_2_1_no_correction_after_the_end_nor_while_the_players_decide() -> None:
    decided = finish(tied_three(), PickWinner(seats=(1,)))[0]
    for state in (tied_three(), decided):
        with pytest.raises(RuleViolation) as err:
            RULES.apply(state, CorrectRunes(player=0, runes=1))
        assert (err.value.message, err.value.ruling) == (
            "The game has ended; take actions back with undo to correct it.",
            "0.2.1",
        )


def test_BC_R12_play_stops_at_the_end_and_while_the_players_decide() -> None:
    decided = finish(tied_three(), PickWinner(seats=(1,)))[0]
    for state, refused in (
        (decided, ("The game is over.", None)),
        (
            tied_three(),
            ("All 10 Colossi are built; the players must now pick the winner.", "BC-R12"),
        ),
    ):
        with pytest.raises(RuleViolation) as err:
            RULES.apply(state, LAST)
        assert (err.value.message, err.value.ruling) == refused
