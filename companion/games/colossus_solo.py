"""Referee of *Colossus*, the solo card game (seed 003): Netophah climbs the Titan Og.

The app never sees the cards: their medallion layouts are only printed (CS-R12). It keeps
the bookkeeping the player would otherwise do by hand (the two trackers, how many Action
cards are where, the Colossus deck, the Final Blow) and resolves the Colossus card's four
lines from the stats the player reads off the Playing Area. Drawing is counted, not
simulated: the app says how many cards to draw and notices when the Action deck runs out,
because that costs a tracker level (CS-R03, CS-R04).

Colossus card values are entered when a card is revealed, or come from an optional
user-built card table (:func:`parse_card_table`); with a table the app keeps a virtual
Colossus deck and picks the Final Blow card with the state's own generator.

The "Colossus in Eden" mode and the video rules are not in the rule documents and are
not refereed (CS-R13).

Referee decision (no ruling covers it): when a card must be drawn and both the Action
deck and the discard pile are empty (only possible after many cards were destroyed),
nothing can be reshuffled, so the draw is skipped without a penalty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from companion.errors import InvalidContent, InvalidPosition
from companion.events import Event, GameEnded
from companion.games.corrections import (
    Correction,
    change_text,
    check_count,
    corrected,
    game_over,
    impossible,
    nothing_to_correct,
)
from companion.games.options import option
from companion.games.parsing import parse_strict
from companion.model import Frozen
from companion.outcome import Outcome, ScoreRow, ScoreSheet
from companion.rng import Rng
from companion.rules import GameState, Rules, refuse

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

    value: int | None = Field(default=None, ge=0, le=MAX_LINE_VALUE)
    destroy: bool = False


class ColossusCard(Frozen):
    """A Colossus card's four lines, top to bottom: Attack, Grip, Bonus, Climb."""

    name: str = Field(default="", max_length=40)
    attack: ColossusLine = Field(default_factory=ColossusLine)
    grip: ColossusLine = Field(default_factory=ColossusLine)
    bonus: ColossusLine = Field(default_factory=ColossusLine)
    climb: ColossusLine = Field(default_factory=ColossusLine)

    def line(self, name: LineName) -> ColossusLine:
        line: ColossusLine = getattr(self, name)
        return line

    def describe(self) -> str:
        parts = []
        for name in LINES:
            line = self.line(name)
            value = "–" if line.value is None else str(line.value)
            parts.append(f"{name.capitalize()} {value}{' ✗' if line.destroy else ''}")
        return ", ".join(parts)


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
        f"{where}: the {name} line has a destroy icon but no value"
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


# --- options, values, state ----------------------------------------------------------


class ColossusSoloOptions(Frozen):
    depletion_trigger: DepletionTrigger = option(
        "on_draw_attempt",
        "When a depleted Action deck is reshuffled and the penalty paid: when a card "
        "must be drawn from the empty deck (on_draw_attempt) or the moment the last "
        "card is drawn (when_emptied).",
        "CS-R03",
    )
    card_table: CardTable | None = option(
        None,
        "Optional card table (11 Colossus cards, 3 Final Blow cards). Without it you "
        "enter each Colossus card's values when you reveal it and the Final Blow "
        "numbers when you reach the top.",
        "CS-R12",
    )


class Stats(Frozen):
    """Net visible medallions per type: max(0, positives - negatives) (CS-R02)."""

    attack: int = Field(default=0, ge=0, le=MAX_STAT)
    grip: int = Field(default=0, ge=0, le=MAX_STAT)
    bonus: int = Field(default=0, ge=0, le=MAX_STAT)
    climb: int = Field(default=0, ge=0, le=MAX_STAT)

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


# --- actions -------------------------------------------------------------------------


class EnterColossusCard(Frozen):
    """The values of the Colossus card just revealed (CS-R12; no card table)."""

    type: Literal["enter_colossus_card"] = "enter_colossus_card"
    card: ColossusCard


class EnterStats(Frozen):
    """The visible stats, already netted (CS-R02). Bonus and Climb are ignored in the Final Blow."""

    type: Literal["enter_stats"] = "enter_stats"
    attack: int = Field(default=0, ge=0, le=MAX_STAT)
    grip: int = Field(default=0, ge=0, le=MAX_STAT)
    bonus: int = Field(default=0, ge=0, le=MAX_STAT)
    climb: int = Field(default=0, ge=0, le=MAX_STAT)


class EnterMedallions(Frozen):
    """Visible positive and negative medallions counted separately; the app nets them (CS-R02)."""

    type: Literal["enter_medallions"] = "enter_medallions"
    positive: Stats
    negative: Stats = Field(default_factory=Stats)


class UsePower(Frozen):
    """Netophah's power: pay a level, then draw 1 Action card (CS-R04)."""

    type: Literal["use_power"] = "use_power"
    pay: Payment


class DiscardPowerCard(Frozen):
    type: Literal["discard_power_card"] = "discard_power_card"


class ResolveCard(Frozen):
    """Skip (or do without) the power and resolve the Colossus card's four lines."""

    type: Literal["resolve_card"] = "resolve_card"


class PayPenalty(Frozen):
    """The depleted-deck penalty when both levels can be lost (CS-R03, CS-R04)."""

    type: Literal["pay_penalty"] = "pay_penalty"
    pay: Payment


class DestroyCards(Frozen):
    """Remove ``count`` cards of the Playing Area from the game (0 = keep them, CS-R11)."""

    type: Literal["destroy_cards"] = "destroy_cards"
    count: int = Field(ge=0, le=ACTION_CARDS + ADVANCED_CARDS)


