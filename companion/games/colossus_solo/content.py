"""The box (seed 003's components), the card content a player enters, and its checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, TypeAdapter

from companion.errors import InvalidContent
from companion.games.parsing import parse_strict
from companion.model import Frozen

# --- the box (seed 003 components) ---------------------------------------------------

ACTION_CARDS = 26
ADVANCED_CARDS = 6
COLOSSUS_CARDS = 11
FINAL_BLOW_CARDS = 3
TRACKER_MIN = 1
TRACKER_MAX = 8
START_WEAKNESS = 1  # CS-R01
START_GRIP = 8  # CS-R01

LineName = Literal["attack", "grip", "bonus", "climb"]
LINES: tuple[LineName, ...] = ("attack", "grip", "bonus", "climb")
Payment = Literal["weakness", "grip"]
Phase = Literal[
    "colossus_card",  # enter the values of the revealed Colossus card (CS-R12)
    "stats",  # step 3: place the 3 hand cards, enter the visible stats
    "power",  # start of step 4: use Netophah's power or resolve the card
    "power_card",  # place the power's card (new stats) or discard it
    "penalty",  # depleted deck: choose W-1 or G-1 (CS-R03, CS-R04)
    "destroy",  # end of round: use destroy rights (CS-R11)
    "final_blow_values",  # enter N_cards, Grip_req, Attack_req (CS-R05)
    "final_blow",  # play the Final Blow deck one card at a time (CS-R06, CS-R07)
    "over",
]
Result = Literal["final_blow", "fell", "final_blow_failed"]
DepletionTrigger = Literal["on_draw_attempt", "when_emptied"]
DrawTarget = Literal["centre", "hand"]
ROUND_DRAWS: tuple[DrawTarget, ...] = ("centre", "hand", "hand", "hand")  # steps 1 and 2

# Upper bounds of entered numbers: generous, only there to catch typing slips.
MAX_STAT = 99
MAX_LINE_VALUE = 20
MAX_FINAL_BLOW_CARDS = ACTION_CARDS + ADVANCED_CARDS
MAX_REQUIREMENT = 30

# What legal_actions lists for open amounts (apply accepts the whole range above); the
# listing rule is in docs/games/colossus-solo.md. Stats are listed per line as 0 and the
# value the line needs, so every success/failure combination of a card is listed once.
LISTED_PRINTED_VALUE = 2  # a listed card's Attack, Grip or Bonus line, when printed
LISTED_CLIMB_VALUES = (1, 3)  # a listed card always has a Climb line
LISTED_FINAL_BLOW_CARDS = (1, 4, 8)
LISTED_GRIP_REQ = (2, 5)
LISTED_ATTACK_REQ = (3, 7)


# --- content: Colossus cards and Final Blow profiles ---------------------------------


class ColossusLine(Frozen):
    """One printed line: the value to reach (None = nothing printed, CS-R10) and the icon."""

    value: int | None = Field(default=None, ge=0, le=MAX_LINE_VALUE, title="Value")
    destroy: bool = Field(default=False, title="Destroy icon")

    def words(self) -> str:
        """ "2", "2 (destroy)" with the destroy icon (CS-R11), "blank" when nothing is
        printed (CS-R10)."""
        if self.value is None:
            return "blank"
        return f"{self.value} (destroy)" if self.destroy else str(self.value)


class ColossusCard(Frozen):
    """A Colossus card's four lines, top to bottom: Attack, Grip, Bonus, Climb."""

    name: str = Field(default="", max_length=40, title="Name")
    attack: ColossusLine = Field(default_factory=ColossusLine, title="Attack line")
    grip: ColossusLine = Field(default_factory=ColossusLine, title="Grip line")
    bonus: ColossusLine = Field(default_factory=ColossusLine, title="Bonus line")
    climb: ColossusLine = Field(default_factory=ColossusLine, title="Climb line")

    def line(self, name: LineName) -> ColossusLine:
        line: ColossusLine = getattr(self, name)
        return line

    def describe(self) -> str:
        """The four lines as printed: "Attack 2 (destroy), Grip blank, Bonus 3, Climb 1"."""
        return ", ".join(f"{name.capitalize()} {self.line(name).words()}" for name in LINES)

    def printed(self) -> tuple[str, ...]:
        """The lines with a value, as a narrow tile shows them: "Attack 2 ✗" (✗ the
        destroy icon, CS-R11); a blank line is not shown, as on the card (CS-R10)."""
        return tuple(
            f"{name.capitalize()} {line.value}{' ✗' if line.destroy else ''}"
            for name in LINES
            if (line := self.line(name)).value is not None
        ) or ("nothing printed",)


