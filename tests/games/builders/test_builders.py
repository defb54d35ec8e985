"""Builders of the Colossus (seed 004): one test per ruling BC-R01…BC-R15, plus properties.

Positions are made with ``setup`` and then adjusted with ``model_copy`` where a test
needs a particular Rune count, hand size or counter value.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import InvalidContent, InvalidOptions, InvalidPosition, RuleViolation
from companion.events import Event, TableChanges
from companion.games.builders import RULES
from companion.games.builders.content import (
    CURSE_MAX,
    CURSE_MIN,
    PARTS_IN_GAME,
    parse_blueprint_table,
)
from companion.games.builders.model import (
    ActionTaken,
    Build,
    BuildersAction,
    BuildersState,
    CorrectRunes,
    Curse,
    Draw,
    EndTurn,
    PartsMoved,
    PickWinner,
    Reveal,
    RunesMoved,
    Trade,
    ZeroCheck,
)
from tests.games.random_play import random_game, replay
from tests.helpers.builders import NAMES, TABLE, act, new_game, with_builds, with_runes


def refused(state: BuildersState, action: BuildersAction, ruling: str | None = None) -> str:
    with pytest.raises(RuleViolation) as info:
        RULES.apply(state, action)
    if ruling is not None:
        assert info.value.ruling == ruling
    assert info.value.message
    return info.value.message


def winners(state: BuildersState) -> tuple[int, ...] | None:
    outcome = RULES.outcome(state)
    return None if outcome is None else outcome.winners


def build(slot: int = 1, cost: int = 3, accessories: int = 0, cards: int = 5) -> Build:
    return Build(slot=slot, rune_cost=cost, accessories=accessories, cards=cards)


def check_invariants(state: BuildersState) -> None:
    n = len(state.players)
    assert sum(state.hands) + state.deck == PARTS_IN_GAME
    assert sum(state.runes) == 10 * n + sum(state.from_stockpile) - sum(state.sealed)
    assert min(state.runes) >= 0 and min(state.hands) >= 0 and state.deck >= 0
    if state.deck > 0:
        assert min(state.hands) >= 10, "BC-R06: every hand is refilled while cards remain"


# --- setup, status, scores -----------------------------------------------------------


def test_setup_deals_runes_hands_and_counts_the_deck() -> None:
    for players in (2, 3, 4):
        state = new_game(players)
        assert state.runes == (10,) * players
        assert state.hands == (10,) * players
        assert state.deck == 135 - 10 * players
        assert state.current == 0
        check_invariants(state)


def test_player_count_is_two_to_four() -> None:
    with pytest.raises(InvalidOptions):
        RULES.setup(["Ann"], RULES.parse_options({}), 1)
    with pytest.raises(InvalidOptions):
        RULES.setup([*NAMES, "Eve"], RULES.parse_options({}), 1)


def test_status_line_names_turn_player_counter_and_actions() -> None:
    state = new_game()
    assert RULES.status(state) == "Turn 1 · Ann · built 0/10 · Curse, or Trade/Draw/Reveal"
    state = act(state, Draw())
    assert RULES.status(state) == "Turn 1 · Ann · built 0/10 · actions used: Draw"
    state = act(state, Reveal(target=2))
    assert RULES.status(state) == "Turn 1 · Ann · built 0/10 · actions used: Draw, Reveal"
    state = act(state, EndTurn(), Curse(runes=(1, 0, 0)))
    assert RULES.status(state) == "Turn 2 · Bob · built 0/10 · cursed"
    tied = state.model_copy(update={"tied": (0, 2)})
    assert RULES.status(tied) == "Turn 2 · built 0/10 · players decide the winner: Ann or Cleo"


def test_scores_record_runes_after_every_turn() -> None:
    state = act(new_game(2), Draw(), EndTurn(), Curse(runes=(2, 1)), EndTurn())
    sheet = RULES.scores(state)
    assert sheet.measure == "runes"
    assert [row.values for row in sheet.rows] == [(11, 10), (13, 11)]
    assert [row.label for row in sheet.rows] == ["Turn 1 · Ann", "Turn 2 · Bob"]


def test_turn_order_is_clockwise_from_the_first_player() -> None:
    state = new_game(4)
    seen = []
    for _ in range(6):
        seen.append(RULES.current_player(state))
        state = act(state, Draw(), EndTurn())
    assert seen == [0, 1, 2, 3, 0, 1]


def test_each_action_at_most_once_per_turn() -> None:
    state = act(new_game(), Draw(), Reveal(target=1), Trade(partner=2, cards_received=1))
    refused(state, Draw())
    refused(state, Reveal(target=2))
    refused(state, Trade(partner=1, cards_received=1))
    assert [a for a in RULES.legal_actions(state) if not isinstance(a, Build | EndTurn)] == []


def test_draw_costs_a_rune_and_gains_a_card() -> None:
    state = new_game()
    after, events = RULES.apply(state, Draw())
    assert after.runes == (11, 10, 10)
    assert after.hands == (11, 10, 10)
    assert after.deck == state.deck - 1
    assert any(isinstance(e, RunesMoved) and e.giver is None for e in events)


# --- the rulings -----------------------------------------------------------------------


def test_BC_R01_counter_shows_built_of_ten_and_tenth_build_ends_mid_turn() -> None:
    state = with_builds(new_game(), 1, 2, 1, 2, 1, 2, 1, 2)
    assert "built 8/10" in RULES.status(state)
    state = act(state, build())  # 9th: play goes on
    assert RULES.outcome(state) is None
    assert "built 9/10" in RULES.status(state)
    state = act(state, build(slot=2, cost=4))  # 10th, in the same turn, before any action
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,)  # Ann: 10 - 3 - 4 = 3 Runes, the others 10
    assert outcome.reason == "fewest_runes"
    assert list(RULES.legal_actions(state)) == []
    assert RULES.current_player(state) is None
    refused(state, Draw())


def test_BC_R02_curse_replaces_actions_but_building_is_allowed() -> None:
    state = act(new_game(), Curse(runes=(1, 2, 1)))
    assert state.runes == (11, 12, 11)
    for action in (Draw(), Reveal(target=1), Trade(partner=1, cards_received=1)):
        assert refused(state, action, "BC-R02")
    refused(state, Curse(runes=(0, 1, 0)), "BC-R02")
    state = act(state, build(cost=6, accessories=2, cards=7))
    assert state.runes == (3, 12, 11)
    after_draw = act(new_game(), Draw())
    refused(after_draw, Curse(runes=(0, 1, 0)), "BC-R02")


def test_BC_R03_building_is_voluntary_by_default() -> None:
    state = act(new_game(), Draw())
    assert any(isinstance(a, Build) for a in RULES.legal_actions(state))
    after = act(state, EndTurn())
    assert after.current == 1 and after.built == 0


def test_BC_R03_forced_build_asks_for_the_players_word() -> None:
    state = act(new_game(forced_build=True), Draw())
    refused(state, EndTurn(), "BC-R03")
    assert EndTurn(no_build_possible=True) in list(RULES.legal_actions(state))
    assert act(state, EndTurn(no_build_possible=True)).current == 1
    poor = act(with_runes(new_game(forced_build=True), 2, 10, 10), Draw())  # 3 Runes: word needed
    refused(poor, EndTurn(), "BC-R03")
    broke = act(with_runes(new_game(forced_build=True), 1, 10, 10), Draw())  # 2 Runes < cost 3
    assert act(broke, EndTurn()).current == 1


def test_BC_R03_forced_build_with_table_uses_face_up_costs() -> None:
    state = new_game(forced_build=True, blueprints=TABLE)
    cheapest = min(TABLE[i]["rune_cost"] for i in state.face_up if i is not None)
    short = act(with_runes(state, cheapest - 2, 10, 10), Draw())
    assert act(short, EndTurn()).current == 1
    enough = act(with_runes(state, cheapest - 1, 10, 10), Draw())
    refused(enough, EndTurn(), "BC-R03")


def test_BC_R04_reveal_takes_from_target_then_stockpile() -> None:
    state = with_runes(new_game(), 10, 1, 10)
    after = act(state, Reveal(target=1))
    assert after.runes == (12, 0, 10)
    assert after.from_stockpile[0] == state.from_stockpile[0] + 1
    rich = act(new_game(), Reveal(target=2))
    assert rich.runes == (12, 10, 8)
    assert rich.from_stockpile == (0, 0, 0)


def test_BC_R04_reveal_source_stockpile_and_target_only() -> None:
    from_pile = act(new_game(reveal_source="stockpile"), Reveal(target=1))
    assert from_pile.runes == (12, 10, 10)
    strict = with_runes(new_game(reveal_source="target_only_require_2"), 10, 1, 10)
    refused(strict, Reveal(target=1), "BC-R04")
    assert Reveal(target=1) not in list(RULES.legal_actions(strict))
    assert act(strict, Reveal(target=2)).runes == (12, 1, 8)
    refused(new_game(), Reveal(target=0), "BC-R04")


def test_BC_R05_taking_a_revealed_card_is_optional_and_target_refills() -> None:
    state = new_game()
    look = act(state, Reveal(target=1, take=False))
    assert look.hands == state.hands and "reveal" in look.actions_used
    take = act(state, Reveal(target=1, take=True))
    assert take.hands == (11, 10, 10)  # Bob gave one and drew back to 10
    assert take.deck == state.deck - 1
    assert act(take, EndTurn()).current == 1  # Reveal counts as the turn's action


def test_BC_R05_a_reveal_that_takes_nothing_still_counts_as_the_turns_reveal() -> None:
    state = new_game()
    after, events = RULES.apply(state, Reveal(target=1, take=False))
    assert after.runes == (12, 8, 10)  # the 2 Runes are gained either way (BC-R04)
    assert after.hands == state.hands and after.deck == state.deck  # no card changed hands
    assert not any(isinstance(e, PartsMoved) for e in events)
    assert after.actions_used == ("reveal",) and after.mode == "actions"
    assert RULES.status(after).endswith("actions used: Reveal")
    refused(after, Reveal(target=2, take=True))  # the one Reveal of the turn is used
    refused(after, Curse(runes=(0, 1, 0)), "BC-R02")
    assert not any(isinstance(a, Reveal | Curse) for a in RULES.legal_actions(after))
    assert act(after, EndTurn()).current == 1


def test_BC_R05_the_taken_card_comes_from_the_target_who_draws_back_to_ten() -> None:
    state = new_game()
    after, events = RULES.apply(state, Reveal(target=2, take=True))
    moved = [(e.giver, e.receiver, e.count, e.refill) for e in events if isinstance(e, PartsMoved)]
    assert moved == [(2, 0, 1, False), (None, 2, 1, True)]  # taken, then Cleo refills
    assert after.hands == (11, 10, 10)  # no hand maximum for the player (BC-R06)
    assert after.deck == state.deck - 1
    check_invariants(after)


def test_BC_R05_taking_from_an_empty_hand_is_refused_and_changes_nothing() -> None:
    # The deck is empty and Bob has no card left: there is nothing to show or take.
    state = new_game().model_copy(update={"hands": (10, 0, 125), "deck": 0})
    snapshot = RULES.dump_position(state)
    message = refused(state, Reveal(target=1, take=True), "BC-R05")
    assert "Bob" in message
    assert RULES.dump_position(state) == snapshot
    listed = list(RULES.legal_actions(state))
    assert Reveal(target=1, take=True) not in listed
    assert Reveal(target=1, take=False) in listed and Reveal(target=2, take=True) in listed
    after = act(state, Reveal(target=1, take=False))  # looking still costs Bob 2 Runes
    assert after.runes == (12, 8, 10) and after.hands == (10, 0, 125)


def test_BC_R05_a_short_hand_shows_what_it_holds_and_refills_only_from_cards_left() -> None:
    # With the deck empty Bob holds 2 cards: he shows both, Ann takes one, no refill.
    state = new_game().model_copy(update={"hands": (10, 2, 123), "deck": 0})
    after, events = RULES.apply(state, Reveal(target=1, take=True))
    taken = [e for e in events if isinstance(e, ActionTaken)]
    assert [e.text for e in taken] == ["Ann reveals 2 Parts cards from Bob's hand and takes one."]
    assert after.hands == (11, 1, 123) and after.deck == 0
    again = state.model_copy(update={"hands": (10, 1, 124)})
    _, events = RULES.apply(again, Reveal(target=1, take=False))
    taken = [e for e in events if isinstance(e, ActionTaken)]
    assert [e.text for e in taken] == ["Ann reveals 1 Parts card from Bob's hand and takes none."]


def test_BC_R05_reveal_and_take_is_listed_when_the_target_holds_exactly_one_card() -> None:
    state = new_game().model_copy(update={"hands": (10, 1, 124), "deck": 0})
    listed = list(RULES.legal_actions(state))
    assert Reveal(target=1, take=True) in listed and Reveal(target=1, take=False) in listed
    assert act(state, Reveal(target=1, take=True)).hands == (11, 0, 124)


def test_BC_R06_the_refill_steps_are_numbered_from_one_current_player_first() -> None:
    state = new_game().model_copy(update={"hands": (10, 7, 8), "deck": 125})
    _, events = RULES.apply(state, Draw())
    steps = [c for e in events if isinstance(e, TableChanges) for c in e.changes]
    assert [(c.step, c.cell) for c in steps] == [(1, "hand:1"), (2, "hand:2")]
    assert [c.instruction for c in steps] == [
        "Bob draws 3 Parts cards to hold 10.",
        "Cleo draws 2 Parts cards to hold 10.",
    ]


def test_BC_R06_refill_to_ten_for_off_turn_players() -> None:
    state = new_game()
    after = act(state, Trade(partner=2, cards_received=3))
    assert after.hands == (13, 10, 10)
    assert after.deck == state.deck - 3
    generous = act(state, Trade(partner=1, cards_received=1, cards_given=4))
    assert generous.hands == (10, 13, 10)  # Ann fell to 7 and refilled at once
    built = act(state, Curse(runes=(0, 1, 0)), build(cards=6))
    assert built.hands == (10, 10, 10) and built.deck == state.deck
    check_invariants(built)


def test_BC_R07_failed_negotiation_is_not_an_action() -> None:
    state = new_game()
    refused(state, EndTurn())  # nothing done: the turn cannot end
    assert Trade(partner=1, cards_received=1) in list(RULES.legal_actions(state))
    state = act(state, Draw())
    assert Trade(partner=1, cards_received=1) in list(RULES.legal_actions(state))


def test_BC_R07_with_only_a_trade_that_fell_through_the_turn_cannot_end() -> None:
    """BC-R07: a negotiation that ends without a deal is not submitted; it is not the
    Trade action, so ending the turn is refused and names the ruling."""
    state = new_game()
    snapshot = RULES.dump_position(state)
    message = refused(state, EndTurn(), "BC-R07")
    assert "Draw" in message and "Reveal" in message
    assert RULES.dump_position(state) == snapshot and state.mode == "open"
    assert EndTurn() not in list(RULES.legal_actions(state))
    assert EndTurn(no_build_possible=True) not in list(RULES.legal_actions(state))


@pytest.mark.parametrize("action", [Draw(), Reveal(target=2)], ids=["draw", "reveal"])
def test_BC_R07_after_a_trade_falls_through_draw_or_reveal_makes_the_turn(
    action: BuildersAction,
) -> None:
    """BC-R07: Draw or Reveal is still to be done, and the Trade is still unused."""
    state = new_game()
    listed = list(RULES.legal_actions(state))
    assert action in listed
    after = act(state, action)
    assert "trade" not in after.actions_used
    assert Trade(partner=1, cards_received=1) in list(RULES.legal_actions(after))
    assert act(after, EndTurn()).current == 1
    traded = act(after, Trade(partner=1, cards_received=1))  # a deal later in the turn counts
    assert traded.actions_used == (after.actions_used[0], "trade")
    refused(traded, Trade(partner=2, cards_received=1))  # and only one Trade per turn


def test_BC_R07_once_draw_or_reveal_happened_a_failed_trade_needs_nothing_more() -> None:
    for done in (Draw(), Reveal(target=1)):
        state = act(new_game(), done)
        # The negotiation with Bob falls through: nothing is submitted, the turn may end.
        after = act(state, EndTurn())
        assert after.current == 1 and after.turn == 2
        assert RULES.scores(after).rows[-1].label == "Turn 1 · Ann"


def test_BC_R08_trade_must_give_the_current_player_a_card() -> None:
    state = new_game()
    refused(state, Trade(partner=1, cards_received=0, runes_received=2), "BC-R08")
    refused(state, Trade(partner=1, cards_received=0, cards_given=2), "BC-R08")
    refused(state, Trade(partner=0, cards_received=1), "BC-R08")
    refused(state, Trade(partner=5, cards_received=1), "BC-R08")
    refused(state, Trade(partner=1, cards_received=1, runes_given=11), "BC-R08")
    refused(state, Trade(partner=1, cards_received=11), "BC-R08")
    dump = act(state, Trade(partner=1, cards_received=1, runes_given=4))
    assert dump.runes == (6, 14, 10)
    both = act(state, Trade(partner=2, cards_received=2, runes_received=3, runes_given=1))
    assert both.runes == (12, 10, 8)


def test_BC_R09_curse_limits() -> None:
    state = new_game()
    refused(state, Curse(runes=(2, 1, 0)), "BC-R09")
    refused(state, Curse(runes=(1, 2, 2)), "BC-R09")
    refused(state, Curse(runes=(0, 0, 0)), "BC-R09")
    refused(state, Curse(runes=(0, -1, 2)), "BC-R09")
    refused(state, Curse(runes=(0, 1)))
    assert act(state, Curse(runes=(0, 4, 0))).runes == (10, 14, 10)
    assert act(state, Curse(runes=(1, 0, 0))).runes == (11, 10, 10)
    two = new_game(2)
    assert act(two, Curse(runes=(1, 3))).runes == (11, 13)
    listed = [a for a in RULES.legal_actions(two) if isinstance(a, Curse)]
    assert all(a.runes[0] <= 1 and 1 <= sum(a.runes) <= 4 for a in listed)
    assert len(listed) == 8  # (0,1..4) and (1,0..3)


def test_BC_R10_zero_runes_win_at_start_of_next_own_turn() -> None:
    # Ann dumps her last Runes on Bob in her own turn, then waits a full round.
    state = with_runes(new_game(), 3, 10, 10)
    state = act(state, Trade(partner=1, cards_received=1, runes_given=3))
    assert state.zero_checks[0] == 4
    state = act(state, EndTurn(), Draw(), EndTurn(), Draw())
    assert RULES.outcome(state) is None
    state = act(state, EndTurn())
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "zero_runes"


def test_BC_R10_zero_check_lapses_when_runes_came_back() -> None:
    state = with_runes(new_game(), 3, 10, 10)
    state = act(state, Trade(partner=1, cards_received=1, runes_given=3), EndTurn())
    state = act(state, Curse(runes=(2, 0, 0)), EndTurn(), Draw(), EndTurn())
    assert RULES.outcome(state) is None
    assert state.zero_checks[0] is None and state.current == 0


def test_BC_R10_off_turn_zero_and_full_round_option() -> None:
    # Cleo is revealed down to 0 by Ann in turn 1; her next turn is turn 3.
    base = with_runes(new_game(), 10, 10, 2)
    state = act(base, Reveal(target=2))
    assert state.zero_checks[2] == 3
    won = act(state, EndTurn(), Draw(), EndTurn())
    assert winners(won) == (2,)
    # full_round: Ann (whose turn it was) must begin another turn first -> turn 6.
    base = with_runes(new_game(zero_check="full_round"), 10, 10, 2)
    state = act(base, Reveal(target=2))
    assert state.zero_checks[2] == 6
    state = act(state, EndTurn(), Draw(), EndTurn())
    assert RULES.outcome(state) is None and state.current == 2
    state = act(state, Draw(), EndTurn(), Draw(), EndTurn(), Draw(), EndTurn())
    assert state.runes[2] == 1 and RULES.outcome(state) is None  # Cleo drew: lapsed


def test_BC_R11_several_players_at_zero_first_check_wins() -> None:
    # Ann (seat 0) curses nobody; Bob and Cleo are both at 0 after Ann's turn.
    state = with_runes(new_game(4), 10, 2, 2, 10)
    state = act(state, Reveal(target=2), Trade(partner=1, cards_received=1, runes_received=2))
    assert state.zero_checks[1] == 2 and state.zero_checks[2] == 3
    state = act(state, EndTurn())
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (1,)


def test_BC_R11_the_first_check_in_turn_order_wins_not_the_first_player_at_zero() -> None:
    # Dov is revealed down to 0 first, then Bob trades his last 2 Runes away: Bob's
    # check comes up first (turn 2), so Bob wins and Dov's check never falls due.
    state = with_runes(new_game(4), 10, 2, 10, 2)
    state = act(state, Reveal(target=3))
    assert state.zero_checks == (None, None, None, 4)
    state = act(state, Trade(partner=1, cards_received=1, runes_received=2))
    assert state.zero_checks == (None, 2, None, 4)
    after, events = RULES.apply(state, EndTurn())
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "zero_runes"
    checks = [(e.player, e.result) for e in events if isinstance(e, ZeroCheck)]
    assert checks == [(1, "won")]


def test_BC_R11_each_check_is_its_own_when_one_lapses_the_next_still_wins() -> None:
    # In Dov's turn (4) Bob and Cleo both reach 0; Ann curses a Rune onto Bob before
    # his turn comes: his check lapses, Cleo's stays and wins at the start of turn 7.
    state = with_runes(new_game(4), 10, 2, 2, 10)
    state = act(
        state,
        Draw(),
        EndTurn(),
        Curse(runes=(1, 0, 0, 0)),
        EndTurn(),
        Curse(runes=(1, 0, 0, 0)),
        EndTurn(),
    )
    assert state.current == 3 and state.runes[1:3] == (2, 2)
    state = act(state, Reveal(target=1), Trade(partner=2, cards_received=1, runes_received=2))
    assert state.zero_checks == (None, 6, 7, None)
    state = act(state, EndTurn(), Curse(runes=(0, 1, 0, 0)))  # Ann, turn 5
    state, events = RULES.apply(state, EndTurn())  # Bob's turn 6 begins with 1 Rune
    assert RULES.outcome(state) is None
    assert [(e.player, e.result) for e in events if isinstance(e, ZeroCheck)] == [(1, "lapsed")]
    assert state.zero_checks == (None, None, 7, None)
    state = act(state, Draw())
    state, events = RULES.apply(state, EndTurn())
    assert winners(state) == (2,)
    assert [(e.player, e.result) for e in events if isinstance(e, ZeroCheck)] == [(2, "won")]


def test_BC_R11_with_full_round_every_zero_player_still_waits_for_their_own_check() -> None:
    # full_round (BC-R10): Bob's check is turn 6 and Cleo's turn 7; Bob keeps 0 through
    # his turn 2 (a Curse that gives everything away) and wins at the start of turn 6.
    state = with_runes(new_game(4, zero_check="full_round"), 10, 2, 2, 10)
    state = act(state, Reveal(target=2), Trade(partner=1, cards_received=1, runes_received=2))
    assert state.zero_checks == (None, 6, 7, None)
    state = act(state, EndTurn())
    assert RULES.outcome(state) is None and state.current == 1
    state = act(state, Curse(runes=(1, 0, 0, 0)), EndTurn(), Curse(runes=(1, 0, 0, 0)))
    state = act(state, EndTurn(), Draw(), EndTurn(), Draw())
    assert RULES.outcome(state) is None and state.turn == 5
    state = act(state, EndTurn())
    assert winners(state) == (1,)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    data=st.data(),
)
def test_BC_R11_of_several_players_at_zero_the_first_still_at_zero_in_turn_order_wins(
    players: int, data: st.DataObject
) -> None:
    """BC-R11: any set of players put at 0 (by a correction, BC-R10: however they got
    there), some of them handed a Rune back by Ann's Curse before their turn: the first
    player whose turn comes up at 0 wins; if none is still at 0, every check lapses."""
    seats = list(range(players))
    at_zero = data.draw(st.sets(st.sampled_from(seats), min_size=1), label="at_zero")
    others = sorted(at_zero - {0})
    helped = data.draw(st.sets(st.sampled_from(others)) if others else st.just(set()), "helped")
    state = new_game(players)
    for seat in sorted(at_zero):
        state = act(state, CorrectRunes(player=seat, runes=0))
    assert [due is not None for due in state.zero_checks] == [s in at_zero for s in seats]
    curse = [1 if s in helped else 0 for s in seats]
    if not helped:
        curse[0] = 1  # Ann keeps the one Rune (BC-R09)
    due = {s: s + 1 if s else players + 1 for s in at_zero}  # each player's own next turn
    state = act(state, Curse(runes=tuple(curse)))
    order = [*seats[1:], 0]  # whose turns begin next: Bob, …, then Ann again
    still_zero = [s for s in order if s in at_zero and s not in helped and (s != 0 or helped)]
    while True:
        state = act(state, EndTurn())
        if RULES.outcome(state) is not None:
            break
        # The checks not yet judged are all still there, each with its own turn.
        pending = tuple(due[s] if s in due and due[s] > state.turn else None for s in seats)
        assert state.zero_checks == pending
        if state.turn == players + 1:  # Ann's turn again: every check has been judged
            break
        state = act(state, Draw())
    if still_zero:
        outcome = RULES.outcome(state)
        assert outcome is not None and outcome.reason == "zero_runes"
        assert outcome.winners == (still_zero[0],)
        assert state.current == still_zero[0]
    else:
        assert RULES.outcome(state) is None and state.current == 0
        assert state.zero_checks == (None,) * players


def test_BC_R12_full_tie_manual_pick_or_shared() -> None:
    # Ann and Bob both end on 7 Runes with 5 Colossi each: the table decides.
    base = with_runes(with_builds(new_game(3), 1, 1, 1, 1, 1, 0, 0, 0, 0), 10, 7, 10)
    state = act(base, build(cost=3))
    assert RULES.outcome(state) is None and state.tied == (0, 1)
    assert "players decide" in RULES.status(state)
    refused(state, Draw(), "BC-R12")
    refused(state, PickWinner(seats=(2,)), "BC-R12")
    listed = list(RULES.legal_actions(state))
    assert listed == [PickWinner(seats=(0,)), PickWinner(seats=(1,)), PickWinner(seats=(0, 1))]
    picked = act(state, PickWinner(seats=(1,)))
    assert winners(picked) == (1,)
    shared_base = base.model_copy(update={"final_tie": "shared"})
    shared = act(shared_base, build(cost=3))
    outcome = RULES.outcome(shared)
    assert outcome is not None and outcome.winners == (0, 1) and outcome.reason == "shared"


def test_BC_R12_more_colossi_breaks_a_runes_tie() -> None:
    base = with_runes(with_builds(new_game(3), 1, 1, 1, 1, 0, 0, 0, 0, 0), 10, 7, 10)
    outcome = RULES.outcome(act(base, build(cost=3)))
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "more_colossi"


def test_BC_R13_stockpile_is_unlimited() -> None:
    state = new_game(2)
    for _ in range(20):
        state = act(state, Curse(runes=(1, 3)), EndTurn(), Curse(runes=(3, 1)), EndTurn())
    assert sum(state.from_stockpile) == 160
    assert state.runes == (10 + 20 + 60, 10 + 60 + 20)
    check_invariants(state)


def test_BC_R13_a_table_with_any_number_of_runes_in_play_still_loads() -> None:
    many = with_runes(new_game(3), 900, 0, 1)  # far more Runes than any real stockpile
    assert RULES.load_position(RULES.dump_position(many)) == many
    assert sum(many.runes) == 30 + sum(many.from_stockpile) - sum(many.sealed)


def test_BC_R13_the_stockpile_pays_every_draw_curse_and_reveal_shortfall() -> None:
    rich = with_runes(new_game(3), 900, 0, 1)
    fresh = new_game(3)
    curses = [a for a in RULES.legal_actions(rich) if isinstance(a, Curse)]
    assert curses == [a for a in RULES.legal_actions(fresh) if isinstance(a, Curse)]
    assert Draw() in list(RULES.legal_actions(rich))
    cursed = act(rich, Curse(runes=(0, 4, 0)))
    assert cursed.runes == (900, 4, 1)
    assert cursed.from_stockpile == (890, 4, 0)
    drawn = act(rich, Draw())
    assert drawn.runes == (901, 0, 1) and drawn.from_stockpile == (891, 0, 0)
    # Bob has none to give: both Runes of the Reveal come from the stockpile (BC-R04).
    after, events = RULES.apply(rich, Reveal(target=1))
    assert after.runes == (902, 0, 1) and after.from_stockpile == (892, 0, 0)
    flows = [(e.giver, e.receiver, e.amount) for e in events if isinstance(e, RunesMoved)]
    assert flows == [(None, 0, 2)]
    corrected = act(rich, CorrectRunes(player=1, runes=5000))  # 0.2.1: from the stockpile
    assert corrected.runes == (900, 5000, 1)
    RULES.check_position(corrected)


@settings(max_examples=40, deadline=None)
@given(
    runes=st.lists(st.integers(0, 10**6), min_size=2, max_size=4),
    data=st.data(),
)
def test_BC_R13_however_many_runes_are_out_every_curse_takes_them_all_from_the_stockpile(
    runes: list[int], data: st.DataObject
) -> None:
    """BC-R13: the stockpile never runs out, so the Curses listed do not depend on how
    many Runes are in play, and each hands out exactly its Runes, all from the stockpile."""
    state = with_runes(new_game(len(runes)), *runes)
    fresh = new_game(len(runes))
    curses = [a for a in RULES.legal_actions(state) if isinstance(a, Curse)]
    assert curses == [a for a in RULES.legal_actions(fresh) if isinstance(a, Curse)]
    curse = data.draw(st.sampled_from(curses), label="curse")
    assert CURSE_MIN <= sum(curse.runes) <= CURSE_MAX
    after = act(state, curse)
    assert after.runes == tuple(r + g for r, g in zip(runes, curse.runes, strict=True))
    gained = [a - b for a, b in zip(after.from_stockpile, state.from_stockpile, strict=True)]
    assert tuple(gained) == curse.runes
    assert after.sealed == state.sealed
    assert RULES.load_position(RULES.dump_position(after)) == after


def test_BC_R14_empty_deck_stops_draws_and_refill_resumes() -> None:
    state = new_game(2)
    empty = state.model_copy(update={"hands": (10, 125), "deck": 0})
    refused(empty, Draw(), "BC-R14")
    assert Draw() not in list(RULES.legal_actions(empty))
    short = act(empty, Trade(partner=1, cards_received=1, cards_given=4))
    assert short.hands == (7, 128) and short.deck == 0  # no card to refill with
    rebuilt, events = RULES.apply(short, build(cards=5))  # 5 go under the deck ...
    refills = [e for e in events if isinstance(e, PartsMoved) and e.refill]
    assert [(e.receiver, e.count) for e in refills] == [(0, 5)]  # ... and 5 come back
    assert rebuilt.hands == (7, 128) and rebuilt.deck == 0
    check_invariants(rebuilt)


def test_BC_R15_only_rune_arithmetic_without_a_table() -> None:
    state = new_game()
    refused(state, build(cost=7), "BC-R15")
    refused(state, build(cost=2), "BC-R15")
    refused(state, build(accessories=3, cards=6), "BC-R15")
    refused(state, build(slot=4), "BC-R15")
    refused(state, Build(slot=1, cards=5), "BC-R15")
    refused(state, Build(slot=1, rune_cost=3, parts={"head": 2}), "BC-R15")
    refused(state, build(cost=6, accessories=2, cards=30), "BC-R15")
    poor = with_runes(state, 7, 10, 10)
    refused(poor, build(cost=6, accessories=2, cards=8), "BC-R15")
    after, events = RULES.apply(
        poor, Build(slot=2, rune_cost=6, accessories=1, cards=6, blueprint="Phalanx")
    )
    assert after.runes == (0, 10, 10) and after.sealed == (3 + 7, 0, 0)
    record = after.builds[-1]
    assert (record.slot, record.blueprint, record.rune_cost, record.accessories) == (
        2,
        "Phalanx",
        6,
        1,
    )
    assert any(e.type == "colossus_built" for e in events)


def test_BC_R15_without_a_table_every_affordable_slot_cost_and_accessory_is_listed() -> None:
    """docs/games/builders.md: every slot × cost 3–6 × 0–2 Accessories the player can
    afford, laying out min(hand, 5 + Accessories) cards (at least one Part besides them)."""

    def listed(state: BuildersState) -> set[tuple[int, int, int, int | None]]:
        return {
            (a.slot, a.rune_cost or 0, a.accessories or 0, a.cards)
            for a in RULES.legal_actions(state)
            if isinstance(a, Build)
        }

    rich = new_game()  # 10 Runes, 10 cards
    every = {(s, c, a, 5 + a) for s in (1, 2, 3) for c in range(3, 7) for a in (0, 1, 2)}
    assert listed(rich) == every
    poor = with_runes(new_game(), 4, 10, 10).model_copy(update={"hands": (2, 10, 10)})
    affordable = ((3, 0), (4, 0), (3, 1))  # 4 Runes; 2 cards leave no room for 2 Accessories
    assert listed(poor) == {(slot, cost, acc, 2) for slot in (1, 2, 3) for cost, acc in affordable}


def test_BC_R15_a_build_without_a_table_needs_its_card_count() -> None:
    state = new_game()
    message = refused(state, Build(slot=1, rune_cost=3), "BC-R15")
    assert "number of Parts cards" in message
    refused(state, Build(slot=1, rune_cost=3, accessories=2, cards=2), "BC-R15")


# --- the optional Blueprint table ----------------------------------------------------------


def test_table_parses_from_json_text_list_or_wrapper() -> None:
    assert len(parse_blueprint_table(json.dumps(TABLE))) == 12
    assert parse_blueprint_table({"blueprints": TABLE}) == parse_blueprint_table(TABLE)
    with pytest.raises(InvalidContent, match=r"^The Blueprint table does not validate"):
        parse_blueprint_table({"cards": TABLE})  # only "blueprints" unwraps a table


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("not json", "not valid JSON"),
        ([{"name": "A", "rune_cost": "4", "parts": {}}], "does not validate"),
        ([{**TABLE[0], "rune_cost": 7}, *TABLE[1:]], "Rune Cost 7"),
        ([{**TABLE[0], "parts": {"tail": 1}}, *TABLE[1:]], "'tail'"),
        ([{**TABLE[0], "parts": {"wild": 1}}, *TABLE[1:]], "never listed"),
        ([{**TABLE[0], "parts": {}}, *TABLE[1:]], "lists no Parts"),
        ([TABLE[0], *TABLE[:-1]], "used twice"),
        (TABLE[:5], "at least 12"),
        ([], "empty"),
    ],
)
def test_table_errors_are_clear(table: object, words: str) -> None:
    with pytest.raises(InvalidContent, match=words):
        parse_blueprint_table(table)


def _second(**card: Any) -> list[dict[str, Any]]:
    """TABLE with its second card (named 'Blueprint 1') changed."""
    return [TABLE[0], {**TABLE[1], **card}, *TABLE[2:]]


LISTABLE = "head, leg, arm, torso, wing"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([], "The Blueprint table is empty."),
        (_second(name=" "), "Blueprint 2 needs a name."),
        (_second(copies=0), "Blueprint 2 ('Blueprint 1'): copies must be at least 1, not 0."),
        (
            _second(parts={"head": 1, "tail": 1}),
            f"Blueprint 2 ('Blueprint 1'): 'tail' is not a Part a Blueprint can list; use "
            f"{LISTABLE} (Wilds and Accessories are never listed).",
        ),
        (
            _second(parts={"head": 2, "leg": -1}),
            "Blueprint 2 ('Blueprint 1'): leg count -1 is negative.",
        ),
        (_second(parts={"head": 0}), "Blueprint 2 ('Blueprint 1') lists no Parts."),
    ],
)
def test_BC_R15_each_table_error_names_the_card_by_number_and_name(
    table: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(InvalidContent) as err:
        parse_blueprint_table(table)
    assert err.value.message == message


def test_BC_R15_a_blueprint_listing_one_part_is_accepted() -> None:
    cards = parse_blueprint_table(_second(parts={"head": 1}, copies=1))
    assert cards[1].parts == {"head": 1}


def test_table_errors_in_options_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="Rune Cost 9"):
        RULES.parse_options({"blueprints": [{**TABLE[0], "rune_cost": 9}, *TABLE[1:]]})


def test_table_deals_three_blueprints_deterministically() -> None:
    one, two = new_game(blueprints=TABLE, seed=3), new_game(blueprints=TABLE, seed=3)
    assert one.face_up == two.face_up and one.blueprint_deck == two.blueprint_deck
    dealt = [i for i in (*one.face_up, *one.blueprint_deck) if i is not None]
    assert sorted(dealt) == list(range(12))


def test_table_checks_the_layout_with_wilds_and_accessories() -> None:
    state = act(new_game(blueprints=TABLE), Draw())
    index = state.face_up[0]
    assert index is not None
    cost = TABLE[index]["rune_cost"]
    refused(state, Build(slot=1, parts={"head": 1, "leg": 1, "arm": 1}), "BC-R15")
    refused(state, Build(slot=1, parts={"head": 1, "leg": 3, "arm": 1}), "BC-R15")
    refused(state, Build(slot=1, parts={"head": 1, "leg": 2, "arm": 1, "tail": 1}), "BC-R15")
    refused(state, Build(slot=1, parts={"head": 1, "leg": 2, "arm": 1}, rune_cost=9), "BC-R15")
    # A Wild never counts as an Accessory, and cannot be an extra Part.
    refused(state, Build(slot=1, parts={"head": 1, "leg": 2, "arm": 1, "wild": 1}), "BC-R15")
    refused(state, Build(slot=1, parts={"head": 1, "leg": 2, "arm": 1}, accessories=1), "BC-R15")
    after = act(
        state, Build(slot=1, parts={"head": 1, "leg": 1, "wild": 1, "arm": 1, "accessory": 2})
    )
    assert after.runes[0] == 11 - cost - 2
    assert after.builds[-1].blueprint == TABLE[index]["name"]
    assert after.builds[-1].cards == 6
    assert after.face_up[0] == state.blueprint_deck[0]  # the slot is replaced from the deck
    assert after.blueprint_deck == state.blueprint_deck[1:]
    assert after.face_up[1:] == state.face_up[1:]
    check_invariants(after)


# --- properties ----------------------------------------------------------------------


def _random_game(
    seed: int, bot_seed: int, players: int, options: dict[str, Any], limit: int = 600
) -> tuple[list[BuildersState], list[BuildersAction], list[tuple[Event, ...]]]:
    played = random_game(RULES, new_game(players, seed, **options), bot_seed, limit)
    return played.states, played.actions, played.events


OPTION_SETS = st.fixed_dictionaries(
    {
        "reveal_source": st.sampled_from(
            ["target_then_stockpile", "stockpile", "target_only_require_2"]
        ),
        "zero_check": st.sampled_from(["next_own_turn", "full_round"]),
        "final_tie": st.sampled_from(["manual", "shared"]),
        "forced_build": st.booleans(),
    }
) | st.just({"blueprints": TABLE})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    bot_seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    options=OPTION_SETS,
)
def test_random_play_never_crashes_always_ends_and_conserves(
    seed: int, bot_seed: int, players: int, options: dict[str, Any]
) -> None:
    states, actions, events = _random_game(seed, bot_seed, players, options)
    final = states[-1]
    assert RULES.outcome(final) is not None, "random play must end"
    assert list(RULES.legal_actions(final)) == []
    for before, after, evs in zip(states[:-1], states[1:], events, strict=True):
        check_invariants(after)
        flows = [e for e in evs if isinstance(e, RunesMoved)]
        in_from_pile = sum(e.amount for e in flows if e.giver is None)
        out_to_pile = sum(e.amount for e in flows if e.receiver is None)
        assert sum(after.runes) - sum(before.runes) == in_from_pile - out_to_pile
    assert replay(RULES, states[0], actions) == final  # replay reproduces the game
    assert RULES.load_position(RULES.dump_position(final)) == final


ILLEGAL = st.one_of(
    st.builds(Curse, runes=st.lists(st.integers(-1, 5), min_size=1, max_size=5).map(tuple)),
    st.builds(
        Trade,
        partner=st.integers(-1, 4),
        cards_received=st.integers(-1, 3),
        cards_given=st.integers(0, 20),
        runes_received=st.integers(0, 20),
        runes_given=st.integers(0, 20),
    ),
    st.just(Draw()),
    st.builds(Reveal, target=st.integers(-1, 4), take=st.booleans()),
    st.builds(
        Build,
        slot=st.integers(0, 4),
        rune_cost=st.none() | st.integers(1, 8),
        accessories=st.none() | st.integers(0, 3),
        cards=st.none() | st.integers(0, 20),
    ),
    st.builds(EndTurn, no_build_possible=st.booleans()),
    st.builds(PickWinner, seats=st.lists(st.integers(0, 3), max_size=3).map(tuple)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    steps=st.integers(0, 30),
    players=st.integers(2, 4),
    action=ILLEGAL,
)
def test_refused_action_leaves_the_state_unchanged(
    seed: int, steps: int, players: int, action: BuildersAction
) -> None:
    state = _random_game(seed, seed, players, {}, limit=steps)[0][-1]
    snapshot = RULES.dump_position(state)
    listed = list(RULES.legal_actions(state))
    try:
        after, _ = RULES.apply(state, action)
    except RuleViolation as exc:
        assert exc.message
        assert RULES.dump_position(state) == snapshot
        assert list(RULES.legal_actions(state)) == listed
        assert action not in listed
    else:
        check_invariants(after)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), steps=st.integers(0, 40), players=st.integers(2, 4))
def test_dump_load_round_trip(seed: int, steps: int, players: int) -> None:
    state = _random_game(seed, seed + 1, players, {"blueprints": TABLE}, limit=steps)[0][-1]
    dumped = json.loads(json.dumps(RULES.dump_position(state)))
    assert RULES.load_position(dumped) == state


def test_load_position_refuses_broken_counts() -> None:
    state = new_game()
    dumped = RULES.dump_position(state)
    dumped["deck"] = 1
    with pytest.raises(ValueError, match="135"):
        RULES.load_position(dumped)


def test_actions_round_trip_through_json() -> None:
    for action in (
        Curse(runes=(1, 2, 0)),
        Trade(partner=1, cards_received=2, runes_given=1),
        Draw(),
        Reveal(target=2, take=True),
        Build(slot=3, rune_cost=4, accessories=1, cards=6, colossus_name="Quadratus"),
        EndTurn(),
        PickWinner(seats=(0, 2)),
    ):
        assert RULES.parse_action(json.dumps(RULES.dump_action(action))) == action


@pytest.mark.parametrize("field", ["runes", "hands", "zero_checks", "from_stockpile", "sealed"])
def test_a_loaded_position_needs_one_entry_per_player_in_each_count(field: str) -> None:
    dumped = RULES.dump_position(new_game(3))
    dumped[field] = list(dumped[field])[:2]
    with pytest.raises(InvalidPosition) as err:
        RULES.load_position(dumped)
    assert err.value.message == f"{field} needs one entry per player."


def test_a_loaded_position_for_one_player_is_refused_by_name() -> None:
    state = new_game(2)
    one = state.model_copy(update={"players": ("Ann",)})
    with pytest.raises(InvalidPosition) as err:
        RULES.check_position(one)
    assert err.value.message == "Builders of the Colossus is for 2–4 players, not 1."
