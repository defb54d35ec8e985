"""The Kolossus action vocabulary (see docs/games/kolossus.md for JSON examples)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from companion.dice import Roll
from companion.games.corrections import Correction
from companion.games.kolossus.board import ClassCode, Colour, RegionDirection
from companion.games.kolossus.state import Weapon
from companion.model import Frozen


class Swap(Frozen):
    """Setup: exchange two miniatures of one warband inside its start zone (K-R02)."""

    type: Literal["swap"] = "swap"
    a: str
    b: str


class Ready(Frozen):
    """Setup: the miniatures stand as shown; go on to the skills / the Invasion."""

    type: Literal["ready"] = "ready"


class QuakeMove(Frozen):
    """The Great Quake: shift a region along its axis by the rolled distance."""

    type: Literal["quake_move"] = "quake_move"
    region: str  # "row3" .. "col7"
    direction: RegionDirection
    distance: int | None = None  # only with quake_distance = up_to_roll; default = roll


class Allocate(Frozen):
    """Put mana on skills / pool / the Titan Weapon; the rest goes back to the supply.

    At setup (Ch.2+) exactly 4 on the skills (K-R25); after the Invasion roll and at the
    end of a turn the current income (K-R22/K-R24, K-R27, K-R36).
    """

    type: Literal["allocate"] = "allocate"
    warrior_attack: int = Field(default=0, ge=0)
    warrior_defence: int = Field(default=0, ge=0)
    guardian_attack: int = Field(default=0, ge=0)
    guardian_defence: int = Field(default=0, ge=0)
    colossus_attack: int = Field(default=0, ge=0)
    colossus_defence: int = Field(default=0, ge=0)
    pool: int = Field(default=0, ge=0)
    charge: Weapon | None = None
    charge_from_pool: int = Field(default=0, ge=0, le=2)

    def skills(self) -> tuple[int, int, int, int, int, int]:
        return _skill_values(self)


class Initiative(Frozen):
    """Ch.3 Titan Power: pay 1 pool mana for +1 activation point (K-R33)."""

    type: Literal["initiative"] = "initiative"


class ChooseClass(Frozen):
    """Activate a class; its movement dice are asked for next (K-R08)."""

    type: Literal["choose_class"] = "choose_class"
    cls: ClassCode


class Move(Frozen):
    """Move the miniature on ``from_`` to ``to`` (``to == from`` moves 0 squares).

    ``path`` lists the squares entered, ending with ``to``; omitted, the referee picks
    the canonical path. ``sword``/``whip``: None = use only if needed, True = allowed,
    False = never.
    """

    type: Literal["move"] = "move"
    from_: str = Field(alias="from")
    to: str
    path: tuple[str, ...] | None = None
    sword: bool | None = None
    whip: bool | None = None

    model_config = ConfigDict(
        frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True
    )


class Spear(Frozen):
    """After the Colossus's move: beat one enemy in a free straight line (K-R29)."""

    type: Literal["spear"] = "spear"
    target: str


class Hammer(Frozen):
    """After the Colossus's move: beat the chosen adjacent enemies (K-R30)."""

    type: Literal["hammer"] = "hammer"
    targets: tuple[str, ...]


class Finish(Frozen):
    """End the Colossus's activation without using the Spear or the Hammer."""

    type: Literal["finish"] = "finish"


class Earthquake(Frozen):
    """Ch.3 Titan Power: shift any region 1 square (K-R34)."""

    type: Literal["earthquake"] = "earthquake"
    region: str
    direction: RegionDirection


class Rebirth(Frozen):
    """Ch.3 Titan Power: a beaten miniature returns to a free start square (K-R35)."""

    type: Literal["rebirth"] = "rebirth"
    cls: ClassCode
    to: str


class EndTurn(Frozen):
    """Stop activating; leftover activation points are forfeited (K-R08)."""

    type: Literal["end_turn"] = "end_turn"


# --- manual corrections (0.2.1): each sets what the table shows ---------------------

Region = Literal[
    "row0", "row1", "row2", "row3", "row4", "row5", "row6", "row7", "row8", "row9", "row10",
    "col0", "col1", "col2", "col3", "col4", "col5", "col6", "col7", "col8", "col9", "col10",
]  # fmt: skip
Landscape = Literal["bare", "woods", "hills", "mountains"]


class CorrectPiece(Correction):
    """The miniature ``piece`` (e.g. ``"blue-W1"``: colour, class, number) stands on
    ``row``, ``col``, or is beaten (both None)."""

    type: Literal["correct_piece"] = "correct_piece"
    piece: str
    row: int | None = Field(default=None, ge=0, le=10)
    col: int | None = Field(default=None, ge=0, le=10)


class CorrectMana(Correction):
    """A warband's 20 mana tokens (Ch.2+): supply, skills, pool, unallocated income and
    which Titan Weapons are charged (2 tokens each). They must add up to 20."""

    type: Literal["correct_mana"] = "correct_mana"
    warband: Colour
    supply: int
    warrior_attack: int = 0
    warrior_defence: int = 0
    guardian_attack: int = 0
    guardian_defence: int = 0
    colossus_attack: int = 0
    colossus_defence: int = 0
    pool: int = 0
    income: int = 0
    sword: bool = False
    whip: bool = False
    spear: bool = False
    hammer: bool = False

    def skills(self) -> tuple[int, int, int, int, int, int]:
        return _skill_values(self)

    def charged(self) -> tuple[bool, bool, bool, bool]:
        return (self.sword, self.whip, self.spear, self.hammer)


class CorrectCrystals(Correction):
    """Where the 12 Crystals of Time are: on the Citadel, in the supply, captured by
    each warband (by colour)."""

    type: Literal["correct_crystals"] = "correct_crystals"
    citadel: int
    supply: int
    blue: int = 0
    yellow: int = 0
    green: int = 0
    red: int = 0


class CorrectLandscape(Correction):
    """The landscape on one square (the Citadel itself cannot be corrected away)."""

    type: Literal["correct_landscape"] = "correct_landscape"
    row: int = Field(ge=0, le=10)
    col: int = Field(ge=0, le=10)
    landscape: Landscape


class CorrectRegion(Correction):
    """A whole region was shifted on the table: shift it here too (K-R04 model)."""

    type: Literal["correct_region"] = "correct_region"
    region: Region
    direction: RegionDirection
    distance: int = Field(default=1, ge=1, le=10)


def _skill_values(entry: Allocate | CorrectMana) -> tuple[int, int, int, int, int, int]:
    """The six skill amounts of an entry, in the order of ``SKILL_SLOTS``."""
    return (
        entry.warrior_attack,
        entry.warrior_defence,
        entry.guardian_attack,
        entry.guardian_defence,
        entry.colossus_attack,
        entry.colossus_defence,
    )


KolossusAction = Annotated[
    Swap
    | Ready
    | Roll
    | QuakeMove
    | Allocate
    | Initiative
    | ChooseClass
    | Move
    | Spear
    | Hammer
    | Finish
    | Earthquake
    | Rebirth
    | EndTurn
    | CorrectPiece
    | CorrectMana
    | CorrectCrystals
    | CorrectLandscape
    | CorrectRegion,
    Field(discriminator="type"),
]
