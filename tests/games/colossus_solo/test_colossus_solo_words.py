"""Colossus (solo, seed 003) in the player's words: every action family's title, every form
field's title, each action as the rule book says it (cards, trackers, levels), the log
and the refusals, with counts spelled by ``companion.words.count``."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from companion.errors import RuleViolation
from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.model import (
    ColossusSoloState,
    CorrectCards,
    CorrectColossusCard,
    CorrectFinalBlow,
    CorrectPower,
    CorrectTrackers,
    DestroyCards,
    DiscardPowerCard,
    EnterColossusCard,
    EnterFinalBlow,
    EnterMedallions,
    PayPenalty,
    ResolveCard,
    Stats,
    UsePower,
)
from tests.games.card_words import assert_says_well, check_events, check_positions, faults
from tests.helpers.colossus_solo import (
    act,
    at_power,
    card,
    end_of_round,
    final_blow,
    last_round,
    new_game,
    stats,
    table,
)


def _nested_models(model: type[BaseModel]) -> list[tuple[str, type[BaseModel]]]:
    """The action model and the models its fields hold (a card, its lines, stats)."""
    found: list[tuple[str, type[BaseModel]]] = [(model.__name__, model)]
    for name, info in model.model_fields.items():
        kind = info.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            found.extend((f"{model.__name__}.{name}.{n}", m) for n, m in _nested_models(kind))
    return found


@pytest.mark.parametrize("action_type", sorted(RULES.action_models()))
def test_every_family_and_every_form_field_has_players_words(action_type: str) -> None:
    """A family's title is declared on its model; so is every field's, nested cards
    and stats included (a form never shows "Cls", "N cards" or "Grip req")."""
    model = RULES.action_models()[action_type]
    assert model.model_config.get("title"), f"{action_type} has no title"
    assert RULES.family_title(action_type) == model.model_config["title"]
    for where, each in _nested_models(model):
        for name, info in each.model_fields.items():
            if name != "type":
                assert info.title, f"{where}.{name} has no title"
                assert not faults(info.title)
    for name in model.model_fields:
        if name != "type":
            assert RULES.field_words(action_type, name) == model.model_fields[name].title


def test_family_titles_say_what_the_player_does() -> None:
    titles = {kind: RULES.family_title(kind) for kind in RULES.action_models()}
    assert titles == {
        "enter_colossus_card": "Enter the Colossus card",
        "enter_stats": "Enter the visible stats",
        "enter_medallions": "Count the medallions",
        "use_power": "Use Netophah's power",
        "discard_power_card": "Discard the power's card",
        "resolve_card": "Resolve the Colossus card",
        "pay_penalty": "Pay the depleted-deck penalty",
        "destroy_cards": "Destroy cards",
        "enter_final_blow": "Enter the Final Blow card",
        "correct_trackers": "Correct the trackers",
        "correct_cards": "Correct the card counts",
        "correct_power": "Correct Netophah's power",
        "correct_colossus_card": "Correct the Colossus card",
        "correct_final_blow": "Correct the Final Blow card",
    }


def _starts() -> list[ColossusSoloState]:
    return [
        new_game(seed=1),
        new_game(seed=2, card_table=table()),
        new_game(seed=3, trigger="when_emptied"),
        end_of_round("on_draw_attempt", deck=0, weakness=3),
        final_blow(8),
    ]


def test_words_in_random_positions_say_what_the_table_says() -> None:
    """Every listed action's words, every correction template's, every log line and
    the refusal of actions listed in the state before: no snake_case, payload key,
    "(s)", "…" or wrong plural, never empty."""
    assert check_positions(RULES, _starts(), limit=90) > 2000


def test_CS_R12_a_colossus_card_is_entered_as_printed() -> None:
    state = new_game()
    entry = EnterColossusCard(card=card(attack=2, grip=None, bonus=3, climb=1, icons=("attack",)))
    assert RULES.describe(state, entry) == (
        "Colossus card 1: Attack 2 (destroy), Grip blank, Bonus 3, Climb 1"
    )
    named = EnterColossusCard(card=card(name="Og's knee"))
    assert RULES.describe(state, named) == (
        "Colossus card 1, Og's knee: Attack 2, Grip 2, Bonus 3, Climb 2"
    )
    _, events = RULES.apply(state, entry)
    assert events[0].text == "Colossus card 1: Attack 2 (destroy), Grip blank, Bonus 3, Climb 1."


def test_CS_R02_stats_and_medallions_in_the_players_words() -> None:
    state = act(new_game(), EnterColossusCard(card=card()))
    assert RULES.describe(state, stats(attack=2, climb=2)) == (
        "Visible stats: Attack 2, Grip 0, Bonus 0, Climb 2"
    )
    counted = EnterMedallions(
        positive=Stats(attack=3, grip=1, climb=2), negative=Stats(attack=1, grip=2)
    )
    assert RULES.describe(state, counted) == (
        "Visible medallions: Attack 3 − 1 = 2, Grip 1 − 2 = 0, Bonus 0, Climb 2"
    )


def test_CS_R04_power_and_penalty_name_the_level_lost() -> None:
    state = at_power(new_game(), card(), weakness=3, grip=1)
    assert RULES.describe(state, ResolveCard()) == "Resolve Colossus card 1"
    assert RULES.describe(state, UsePower(pay="weakness")) == (
        "Use Netophah's power: lose 1 Weakness level (3 → 2) and draw 1 Action card"
    )
    penalty = state.model_copy(update={"phase": "penalty"})
    assert RULES.describe(penalty, PayPenalty(pay="weakness")) == (
        "Depleted deck: lose 1 Weakness level (3 → 2)"
    )
    assert RULES.describe(penalty, PayPenalty(pay="grip")) == (
        "Depleted deck: lose 1 Grip level (Netophah falls)"
    )
    drawn = state.model_copy(update={"phase": "power_card", "hand": 1})
    assert RULES.describe(drawn, DiscardPowerCard()) == "Discard the power's card unplayed"
    assert RULES.describe(drawn, stats(grip=2)) == (
        "Place the power's card: Attack 0, Grip 2, Bonus 0, Climb 0"
    )


def test_CS_R11_destroying_counts_the_cards() -> None:
    state = new_game().model_copy(update={"phase": "destroy", "destroy_rights": 2})
    assert RULES.describe(state, DestroyCards(count=0)) == "Destroy no card"
    assert RULES.describe(state, DestroyCards(count=1)) == "Destroy 1 card of the Playing Area"
    assert RULES.describe(state, DestroyCards(count=2)) == "Destroy 2 cards of the Playing Area"


def test_CS_R05_CS_R07_final_blow_words() -> None:
    entry = EnterFinalBlow(n_cards=1, grip_req=5, attack_req=7)
    assert RULES.describe(new_game(), entry) == (
        "Final Blow card: a deck of 1 Action card, Attack 7 and Grip 5 to reach"
    )
    state = final_blow(8, grip_req=2, attack_req=3)
    assert RULES.describe(state, stats(attack=3, grip=0)) == (
        "Place Final Blow card 1: Attack 3 of 3, Grip 0 of 2"
    )


def test_corrections_say_what_the_table_shows() -> None:
    state = final_blow(4)
    assert RULES.describe(state, CorrectTrackers(weakness=3, grip=5)) == (
        "Set the trackers: Weakness 3, Grip 5"
    )
    counts = CorrectCards(
        action_deck=20,
        discard=0,
        playing_area=1,
        hand=0,
        destroyed=2,
        final_blow_deck=3,
        advanced_added=0,
    )
    assert RULES.describe(state, counts) == (
        "Set the card counts: Action deck 20, discard pile 0, Playing Area 1, cards in hand 0, "
        "destroyed cards 2, Final Blow deck 3, Advanced cards added 0"
    )
    assert RULES.describe(state, CorrectPower(used=True)) == (
        "Mark Netophah's power used this round"
    )
    assert RULES.describe(state, CorrectPower(used=False)) == (
        "Mark Netophah's power unused this round"
    )
    assert RULES.describe(state, CorrectColossusCard(card=card(bonus=None))) == (
        "Set the Colossus card: Attack 2, Grip 2, Bonus blank, Climb 2"
    )
    assert RULES.describe(state, CorrectFinalBlow(n_cards=6, grip_req=2, attack_req=3)) == (
        "Set the Final Blow card: a deck of 6 Action cards, Attack 3 and Grip 2 to reach"
    )


def test_value_words_name_trackers_icons_and_blanks() -> None:
    state = new_game()
    assert RULES.value_words(state, "use_power", "pay", "weakness") == "Weakness"
    assert RULES.value_words(state, "pay_penalty", "pay", "grip") == "Grip"
    assert RULES.value_words(state, "correct_power", "used", True) == "used"
    assert RULES.value_words(state, "correct_power", "used", False) == "not used"
    assert RULES.value_words(state, "enter_colossus_card", "card.attack.destroy", True) == (
        "destroy icon"
    )
    assert RULES.value_words(state, "enter_colossus_card", "card.grip.value", None) == "blank"
    assert RULES.value_words(state, "enter_stats", "attack", 3) == "3"
    assert RULES.value_words(state, "enter_colossus_card", "card", card()) == (
        "Attack 2, Grip 2, Bonus 3, Climb 2"
    )


def _events(state: ColossusSoloState, *actions: Any) -> list[str]:
    texts: list[str] = []
    for action in actions:
        state, events = RULES.apply(state, action)
        check_events(events)
        texts.extend(e.text for e in events)
    return texts


def test_CS_R03_log_counts_the_reshuffled_cards() -> None:
    """A discard pile of one card is "1 card", never "the 1 discarded cards"."""
    state = end_of_round("on_draw_attempt", deck=0, weakness=3)
    state = state.model_copy(update={"playing_area": 0, "discard": 1, "destroyed": 25})
    texts = _events(state, ResolveCard())
    assert "The Playing Area is empty: nothing to discard." in texts
    assert (
        "The Action deck is depleted: shuffle the discard pile (1 card) into a new Action "
        "deck, the End-of-Deck card underneath." in texts
    )


def test_CS_R11_log_of_no_card_destroyed() -> None:
    state = act(
        new_game(),
        EnterColossusCard(card=card(attack=1, grip=None, bonus=None, climb=9, icons=("attack",))),
    )
    texts = _events(state, stats(attack=1), ResolveCard(), DestroyCards(count=0))
    assert "No card is destroyed; the Playing Area stays as it is." in texts
    assert "Discard the 4 cards of the Playing Area." in texts


def test_CS_R10_log_of_a_blank_line() -> None:
    state = act(new_game(), EnterColossusCard(card=card(bonus=None, climb=9)))
    texts = _events(state, stats(), ResolveCard())
    assert "Bonus line: nothing printed, skipped." in texts
    assert "Climb line: 0 against 9 — failure." in texts


def test_CS_R12_refusal_names_the_line_in_the_players_words() -> None:
    bad = EnterColossusCard(card=card(grip=None, icons=("grip",)))
    with pytest.raises(RuleViolation) as info:
        RULES.apply(new_game(), bad)
    assert info.value.ruling == "CS-R12"
    assert info.value.message == "This card: the Grip line has a destroy icon but no value."
    assert_says_well(info.value.message, "refusal")


def test_climbing_the_last_card_announces_the_final_blow() -> None:
    """Never "(0 Colossus cards left)": the last Climb leads to the Final Blow."""
    state = act(new_game(), EnterColossusCard(card=card(attack=None, grip=None, bonus=None)))
    texts = _events(last_round(state), ResolveCard())
    assert (
        "Climb: discard the last Colossus card; the Final Blow follows at the end of the round."
        in texts
    )
    earlier = act(new_game(), EnterColossusCard(card=card(attack=None, grip=None, bonus=None)))
    assert "Climb: discard the Colossus card (10 Colossus cards left)." in _events(
        earlier, stats(climb=2), ResolveCard()
    )


def test_CS_R10_CS_R11_the_narrow_card_tile_shows_the_printed_lines() -> None:
    """The Colossus card's tile has room for two short lines: the printed values, ✗ for
    the destroy icon, a blank line left out as on the card (the words elsewhere)."""
    state = act(new_game(), EnterColossusCard(card=card(grip=None, bonus=None, icons=("attack",))))
    tile = RULES.cards(state)[0]
    assert tile.lines == ("Attack 2 ✗ · Climb 2",)
    bare = act(new_game(), EnterColossusCard(card=card(None, None, None, 1)))
    assert RULES.cards(bare)[0].lines == ("Climb 1",)


def test_CS_R01_the_status_names_the_trackers_in_words() -> None:
    """The status once read "W 1 · G 8": the trackers are named as the rule book names
    them, and follow the referee (a failed Grip line lowers Grip, CS-R10)."""
    state = new_game()
    assert RULES.status(state) == (
        "Round 1 · Colossus card 1/11 · Weakness 1 · Grip 8 · enter the revealed Colossus "
        "card's values"
    )
    slipping = act(new_game(), EnterColossusCard(card=card(attack=None, grip=9, bonus=None)))
    after = act(act(slipping, stats()), ResolveCard())
    assert after.grip == 7
    assert "· Weakness 1 · Grip 7 ·" in RULES.status(after)
    assert_says_well(RULES.status(after), "status")
