"""Options, state, actions, corrections and events of the solo Colossus game."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from companion.events import Event
from companion.games.colossus_solo.content import (
    ACTION_CARDS,
    ADVANCED_CARDS,
    COLOSSUS_CARDS,
    LINES,
    MAX_FINAL_BLOW_CARDS,
    MAX_REQUIREMENT,
    MAX_STAT,
    START_GRIP,
    START_WEAKNESS,
    TRACKER_MAX,
    TRACKER_MIN,
    CardTable,
    ColossusCard,
    DepletionTrigger,
    DrawTarget,
    LineName,
    Payment,
    Phase,
    Result,
)
from companion.games.corrections import (
    Correction,
)
from companion.games.options import option
from companion.model import Frozen
from companion.rules import GameState

# --- options, values, state ----------------------------------------------------------


class ColossusSoloOptions(Frozen):
    depletion_trigger: DepletionTrigger = option(
        "on_draw_attempt",
        "When an empty Action deck is reshuffled and its penalty paid.",
        "CS-R03",
        label="Empty Action deck",
        group="cards",
        words={
            "on_draw_attempt": "When a card is needed",
            "when_emptied": "When the last is drawn",
        },
        house_rule=True,
    )
    card_table: CardTable | None = option(
        None,
        "A card table; without it you enter each card's values when it is revealed.",
        "CS-R12",
        label="Card table",
        group="box",
        words={None: "Entered as you play"},
    )


class Stats(Frozen):
    """Net visible medallions per type: max(0, positives - negatives) (CS-R02)."""

    attack: int = Field(default=0, ge=0, le=MAX_STAT, title="Attack")
    grip: int = Field(default=0, ge=0, le=MAX_STAT, title="Grip")
    bonus: int = Field(default=0, ge=0, le=MAX_STAT, title="Bonus")
    climb: int = Field(default=0, ge=0, le=MAX_STAT, title="Climb")

    def of(self, name: LineName) -> int:
        value: int = getattr(self, name)
        return value

    def describe(self) -> str:
        return ", ".join(f"{n.capitalize()} {self.of(n)}" for n in LINES)


class FinalBlowValues(Frozen):
    """The three numbers the Final Blow card shows for the trackers' positions (CS-R05)."""

    n_cards: int = Field(ge=0, le=MAX_FINAL_BLOW_CARDS)
    grip_req: int = Field(ge=0, le=MAX_REQUIREMENT)
    attack_req: int = Field(ge=0, le=MAX_REQUIREMENT)


class RoundRecord(Frozen):
    """One score-sheet row: the trackers and the Colossus cards left after a round."""

    label: str
    weakness: int
    grip: int
    colossus_left: int


class ColossusSoloState(GameState):
    depletion_trigger: DepletionTrigger = "on_draw_attempt"
    card_table: CardTable | None = None
    final_blow_card: int | None = None  # table mode: index of the chosen Final Blow card
    phase: Phase
    round: int = Field(default=1, ge=1)
    weakness: int = START_WEAKNESS
    grip: int = START_GRIP
    action_deck: int = Field(default=ACTION_CARDS, ge=0)
    discard: int = Field(default=0, ge=0)
    playing_area: int = Field(default=0, ge=0)
    hand: int = Field(default=0, ge=0)
    destroyed: int = Field(default=0, ge=0)
    advanced_deck: int = Field(default=ADVANCED_CARDS, ge=0)
    advanced_added: int = Field(default=0, ge=0)
    colossus_left: int = Field(default=COLOSSUS_CARDS, ge=0)
    colossus_order: tuple[int, ...] = ()  # table mode: remaining cards, current first
    current_card: ColossusCard | None = None
    stats: Stats | None = None
    power_used: bool = False
    pending_draws: tuple[DrawTarget, ...] = ()
    after_draws: Literal["stats", "power_card"] = "stats"
    destroy_rights: int = Field(default=0, ge=0)
    final_blow: FinalBlowValues | None = None
    final_blow_deck: int = Field(default=0, ge=0)
    final_blow_stats: Stats | None = None
    result: Result | None = None
    history: tuple[RoundRecord, ...] = ()

    @property
    def card_number(self) -> int:
        """The Colossus card Netophah is on, 1..11: the next card to climb, and still the
        11th once all are climbed (the round that climbed it goes on; never "12/11")."""
        return COLOSSUS_CARDS - max(self.colossus_left, 1) + 1


