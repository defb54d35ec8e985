"""What the two island games share as data: the state's pieces, what the game waits for,
the generic effect editors, the shared actions, corrections and events, and the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, TypeVar

from pydantic import ConfigDict, Field

from companion.events import Event
from companion.games.corrections import Correction
from companion.model import Frozen
from companion.outcome import ScoreRow
from companion.rules import GameState

from .board import IslandBoard

OFF_BOARD = "off"
HAND_LIMIT = 6

PieceKind = Literal["colossus", "acolyte"]
TileKind = Literal["loot", "environment", "grass", "lair", "bare"]
GrassLoot = Literal["gold", "cards", "trait", "none"]
GoldSource = Literal["banner", "kill", "gift", "harvest", "age_scoring", "effect", "correction"]
CardKind = Literal["action", "perk", "divine_gift", "beast_master", "beast", "other"]
SeatRef = int | Literal["self", "each", "others"]


# --- pieces of state ------------------------------------------------------------------


class Tile(Frozen):
    """What lies face up on a space. ``bare`` = explored, nothing there (BM-R06, CA-R10)."""

    kind: TileKind
    name: str = ""
    gold: int = Field(default=0, ge=0)  # Beast Master Loot: its printed reward (BM-R15)
    cards: int = Field(default=0, ge=0)
    loot: GrassLoot | None = None  # Colossi Grass tiles
    beast: str | None = None  # Colossi Lair tiles: the matching Beast


class SpaceState(Frozen):
    """The changing contents of one space (aligned with the board's space order)."""

    tile: Tile | None = None
    acolytes: tuple[int, ...]  # per seat
    banner: int | None = None
    water: bool = False
    cubes: int = Field(default=0, ge=0)


class BeastPos(Frozen):
    name: str
    space: str


class GoldEntry(Frozen):
    """One line of the gold ledger: a player's gold is always the sum of their entries."""

    player: int
    amount: int
    source: GoldSource
    label: str


# --- things the game waits for ---------------------------------------------------------


class PendingExplore(Frozen):
    """A space was entered unexplored: roll (Beast Master) or draw a tile (Colossi)."""

    kind: Literal["explore"] = "explore"
    space: str
    player: int
    entered: bool = True  # False: a replacement tile (CA-R10/CA-R11), not an entry


class PendingLoot(Frozen):
    """A Loot token was placed face up; its printed reward must be entered (BM-R15)."""

    kind: Literal["loot"] = "loot"
    space: str
    player: int


class PendingDisplace(Frozen):
    """A Colossus must leave ``space`` to an adjacent space of its owner's choice."""

    kind: Literal["displace"] = "displace"
    space: str
    player: int
    reason: str


class PendingDiscard(Frozen):
    """The player holds more than 6 cards and must discard down (BM-R08)."""

    kind: Literal["discard"] = "discard"
    player: int


class PendingTrait(Frozen):
    """Colossi: the player gains a Trait (face-up row or deck, CA-R12/CA-R13)."""

    kind: Literal["trait"] = "trait"
    player: int


class PendingTraitDiscard(Frozen):
    """Colossi: the player holds 3 Traits and must discard one now (CA-R13)."""

    kind: Literal["trait_discard"] = "trait_discard"
    player: int


class PendingRollOff(Frozen):
    """A d6 roll-off among tied players; re-roll ties among the highest (CA-R05)."""

    kind: Literal["roll_off"] = "roll_off"
    purpose: Literal["mantle", "least_gold", "age1_lairs"]
    contenders: tuple[int, ...]
    player: int | None = None


class PendingLair(Frozen):
    """Colossi: ``player`` places the Lair of ``beast`` on an empty space (CA-R11/CA-R16)."""

    kind: Literal["lair"] = "lair"
    player: int
    beast: str


Pending = Annotated[
    PendingExplore
    | PendingLoot
    | PendingDisplace
    | PendingDiscard
    | PendingTrait
    | PendingTraitDiscard
    | PendingRollOff
    | PendingLair,
    Field(discriminator="kind"),
]


# --- the generic effect editors (principle 0.2.2) ---------------------------------------


class MovePiece(Frozen):
    """Move or push a piece to any space (or ``"off"`` the edge from an edge space)."""

    model_config = ConfigDict(title="Move or push a piece")
    type: Literal["move_piece"] = "move_piece"
    who: SeatRef = Field(default="self", title="Whose piece")
    piece: PieceKind = Field(default="acolyte", title="Piece")
    origin: str = Field(title="From")
    to: str = Field(title="To")
    push: bool = Field(default=True, title="Pushed")


class MoveBeast(Frozen):
    model_config = ConfigDict(title="Move a Beast")
    type: Literal["move_beast"] = "move_beast"
    beast: str | None = Field(default=None, title="Beast")  # None: the only / first one
    to: str = Field(title="To")


class KillAcolyte(Frozen):
    model_config = ConfigDict(title="Kill Acolytes")
    type: Literal["kill_acolyte"] = "kill_acolyte"
    who: SeatRef = Field(title="Whose Acolytes")
    space: str = Field(title="Space")
    count: int = Field(default=1, ge=1, title="How many")


class GainGold(Frozen):
    """±gold; in Colossi a loss is capped at the current total (CA-R17)."""

    model_config = ConfigDict(title="Gain or lose Gold")
    type: Literal["gold"] = "gold"
    who: SeatRef = Field(default="self", title="Who")
    amount: int = Field(title="Gold")
    # None: from the context (a gift card -> "gift")
    source: GoldSource | None = Field(default=None, title="From")


class DrawCards(Frozen):
    """Draw (positive) or discard (negative) Colossus cards."""

    model_config = ConfigDict(title="Draw or discard cards")
    type: Literal["cards"] = "cards"
    who: SeatRef = Field(default="self", title="Who")
    amount: int = Field(title="Cards")


class ExtraMovements(Frozen):
    """Extra Movements (Beast Master) or Actions (Colossi) for this turn."""

    model_config = ConfigDict(title="More or fewer Movements")
    type: Literal["extra_movements"] = "extra_movements"
    amount: int = Field(ge=-20, le=20, title="How many more")


class SetPerk(Frozen):
    """Beast Master: put a Perk in play (replacing the old one, BM-R11) or remove it."""

    model_config = ConfigDict(title="Put a Perk in play")
    type: Literal["perk"] = "perk"
    who: SeatRef = Field(default="self", title="Whose Perk")
    name: str | None = Field(title="Perk")


class PlaceWater(Frozen):
    """Colossi: put Water on a space (CA-R18 consequences) or take it away."""

    model_config = ConfigDict(title="Put or take Water")
    type: Literal["water"] = "water"
    space: str = Field(title="Space")
    on: bool = Field(default=True, title="Water there")


class PlaceCubes(Frozen):
    model_config = ConfigDict(title="Put or take Gold cubes")
    type: Literal["cubes"] = "cubes"
    space: str = Field(title="Space")
    amount: int = Field(title="Gold cubes")


Effect = Annotated[
    MovePiece
    | MoveBeast
    | KillAcolyte
    | GainGold
    | DrawCards
    | ExtraMovements
    | SetPerk
    | PlaceWater
    | PlaceCubes,
    Field(discriminator="type"),
]


# --- shared actions ----------------------------------------------------------------------


class Move(Frozen):
    """One paid Movement/Action, with its free Road steps (B.3).

    ``path`` lists every space entered, the destination last; without it the referee
    takes a shortest legal chain.
    """

    model_config = ConfigDict(title="Move")
    type: Literal["move"] = "move"
    piece: PieceKind = Field(title="Piece")
    origin: str = Field(title="From")
    to: str = Field(title="To")
    path: tuple[str, ...] | None = Field(default=None, title="Way")


class Spawn(Frozen):
    """Spawn an Acolyte on your Colossus's space, optionally stepping on for free."""

    model_config = ConfigDict(title="Spawn an Acolyte")
    type: Literal["spawn"] = "spawn"
    to: str | None = Field(default=None, title="To")
    path: tuple[str, ...] | None = Field(default=None, title="Way")


class DisplaceColossus(Frozen):
    """Answer a displacement: move your Colossus to this adjacent space."""

    model_config = ConfigDict(title="Move the Colossus away")
    type: Literal["displace_colossus"] = "displace_colossus"
    to: str = Field(title="To")


class DiscardToLimit(Frozen):
    """Discard down to the hand limit of 6 (the cards themselves are chosen at the table)."""

    model_config = ConfigDict(title="Discard down to 6 cards")
    type: Literal["discard_to_limit"] = "discard_to_limit"


class ApplyEffect(Frozen):
    """A generic effect editor outside any card (corrections, tile and Age texts)."""

    model_config = ConfigDict(title="Apply an effect")
    type: Literal["effect"] = "effect"
    effect: Effect = Field(title="Effect")
    # entered as part of this kind of card (BM-R10)
    card_kind: CardKind | None = Field(default=None, title="Part of a card")


class PlayCard(Frozen):
    """Play a Colossus card: its kind, optional name, and its effects as primitives.

    With a content file, ``card`` names a known card and its kind and effects come from
    the file (given ``effects`` are then refused).
    """

    model_config = ConfigDict(title="Play a card")
    type: Literal["play_card"] = "play_card"
    kind: CardKind | None = Field(default=None, title="Kind of card")
    name: str | None = Field(default=None, title="Name")
    card: str | None = Field(default=None, title="Known card")
    effects: tuple[Effect, ...] = Field(default=(), title="Effects")


# --- manual corrections (0.2.1): each sets what the table shows ---------------------------


class CorrectPlayer(Correction):
    """``player`` has ``gold`` Gold and ``cards`` Colossus cards in hand."""

    model_config = ConfigDict(title="Correct a player")
    type: Literal["correct_player"] = "correct_player"
    player: int = Field(title="Player")
    gold: int = Field(title="Gold")
    cards: int = Field(title="Cards in hand")


class CorrectSpace(Correction):
    """What stands on ``space``: Acolytes per seat, whose Colossus (1 per seat standing
    here, else 0) and, if given, the Gold cubes."""

    model_config = ConfigDict(title="Correct a space")
    type: Literal["correct_space"] = "correct_space"
    space: str = Field(title="Space")
    acolytes: tuple[int, ...] = Field(title="Acolytes")
    colossi: tuple[int, ...] = Field(title="Colossi")
    cubes: int | None = Field(default=None, title="Gold cubes")


class CorrectMovements(Correction):
    """The active player has ``movements`` Movements (Beast Master) or Actions (Colossi)
    left this turn."""

    model_config = ConfigDict(title="Correct the Movements left")
    type: Literal["correct_movements"] = "correct_movements"
    movements: int = Field(title="Left this turn")


# --- events -------------------------------------------------------------------------------


class PieceMoved(Event):
    type: Literal["piece_moved"] = "piece_moved"
    player: int
    piece: PieceKind
    path: tuple[str, ...]


class AcolyteDied(Event):
    type: Literal["acolyte_died"] = "acolyte_died"
    player: int
    space: str
    count: int


class SpaceExplored(Event):
    type: Literal["space_explored"] = "space_explored"
    space: str
    tile: Tile


class GoldChanged(Event):
    type: Literal["gold_changed"] = "gold_changed"
    player: int
    amount: int
    source: GoldSource


class BeastMoved(Event):
    type: Literal["beast_moved"] = "beast_moved"
    beast: str
    space: str


class TurnChanged(Event):
    type: Literal["turn_changed"] = "turn_changed"
    player: int


class Note(Event):
    """Anything else worth a log line (cards, banners, phases)."""

    type: Literal["note"] = "note"


# --- the shared state ----------------------------------------------------------------------


class IslandState(GameState):
    """Fields both island games keep (each game's state adds its own)."""

    board: IslandBoard
    spaces: tuple[SpaceState, ...]
    colossi: tuple[str | None, ...]
    tipped: tuple[bool, ...]
    acolytes_in_hand: tuple[int, ...]
    cards_in_hand: tuple[int, ...]
    perks: tuple[str | None, ...]
    gold: tuple[int, ...]
    ledger: tuple[GoldEntry, ...] = ()
    beasts: tuple[BeastPos, ...] = ()
    active: int = Field(default=0, ge=0, le=3)  # a seat; checked against the players too
    movements_left: int = Field(default=0, ge=0)
    pending: tuple[Pending, ...] = ()
    turns_played: int = Field(default=0, ge=0)
    history: tuple[ScoreRow, ...] = ()
    phase: str  # each game narrows it to its own phases; "over" ends the game
    winners: tuple[int, ...] = ()

    def space(self, space_id: str) -> SpaceState:
        return self.spaces[self.board.graph.index[space_id]]

    def beast_spaces(self) -> set[str]:
        return {b.space for b in self.beasts}


S = TypeVar("S", bound=IslandState)


@dataclass(frozen=True)
class IslandConfig:
    """Where the two games' island rules differ."""

    beast_kills: bool  # BM 2.6.6 / CA-R08 option
    spawn_safe_first_step: bool  # BM-R07 option
    tipped_controls: bool  # CA-R06 option
    hand_limit_immediate: bool  # BM-R08 option
    gold_floor_zero: bool  # CA-R17
    #: What a paid move is called ("Movement" in Beast Master, "Action" in Colossi).
    movement_unit: str = "Movement"
