"""The Trades, Draws and Reveals listed for the current player, at the edge of every
limit: a partner's empty or one-card hand, one's own cards and Runes, the last card of
the deck, a target with fewer than 2 Runes at a table that requires them, and the
actions already used this turn (BC-R02, BC-R04, BC-R05, BC-R07, BC-R08, BC-R14)."""

from __future__ import annotations

from typing import Any

from companion.games.builders import RULES
from companion.games.builders.model import (
    Build,
    BuildersAction,
    BuildersState,
    Curse,
    Draw,
    EndTurn,
    Reveal,
    Trade,
)
from tests.helpers.builders import TABLE, new_game


def position(hands: tuple[int, ...], runes: tuple[int, ...], **update: Any) -> BuildersState:
    state = new_game(3, reveal_source=update.pop("reveal_source", "target_then_stockpile"))
    deck = update.pop("deck", 135 - sum(hands))
    return state.model_copy(update={"hands": hands, "runes": runes, "deck": deck, **update})


def listed(state: BuildersState) -> list[BuildersAction]:
    """The legal actions but the Curses and Builds, in the order they are listed."""
    return [a for a in RULES.legal_actions(state) if not isinstance(a, Curse | Build)]


def test_BC_R08_trades_and_reveals_at_one_card_and_one_rune() -> None:
    # Ann holds 1 card and 1 Rune; Bob holds no card; Cleo 1 card and 2 Runes.
    state = position(hands=(1, 0, 1), runes=(1, 5, 2))
    assert listed(state) == [
        Draw(),
        Trade(partner=2, cards_received=1),
        Trade(partner=2, cards_received=1, cards_given=1),
        Trade(partner=2, cards_received=1, cards_given=1, runes_given=1),
        Reveal(target=1, take=False),
        Reveal(target=2, take=False),
        Reveal(target=2, take=True),
    ]


def test_BC_R08_with_no_card_to_give_runes_pay_for_a_card() -> None:
    # Ann holds no card and 2 Runes; the deck is empty (BC-R14): no Draw.
    state = position(hands=(0, 1, 3), runes=(2, 0, 0), deck=0, mode="actions")
    assert listed(state) == [
        Trade(partner=1, cards_received=1),
        Trade(partner=1, cards_received=1, runes_given=2),
        Trade(partner=2, cards_received=1),
        Trade(partner=2, cards_received=1, runes_given=2),
        Reveal(target=1, take=False),
        Reveal(target=1, take=True),
        Reveal(target=2, take=False),
        Reveal(target=2, take=True),
        EndTurn(),
    ]


def test_BC_R04_a_table_requiring_2_runes_lists_reveals_of_targets_with_2() -> None:
    state = position(
        hands=(10, 10, 10),
        runes=(10, 1, 2),
        reveal_source="target_only_require_2",
        mode="actions",
        actions_used=("trade",),
        deck=1,
    )
    assert listed(state) == [
        Draw(),
        Reveal(target=2, take=False),
        Reveal(target=2, take=True),
        EndTurn(),
    ]


def test_BC_R02_each_action_is_listed_until_used_and_none_after_a_curse() -> None:
    hands, runes = (10, 10, 10), (10, 10, 10)
    drew = position(hands, runes, mode="actions", actions_used=("draw", "reveal"))
    assert [type(a) for a in listed(drew)] == [Trade] * 8 + [EndTurn]
    traded = position(hands, runes, mode="actions", actions_used=("trade", "draw"))
    assert [type(a) for a in listed(traded)] == [Reveal] * 4 + [EndTurn]
    cursed = position(hands, runes, mode="curse")
    assert listed(cursed) == [EndTurn()]
    assert not [a for a in RULES.legal_actions(cursed) if isinstance(a, Curse)]
    untouched = position(hands, runes)
    assert EndTurn() not in listed(untouched)  # BC-R07: do something first


def test_BC_R15_without_a_table_builds_lay_out_a_listed_part_besides_the_accessories() -> None:
    # Ann holds 2 cards and 5 Runes: 2 Accessories would leave no listed Part.
    state = position(hands=(2, 10, 10), runes=(5, 10, 10))
    in_slot_1 = [
        (a.rune_cost, a.accessories, a.cards)
        for a in RULES.legal_actions(state)
        if isinstance(a, Build) and a.slot == 1
    ]
    assert in_slot_1 == [(3, 0, 2), (3, 1, 2), (4, 0, 2), (4, 1, 2), (5, 0, 2)]


def test_BC_R15_an_empty_slot_leaves_the_builds_of_the_slots_after_it() -> None:
    """The Blueprint deck can run out, leaving slot 1 empty (see the replacement tests)."""
    state = new_game(blueprints=TABLE)
    state = state.model_copy(update={"face_up": (None, *state.face_up[1:])})
    slots = {a.slot for a in RULES.legal_actions(state) if isinstance(a, Build)}
    assert slots == {2, 3}


def table_builds(state: BuildersState, slot: int = 1) -> list[dict[str, int]]:
    return [
        a.parts or {} for a in RULES.legal_actions(state) if isinstance(a, Build) and a.slot == slot
    ]


def test_BC_R15_a_table_s_builds_are_the_listed_parts_or_one_wild_for_the_first() -> None:
    state = new_game(blueprints=TABLE)
    index = state.face_up[0]
    assert index is not None
    cost = int(TABLE[index]["rune_cost"])
    exact, wild = {"head": 1, "leg": 2, "arm": 1}, {"leg": 2, "arm": 1, "wild": 1}
    rich = state.model_copy(update={"runes": (cost + 2, 10, 10)})
    assert table_builds(rich) == [
        exact,
        {**exact, "accessory": 1},
        {**exact, "accessory": 2},
        wild,
        {**wild, "accessory": 1},
        {**wild, "accessory": 2},
    ]
    five_cards = state.model_copy(update={"runes": (cost + 1, 10, 10), "hands": (5, 10, 10)})
    assert table_builds(five_cards) == [
        exact,
        {**exact, "accessory": 1},
        wild,
        {**wild, "accessory": 1},
    ]
    four_cards = state.model_copy(update={"hands": (4, 10, 10)})
    assert table_builds(four_cards) == [exact, wild]


def test_BC_R15_a_wild_stands_in_for_one_of_two_listed_parts() -> None:
    table = [
        {"name": f"Arch {i}", "rune_cost": 3, "parts": {"leg": 2, "arm": 1}} for i in range(12)
    ]
    state = new_game(blueprints=table).model_copy(update={"runes": (3, 10, 10)})
    assert table_builds(state, slot=2) == [{"leg": 2, "arm": 1}, {"leg": 1, "arm": 1, "wild": 1}]


def test_BC_R15_a_part_a_blueprint_lists_none_of_is_left_out_of_its_builds() -> None:
    """A table may write a Part at 0 (only a negative count is refused): the Builds lay
    out the Parts it asks for, and the Wild stands in for the first of those."""
    table = [
        {"name": f"Arch {i}", "rune_cost": 3, "parts": {"head": 0, "leg": 2, "arm": 1}}
        for i in range(12)
    ]
    state = new_game(blueprints=table).model_copy(update={"runes": (3, 10, 10)})
    assert table_builds(state, slot=2) == [{"leg": 2, "arm": 1}, {"leg": 1, "arm": 1, "wild": 1}]
