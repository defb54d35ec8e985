"""What each manual correction of the solo Colossus game (RULINGS 0.2.1) says, word for
word: the log line of an accepted one, and the refusal of one that is impossible or
changes nothing, with its ruling (CS-R05, CS-R08, CS-R09, CS-R12 where one applies)."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from companion.errors import RuleViolation
from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.model import (
    ColossusSoloState,
    CorrectCards,
    CorrectColossusCard,
    CorrectFinalBlow,
    CorrectPower,
    CorrectTrackers,
    EnterColossusCard,
)
from companion.games.corrections import Correction
from tests.helpers.colossus_solo import act, card, final_blow, new_game, stats, table


def logged(state: ColossusSoloState, action: Any) -> list[str]:
    """The texts of the events an accepted correction gives."""
    _, events = RULES.apply(state, action)
    return [e.text for e in events]


def refusal(state: ColossusSoloState, action: Any) -> tuple[str, str | None]:
    before = RULES.dump_position(state)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, action)
    assert RULES.dump_position(state) == before
    return err.value.message, err.value.ruling


def counts(state: ColossusSoloState, **change: int) -> CorrectCards:
    names = ("action_deck", "discard", "playing_area", "hand", "destroyed")
    values = {n: getattr(state, n) for n in (*names, "final_blow_deck", "advanced_added")}
    return CorrectCards(**(values | change))


def at_stats() -> ColossusSoloState:
    """Round 1, step 3: 22 cards in the deck, 1 in the centre, 3 in hand."""
    return act(new_game(), EnterColossusCard(card=card()))


def one_placed() -> ColossusSoloState:
    """A Final Blow of 4 cards, the base placed: 3 left in its deck, 22 in the Action deck."""
    return act(final_blow(4), stats(attack=1, grip=1))


# --- the card counts ----------------------------------------------------------------


def test_0_2_1_corrected_card_counts_name_every_pile_that_changed() -> None:
    state = one_placed()
    change = counts(
        state,
        action_deck=10,
        discard=5,
        playing_area=2,
        hand=1,
        destroyed=3,
        final_blow_deck=6,
        advanced_added=1,
    )
    assert logged(state, change) == [
        "Manual correction: Action deck 22 → 10, discard pile 0 → 5, Playing Area 1 → 2, "
        "hand 0 → 1, destroyed cards 0 → 3, Final Blow deck 3 → 6, Advanced cards added 0 → 1."
    ]
    assert logged(state, counts(state, action_deck=21, discard=1)) == [
        "Manual correction: Action deck 22 → 21, discard pile 0 → 1."
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hand": -1, "discard": 1}, "The hand cannot be less than 0; -1 is not possible."),
        (
            {"action_deck": -1, "discard": 23},
            "The Action deck cannot be less than 0; -1 is not possible.",
        ),
        (
            {"advanced_added": 7},
            "Advanced cards added cannot be more than 6; 7 is not possible.",
        ),
        (
            {"discard": 2, "advanced_added": 1},
            "These counts add up to 28 Action cards, but with 1 Advanced card added there are 27.",
        ),
        (
            {"action_deck": 21, "final_blow_deck": 1},
            "There is no Final Blow deck before the Final Blow.",
        ),
        ({}, "Nothing to correct: the card counts are already these."),
    ],
    ids=["negative hand", "negative deck", "7 advanced", "28 cards", "final blow deck", "same"],
)
def test_0_2_1_impossible_card_counts_are_refused_saying_why(
    change: dict[str, int], message: str
) -> None:
    state = at_stats()
    assert refusal(state, counts(state, **change)) == (message, "0.2.1")


# --- the trackers and the power -----------------------------------------------------


def test_0_2_1_trackers_already_shown_are_nothing_to_correct() -> None:
    assert refusal(at_stats(), CorrectTrackers(weakness=1, grip=8)) == (
        "Nothing to correct: the trackers already show Weakness 1, Grip 8.",
        "0.2.1",
    )


def test_CS_R04_the_power_marked_used_or_unused_says_which() -> None:
    unused = at_stats()
    used = unused.model_copy(update={"power_used": True})
    assert logged(unused, CorrectPower(used=True)) == [
        "Manual correction: Netophah's power was used this round."
    ]
    assert logged(used, CorrectPower(used=False)) == [
        "Manual correction: Netophah's power is still available this round."
    ]
    assert refusal(unused, CorrectPower(used=False)) == (
        "Nothing to correct: the power is already marked unused.",
        "0.2.1",
    )
    assert refusal(used, CorrectPower(used=True)) == (
        "Nothing to correct: the power is already marked used.",
        "0.2.1",
    )


def test_CS_R09_the_power_cannot_be_corrected_in_the_final_blow() -> None:
    assert refusal(one_placed(), CorrectPower(used=True)) == (
        "Netophah's power does not exist during the Final Blow.",
        "CS-R09",
    )


# --- the Colossus card --------------------------------------------------------------


def test_CS_R12_a_corrected_colossus_card_reads_its_new_values() -> None:
    assert logged(at_stats(), CorrectColossusCard(card=card(attack=5, name="Knee"))) == [
        "Manual correction: the Colossus card reads Attack 5, Grip 2, Bonus 3, Climb 2."
    ]


@pytest.mark.parametrize(
    ("start", "fixed", "message", "ruling"),
    [
        (
            lambda: new_game(card_table=table()),
            card(),
            "The card table gives the Colossus cards' values.",
            "CS-R12",
        ),
        (new_game, card(), "No Colossus card has been entered yet.", "CS-R12"),
        (
            at_stats,
            card(bonus=None, attack=None, icons=("bonus", "attack")),
            "This card: the Attack line has a destroy icon but no value; "
            "This card: the Bonus line has a destroy icon but no value.",
            "CS-R12",
        ),
        (
            at_stats,
            card(),
            "Nothing to correct: the Colossus card already has these values.",
            "0.2.1",
        ),
    ],
    ids=["card table", "no card yet", "icons on blank lines", "same card"],
)
def test_CS_R12_a_colossus_card_correction_is_refused_saying_why(
    start: Any, fixed: Any, message: str, ruling: str
) -> None:
    assert refusal(start(), CorrectColossusCard(card=fixed)) == (message, ruling)


# --- the Final Blow card ------------------------------------------------------------


def blow(n_cards: int, grip_req: int = 2, attack_req: int = 3) -> CorrectFinalBlow:
    return CorrectFinalBlow(n_cards=n_cards, grip_req=grip_req, attack_req=attack_req)


def test_CS_R05_the_final_blow_card_is_offered_for_correction_once_revealed() -> None:
    assert RULES.corrections(one_placed()) == (
        CorrectTrackers(weakness=1, grip=8),
        counts(one_placed()),
        blow(4),
    )


def test_CS_R08_corrected_final_blow_numbers_say_how_the_deck_changes() -> None:
    state = one_placed()
    assert logged(state, blow(4, grip_req=1)) == [
        "Manual correction: the Final Blow card shows 4 cards, Grip 1, Attack 3."
    ]
    assert logged(state, blow(5)) == [
        "Manual correction: the Final Blow card shows 5 cards, Grip 2, Attack 3; the Final "
        "Blow deck 3 → 4: take 1 more card from the Action deck."
    ]
    assert logged(state, blow(3)) == [
        "Manual correction: the Final Blow card shows 3 cards, Grip 2, Attack 3; the Final "
        "Blow deck 3 → 2: put 1 card back on the Action deck."
    ]
    # N_cards changes, but every card left is already in the deck (CS-R08): none moves
    spent = act(state, counts(state, action_deck=0, discard=22))
    after, events = RULES.apply(spent, blow(6))
    assert [e.text for e in events] == [
        "Manual correction: the Final Blow card shows 6 cards, Grip 2, Attack 3."
    ]
    assert (after.final_blow_deck, after.action_deck) == (3, 0)


@pytest.mark.parametrize(
    ("start", "message", "ruling"),
    [
        (at_stats, "The Final Blow card is not revealed yet.", "CS-R05"),
        (one_placed, "Nothing to correct: the Final Blow card already has these numbers.", "0.2.1"),
    ],
    ids=["not revealed", "same numbers"],
)
def test_CS_R05_a_final_blow_correction_is_refused_saying_why(
    start: Any, message: str, ruling: str
) -> None:
    assert refusal(start(), blow(4)) == (message, ruling)


def test_0_2_1_a_correction_of_another_game_is_refused() -> None:
    class Stray(Correction):
        type: Literal["stray"] = "stray"

    assert refusal(at_stats(), Stray()) == ("Colossus has no such correction.", "0.2.1")