# --- actions -------------------------------------------------------------------------


class EnterColossusCard(Frozen):
    """The values of the Colossus card just revealed (CS-R12; no card table)."""

    model_config = ConfigDict(title="Enter the Colossus card")
    type: Literal["enter_colossus_card"] = "enter_colossus_card"
    card: ColossusCard = Field(title="Colossus card")


class EnterStats(Frozen):
    """The visible stats, already netted (CS-R02). Bonus and Climb are ignored in the Final Blow."""

    model_config = ConfigDict(title="Enter the visible stats")
    type: Literal["enter_stats"] = "enter_stats"
    attack: int = Field(default=0, ge=0, le=MAX_STAT, title="Attack")
    grip: int = Field(default=0, ge=0, le=MAX_STAT, title="Grip")
    bonus: int = Field(default=0, ge=0, le=MAX_STAT, title="Bonus")
    climb: int = Field(default=0, ge=0, le=MAX_STAT, title="Climb")


class EnterMedallions(Frozen):
    """Visible positive and negative medallions counted separately; the app nets them (CS-R02)."""

    model_config = ConfigDict(title="Count the medallions")
    type: Literal["enter_medallions"] = "enter_medallions"
    positive: Stats = Field(title="Positive medallions")
    negative: Stats = Field(default_factory=Stats, title="Negative medallions")


class UsePower(Frozen):
    """Netophah's power: pay a level, then draw 1 Action card (CS-R04)."""

    model_config = ConfigDict(title="Use Netophah's power")
    type: Literal["use_power"] = "use_power"
    pay: Payment = Field(title="Pay with")


class DiscardPowerCard(Frozen):
    """Discard the card the power drew, unplayed; the level is not refunded (seed 003)."""

    model_config = ConfigDict(title="Discard the power's card")
    type: Literal["discard_power_card"] = "discard_power_card"


class ResolveCard(Frozen):
    """Skip (or do without) the power and resolve the Colossus card's four lines."""

    model_config = ConfigDict(title="Resolve the Colossus card")
    type: Literal["resolve_card"] = "resolve_card"


class PayPenalty(Frozen):
    """The depleted-deck penalty when both levels can be lost (CS-R03, CS-R04)."""

    model_config = ConfigDict(title="Pay the depleted-deck penalty")
    type: Literal["pay_penalty"] = "pay_penalty"
    pay: Payment = Field(title="Lose 1 level of")


class DestroyCards(Frozen):
    """Remove ``count`` cards of the Playing Area from the game (0 = keep them, CS-R11)."""

    model_config = ConfigDict(title="Destroy cards")
    type: Literal["destroy_cards"] = "destroy_cards"
    count: int = Field(ge=0, le=ACTION_CARDS + ADVANCED_CARDS, title="Cards to destroy")


class EnterFinalBlow(Frozen):
    """The Final Blow card's numbers for the trackers' positions (CS-R05; no card table)."""

    model_config = ConfigDict(title="Enter the Final Blow card")
    type: Literal["enter_final_blow"] = "enter_final_blow"
    n_cards: int = Field(ge=0, le=MAX_FINAL_BLOW_CARDS, title="Action cards to draw")
    grip_req: int = Field(ge=0, le=MAX_REQUIREMENT, title="Grip to reach")
    attack_req: int = Field(ge=0, le=MAX_REQUIREMENT, title="Attack to reach")


# --- manual corrections (0.2.1): each sets what the table shows ---------------------


class CorrectTrackers(Correction):
    """The Weakness and Grip trackers stand at these levels (1..8, CS-R01)."""

    model_config = ConfigDict(title="Correct the trackers")
    type: Literal["correct_trackers"] = "correct_trackers"
    weakness: int = Field(ge=TRACKER_MIN, le=TRACKER_MAX, title="Weakness")
    grip: int = Field(ge=TRACKER_MIN, le=TRACKER_MAX, title="Grip")


