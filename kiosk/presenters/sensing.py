"""Moves from the sensing board: what the squares sense, explained by the referee.

The board only says which squares hold a miniature (a magnet over a sensor). Whether a
change is a move, a capture or a Quake is the referee's to say, so this module asks it
through the rules contract alone — ``board`` (where the referee's miniatures stand),
``legal_actions_at(touching=…)`` (what could have changed a square) and ``apply`` (what
the board would look like after each of those) — and never reads a game's state.

:class:`BoardInference` decides once the board has been still for ``settle_s``
(DGT-style, 300 ms: a piece slid across squares, or a hand hovering, is not a move):

* the board shows the referee's position → :class:`Agree`;
* exactly one legal action leaves the referee's board as sensed → :class:`Play`. A
  capture is the beaten piece lifted as well, in any order: a square whose miniature
  the action replaces must have been lifted since the last position (a lost event never
  passes for a capture). A Quake or Earthquake is recognised from its whole line;
* several legal actions explain it → :class:`Choose` (the players pick one by touch);
* only miniatures lifted, one of which may move → :class:`InHand` (its moves light);
  but after a spell when the board could not be read (a lost change, an unplugged
  cable) that miniature may already stand, unseen, on a piece it beats: the players
  are asked to lift it and set it down again (:class:`Relift`) rather than shown it
  in the hand with the square it stands on to capture;
* anything else → :class:`Differ`: squares to clear (red) and to fill (green);
* the board unknown (disconnected, resynchronising) → :class:`Unknown`: touch entry.

The verdicts, their words and the squares' helpers are in
``kiosk/presenters/sensing_verdicts.py``. :class:`SensingDriver` hands the verdicts to
the play presenter (the one owner of the highlights and of the fix-the-table
walk-through) and ticks off a walk-through's steps as the squares come to match. While
the presenter's guide wants one move made by hand (the companion's,
:class:`~kiosk.presenters.sensing_verdicts.TableGuide`), the board plays that move by
itself and refuses any other as a wrong placement (red and green, the wanted move said).
Both are plain Python with an injected clock: tested without Kivy or a display.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Protocol

from companion.errors import RefereeError
from companion.highlights import Highlight, Role
from companion.model import Frozen
from companion.rules import AnyRules, GameState
from companion.session import Session
from companion.table_steps import HandStep
from companion.views import ActionCells, BoardView
from kiosk.presenters.board_input import BoardInput
from kiosk.presenters.fix_walk import FixWalk
from kiosk.presenters.menus import CORRECTIONS_GROUP
from kiosk.presenters.overlay import SensingOverlay
from kiosk.presenters.queries import Payload
from kiosk.presenters.sensing_verdicts import (
    Agree,
    Choose,
    Differ,
    InHand,
    Play,
    Relift,
    TableGuide,
    Unknown,
    Verdict,
    Wanted,
    Who,
    held_to,
    miniatures,
    notice,
    replaced_squares,
)

SETTLE_S = 0.3
"""How long the board must stay unchanged before it is read as a position (DGT: 250 ms
over USB; the chess e-boards' users find shorter waits read slides as moves)."""

MAX_CHAIN = 4
"""Actions one settled board may play in a row (each must explain it exactly)."""

BARE = frozenset({"bare", "land", "water"})
"""Terrains with no landscape piece on them (a board's own squares and spaces)."""


def landscapes(view: BoardView | None) -> frozenset[str]:
    """The squares the referee has a landscape piece on (woods, hills, the Citadel …)."""
    if view is None:
        return frozenset()
    return frozenset(cell.cell for cell in view.cells if cell.terrain not in BARE)


def unsensed(view: BoardView | None, *, landscapes_sensed: bool) -> dict[str, tuple[object, ...]]:
    """What the sensors cannot see on each square: crystals, and its landscape and level
    unless the board has a landscape layer (which of the landscapes stands where is then
    the referee's knowledge, as which miniature is)."""
    if view is None:
        return {}
    return {
        cell.cell: (
            None if landscapes_sensed else cell.terrain,  # a landscape layer sees them
            None if landscapes_sensed else cell.level,
            tuple((p.kind, p.label, p.count) for p in cell.pieces if not p.sensed),
        )
        for cell in view.cells
    }


# --- the inference ----------------------------------------------------------------------


class BoardInference:
    """What the sensed squares mean for a state of ``rules`` (any grid game)."""

    def __init__(self, rules: AnyRules, *, settle_s: float = SETTLE_S) -> None:
        self.rules = rules
        self.settle_s = settle_s
        self.occupied: frozenset[str] | None = None
        self.landscapes: frozenset[str] | None = None
        """The squares sensing a landscape, on a board with that layer (else None)."""
        self.changed_at = float("-inf")
        self.touched: set[str] = set()
        """Squares whose sensor changed since the last position (lifts and places)."""
        self.blind = False
        """The board was unknown since the last position: changes may have been missed,
        so ``touched`` may lack a lift."""
        self._listed: list[tuple[Frozen, ActionCells]] = []
        self._listed_for: GameState | None = None

    def sense(
        self,
        occupied: frozenset[str] | None,
        now: float,
        landscapes: frozenset[str] | None = None,
    ) -> None:
        """A new snapshot from the board's reader (None: the board is unknown)."""
        if occupied is not None and self.occupied is not None:
            self.touched |= occupied ^ self.occupied
        if landscapes is not None and self.landscapes is not None:
            self.touched |= landscapes ^ self.landscapes
        if occupied != self.occupied or landscapes != self.landscapes:
            self.changed_at = now
        if occupied is None and self.occupied is not None:
            self.blind = True
        self.occupied = occupied
        self.landscapes = None if occupied is None else landscapes

    def rebase(self) -> set[str]:
        """The referee's position changed: a new move starts. Returns the squares that
        were touched for the last one."""
        touched, self.touched = self.touched, set()
        self.blind = self.occupied is None
        return touched

    def due(self) -> float:
        """When the board will have been still long enough to be read."""
        return self.changed_at + self.settle_s

    def decide(self, state: GameState, now: float) -> Verdict | None:
        """The verdict on ``state``, or None while the board is still moving."""
        occupied = self.occupied
        if occupied is None:
            return Unknown()
        if now < self.due():
            return None
        view = self.rules.board(state)
        if view is None or view.kind != "grid":
            return Unknown()
        expected = miniatures(view)
        present = frozenset(expected)
        land = self.landscapes
        land_present = landscapes(view) if land is not None else None
        if occupied == present and land == land_present:
            self.touched.clear()  # lifted and put back: nothing happened
            self.blind = False
            return Agree()
        found = self.explain(state, expected, occupied)
        if len(found) == 1:
            return Play(*found[0])
        if found:
            return Choose(tuple(a for a, _ in found), tuple(c for _, c in found))
        vacated = present - occupied
        if vacated and occupied < present and land == land_present:
            for cell in sorted(vacated):
                if next(iter(self.rules.legal_actions_at(state, origin=cell)), None) is not None:
                    unseen = self.unseen_captures(state, cell, occupied) if self.blind else None
                    return Relift(cell, unseen) if unseen else InHand(cell)
        remove, place = occupied - present, vacated
        if land is not None and land_present is not None:
            remove, place = remove | (land - land_present), place | (land_present - land)
        return Differ(remove=remove, place=place)

    def on_board(self, state: GameState) -> list[tuple[Frozen, ActionCells]]:
        """The legal actions of ``state`` that touch the board, with their cells: made
        once per state (the driver asks right after each move, while the players think,
        so the move that follows only filters them)."""
        if self._listed_for is not state:
            rules = self.rules
            listed = []
            for action in rules.legal_actions(state):
                cells = rules.action_cells(state, action)
                if cells.touched:
                    listed.append((action, cells))
            self._listed, self._listed_for = listed, state
        return self._listed

    def unseen_captures(
        self, state: GameState, origin: str, occupied: frozenset[str]
    ) -> frozenset[str]:
        """The occupied squares ``origin``'s miniature could have moved onto by a
        capture: there its arrival changes no sensor, only the beaten piece's lift did."""
        return frozenset(
            cells.target
            for _, cells in self.on_board(state)
            if cells.origin == origin
            and cells.target is not None
            and cells.target != origin
            and cells.target in occupied
        )

    def explain(
        self, state: GameState, expected: Mapping[str, Who], occupied: frozenset[str]
    ) -> list[tuple[Frozen, ActionCells]]:
        """The legal actions after which the referee's board is the sensed one.

        Every square whose occupancy differs must be touched by the action (what
        ``legal_actions_at(touching=…)`` answers, python-chess's masks), and its target
        square must have been seen to change (a move's destination filled, or lifted
        and filled again by a capture); each such legal action is applied to see the
        board it leaves.
        """
        differ = occupied ^ frozenset(expected)
        land = self.landscapes
        if land is not None:
            differ |= land ^ landscapes(self.rules.board(state))
        changed = differ | self.touched
        found: list[tuple[Frozen, ActionCells]] = []
        for action, cells in self.on_board(state):
            if not differ <= cells.touched or (
                cells.target is not None and cells.target not in changed
            ):
                continue
            try:
                after_state, _ = self.rules.apply(state, action)
            except RefereeError:
                continue
            view = self.rules.board(after_state)
            after = miniatures(view)
            if frozenset(after) != occupied or (land is not None and landscapes(view) != land):
                continue
            if not replaced_squares(expected, after) <= self.touched:
                continue  # a capture whose beaten piece was never seen lifted
            found.append((action, cells))
        return found


# --- the driver: verdicts into the play presenter ---------------------------------------


@dataclass
class _Walk:
    """What the sensors can check of a fix-the-table walk-through."""

    checkable: frozenset[str] = frozenset()
    """Squares where the last action changed the miniatures and nothing else (no
    landscape, no crystal): a step there ticks off by itself once the square matches
    and its sensor has changed since (or during the move the board played)."""
    lifted: set[str] = field(default_factory=set)


class SensedPlay(Protocol):
    """What the driver uses of the play presenter (``PlayPresenter`` is one): the game,
    the move entered from the board, the overlay, the selection, the walk-through and the
    change notifications."""

    @property
    def session(self) -> Session: ...
    @property
    def rules(self) -> AnyRules: ...
    @property
    def state(self) -> GameState: ...
    @property
    def guide(self) -> Callable[[], tuple[Highlight, ...]] | None: ...
    @property
    def overlay(self) -> SensingOverlay: ...
    @property
    def board_input(self) -> BoardInput: ...
    @property
    def fix(self) -> FixWalk: ...
    def submit(self, action: object) -> bool: ...
    def changed(self) -> None: ...
    def batched(self) -> AbstractContextManager[None]: ...
    def subscribe(self, listener: Callable[[], None]) -> None: ...
    def unsubscribe(self, listener: Callable[[], None]) -> None: ...


class SensingDriver:
    """Feeds the board's snapshots to :class:`BoardInference` and its verdicts to the
    play presenter. Main thread only; ``clock`` is injected for the tests and ``schedule``
    asks to be called back (``tick``) when the board will have settled."""

    def __init__(
        self,
        play: SensedPlay,
        *,
        clock: Callable[[], float],
        schedule: Callable[[float], None] | None = None,
        settle_s: float = SETTLE_S,
    ) -> None:
        self.play = play
        self.clock = clock
        self.schedule = schedule
        self.inference = BoardInference(play.rules, settle_s=settle_s)
        self.verdict: Verdict = Unknown()
        self.played = 0
        """Actions played from the board."""
        self._state: GameState = play.state
        self._walk = _Walk()
        self._focused: str | None = None
        self._accepted: frozenset[str] | None = None
        self._busy = False
        self._count = len(play.session.actions)
        self._undone: frozenset[str] | None = None
        """The board as it was when a move was undone: it shows the undone move, which
        is not played again until the board has been put back (the squares to put back
        light meanwhile); made again after that, it is a move like any other."""
        play.subscribe(self._on_change)

    def close(self) -> None:
        """Stop following the presenter (the game left the screen)."""
        self.play.unsubscribe(self._on_change)
        self.play.overlay.show((), None)

    # --- inputs -----------------------------------------------------------------------

    def sensed(
        self, occupied: frozenset[str] | None, landscapes: frozenset[str] | None = None
    ) -> None:
        """A :class:`~firmware_bridge.board.messages.BoardOccupancy` snapshot arrived.

        It belongs to the position on screen now: a position changed by a tap, a die or
        "Done" since the last tick starts its move here, before the snapshot counts
        (were the new move started only when the board settles, the squares lifted and
        filled meanwhile — a beaten miniature's — would be forgotten with the old move,
        and a capture made quickly after a die would stay "in the hand")."""
        self._follow_state()
        now = self.clock()
        before, land_before = self.inference.occupied, self.inference.landscapes
        self.inference.sense(occupied, now, landscapes)
        if occupied is not None and before is not None:
            self._walk.lifted |= occupied ^ before
        if landscapes is not None and land_before is not None:
            self._walk.lifted |= landscapes ^ land_before
        if occupied is None:
            self._show(Unknown())
        elif self.schedule is not None:
            self.schedule(self.inference.settle_s)

    def tick(self) -> Verdict | None:
        """Decide if the board has settled; the verdict shown (None: not yet).

        What a board move changes reaches the listeners (the LEDs, the screen) once, at
        the end: the move played, its walk-through ticked off as done on the table and
        the next verdict shown — never the walk-through's first step for a frame."""
        self._busy = True
        try:
            with self.play.batched():
                verdict = self._decide()
            # Ready for the next move, once this one has been shown (the LEDs first).
            self.inference.on_board(self.play.state)
            return verdict
        finally:
            self._busy = False

    def _decide(self) -> Verdict | None:
        for _ in range(MAX_CHAIN):
            self._follow_state()
            verdict = self.inference.decide(self.play.state, self.clock())
            if verdict is None:
                if self.schedule is not None:
                    self.schedule(max(0.0, self.inference.due() - self.clock()))
                return None
            if isinstance(verdict, Agree):
                self._undone = None  # the undone move was put back: it may be made again
            if isinstance(verdict, Differ) and self.inference.occupied == self._accepted:
                verdict = Agree()  # the players said the table is right: wait for a change
            if isinstance(verdict, Play | Choose) and self.inference.occupied == self._undone:
                verdict = self._differ()  # an undo is not played again until put back
            verdict = held_to(self._wanted(), verdict, self._differ())
            if isinstance(verdict, Play):
                touched = set(self.inference.touched)
                if self.play.submit(verdict.action):
                    self.played += 1
                    self._follow_state(touched, verdict.cells)
                    continue
            self._show(verdict)
            self._tick_walk()
            return verdict
        return self.verdict

    def _on_change(self) -> None:
        """The presenter changed: a new position (a tap, an undo, a die) is looked at
        again at once (a walk-through to check, a difference to light); the corrections
        opened while a difference is lit mean "the table is right"."""
        if self._busy:
            return
        if self.play.board_input.group == CORRECTIONS_GROUP and isinstance(self.verdict, Differ):
            self.table_is_right()
            return
        if self.play.state is self._state:
            return
        if self.schedule is not None:
            self.schedule(0.0)
        else:
            self.tick()

    def table_is_right(self) -> None:
        """The players say the table is right: stop lighting the difference until the
        board changes, and open the manual corrections (RULINGS 0.2.1, journaled as
        any) at a differing square, the referee's miniature there first."""
        verdict = self.verdict
        if not isinstance(verdict, Differ):
            return
        play = self.play
        self._accepted = self.inference.occupied
        self.verdict = Agree()
        play.overlay.show((), None)
        play.board_input.correct_at(min(verdict.place) if verdict.place else min(verdict.remove))
        self._busy = True
        try:
            play.changed()
        finally:
            self._busy = False

    # --- what the presenter shows ------------------------------------------------------

    def _follow_state(self, touched: Iterable[str] = (), played: ActionCells | None = None) -> None:
        """The referee's position changed (here, by a tap, an undo, a die): start a new
        move and note which squares its fix-the-table steps can be checked on. After an
        action the board played (``played``), its squares were done on the table."""
        state = self.play.state
        if state is self._state:
            return
        rules = self.play.rules
        old_view, new_view = rules.board(self._state), rules.board(state)
        before, after = miniatures(old_view), miniatures(new_view)
        sensed_land = self.inference.landscapes is not None
        hidden_before = unsensed(old_view, landscapes_sensed=sensed_land)
        hidden_after = unsensed(new_view, landscapes_sensed=sensed_land)
        candidates = {c for c in before.keys() | after.keys() if before.get(c) != after.get(c)}
        if sensed_land:
            candidates |= landscapes(old_view) ^ landscapes(new_view)
        if played is not None:
            candidates |= played.touched
            touched = {*touched, *played.touched}
        checkable = {c for c in candidates if hidden_before.get(c) == hidden_after.get(c)}
        self._state = state
        self._accepted = None
        count = len(self.play.session.actions)
        undone = count < self._count
        self._count = count
        self._undone = self.inference.occupied if undone else None
        lifted = self.inference.rebase() | set(touched)
        self._walk = _Walk(frozenset(checkable), lifted)
        if self._focused is not None and self.play.board_input.focus == self._focused:
            self.play.board_input.select(None)
        self._focused = None

    def _wanted(self) -> Wanted | None:
        """The one move the table is asked to make now (the companion's), if any."""
        guide = self.play.guide
        return guide.wanted() if isinstance(guide, TableGuide) else None

    def _differ(self) -> Differ:
        view = self.play.rules.board(self.play.state)
        occupied = self.inference.occupied or frozenset()
        present = frozenset(miniatures(view))
        remove, place = occupied - present, present - occupied
        land = self.inference.landscapes
        if land is not None:
            remove, place = remove | (land - landscapes(view)), place | (landscapes(view) - land)
        return Differ(remove=remove, place=place)

    def _show(self, verdict: Verdict) -> None:
        """Hand the verdict to the presenter; redraw only when what it shows changes."""
        play = self.play
        self.verdict = verdict
        focus = play.board_input.focus
        overlay: tuple[Highlight, ...] = ()
        choices: tuple[Payload, ...] | None = None
        if isinstance(verdict, Differ):
            overlay = tuple(
                [Highlight(cell=c, role=Role.REMOVE) for c in sorted(verdict.remove)]
                + [Highlight(cell=c, role=Role.PLACE) for c in sorted(verdict.place)]
            )
        elif isinstance(verdict, Relift):
            overlay = tuple(Highlight(cell=c, role=Role.FIX) for c in sorted(verdict.squares))
        elif isinstance(verdict, Choose):
            choices = tuple(play.rules.dump_action(a) for a in verdict.actions)
            overlay = tuple(
                Highlight(cell=c, role=Role.TARGET)
                for c in sorted(set().union(*(cells.touched for cells in verdict.cells)))
            )
        if isinstance(verdict, InHand) and self._wanted() is None:
            if play.board_input.focus != verdict.origin:
                play.board_input.select(verdict.origin)
                self._focused = verdict.origin
        elif self._focused is not None and play.board_input.focus == self._focused:
            play.board_input.select(None)
            self._focused = None
        said = notice(verdict, lambda cell: play.rules.cell_words(play.state, cell))
        if (*play.overlay.shown(), focus) != (overlay, choices, said, play.board_input.focus):
            play.overlay.show(overlay, choices, notice=said)
            play.changed()

    def _tick_walk(self) -> None:
        """Tick off the walk-through's steps whose squares the board shows done."""
        play = self.play
        occupied = self.inference.occupied
        if occupied is None:
            return
        land = self.inference.landscapes
        walk = self._walk

        def matches(cell: str, last: HandStep) -> bool:
            if (cell in occupied) != (cell in last.minis):
                return False
            return land is None or (cell in land) == (cell in last.lands)

        def done(steps: Sequence[HandStep], last: HandStep) -> bool:
            """The squares show ``steps`` done: each moved only what the sensors see,
            on squares changed since the position, and every square the walk touched so
            far stands as it does after ``last``; a landscape, crystals or a square
            nothing was done on yet: "Done" by hand."""
            cells = {c for step in steps for c in step.cells}
            if not all(step.sensed for step in steps):
                return False
            if not cells <= walk.checkable or not cells <= walk.lifted:
                return False
            return all(matches(c, last) for c in last.seen)

        if play.fix.tick_off(done):
            play.changed()


__all__ = [
    "MAX_CHAIN",
    "SETTLE_S",
    "Agree",
    "BoardInference",
    "Choose",
    "Differ",
    "InHand",
    "Play",
    "Relift",
    "SensedPlay",
    "SensingDriver",
    "Unknown",
    "Verdict",
    "Who",
    "landscapes",
    "miniatures",
    "replaced_squares",
    "unsensed",
]
