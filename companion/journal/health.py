"""The journal's health: SQLite's own page check and what only the journal can see."""

from __future__ import annotations

import sqlite3
from typing import Protocol

from companion.journal.records import Damage, describe_error
from companion.journal.schema import TABLES, schema_version


class Journal(Protocol):
    """What the checks read of :class:`companion.journal.store.Journal` (its own
    connection and what it noticed while opening): a protocol, so the store imports
    this module and this module not the store."""

    read_only: bool
    read_only_reason: str | None
    _noticed: dict[str, str]
    _db: sqlite3.Connection

    def unreadable_games(self) -> list[Damage]: ...


def check(journal: Journal, *, full: bool = False) -> list[str]:
    """Every problem found, as sentences for people; an empty list means healthy.

    ``full`` runs SQLite's ``integrity_check`` (reads every page) instead of the
    faster ``quick_check``.
    """
    problems: list[str] = []
    pragma = "integrity_check" if full else "quick_check"
    try:
        rows = [r[0] for r in journal._db.execute(f"PRAGMA {pragma}(20)")]
    except sqlite3.DatabaseError as exc:
        return [*problems, f"The journal file is damaged: {describe_error(exc)}."]
    if rows != ["ok"]:
        problems.append(f"SQLite's {pragma} found damage: " + "; ".join(str(r) for r in rows[:5]))
    problems.extend(logical_problems(journal))
    return list(dict.fromkeys(problems))


def logical_problems(journal: Journal) -> list[str]:
    """What SQLite's own check cannot see: missing tables, an unknown schema version,
    losses noticed when opening, unreadable headers, entry counts that disagree with
    the rows, entries set aside."""
    try:
        return _logical_problems(journal)
    except sqlite3.DatabaseError as exc:
        return [f"The journal's tables cannot be read: {describe_error(exc)}."]


def _logical_problems(journal: Journal) -> list[str]:
    problems: list[str] = []
    if journal.read_only:
        # Notes could not be stored: say what was noticed now.
        problems += [f"Noticed on opening: {note}" for note in journal._noticed.values()]
    if journal.read_only_reason and "newer version" in journal.read_only_reason:
        problems.append(f"The journal is read-only: {journal.read_only_reason}.")
    tables = {
        name for (name,) in journal._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }
    missing = [t for t in TABLES if t not in tables]
    if missing:
        return [f"The journal has no {', '.join(missing)} table: it is not usable."]
    version = schema_version(journal._db)
    if version is None:
        problems.append("The journal does not record its schema version.")
    for (note,) in journal._db.execute(
        "SELECT value FROM meta WHERE key LIKE 'note:%' ORDER BY key"
    ):
        problems.append(f"Noticed on opening, {note}")
    for damage in journal.unreadable_games():
        problems.append(f"Game {damage.game_id}'s header is damaged: {damage.reason}.")
    for game_id, counted, present in journal._db.execute(
        "SELECT g.game_id, g.entry_count,"
        " (SELECT COUNT(*) FROM entries e WHERE e.game_id = g.game_id) FROM games g"
    ):
        if counted != present:
            lost = " (acknowledged moves are missing)" if counted > present else ""
            problems.append(
                f"Game {game_id}: the header counts {counted} entries but {present} are"
                f" present{lost}."
            )
    aside = journal._db.execute(
        "SELECT COUNT(*), COUNT(DISTINCT game_id) FROM damaged_entries"
    ).fetchone()
    if aside[0]:
        problems.append(
            f"{aside[0]} damaged entries of {aside[1]} game(s) are set aside"
            " (see `companion damage`)."
        )
    return problems
