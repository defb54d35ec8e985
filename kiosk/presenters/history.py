"""The game log's newest lines and the last roll, carried from one state to the next.

Both are read off the session's events, one entry per played action. Read afresh for
every state, the log made its sixty lines anew and the last roll walked the whole game
back (in a card game, which has no roll, every entry): about 0.5 M instructions a move
in the solo game, growing with its length. A move only adds an entry, so
:class:`History` reads only the entries added since it last looked, and starts again
whenever the entries it read are no longer the game's first ones (an undo, a redo, a
game resumed): what it answers is always what reading every entry would.
"""

from __future__ import annotations

from companion.events import DiceRolled, Event
from kiosk.presenters.play_view import LogLine

#: The newest log lines kept (the play screen shows fewer).
LOG_LINES = 60

Entries = tuple[tuple[Event, ...], ...]


class History:
    """The log and the last roll of the entries it was last shown (see the module)."""

    def __init__(self) -> None:
        self._entries: Entries = ()
        self._log: tuple[LogLine, ...] = ()
        self._roll: DiceRolled | None = None

    def read(self, entries: Entries) -> None:
        """Bring the log and the roll up to ``entries`` (the session's ``events``)."""
        known = self._entries
        if entries is known:
            return
        start = len(known)
        # The entries read before are still the game's first ones (compared by identity
        # first, at C speed): only the newer ones are read.
        if not (start <= len(entries) and entries[:start] == known):
            start, self._log, self._roll = 0, (), None
        lines: list[LogLine] = []
        roll: DiceRolled | None = None
        for number in range(len(entries), start, -1):  # newest first
            events = entries[number - 1]
            if len(lines) < LOG_LINES:
                lines.extend(LogLine(number=number, text=event.text) for event in events)
            if roll is None:  # the newest entry's first roll, as the log reads it
                roll = next((e for e in events if isinstance(e, DiceRolled)), None)
            if roll is not None and len(lines) >= LOG_LINES:
                break
        self._entries = entries
        self._log = (*lines, *self._log)[:LOG_LINES] if lines else self._log
        if roll is not None:
            self._roll = roll

    @property
    def log(self) -> tuple[LogLine, ...]:
        """The newest :data:`LOG_LINES` lines, newest first."""
        return self._log

    @property
    def last_roll(self) -> DiceRolled | None:
        """The newest roll of the game (an undone roll is no longer the last)."""
        return self._roll
