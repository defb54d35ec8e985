"""What the log says as a solo Colossus round is played, event by event and word for word:
the draws of steps 1 and 2, the four lines of step 4 (CS-R01, CS-R10), the climb to the
next card (CS-R12), the depleted deck and its penalty (CS-R03, CS-R04), Netophah's power,
the destroy rights (CS-R11) and the Final Blow (CS-R05 to CS-R08)."""

from __future__ import annotations

from typing import Any

from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.model import (
    ColossusSoloState,
    DestroyCards,
    DiscardPowerCard,
    EnterColossusCard,
    EnterFinalBlow,
    PayPenalty,
    ResolveCard,
    Stats,
    UsePower,
)
from tests.helpers.colossus_solo import (
    act,
    at_power,
    card,
    end_of_round,
    last_round,
    new_game,
    stats,
    table,
)

Dump = dict[str, Any]

NOTHING = card(attack=None, grip=None, bonus=None, climb=None)


def events(state: ColossusSoloState, action: Any) -> list[Dump]:
    _, said = RULES.apply(state, action)
    return [e.model_dump(mode="json") for e in said]


def centre() -> Dump:
    text = "Draw the top Action card and place it in the centre."
    return {"type": "cards_drawn", "text": text, "centre": 1, "hand": 0}


def hand() -> Dump:
    text = "Draw 1 Action card into your hand."
    return {"type": "cards_drawn", "text": text, "centre": 0, "hand": 1}


def skipped() -> Dump:
    text = "No Action card is left to draw (deck and discard pile are empty); this draw is skipped."
    return {"type": "cards_drawn", "text": text, "centre": 0, "hand": 0}


ROUND_DRAWS = [centre(), hand(), hand(), hand()]


def line(name: str, stat: int, required: int | None, success: bool | None) -> Dump:
    word = {True: "success", False: "failure"}
    text = (
        f"{name.capitalize()} line: nothing printed, skipped."
        if required is None
        else f"{name.capitalize()} line: {stat} against {required} — {word[bool(success)]}."
    )
    return {
        "type": "line_resolved",
        "text": text,
        "line": name,
        "required": required,
        "stat": stat,
        "success": success,
    }


NOTHING_PRINTED = [line(n, 0, None, None) for n in ("attack", "grip", "bonus", "climb")]


def tracker(text: str, which: str, before: int, after: int) -> Dump:
    return {
        "type": "tracker_moved",
        "text": text,
        "tracker": which,
        "before": before,
        "after": after,
    }


def discarded(count: int, text: str) -> Dump:
    return {"type": "playing_area_discarded", "text": text, "count": count}


def test_CS_R12_an_entered_colossus_card_is_revealed_then_the_round_draws() -> None:
    entered = card(attack=2, icons=("attack",))
    assert events(new_game(), EnterColossusCard(card=entered)) == [
        {
            "type": "colossus_card_revealed",
            "text": "Colossus card 1: Attack 2 (destroy), Grip 2, Bonus 3, Climb 2.",
            "number": 1,
            "card": entered.model_dump(mode="json"),
        },
        *ROUND_DRAWS,
    ]


def test_CS_R01_step_4_resolves_each_line_top_to_bottom_and_climbs() -> None:
    state = act(new_game(), EnterColossusCard(card=card(attack=2, icons=("attack",))))
    state = act(state, stats(attack=2, grip=1, bonus=3, climb=2))
    assert events(state, ResolveCard()) == [
        line("attack", 2, 2, True),
        tracker("The Colossus is weakened: Weakness 1 → 2.", "weakness", 1, 2),
        line("grip", 1, 2, False),
        tracker("Grip line failed: Grip 8 → 7.", "grip", 8, 7),
        line("bonus", 3, 3, True),
        {
            "type": "advanced_card_gained",
            "text": "Bonus: put the top Advanced Action card unseen on top of the Action deck.",
            "added": True,
        },
        line("climb", 2, 2, True),
        {
            "type": "climbed",
            "text": "Climb: discard the Colossus card (10 Colossus cards left).",
            "colossus_left": 10,
        },
        {
            "type": "colossus_card_revealed",
            "text": "Reveal Colossus card 2 and enter its values next round.",
            "number": 2,
            "card": None,
        },
    ]


def test_CS_R11_one_destroy_right_returns_one_card_to_the_box_and_is_spent() -> None:
    state = act(new_game(), EnterColossusCard(card=card(attack=2, icons=("attack",))))
    state = act(state, stats(attack=2, grip=2), ResolveCard())
    assert (state.phase, state.destroy_rights, state.playing_area) == ("destroy", 1, 4)
    after, said = RULES.apply(state, DestroyCards(count=1))
    assert [e.model_dump(mode="json") for e in said][:2] == [
        {
            "type": "cards_destroyed",
            "text": "Return 1 card of the Playing Area to the box.",
            "count": 1,
        },
        discarded(3, "Discard the 3 cards of the Playing Area."),
    ]
    assert (after.destroy_rights, after.destroyed, after.discard) == (0, 1, 3)


