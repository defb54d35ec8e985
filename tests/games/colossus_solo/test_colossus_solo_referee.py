"""The solo Colossus referee's smaller answers, each exactly: what the status asks for
(CS-R04, CS-R11), when the power may be used (CS-R03, CS-R09), which Final Blow card a
card table deals (CS-R05), what the listing offers (CS-R10), the weights random play
uses, an action of no known kind, and the phrases of a few actions and values."""

from __future__ import annotations

from typing import Literal

import pytest

from companion.errors import RuleViolation
from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.model import (
    ColossusSoloState,
    CorrectCards,
    DestroyCards,
    EnterColossusCard,
    EnterMedallions,
    FinalBlowValues,
    ResolveCard,
    Stats,
    UsePower,
)
from companion.games.colossus_solo.phrases import value_words
from companion.games.colossus_solo.play import _listed_final_blow_stats, _listed_stats
from companion.model import Frozen
from tests.helpers.colossus_solo import act, at_power, card, final_blow, new_game, stats, table


def at_stats() -> ColossusSoloState:
    return act(new_game(), EnterColossusCard(card=card()))


# --- the status and the power -------------------------------------------------------


def test_CS_R11_the_status_asks_to_destroy_up_to_the_rights_held() -> None:
    state = act(new_game(), EnterColossusCard(card=card(attack=2, icons=("attack",))))
    state = act(state, stats(attack=2, grip=2), ResolveCard())
    assert RULES.status(state) == (
        "Round 1 · Colossus card 1/11 · Weakness 2 · Grip 8 · "
        "destroy up to 1 card of the Playing Area"
    )


def test_CS_R03_the_power_over_an_empty_deck_warns_of_the_reshuffle() -> None:
    state = at_power(new_game(), card())
    assert RULES.status(state) == (
        "Round 1 · Colossus card 1/11 · Weakness 1 · Grip 8 · "
        "use Netophah's power or resolve the Colossus card"
    )
    empty = state.model_copy(update={"action_deck": 0, "discard": 22})
    assert RULES.status(empty) == (
        "Round 1 · Colossus card 1/11 · Weakness 1 · Grip 8 · use Netophah's power or "
        "resolve the Colossus card (the power's draw would reshuffle the deck)"
    )


def test_CS_R03_one_card_in_the_discard_pile_is_enough_for_the_power() -> None:
    state = at_power(new_game(), card(), action_deck=0, discard=1, playing_area=4, destroyed=21)
    assert RULES.power_allowed(state)
    assert UsePower(pay="grip") in list(RULES.legal_actions(state))
    assert not RULES.power_allowed(state.model_copy(update={"discard": 0, "destroyed": 22}))


def test_CS_R09_the_power_is_refused_while_the_final_blow_values_are_asked() -> None:
    state = final_blow(4).model_copy(
        update={"phase": "final_blow_values", "final_blow": None, "final_blow_deck": 0}
    )
    state = state.model_copy(update={"action_deck": state.action_deck + 4})
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, UsePower(pay="grip"))
    assert (err.value.message, err.value.ruling) == (
        "Netophah's power cannot be used during the Final Blow.",
        "CS-R09",
    )


# --- setup and the listing ----------------------------------------------------------


def test_CS_R05_a_card_table_deals_any_of_the_three_final_blow_cards() -> None:
    dealt = {new_game(seed, card_table=table()).final_blow_card for seed in range(8)}
    assert dealt == {0, 1, 2}


def test_CS_R10_the_listing_offers_0_and_each_printed_value_once() -> None:
    listed = _listed_stats.__wrapped__(card(attack=None, grip=0, bonus=3, climb=1))
    assert listed == (
        stats(),
        stats(climb=1),
        stats(bonus=3),
        stats(bonus=3, climb=1),
    )
    blow = _listed_final_blow_stats.__wrapped__(
        FinalBlowValues(n_cards=4, grip_req=0, attack_req=5)
    )
    assert blow == (stats(), stats(attack=5))


# --- weights for random play --------------------------------------------------------


