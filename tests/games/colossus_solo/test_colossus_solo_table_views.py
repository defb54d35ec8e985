"""The solo Colossus table as the kiosk lays it out, card by card and word for word: the
Colossus card being climbed (CS-R10, CS-R11, CS-R12), the two trackers (CS-R01), the
Playing Area's stats (CS-R02), the hand, the Action deck and the Final Blow (CS-R05);
which card or tracker each action is about (a power or penalty on the tracker it costs,
CS-R04); and which actions are entries and corrections."""

from __future__ import annotations

import pytest

from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.model import (
    ColossusSoloAction,
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
from companion.rules import ActionRole
from companion.views import NO_CELLS, ActionCells, CardView
from tests.helpers.colossus_solo import act, card, final_blow, new_game, stats, table

TRACKERS = (
    CardView("weakness", "Weakness", ("level 1",)),
    CardView("grip", "Grip", ("level 8",)),
)


def test_CS_R12_a_new_game_shows_a_card_to_reveal_and_the_full_deck() -> None:
    assert RULES.cards(new_game()) == (
        CardView("colossus", "Colossus 1/11", ("to reveal",)),
        *TRACKERS,
        CardView("playing_area", "In play: 0", ("no stats yet",)),
        CardView("hand", "Hand", ("0 cards",)),
        CardView("deck", "Action deck", ("26 cards", "0 discarded")),
        CardView("final_blow", "Final Blow", ("at the top",)),
    )


def test_CS_R11_a_named_card_shows_its_name_and_printed_lines_and_the_stats_two_a_line() -> None:
    named = card(bonus=None, icons=("attack",), name="Knee")
    state = act(new_game(), EnterColossusCard(card=named), stats(attack=1, grip=2, climb=4))
    state = state.model_copy(update={"discard": 3, "action_deck": 19, "weakness": 3})
    assert RULES.cards(state) == (
        CardView("colossus", "Colossus 1/11", ("Knee", "Attack 2 ✗ · Grip 2", "Climb 2")),
        CardView("weakness", "Weakness", ("level 3",)),
        TRACKERS[1],
        CardView("playing_area", "In play: 4", ("Attack 1 · Grip 2", "Bonus 0 · Climb 4")),
        CardView("hand", "Hand", ("0 cards",)),
        CardView("deck", "Action deck", ("19 cards", "3 discarded")),
        CardView("final_blow", "Final Blow", ("at the top",)),
    )


def test_CS_R10_an_unnamed_card_with_nothing_printed_says_so_and_the_hand_counts() -> None:
    blank = card(attack=None, grip=None, bonus=None, climb=None)
    state = act(new_game(), EnterColossusCard(card=blank))
    assert RULES.cards(state)[0] == CardView("colossus", "Colossus 1/11", ("nothing printed",))
    assert RULES.cards(state)[4] == CardView("hand", "Hand", ("3 cards",))
    one = state.model_copy(update={"hand": 1, "action_deck": 24})
    assert RULES.cards(one)[4:6] == (
        CardView("hand", "Hand", ("1 card",)),
        CardView("deck", "Action deck", ("24 cards", "0 discarded")),
    )


def test_CS_R12_a_card_tables_card_shows_its_name() -> None:
    state = new_game(card_table=table())
    top = table().colossus[state.colossus_order[0]]
    assert RULES.cards(state)[0] == CardView(
        "colossus", "Colossus 1/11", (top.name, "Attack 2 · Grip 2", "Bonus 3 · Climb 2")
    )


def test_CS_R05_the_final_blow_shows_its_deck_and_both_goals() -> None:
    state = act(final_blow(4, grip_req=2, attack_req=3), stats(attack=1))
    assert RULES.cards(state) == (
        CardView("colossus", "Colossus 11/11", ("to reveal",)),
        *TRACKERS,
        CardView("playing_area", "In play: 1", ("no stats yet",)),
        CardView("hand", "Hand", ("0 cards",)),
        CardView("deck", "Action deck", ("22 cards", "0 discarded")),
        CardView("final_blow", "Final Blow", ("4 cards", "Attack 3 · Grip 2")),
    )
    one = final_blow(1, grip_req=5, attack_req=7)
    assert RULES.cards(one)[-1] == CardView(
        "final_blow", "Final Blow", ("1 card", "Attack 7 · Grip 5")
    )


def test_CS_R12_the_panel_shows_an_unnamed_card_by_its_lines_alone() -> None:
    state = act(new_game(), EnterColossusCard(card=card()))
    assert RULES.panel(state).facts == (
        "Round 1: stats",
        "Colossus card: Attack 2, Grip 2, Bonus 3, Climb 2",
    )
    named = act(new_game(), EnterColossusCard(card=card(name="Knee")))
    assert RULES.panel(named).facts[1] == "Colossus card: Knee: Attack 2, Grip 2, Bonus 3, Climb 2"


CELLS: list[tuple[ColossusSoloAction, ActionCells]] = [
    (EnterColossusCard(card=card()), ActionCells.at("colossus")),
    (ResolveCard(), ActionCells.at("colossus")),
    (stats(), ActionCells.at("playing_area")),
    (EnterMedallions(positive=Stats()), ActionCells.at("playing_area")),
    (DestroyCards(count=1), ActionCells.at("playing_area")),
    (DiscardPowerCard(), ActionCells.at("hand")),
    (EnterFinalBlow(n_cards=1, grip_req=1, attack_req=1), ActionCells.at("final_blow")),
    (UsePower(pay="weakness"), ActionCells.at("weakness")),
    (UsePower(pay="grip"), ActionCells.at("grip")),
    (PayPenalty(pay="weakness"), ActionCells.at("weakness")),
    (PayPenalty(pay="grip"), ActionCells.at("grip")),
    (CorrectPower(used=True), NO_CELLS),
    (CorrectTrackers(weakness=2, grip=2), NO_CELLS),
]


@pytest.mark.parametrize(
    ("action", "cells"),
    CELLS,
    ids=[f"{a.type}-{getattr(a, 'pay', '')}" for a, _ in CELLS],
)
def test_CS_R04_each_action_is_about_its_card_and_a_payment_about_its_tracker(
    action: ColossusSoloAction, cells: ActionCells
) -> None:
    assert RULES.action_cells(new_game(), action) == cells


def test_entries_and_corrections_have_their_roles_and_the_rest_none() -> None:
    entries = ("enter_colossus_card", "enter_stats", "enter_medallions", "enter_final_blow")
    corrections = (
        CorrectTrackers,
        CorrectCards,
        CorrectPower,
        CorrectColossusCard,
        CorrectFinalBlow,
    )
    for kind in entries:
        assert RULES.action_role(kind) == ActionRole.ENTRY, kind
    for model in corrections:
        kind = model.model_fields["type"].default
        assert RULES.action_role(kind) == ActionRole.CORRECTION, kind
    for kind in ("use_power", "resolve_card", "destroy_cards", "pay_penalty"):
        assert RULES.action_role(kind) is None, kind
    assert RULES.action_role("roll") == ActionRole.ROLL  # every game's roll
