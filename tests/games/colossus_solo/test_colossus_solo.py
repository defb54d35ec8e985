"""Colossus solo (seed 003): one test per CS ruling, scripted games, and property tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.errors import InvalidContent, InvalidOptions, InvalidPosition, RuleViolation
from companion.games import available_games, game_summary, get_rules
from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.content import (
    ACTION_CARDS,
    ColossusCard,
    parse_card_table,
)
from companion.games.colossus_solo.model import (
    ColossusSoloState,
    DestroyCards,
    DiscardPowerCard,
    EnterColossusCard,
    EnterFinalBlow,
    EnterMedallions,
    EnterStats,
    FinalBlowCardPlaced,
    FinalBlowRevealed,
    LineResolved,
    PayPenalty,
    ResolveCard,
    Stats,
    UsePower,
)
from companion.games.colossus_solo.rules import cards_in_play, position_problems
from tests.games.random_play import random_game
from tests.helpers.colossus_solo import act, card, line, new_game, stats, table
from tests.helpers.colossus_solo import end_of_round as _end_of_round
from tests.helpers.colossus_solo import final_blow as _final_blow
from tests.helpers.colossus_solo import last_round as _last_round

MAX_RANDOM_ACTIONS = 3000


# --- CS-R01 trackers --------------------------------------------------------------------


def test_CS_R01_trackers_start_at_weakness_1_and_grip_8() -> None:
    state = new_game()
    assert (state.weakness, state.grip) == (1, 8)
    assert state.phase == "colossus_card"
    assert RULES.current_player(state) == 0


def test_CS_R01_attack_success_raises_weakness_but_not_above_8() -> None:
    state = act(new_game(), EnterColossusCard(card=card(attack=1, grip=None, climb=5)))
    after = act(state, stats(attack=1), ResolveCard())
    assert after.weakness == 2
    top = act(state.model_copy(update={"weakness": 8}), stats(attack=3), ResolveCard())
    assert top.weakness == 8


def test_CS_R01_grip_failure_lowers_grip_and_success_keeps_it() -> None:
    state = act(new_game(), EnterColossusCard(card=card(attack=None, grip=3, climb=5)))
    assert act(state, stats(grip=2), ResolveCard()).grip == 7
    assert act(state, stats(grip=3), ResolveCard()).grip == 8


# --- CS-R02 stat arithmetic ---------------------------------------------------------------


def test_CS_R02_negative_medallions_cancel_positives_and_never_go_below_zero() -> None:
    state = act(new_game(), EnterColossusCard(card=card()))
    entry = EnterMedallions(
        positive=Stats(attack=3, grip=1, bonus=2, climb=0),
        negative=Stats(attack=1, grip=2, bonus=0, climb=1),
    )
    after = act(state, entry)
    assert after.stats == Stats(attack=2, grip=0, bonus=2, climb=0)
    assert act(state, stats(attack=2, bonus=2)).stats == after.stats


# --- CS-R03 depletion ---------------------------------------------------------------------


def test_CS_R03_on_draw_attempt_reshuffles_only_the_discard_pile_when_a_draw_is_needed() -> None:
    state = _end_of_round("on_draw_attempt", deck=2)
    after, events = RULES.apply(state, ResolveCard())
    # 2 cards drawn, then the empty deck is refilled from the 19 discarded (15 + the 4
    # of the Playing Area), the forced penalty paid in Grip (W = 1), 2 more drawn.
    assert [e.type for e in events].count("deck_reshuffled") == 1
    assert after.grip == 7 and after.weakness == 1
    assert (after.playing_area, after.hand, after.destroyed, after.discard) == (1, 3, 5, 0)
    assert after.action_deck == ACTION_CARDS - 5 - 4
    assert cards_in_play(after) == ACTION_CARDS


def test_CS_R03_on_draw_attempt_does_not_trigger_when_the_deck_just_suffices() -> None:
    after = act(_end_of_round("on_draw_attempt", deck=4), ResolveCard())
    assert after.action_deck == 0 and after.grip == 8 and after.discard > 0


def test_CS_R03_option_when_emptied_triggers_as_the_last_card_is_drawn() -> None:
    after, events = RULES.apply(_end_of_round("when_emptied", deck=4), ResolveCard())
    assert any(e.type == "deck_reshuffled" for e in events)
    assert after.grip == 7 and after.discard == 0
    assert after.action_deck == ACTION_CARDS - 5 - 4


def test_CS_R03_penalty_is_a_choice_when_weakness_can_be_lost() -> None:
    state = act(_end_of_round("on_draw_attempt", deck=2, weakness=4), ResolveCard())
    assert state.phase == "penalty"
    assert set(RULES.legal_actions(state)) == {PayPenalty(pay="weakness"), PayPenalty(pay="grip")}
    assert "lose 1 Weakness or 1 Grip" in RULES.status(state)
    paid = act(state, PayPenalty(pay="weakness"))
    assert (paid.weakness, paid.grip, paid.phase, paid.hand) == (3, 8, "stats", 3)
    assert act(state, PayPenalty(pay="grip")).grip == 7


def test_CS_R03_the_power_draw_can_deplete_the_deck_and_then_asks_the_penalty() -> None:
    state = act(new_game(), EnterColossusCard(card=card(grip=None, climb=9)), stats())
    state = state.model_copy(update={"action_deck": 0, "discard": 22, "weakness": 3})
    powered = act(state, UsePower(pay="weakness"))
    assert (powered.phase, powered.weakness, powered.action_deck) == ("penalty", 2, 22)
    paid = act(powered, PayPenalty(pay="weakness"))
    assert (paid.phase, paid.weakness, paid.hand, paid.action_deck) == ("power_card", 1, 1, 21)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(paid, PayPenalty(pay="weakness"))
    assert err.value.ruling == "CS-R03"


def test_CS_R03_option_when_emptied_counts_the_power_draw_too() -> None:
    state = act(new_game(trigger="when_emptied"), EnterColossusCard(card=card()), stats())
    state = state.model_copy(update={"action_deck": 1, "discard": 21, "weakness": 1})
    powered = act(state, UsePower(pay="grip"))
    # the power's card was the last one: reshuffle at once, Grip pays (W = 1)
    assert (powered.phase, powered.grip, powered.action_deck, powered.hand) == (
        "power_card",
        6,
        21,
        1,
    )


def test_CS_R03_a_draw_with_no_card_anywhere_is_skipped_without_penalty() -> None:
    state = _end_of_round("on_draw_attempt", deck=2).model_copy(
        update={"discard": 0, "destroyed": 20}
    )
    after = act(state, ResolveCard())
    # 4 cards of the Playing Area were discarded: 2 + 4 = 6 cards for 4 draws
    assert (after.playing_area, after.hand, after.grip, after.action_deck) == (1, 3, 7, 2)
    starved = state.model_copy(update={"action_deck": 0, "playing_area": 0, "destroyed": 26})
    after = act(starved, ResolveCard())
    assert (after.playing_area, after.hand, after.grip, after.phase) == (0, 0, 8, "stats")
    assert not any(isinstance(a, UsePower) for a in RULES.legal_actions(act(after, stats())))


# --- CS-R04 choices "insofar as both are possible" ------------------------------------------


def test_CS_R04_power_is_never_paid_with_a_fatal_grip_loss() -> None:
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    low = state.model_copy(update={"grip": 1, "weakness": 3})
    assert UsePower(pay="grip") not in set(RULES.legal_actions(low))
    with pytest.raises(RuleViolation) as err:
        RULES.apply(low, UsePower(pay="grip"))
    assert err.value.ruling == "CS-R04"
    assert act(low, UsePower(pay="weakness")).weakness == 2
    stuck = state.model_copy(update={"grip": 1, "weakness": 1})
    assert set(RULES.legal_actions(stuck)) == {ResolveCard()}
    with pytest.raises(RuleViolation, match="Weakness is at 1"):
        RULES.apply(stuck, UsePower(pay="weakness"))


def test_CS_R04_power_draws_one_card_and_the_payment_is_not_refunded() -> None:
    state = act(new_game(), EnterColossusCard(card=card(grip=None, climb=9)), stats())
    powered = act(state, UsePower(pay="grip"))
    assert (powered.phase, powered.grip, powered.hand, powered.power_used) == (
        "power_card",
        7,
        1,
        True,
    )
    discarded = act(powered, DiscardPowerCard())
    assert discarded.grip == 7 and discarded.discard == 5  # 4 round cards + the power card
    placed = act(powered, stats(attack=2, grip=2))
    assert placed.weakness == 2  # the new stats were used: Attack 2 met
    with pytest.raises(RuleViolation):
        RULES.apply(act(state, ResolveCard()), UsePower(pay="grip"))  # next round's step 3


def test_CS_R04_depletion_penalty_at_weakness_1_and_grip_1_is_a_fall() -> None:
    state = _end_of_round("on_draw_attempt", deck=2).model_copy(update={"grip": 1})
    after = act(state, ResolveCard())
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.reason == "fell" and outcome.winners == ()
    assert after.grip == 1  # the tracker stays in range; the fall is the result
    assert list(RULES.legal_actions(after)) == []


# --- CS-R05..R09 Final Blow ----------------------------------------------------------------


def test_CS_R05_final_blow_values_are_entered_without_a_card_table() -> None:
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    state = act(_last_round(state), ResolveCard())
    assert state.phase == "final_blow_values"
    assert state.discard == 0 and state.action_deck == ACTION_CARDS
    state = act(state, EnterFinalBlow(n_cards=8, grip_req=5, attack_req=7))
    assert (state.phase, state.final_blow_deck, state.action_deck) == ("final_blow", 8, 18)
    assert "need Attack 7 and Grip 5" in RULES.status(state)


def test_CS_R05_the_final_blow_status_names_one_grip_number() -> None:
    """Before the values are entered the trackers tell the goals; after, the goals replace
    them (the Grip goal beside the Grip tracker read as two answers to one question)."""
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    state = act(_last_round(state), ResolveCard())
    asking = RULES.status(state)
    assert asking.startswith("Final Blow · Weakness ") and "· Grip " in asking
    state = act(state, EnterFinalBlow(n_cards=8, grip_req=5, attack_req=7))
    status = RULES.status(state)
    assert status.count("Grip") == 2, status  # the goal and the ask, not the tracker
    assert "Weakness" not in status


def test_CS_R05_final_blow_values_come_from_the_table_by_tracker_position() -> None:
    state = new_game(card_table=table())
    state = _last_round(state).model_copy(update={"weakness": 4, "grip": 6})
    after = act(state, ResolveCard())
    assert after.final_blow is not None
    assert (after.final_blow.n_cards, after.final_blow.grip_req) == (5, 3)
    assert after.final_blow.attack_req == 5 and after.final_blow_deck == 5
    with pytest.raises(RuleViolation, match="not asked"):
        RULES.apply(after, EnterFinalBlow(n_cards=1, grip_req=1, attack_req=1))


def test_CS_R06_first_final_blow_card_is_the_base_and_counts() -> None:
    state = _final_blow(3)
    after = act(state, stats(attack=1, grip=1))
    assert (after.playing_area, after.final_blow_deck) == (1, 2)
    assert RULES.outcome(after) is None
    won = act(state, stats(attack=3, grip=2))  # the base card alone can win
    outcome = RULES.outcome(won)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "final_blow"


def test_CS_R06_a_one_card_final_blow_is_the_base_alone_and_is_judged_on_it() -> None:
    """CS-R06: the base counts as one of the N_cards, so with N_cards = 1 the base is the
    whole Final Blow: it wins or loses on that card, and no second card may follow."""
    state = _final_blow(1, grip_req=2, attack_req=3)
    assert "card 1/1" in RULES.status(state)
    won = act(state, stats(attack=3, grip=2))
    assert won.result == "final_blow" and won.final_blow_deck == 0
    missed, events = RULES.apply(state, stats(attack=3, grip=1))
    outcome = RULES.outcome(missed)
    assert outcome is not None and outcome.reason == "final_blow_failed"
    assert (missed.playing_area, missed.final_blow_deck) == (1, 0)
    placed = [e for e in events if isinstance(e, FinalBlowCardPlaced)]
    assert [(e.text.split(":")[0], e.cards_left) for e in placed] == [("Final Blow card 1", 0)]
    before = missed.model_dump_json()
    with pytest.raises(RuleViolation, match="over"):
        RULES.apply(missed, stats(attack=3, grip=2))  # no card after the base
    assert missed.model_dump_json() == before


def test_CS_R06_the_status_asks_for_the_first_card_as_the_base_then_for_the_next() -> None:
    """CS-R06: the first Final Blow card has nothing to cover; it goes down as the base,
    like a round's centre card. Every later card is "the next card"."""
    state = _final_blow(3)
    first = RULES.status(state)
    assert first.startswith("Final Blow · card 1/3 · need Attack 3 and Grip 2")
    assert first.endswith("place the first card as the base and enter the visible Attack and Grip")
    second = RULES.status(act(state, stats(attack=1, grip=1)))
    assert second.startswith("Final Blow · card 2/3 ·")
    assert second.endswith("place the next card and enter the visible Attack and Grip")
    assert "base" not in second


