"""Kolossus as data: the options (defaults = rulings), the immutable game state and the
action vocabulary (see docs/games/kolossus.md for JSON examples)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from companion.dice import DiceRequest, Roll
from companion.games.corrections import Correction
from companion.games.kolossus.content import ClassCode, Colour, Corner, RegionDirection
from companion.games.options import option
from companion.model import Frozen
from companion.rules import GameState

Chapter = Literal[1, 2, 3]
Weapon = Literal["sword", "whip", "spear", "hammer"]
WEAPONS: tuple[Weapon, ...] = ("sword", "whip", "spear", "hammer")
WEAPON_NAME: dict[str, str] = {
    "sword": "Sword of Storm",
    "whip": "Whip of Wrath",
    "spear": "Spear of Vengeance",
    "hammer": "Hammer of Doom",
}
# Default weapon per colour when the players do not choose (K-R26; Ishtari = Spear per
# the rule book's example).
DEFAULT_WEAPON_OF_COLOUR: dict[str, Weapon] = {
    "blue": "sword",
    "yellow": "whip",
    "green": "spear",
    "red": "hammer",
}

# The six skill slots, in this order everywhere.
SKILL_SLOTS: tuple[str, ...] = (
    "warrior_attack",
    "warrior_defence",
    "guardian_attack",
    "guardian_defence",
    "colossus_attack",
    "colossus_defence",
)
#: The skills as the character board names them.
SKILL_NAMES: dict[str, str] = {
    "warrior_attack": "Warrior Attack",
    "warrior_defence": "Warrior Defence",
    "guardian_attack": "Guardian Attack",
    "guardian_defence": "Guardian Defence",
    "colossus_attack": "Colossus Attack",
    "colossus_defence": "Colossus Defence",
}
ROUNDS = 12  # K-R37
MANA_PER_WARBAND = 20
INITIAL_SKILL_MANA = 4
POOL_LIMIT = 5
WEAPON_CHARGE = 2


class StartZones(Frozen):
    """A custom start-zone layout: 8 squares ``"r,c"`` per corner (K-R02)."""

    NW: tuple[str, ...]
    NE: tuple[str, ...]
    SE: tuple[str, ...]
    SW: tuple[str, ...]


class KolossusOptions(Frozen):
    """The table's choices and the house rules; every default is the ruling of RULINGS.md
    Appendix A (the rules as printed)."""

    chapter: Chapter = option(
        1,
        "Chapter 1 for a first game; 2 adds mana, 3 the Titan Weapons and Powers.",
        "1.8",
        label="Rule chapter",
        group="game",
        words={1: "1: The Arrival", 2: "2: Power of Mana", 3: "3: Lords of Destiny"},
    )
    colours: tuple[Colour, Colour, Colour, Colour] = option(
        ("blue", "yellow", "green", "red"),
        "Which warband plays from each corner.",
        "K-R21",
        label="Colour in each corner",
        group="table",
        words={"blue": "Blue", "yellow": "Yellow", "green": "Green", "red": "Red"},
    )
    controllers: tuple[int, int, int, int] | None = option(
        None,
        "Automatic: one corner each, or two allied corners each with fewer players.",
        "K-R21",
        label="Who plays which corner",
        group="table",
        words={None: "Automatic"},
        seats=True,
    )
    first_corner: Corner = option(
        "NW",
        "The oldest player's corner: first in the Great Quake and in round 1.",
        "K-R38",
        label="First corner",
        group="table",
        words={"NW": "North-west", "NE": "North-east", "SE": "South-east", "SW": "South-west"},
    )
    start_zone_layout: Literal["corner3x3_minus_inner"] | StartZones = option(
        "corner3x3_minus_inner",
        "Each start zone: the 8 outer squares of its corner's 3 by 3 block.",
        "K-R02",
        label="Start zones",
        group="start",
        words={"corner3x3_minus_inner": "Corner blocks of 8"},
        house_rule=True,
    )
    quake_candidates: Literal["central10", "all22"] = option(
        "central10",
        "Regions the Great Quake may move: rows and columns 3 to 7, or all of them.",
        "K-R03",
        label="Quake regions",
        group="quake",
        words={"central10": "Central 10 regions", "all22": "All 22 regions"},
        house_rule=True,
    )
    region_move_model: Literal["rigid", "push_compress"] = option(
        "rigid",
        "A region slides as one, or is pushed from its rear closing the gaps.",
        "K-R04",
        label="How a region slides",
        group="quake",
        words={"rigid": "All 11 squares as one", "push_compress": "Pushed, gaps closed"},
        house_rule=True,
    )
    quake_distance: Literal["exact", "up_to_roll"] = option(
        "exact",
        "The Great Quake moves a region exactly the number rolled, or up to it.",
        "K-R05",
        label="Quake distance",
        group="quake",
        words={"exact": "Exactly the roll", "up_to_roll": "Up to the roll"},
        house_rule=True,
    )
    allies_are_friendly: bool = option(
        True,
        "Allied miniatures count as your own: pass through them, never beat them.",
        "K-R11",
        label="Allies are friends",
        group="movement",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    defence_consumed: bool = option(
        True,
        "Beating an enemy uses up as many movement points as its Defence.",
        "K-R12",
        label="Beating costs Defence",
        group="movement",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    crystal_placement: Literal["one_per_round_accumulate", "refill_if_empty"] = option(
        "one_per_round_accumulate",
        "A crystal comes every round and they pile up, or only when none is there.",
        "K-R15",
        label="New crystals",
        group="crystals",
        words={
            "one_per_round_accumulate": "One every round",
            "refill_if_empty": "Only if none is left",
        },
        house_rule=True,
    )
    capture_requires_entry: bool = option(
        False,
        "Only a miniature that moved onto the Citadel this activation captures.",
        "K-R16",
        label="Capture needs a move in",
        group="crystals",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    crystal_majority: Literal["relative", "absolute_7"] = option(
        "relative",
        "After round 12: more crystals than the other alliance, or at least 7.",
        "K-R18",
        label="Crystals to win",
        group="endgame",
        words={"relative": "More than the others", "absolute_7": "At least 7"},
        house_rule=True,
    )
    elimination_unit: Literal["warband", "player"] = option(
        "warband",
        "Whose miniatures must all be lost for the alliance to lose.",
        "K-R20",
        label="Wiped out means",
        group="endgame",
        words={"warband": "One warband", "player": "One player"},
        house_rule=True,
    )
    simultaneous_elimination: Literal["draw", "active_alliance_loses"] = option(
        "draw",
        "Both alliances wiped out at once: a draw, or the alliance on its turn loses.",
        "K-R20",
        label="Both wiped out at once",
        group="endgame",
        words={"draw": "A draw", "active_alliance_loses": "The acting side loses"},
        house_rule=True,
    )
    mana_table: tuple[int, int, int, int] = option(
        (3, 2, 1, 0),
        "Mana income for a Die of Destiny of 1, 2, 3 and 4.",
        "K-R22",
        label="Mana income",
        group="mana",
        house_rule=True,
    )
    invasion_grants_mana: bool = option(
        True,
        "The Great Quake roll also brings mana income, from chapter 2.",
        "K-R23",
        label="Mana from the Quake",
        group="mana",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    titan_weapons: Literal["one_per_warband", "all_four"] = option(
        "one_per_warband",
        "Each warband has one weapon, all different, or all four weapons each.",
        "K-R26",
        label="Weapons per warband",
        group="weapons",
        words={"one_per_warband": "One each", "all_four": "All four each"},
        house_rule=True,
    )
    weapons: tuple[Weapon, Weapon, Weapon, Weapon] | None = option(
        None,
        "Automatic by colour: Blue Sword, Yellow Whip, Green Spear, Red Hammer.",
        "K-R26",
        label="Weapon in each corner",
        group="weapons",
        words={None: "Automatic", **{w: WEAPON_NAME[w] for w in WEAPONS}},
    )
    charge_from_pool: bool = option(
        False,
        "The 2 mana that charge a Titan Weapon may also come from the pool.",
        "K-R27",
        label="Charge from the pool",
        group="weapons",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    initiative_once_per_turn: bool = option(
        False,
        "Initiative may be used only once per turn.",
        "K-R33",
        label="Initiative once a turn",
        group="mana",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )


class WarbandState(Frozen):
    """One colour: who controls it, where it starts, and its character board (Ch.2+)."""

    corner: Corner
    colour: Colour
    player: int
    zone: tuple[int, ...]  # its 8 start squares (square indices)
    weapon: Weapon | None = None  # one_per_warband: its weapon (Ch.3)
    supply: int = 0
    skills: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)
    pool: int = 0
    charges: tuple[int, int, int, int] = (0, 0, 0, 0)  # per weapon in WEAPONS order
    income: int = 0  # this turn's unallocated income

    def mana_total(self) -> int:
        return self.supply + sum(self.skills) + self.pool + sum(self.charges) + self.income

    def attack(self, cls: ClassCode) -> int:
        return self.skills[2 * "WGC".index(cls)]

    def defence(self, cls: ClassCode) -> int:
        return self.skills[2 * "WGC".index(cls) + 1]


class CrystalCapture(Frozen):
    round: int
    warband: int
    count: int


BeatCause = Literal["move", "sword", "spear", "hammer", "earthquake", "quake", "correction"]


class BeatRecord(Frozen):
    """A beaten miniature: by whom (None when an Earthquake pushed it off)."""

    round: int
    piece: int
    by: int | None
    cause: BeatCause


class GameResult(Frozen):
    alliance: int | None  # winning alliance (0 = NW+SE, 1 = NE+SW); None = draw
    reason: str
    text: str


Phase = Literal[
    "placement",  # swap miniatures inside start zones, then ready
    "skills",  # Ch.2+: each warband puts exactly 4 mana on its skills
    "quake",  # the Great Quake: roll, then quake_move
    "quake_allocate",  # Ch.2+: allocate the Invasion income
    "destiny",  # roll the Die of Destiny
    "turn",  # choose a class / powers / end turn
    "move_roll",  # roll the chosen class's movement dice
    "move",  # move one miniature of the chosen class
    "after_move",  # Colossus: Spear / Hammer or finish
    "allocate",  # Ch.2+: end-of-turn allocation of the income
    "over",
]


class KolossusState(GameState):
    """Everything needed to continue a game; see docs/games/kolossus.md."""

    options: KolossusOptions
    warbands: tuple[WarbandState, WarbandState, WarbandState, WarbandState]
    terrain: tuple[str, ...]
    minis: tuple[int, ...]  # 32 square indices (11*r + c); -1 = beaten
    phase: Phase
    round: int = 0  # 0 = Invasion
    first: int = 0  # first warband of the round (K-R40)
    turn: int = 0  # 0..3: position of the current warband in this round's order
    quake_moved: tuple[str, ...] = ()
    dice: DiceRequest | None = None
    roll: tuple[int, ...] = ()  # the last roll (Quake die, Destiny die, movement dice)
    ap: int = 0  # activation points left
    initiatives: int = 0  # Initiative uses this turn
    initiative_open: bool = False  # right after the Destiny roll (K-R33)
    activated: tuple[int, ...] = ()  # pieces activated this turn
    active_class: ClassCode | None = None
    mp: int = 0  # movement points of the current activation (left, in after_move)
    active_piece: int | None = None  # the Colossus waiting for Spear/Hammer
    whip_active: bool = False  # Whip spent in this activation (K-R32)
    entered: bool = False  # the active piece moved at least one square (K-R16 option)
    crystals: int = 1  # on the Citadel
    crystal_supply: int = 11
    captures: tuple[CrystalCapture, ...] = ()
    beats: tuple[BeatRecord, ...] = ()
    result: GameResult | None = None


# --- actions ----------------------------------------------------------------------


class Swap(Frozen):
    """Setup: exchange two miniatures of one warband inside its start zone (K-R02)."""

    model_config = ConfigDict(title="Swap two miniatures")

    type: Literal["swap"] = "swap"
    a: str = Field(title="First square")
    b: str = Field(title="Second square")


class Ready(Frozen):
    """Setup: the miniatures stand as shown; go on to the skills / the Invasion."""

    model_config = ConfigDict(title="Ready")

    type: Literal["ready"] = "ready"


class QuakeMove(Frozen):
    """The Great Quake: shift a region along its axis by the rolled distance."""

    model_config = ConfigDict(title="Great Quake")

    type: Literal["quake_move"] = "quake_move"
    region: str = Field(title="Row or column")  # "row3" .. "col7"
    direction: RegionDirection = Field(title="Direction")
    # only with quake_distance = up_to_roll; default = roll
    distance: int | None = Field(default=None, title="Squares")


class Allocate(Frozen):
    """Put mana on skills / pool / the Titan Weapon; the rest goes back to the supply.

    At setup (Ch.2+) exactly 4 on the skills (K-R25); after the Invasion roll and at the
    end of a turn the current income (K-R22/K-R24, K-R27, K-R36).
    """

    model_config = ConfigDict(title="Put mana")

    type: Literal["allocate"] = "allocate"
    warrior_attack: int = Field(default=0, ge=0, title=SKILL_NAMES["warrior_attack"])
    warrior_defence: int = Field(default=0, ge=0, title=SKILL_NAMES["warrior_defence"])
    guardian_attack: int = Field(default=0, ge=0, title=SKILL_NAMES["guardian_attack"])
    guardian_defence: int = Field(default=0, ge=0, title=SKILL_NAMES["guardian_defence"])
    colossus_attack: int = Field(default=0, ge=0, title=SKILL_NAMES["colossus_attack"])
    colossus_defence: int = Field(default=0, ge=0, title=SKILL_NAMES["colossus_defence"])
    pool: int = Field(default=0, ge=0, title="Pool")
    charge: Weapon | None = Field(default=None, title="Charge the Titan Weapon")
    charge_from_pool: int = Field(default=0, ge=0, le=2, title="Charge from the pool")

    def skills(self) -> tuple[int, int, int, int, int, int]:
        return _skill_values(self)


class Initiative(Frozen):
    """Ch.3 Titan Power: pay 1 pool mana for +1 activation point (K-R33)."""

    model_config = ConfigDict(title="Initiative")

    type: Literal["initiative"] = "initiative"


class ChooseClass(Frozen):
    """Activate a class; its movement dice are asked for next (K-R08)."""

    model_config = ConfigDict(title="Activate a class")

    type: Literal["choose_class"] = "choose_class"
    cls: ClassCode = Field(title="Class")


class Move(Frozen):
    """Move the miniature on ``from_`` to ``to`` (``to == from`` moves 0 squares).

    ``path`` lists the squares entered, ending with ``to``; omitted, the referee picks
    the canonical path. ``sword``/``whip``: None = use only if needed, True = allowed,
    False = never.
    """

    type: Literal["move"] = "move"
    from_: str = Field(alias="from", title="From")
    to: str = Field(title="To")
    path: tuple[str, ...] | None = Field(default=None, title="Way")
    sword: bool | None = Field(default=None, title="Sword of Storm")
    whip: bool | None = Field(default=None, title="Whip of Wrath")

    model_config = ConfigDict(
        title="Move",
        frozen=True,
        extra="forbid",
        populate_by_name=True,
        serialize_by_alias=True,
    )


class Spear(Frozen):
    """After the Colossus's move: beat one enemy in a free straight line (K-R29)."""

    model_config = ConfigDict(title="Spear of Vengeance")

    type: Literal["spear"] = "spear"
    target: str = Field(title="Target")


