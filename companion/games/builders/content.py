"""The box's fixed numbers and the optional Blueprint table players can enter."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from pydantic import TypeAdapter

from companion import words
from companion.errors import InvalidContent
from companion.games.parsing import parse_strict
from companion.model import Frozen

# --- fixed numbers from the rules ----------------------------------------------------

PARTS_IN_GAME = 135  # 20 Head, 30 Leg, 30 Arm, 20 Torso, 15 Wing, 10 Wild, 10 Accessory
HAND_MINIMUM = 10  # BC-R06: every hand is refilled to 10 at once
START_RUNES = 10
COLOSSI_TO_BUILD = 10  # BC-R01: counter spots 1..10
BLUEPRINT_SLOTS = 3
MIN_RUNE_COST, MAX_RUNE_COST = 3, 6
MAX_ACCESSORIES = 2
CURSE_MIN, CURSE_MAX = 1, 4  # BC-R09
REVEAL_RUNES = 2
REVEAL_CARDS = 3

LISTED_PART_TYPES = ("head", "leg", "arm", "torso", "wing")
LAYOUT_PART_TYPES = (*LISTED_PART_TYPES, "wild", "accessory")
#: Each kind of Parts card as the cards name it: singular, plural.
PART_NAMES: dict[str, tuple[str, str]] = {
    "head": ("Head", "Heads"),
    "leg": ("Leg", "Legs"),
    "arm": ("Arm", "Arms"),
    "torso": ("Torso", "Torsos"),
    "wing": ("Wing", "Wings"),
    "wild": ("Wild", "Wilds"),
    "accessory": ("Accessory", "Accessories"),
}
# A table must hold enough Blueprints for 10 builds: 3 face up plus 9 replacements.
MIN_TABLE_CARDS = BLUEPRINT_SLOTS + COLOSSI_TO_BUILD - 1


def part_name(kind: str, n: int = 1) -> str:
    """A kind of Parts card as the cards name it, for ``n`` of them: "Head", "Accessories";
    an unknown kind as it was given."""
    singular, plural = PART_NAMES.get(kind, (kind, kind))
    return singular if abs(n) == 1 else plural


def part_count(kind: str, n: int) -> str:
    """``n`` Parts cards of one kind: "1 Head", "2 Legs", "0 Wilds"."""
    return f"{n} {part_name(kind, n)}"


def parts_words(parts: Mapping[str, int]) -> str:
    """A layout in the cards' order: "1 Head, 2 Legs, 1 Wild" ("no Parts" when empty)."""
    kinds = [k for k in LAYOUT_PART_TYPES if parts.get(k)]
    kinds += [k for k in parts if k not in LAYOUT_PART_TYPES and parts[k]]
    return ", ".join(part_count(kind, parts[kind]) for kind in kinds) or "no Parts"


# --- the optional Blueprint table ------------------------------------------------------


class BlueprintCard(Frozen):
    """One Blueprint of a user-maintained table: its Parts list and Rune Cost."""

    name: str
    rune_cost: int
    parts: dict[str, int]
    copies: int = 1


def check_blueprint_table(cards: Sequence[BlueprintCard]) -> None:
    """Raise InvalidContent unless ``cards`` is a usable Blueprint table (BC-R15)."""
    if not cards:
        raise InvalidContent("The Blueprint table is empty.")
    names: set[str] = set()
    for number, card in enumerate(cards, start=1):
        label = (
            f"Blueprint {number} ({card.name!r})" if card.name.strip() else f"Blueprint {number}"
        )
        if not card.name.strip():
            raise InvalidContent(f"{label} needs a name.")
        if card.name in names:
            raise InvalidContent(f"{label}: the name is used twice in the table.")
        names.add(card.name)
        if not MIN_RUNE_COST <= card.rune_cost <= MAX_RUNE_COST:
            raise InvalidContent(
                f"{label}: Rune Cost {card.rune_cost} is not between "
                f"{MIN_RUNE_COST} and {MAX_RUNE_COST}."
            )
        if card.copies < 1:
            raise InvalidContent(f"{label}: copies must be at least 1, not {card.copies}.")
        for part, count in card.parts.items():
            if part not in LISTED_PART_TYPES:
                raise InvalidContent(
                    f"{label}: {part!r} is not a Part a Blueprint can list; use "
                    f"{', '.join(LISTED_PART_TYPES)} (Wilds and Accessories are never listed)."
                )
            if count < 0:
                raise InvalidContent(f"{label}: {part} count {count} is negative.")
        if sum(card.parts.values()) < 1:
            raise InvalidContent(f"{label} lists no Parts.")
    total = sum(card.copies for card in cards)
    if total < MIN_TABLE_CARDS:
        raise InvalidContent(
            f"The Blueprint table has {words.count(total, 'card')}; 10 Colossi need at least "
            f"{MIN_TABLE_CARDS} (3 face up and 9 replacements)."
        )


_TABLE_ADAPTER: TypeAdapter[tuple[BlueprintCard, ...]] = TypeAdapter(tuple[BlueprintCard, ...])


def parse_blueprint_table(data: object) -> tuple[BlueprintCard, ...]:
    """A Blueprint table from JSON text, a list of dicts, or ``{"blueprints": [...]}``.

    Each entry: ``{"name": "Phalanx", "rune_cost": 4, "parts": {"head": 1, "leg": 2},
    "copies": 1}`` (``copies`` optional). Refuses anything else with InvalidContent.
    """
    try:
        raw = json.loads(data) if isinstance(data, str | bytes) else data
    except ValueError as exc:
        raise InvalidContent(f"The Blueprint table is not valid JSON: {exc}") from None
    if isinstance(raw, Mapping) and "blueprints" in raw:
        raw = raw["blueprints"]
    cards = parse_strict(_TABLE_ADAPTER, raw, "The Blueprint table does not validate")
    check_blueprint_table(cards)
    return cards