class FinalBlowProfile(Frozen):
    """A Final Blow card: N_cards per Weakness level, Grip_req per Grip level, Attack_req.

    ``n_cards[w - 1]`` is printed beside Weakness level ``w``; ``grip_req[g - 1]`` beside
    Grip level ``g`` (CS-R05).
    """

    name: str = Field(default="", max_length=40)
    n_cards: tuple[int, ...]
    grip_req: tuple[int, ...]
    attack_req: int


class CardTable(Frozen):
    """The user-built content database: 11 Colossus cards and 3 Final Blow cards."""

    colossus: tuple[ColossusCard, ...]
    final_blow: tuple[FinalBlowProfile, ...]


def card_problems(card: ColossusCard, where: str) -> list[str]:
    """Why a Colossus card cannot be used (a destroy icon on an empty line can never pay)."""
    return [
        f"{where}: the {name.capitalize()} line has a destroy icon but no value"
        for name in LINES
        if card.line(name).destroy and card.line(name).value is None
    ]


def card_table_problems(table: CardTable) -> list[str]:
    """Everything wrong with a card table, as sentences (empty when it is usable)."""
    problems: list[str] = []
    if len(table.colossus) != COLOSSUS_CARDS:
        problems.append(
            f"it lists {len(table.colossus)} Colossus cards; the game has {COLOSSUS_CARDS}"
        )
    if len(table.final_blow) != FINAL_BLOW_CARDS:
        problems.append(
            f"it lists {len(table.final_blow)} Final Blow cards; the game has {FINAL_BLOW_CARDS}"
        )
    for kind, names in (
        ("Colossus card", [c.name for c in table.colossus]),
        ("Final Blow card", [p.name for p in table.final_blow]),
    ):
        named = [n for n in names if n]
        for dup in sorted({n for n in named if named.count(n) > 1}):
            problems.append(f"two {kind}s are called {dup!r}")
    for i, card in enumerate(table.colossus, start=1):
        problems.extend(card_problems(card, f"Colossus card {i}{_label(card.name)}"))
    for i, profile in enumerate(table.final_blow, start=1):
        where = f"Final Blow card {i}{_label(profile.name)}"
        for what, values, top in (
            ("n_cards (one per Weakness level 1..8)", profile.n_cards, MAX_FINAL_BLOW_CARDS),
            ("grip_req (one per Grip level 1..8)", profile.grip_req, MAX_REQUIREMENT),
        ):
            if len(values) != TRACKER_MAX:
                problems.append(f"{where}: {what} has {len(values)} numbers, not {TRACKER_MAX}")
            bad = [v for v in values if not 0 <= v <= top]
            if bad:
                problems.append(f"{where}: {what} has {bad[0]}, outside 0..{top}")
        if not 0 <= profile.attack_req <= MAX_REQUIREMENT:
            problems.append(
                f"{where}: attack_req {profile.attack_req} is outside 0..{MAX_REQUIREMENT}"
            )
    return problems


def _label(name: str) -> str:
    return f" ({name})" if name else ""


_CARD_TABLE: TypeAdapter[CardTable] = TypeAdapter(CardTable)


def parse_card_table(data: str | bytes | Mapping[str, Any] | CardTable) -> CardTable:
    """A card table from JSON text or a dict; InvalidContent says what is wrong (CS-R12)."""
    table = (
        data
        if isinstance(data, CardTable)
        else parse_strict(_CARD_TABLE, data, "Not a Colossus card table", "CS-R12")
    )
    problems = card_table_problems(table)
    if problems:
        raise InvalidContent(
            "Unusable Colossus card table: " + "; ".join(problems) + ".", ruling="CS-R12"
        )
    return table