@settings(max_examples=30, deadline=None)
@given(n_cards=st.integers(1, 12), attack_req=st.integers(1, 30), grip_req=st.integers(0, 30))
def test_CS_R06_the_base_is_the_first_of_n_cards_so_n_placements_spend_the_deck(
    n_cards: int, attack_req: int, grip_req: int
) -> None:
    """CS-R06: counting the base, exactly N_cards cards are placed. Cards that always
    miss the Attack threshold leave N_cards - k after the k-th, and the N_cards-th (not
    one more) ends the blow as failed."""
    state = _final_blow(n_cards, grip_req=grip_req, attack_req=attack_req)
    miss = stats(attack=attack_req - 1, grip=grip_req)
    for k in range(1, n_cards + 1):
        assert f"card {k}/{n_cards} " in RULES.status(state)
        assert RULES.outcome(state) is None
        state = act(state, miss)
        assert (state.playing_area, state.final_blow_deck) == (k, n_cards - k)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "final_blow_failed"
    assert list(RULES.legal_actions(state)) == []


def test_CS_R07_victory_is_checked_after_every_placement() -> None:
    state = act(_final_blow(5), stats(attack=2, grip=2), stats(attack=3, grip=1))
    assert RULES.outcome(state) is None
    won = act(state, stats(attack=3, grip=2))
    assert RULES.outcome(won) is not None and won.final_blow_deck == 2
    lost = act(_final_blow(2), stats(attack=3), stats(grip=5))  # never both at once
    outcome = RULES.outcome(lost)
    assert outcome is not None and outcome.reason == "final_blow_failed"
    assert outcome.winners == ()


