"""Options, state, actions, corrections and events of Builders of the Colossus."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, field_validator

from companion.events import Event
from companion.games.builders.content import (
    BlueprintCard,
    check_blueprint_table,
)
from companion.games.corrections import (
    Correction,
)
from companion.games.options import option
from companion.model import Frozen
from companion.outcome import Outcome, ScoreRow
from companion.rules import GameState

# --- options ------------------------------------------------------------------------


class BuildersOptions(Frozen):
    """House rules; the defaults are the rulings (RULINGS Appendix A, Builders rows)."""

    forced_build: bool = option(
        False,
        "A player who can complete a face-up Blueprint must build; their word is asked.",
        "BC-R03",
        label="Building is compulsory",
        group="turns",
        words={True: "Yes", False: "No"},
        house_rule=True,
    )
    reveal_source: Literal["target_then_stockpile", "stockpile", "target_only_require_2"] = option(
        "target_then_stockpile",
        "Where the 2 Runes of a Reveal come from.",
        "BC-R04",
        label="Runes of a Reveal",
        group="cards",
        words={
            "target_then_stockpile": "Target, then stockpile",
            "stockpile": "The stockpile",
            "target_only_require_2": "Target with 2 only",
        },
        house_rule=True,
    )
    zero_check: Literal["next_own_turn", "full_round"] = option(
        "next_own_turn",
        "When a player at 0 Runes wins: on their next turn, or after a full round.",
        "BC-R10",
        label="Winning at 0 Runes",
        group="endgame",
        words={"next_own_turn": "Their next turn", "full_round": "After a full round"},
        house_rule=True,
    )
    final_tie: Literal["manual", "shared"] = option(
        "manual",
        "A tie after every tie-break: the players pick the winner, or share the victory.",
        "BC-R12",
        label="A tie for the win",
        group="endgame",
        words={"manual": "The table picks", "shared": "Shared victory"},
        house_rule=True,
    )
    blueprints: tuple[BlueprintCard, ...] | None = option(
        None,
        "A Blueprint table: the referee deals the Blueprints and checks each build.",
        "BC-R15",
        label="Blueprint table",
        group="box",
        words={None: "Not loaded"},
    )

    @field_validator("blueprints")
    @classmethod
    def _table_is_usable(
        cls, value: tuple[BlueprintCard, ...] | None
    ) -> tuple[BlueprintCard, ...] | None:
        if value is not None:
            check_blueprint_table(value)
        return value


# --- state --------------------------------------------------------------------------


class BuildRecord(Frozen):
    """One completed Blueprint, for the log, the builds tie-break and the export."""

    player: int
    turn: int
    slot: int | None  # 1..3; None for a correction (no Blueprint slot; 0 in old journals)
    blueprint: str | None  # the Blueprint's name, if known
    rune_cost: int
    accessories: int
    cards: int  # Parts cards laid out (returned to the bottom of the deck)
    colossus_name: str | None = None
    corrected: bool = False  # added by a manual correction (0.2.1), not a build


TurnMode = Literal["open", "curse", "actions"]


class BuildersState(GameState):
    runes: tuple[int, ...]
    hands: tuple[int, ...]  # Parts cards per hand (contents hidden)
    deck: int  # Parts cards left in the deck
    current: int = 0
    turn: int = Field(default=1, ge=1)
    mode: TurnMode = "open"  # nothing yet / cursed (BC-R02) / gain-a-card actions
    actions_used: tuple[str, ...] = ()
    builds: tuple[BuildRecord, ...] = ()
    # The optional Blueprint table, the virtual Blueprint deck (indices into the table)
    # and the face-up slots (indices, None when unknown or empty).
    blueprint_table: tuple[BlueprintCard, ...] = ()
    blueprint_deck: tuple[int, ...] = ()
    face_up: tuple[int | None, ...] = (None, None, None)
    # Zero-Rune checks (BC-R10, BC-R11): per seat, the turn number it falls due, or None.
    zero_checks: tuple[int | None, ...]
    # Rune flows with the stockpile per seat (BC-R13): received from it, sealed into it.
    from_stockpile: tuple[int, ...]
    sealed: tuple[int, ...]
    # Net Runes per seat added (+) or removed (-) by manual corrections (0.2.1); empty
    # means none (positions saved before corrections existed).
    rune_corrections: tuple[int, ...] = ()
    history: tuple[ScoreRow, ...] = ()
    tied: tuple[int, ...] = ()  # seats awaiting the players' pick (BC-R12)
    result: Outcome | None = None
    forced_build: bool = False
    reveal_source: Literal["target_then_stockpile", "stockpile", "target_only_require_2"] = (
        "target_then_stockpile"
    )
    zero_check: Literal["next_own_turn", "full_round"] = "next_own_turn"
    final_tie: Literal["manual", "shared"] = "manual"

    @property
    def built(self) -> int:
        return len(self.builds)

    def builds_by(self, seat: int) -> int:
        return sum(1 for b in self.builds if b.player == seat)


# --- actions ------------------------------------------------------------------------


class Curse(Frozen):
    """Take 1–4 Runes from the stockpile and hand them out; ``runes`` per seat (BC-R09)."""

    model_config = ConfigDict(title="Curse")
    type: Literal["curse"] = "curse"
    runes: tuple[int, ...] = Field(title="Runes")


class Trade(Frozen):
    """A concluded deal with one other player (BC-R07, BC-R08). Cards are counted only."""

    model_config = ConfigDict(title="Trade")
    type: Literal["trade"] = "trade"
    partner: int = Field(title="Trade with")
    cards_received: int = Field(title="Parts cards you get")
    cards_given: int = Field(default=0, title="Parts cards you give")
    runes_received: int = Field(default=0, title="Runes you get")
    runes_given: int = Field(default=0, title="Runes you give")


class Draw(Frozen):
    """+1 Rune from the stockpile and 1 Parts card from the deck."""

    model_config = ConfigDict(title="Draw")
    type: Literal["draw"] = "draw"


class Reveal(Frozen):
    """Gain 2 Runes (BC-R04); the target shows 3 cards; ``take`` one of them (BC-R05)."""

    model_config = ConfigDict(title="Reveal")
    type: Literal["reveal"] = "reveal"
    target: int = Field(title="Whose hand")
    take: bool = Field(default=False, title="Take a card")


class Build(Frozen):
    """Complete the Blueprint in ``slot`` (1–3).

    Without a Blueprint table: ``rune_cost`` (3–6) and ``cards`` (Parts laid out,
    Accessories included) are required. With a table: ``parts`` (counts per type, with
    ``wild`` and ``accessory``) is required and the cost comes from the table.
    """

    model_config = ConfigDict(title="Build a Colossus")
    type: Literal["build"] = "build"
    slot: int = Field(title="Blueprint slot")
    rune_cost: int | None = Field(default=None, title="Rune Cost")
    accessories: int | None = Field(default=None, title="Accessories")
    cards: int | None = Field(default=None, title="Parts cards laid out")
    parts: dict[str, int] | None = Field(default=None, title="Parts laid out")
    blueprint: str | None = Field(default=None, title="Blueprint")
    colossus_name: str | None = Field(default=None, title="Colossus name")


class EndTurn(Frozen):
    """Declare the end of the turn. ``no_build_possible`` is the word forced_build asks for."""

    model_config = ConfigDict(title="End the turn")
    type: Literal["end_turn"] = "end_turn"
    no_build_possible: bool = Field(default=False, title="No Blueprint can be completed")


class PickWinner(Frozen):
    """The players' decision after a full tie (BC-R12): one seat, or several to share."""

    model_config = ConfigDict(title="Pick the winner")
    type: Literal["pick_winner"] = "pick_winner"
    seats: tuple[int, ...] = Field(title="Winners")