class Hammer(Frozen):
    """After the Colossus's move: beat the chosen adjacent enemies (K-R30)."""

    model_config = ConfigDict(title="Hammer of Doom")

    type: Literal["hammer"] = "hammer"
    targets: tuple[str, ...] = Field(title="Targets")


class Finish(Frozen):
    """End the Colossus's activation without using the Spear or the Hammer."""

    model_config = ConfigDict(title="Finish the Colossus's activation")

    type: Literal["finish"] = "finish"


class Earthquake(Frozen):
    """Ch.3 Titan Power: shift any region 1 square (K-R34)."""

    model_config = ConfigDict(title="Earthquake")

    type: Literal["earthquake"] = "earthquake"
    region: str = Field(title="Row or column")
    direction: RegionDirection = Field(title="Direction")


class Rebirth(Frozen):
    """Ch.3 Titan Power: a beaten miniature returns to a free start square (K-R35)."""

    model_config = ConfigDict(title="Rebirth")

    type: Literal["rebirth"] = "rebirth"
    cls: ClassCode = Field(title="Class")
    to: str = Field(title="Square")


class EndTurn(Frozen):
    """Stop activating; leftover activation points are forfeited (K-R08)."""

    model_config = ConfigDict(title="End the turn")

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

    model_config = ConfigDict(title="Correct a miniature")

    type: Literal["correct_piece"] = "correct_piece"
    piece: str = Field(title="Miniature")
    row: int | None = Field(default=None, ge=0, le=10, title="Row")
    col: int | None = Field(default=None, ge=0, le=10, title="Column")


