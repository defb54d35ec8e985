"""The companion at the table, without Kivy: which seats it plays, its turn on the play
screen, its move said and lit for a hand to make, "Why?", and a person's hint.

A seat is a person's or the companion's at a level (Easy, Medium, Hard; in Kolossus a
seat is a player, who runs one or two warbands, RULINGS 1.4). Which seats the companion
plays is the kiosk's state of the game, not the referee's: a note beside the game's
moves (:data:`NOTE_KEY`, written with the game's header in one commit by
``Session.new(notes=…)``), so a resumed game — after a power cut — has the same seats
and the companion thinks again where it was.

:class:`CompanionTurn` follows the game on screen. When a companion seat is to move (no
dice awaited, no table to fix, the game not over) it asks its :class:`Runner` to run the
bot's decision off the UI thread (``kiosk/thinker.py``: a thread; tests pass one that
runs when told). The decision is made on the seat's view only (``companion.bots.decide``)
within the level's budget. Then the move is said in players' words
(``Rules.describe``) and lit on the board and the LEDs (the lesson's suggestion path,
``PlayPresenter.follow_guide``); a person makes it with their hand and taps "Done",
which submits it as a tap would — or a sensing board reads it and submits it itself.
Dice the companion needs are the table's: the dice panel asks for them as for a person.

Undo, or leaving the screen, cancels a decision under way (``Budget.cancel``; its late
answer is dropped and the game is unchanged). After an Undo the companion waits for
"Let the companion play", so a move taken back is not played again at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from companion import words
from companion.bots import DEFAULT_BUDGET_SECONDS, Budget, Decision, Level, make_bot
from companion.bots import decide as bot_decide
from companion.bots.core import Clock
from companion.bots.deals import declines, partner_of
from companion.errors import RefereeError, RuleViolation
from companion.highlights import Highlight, suggestion_marks
from companion.model import Frozen
from companion.rules import GameState
from companion.table_steps import HandStep
from companion.views import ActionCells
from kiosk.presenters.common import Banner
from kiosk.presenters.companion_seats import CompanionSeats, plays, seat_label
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.queries import Payload
from kiosk.presenters.sensing_verdicts import Wanted

log = logging.getLogger(__name__)

PASSED_BUTTONS = frozenset({"undo", "redo", "menu", "admin"})
"""The table's buttons the companion's turn leaves to the game: taking back, navigating."""

HINT_LEVEL: Level = "medium"
"""The level of "What would the companion do?" (a hint for a person)."""


# --- thinking off the UI thread ------------------------------------------------------

Think = Callable[[], Decision]
Done = Callable[[Decision | Exception], None]


class Runner(Protocol):
    """Runs ``think`` away from the UI thread and hands its decision (or the exception
    it raised) to ``done`` on the UI thread (``kiosk/thinker.py``)."""

    def start(self, think: Think, done: Done) -> None: ...


@dataclass
class _Thinking:
    state: GameState
    seat: int
    budget: Budget
    hint: bool


@dataclass(frozen=True)
class Proposal:
    """A decision shown for a hand to make."""

    state: GameState
    seat: int
    action: Frozen
    cells: ActionCells
    payload: Payload
    words: str
    reason: str
    marks: tuple[Highlight, ...]
    hint: bool


@dataclass(frozen=True)
class HiddenHand:
    """A companion's hand of cards, kept on the table face down: its number of cards
    only (the referee counts a hand, it never knows a face)."""

    who: str
    count: int

    @property
    def text(self) -> str:
        return f"{self.who}'s hand: {words.count(self.count, 'card')}, face down"


@dataclass(frozen=True)
class CompanionView:
    """The companion's part of the play screen (None from :meth:`CompanionTurn.view`
    when it has nothing to say)."""

    text: str  # "Companion (Hard) is thinking" / "Companion (Hard) plays: …"
    thinking: bool
    can_confirm: bool  # "Done": the move is made on the board
    can_explain: bool  # "Why?"
    why: str  # the reason in one line, once "Why?" was tapped
    paused: bool  # "Let the companion play" (after an Undo)
    can_hint: bool  # "What would the companion do?" (teach mode, a person to move)
    hands: tuple[HiddenHand, ...] = ()  # card games: its hands, face down


@dataclass(frozen=True)
class CompanionGuide:
    """What the play presenter follows for the companion (``follow_guide``): the lights
    of its move, and the move it wants made on the table (a sensing board plays that
    one and refuses any other: ``kiosk/presenters/sensing_verdicts.py``)."""

    turn: CompanionTurn

    def __call__(self) -> tuple[Highlight, ...]:
        return self.turn.marks()

    def wanted(self) -> Wanted | None:
        return self.turn.wanted()


class CompanionTurn:
    """The companion's seats in the game of ``play`` (see the module docstring)."""

    def __init__(
        self,
        play: PlayPresenter,
        seats: CompanionSeats,
        runner: Runner,
        clock: Clock = time.monotonic,
        *,
        follow: bool = True,
    ) -> None:
        """``follow``: check each change itself (False: the kiosk's change pipeline
        calls :meth:`check` first, before the LEDs and the screen)."""
        self.play = play
        self.seats = seats
        self.runner = runner
        self.clock = clock
        self.thinking: _Thinking | None = None
        self.proposal: Proposal | None = None
        self.paused = False
        self.why_open = False
        self.failure = ""
        self._actions = len(play.session.actions)
        self._closed = False
        self._follow = follow
        self.guide = CompanionGuide(self)
        play.follow_guide(self.guide)
        play.hold_turn(self.holds)
        play.answer_deals(self.answers)
        if follow:
            play.subscribe(self.check)
        self.check()

    # --- following the game -------------------------------------------------------------

    def close(self) -> None:
        """The game is left (Home, another game): a decision under way is cancelled and
        its answer dropped; nothing is lit any more."""
        self._closed = True
        self._cancel()
        self.proposal = None
        if self._follow:
            self.play.unsubscribe(self.check)
        if self.play.guide is self.guide:
            self.play.follow_guide(None)
        if self.play.held == self.holds:
            self.play.hold_turn(None)
        if self.play.deal_answer == self.answers:
            self.play.answer_deals(None)

    def _cancel(self) -> None:
        if self.thinking is not None:
            self.thinking.budget.cancel()
            self.thinking = None

    def _to_move(self) -> int | None:
        """The companion seat to move now, when it may think (else None)."""
        play = self.play
        if play.queries.outcome is not None or play.queries.dice_request() is not None:
            return None
        if play.fix.step is not None:
            return None
        seat = play.queries.seat()
        return seat if self.seats.level(seat) is not None else None

    def check(self) -> None:
        """After each change: a decision or a move shown for another position goes; an
        Undo pauses the companion; a companion seat to move starts thinking."""
        if self._closed:
            return
        state, count = self.play.state, len(self.play.session.actions)
        if count < self._actions:
            self.paused = True  # taken back: not played again until asked
        elif count > self._actions:
            self.paused = False
        self._actions = count
        if self.thinking is not None and self.thinking.state is not state:
            self._cancel()
        if self.proposal is not None and self.proposal.state is not state:
            self.proposal = None
            self.why_open = False
        if self.thinking is None and self.proposal is None and not self.paused:
            seat = self._to_move()
            if seat is not None:
                level = self.seats.level(seat)
                assert level is not None  # _to_move found it
                self._think(seat, level, hint=False)

    def _think(self, seat: int, level: Level, *, hint: bool) -> None:
        session = self.play.session
        rules, state = session.rules, session.state
        budget = Budget(DEFAULT_BUDGET_SECONDS[level], self.clock)
        # The same position in the same game gives the same decision (its own stream).
        bot = make_bot(rules, level, (session.seed + len(session.actions)) % 2**31)
        thinking = _Thinking(state, seat, budget, hint)
        self.thinking = thinking
        self.failure = ""

        def think() -> Decision:
            return bot_decide(bot, rules, state, seat, budget)

        self.runner.start(think, lambda result: self._decided(thinking, result))

    def _decided(self, thinking: _Thinking, result: Decision | Exception) -> None:
        """The runner's answer, on the UI thread: shown if still wanted, else dropped."""
        if self._closed or self.thinking is not thinking:
            return  # cancelled (Undo, another move, the screen left): the answer goes
        self.thinking = None
        play = self.play
        if isinstance(result, Exception):
            log.error("The companion could not decide", exc_info=result)
            self.failure = f"The companion could not decide: {result}"
            self.paused = True  # asked again by "Let the companion play", not in a loop
            play.changed()
            return
        if result.cancelled or play.state is not thinking.state:
            return
        rules, state = play.rules, play.state
        cells = rules.action_cells(state, result.action)
        self.proposal = Proposal(
            state=state,
            seat=thinking.seat,
            action=result.action,
            cells=cells,
            payload=rules.dump_action(result.action),
            words=play.names().text(rules.describe(state, result.action)),
            reason=play.names().text(result.reason),
            marks=suggestion_marks(cells),
            hint=thinking.hint,
        )
        self.why_open = False
        play.changed()

    def marks(self) -> tuple[Highlight, ...]:
        """What the board and the LEDs light for the companion's move (empty: the
        game's own lights)."""
        proposal = self.proposal
        if proposal is None or proposal.state is not self.play.state:
            return ()
        return proposal.marks

    def wanted(self) -> Wanted | None:
        """The move the table is asked to make by hand now: the companion's move shown,
        or none yet while a companion seat is to move (every move made on the board for
        it is refused until it has said its own); None when a person may move (a hint
        is only a hint; after an Undo the companion waits)."""
        play = self.play
        if self._closed:
            return None
        proposal = self.proposal
        if proposal is not None and proposal.state is play.state:
            if proposal.hint:
                return None
            words = f"{self.who(proposal.seat)} plays: {proposal.words}"
            return Wanted(proposal.action, proposal.cells, words)
        seat = self._to_move()
        if seat is None or self.paused or self.failure:
            return None
        return Wanted(None, None, f"{self.who(seat)} is thinking")

    def holds(self) -> str | None:
        """The words refusing a person's tap (a menu row, a tile, a board square, dice)
        while a companion seat is to move — it thinks, or its move waits to be made and
        "Done" — so the companion's turn is not played for it by the screen; Undo and
        leaving stay. None when a person may act (a hint shown, or the companion paused
        after an Undo or a failed decision: a person may then play its move)."""
        wanted = self.wanted()
        if wanted is None:
            return None
        proposal = self.proposal
        seat = proposal.seat if proposal is not None else self.play.queries.seat()
        assert seat is not None  # wanted() found a companion seat to move
        if wanted.action is None:
            return f"It is {self.who(seat)}'s turn: wait for its move, or tap Undo."
        lit = proposal is not None and proposal.marks
        make = "make its move on the table and tap Done" if lit else "tap Done"
        return f"It is {self.who(seat)}'s turn: {make}, or tap Undo."

    def answers(self, action: object) -> RuleViolation | None:
        """A companion seat's no to a deal a person offers it (a Builders Trade, BC-R07),
        judged on that seat's view as the companion judges its own deals
        (``companion.bots.deals``); None when the action is no deal with a companion seat
        or the seat would conclude it. A deal refused is not concluded, so it is not the
        person's action: the game is unchanged."""
        play = self.play
        try:
            parsed = play.rules.parse_action(action)
        except RefereeError:
            return None  # not an action of the game: the referee refuses it in its words
        seat = partner_of(parsed)
        if seat is None or self.seats.level(seat) is None:
            return None  # no deal, or one with a person: agreed or refused at the table
        if declines(play.rules, play.state, parsed) is None:
            return None
        return RuleViolation(
            f"{self.who(seat)} says no: this Trade would leave it worse off. Offer another,"
            " or choose another action.",
            ruling="BC-R07",
        )

    # --- intents ------------------------------------------------------------------------

    def confirm(self) -> bool:
        """ "Done" (on the screen or the table's confirm button): the move was made on
        the table; it is submitted as a tap would be. Every action of the companion's
        waits for it, one that moves nothing ("End the turn") as well. The hand made
        the move as its lights showed, so the fix-the-table steps on those squares (a
        beaten miniature taken off) were done with it; steps elsewhere (a crystal put
        on the Citadel) are still walked through."""
        proposal = self.proposal
        play = self.play
        if proposal is None or proposal.state is not play.state:
            return False
        lit = {mark.cell for mark in proposal.marks}

        def made(steps: Sequence[HandStep], _last: HandStep) -> bool:
            return all(set(step.cells) <= lit for step in steps)

        with play.batched():  # one change: never the walk's first step for a frame
            if not play.submit(proposal.payload):
                return False
            if lit and play.fix.tick_off(made):
                play.changed()
        return True

    def press(self, button: str) -> bool:
        """A table button while the companion is to move (True: it was the companion's
        to answer). The confirm button is the companion's "Done"; a button that would
        play an action of its own (End turn) is refused — the companion's move ends its
        turn; taking back (Undo, Redo) and the navigation pass to the game."""
        wanted = self.wanted()
        if wanted is None or button in PASSED_BUTTONS:
            return False
        if button == "confirm":
            return wanted.action is not None and self.confirm()
        self.play.show_banner(Banner(f"{wanted.words}. The companion ends its own turn."))
        self.play.changed()
        return True

    def explain(self) -> None:
        """ "Why?": the move's reason in one line."""
        if self.proposal is not None:
            self.why_open = not self.why_open
            self.play.changed()

    def resume(self) -> None:
        """ "Let the companion play" (after an Undo, or a decision that failed)."""
        self.paused = False
        self.failure = ""
        self.check()
        self.play.changed()

    def hint(self) -> None:
        """ "What would the companion do?": a person's move, thought at
        :data:`HINT_LEVEL`, said and lit as a hint (the person plays it or not)."""
        seat = self.play.queries.seat()
        if seat is None or self.thinking is not None or not plays(self.play.rules.name):
            return
        if self.play.queries.dice_request() is not None or self.play.queries.outcome is not None:
            return
        self._think(seat, HINT_LEVEL, hint=True)
        self.play.changed()

    # --- reading ------------------------------------------------------------------------

    def who(self, seat: int) -> str:
        return seat_label(self.play.queries.players[seat], self.seats.level(seat))

    def hands(self) -> tuple[HiddenHand, ...]:
        """The companion's hands of cards, face down (a card game whose places hold
        cards face down, ``CardView.hidden``): their number only, never a face."""
        play = self.play
        if not play.queries.tiled:
            return ()
        return tuple(
            HiddenHand(self.who(card.seat), card.hidden)
            for card in play.queries.cards()
            if card.hidden is not None
            and card.seat is not None
            and self.seats.level(card.seat) is not None
        )

    def view(self) -> CompanionView | None:
        said, hands = self._said(), self.hands()
        if not hands:
            return said
        if said is None:
            said = CompanionView("", False, False, False, "", False, False)
        return replace(said, hands=hands)

    def _said(self) -> CompanionView | None:
        play = self.play
        seat = play.queries.seat()
        teaching = play.teacher.progress is not None and play.teacher.progress.on
        can_hint = (
            teaching
            and plays(play.rules.name)
            and seat is not None
            and self.seats.level(seat) is None
            and self.thinking is None
            and self.proposal is None
            and play.queries.dice_request() is None
            and play.queries.outcome is None
        )
        if self.failure:
            return CompanionView(self.failure, False, False, False, "", True, False)
        thinking, proposal = self.thinking, self.proposal
        if thinking is not None:
            who = "The companion" if thinking.hint else self.who(thinking.seat)
            return CompanionView(f"{who} is thinking", True, False, False, "", False, False)
        if proposal is not None:
            why = proposal.reason if self.why_open else ""
            if proposal.hint:
                text = f"The companion would: {proposal.words}"
            else:  # every action waits for Done, one that moves nothing as well
                then = (
                    "Make the move on the table, then tap Done."
                    if proposal.marks
                    else ("Tap Done to play it.")
                )
                text = f"{self.who(proposal.seat)} plays: {proposal.words}. {then}"
            return CompanionView(text, False, True, bool(proposal.reason), why, False, False)
        level = self.seats.level(seat)
        request = play.queries.dice_request()
        if seat is not None and level is not None and request is not None:
            text = f"Roll for {self.who(seat)}: {request.label}"  # the table's dice
            return CompanionView(text, False, False, False, "", False, False)
        if self.paused and self._to_move() is not None:
            assert seat is not None
            text = f"{self.who(seat)} waits: a move was taken back."
            return CompanionView(text, False, False, False, "", True, False)
        if can_hint:
            return CompanionView("", False, False, False, "", False, True)
        return None
