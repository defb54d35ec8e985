"""Kolossus options (defaults = rulings) and the immutable game state."""

from __future__ import annotations

from typing import Literal

from companion.dice import DiceRequest
from companion.games.kolossus.board import ClassCode, Colour, Corner
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
    """House rules; every default is the ruling of RULINGS.md Appendix A."""

    chapter: Chapter = option(
        1, "Rule chapter: 1 The Arrival, 2 The Power of Mana, 3 Lords of Destiny.", "1.8"
    )
    colours: tuple[Colour, Colour, Colour, Colour] = option(
        ("blue", "yellow", "green", "red"),
        "Colour (warband) in each corner, in the order NW, NE, SE, SW.",
        "K-R21",
    )
    controllers: tuple[int, int, int, int] | None = option(
        None,
        "Seat controlling each corner NW, NE, SE, SW. Default: 4 players one each; "
        "3 players: seat 0 has NW+SE; 2 players: seat 0 NW+SE, seat 1 NE+SW.",
        "K-R21",
    )
    first_corner: Corner = option(
        "NW", "Corner of the oldest player's warband, first in the Invasion and round 1.", "K-R38"
    )
    start_zone_layout: Literal["corner3x3_minus_inner"] | StartZones = option(
        "corner3x3_minus_inner",
        "Start zones: the 3x3 corner block minus its inner square, or 8 custom squares per corner.",
        "K-R02",
    )
    quake_candidates: Literal["central10", "all22"] = option(
        "central10", "Regions the Great Quake may move: rows and columns 3-7, or all 22.", "K-R03"
    )
    region_move_model: Literal["rigid", "push_compress"] = option(
        "rigid",
        "Region shift: rigid translation of all 11 squares, or pushed from the "
        "rear-most piece closing gaps.",
        "K-R04",
    )
    quake_distance: Literal["exact", "up_to_roll"] = option(
        "exact", "The Great Quake moves a region exactly the rolled number, or 1..roll.", "K-R05"
    )
    allies_are_friendly: bool = option(
        True, "Allied miniatures count as own: pass through, never end on or beat them.", "K-R11"
    )
    defence_consumed: bool = option(
        True, "Beating an enemy uses up movement points equal to its Defence.", "K-R12"
    )
    crystal_placement: Literal["one_per_round_accumulate", "refill_if_empty"] = option(
        "one_per_round_accumulate",
        "A crystal is added every round (they accumulate), or only if none lies on the Citadel.",
        "K-R15",
    )
    capture_requires_entry: bool = option(
        False, "Only a miniature that moved onto the Citadel this activation captures.", "K-R16"
    )
    crystal_majority: Literal["relative", "absolute_7"] = option(
        "relative", "After round 12: more crystals than the other alliance, or at least 7.", "K-R18"
    )
    elimination_unit: Literal["warband", "player"] = option(
        "warband", "Who must lose every miniature for the alliance to lose.", "K-R20"
    )
    simultaneous_elimination: Literal["draw", "active_alliance_loses"] = option(
        "draw",
        "Both alliances wiped out in one event: a draw, or the acting alliance loses.",
        "K-R20",
    )
    mana_table: tuple[int, int, int, int] = option(
        (3, 2, 1, 0), "Mana income for a Die of Destiny of 1, 2, 3, 4 (each 0..6).", "K-R22"
    )
    invasion_grants_mana: bool = option(
        True, "The Great Quake roll also yields income (Chapter 2+).", "K-R23"
    )
    titan_weapons: Literal["one_per_warband", "all_four"] = option(
        "one_per_warband",
        "One chosen weapon per warband (all different), or all four each.",
        "K-R26",
    )
    weapons: tuple[Weapon, Weapon, Weapon, Weapon] | None = option(
        None,
        "Weapon of each corner NW, NE, SE, SW (all different). Default by colour: "
        "Blue Sword, Yellow Whip, Green Spear, Red Hammer.",
        "K-R26",
    )
    charge_from_pool: bool = option(
        False, "The 2 mana that charge the Titan Weapon may also come from the pool.", "K-R27"
    )
    initiative_once_per_turn: bool = option(
        False, "Initiative may be used only once per turn.", "K-R33"
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