def test_CS_R08_final_blow_deck_takes_what_is_left_without_a_penalty() -> None:
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    state = _last_round(state).model_copy(
        update={"action_deck": 0, "discard": 2, "destroyed": 20, "weakness": 1, "grip": 1}
    )
    state = act(state, ResolveCard())
    assert state.action_deck == 6  # 2 discarded + the 4 of the Playing Area
    after = act(state, EnterFinalBlow(n_cards=10, grip_req=1, attack_req=1))
    assert (after.final_blow_deck, after.action_deck, after.grip, after.weakness) == (6, 0, 1, 1)
    empty = state.model_copy(update={"action_deck": 0, "destroyed": 26})
    failed = act(empty, EnterFinalBlow(n_cards=10, grip_req=1, attack_req=1))
    assert RULES.outcome(failed) is not None and failed.result == "final_blow_failed"


def _final_blow_with(
    available: int, *, trigger: str = "on_draw_attempt", weakness: int = 1, grip: int = 8
) -> ColossusSoloState:
    """The Final Blow card revealed (no card table) with ``available`` Action cards left
    to form its deck: the rest were destroyed. The last round's card climbs; its Grip
    line is met and its Attack line missed, so the trackers stay where they are set."""
    state = act(new_game(trigger=trigger), EnterColossusCard(card=card()), stats())
    area = min(4, available)
    state = _last_round(state).model_copy(
        update={
            "action_deck": 0,
            "discard": available - area,
            "playing_area": area,
            "destroyed": ACTION_CARDS - available,
            "weakness": weakness,
            "grip": grip,
        }
    )
    state = act(state, ResolveCard())
    assert (state.phase, state.action_deck, state.discard) == ("final_blow_values", available, 0)
    return state


