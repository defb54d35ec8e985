"""The fix-the-table walk-through: what an action asks of the physical table, step by step.

When an action's events include :class:`~companion.events.TableChanges`, the table no
longer matches the game. The walk shows one hand movement at a time
(:func:`companion.table_steps.walk_steps`): what to lift, lit red where it stands now, and
where it goes, lit green (:meth:`FixWalk.highlights`: all the board and the LEDs show),
with the instruction and "Done" / "All done". It guides and checks nothing: the players
tap "Done" (or the table's confirm button), and a sensing board ticks off steps by itself
once its squares show them done (:meth:`FixWalk.tick_off`). A move the players entered
themselves whose walk would only repeat it — one miniature from where they tapped to
where they tapped — asks for no walk at all (no extra "Done").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from companion.events import Event, TableChanges
from companion.highlights import Highlight
from companion.model import Frozen
from companion.rules import AnyRules, GameState
from companion.table_steps import HandStep, hand_steps, walk_steps
from companion.views import ActionCells, BoardView
from kiosk.presenters.play_view import FixStep


def repeats(steps: Sequence[HandStep], entered: ActionCells | None) -> bool:
    """True when ``steps`` only repeat a move the players entered: one hand movement of
    one piece from its origin to its target, nothing held, nothing else."""
    if entered is None or entered.origin is None or entered.target is None:
        return False
    if len(steps) != 1:
        return False
    (step,) = steps
    return step.lift == (entered.origin,) and step.put == (entered.target,) and not step.fix


class FixWalk:
    """The steps of the last action's table changes and the one shown now. The players'
    "Done" and "All done" (:meth:`next`, :meth:`finish`) redraw through ``changed``."""

    def __init__(self, changed: Callable[[], None] = lambda: None) -> None:
        self._changed = changed
        self.steps: tuple[HandStep, ...] = ()
        self.index = 0

    def start(
        self,
        events: Iterable[Event],
        boards: tuple[BoardView | None, BoardView | None] = (None, None),
        names: Callable[[str], str] = str,
        owners: Sequence[str] = (),
        entered: ActionCells | None = None,
    ) -> None:
        """A new position: the hand movements that take the table from ``boards[0]`` to
        ``boards[1]`` when the events ask for table changes, from the first step.
        ``entered``: the cells of a move the players entered themselves (by touch), whose
        walk is skipped when it would only repeat it."""
        changes = [c for e in events if isinstance(e, TableChanges) for c in e.changes]
        self.index = 0
        if not changes:
            self.steps = ()
            return
        steps = walk_steps(hand_steps(*boards, names, owners), changes, boards)
        self.steps = () if repeats(steps, entered) else steps

    def start_from(
        self,
        events: Iterable[Event],
        rules: AnyRules,
        before: GameState,
        after: GameState,
        entered: Frozen | None = None,
    ) -> None:
        """A new position ``after`` reached from ``before``, the state the table still
        shows: the walk between their boards, said in ``before``'s words. ``entered``:
        the action the players entered themselves (by touch), whose walk is skipped when
        it would only repeat it."""
        self.start(
            events,
            (rules.board(before), rules.board(after)),
            lambda cell: rules.cell_words(before, cell),
            tuple(after.players),
            None if entered is None else rules.action_cells(before, entered),
        )

    def clear(self) -> None:
        """Nothing to change on the table (a lesson took the action back)."""
        self.steps, self.index = (), 0

    @property
    def step(self) -> int | None:
        """The number of the step shown now, from 1 (None when the table needs no fixing)."""
        return self.index + 1 if self.index < len(self.steps) else None

    def highlights(self) -> tuple[Highlight, ...]:
        """The current step's cells: red where to lift, green where to put."""
        if self.index >= len(self.steps):
            return ()
        return self.steps[self.index].highlights(self.index + 1)

    def view(self) -> FixStep | None:
        if self.index >= len(self.steps):
            return None
        step = self.steps[self.index]
        return FixStep(
            step=self.index + 1,
            number=self.index + 1,
            total=len(self.steps),
            lift=step.lift,
            put=step.put,
            instruction=step.text,
        )

    def next(self) -> None:
        """The players changed the table as step N says: show step N + 1."""
        if self.index < len(self.steps):
            self.index += 1
        self._changed()

    def finish(self) -> None:
        """The players changed the table as every remaining step says ("All done"): the
        walk-through guides, it checks nothing, so one tap may end it."""
        self.index = len(self.steps)
        self._changed()

    def tick_off(self, done: Callable[[Sequence[HandStep], HandStep], bool]) -> bool:
        """Pass the steps up to the furthest one the table shows done — ``done(steps,
        last)``: ``steps`` (from the current one to ``last``) done on a sensing board, the
        squares as they stand once ``last`` is done; True when any was passed."""
        for end in range(len(self.steps), self.index, -1):
            if done(self.steps[self.index : end], self.steps[end - 1]):
                self.index = end
                return True
        return False
