"""The Kolossus action vocabulary (see docs/games/kolossus.md for JSON examples)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter

from companion.dice import Roll
from companion.games.kolossus.board import ClassCode, RegionDirection
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
        return (
            self.warrior_attack,
            self.warrior_defence,
            self.guardian_attack,
            self.guardian_defence,
            self.colossus_attack,
            self.colossus_defence,
        )


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
    | EndTurn,
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter[KolossusAction] = TypeAdapter(KolossusAction)