@settings(max_examples=60, deadline=None)
@given(
    n_cards=st.integers(0, 32),
    available=st.integers(0, ACTION_CARDS),
    trigger=st.sampled_from(["on_draw_attempt", "when_emptied"]),
    weakness=st.integers(1, 8),
    grip=st.integers(1, 8),
)
@example(n_cards=6, available=6, trigger="when_emptied", weakness=1, grip=1)
@example(n_cards=7, available=6, trigger="on_draw_attempt", weakness=1, grip=1)
def test_CS_R08_the_final_blow_deck_is_n_cards_or_every_card_left_and_costs_no_level(
    n_cards: int, available: int, trigger: str, weakness: int, grip: int
) -> None:
    """CS-R08: the Final Blow deck takes N_cards, or every Action card left when fewer
    are; emptying the Action deck so (either depletion trigger, CS-R03) reshuffles
    nothing and costs no level, even at W 1 and G 1 where a penalty would be a fall."""
    state = _final_blow_with(available, trigger=trigger, weakness=weakness, grip=grip)
    after, events = RULES.apply(state, EnterFinalBlow(n_cards=n_cards, grip_req=1, attack_req=1))
    assert not position_problems(after)
    deck = min(n_cards, available)
    assert (after.final_blow_deck, after.action_deck) == (deck, available - deck)
    assert (after.weakness, after.grip) == (weakness, grip)
    assert events[0].type == "final_blow_revealed"
    assert not {"deck_reshuffled", "tracker_moved"} & {e.type for e in events}
    assert not any(isinstance(a, PayPenalty) for a in RULES.legal_actions(after))
    if deck:
        assert after.phase == "final_blow"
        assert f"Final Blow · card 1/{deck} ·" in RULES.status(after)
    else:  # nothing left to place: the blow fails at once, and not by a fall
        assert after.result == "final_blow_failed"


def test_CS_R08_a_short_final_blow_deck_fails_when_its_last_card_misses() -> None:
    """CS-R08: with 2 cards left for N_cards = 5 the blow is over after the 2nd card."""
    state = act(_final_blow_with(2), EnterFinalBlow(n_cards=5, grip_req=2, attack_req=3))
    assert state.final_blow_deck == 2
    state = act(state, stats(attack=1, grip=2))
    assert RULES.outcome(state) is None
    assert "card 2/2 " in RULES.status(state)
    state = act(state, stats(attack=2, grip=2))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "final_blow_failed"
    assert (state.playing_area, state.final_blow_deck, state.grip) == (2, 0, 8)


