"""The journal's tables and its schema version."""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2
"""1: the first journals. 2: ``games.entry_count`` (kept with every entry), the rules
version each game is played under, and ``snapshots`` (versioned replay)."""

TABLES = ("meta", "games", "entries", "damaged_entries", "snapshots")
TABLES_V1 = TABLES[:4]
# Two more tables are not in TABLES. "outbox": the fleet's store-and-forward queue
# (docs/fleet.md): records on their way to the fleet broker (a finished game's record,
# written with the entry that finished it), never a game's only copy. "game_notes": what
# the program that plays a game keeps beside its moves, by key (the kiosk's teach-mode
# progress), never needed to replay a game. A file without either is complete (each is
# created on opening) and older versions may ignore them.

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    start_position TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    outcome TEXT,
    demo INTEGER NOT NULL DEFAULT 0,
    entry_count INTEGER NOT NULL DEFAULT 0,
    rules_version INTEGER NOT NULL DEFAULT 1,
    base_seq INTEGER NOT NULL DEFAULT 0
);
-- Home's lists (the most recent unfinished games, the latest results) read a few rows
-- of this index, whatever the number of games (Journal.recent_games).
CREATE INDEX IF NOT EXISTS games_recent ON games(status, demo, updated, game_id);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(game_id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    rules_version INTEGER NOT NULL,
    position TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS outbox (
    msg_id INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_notes (
    game_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game_id, key)
);
CREATE TABLE IF NOT EXISTS damaged_entries (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT,
    payload TEXT,
    reason TEXT NOT NULL,
    found TEXT NOT NULL
);
"""

# Losses noticed when opening are kept as notes in ``meta`` (keys ``note:…``), so the
# doctor keeps reporting them after the file itself looks healthy again.
_NOTE_LOST_WAL = "note:lost_wal"
_NOTE_EMPTIED = "note:emptied"
_NOTE_MISSING_TABLES = "note:missing_tables"
_NOTE_NO_VERSION = "note:no_schema_version"
# How many fleet messages the outbox let go because it was full (``meta``).
_OUTBOX_DROPPED = "outbox_dropped"


#: The columns schema 2 added to ``games``, with their SQL types and defaults.
_COLUMNS_V2 = {
    "entry_count": "INTEGER NOT NULL DEFAULT 0",
    "base_seq": "INTEGER NOT NULL DEFAULT 0",
    "rules_version": "INTEGER NOT NULL DEFAULT 1",
}


def schema_version(db: sqlite3.Connection) -> int | None:
    """The schema version a file says it has (None: it says none, or none readable)."""
    row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    try:
        return None if row is None else int(row[0])
    except ValueError:
        return None


def missing_columns(db: sqlite3.Connection) -> tuple[str, ...]:
    """The schema 2 columns a version 1 file's ``games`` lacks (none: nothing to do)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    return tuple(column for column in _COLUMNS_V2 if column not in columns)


def add_columns(db: sqlite3.Connection, missing: tuple[str, ...]) -> None:
    """Upgrade a version 1 file to schema 2 inside the caller's transaction: add the
    ``missing`` columns; a new ``entry_count`` is counted once, from what is there now."""
    for column in missing:
        db.execute(f"ALTER TABLE games ADD COLUMN {column} {_COLUMNS_V2[column]}")
    if "entry_count" in missing:
        db.execute(
            "UPDATE games SET entry_count ="
            " (SELECT COUNT(*) FROM entries e WHERE e.game_id = games.game_id)"
        )