class CorrectMana(Correction):
    """A warband's 20 mana tokens (Ch.2+): supply, skills, pool, unallocated income and
    which Titan Weapons are charged (2 tokens each). They must add up to 20."""

    model_config = ConfigDict(title="Correct the mana")

    type: Literal["correct_mana"] = "correct_mana"
    warband: Colour = Field(title="Warband")
    supply: int = Field(title="Supply")
    warrior_attack: int = Field(default=0, title=SKILL_NAMES["warrior_attack"])
    warrior_defence: int = Field(default=0, title=SKILL_NAMES["warrior_defence"])
    guardian_attack: int = Field(default=0, title=SKILL_NAMES["guardian_attack"])
    guardian_defence: int = Field(default=0, title=SKILL_NAMES["guardian_defence"])
    colossus_attack: int = Field(default=0, title=SKILL_NAMES["colossus_attack"])
    colossus_defence: int = Field(default=0, title=SKILL_NAMES["colossus_defence"])
    pool: int = Field(default=0, title="Pool")
    income: int = Field(default=0, title="Income")
    sword: bool = Field(default=False, title="Sword of Storm charged")
    whip: bool = Field(default=False, title="Whip of Wrath charged")
    spear: bool = Field(default=False, title="Spear of Vengeance charged")
    hammer: bool = Field(default=False, title="Hammer of Doom charged")

    def skills(self) -> tuple[int, int, int, int, int, int]:
        return _skill_values(self)

    def charged(self) -> tuple[bool, bool, bool, bool]:
        return (self.sword, self.whip, self.spear, self.hammer)


