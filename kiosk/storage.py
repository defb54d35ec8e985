"""Where the kiosk keeps its games: the journal file in the data directory.

One module for the app, the ``companion`` command, the doctor and the support bundle,
so the file's name is written once and the app does not import the command line.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from companion.journal import Journal

JOURNAL_FILE = "journal.sqlite3"


def open_journal(data_dir: Path) -> Journal:
    return Journal(data_dir / JOURNAL_FILE)


def fresh_seed() -> int:
    """A new game's seed: 63 random bits (what SQLite stores)."""
    return secrets.randbits(63)