class EnterFinalBlow(Frozen):
    """The Final Blow card's numbers for the trackers' positions (CS-R05; no card table)."""

    type: Literal["enter_final_blow"] = "enter_final_blow"
    n_cards: int = Field(ge=0, le=MAX_FINAL_BLOW_CARDS)
    grip_req: int = Field(ge=0, le=MAX_REQUIREMENT)
    attack_req: int = Field(ge=0, le=MAX_REQUIREMENT)


# --- manual corrections (0.2.1): each sets what the table shows ---------------------


class CorrectTrackers(Correction):
    """The Weakness and Grip trackers stand at these levels (1..8, CS-R01)."""

    type: Literal["correct_trackers"] = "correct_trackers"
    weakness: int = Field(ge=TRACKER_MIN, le=TRACKER_MAX)
    grip: int = Field(ge=TRACKER_MIN, le=TRACKER_MAX)


class CorrectCards(Correction):
    """Where the Action cards are. They must add up to 26 + the Advanced cards added
    (the Advanced deck holds the rest of the 6)."""

    type: Literal["correct_cards"] = "correct_cards"
    action_deck: int
    discard: int
    playing_area: int
    hand: int
    destroyed: int
    final_blow_deck: int
    advanced_added: int


class CorrectPower(Correction):
    """Whether Netophah's power was used this round (CS-R04, CS-R09)."""

    type: Literal["correct_power"] = "correct_power"
    used: bool


class CorrectColossusCard(Correction):
    """The current Colossus card's values as printed (no card table, CS-R12)."""

    type: Literal["correct_colossus_card"] = "correct_colossus_card"
    card: ColossusCard


class CorrectFinalBlow(Correction):
    """The Final Blow card's numbers as read (CS-R05); victory is checked again (CS-R07)."""

    type: Literal["correct_final_blow"] = "correct_final_blow"
    n_cards: int = Field(ge=0, le=MAX_FINAL_BLOW_CARDS)
    grip_req: int = Field(ge=0, le=MAX_REQUIREMENT)
    attack_req: int = Field(ge=0, le=MAX_REQUIREMENT)


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


# --- the working copy apply() changes -----------------------------------------------