def test_CS_R08_a_card_tables_n_cards_beyond_the_cards_left_takes_them_all() -> None:
    """CS-R08 with a card table: the table's N_cards at Weakness 8 is 9, but only 6
    Action cards are left (2 discarded + the last round's 4)."""
    tabled = new_game(card_table=table(), trigger="when_emptied")
    last = _last_round(tabled).model_copy(
        update={
            "action_deck": 0,
            "discard": 2,
            "playing_area": 4,
            "hand": 0,
            "destroyed": ACTION_CARDS - 6,
            "weakness": 8,
            "grip": 1,
        }
    )
    after, events = RULES.apply(last, ResolveCard())
    assert after.final_blow is not None and after.final_blow.n_cards == 9
    assert (after.phase, after.final_blow_deck, after.action_deck) == ("final_blow", 6, 0)
    assert (after.weakness, after.grip) == (8, 1)
    revealed = [e for e in events if isinstance(e, FinalBlowRevealed)]
    assert [e.deck_cards for e in revealed] == [6]
    assert "form a deck of 6 Action cards" in revealed[0].text


def test_CS_R08_no_deck_penalty_can_be_paid_during_the_final_blow() -> None:
    """CS-R08: the Final Blow has no depletion penalty, so paying one is refused, naming
    the ruling, and changes nothing (the values step and the blow itself)."""
    values = _final_blow_with(3, trigger="when_emptied", weakness=4)
    blow = act(values, EnterFinalBlow(n_cards=8, grip_req=2, attack_req=3))
    for state in (values, blow, act(blow, stats(attack=1))):
        before = state.model_dump_json()
        for pay in ("weakness", "grip"):
            assert PayPenalty(pay=pay) not in set(RULES.legal_actions(state))
            with pytest.raises(RuleViolation, match="no deck penalty") as err:
                RULES.apply(state, PayPenalty(pay=pay))
            assert err.value.ruling == "CS-R08"
        assert state.model_dump_json() == before
    # outside the Final Blow the refusal still names the depletion ruling
    with pytest.raises(RuleViolation) as err:
        RULES.apply(act(new_game(), EnterColossusCard(card=card())), PayPenalty(pay="grip"))
    assert err.value.ruling == "CS-R03"


def test_CS_R09_netophahs_power_is_not_available_in_the_final_blow() -> None:
    state = _final_blow(4)
    assert not any(isinstance(a, UsePower) for a in RULES.legal_actions(state))
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, UsePower(pay="weakness"))
    assert err.value.ruling == "CS-R09"


# --- CS-R10..R13 ---------------------------------------------------------------------------


def test_CS_R10_missing_values_skip_lines_and_empty_advanced_deck_does_nothing() -> None:
    state = act(new_game(), EnterColossusCard(card=card(attack=None, grip=None, climb=None)))
    after, events = RULES.apply(state.model_copy(update={"grip": 1}), stats())
    after, events = RULES.apply(after, ResolveCard())
    skipped = [e for e in events if isinstance(e, LineResolved) and e.success is None]
    assert len(skipped) == 3 and after.grip == 1 and after.colossus_left == 11
    bonus = act(state, stats(bonus=3), ResolveCard())
    assert (bonus.advanced_deck, bonus.advanced_added) == (5, 1)
    # on top of the Action deck, then the next round's 4 cards were drawn from it
    assert bonus.action_deck + bonus.playing_area + bonus.hand == state.action_deck + 1
    dry = state.model_copy(update={"advanced_deck": 0, "advanced_added": 6, "action_deck": 28})
    dry_after = act(dry, stats(bonus=3), ResolveCard())
    assert dry_after.advanced_added == 6 and cards_in_play(dry_after) == ACTION_CARDS + 6


def test_CS_R11_destroy_rights_one_per_successful_icon_line_optional_any_area_card() -> None:
    icons = ("attack", "grip", "climb")
    state = act(new_game(), EnterColossusCard(card=card(climb=9, icons=icons)))
    state = act(state, stats(attack=2, grip=1, climb=0), ResolveCard())
    assert state.phase == "destroy" and state.destroy_rights == 1  # grip and climb failed
    both = act(new_game(), EnterColossusCard(card=card(icons=icons)), stats(2, 2, 0, 2))
    both = act(both, ResolveCard())
    assert both.destroy_rights == 3 and both.playing_area == 4  # the centre card counts too
    assert [a.count for a in RULES.legal_actions(both) if isinstance(a, DestroyCards)] == [
        0,
        1,
        2,
        3,
    ]
    with pytest.raises(RuleViolation) as err:
        RULES.apply(both, DestroyCards(count=4))
    assert err.value.ruling == "CS-R11"
    kept = act(both, DestroyCards(count=0))
    assert kept.destroyed == 0 and kept.discard == 4
    gone = act(both, DestroyCards(count=3))
    assert gone.destroyed == 3 and gone.discard == 1 and gone.round == 2