class CorrectCards(Correction):
    """Where the Action cards are. They must add up to 26 + the Advanced cards added
    (the Advanced deck holds the rest of the 6)."""

    model_config = ConfigDict(title="Correct the card counts")
    type: Literal["correct_cards"] = "correct_cards"
    action_deck: int = Field(title="Action deck")
    discard: int = Field(title="Discard pile")
    playing_area: int = Field(title="Playing Area")
    hand: int = Field(title="Hand")
    destroyed: int = Field(title="Destroyed")
    final_blow_deck: int = Field(title="Final Blow deck")
    advanced_added: int = Field(title="Advanced cards added")


class CorrectPower(Correction):
    """Whether Netophah's power was used this round (CS-R04, CS-R09)."""

    model_config = ConfigDict(title="Correct Netophah's power")
    type: Literal["correct_power"] = "correct_power"
    used: bool = Field(title="Power used this round")


class CorrectColossusCard(Correction):
    """The current Colossus card's values as printed (no card table, CS-R12)."""

    model_config = ConfigDict(title="Correct the Colossus card")
    type: Literal["correct_colossus_card"] = "correct_colossus_card"
    card: ColossusCard = Field(title="Colossus card")


class CorrectFinalBlow(Correction):
    """The Final Blow card's numbers as read (CS-R05); victory is checked again (CS-R07)."""

    model_config = ConfigDict(title="Correct the Final Blow card")
    type: Literal["correct_final_blow"] = "correct_final_blow"
    n_cards: int = Field(ge=0, le=MAX_FINAL_BLOW_CARDS, title="Action cards to draw")
    grip_req: int = Field(ge=0, le=MAX_REQUIREMENT, title="Grip to reach")
    attack_req: int = Field(ge=0, le=MAX_REQUIREMENT, title="Attack to reach")


ColossusSoloCorrection = (
    CorrectTrackers | CorrectCards | CorrectPower | CorrectColossusCard | CorrectFinalBlow
)

ColossusSoloAction = Annotated[
    EnterColossusCard
    | EnterStats
    | EnterMedallions
    | UsePower
    | DiscardPowerCard
    | ResolveCard
    | PayPenalty
    | DestroyCards
    | EnterFinalBlow
    | CorrectTrackers
    | CorrectCards
    | CorrectPower
    | CorrectColossusCard
    | CorrectFinalBlow,
    Field(discriminator="type"),
]


# --- events --------------------------------------------------------------------------


class CardsDrawn(Event):
    type: Literal["cards_drawn"] = "cards_drawn"
    centre: int
    hand: int


class DeckReshuffled(Event):
    type: Literal["deck_reshuffled"] = "deck_reshuffled"
    cards: int


class TrackerMoved(Event):
    type: Literal["tracker_moved"] = "tracker_moved"
    tracker: Payment
    before: int
    after: int


class StatsEntered(Event):
    type: Literal["stats_entered"] = "stats_entered"
    stats: Stats


class ColossusCardRevealed(Event):
    type: Literal["colossus_card_revealed"] = "colossus_card_revealed"
    number: int
    card: ColossusCard | None


class LineResolved(Event):
    type: Literal["line_resolved"] = "line_resolved"
    line: LineName
    required: int | None
    stat: int
    success: bool | None  # None: no value printed, the line is skipped (CS-R10)


class AdvancedCardGained(Event):
    type: Literal["advanced_card_gained"] = "advanced_card_gained"
    added: bool


class Climbed(Event):
    type: Literal["climbed"] = "climbed"
    colossus_left: int


class PowerUsed(Event):
    type: Literal["power_used"] = "power_used"
    paid: Payment


class PowerCardDiscarded(Event):
    type: Literal["power_card_discarded"] = "power_card_discarded"


class CardsDestroyed(Event):
    type: Literal["cards_destroyed"] = "cards_destroyed"
    count: int


class PlayingAreaDiscarded(Event):
    type: Literal["playing_area_discarded"] = "playing_area_discarded"
    count: int


class FinalBlowRevealed(Event):
    type: Literal["final_blow_revealed"] = "final_blow_revealed"
    values: FinalBlowValues
    deck_cards: int


class FinalBlowCardPlaced(Event):
    type: Literal["final_blow_card_placed"] = "final_blow_card_placed"
    attack: int
    grip: int
    cards_left: int
