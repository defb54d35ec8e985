"""The fix-the-table walk-through: what an action asks of the physical table, step by step.

An action's :class:`~companion.events.TableChanges` say what the players must change on
the table (a miniature moved, crystals taken, a tile turned). The walk shows one step at
a time: the board and the LEDs light only that step's cells (:meth:`FixWalk.highlights`),
the screen shows its instruction and "Done" / "All done". It guides and checks nothing:
the players tap "Done" (or the table's confirm button), and a sensing board ticks off a
step by itself once its square shows it done (:meth:`FixWalk.tick_off`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from companion.events import Event, TableChanges
from companion.highlights import Highlight, TableChange
from firmware_bridge.leds.render import highlights_from_table_changes
from kiosk.presenters.play_view import FixStep


class FixWalk:
    """The steps of the last action's table changes and the one shown now."""

    def __init__(self) -> None:
        self.changes: tuple[TableChange, ...] = ()
        self.index = 0

    def start(self, events: Iterable[Event]) -> None:
        """A new position: the table changes its events ask for, from the first step."""
        changes: list[TableChange] = []
        for event in events:
            if isinstance(event, TableChanges):
                changes.extend(event.changes)
        self.changes = tuple(sorted(changes, key=lambda c: c.step))
        self.index = 0

    def clear(self) -> None:
        """Nothing to change on the table (a lesson took the action back)."""
        self.changes, self.index = (), 0

    @property
    def step(self) -> int | None:
        """The walk-through step shown now (None when the table needs no fixing)."""
        if self.index >= len(self.changes):
            return None
        return self.changes[self.index].step

    def highlights(self) -> tuple[Highlight, ...]:
        """The FIX highlight(s) of the current step: all the board and the LEDs show."""
        step = self.step
        return highlights_from_table_changes(c for c in self.changes if c.step == step)

    def view(self) -> FixStep | None:
        if self.index >= len(self.changes):
            return None
        change = self.changes[self.index]
        return FixStep(
            step=change.step,
            number=self.index + 1,
            total=len(self.changes),
            cell=change.cell,
            instruction=change.instruction,
        )

    def next(self) -> None:
        """The players changed the table as step N says: show step N + 1."""
        if self.index < len(self.changes):
            self.index += 1

    def finish(self) -> None:
        """The players changed the table as every remaining step says ("All done")."""
        self.index = len(self.changes)

    def tick_off(self, done: Callable[[str], bool]) -> bool:
        """Pass every step from the current one on whose cell ``done`` says the table
        shows done (a sensing board); True when any was passed."""
        ticked = False
        while self.step is not None and done(self.changes[self.index].cell):
            self.index += 1
            ticked = True
        return ticked