def test_CS_R12_players_enter_card_values_and_stats() -> None:
    state = new_game()
    assert "enter the revealed Colossus card" in RULES.status(state)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, stats())
    assert err.value.ruling == "CS-R12"
    bad = ColossusCard(attack=line(None, destroy=True), climb=line(2))
    with pytest.raises(RuleViolation, match="destroy icon but no value"):
        RULES.apply(state, EnterColossusCard(card=bad))
    state = act(state, EnterColossusCard(card=card()))
    assert RULES.status(state) == (
        "Round 1 · Colossus card 1/11 · Weakness 1 · Grip 8 · place your 3 cards and enter the "
        "visible stats"
    )
    assert (state.action_deck, state.playing_area, state.hand) == (22, 1, 3)
    tabled = new_game(card_table=table())
    assert tabled.phase == "stats" and tabled.current_card is not None
    with pytest.raises(RuleViolation, match="card table"):
        RULES.apply(tabled, EnterColossusCard(card=card()))


def test_CS_R12_card_table_is_validated_with_clear_errors() -> None:
    good = table()
    assert parse_card_table(good.model_dump_json()) == good
    data = good.model_dump(mode="json")
    with pytest.raises(InvalidContent, match="10 Colossus cards") as err:
        parse_card_table(data | {"colossus": data["colossus"][:10]})
    assert err.value.ruling == "CS-R12"
    with pytest.raises(InvalidContent, match="has 7 numbers"):
        parse_card_table(table(n_cards=(1, 2, 3, 4, 5, 6, 7)))
    with pytest.raises(InvalidContent, match="outside"):
        parse_card_table(table(attack_req=99))
    with pytest.raises(InvalidContent, match="called 'Og 0'"):
        parse_card_table(data | {"colossus": [data["colossus"][0]] * 11})
    with pytest.raises(InvalidContent, match="Not a Colossus card table"):
        parse_card_table('{"colossus": "nope"}')
    with pytest.raises(InvalidContent):
        new_game(card_table=table(grip_req=(1, 2)))


def test_CS_R12_card_table_deals_a_virtual_colossus_deck_from_the_state_rng() -> None:
    cards = tuple(card(climb=i + 1, name=f"c{i}") for i in range(11))
    t = table().model_copy(update={"colossus": cards})
    a, b = new_game(seed=5, card_table=t), new_game(seed=5, card_table=t)
    assert a == b and sorted(a.colossus_order) == list(range(11))
    orders = {new_game(seed=s, card_table=t).colossus_order for s in range(6)}
    assert len(orders) > 1
    climbed = act(a, stats(climb=20), ResolveCard())
    assert climbed.current_card == cards[a.colossus_order[1]]


def test_CS_R12_a_loaded_virtual_deck_naming_a_card_past_the_table_is_refused() -> None:
    state = new_game(card_table=table())
    assert RULES.load_position(RULES.dump_position(state)) == state
    size = len(table().colossus)
    for bad in (size, -1):
        order = (*state.colossus_order[:-1], bad)
        broken = RULES.dump_position(state) | {"colossus_order": list(order)}
        with pytest.raises(InvalidPosition, match="names an unknown card"):
            RULES.load_position(broken)


def test_CS_R13_colossus_in_eden_mode_is_not_offered() -> None:
    assert set(RULES.options_model.model_fields) == {"depletion_trigger", "card_table"}
    with pytest.raises(InvalidOptions):
        RULES.parse_options({"mode": "colossus_in_eden"})


def test_CS_R13_no_colossus_in_eden_game_is_listed_beside_the_solo_game() -> None:
    """CS-R13: the "Colossus in Eden" mode is not in the rule documents, so it is no
    game of its own either: the solo Colossus is one game, the one referee."""
    names = available_games()
    assert [n for n in names if "colossus_solo" in n or "eden" in n.lower()] == ["colossus_solo"]
    titles = [game_summary(n).title for n in names]
    assert not [t for t in titles if "eden" in t.lower()]
    assert get_rules("colossus_solo") is RULES


# --- other contract pieces -----------------------------------------------------------------


def test_exactly_one_player() -> None:
    with pytest.raises(InvalidOptions):
        RULES.setup(["A", "B"], RULES.parse_options({}), 1)


def test_scores_and_status_follow_the_rounds() -> None:
    state = act(new_game(), EnterColossusCard(card=card()), stats(attack=2, climb=2), ResolveCard())
    sheet = RULES.scores(state)
    assert sheet.measure == "weakness/grip"
    assert sheet.columns == ("Weakness", "Grip", "Colossus cards left")
    assert [(r.label, r.values) for r in sheet.rows] == [("Round 1", (2, 7, 10))]
    assert RULES.status(state).startswith("Round 2 · Colossus card 2/11 · Weakness 2 · Grip 7")


def test_interest_prefers_climbing_so_random_play_progresses() -> None:
    state = act(new_game(), EnterColossusCard(card=card(climb=3)))
    assert RULES.interest(state, stats(climb=3)) > 10 * RULES.interest(state, stats(climb=2))
    fb = _final_blow(4, grip_req=2, attack_req=3)
    assert RULES.interest(fb, stats(3, 2)) > RULES.interest(fb, stats(2, 2))