def test_random_play_weighs_progress_exactly() -> None:
    state = at_stats()  # the card needs Attack 2, Grip 2, Bonus 3, Climb 2
    weights = [
        RULES.interest(state, s)
        for s in (stats(), stats(climb=2), stats(attack=2, grip=2), stats(bonus=3))
    ]
    assert weights == [1, 31, 7, 1]
    counted = EnterMedallions(positive=Stats(climb=3), negative=Stats(climb=1))
    assert RULES.interest(state, counted) == 31
    assert RULES.interest(new_game(), stats(climb=2)) == 1  # no card to judge it by
    blow = final_blow(4, grip_req=2, attack_req=3)
    assert [RULES.interest(blow, s) for s in (stats(attack=3, grip=2), stats(attack=2))] == [40, 1]
    unjudged = blow.model_copy(update={"final_blow": None})
    assert RULES.interest(unjudged, stats(attack=3, grip=2)) == 1
    others = (ResolveCard(), DestroyCards(count=0), DestroyCards(count=1), UsePower(pay="grip"))
    assert [RULES.interest(state, a) for a in others] == [6, 3, 1, 1]


# --- an action of no known kind -----------------------------------------------------


class Stray(Frozen):
    type: Literal["stray"] = "stray"


def test_an_action_of_no_known_kind_is_refused_and_described_generally() -> None:
    state = at_stats()
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, Stray())  # type: ignore[arg-type]
    assert (err.value.message, err.value.ruling) == ("Colossus has no such action.", None)
    assert RULES.describe(state, Stray()) == "Colossus action"  # type: ignore[arg-type]


# --- phrases ------------------------------------------------------------------------


def test_CS_R02_entered_stats_and_counted_medallions_read_as_entered() -> None:
    assert RULES.describe(at_stats(), stats(attack=1, grip=2, bonus=3, climb=4)) == (
        "Visible stats: Attack 1, Grip 2, Bonus 3, Climb 4"
    )
    counted = EnterMedallions(positive=Stats(attack=3, grip=2), negative=Stats(attack=1))
    placed = act(final_blow(4), stats(attack=1))
    assert RULES.describe(placed, counted) == (
        "Place Final Blow card 2: Attack 3 − 1 = 2, Grip 2, Bonus 0, Climb 0"
    )


def counts(final_blow_deck: int, action_deck: int) -> CorrectCards:
    return CorrectCards(
        action_deck=action_deck,
        discard=0,
        playing_area=0,
        hand=0,
        destroyed=0,
        final_blow_deck=final_blow_deck,
        advanced_added=0,
    )


def test_0_2_1_card_counts_name_the_final_blow_deck_when_there_is_one() -> None:
    head = "Set the card counts: Action deck 26, discard pile 0, Playing Area 0, "
    common = "cards in hand 0, destroyed cards 0, "
    state = at_stats()
    assert RULES.describe(state, counts(0, 26)) == head + common + "Advanced cards added 0"
    assert RULES.describe(final_blow(4), counts(0, 26)) == (
        head + common + "Final Blow deck 0, Advanced cards added 0"
    )
    assert RULES.describe(state, counts(1, 25)) == (
        "Set the card counts: Action deck 25, discard pile 0, Playing Area 0, "
        + common
        + "Final Blow deck 1, Advanced cards added 0"
    )


def test_CS_R04_paying_weakness_at_1_is_no_fall() -> None:
    state = at_power(new_game(), card())
    assert RULES.describe(state, UsePower(pay="weakness")) == (
        "Use Netophah's power: lose 1 Weakness level and draw 1 Action card"
    )
    assert RULES.describe(state.model_copy(update={"grip": 1}), UsePower(pay="grip")) == (
        "Use Netophah's power: lose 1 Grip level (Netophah falls) and draw 1 Action card"
    )


def test_values_of_other_fields_read_plainly() -> None:
    assert (value_words("flag", True), value_words("flag", False)) == ("yes", "no")
    assert (value_words("tracker", "grip"), value_words("pay", "grip")) == ("grip", "Grip")