@dataclass
class _Play:
    """A mutable copy of the changing part of a state, turned back into a state at the end.

    Field names equal the state's, so :meth:`state` can copy them all back.
    """

    phase: Phase
    round: int
    weakness: int
    grip: int
    action_deck: int
    discard: int
    playing_area: int
    hand: int
    destroyed: int
    advanced_deck: int
    advanced_added: int
    colossus_left: int
    colossus_order: tuple[int, ...]
    current_card: ColossusCard | None
    stats: Stats | None
    power_used: bool
    pending_draws: tuple[DrawTarget, ...]
    after_draws: Literal["stats", "power_card"]
    destroy_rights: int
    final_blow: FinalBlowValues | None
    final_blow_deck: int
    final_blow_stats: Stats | None
    result: Result | None
    history: tuple[RoundRecord, ...]
    base: ColossusSoloState = field(repr=False)
    events: list[Event] = field(default_factory=list, repr=False)

    @classmethod
    def of(cls, state: ColossusSoloState) -> _Play:
        names = [f.name for f in fields(cls) if f.name not in ("base", "events")]
        return cls(base=state, **{n: getattr(state, n) for n in names})

    def state(self) -> ColossusSoloState:
        names = [f.name for f in fields(self) if f.name not in ("base", "events")]
        return self.base.evolve({n: getattr(self, n) for n in names})

    def say(self, event: Event) -> None:
        self.events.append(event)

    # trackers ----------------------------------------------------------------------

    def log_tracker(self, tracker: Payment, before: int, text: str) -> None:
        """Log that ``tracker`` went from ``before`` to where it stands now."""
        after: int = getattr(self, tracker)
        self.say(TrackerMoved(text=text, tracker=tracker, before=before, after=after))

    def lose(self, tracker: Payment, cause: str) -> None:
        """Lose one level; a Grip loss below 1 is a fall (CS-R01). W never goes below 1."""
        if tracker == "weakness":
            before = self.weakness
            self.weakness = max(TRACKER_MIN, before - 1)
            self.log_tracker("weakness", before, f"{cause}: Weakness {before} → {self.weakness}.")
            return
        before = self.grip
        if before == TRACKER_MIN:
            self.log_tracker("grip", before, f"{cause}: Grip would fall below 1 — Netophah falls.")
            self.end("fell")
            return
        self.grip = before - 1
        self.log_tracker("grip", before, f"{cause}: Grip {before} → {self.grip}.")

    def end(self, result: Result) -> None:
        self.result = result
        self.phase = "over"
        if result == "fell":
            self.history = (*self.history, self.record(f"Round {self.round} (fell)"))
        self.say(GameEnded(text=_result_text(result)))

    def record(self, label: str) -> RoundRecord:
        return RoundRecord(
            label=label, weakness=self.weakness, grip=self.grip, colossus_left=self.colossus_left
        )

    # drawing -----------------------------------------------------------------------

    def deplete(self) -> bool:
        """Reshuffle the discard pile into the deck and take the penalty (CS-R03, CS-R04).

        Returns False when play must stop: a penalty choice is asked, or the player fell.
        """
        cards = self.discard
        self.action_deck += cards
        self.discard = 0
        self.say(
            DeckReshuffled(
                text=f"The Action deck is depleted: shuffle the {cards} discarded cards into "
                "a new deck (End-of-Deck card underneath).",
                cards=cards,
            )
        )
        if self.weakness > TRACKER_MIN:
            self.phase = "penalty"
            return False
        self.lose("grip", "Depleted deck (Weakness is already 1, so Grip is lost)")
        return self.result is None

    def draw_pending(self) -> None:
        """Draw the cards still owed this step, stopping for a penalty choice or a fall."""
        trigger = self.base.depletion_trigger
        while self.pending_draws:
            if self.action_deck == 0:
                if self.discard == 0:
                    # Referee decision: nothing to reshuffle, nothing to draw.
                    self.pending_draws = self.pending_draws[1:]
                    self.say(
                        CardsDrawn(
                            text="No Action card is left to draw (deck and discard pile "
                            "are empty); this draw is skipped.",
                            centre=0,
                            hand=0,
                        )
                    )
                    continue
                if not self.deplete():
                    return
            target, self.pending_draws = self.pending_draws[0], self.pending_draws[1:]
            self.action_deck -= 1
            if target == "centre":
                self.playing_area += 1
                self.say(
                    CardsDrawn(
                        text="Draw the top Action card and place it in the centre.",
                        centre=1,
                        hand=0,
                    )
                )
            else:
                self.hand += 1
                self.say(CardsDrawn(text="Draw 1 Action card into your hand.", centre=0, hand=1))
            emptied = trigger == "when_emptied" and self.action_deck == 0 and self.discard > 0
            if emptied and not self.deplete():
                return
        self.phase = self.after_draws

    # round flow --------------------------------------------------------------------

    def start_round(self) -> None:
        self.stats = None
        self.power_used = False
        self.destroy_rights = 0
        if self.current_card is None:
            self.phase = "colossus_card"
            return
        self.begin_draws()

    def begin_draws(self) -> None:
        self.pending_draws = ROUND_DRAWS
        self.after_draws = "stats"
        self.draw_pending()

    def resolve(self) -> None:
        """Step 4: the Colossus card's lines top to bottom, then destroy or end the round."""
        card = self.current_card
        stats = self.stats
        assert card is not None and stats is not None
        for name in LINES:
            line = card.line(name)
            stat = stats.of(name)
            if line.value is None:
                self.say(
                    LineResolved(
                        text=f"{name.capitalize()} line: no value, skipped.",
                        line=name,
                        required=None,
                        stat=stat,
                        success=None,
                    )
                )
                continue
            success = stat >= line.value
            self.say(
                LineResolved(
                    text=f"{name.capitalize()} line: {stat} against {line.value} — "
                    f"{'success' if success else 'failure'}.",
                    line=name,
                    required=line.value,
                    stat=stat,
                    success=success,
                )
            )
            if name == "attack" and success:
                before = self.weakness
                self.weakness = min(TRACKER_MAX, before + 1)
                moved = (
                    f"Weakness {before} → {self.weakness}"
                    if self.weakness != before
                    else f"Weakness stays at {TRACKER_MAX}, the top"
                )
                self.log_tracker("weakness", before, f"The Colossus is weakened: {moved}.")
            elif name == "grip" and not success:
                self.lose("grip", "Grip line failed")
                if self.result is not None:
                    return  # the remaining lines are not resolved
            elif name == "bonus" and success:
                self.gain_advanced()
            elif name == "climb" and success:
                self.climb()
            if success and line.destroy:
                self.destroy_rights += 1
        if self.destroy_rights and self.playing_area:
            self.phase = "destroy"
        else:
            self.end_round()

    def gain_advanced(self) -> None:
        if self.advanced_deck == 0:
            self.say(
                AdvancedCardGained(
                    text="Bonus: the Advanced deck is empty, so nothing happens.", added=False
                )
            )
            return
        self.advanced_deck -= 1
        self.advanced_added += 1
        self.action_deck += 1
        self.say(
            AdvancedCardGained(
                text="Bonus: put the top Advanced Action card unseen on top of the Action deck.",
                added=True,
            )
        )

    def climb(self) -> None:
        self.colossus_left -= 1
        self.say(
            Climbed(
                text=f"Climb: discard the Colossus card ({self.colossus_left} left).",
                colossus_left=self.colossus_left,
            )
        )
        table = self.base.card_table
        if self.colossus_left == 0:
            self.current_card = None
            self.colossus_order = ()
            return
        number = COLOSSUS_CARDS - self.colossus_left + 1
        if table is not None:
            self.colossus_order = self.colossus_order[1:]
            self.current_card = table.colossus[self.colossus_order[0]]
            self.say(
                ColossusCardRevealed(
                    text=f"Reveal Colossus card {number}: {self.current_card.describe()}.",
                    number=number,
                    card=self.current_card,
                )
            )
        else:
            self.current_card = None
            self.say(
                ColossusCardRevealed(
                    text=f"Reveal Colossus card {number} and enter its values next round.",
                    number=number,
                    card=None,
                )
            )

    def end_round(self) -> None:
        count = self.playing_area
        self.discard += count
        self.playing_area = 0
        self.say(
            PlayingAreaDiscarded(
                text=f"Discard the {count} cards of the Playing Area.", count=count
            )
        )
        self.history = (*self.history, self.record(f"Round {self.round}"))
        if self.colossus_left == 0:
            self.start_final_blow()
            return
        self.round += 1
        self.start_round()

    # final blow --------------------------------------------------------------------

    def start_final_blow(self) -> None:
        """Reshuffle the discard pile into the deck and read the Final Blow card (CS-R05)."""
        cards = self.discard
        self.action_deck += cards
        self.discard = 0
        self.stats = None
        self.say(
            DeckReshuffled(
                text=f"You reach Og's head: shuffle the {cards} discarded cards into the "
                "Action deck and reveal the Final Blow card.",
                cards=cards,
            )
        )
        table = self.base.card_table
        index = self.base.final_blow_card
        if table is None or index is None:
            self.phase = "final_blow_values"
            return
        profile = table.final_blow[index]
        self.deal_final_blow(
            FinalBlowValues(
                n_cards=profile.n_cards[self.weakness - 1],
                grip_req=profile.grip_req[self.grip - 1],
                attack_req=profile.attack_req,
            )
        )

    def deal_final_blow(self, values: FinalBlowValues) -> None:
        """Form the Final Blow deck: N_cards, or every card left (CS-R08, no penalty)."""
        self.final_blow = values
        self.final_blow_deck = min(values.n_cards, self.action_deck)
        self.action_deck -= self.final_blow_deck
        self.say(
            FinalBlowRevealed(
                text=f"Final Blow: form a deck of {self.final_blow_deck} Action cards; you "
                f"need {values.attack_req} Attack and {values.grip_req} Grip visible.",
                values=values,
                deck_cards=self.final_blow_deck,
            )
        )
        if self.final_blow_deck == 0:
            self.end("final_blow_failed")
        else:
            self.phase = "final_blow"

    def place_final_blow_card(self, stats: Stats) -> None:
        """One card from the Final Blow deck; victory is checked at once (CS-R06, CS-R07)."""
        values = self.final_blow
        assert values is not None
        self.final_blow_deck -= 1
        self.playing_area += 1
        self.final_blow_stats = stats
        self.say(
            FinalBlowCardPlaced(
                text=f"Final Blow card {self.playing_area}: Attack {stats.attack}/"
                f"{values.attack_req}, Grip {stats.grip}/{values.grip_req}.",
                attack=stats.attack,
                grip=stats.grip,
                cards_left=self.final_blow_deck,
            )
        )
        self.check_final_blow()

    def check_final_blow(self) -> None:
        """Victory once both thresholds are met (CS-R07); defeat once the deck is spent."""
        values, stats = self.final_blow, self.final_blow_stats
        assert values is not None
        if (
            stats is not None
            and stats.attack >= values.attack_req
            and stats.grip >= values.grip_req
        ):
            self.history = (*self.history, self.record("Final Blow"))
            self.end("final_blow")
        elif self.final_blow_deck == 0:
            self.history = (*self.history, self.record("Final Blow"))
            self.end("final_blow_failed")