def test_docs_examples_are_accepted() -> None:
    doc = Path(__file__).parents[3] / "docs" / "games" / "colossus-solo.md"
    blocks = re.findall(r"```json\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    actions = [json.loads(b)["action"] for b in blocks if '"cmd"' in b]
    assert len(actions) == 14  # 9 kinds of play, 5 manual corrections (0.2.1)
    kinds = {RULES.parse_action(a).type for a in actions}
    assert len(kinds) == 14
    position = next(b for b in blocks if '"players"' in b)
    assert RULES.load_position(json.loads(position)).phase == "stats"


def test_check_position_refuses_broken_conservation() -> None:
    state = act(new_game(), EnterColossusCard(card=card()))
    broken = RULES.dump_position(state) | {"discard": 3}
    with pytest.raises(InvalidPosition, match="add up"):
        RULES.load_position(broken)


def test_scripted_game_won_through_the_final_blow() -> None:
    state = new_game(seed=3)
    penalties = 0
    while state.phase != "final_blow_values":
        if state.phase == "colossus_card":
            state = act(state, EnterColossusCard(card=card(attack=1, grip=1, bonus=1, climb=1)))
        elif state.phase == "penalty":
            state = act(state, PayPenalty(pay="weakness"))
            penalties += 1
        else:
            state = act(state, stats(attack=1, grip=1, bonus=1, climb=1), ResolveCard())
    assert state.round == 11 and state.colossus_left == 0 and state.grip == 8
    assert penalties >= 1  # 44 draws from a deck of 26 + 6 Advanced cards
    assert state.weakness == 8  # the penalty's level was won back by later attacks
    assert state.advanced_added == 6 and state.action_deck == ACTION_CARDS + 6
    state = act(state, EnterFinalBlow(n_cards=4, grip_req=3, attack_req=4))
    state = act(state, stats(attack=2, grip=1), stats(attack=4, grip=3))
    outcome = RULES.outcome(state)
    assert outcome == RULES.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "final_blow"
    assert RULES.scores(state).rows[-1].label == "Final Blow"
    assert RULES.current_player(state) is None


def test_scripted_game_lost_by_falling() -> None:
    state = new_game(seed=4)
    rounds = 0
    while RULES.outcome(state) is None:
        if state.phase == "colossus_card":
            state = act(state, EnterColossusCard(card=card(grip=4, climb=6)))
        elif state.phase == "penalty":
            state = act(state, PayPenalty(pay="grip"))
        else:
            state = act(state, stats(grip=1), ResolveCard())
            rounds += 1
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "fell" and outcome.winners == ()
    # 6 rounds lose 6 Grip, round 7's draws deplete the deck (W = 1: Grip is lost),
    # then round 7's Grip line would take Grip below 1.
    assert rounds == 7 and state.grip == 1
    assert RULES.scores(state).rows[-1].label == "Round 7 (fell)"


# --- what legal_actions lists for entered numbers (docs/games/colossus-solo.md) -------------

LINE_VALUE = st.none() | st.integers(0, 20)


def outcomes(checks: list[tuple[int, int | None]]) -> tuple[bool | None, ...]:
    """Per line: None (no value, skipped), else whether the stat meets the value."""
    return tuple(None if need is None else stat >= need for stat, need in checks)


@settings(max_examples=60, deadline=None)
@given(attack=LINE_VALUE, grip=LINE_VALUE, bonus=LINE_VALUE, climb=LINE_VALUE)
def test_listed_stats_reach_every_success_and_failure_of_the_card_once(
    attack: int | None, grip: int | None, bonus: int | None, climb: int | None
) -> None:
    current = card(attack, grip, bonus, climb)
    state = act(new_game(), EnterColossusCard(card=current))
    listed = list(RULES.legal_actions(state))
    assert all(isinstance(a, EnterStats) for a in listed)
    assert listed[0] == stats(), "the kiosk's form starts from all zeros"
    needs = (attack, grip, bonus, climb)
    seen = [
        outcomes(list(zip((a.attack, a.grip, a.bonus, a.climb), needs, strict=True)))
        for a in listed
        if isinstance(a, EnterStats)
    ]
    possible = 1
    for need in needs:
        possible *= 2 if need else 1  # a line that needs 0 always succeeds
    assert len(set(seen)) == len(seen) == possible <= 16
    power_card = state.model_copy(update={"phase": "power_card", "stats": Stats()})
    assert list(RULES.legal_actions(power_card)) == [DiscardPowerCard(), *listed]
    for action in listed:
        RULES.apply(state, action)
    RULES.apply(state, stats(attack=99, grip=41, bonus=17, climb=23))  # not listed, accepted


@settings(max_examples=30, deadline=None)
@given(grip_req=st.integers(0, 30), attack_req=st.integers(0, 30))
def test_listed_final_blow_stats_meet_and_miss_each_threshold_once(
    grip_req: int, attack_req: int
) -> None:
    state = _final_blow(4, grip_req=grip_req, attack_req=attack_req)
    listed = [a for a in RULES.legal_actions(state) if isinstance(a, EnterStats)]
    assert listed[0] == stats()
    seen = {outcomes([(a.attack, attack_req), (a.grip, grip_req)]) for a in listed}
    assert len(seen) == len(listed) == (2 if attack_req else 1) * (2 if grip_req else 1)
    assert all(a.bonus == a.climb == 0 for a in listed)
    RULES.apply(state, stats(attack=30, grip=29))  # not listed, accepted


def test_listed_cards_and_final_blow_numbers_are_a_small_sample_all_accepted() -> None:
    state = new_game()
    cards = list(RULES.legal_actions(state))
    assert 1 < len(cards) <= 40
    assert cards[0] == EnterColossusCard(card=card(None, None, None, 1))
    assert len(set(cards)) == len(cards)
    for action in cards:
        RULES.apply(state, action)
    values_phase = act(state, EnterColossusCard(card=card()), stats())
    values_phase = act(_last_round(values_phase), ResolveCard())
    numbers = list(RULES.legal_actions(values_phase))
    assert all(isinstance(a, EnterFinalBlow) for a in numbers) and 1 < len(numbers) <= 40
    for action in numbers:
        RULES.apply(values_phase, action)
    RULES.apply(values_phase, EnterFinalBlow(n_cards=32, grip_req=30, attack_req=0))


# --- property tests ------------------------------------------------------------------------

OPTIONS = st.fixed_dictionaries(
    {
        "depletion_trigger": st.sampled_from(["on_draw_attempt", "when_emptied"]),
        "card_table": st.sampled_from([None, table().model_dump(mode="json")]),
    }
)


def check_invariants(state: ColossusSoloState) -> None:
    assert 1 <= state.weakness <= 8 and 1 <= state.grip <= 8
    assert cards_in_play(state) == ACTION_CARDS + state.advanced_added
    assert state.advanced_deck + state.advanced_added == 6
    assert 0 <= state.colossus_left <= 11
    assert position_problems(state) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.integers(0, 2**62), bot_seed=st.integers(0, 2**31))
