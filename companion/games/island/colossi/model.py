"""Colossi as data: the options, state and actions, and the island switches that are
Colossi's own (CA-R06, CA-R08, CA-R17)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from companion.dice import Roll
from companion.games.island.colossi.content import AGE_NAMES, AGES, MOVEMENT_UNIT
from companion.games.island.content import Content
from companion.games.island.model import (
    ApplyEffect,
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    Effect,
    GrassLoot,
    IslandConfig,
    IslandState,
    Move,
    PlayCard,
    Spawn,
    Tile,
)
from companion.games.island.phrases import grass_words
from companion.games.island.referee import (
    IslandOptions,
    TiePolicy,
)
from companion.games.options import option
from companion.model import Frozen


class ColossiOptions(IslandOptions):
    use_traits: bool = option(
        True,
        "Play with Traits; a first game leaves them out.",
        "CA-R13",
        label="Traits",
        group="game",
        words={True: "With Traits", False: "Without Traits"},
    )
    centre_setup: Literal["age1_lair", "random_tile"] = option(
        "age1_lair",
        "Age I's Lair on the centre, or a random tile there and the Lair placed.",
        "CA-R01",
        label="Centre of the island",
        group="start",
        words={"age1_lair": "Age I's Lair", "random_tile": "A random tile"},
        house_rule=True,
    )
    acolytes_per_player: int = option(
        10,
        "Acolytes each player has.",
        "CA-R02",
        label="Acolytes each",
        group="start",
        house_rule=True,
        ge=1,
        le=30,
    )
    rounds_per_age: int = option(
        5,
        "Turns each player takes per Action Phase, unless an Age card says otherwise.",
        "CA-R04",
        label="Turns per Age",
        group="turns",
        house_rule=True,
        ge=1,
        le=30,
    )
    mantle_pass_left_after_award: bool = option(
        False,
        "After the Mantle award, the leader's left neighbour starts the Age.",
        "CA-R03",
        label="Left of the leader starts",
        group="turns",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    tipped_colossus_controls: bool = option(
        True,
        "A tipped Colossus, already harvested, still counts for control.",
        "CA-R06",
        label="Tipped Colossi control",
        group="movement",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    beast_master_beast_rules: bool = option(
        False,
        "Beasts kill Acolytes and push Colossi away as in Beast Master.",
        "CA-R08",
        label="Beasts as in Beast Master",
        group="movement",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    beast_card_needs_action: bool = option(
        True,
        "Playing a Beast card needs an Action left, which it gives back.",
        "CA-R15",
        label="Beast card needs an Action",
        group="cards",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    tie_policy: TiePolicy = option(
        "shared",
        "A tie for the most Gold at the end: a shared victory, or the table picks.",
        "0.2.4",
        label="A tie for the win",
        group="endgame",
        words={"shared": "Shared victory", "manual": "The table picks"},
        house_rule=True,
    )
    mantle_holder: int = option(
        0,
        "The most experienced player, who takes the Mantle.",
        "3.4",
        label="Mantle holder",
        group="table",
        seats=True,
        ge=0,
        le=3,
    )
    grass_tiles: int = option(
        16,
        "Grass tiles in the explore deck.",
        "CA-R01",
        label="Grass tiles",
        group="box",
        ge=0,
        le=60,
    )
    deck_lairs: int = option(
        2,
        "Random Lairs in the explore deck.",
        "CA-R01",
        label="Lairs in the deck",
        group="box",
        ge=0,
        le=10,
    )
    deck_environments: int = option(
        8,
        "Environments in the explore deck.",
        "CA-R01",
        label="Environments in the deck",
        group="box",
        ge=0,
        le=60,
    )
    spare_environments: int = option(
        0,
        "Unused Environments, not Lairs, left in the box.",
        "CA-R10",
        label="Spare Environments",
        group="box",
        ge=0,
        le=60,
    )
    content: Content | None = option(
        None,
        "A content file with the cards, Age cards and Environments the referee applies.",
        "0.2.2",
        label="Card effects",
        group="box",
        words={None: "Entered as you play"},
    )


Phase = Literal["age_reveal", "actions", "age_scoring", "harvest", "transition", "tie", "over"]


class ColossiState(IslandState):
    options: ColossiOptions
    phase: Phase = "age_reveal"
    age: int = Field(default=1, ge=1, le=AGES)
    age_name: str = ""
    age_beasts: tuple[str, ...] = ()
    used_age_cards: tuple[str, ...] = ()
    rounds: int = Field(default=5, ge=1, le=50)
    age_turns: int = Field(default=0, ge=0)
    mantle: int = Field(default=0, ge=0, le=3)  # a seat
    deck_grass: int = Field(default=16, ge=0)
    deck_lairs: tuple[str, ...] = ()
    deck_environments: int = Field(default=8, ge=0)
    spare_environments: int = Field(default=0, ge=0)
    traits: tuple[tuple[str, ...], ...] = ()
    trait_row: tuple[str, ...] = ()
    traits_drawn: int = Field(default=0, ge=0)
    harvested: tuple[tuple[str, ...], ...] = ()
    passed: tuple[bool, ...] = ()
    retiring_beasts: tuple[str, ...] = ()


# --- actions -------------------------------------------------------------------------


class RevealAge(Frozen):
    """Enter the Age card just revealed: its Beasts, Action-Phase length and Water.

    ``card`` names an Age card of the content file instead; with a content file and no
    Beasts given, the referee draws an unused Age card (CA-R19).
    """

    model_config = ConfigDict(title="Reveal the Age card")
    type: Literal["reveal_age"] = "reveal_age"
    card: str | None = Field(default=None, title="Known Age card")
    name: str = Field(default="", title="Name")
    beasts: tuple[str, ...] = Field(default=(), title="Beasts")
    rounds: int | None = Field(default=None, ge=1, le=50, title="Rounds")
    water: tuple[str, ...] = Field(default=(), title="Water on")


class DrawTile(Frozen):
    """Explore: draw from the explore deck. ``kind`` None = a virtual draw by the counts;
    otherwise the tile the players drew. ``loot`` applies if it is Grass, ``beast`` if a Lair."""

    model_config = ConfigDict(title="Draw a tile")
    type: Literal["draw_tile"] = "draw_tile"
    kind: Literal["grass", "lair", "environment", "bare"] | None = Field(
        default=None, title="Tile drawn"
    )
    name: str = Field(default="", title="Name")
    loot: GrassLoot | None = Field(default=None, title="Grass Loot")
    beast: str | None = Field(default=None, title="Beast")


class PlaceLair(Frozen):
    """Put the pending Lair (and its Beast) on an empty space (CA-R16)."""

    model_config = ConfigDict(title="Place the Lair")
    type: Literal["place_lair"] = "place_lair"
    space: str = Field(title="Space")


class TakeTrait(Frozen):
    """Gain a Trait: ``row`` 0–2 takes a face-up one (the row refills), None the deck top."""

    model_config = ConfigDict(title="Take a Trait")
    type: Literal["take_trait"] = "take_trait"
    row: int | None = Field(default=None, ge=0, le=2, title="Face-up Trait")
    name: str | None = Field(default=None, title="Trait drawn")  # the deck card's name
    refill: str | None = Field(default=None, title="New face-up Trait")


class DiscardTrait(Frozen):
    model_config = ConfigDict(title="Discard a Trait")
    type: Literal["discard_trait"] = "discard_trait"
    name: str = Field(title="Trait")


class EndTurn(Frozen):
    """End the Actions and draw 1 card (CA 3.5.1)."""

    model_config = ConfigDict(title="End the turn")
    type: Literal["end_turn"] = "end_turn"


class EndActionPhase(Frozen):
    """Manual control: the Action Phase ends now (an Age card said so, CA-R04)."""

    model_config = ConfigDict(title="End the Action Phase")
    type: Literal["end_action_phase"] = "end_action_phase"


class AgeScoring(Frozen):
    """The Age card's special scoring: gold per player in seat order (may be negative)."""

    model_config = ConfigDict(title="Score the Age card")
    type: Literal["age_scoring"] = "age_scoring"
    gold: tuple[int, ...] = Field(title="Gold")


