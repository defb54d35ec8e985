"""The journal's SQLite file changed behind its back, as a bad sector, a torn write or
another program would change it.

The tests of damage write through a second connection to the real file, never through
the journal's own: what the journal then reads is what it would find on a real disk.
``tamper(journal, "UPDATE entries SET payload = 'x' WHERE seq = ?", (2,))``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager

from companion.journal import Journal


@contextmanager
def on_disk(journal: Journal) -> Iterator[sqlite3.Connection]:
    """A second connection to ``journal``'s file, in autocommit; closed on leaving."""
    assert journal.path != ":memory:", "a journal in memory has no file to damage"
    with closing(sqlite3.connect(journal.path, isolation_level=None, timeout=5)) as db:
        yield db


def tamper(journal: Journal, statement: str, parameters: tuple[object, ...] = ()) -> None:
    """Run one SQL ``statement`` on ``journal``'s file from outside the journal."""
    with on_disk(journal) as db:
        db.execute(statement, parameters)
