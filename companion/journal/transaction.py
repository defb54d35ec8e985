"""The one way the journal's files are written: a transaction taken at once."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """A write transaction on ``db`` (opened with ``isolation_level=None``), taken at
    once (``BEGIN IMMEDIATE``: no other writer slips in between its reads and its
    writes), committed at the end and rolled back on any error, which is raised."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