def test_random_play_never_crashes_keeps_invariants_and_ends(
    options: dict[str, Any], seed: int, bot_seed: int
) -> None:
    start = RULES.setup(["Netophah"], RULES.parse_options(options), seed)
    check_invariants(start)

    def check(state: ColossusSoloState) -> None:
        check_invariants(state)
        RULES.status(state)

    state = random_game(RULES, start, bot_seed, MAX_RANDOM_ACTIONS, check).final
    assert RULES.outcome(state) is not None, "random play did not end"
    assert list(RULES.legal_actions(state)) == []
    with pytest.raises(RuleViolation):
        RULES.apply(state, ResolveCard())


ALL_KINDS: tuple[Any, ...] = (
    EnterColossusCard(card=card()),
    stats(1, 1, 1, 1),
    EnterMedallions(positive=Stats(attack=2), negative=Stats(attack=1)),
    UsePower(pay="weakness"),
    UsePower(pay="grip"),
    DiscardPowerCard(),
    ResolveCard(),
    PayPenalty(pay="weakness"),
    PayPenalty(pay="grip"),
    DestroyCards(count=0),
    DestroyCards(count=9),
    EnterFinalBlow(n_cards=3, grip_req=1, attack_req=1),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=OPTIONS,
    seed=st.integers(0, 2**62),
    bot_seed=st.integers(0, 2**31),
    steps=st.integers(0, 60),
)
def test_illegal_actions_change_nothing_and_positions_round_trip(
    options: dict[str, Any], seed: int, bot_seed: int, steps: int
) -> None:
    start = RULES.setup(["Netophah"], RULES.parse_options(options), seed)
    state = random_game(RULES, start, bot_seed, steps).final
    dumped = RULES.dump_position(state)
    assert RULES.load_position(dumped) == state
    before = state.model_dump_json()
    listed = set(RULES.legal_actions(state))
    for action in ALL_KINDS:
        try:
            after, _ = RULES.apply(state, action)
        except RuleViolation as exc:
            assert exc.message
            assert action not in listed
        else:
            check_invariants(after)
        assert state.model_dump_json() == before
    for action in list(listed)[:20]:
        RULES.apply(state, action)  # every listed action is accepted


def test_status_after_the_last_colossus_card_is_climbed_never_counts_past_11() -> None:
    """Protocol truth: the status read "Colossus card 12/11" while the round that climbed
    the last card went on (its destroy right still to use)."""
    state = new_game(1, table())
    assert "Colossus card 1/11" in RULES.status(state)
    climbed = state.model_copy(
        update={"colossus_left": 0, "colossus_order": (), "current_card": None}
    )
    status = RULES.status(climbed)
    assert "all 11 Colossus cards climbed" in status and "12/11" not in status, status