class Harvest(Frozen):
    """Harvest a space you control; ``effects`` are the Environment's text, if any."""

    model_config = ConfigDict(title="Harvest")
    type: Literal["harvest"] = "harvest"
    space: str = Field(title="Space")
    effects: tuple[Effect, ...] = Field(default=(), title="Environment's effects")


class PassHarvest(Frozen):
    """Done harvesting for this Age (final)."""

    model_config = ConfigDict(title="Pass the Harvest")
    type: Literal["pass_harvest"] = "pass_harvest"


class PickWinners(Frozen):
    model_config = ConfigDict(title="Pick the winner")
    type: Literal["pick_winners"] = "pick_winners"
    seats: tuple[int, ...] = Field(title="Winners")


ColossiAction = Annotated[
    Roll
    | RevealAge
    | DrawTile
    | PlaceLair
    | TakeTrait
    | DiscardTrait
    | Move
    | Spawn
    | PlayCard
    | ApplyEffect
    | EndTurn
    | EndActionPhase
    | AgeScoring
    | Harvest
    | PassHarvest
    | DisplaceColossus
    | DiscardToLimit
    | PickWinners
    | CorrectPlayer
    | CorrectSpace
    | CorrectMovements,
    Field(discriminator="type"),
]


def config(state: ColossiState) -> IslandConfig:
    opts = state.options
    return IslandConfig(
        beast_kills=opts.beast_master_beast_rules,  # CA-R08
        spawn_safe_first_step=False,
        tipped_controls=opts.tipped_colossus_controls,  # CA-R06
        hand_limit_immediate=True,
        gold_floor_zero=True,  # CA-R17
        movement_unit=MOVEMENT_UNIT,
    )