def test_CS_R12_a_card_table_reveals_the_next_card_with_its_values() -> None:
    state = act(new_game(card_table=table()), stats(grip=2, climb=2))
    shown = events(state, ResolveCard())
    assert shown[4:6] == [
        {
            "type": "climbed",
            "text": "Climb: discard the Colossus card (10 Colossus cards left).",
            "colossus_left": 10,
        },
        {
            "type": "colossus_card_revealed",
            "text": "Reveal Colossus card 2: Attack 2, Grip 2, Bonus 3, Climb 2.",
            "number": 2,
            "card": table().colossus[state.colossus_order[1]].model_dump(mode="json"),
        },
    ]


def test_CS_R01_an_attack_at_weakness_8_says_the_tracker_stays_at_the_top() -> None:
    state = at_power(new_game(), card(grip=None, bonus=None, climb=None), weakness=8)
    state = state.model_copy(update={"stats": Stats(attack=2)})
    assert events(state, ResolveCard())[:2] == [
        line("attack", 2, 2, True),
        tracker("The Colossus is weakened: Weakness stays at 8, the top.", "weakness", 8, 8),
    ]


def test_CS_R01_a_grip_failure_at_grip_1_is_the_fall_and_ends_the_resolution() -> None:
    state = at_power(new_game(), card(attack=None), grip=1)
    state = state.model_copy(update={"stats": Stats(grip=1, bonus=3, climb=2)})
    assert events(state, ResolveCard()) == [
        line("attack", 0, None, None),
        line("grip", 1, 2, False),
        tracker("Grip line failed: Grip would fall below 1 — Netophah falls.", "grip", 1, 1),
        {
            "type": "game_ended",
            "text": "Defeat: Netophah loses his grip and falls from the Colossus.",
        },
    ]


def test_CS_R10_a_bonus_with_an_empty_advanced_deck_does_nothing() -> None:
    state = at_power(
        new_game(),
        card(attack=None, grip=None, climb=None),
        advanced_deck=0,
        advanced_added=6,
        action_deck=28,
    )
    state = state.model_copy(update={"stats": Stats(bonus=3)})
    assert events(state, ResolveCard())[2:5] == [
        line("bonus", 3, 3, True),
        {
            "type": "advanced_card_gained",
            "text": "Bonus: the Advanced deck is empty, so nothing happens.",
            "added": False,
        },
        line("climb", 0, None, None),
    ]


def test_CS_R04_a_depleted_deck_at_weakness_1_costs_grip_and_says_why() -> None:
    state = end_of_round("on_draw_attempt", deck=2, weakness=1)
    after, said = RULES.apply(state, ResolveCard())
    assert [e.model_dump(mode="json") for e in said] == [
        *NOTHING_PRINTED,
        discarded(4, "Discard the 4 cards of the Playing Area."),
        centre(),
        hand(),
        {
            "type": "deck_reshuffled",
            "text": "The Action deck is depleted: shuffle the discard pile (19 cards) into a "
            "new Action deck, the End-of-Deck card underneath.",
            "cards": 19,
        },
        tracker(
            "Depleted deck (Weakness is already 1, so Grip is lost): Grip 8 → 7.", "grip", 8, 7
        ),
        hand(),
        hand(),
    ]
    assert (after.action_deck, after.discard, after.hand, after.grip) == (17, 0, 3, 7)


def test_CS_R03_a_chosen_penalty_names_the_depleted_deck_then_the_draws_go_on() -> None:
    state = act(end_of_round("on_draw_attempt", deck=2, weakness=4), ResolveCard())
    assert state.phase == "penalty"
    assert events(state, PayPenalty(pay="weakness")) == [
        tracker("Depleted deck: Weakness 4 → 3.", "weakness", 4, 3),
        hand(),
        hand(),
    ]


def test_CS_R03_draws_with_no_card_anywhere_are_each_skipped() -> None:
    empty = at_power(new_game(), NOTHING, action_deck=0, playing_area=0, destroyed=26)
    after, said = RULES.apply(empty, ResolveCard())
    assert [e.model_dump(mode="json") for e in said][5:] == [skipped()] * 4
    assert (after.phase, after.pending_draws, after.hand, after.playing_area) == (
        "stats",
        (),
        0,
        0,
    )
    two = at_power(new_game(), NOTHING, action_deck=2, playing_area=0, destroyed=24)
    after, said = RULES.apply(two, ResolveCard())
    assert [e.model_dump(mode="json") for e in said][5:] == [centre(), hand(), skipped(), skipped()]
    assert (after.phase, after.pending_draws, after.hand, after.playing_area) == (
        "stats",
        (),
        1,
        1,
    )