def _result_text(result: Result) -> str:
    return {
        "final_blow": "Victory: Netophah deals the Final Blow and Og falls.",
        "fell": "Defeat: Netophah loses his grip and falls from the Colossus.",
        "final_blow_failed": "Defeat: the Final Blow deck is spent and Og still stands.",
    }[result]


def _net(action: EnterStats | EnterMedallions) -> Stats:
    """The stats an entry stands for: positives minus negatives, never below 0 (CS-R02)."""
    if isinstance(action, EnterStats):
        return Stats(attack=action.attack, grip=action.grip, bonus=action.bonus, climb=action.climb)
    pos, neg = action.positive, action.negative
    return Stats(**{n: max(0, pos.of(n) - neg.of(n)) for n in LINES})


def _stat_samples(required: int | None) -> tuple[int, ...]:
    """A line's listed stat values: 0, and the value that meets it (if it needs more)."""
    return (0, required) if required else (0,)


def _listed_stats(card: ColossusCard) -> tuple[EnterStats, ...]:
    """One entry per way the card's four lines can succeed or fail; all zeros first."""
    attack, grip, bonus, climb = (_stat_samples(card.line(name).value) for name in LINES)
    return tuple(
        EnterStats(attack=a, grip=g, bonus=b, climb=c)
        for a in attack
        for g in grip
        for b in bonus
        for c in climb
    )


def _listed_final_blow_stats(values: FinalBlowValues) -> tuple[EnterStats, ...]:
    """One entry per way the Attack and Grip thresholds can be met or missed."""
    return tuple(
        EnterStats(attack=a, grip=g)
        for a in _stat_samples(values.attack_req)
        for g in _stat_samples(values.grip_req)
    )


# Listed actions are immutable values, so they are built once.
_PRINTED: tuple[int | None, ...] = (None, LISTED_PRINTED_VALUE)
_LISTED_CARDS: tuple[EnterColossusCard, ...] = tuple(
    EnterColossusCard(
        card=ColossusCard(
            attack=ColossusLine(value=a, destroy=icon == "attack"),
            grip=ColossusLine(value=g),
            bonus=ColossusLine(value=b),
            climb=ColossusLine(value=c, destroy=icon == "climb"),
        )
    )
    for c in LISTED_CLIMB_VALUES
    for a in _PRINTED
    for g in _PRINTED
    for b in _PRINTED
    for icon in ("none", "attack", "climb")
    if icon != "attack" or a is not None
)
_LISTED_FINAL_BLOW_VALUES: tuple[EnterFinalBlow, ...] = tuple(
    EnterFinalBlow(n_cards=n, grip_req=g, attack_req=a)
    for n in LISTED_FINAL_BLOW_CARDS
    for g in LISTED_GRIP_REQ
    for a in LISTED_ATTACK_REQ
)

