"""Beast Master as data: the options (defaults = rulings), the state, the actions and
the island switches that are Beast Master's own."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from companion.dice import Roll
from companion.games.island.beast_master.content import MOVEMENT_UNIT
from companion.games.island.content import Content
from companion.games.island.model import (
    ApplyEffect,
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    IslandConfig,
    IslandState,
    Move,
    PlayCard,
    Spawn,
)
from companion.games.island.referee import (
    IslandOptions,
    TiePolicy,
)
from companion.games.options import option
from companion.model import Frozen


class BeastMasterOptions(IslandOptions):
    acolytes_per_player: int | None = option(
        None,
        "Acolytes each player has.",
        "BM-R02",
        label="Acolytes each",
        group="start",
        words={None: "10, or 12 with 3 players"},
        house_rule=True,
        ge=1,
        le=30,
    )
    turns_per_player: int = option(
        15,
        "Turns each player takes before the game ends.",
        "BM-R16",
        label="Turns each",
        group="turns",
        house_rule=True,
        ge=1,
        le=60,
    )
    colossus_start: Literal["centre", "player_choice"] = option(
        "centre",
        "The Colossi start on the centre, or each player places theirs in turn.",
        "BM-R03",
        label="Colossi start",
        group="start",
        words={"centre": "On the centre", "player_choice": "Where players choose"},
        house_rule=True,
    )
    centre_starts_with_loot: bool = option(
        False,
        "A Loot token lies on the centre at the start; its reward is entered.",
        "BM-R05",
        label="Loot on the centre",
        group="start",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    spawn_safe_first_step: bool = option(
        False,
        "An Acolyte spawned on the Beast's space lives if it leaves at once.",
        "BM-R07",
        label="Safe first step",
        group="movement",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    hand_limit_check: Literal["immediate", "end_of_turn"] = option(
        "immediate",
        "When a hand of 7 or more cards is cut down to 6.",
        "BM-R08",
        label="Hand limit",
        group="cards",
        words={"immediate": "At once", "end_of_turn": "At the end of the turn"},
        house_rule=True,
    )
    tie_policy: TiePolicy = option(
        "shared",
        "A tie for the most Gold: a shared victory, or the table picks the winner.",
        "BM-R12",
        label="A tie for the win",
        group="endgame",
        words={"shared": "Shared victory", "manual": "The table picks"},
        house_rule=True,
    )
    loot_tokens: int | None = option(
        None,
        "Loot tokens in the supply.",
        "BM-R06",
        label="Loot tokens",
        group="box",
        words={None: "Never run out"},
        ge=0,
        le=200,
    )
    environment_tiles: int | None = option(
        None,
        "Environment tiles in the stack.",
        "BM-R06",
        label="Environment tiles",
        group="box",
        words={None: "Never run out"},
        ge=0,
        le=200,
    )
    content: Content | None = option(
        None,
        "A content file with the cards' effects, so the referee can apply them.",
        "0.2.2",
        label="Card effects",
        group="box",
        words={None: "Entered as you play"},
    )


Phase = Literal["place_colossus", "choose", "actions", "banners", "resting", "tie", "over"]


class BeastMasterState(IslandState):
    options: BeastMasterOptions
    phase: Phase
    banners_in_hand: tuple[int, ...]
    turns_taken: tuple[int, ...]
    rest_left: tuple[str, ...] = ()
    loot_left: int | None = None
    environments_left: int | None = None


# --- actions -------------------------------------------------------------------------


class TakeActions(Frozen):
    """Choose the Actions turn: draw 1, then up to 4 Movements and any cards."""

    model_config = ConfigDict(title="Take Actions")
    type: Literal["take_actions"] = "take_actions"


class Rest(Frozen):
    """Choose Rest: collect every Banner's rewards, nothing else (BM-R09)."""

    model_config = ConfigDict(title="Rest")
    type: Literal["rest"] = "rest"


class EndActions(Frozen):
    """Done moving and playing cards; go on to placing Banners."""

    model_config = ConfigDict(title="End the Actions")
    type: Literal["end_actions"] = "end_actions"


class PlaceBanner(Frozen):
    model_config = ConfigDict(title="Raise a Banner")
    type: Literal["place_banner"] = "place_banner"
    space: str = Field(title="Space")


class EndTurn(Frozen):
    model_config = ConfigDict(title="End the turn")
    type: Literal["end_turn"] = "end_turn"


class CollectReward(Frozen):
    """Resolve one Banner at Rest: the gold and cards it gave (None = the Loot's printed
    reward, or 0 for an Environment). The Banner returns to hand."""

    model_config = ConfigDict(title="Collect a Banner")
    type: Literal["collect_reward"] = "collect_reward"
    space: str = Field(title="Space")
    gold: int | None = Field(default=None, ge=0, le=99, title="Gold")
    cards: int | None = Field(default=None, ge=0, le=20, title="Cards")


class EnterLoot(Frozen):
    """The printed reward of the Loot token just placed face up (BM-R15)."""

    model_config = ConfigDict(title="Enter the Loot")
    type: Literal["enter_loot"] = "enter_loot"
    gold: int = Field(default=0, ge=0, le=99, title="Gold")
    cards: int = Field(default=0, ge=0, le=20, title="Cards")
    name: str = Field(default="", title="Printed text")


class NameTile(Frozen):
    """Optional: write an Environment's name (or a Loot's text) on its space."""

    model_config = ConfigDict(title="Name a tile")
    type: Literal["name_tile"] = "name_tile"
    space: str = Field(title="Space")
    name: str = Field(title="Name")


class PlaceColossus(Frozen):
    """``colossus_start = player_choice``: put your Colossus on any space (no exploring)."""

    model_config = ConfigDict(title="Place the Colossus")
    type: Literal["place_colossus"] = "place_colossus"
    space: str = Field(title="Space")


class PickWinners(Frozen):
    """``tie_policy = manual``: the table picks the winner(s) among the tied players."""

    model_config = ConfigDict(title="Pick the winner")
    type: Literal["pick_winners"] = "pick_winners"
    seats: tuple[int, ...] = Field(title="Winners")


BeastMasterAction = Annotated[
    Roll
    | TakeActions
    | Rest
    | Move
    | Spawn
    | PlayCard
    | ApplyEffect
    | EndActions
    | PlaceBanner
    | EndTurn
    | CollectReward
    | EnterLoot
    | NameTile
    | DisplaceColossus
    | DiscardToLimit
    | PlaceColossus
    | PickWinners
    | CorrectPlayer
    | CorrectSpace
    | CorrectMovements,
    Field(discriminator="type"),
]


def config(state: BeastMasterState) -> IslandConfig:
    opts = state.options
    return IslandConfig(
        beast_kills=True,
        spawn_safe_first_step=opts.spawn_safe_first_step,
        tipped_controls=True,
        hand_limit_immediate=opts.hand_limit_check == "immediate",
        gold_floor_zero=False,
        movement_unit=MOVEMENT_UNIT,
    )