def test_CS_R03_when_emptied_reshuffles_only_when_the_discard_pile_holds_a_card() -> None:
    alone = at_power(new_game(trigger="when_emptied"), NOTHING, action_deck=4, playing_area=0)
    alone = alone.model_copy(update={"destroyed": 22})
    after, said = RULES.apply(alone, ResolveCard())
    assert [e.model_dump(mode="json") for e in said][5:] == ROUND_DRAWS
    assert (after.action_deck, after.discard, after.grip) == (0, 0, 8)
    one = alone.model_copy(update={"playing_area": 1, "destroyed": 21})
    after, said = RULES.apply(one, ResolveCard())
    assert [e.model_dump(mode="json") for e in said][-2:] == [
        {
            "type": "deck_reshuffled",
            "text": "The Action deck is depleted: shuffle the discard pile (1 card) into a "
            "new Action deck, the End-of-Deck card underneath.",
            "cards": 1,
        },
        tracker(
            "Depleted deck (Weakness is already 1, so Grip is lost): Grip 8 → 7.", "grip", 8, 7
        ),
    ]
    assert (after.action_deck, after.discard, after.grip) == (1, 0, 7)


def test_CS_R04_the_power_is_paid_then_draws_and_its_card_may_be_discarded() -> None:
    state = at_power(new_game(), card(), action_deck=22, playing_area=4)
    assert events(state, UsePower(pay="grip")) == [
        {
            "type": "power_used",
            "text": "Netophah's power: pay 1 Grip level and draw 1 Action card.",
            "paid": "grip",
        },
        tracker("Netophah's power: Grip 8 → 7.", "grip", 8, 7),
        hand(),
    ]
    drawn = act(state, UsePower(pay="grip"))
    after, said = RULES.apply(drawn, DiscardPowerCard())
    assert said[0].model_dump(mode="json") == {
        "type": "power_card_discarded",
        "text": "The power's card is discarded unplayed (the level is not refunded).",
    }
    assert (after.discard, after.hand) == (5, 3)  # the power's card, then the area's 4


def test_CS_R05_the_last_climb_reshuffles_and_asks_for_the_final_blow_card() -> None:
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    assert events(last_round(state), ResolveCard())[4:] == [
        {
            "type": "climbed",
            "text": "Climb: discard the last Colossus card; the Final Blow follows at the "
            "end of the round.",
            "colossus_left": 0,
        },
        discarded(4, "Discard the 4 cards of the Playing Area."),
        {
            "type": "deck_reshuffled",
            "text": "You reach Og's head: shuffle the discard pile (4 cards) into the Action "
            "deck and reveal the Final Blow card.",
            "cards": 4,
        },
    ]


def final_blow_values() -> ColossusSoloState:
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    return act(last_round(state), ResolveCard())


def test_CS_R07_the_final_blow_is_formed_then_won_at_the_first_card_that_meets_both() -> None:
    values = EnterFinalBlow(n_cards=3, grip_req=2, attack_req=4)
    assert events(final_blow_values(), values) == [
        {
            "type": "final_blow_revealed",
            "text": "Final Blow: form a deck of 3 Action cards; you need 4 Attack and 2 Grip "
            "visible.",
            "values": {"n_cards": 3, "grip_req": 2, "attack_req": 4},
            "deck_cards": 3,
        }
    ]
    state = act(final_blow_values(), values)
    won, said = RULES.apply(state, stats(attack=4, grip=2))
    assert [e.model_dump(mode="json") for e in said] == [
        {
            "type": "final_blow_card_placed",
            "text": "Final Blow card 1: Attack 4 of 4, Grip 2 of 2.",
            "attack": 4,
            "grip": 2,
            "cards_left": 2,
        },
        {"type": "game_ended", "text": "Victory: Netophah deals the Final Blow and Og falls."},
    ]
    assert won.history[-1].label == "Final Blow"
    outcome = RULES.outcome(won)
    assert outcome is not None
    assert outcome.text == "Victory: Netophah deals the Final Blow and Og falls."


def test_CS_R08_a_spent_final_blow_deck_is_the_defeat_and_its_row() -> None:
    state = act(final_blow_values(), EnterFinalBlow(n_cards=2, grip_req=2, attack_req=3))
    state = act(state, stats(attack=1))
    lost, said = RULES.apply(state, stats(attack=1))
    assert [e.model_dump(mode="json") for e in said] == [
        {
            "type": "final_blow_card_placed",
            "text": "Final Blow card 2: Attack 1 of 3, Grip 0 of 2.",
            "attack": 1,
            "grip": 0,
            "cards_left": 0,
        },
        {"type": "game_ended", "text": "Defeat: the Final Blow deck is spent and Og still stands."},
    ]
    assert lost.history[-1].label == "Final Blow"
    assert RULES.status(lost) == (
        "Defeat: the Final Blow deck is spent and Og still stands. · Weakness 1 · Grip 8"
    )


def test_CS_R11_a_right_used_in_the_last_round_is_spent_before_the_final_blow() -> None:
    """The last round's end starts the Final Blow, not a new round that would clear the
    rights: destroying must spend them itself."""
    state = act(new_game(), EnterColossusCard(card=card(climb=2, icons=("climb",))), stats())
    state = act(last_round(state), ResolveCard())
    assert (state.phase, state.destroy_rights, state.playing_area) == ("destroy", 1, 4)
    after = act(state, DestroyCards(count=1))
    assert (after.phase, after.destroy_rights, after.destroyed) == ("final_blow_values", 0, 1)