# Random play favours met lines, the Climb above all, so it reaches the Final Blow.
_PROGRESS_WEIGHTS: tuple[tuple[LineName, int], ...] = (("climb", 30), ("grip", 4), ("attack", 2))

_FINAL_BLOW_PHASES = ("final_blow_values", "final_blow")

_PHASE_ASK: dict[str, str] = {
    "colossus_card": "enter the revealed Colossus card's values",
    "stats": "place your 3 cards and enter the visible stats",
    "power": "use Netophah's power or resolve the Colossus card",
    "power_card": "place the drawn card and enter the new stats, or discard it",
    "penalty": "Action deck reshuffled: lose 1 Weakness or 1 Grip",
    "final_blow_values": "enter the Final Blow card's values",
}


class ColossusSoloRules(Rules[ColossusSoloState, ColossusSoloAction, ColossusSoloOptions]):
    name = "colossus_solo"
    title = "Colossus"
    seed_document = "003"
    min_players = 1
    max_players = 1
    options_model = ColossusSoloOptions
    state_model = ColossusSoloState
    action_adapter: TypeAdapter[ColossusSoloAction] = TypeAdapter(ColossusSoloAction)

    # --- setup -----------------------------------------------------------------------

    def setup(
        self, players: Sequence[str], options: ColossusSoloOptions, seed: int
    ) -> ColossusSoloState:
        names = self.check_players(players)
        rng = Rng(seed=seed)
        table = options.card_table
        if table is not None:
            table = parse_card_table(table)  # InvalidContent (CS-R12)
        state = ColossusSoloState(
            players=names,
            rng=rng,
            depletion_trigger=options.depletion_trigger,
            card_table=table,
            phase="colossus_card",
        )
        if table is not None:
            order, rng = rng.shuffle(range(COLOSSUS_CARDS))
            final_blow_card, rng = rng.randint(0, FINAL_BLOW_CARDS - 1)
            state = state.evolve(
                {
                    "rng": rng,
                    "colossus_order": order,
                    "current_card": table.colossus[order[0]],
                    "final_blow_card": final_blow_card,
                }
            )
        play = _Play.of(state)
        play.start_round()
        return play.state()

    # --- actions ---------------------------------------------------------------------

    def legal_actions(self, state: ColossusSoloState) -> Iterable[ColossusSoloAction]:
        """Every legal choice; entered numbers are a bounded representative sample.

        Stats are listed as 0 or the value each line of the current card (or the Final
        Blow) needs, cards and Final Blow numbers from the LISTED_* values. ``apply``
        accepts the whole range, ``enter_medallions`` included (never listed: it is the
        same stats counted another way).
        """
        phase = state.phase
        if phase == "colossus_card":
            return _LISTED_CARDS
        if phase in ("stats", "power_card"):
            card = state.current_card
            assert card is not None  # position_problems: these phases need a card
            stats = _listed_stats(card)
            return stats if phase == "stats" else (DiscardPowerCard(), *stats)
        if phase == "power":
            actions: list[ColossusSoloAction] = [ResolveCard()]
            if self.power_allowed(state):
                actions.extend(
                    UsePower(pay=p) for p in ("weakness", "grip") if self.can_pay(state, p)
                )
            return actions
        if phase == "penalty":  # a correction may have set Weakness to 1 meanwhile (CS-R04)
            if state.weakness == TRACKER_MIN:
                return (PayPenalty(pay="grip"),)
            return (PayPenalty(pay="weakness"), PayPenalty(pay="grip"))
        if phase == "destroy":
            top = min(state.destroy_rights, state.playing_area)
            return tuple(DestroyCards(count=k) for k in range(top + 1))
        if phase == "final_blow_values":
            return _LISTED_FINAL_BLOW_VALUES
        if phase == "final_blow":
            values = state.final_blow
            assert values is not None  # position_problems: the Final Blow needs its values
            return _listed_final_blow_stats(values)
        return ()

    @staticmethod
    def can_pay(state: ColossusSoloState, pay: Payment) -> bool:
        """Netophah's power may not cost a fatal Grip loss nor Weakness below 1 (CS-R04)."""
        level = state.weakness if pay == "weakness" else state.grip
        return level > TRACKER_MIN

    @staticmethod
    def power_allowed(state: ColossusSoloState) -> bool:
        return (
            state.phase == "power"
            and not state.power_used
            and state.action_deck + state.discard > 0
        )

    def apply(
        self, state: ColossusSoloState, action: ColossusSoloAction
    ) -> tuple[ColossusSoloState, tuple[Event, ...]]:
        if isinstance(action, Correction):
            return self._correct(state, action)
        phase = state.phase
        if phase == "over":
            raise refuse("The game is over.")
        play = _Play.of(state)
        if isinstance(action, EnterColossusCard):
            if phase != "colossus_card":
                raise refuse(
                    "No Colossus card is waiting for its values now."
                    if state.card_table is None
                    else "The card table gives the Colossus cards' values.",
                    "CS-R12",
                )
            problems = card_problems(action.card, "This card")
            if problems:
                raise refuse("; ".join(problems) + ".", "CS-R12")
            play.current_card = action.card
            number = COLOSSUS_CARDS - state.colossus_left + 1
            play.say(
                ColossusCardRevealed(
                    text=f"Colossus card {number}: {action.card.describe()}.",
                    number=number,
                    card=action.card,
                )
            )
            play.begin_draws()
        elif isinstance(action, EnterStats | EnterMedallions):
            stats = _net(action)
            if phase == "stats":
                play.playing_area += play.hand
                play.hand = 0
                play.stats = stats
                play.phase = "power"
                play.say(StatsEntered(text=f"Visible stats: {stats.describe()}.", stats=stats))
            elif phase == "power_card":
                play.playing_area += play.hand
                play.hand = 0
                play.stats = stats
                play.say(
                    StatsEntered(
                        text=f"Power card placed; visible stats: {stats.describe()}.",
                        stats=stats,
                    )
                )
                play.resolve()
            elif phase == "final_blow":
                play.place_final_blow_card(stats)
            else:
                raise refuse(f"Stats are not asked for now: {self._ask(state)}.", "CS-R12")
        elif isinstance(action, UsePower):
            self._check_power(state, action.pay)
            play.power_used = True
            play.say(
                PowerUsed(
                    text=f"Netophah's power: pay 1 {action.pay.capitalize()} level and draw "
                    "1 Action card.",
                    paid=action.pay,
                )
            )
            play.lose(action.pay, "Netophah's power")
            play.pending_draws = ("hand",)
            play.after_draws = "power_card"
            play.draw_pending()
        elif isinstance(action, DiscardPowerCard):
            if phase != "power_card":
                raise refuse("There is no power card to discard.", "CS-R04")
            play.discard += play.hand
            play.hand = 0
            play.say(
                PowerCardDiscarded(
                    text="The power's card is discarded unplayed (the level is not refunded)."
                )
            )
            play.resolve()
        elif isinstance(action, ResolveCard):
            if phase != "power":
                raise refuse(f"The Colossus card is not resolved now: {self._ask(state)}.")
            play.resolve()
        elif isinstance(action, PayPenalty):
            if phase != "penalty":
                raise refuse("No depleted-deck penalty is due now.", "CS-R03")
            if action.pay == "weakness" and state.weakness == TRACKER_MIN:
                raise refuse(
                    "Weakness is already at 1; the penalty must be paid in Grip.", "CS-R04"
                )
            play.lose(action.pay, "Depleted deck")
            if play.result is None:
                play.draw_pending()
        elif isinstance(action, DestroyCards):
            if phase != "destroy":
                raise refuse("No destroy rights are being used now.", "CS-R11")
            top = min(state.destroy_rights, state.playing_area)
            if action.count > top:
                raise refuse(
                    f"You may destroy at most {top} card{'s' if top != 1 else ''} now "
                    f"({state.destroy_rights} destroy right"
                    f"{'s' if state.destroy_rights != 1 else ''}, "
                    f"{state.playing_area} cards in the Playing Area).",
                    "CS-R11",
                )
            play.playing_area -= action.count
            play.destroyed += action.count
            play.destroy_rights = 0
            play.say(
                CardsDestroyed(
                    text=f"Return {action.count} card{'s' if action.count != 1 else ''} of "
                    "the Playing Area to the box.",
                    count=action.count,
                )
            )
            play.end_round()
        else:  # EnterFinalBlow
            if phase != "final_blow_values":
                raise refuse("The Final Blow values are not asked for now.", "CS-R05")
            play.deal_final_blow(
                FinalBlowValues(
                    n_cards=action.n_cards, grip_req=action.grip_req, attack_req=action.attack_req
                )
            )
        return play.state(), tuple(play.events)

    # --- manual corrections (0.2.1) ---------------------------------------------------

    def corrections(self, state: ColossusSoloState) -> tuple[ColossusSoloAction, ...]:
        """The trackers, the card counts, the power, the card values the player entered."""
        if state.phase == "over":
            return ()
        out: list[ColossusSoloAction] = [
            CorrectTrackers(weakness=state.weakness, grip=state.grip),
            CorrectCards(
                action_deck=state.action_deck,
                discard=state.discard,
                playing_area=state.playing_area,
                hand=state.hand,
                destroyed=state.destroyed,
                final_blow_deck=state.final_blow_deck,
                advanced_added=state.advanced_added,
            ),
        ]
        if state.phase not in _FINAL_BLOW_PHASES:
            out.append(CorrectPower(used=state.power_used))
        if state.card_table is None and state.current_card is not None:
            out.append(CorrectColossusCard(card=state.current_card))
        if state.phase == "final_blow" and state.final_blow is not None:
            values = state.final_blow
            out.append(
                CorrectFinalBlow(
                    n_cards=values.n_cards, grip_req=values.grip_req, attack_req=values.attack_req
                )
            )
        return tuple(out)

    def _correct(
        self, state: ColossusSoloState, action: Correction
    ) -> tuple[ColossusSoloState, tuple[Event, ...]]:
        if state.phase == "over":
            raise game_over()
        play = _Play.of(state)
        if isinstance(action, CorrectTrackers):
            if (action.weakness, action.grip) == (state.weakness, state.grip):
                raise nothing_to_correct(
                    f"the trackers already show Weakness {state.weakness}, Grip {state.grip}"
                )
            play.weakness, play.grip = action.weakness, action.grip
            text = (
                f"Weakness {change_text(state.weakness, action.weakness)}, "
                f"Grip {change_text(state.grip, action.grip)}."
            )
        elif isinstance(action, CorrectCards):
            text = self._correct_cards(state, play, action)
        elif isinstance(action, CorrectPower):
            if state.phase in _FINAL_BLOW_PHASES:
                raise impossible("Netophah's power does not exist during the Final Blow.", "CS-R09")
            if action.used == state.power_used:
                raise nothing_to_correct(
                    "the power is already marked " + ("used" if action.used else "unused")
                )
            play.power_used = action.used
            text = "Netophah's power " + (
                "was used this round." if action.used else "is still available this round."
            )
        elif isinstance(action, CorrectColossusCard):
            if state.card_table is not None:
                raise impossible("The card table gives the Colossus cards' values.", "CS-R12")
            if state.current_card is None:
                raise impossible("No Colossus card has been entered yet.", "CS-R12")
            problems = card_problems(action.card, "This card")
            if problems:
                raise impossible("; ".join(problems) + ".", "CS-R12")
            if action.card == state.current_card:
                raise nothing_to_correct("the Colossus card already has these values")
            play.current_card = action.card
            text = f"the Colossus card reads {action.card.describe()}."
        elif isinstance(action, CorrectFinalBlow):
            if state.phase != "final_blow" or state.final_blow is None:
                raise impossible("The Final Blow card is not revealed yet.", "CS-R05")
            values = FinalBlowValues(
                n_cards=action.n_cards, grip_req=action.grip_req, attack_req=action.attack_req
            )
            if values == state.final_blow:
                raise nothing_to_correct("the Final Blow card already has these numbers")
            play.final_blow = values
            text = (
                f"the Final Blow card shows {values.n_cards} cards, Grip {values.grip_req}, "
                f"Attack {values.attack_req}."
            )
        else:
            raise impossible("Colossus has no such correction.")
        play.events.insert(0, corrected(action.type, text))
        if play.phase == "final_blow":
            play.check_final_blow()  # CS-R07 / CS-R08 with the corrected numbers
        return play.state(), tuple(play.events)

    @staticmethod
    def _correct_cards(state: ColossusSoloState, play: _Play, action: CorrectCards) -> str:
        """Card counts; the total is conserved, and a Final Blow deck only exists then."""
        counts = {
            "Action deck": action.action_deck,
            "discard pile": action.discard,
            "Playing Area": action.playing_area,
            "hand": action.hand,
            "destroyed": action.destroyed,
            "Final Blow deck": action.final_blow_deck,
        }
        for label, value in counts.items():
            check_count(value, f"The {label}")
        check_count(action.advanced_added, "Advanced cards added", high=ADVANCED_CARDS)
        total = sum(counts.values())
        if total != ACTION_CARDS + action.advanced_added:
            raise impossible(
                f"These counts add up to {total} Action cards, but with "
                f"{action.advanced_added} Advanced cards added there are "
                f"{ACTION_CARDS + action.advanced_added}."
            )
        if action.final_blow_deck and state.phase != "final_blow":
            raise impossible("There is no Final Blow deck before the Final Blow.")
        before = (
            state.action_deck,
            state.discard,
            state.playing_area,
            state.hand,
            state.destroyed,
            state.final_blow_deck,
            state.advanced_added,
        )
        after = (*counts.values(), action.advanced_added)
        if before == after:
            raise nothing_to_correct("the card counts are already these")
        play.action_deck = action.action_deck
        play.discard = action.discard
        play.playing_area = action.playing_area
        play.hand = action.hand
        play.destroyed = action.destroyed
        play.final_blow_deck = action.final_blow_deck
        play.advanced_added = action.advanced_added
        play.advanced_deck = ADVANCED_CARDS - action.advanced_added
        names = (*counts, "Advanced added")
        changed = [
            f"{label} {change_text(old, new)}"
            for label, old, new in zip(names, before, after, strict=True)
            if old != new
        ]
        return ", ".join(changed) + "."

    def _check_power(self, state: ColossusSoloState, pay: Payment) -> None:
        if state.phase in ("final_blow", "final_blow_values"):
            raise refuse("Netophah's power cannot be used during the Final Blow.", "CS-R09")
        if state.phase != "power":
            raise refuse(
                "Netophah's power is used at the very start of step 4, after the stats are entered."
            )
        if state.power_used:
            raise refuse("Netophah's power is used at most once per round.")
        if pay == "weakness" and not self.can_pay(state, "weakness"):
            raise refuse("Weakness is at 1, so it cannot pay for the power.", "CS-R04")
        if pay == "grip" and not self.can_pay(state, "grip"):
            raise refuse("Grip is at 1: paying it would make Netophah fall.", "CS-R04")
        if state.action_deck + state.discard == 0:
            raise refuse("There is no Action card left to draw for the power.")

    # --- reading the state -----------------------------------------------------------

    def outcome(self, state: ColossusSoloState) -> Outcome | None:
        if state.result is None:
            return None
        return Outcome(
            winners=(0,) if state.result == "final_blow" else (),
            reason=state.result,
            text=_result_text(state.result),
        )

    def current_player(self, state: ColossusSoloState) -> int | None:
        return None if state.result is not None else 0

    def _ask(self, state: ColossusSoloState) -> str:
        if state.phase == "destroy":
            top = min(state.destroy_rights, state.playing_area)
            return f"destroy up to {top} card{'s' if top != 1 else ''} of the Playing Area"
        if state.phase == "final_blow":
            return "place the next card and enter the visible Attack and Grip"
        if state.phase == "power" and state.action_deck == 0 and self.power_allowed(state):
            return _PHASE_ASK["power"] + " (the power's draw would reshuffle the deck)"
        return _PHASE_ASK.get(state.phase, "")

    def status(self, state: ColossusSoloState) -> str:
        trackers = f"W {state.weakness} · G {state.grip}"
        if state.result is not None:
            return f"{_result_text(state.result)} · {trackers}"
        if state.phase in ("final_blow", "final_blow_values"):
            head = "Final Blow"
            values = state.final_blow
            if values is not None:
                total = state.playing_area + state.final_blow_deck
                head += (
                    f" · card {state.playing_area + 1}/{total} · need Attack "
                    f"{values.attack_req} and Grip {values.grip_req}"
                )
            return f"{head} · {trackers} · {self._ask(state)}"
        if state.colossus_left == 0:  # the last card is climbed; the round still ends
            where = f"all {COLOSSUS_CARDS} Colossus cards climbed"
        else:
            where = f"Colossus card {COLOSSUS_CARDS - state.colossus_left + 1}/{COLOSSUS_CARDS}"
        return f"Round {state.round} · {where} · {trackers} · {self._ask(state)}"

    def scores(self, state: ColossusSoloState) -> ScoreSheet:
        return ScoreSheet(
            measure="weakness/grip",
            columns=("Weakness", "Grip", "Colossus cards left"),
            rows=tuple(
                ScoreRow(label=r.label, values=(r.weakness, r.grip, r.colossus_left))
                for r in state.history
            ),
        )

    def interest(self, state: ColossusSoloState, action: ColossusSoloAction) -> int:
        """Weights for random play: climbing and the Final Blow are progress."""
        if isinstance(action, EnterStats | EnterMedallions):
            stats = _net(action)
            if state.phase == "final_blow":
                values = state.final_blow
                if values is None:
                    return 1
                won = stats.attack >= values.attack_req and stats.grip >= values.grip_req
                return 40 if won else 1
            card = state.current_card
            if card is None:
                return 1
            weight = 1
            for name, bonus in _PROGRESS_WEIGHTS:
                value = card.line(name).value
                if value is not None and stats.of(name) >= value:
                    weight += bonus
            return weight
        if isinstance(action, ResolveCard):
            return 6
        if isinstance(action, DestroyCards):
            return 3 if action.count == 0 else 1
        return 1

    def check_position(self, state: ColossusSoloState) -> None:
        problems = position_problems(state)
        if problems:
            raise InvalidPosition("Not a consistent Colossus position: " + "; ".join(problems))


