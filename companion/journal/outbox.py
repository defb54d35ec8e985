"""The reading end of the journal's outbox: the records waiting to be sent to the fleet.

With :meth:`Journal.keep_outbox <companion.journal.Journal.keep_outbox>` on, an entry's
records for the fleet (a finished game's record, with the entry that finished it) are
queued in that entry's commit; whoever forwards them (the kiosk's fleet publisher, on
its own thread) opens an :class:`Outbox` — its own SQLite connection, since a connection
belongs to one thread — reads what waits in order and removes a message only once the
broker has taken it. A crash between sending and removing sends the message again: the
fleet receives every record at least once, and tells repeats apart by the kiosk, the
game and the entry (``game_id``, ``seq``).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.errors import JournalError
from companion.journal.records import describe_error
from companion.journal.schema import _OUTBOX_DROPPED
from companion.journal.transaction import immediate
from companion.model import Frozen

#: How long a read or a removal waits for the journal's writer before giving up.
BUSY_TIMEOUT_S = 10.0


class OutboxMessage(Frozen):
    """One queued message: its place in the queue, its topic (relative), the game entry
    that made it, and its JSON."""

    msg_id: int
    topic: str
    game_id: int
    seq: int
    payload: str
    created: str


class Outbox:
    """The outbox of the journal at ``path``, for one thread (not the journal's owner)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        if not Path(self.path).is_file():
            raise JournalError(f"Cannot open the outbox of {self.path}: there is no such file.")
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            self._db.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            raise JournalError(
                f"Cannot open the outbox of {self.path}: {describe_error(exc)}"
            ) from None

    def pending(self, *, after: int = 0, limit: int = 100) -> list[OutboxMessage]:
        """The oldest waiting messages with ``msg_id`` above ``after``, in queue order."""
        rows = self._run(
            "read",
            "SELECT msg_id, topic, game_id, seq, payload, created FROM outbox WHERE msg_id > ?"
            " ORDER BY msg_id LIMIT ?",
            (after, limit),
        )
        return [
            OutboxMessage(msg_id=m, topic=t, game_id=g, seq=q, payload=p, created=c)
            for m, t, g, q, p, c in rows
        ]

    def remove(self, msg_ids: Iterable[int]) -> None:
        """Forget messages the broker has taken (one commit)."""
        ids = [(msg_id,) for msg_id in msg_ids]
        if not ids:
            return
        try:
            with immediate(self._db) as db:
                db.executemany("DELETE FROM outbox WHERE msg_id = ?", ids)
        except sqlite3.Error as exc:
            raise JournalError(
                f"Could not update the outbox of {self.path}: {describe_error(exc)}"
            ) from None

    def backlog(self) -> int:
        """How many messages wait."""
        count: int = self._run("count", "SELECT COUNT(*) FROM outbox", ())[0][0]
        return count

    def dropped(self) -> int:
        """How many were let go because the outbox was full."""
        rows = self._run("read", "SELECT value FROM meta WHERE key = ?", (_OUTBOX_DROPPED,))
        return int(rows[0][0]) if rows else 0

    def integrity(self) -> tuple[str, ...]:
        """SQLite's ``quick_check`` of the whole journal file; empty when it is sound.

        Here because this connection belongs to a background thread: the check reads
        every page, which must not hold up the table's own connection."""
        try:
            rows = self._run("check", "PRAGMA quick_check", ())
        except JournalError as error:
            return (str(error),)
        found = tuple(str(row[0]) for row in rows)
        return () if found == ("ok",) else found

    def close(self) -> None:
        self._db.close()

    def _run(self, what: str, sql: str, args: tuple[object, ...]) -> list[tuple[Any, ...]]:
        try:
            return list(self._db.execute(sql, args))
        except sqlite3.Error as exc:
            raise JournalError(
                f"Could not {what} the outbox of {self.path}: {describe_error(exc)}"
            ) from None
