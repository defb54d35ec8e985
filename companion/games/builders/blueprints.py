"""A build checked against its Blueprint (BC-R15): the card face up in its slot, and the
layout the table reports — in full when the game has a Blueprint table, by arithmetic
alone (Rune Cost, Accessories, a card count) when it has none."""

from __future__ import annotations

from companion import words
from companion.games.builders.content import (
    LAYOUT_PART_TYPES,
    LISTED_PART_TYPES,
    MAX_ACCESSORIES,
    MAX_RUNE_COST,
    MIN_RUNE_COST,
    BlueprintCard,
    part_count,
    part_name,
)
from companion.games.builders.model import Build, BuildersState
from companion.rules import refuse


def face_up_card(state: BuildersState, slot: int) -> BlueprintCard | None:
    """The Blueprint face up in ``slot`` (1 to 3), None when the slot is empty."""
    index = state.face_up[slot - 1]
    return None if index is None else state.blueprint_table[index]


def check_arithmetic(action: Build) -> tuple[int, int, int, str | None]:
    """BC-R15 without a table: cost 3–6, 0–2 Accessories, a card count."""
    if action.parts is not None:
        raise refuse(
            "Without a Blueprint table the referee cannot check Parts; give the number "
            "of cards laid out instead.",
            "BC-R15",
        )
    if action.rune_cost is None:
        raise refuse("Give the Blueprint's Rune Cost (3 to 6).", "BC-R15")
    if not MIN_RUNE_COST <= action.rune_cost <= MAX_RUNE_COST:
        raise refuse(f"A Rune Cost is 3 to 6, not {action.rune_cost}.", "BC-R15")
    acc = action.accessories or 0
    if not 0 <= acc <= MAX_ACCESSORIES:
        raise refuse(f"A Colossus takes 0 to 2 Accessories, not {acc}.", "BC-R15")
    if action.cards is None:
        raise refuse("Give the number of Parts cards laid out, Accessories included.", "BC-R15")
    if action.cards < acc + 1:
        raise refuse("A Colossus needs at least one listed Part besides its Accessories.", "BC-R15")
    return action.rune_cost, acc, action.cards, action.blueprint


def check_layout(state: BuildersState, action: Build) -> tuple[int, int, int, str | None]:
    """The full check a Blueprint table allows: Wilds for listed Parts, never Accessories."""
    card = face_up_card(state, action.slot)
    if card is None:
        raise refuse(f"Blueprint slot {action.slot} is empty.", "BC-R15")
    if action.blueprint is not None and action.blueprint != card.name:
        raise refuse(f"Slot {action.slot} holds {card.name}, not {action.blueprint}.", "BC-R15")
    if action.rune_cost is not None and action.rune_cost != card.rune_cost:
        raise refuse(
            f"{card.name} costs {words.count(card.rune_cost, 'Rune')}, not {action.rune_cost}.",
            "BC-R15",
        )
    if action.parts is None:
        raise refuse("Say which Parts you laid out (counts per type).", "BC-R15")
    laid = action.parts
    for part, count in laid.items():
        if part not in LAYOUT_PART_TYPES:
            kinds = words.and_list([part_name(kind) for kind in LAYOUT_PART_TYPES])
            raise refuse(f"“{part}” is not a kind of Parts card; the kinds are {kinds}.", "BC-R15")
        if count < 0:
            raise refuse(
                f"The layout gives {count} for the {part_name(part, 2)}; "
                "a count cannot be negative.",
                "BC-R15",
            )
    acc = laid.get("accessory", 0)
    if action.accessories is not None and action.accessories != acc:
        raise refuse(
            f"The layout has {part_count('accessory', acc)}, not {action.accessories}.",
            "BC-R15",
        )
    if acc > MAX_ACCESSORIES:
        raise refuse(f"A Colossus takes 0 to 2 Accessories, not {acc}.", "BC-R15")
    missing = 0
    for part in LISTED_PART_TYPES:
        need, have = card.parts.get(part, 0), laid.get(part, 0)
        if have > need:
            raise refuse(
                f"{card.name} lists {part_count(part, need)}, not the {have} laid out.", "BC-R15"
            )
        missing += need - have
    wilds = laid.get("wild", 0)
    if wilds != missing:
        raise refuse(
            f"{card.name} is missing {words.count(missing, 'listed Part')} and the layout "
            f"has {part_count('wild', wilds)}: Wilds stand in for listed Parts only, one "
            "each, never for Accessories.",
            "BC-R15",
        )
    return card.rune_cost, acc, sum(laid.values()), card.name