def cards_in_play(state: ColossusSoloState) -> int:
    """Every Action card the counters account for (must equal 26 + Advanced added)."""
    return (
        state.action_deck
        + state.discard
        + state.playing_area
        + state.hand
        + state.destroyed
        + state.final_blow_deck
    )


def position_problems(state: ColossusSoloState) -> list[str]:
    """Invariants a loaded position must keep: tracker bounds, card counts, phase data."""
    problems: list[str] = []
    for label, level in (("Weakness", state.weakness), ("Grip", state.grip)):
        if not TRACKER_MIN <= level <= TRACKER_MAX:
            problems.append(f"{label} {level} is outside {TRACKER_MIN}..{TRACKER_MAX}")
    if cards_in_play(state) != ACTION_CARDS + state.advanced_added:
        problems.append(
            f"the Action cards add up to {cards_in_play(state)}, "
            f"not {ACTION_CARDS + state.advanced_added}"
        )
    if state.advanced_deck + state.advanced_added != ADVANCED_CARDS:
        problems.append("Advanced deck plus Advanced cards added is not 6")
    if state.colossus_left > COLOSSUS_CARDS:
        problems.append(f"{state.colossus_left} Colossus cards left (the game has 11)")
    if len(state.players) != 1:
        problems.append("Colossus is played by exactly 1 player")
    if (state.phase == "over") != (state.result is not None):
        problems.append("the phase and the result disagree")
    table = state.card_table
    if table is not None:
        problems.extend(card_table_problems(table))
        if len(state.colossus_order) != state.colossus_left:
            problems.append("the virtual Colossus deck does not match the cards left")
        elif state.colossus_order and not problems:
            if any(not 0 <= i < len(table.colossus) for i in state.colossus_order):
                problems.append("the virtual Colossus deck names an unknown card")
            elif state.current_card != table.colossus[state.colossus_order[0]]:
                problems.append("the current Colossus card is not the top of the virtual deck")
        if state.final_blow_card is None or not 0 <= state.final_blow_card < FINAL_BLOW_CARDS:
            problems.append("the Final Blow card is not chosen")
    needs_card = ("stats", "power", "power_card")
    if state.phase in needs_card and (state.current_card is None):
        problems.append(f"phase {state.phase} needs a current Colossus card")
    if state.phase in ("power", "power_card") and state.stats is None:
        problems.append(f"phase {state.phase} needs the round's stats")
    if state.phase == "final_blow" and state.final_blow is None:
        problems.append("the Final Blow values are missing")
    return problems


RULES = ColossusSoloRules()

__all__ = [
    "RULES",
    "CardTable",
    "ColossusCard",
    "ColossusLine",
    "ColossusSoloCorrection",
    "ColossusSoloOptions",
    "ColossusSoloRules",
    "ColossusSoloState",
    "CorrectCards",
    "CorrectColossusCard",
    "CorrectFinalBlow",
    "CorrectPower",
    "CorrectTrackers",
    "FinalBlowProfile",
    "Stats",
    "card_table_problems",
    "cards_in_play",
    "parse_card_table",
    "position_problems",
]
