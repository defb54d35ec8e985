"""The working copy that apply() changes: one round's steps, the trackers, the Final Blow."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Literal

from companion import words
from companion.events import Event, GameEnded
from companion.games.colossus_solo.content import (
    COLOSSUS_CARDS,
    LINES,
    LISTED_ATTACK_REQ,
    LISTED_CLIMB_VALUES,
    LISTED_FINAL_BLOW_CARDS,
    LISTED_GRIP_REQ,
    LISTED_PRINTED_VALUE,
    ROUND_DRAWS,
    TRACKER_MAX,
    TRACKER_MIN,
    ColossusCard,
    ColossusLine,
    DrawTarget,
    LineName,
    Payment,
    Phase,
    Result,
)
from companion.games.colossus_solo.model import (
    AdvancedCardGained,
    CardsDrawn,
    Climbed,
    ColossusCardRevealed,
    ColossusSoloState,
    DeckReshuffled,
    EnterColossusCard,
    EnterFinalBlow,
    EnterMedallions,
    EnterStats,
    FinalBlowCardPlaced,
    FinalBlowRevealed,
    FinalBlowValues,
    LineResolved,
    PlayingAreaDiscarded,
    RoundRecord,
    Stats,
    TrackerMoved,
)

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
                text="The Action deck is depleted: shuffle the discard pile "
                f"({words.count(cards, 'card')}) into a new Action deck, the End-of-Deck card "
                "underneath.",
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
                        text=f"{name.capitalize()} line: nothing printed, skipped.",
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
        left = words.count(self.colossus_left, "Colossus card")
        self.say(
            Climbed(
                text=f"Climb: discard the Colossus card ({left} left)."
                if self.colossus_left
                else "Climb: discard the last Colossus card; the Final Blow follows at the "
                "end of the round.",
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
                text=f"Discard the {words.count(count, 'card')} of the Playing Area."
                if count
                else "The Playing Area is empty: nothing to discard.",
                count=count,
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
                text="You reach Og's head: shuffle the discard pile "
                f"({words.count(cards, 'card')}) into the Action deck and reveal the Final "
                "Blow card.",
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
                text="Final Blow: form a deck of "
                f"{words.count(self.final_blow_deck, 'Action card')}; you "
                f"need {values.attack_req} Attack and {values.grip_req} Grip visible.",
                values=values,
                deck_cards=self.final_blow_deck,
            )
        )
        if self.final_blow_deck == 0:
            self.end("final_blow_failed")
        else:
            self.phase = "final_blow"

    def reform_final_blow_deck(self) -> int:
        """The Final Blow deck for corrected numbers: N_cards counting the cards already
        placed, the base among them (CS-R06), or every card left when fewer are (CS-R08).
        Returns how many cards move from the Action deck to it (negative: back)."""
        values = self.final_blow
        assert values is not None
        left = self.final_blow_deck + self.action_deck
        deck = max(0, min(values.n_cards - self.playing_area, left))
        moved = deck - self.final_blow_deck
        self.final_blow_deck = deck
        self.action_deck -= moved
        return moved

    def place_final_blow_card(self, stats: Stats) -> None:
        """One card from the Final Blow deck; victory is checked at once (CS-R06, CS-R07)."""
        values = self.final_blow
        assert values is not None
        self.final_blow_deck -= 1
        self.playing_area += 1
        self.final_blow_stats = stats
        self.say(
            FinalBlowCardPlaced(
                text=f"Final Blow card {self.playing_area}: Attack {stats.attack} of "
                f"{values.attack_req}, Grip {stats.grip} of {values.grip_req}.",
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


@lru_cache(maxsize=256)
def _listed_stats(card: ColossusCard) -> tuple[EnterStats, ...]:
    """One entry per way the card's four lines can succeed or fail; all zeros first.
    Made once per card: actions are immutable values, and a card is asked for again in
    every phase of its round (the kiosk keeps each listed action's label by identity)."""
    attack, grip, bonus, climb = (_stat_samples(card.line(name).value) for name in LINES)
    return tuple(
        EnterStats(attack=a, grip=g, bonus=b, climb=c)
        for a in attack
        for g in grip
        for b in bonus
        for c in climb
    )


@lru_cache(maxsize=256)
def _listed_final_blow_stats(values: FinalBlowValues) -> tuple[EnterStats, ...]:
    """One entry per way the Attack and Grip thresholds can be met or missed (made once
    per Final Blow card)."""
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