def age_label(age: int) -> str:
    return f"Age {AGE_NAMES[age - 1]}"


def random_lair_beasts(count: int) -> tuple[str, ...]:
    """Stand-in names for the Beasts of the Lair tiles shuffled into the explore deck.

    The seed names no Beast of those tiles (RULINGS 3.4, step 5), so the companion calls them
    "Random Beast 1", "Random Beast 2", … until players name the one they draw; a
    placeholder that reads as a tile ("Deck Lair 1") made "the Lair of Deck Lair 1".
    """
    return tuple(f"Random Beast {k + 1}" for k in range(count))


def lair_spaces(state: ColossiState) -> list[str]:
    """Empty non-Water spaces (CA-R16); if none, any non-Water tile without a Beast."""
    beasts = state.beast_spaces()
    empty = [
        sid
        for sid, sp in zip(state.board.ids, state.spaces, strict=True)
        if sp.tile is None and not sp.water and sid not in beasts
    ]
    if empty:
        return empty
    tiles = [
        sid
        for sid, sp in zip(state.board.ids, state.spaces, strict=True)
        if not sp.water and sid not in beasts
    ]
    # A tiny island full of Beasts: the Lair shares a Beast's space rather than get stuck.
    return tiles or [
        sid for sid, sp in zip(state.board.ids, state.spaces, strict=True) if not sp.water
    ]


def tile_text(tile: Tile) -> str:
    if tile.kind == "grass":
        return grass_words(tile.loot)
    if tile.kind == "lair":
        return f"the Lair of {tile.beast}"
    if tile.kind == "environment":
        return f"the Environment {tile.name}" if tile.name else "an Environment"
    return "nothing (the deck and the box are empty, CA-R10)"