class CorrectCrystals(Correction):
    """Where the 12 Crystals of Time are: on the Citadel, in the supply, captured by
    each warband (by colour)."""

    model_config = ConfigDict(title="Correct the crystals")

    type: Literal["correct_crystals"] = "correct_crystals"
    citadel: int = Field(title="On the Citadel")
    supply: int = Field(title="In the supply")
    blue: int = Field(default=0, title="Captured by Tua'tha (blue)")
    yellow: int = Field(default=0, title="Captured by Krell (yellow)")
    green: int = Field(default=0, title="Captured by Ishtari (green)")
    red: int = Field(default=0, title="Captured by Firbolg (red)")


class CorrectLandscape(Correction):
    """The landscape on one square (the Citadel itself cannot be corrected away)."""

    model_config = ConfigDict(title="Correct a landscape")

    type: Literal["correct_landscape"] = "correct_landscape"
    row: int = Field(ge=0, le=10, title="Row")
    col: int = Field(ge=0, le=10, title="Column")
    landscape: Landscape = Field(title="Landscape")


class CorrectRegion(Correction):
    """A whole region was shifted on the table: shift it here too (K-R04 model)."""

    model_config = ConfigDict(title="Correct a row or column")

    type: Literal["correct_region"] = "correct_region"
    region: Region = Field(title="Row or column")
    direction: RegionDirection = Field(title="Direction")
    distance: int = Field(default=1, ge=1, le=10, title="Squares")


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
