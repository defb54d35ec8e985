"""Teach mode and "Why?" on the play screen: the rules behind what the table shows.

"Why?" opens a panel on request: the rule behind a refusal (:meth:`Teacher.explain_refusal`),
behind what is lit and counted (:meth:`Teacher.explain_table`), behind one count of the
facts panel (:meth:`Teacher.explain_count`); the next change of state closes it. Teach
mode pauses on the first rule that matters now and was not shown in this game yet
(:meth:`Teacher.pause`), and a refusal resting on such a rule explains itself at once.
The texts are ``kiosk/teaching``'s; what a worked example reads off the position
(:meth:`Teacher.position`) comes from the play presenter's queries, computed once per state.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.highlights import Highlight
from companion.rules import GameState
from kiosk.presenters.board_input import BoardInput
from kiosk.presenters.common import Banner
from kiosk.presenters.fix_walk import FixWalk
from kiosk.presenters.queries import StateQueries
from kiosk.presenters.why import (
    Position,
    WhyView,
    can_explain,
    explain_count,
    explain_refusal,
    explain_table,
    first_time,
)
from kiosk.teaching import Teaching, load_teaching
from kiosk.teaching.progress import TeachProgress


class Teacher:
    """The "Why?" panel and teach mode's progress of the game on screen."""

    def __init__(
        self,
        queries: StateQueries,
        board_input: BoardInput,
        fix: FixWalk,
        shown: Callable[[], tuple[Highlight, ...]],
        changed: Callable[[], None],
    ) -> None:
        """``shown()``: what the board and the LEDs light now (a lesson's suggestion
        included: the play presenter's ``highlights``)."""
        self._game = queries.rules.name
        self._queries = queries
        self._board_input = board_input
        self._fix = fix
        self._shown = shown
        self._changed = changed
        #: The "Why?" panel while it is open (closed by the next change of state).
        self.why: WhyView | None = None
        #: Teach mode's progress (None: the game was started without teach mode).
        self.progress: TeachProgress | None = None
        #: Called with the new progress after each teach-mode tap (the kiosk keeps it).
        self._on_teach: Callable[[TeachProgress], None] | None = None
        #: The last pause worked out: (state, focus, progress, pause) — once per change.
        self._pause: tuple[GameState, str | None, TeachProgress, WhyView | None] | None = None

    @property
    def teaching(self) -> Teaching:
        """The teaching texts (read once per process, on first use)."""
        return load_teaching()

    def start(self, progress: TeachProgress | None) -> None:
        """Teach mode from ``progress`` (None: off); the caller redraws."""
        self.progress = progress

    def report_to(self, on_teach: Callable[[TeachProgress], None] | None) -> None:
        """Hand each new progress to ``on_teach`` (the kiosk keeps it per game)."""
        self._on_teach = on_teach

    def position(self, game_only: bool) -> Position:
        """What a worked example reads off the current state (all computed once per
        state); ``game_only``: the game's own lights, without a lesson's suggestion."""
        queries, focus = self._queries, self._board_input.focus
        log = queries.log()
        last = " ".join(line.text for line in log if line.number == log[0].number) if log else ""
        return Position(
            status=queries.status(),
            panel=queries.panel(),
            highlights=queries.game_highlights(focus) if game_only else self._shown(),
            focus=focus,
            last=last,
            dice=queries.dice_request(),
            cell_words=self._cell_words,
        )

    def _cell_words(self, cell: str) -> str:
        """A cell in the board's own words in the current position (``Rules.cell_words``)."""
        queries = self._queries
        return queries.rules.cell_words(queries.derived().state, cell)

    def _moment(self) -> tuple[GameState, str | None] | None:
        """The state and focus teach mode pauses on (None: the game is over or the
        table is being fixed)."""
        if self._queries.outcome is not None or self._fix.step is not None:
            return None
        return (self._queries.derived().state, self._board_input.focus)

    def can_explain(self, banner: Banner | None) -> bool:
        # The texts are read at the first refusal (or "Why?"), not for every game.
        return banner is not None and can_explain(self.teaching, banner)

    # --- "Why?" --------------------------------------------------------------------------

    def close(self) -> None:
        """The panel closes (a change of state, a refusal); the caller redraws."""
        self.why = None

    def explain_refusal(self, banner: Banner | None) -> bool:
        """ "Why?" on the refusal banner: the rule it rests on (False: no text for it)."""
        if banner is None:
            return False
        why = explain_refusal(self.teaching, self._game, banner, self.position(False))
        if why is None:
            return False
        self.why = why
        self._changed()
        return True

    def explain_table(self) -> None:
        """ "Why?" beside the board and the facts: the rules behind what is lit and counted."""
        self.why = explain_table(self.teaching, self._game, self.position(False))
        self._changed()

    def explain_count(self, count: str) -> None:
        """A tap on a count of the facts panel (a row's label or a fact): its rules
        (nothing happens for a line no ruling stands behind)."""
        why = explain_count(self.teaching, self._game, count, self.position(False))
        if why is not None:
            self.why = why
            self._changed()

    def close_why(self) -> None:
        self.why = None
        self._changed()

    # --- teach mode ------------------------------------------------------------------------

    def pause(self) -> WhyView | None:
        """Teach mode's pause: the first rule that matters now and was not shown in this
        game yet (None when teach mode is off, the game is over or the table is being
        fixed). Worked out once per state, focus and progress."""
        progress = self.progress
        if progress is None or not progress.on:
            return None
        moment = self._moment()
        if moment is None:
            return None
        state, focus = moment
        last = self._pause
        if last is not None and last[0] is state and last[1] == focus and last[2] == progress:
            return last[3]
        # The rules that matter are the game's: a lesson's suggestion is no rule.
        pause = first_time(self.teaching, self._game, self.position(True), progress.seen)
        self._pause = (state, focus, progress, pause)
        return pause

    def _set(self, progress: TeachProgress) -> None:
        self.progress = progress
        if self._on_teach is not None:
            self._on_teach(progress)

    def next(self) -> None:
        """The pause's "Got it": this rule was shown; the next one that matters now, if any."""
        pause = self.pause()
        if self.progress is not None and pause is not None:
            shown = {entry.ruling for entry in pause.entries}
            self._set(TeachProgress(on=True, seen=self.progress.seen | shown))
            self._changed()

    def skip(self) -> None:
        """The pause's "Skip teaching": no more pauses in this game (never holds up an expert)."""
        if self.progress is not None:
            self._set(TeachProgress(on=False, seen=self.progress.seen))
            self._changed()

    def again(self) -> None:
        """The pause's "Show all again" (and "Teach me the rules from here" in the "Why?"
        panel): every rule pauses again the next time it matters."""
        self.why = None
        self._set(TeachProgress(on=True, seen=frozenset()))
        self._changed()

    def refused(self, banner: Banner) -> None:
        """A refusal (the caller redraws): the panel closes; in teach mode a refusal
        resting on a rule not shown yet in this game opens its "Why?" at once (a refusal
        is a moment the rule matters), and counts as shown."""
        self.why = None
        progress = self.progress
        ruling = banner.ruling
        if progress is None or not progress.on or ruling is None or ruling in progress.seen:
            return
        why = explain_refusal(self.teaching, self._game, banner, self.position(False))
        if why is not None:
            self.why = why
            self._set(TeachProgress(on=True, seen=progress.seen | {ruling}))