class CorrectRunes(Correction):
    """Manual correction (0.2.1): ``player`` holds ``runes`` Runes; the difference comes
    from or goes back to the unlimited stockpile (BC-R13)."""

    model_config = ConfigDict(title="Correct a player's Runes")
    type: Literal["correct_runes"] = "correct_runes"
    player: int = Field(title="Player")
    runes: int = Field(title="Runes")


class CorrectHand(Correction):
    """Manual correction (0.2.1): ``player`` holds ``cards`` Parts cards; the difference
    comes from or goes back to the Parts deck (the 135 cards are conserved)."""

    model_config = ConfigDict(title="Correct a hand")
    type: Literal["correct_hand"] = "correct_hand"
    player: int = Field(title="Player")
    cards: int = Field(title="Parts cards in hand")


class CorrectBuilt(Correction):
    """Manual correction (0.2.1): ``player`` has built ``colossi`` Colossi (the counter
    moves with it; the 10th ends the game as a build would, BC-R01)."""

    model_config = ConfigDict(title="Correct the Colossi built")
    type: Literal["correct_built"] = "correct_built"
    player: int = Field(title="Player")
    colossi: int = Field(title="Colossi built")


BuildersAction = Annotated[
    Curse
    | Trade
    | Draw
    | Reveal
    | Build
    | EndTurn
    | PickWinner
    | CorrectRunes
    | CorrectHand
    | CorrectBuilt,
    Field(discriminator="type"),
]


# --- events -------------------------------------------------------------------------


class RunesMoved(Event):
    """Runes changing hands; ``None`` on either side is the stockpile (BC-R13)."""

    type: Literal["runes_moved"] = "runes_moved"
    giver: int | None
    receiver: int | None
    amount: int


class PartsMoved(Event):
    """Parts cards moving (face down); ``None`` on either side is the Parts deck."""

    type: Literal["parts_moved"] = "parts_moved"
    giver: int | None
    receiver: int | None
    count: int
    refill: bool = False


class ActionTaken(Event):
    type: Literal["action_taken"] = "action_taken"
    player: int
    action: str


class ColossusBuilt(Event):
    type: Literal["colossus_built"] = "colossus_built"
    record: BuildRecord
    built: int


class TurnStarted(Event):
    type: Literal["turn_started"] = "turn_started"
    player: int
    turn: int


class ZeroCheck(Event):
    """A zero-Rune check set, won or lapsed (BC-R10)."""

    type: Literal["zero_check"] = "zero_check"
    player: int
    result: Literal["set", "won", "lapsed"]
    due_turn: int
