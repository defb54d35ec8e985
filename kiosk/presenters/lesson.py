"""A scripted first game on the play screen, without Kivy: the lesson's current step,
the action it suggests (lit on the board and the LEDs like any highlight), the check of
each action the player makes, and "Skip step" / "End lesson".

It wraps the game's :class:`~kiosk.presenters.play.PlayPresenter` and changes nothing of
how a game is played: every action still goes through the referee. It listens to the
presenter's changes (first, before the LEDs and the screen) and checks each new action
against the step's goal (:mod:`kiosk.teaching.lessons`):

- the action meets the goal: the step is done;
- it does not, while an action that meets it was legal: it is taken back (an undo,
  journaled like any other) and the banner says what the step asks, with its ruling
  ("Why?" beside it explains the rule);
- the step's kind of action was legal but none met the goal (this roll gave no
  capture): the lesson says so and moves on;
- the step's kind of action was not legal at all (a roll, another player's turn): the
  action passes; after the step's ``patience`` of those the lesson moves on too.

Nothing depends on exact dice: the suggestion is the most interesting
(``Rules.interest``) of the actions legal now that meet the goal — or, when none does,
of all of them, to keep the game going. A suggestion teaches by example, so it is never
an action that changes nothing on the table (a miniature moved 0 squares) and never
one that loses one of the player's own pieces (an Acolyte spawned onto the Beast),
unless the step is about exactly that (``loses = true``); the step's ``prefer`` (part of
an action) picks among the rest (a Curse that hands the Runes to the opponent).

The summary counts only the steps the player did: a step met by "Play it", or after
"Show me", or skipped, is not theirs. "Well done" is said only for an action of the
player's own; a take-back also turns Redo off, so Redo cannot play the refused action
again. The place in the lesson is saved as a note in
the journal (``ProgressStore.save_lesson``) after every change, so a power cut resumes
at the same step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import islice

from companion.errors import RefereeError
from companion.games import game_summary
from companion.highlights import Highlight, suggestion_marks
from companion.model import Frozen
from companion.rules import ActionRole, AnyRules, GameState
from companion.views import BoardView
from kiosk.presenters.common import Banner
from kiosk.presenters.payloads import Payload
from kiosk.presenters.play import MAX_LISTED_ACTIONS, PlayPresenter
from kiosk.teaching.examples import holds
from kiosk.teaching.lessons import Lesson, LessonStep
from kiosk.teaching.progress import LessonPlace

#: The banner's code when an action that misses the step's goal is taken back.
OFF_GOAL = "lesson_goal"
KINDS = {"watch": "Watch", "try": "Try it yourself"}


@dataclass(frozen=True)
class LessonView:
    """The lesson panel: the step, what to do, how the last action went."""

    heading: str  # "Lesson · step 4 of 12 · Try it yourself: move a piece" (its goal)
    number: int  # the step shown, 1-based (the step count + 1 once finished)
    total: int
    kind: str  # "Watch", "Try it yourself"
    title: str
    text: str
    ruling: str
    suggestion: str  # the suggested action in words ("" none)
    can_play: bool  # "Play it" plays the suggestion (or rolls, or ends the table fix)
    can_show: bool  # "Show me": a "try" step's suggestion is hidden until asked
    feedback: str  # how the last checked action went
    finished: bool  # every step done (or the game over): "Keep playing" / "Home"


@dataclass(frozen=True)
class Pick:
    """What the lesson suggests in one state: an action and whether it meets the goal."""

    payload: Payload | None
    action: Frozen | None
    on_goal: bool
    marks: tuple[Highlight, ...]


NO_PICK = Pick(None, None, False, ())


class LessonPresenter:
    """One lesson over one game on screen (see the module docstring)."""

    def __init__(
        self,
        play: PlayPresenter,
        lesson: Lesson,
        place: LessonPlace | None = None,
        on_place: Callable[[LessonPlace], None] | None = None,
        *,
        follow: bool = True,
    ) -> None:
        """``follow``: check each change itself (False: the kiosk's change pipeline calls
        :meth:`check` first, before the LEDs and the screen)."""
        self.play = play
        self.lesson = lesson
        actions = len(play.session.actions)
        self.place = replace(place or LessonPlace(), actions=actions)
        self._saved = place
        self.on_place = on_place
        self.feedback = ""
        #: "Show me" was tapped in this "try" step: its suggestion is lit.
        self.shown = False
        #: "Play it" is playing the suggestion: the action is the lesson's, not the player's.
        self._playing = False
        self.title = game_summary(lesson.game).title
        self._state = play.state
        self._pick: tuple[GameState, int, bool, Pick] | None = None
        self._board_of: tuple[GameState, BoardView | None] | None = None
        play.follow_guide(self.marks)
        if follow:
            play.subscribe(self.check)

    def close(self) -> None:
        """Stop following the game (another game or Home is shown)."""
        self.play.unsubscribe(self.check)
        if self.play.guide == self.marks:
            self.play.follow_guide(None)

    # --- reading ----------------------------------------------------------------------

    @property
    def active(self) -> bool:
        """The lesson panel is shown (not ended by "Keep playing" or "End lesson")."""
        return not self.place.ended

    @property
    def finished(self) -> bool:
        return self.place.step >= len(self.lesson.steps) or self.play.queries.outcome is not None

    @property
    def step(self) -> LessonStep | None:
        """The step to do now (None once finished or ended)."""
        if not self.active or self.finished:
            return None
        return self.lesson.steps[self.place.step]

    def matches(self, step: LessonStep, state: GameState, action: Frozen, payload: Payload) -> bool:
        """True when ``action`` (dumped: ``payload``), played in ``state``, meets the goal."""
        if payload.get("type") not in step.types:
            return False
        rules = self.play.rules
        if step.min_interest and rules.interest(state, action) < step.min_interest:
            return False
        if not (step.climbs or step.captures):
            return True
        board, cells = self._board(state), rules.action_cells(state, action)
        if board is None or cells.origin is None or cells.target is None:
            return False
        origin, target = board.cell(cells.origin), board.cell(cells.target)
        if origin is None or target is None or not origin.pieces:
            return False
        if step.climbs and (target.level or 0) <= (origin.level or 0):
            return False
        mover = origin.pieces[0]
        enemies = [
            p
            for p in target.pieces
            if p.kind == mover.kind and (p.player, p.colour) != (mover.player, mover.colour)
        ]
        return not step.captures or bool(enemies)

    def _board(self, state: GameState) -> BoardView | None:
        """The board view of ``state``, made once however many actions are checked."""
        if self._board_of is None or self._board_of[0] is not state:
            self._board_of = (state, self.play.rules.board(state))
        return self._board_of[1]

    def pick(self) -> Pick:
        """The suggestion now: the most interesting legal action meeting the goal, else
        the most interesting one of all (to keep the game going). Once per state and step."""
        step = self.step
        state = self.play.state
        key = (state, self.place.step, self.shown)
        if self._pick is not None and self._pick[:3] == key:
            return self._pick[3]
        found = NO_PICK
        payloads = self.play.queries.legal_payloads()
        actions = self.play.queries.derived().actions or ()
        if step is not None and payloads:
            pairs = [
                pair
                for pair in zip(actions, payloads, strict=True)
                if self._teaches(step, state, pair[0])
            ] or list(zip(actions, payloads, strict=True))
            meeting = [pair for pair in pairs if self.matches(step, state, *pair)]
            preferred = [pair for pair in meeting if holds(pair[1], step.prefer)]
            interest = self.play.rules.interest
            action, payload = max(
                preferred or meeting or pairs, key=lambda pair: interest(state, pair[0])
            )
            hidden = step.kind == "try" and bool(meeting) and not self.shown
            found = Pick(payload, action, bool(meeting), () if hidden else self._marks(action))
        self._pick = (*key, found)
        return found

    def _teaches(self, step: LessonStep, state: GameState, action: Frozen) -> bool:
        """False for an action no suggestion should show: one that leaves its piece where
        it stood (a 0-square move, nothing visible happens) or that loses one of the
        player's own pieces, unless the step is about losing one (``loses``)."""
        cells = self.play.rules.action_cells(state, action)
        if cells.origin is not None and cells.origin == cells.target:
            return False
        return step.loses or not self._loses_own(state, action)

    def _loses_own(self, state: GameState, action: Frozen) -> bool:
        """True when ``action`` leaves the acting player fewer pieces on the board than
        it put there (an Acolyte spawned onto the Beast dies at once, BM-R07)."""
        rules = self.play.rules
        seat = rules.current_player(state)
        if seat is None:
            return False
        try:
            after, _events = rules.apply(state, action)
        except RefereeError:
            return False
        kind = str(rules.dump_action(action).get("type"))
        placed = 1 if rules.action_role(kind) is ActionRole.PLACE else 0
        return _pieces(rules.board(after), seat) < _pieces(self._board(state), seat) + placed

    def _marks(self, action: Frozen) -> tuple[Highlight, ...]:
        """The suggested action on the board (``suggestion_marks``)."""
        return suggestion_marks(self.play.rules.action_cells(self.play.state, action))

    def marks(self) -> tuple[Highlight, ...]:
        """What the board and the LEDs light for the lesson (empty: the game's own)."""
        play = self.play
        if (
            self.step is None
            or play.queries.dice_request() is not None
            or play.fix.step is not None
        ):
            return ()  # the dice panel or the table's fix is lit instead
        return self.pick().marks

    def view(self) -> LessonView | None:
        """The lesson panel (None once ended)."""
        if not self.active:
            return None
        total = len(self.lesson.steps)
        step = self.step
        if step is None:
            return LessonView(
                heading=f"Learn {self.title}: done",
                number=total + 1,
                total=total,
                kind="",
                title="Lesson done",
                text=self._summary(),
                ruling="",
                suggestion="",
                can_play=False,
                can_show=False,
                feedback=self.feedback,
                finished=True,
            )
        return LessonView(
            heading=(
                f"Lesson · step {self.place.step + 1} of {total} · {KINDS[step.kind]}: {step.goal}"
            ),
            number=self.place.step + 1,
            total=total,
            kind=KINDS[step.kind],
            title=step.title,
            text=step.text,
            ruling=step.ruling,
            suggestion=self.play.names().text(self._suggestion(step)),
            can_play=self._can_play(step),
            can_show=step.kind == "try" and not self.shown and self.pick().on_goal,
            feedback=self.feedback,
            finished=False,
        )

    def _summary(self) -> str:
        own, total = len(self.place.own), len(self.lesson.steps)
        helped = len(self.place.met) - own
        shown = f", the lesson showed you {helped}" if helped else ""
        return (
            f"You did {own} of the {total} steps yourself{shown}. The game goes on: keep "
            "playing it, or go Home (it waits there under Resume)."
        )

    def _suggestion(self, step: LessonStep) -> str:
        play = self.play
        request = play.queries.dice_request()
        if request is not None:
            return f"Roll: {request.label}"
        if play.fix.step is not None:
            return "Change the table as the steps say."
        pick = self.pick()
        if pick.payload is None:
            return ""
        label = play.queries.kept.label(play.state, pick.payload)
        if not pick.on_goal:
            return f"No way to {step.goal} yet. Play on: {label}"
        if step.kind == "try" and not self.shown:
            return f"Your turn: {step.goal}."
        return f"Suggested: {label}"

    def _can_play(self, step: LessonStep) -> bool:
        play = self.play
        if play.queries.dice_request() is not None or play.fix.step is not None:
            return True
        pick = self.pick()
        return pick.payload is not None and (step.kind == "watch" or self.shown or not pick.on_goal)

    # --- intents ----------------------------------------------------------------------

    def play_suggestion(self) -> bool:
        """ "Play it": roll the dice in software, finish the table fix, or play the
        suggested action — the same paths as the dice panel, "All done" and the menu."""
        play = self.play
        if play.queries.dice_request() is not None:
            return play.dice.roll_in_software()
        if play.fix.step is not None:
            play.fix.finish()
            return True
        payload = self.pick().payload
        if payload is None:
            return False
        self._playing = True
        try:
            return play.submit(payload)
        finally:
            self._playing = False

    def show_me(self) -> None:
        """ "Show me": light the action a "try" step hopes for."""
        self.shown = True
        self.play.changed()

    def skip_step(self) -> None:
        self._advance(met=False, feedback="Step skipped.")
        self._save()
        self.play.changed()

    def end_lesson(self) -> None:
        """ "End lesson" (or "Keep playing" at its end): the game goes on without it."""
        self.place = replace(self.place, ended=True)
        self._save()
        self.play.changed()

    keep_playing = end_lesson

    # --- checking each action -----------------------------------------------------------

    def check(self) -> None:
        """After a change: the action just played against the lesson's step."""
        play = self.play
        state = play.state
        if state is self._state:
            return
        before, count = self._state, self.place.actions
        self._state = state
        actions = play.session.actions
        if len(actions) == count + 1 and self.step is not None:
            self._check(before, actions[-1])
        self.place = replace(self.place, actions=len(play.session.actions))
        self._save()

    def _check(self, before: GameState, action: Frozen) -> None:
        step = self.lesson.steps[self.place.step]
        rules = self.play.rules
        if self.matches(step, before, action, rules.dump_action(action)):
            own = not (self._playing or self.shown)
            said = f"Well done: {step.goal}." if own else f"Step {self.place.step + 1} done."
            self._advance(met=True, feedback=said, own=own)
            return
        legal = _dumped(rules, islice(rules.legal_actions(before), MAX_LISTED_ACTIONS))
        if any(self.matches(step, before, a, p) for a, p in legal):
            self._take_back(step)
        elif any(p.get("type") in step.types for _a, p in legal):
            self._advance(
                met=False, feedback=f"No way to {step.goal} this time: on to the next step."
            )
        elif self.place.waited + 1 >= step.patience:
            self._advance(met=False, feedback=f"No chance to {step.goal} came up: moving on.")
        else:
            self.place = replace(self.place, waited=self.place.waited + 1)

    def _take_back(self, step: LessonStep) -> None:
        """Undo an action that misses the goal (the state is as before it) and say why.

        The session's undo (journaled like the player's), without the presenter's own
        ``undo``: this runs inside its change, whose listeners (the LEDs, the screen)
        then draw the state as it was — once, not a second time from in here."""
        play = self.play
        play.session.undo()
        self._state = play.state
        play.took_back(  # Redo off, the off-goal action's table changes and selection gone
            Banner(
                f"This step asks you to {step.goal}, so that was taken back. Try again, "
                "or tap Skip step.",
                ruling=step.ruling,
                code=OFF_GOAL,
            )
        )
        self.feedback = f"Not quite: {step.goal}."

    def _advance(self, *, met: bool, feedback: str, own: bool = False) -> None:
        place, index = self.place, self.place.step
        self.shown = False
        self.feedback = feedback
        self.place = replace(
            place,
            step=index + 1,
            met=(*place.met, index) if met else place.met,
            own=(*place.own, index) if met and own else place.own,
            missed=place.missed if met else (*place.missed, index),
            waited=0,
        )

    def _save(self) -> None:
        """Hand the place to ``on_place`` (the journal's note) when it changed."""
        if self.place != self._saved:
            self._saved = self.place
            if self.on_place is not None:
                self.on_place(self.place)


def _dumped(rules: AnyRules, actions: Iterable[Frozen]) -> list[tuple[Frozen, Payload]]:
    return [(action, rules.dump_action(action)) for action in actions]


def _pieces(board: BoardView | None, seat: int) -> int:
    """How many of ``seat``'s pieces stand on the board (0 without a board)."""
    if board is None:
        return 0
    return sum(p.count for cell in board.cells for p in cell.pieces if p.player == seat)
