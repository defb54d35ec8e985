"""The crash-safe journal: every accepted action, committed before it is acknowledged.

The only module of :mod:`companion` that does I/O. One SQLite file holds every game:
a ``games`` row (game, players, options, seed or start position, outcome) and an
append-only list of ``entries`` — ``act`` (an action as JSON), ``undo`` and ``redo`` —
so a game is recovered by replaying its entries. WAL with ``synchronous=FULL`` makes
each commit survive a power cut (SQLite's documentation; an SD card can lose the last
commit with ``NORMAL``). Each entry carries a CRC-32 of its text: a damaged row is
reported with its position and moved to ``damaged_entries``, never silently dropped.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from companion.errors import JournalError
from companion.model import Frozen

EntryKind = Literal["act", "undo", "redo"]
GameStatus = Literal["active", "finished"]

SCHEMA_VERSION = 1

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
    demo INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(game_id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def entry_crc(kind: str, payload: str) -> int:
    """The checksum stored with each entry (kind and payload, so neither can be swapped)."""
    return zlib.crc32(f"{kind}\x00{payload}".encode()) & 0xFFFFFFFF


class GameInfo(Frozen):
    """A journal's record of one game, without its entries."""

    game_id: int
    game: str
    players: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    start_position: dict[str, Any] | None
    created: str
    updated: str
    status: GameStatus
    outcome: dict[str, Any] | None
    demo: bool
    entries: int


class Entry(Frozen):
    """One journal row that passed its checksum."""

    seq: int
    kind: EntryKind
    payload: str


class Damage(Frozen):
    """A journal row that could not be used, and where it was."""

    game_id: int
    seq: int
    reason: str

    def describe(self) -> str:
        return f"game {self.game_id}, entry {self.seq}: {self.reason}"


class Journal:
    """An SQLite journal of games. Not thread-safe: one owner (the main loop) uses it."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open or create the journal at ``path`` (``":memory:"`` for a throwaway one)."""
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"Cannot open the journal {self.path}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise JournalError(f"Could not {what} in the journal {self.path}: {exc}") from None

    # --- writing ---------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        players: tuple[str, ...],
        options: dict[str, Any],
        seed: int,
        start_position: dict[str, Any] | None = None,
        demo: bool = False,
    ) -> int:
        now = _now()
        with self._transaction("create a game") as db:
            cur = db.execute(
                "INSERT INTO games(game, players, options, seed, start_position, created,"
                " updated, demo) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game,
                    json.dumps(list(players)),
                    json.dumps(options, sort_keys=True),
                    seed,
                    None if start_position is None else json.dumps(start_position),
                    now,
                    now,
                    int(demo),
                ),
            )
            game_id = cur.lastrowid
        if game_id is None:  # pragma: no cover - sqlite always sets it for an INSERT
            raise JournalError("The journal did not return a game id.")
        return game_id

    def append(self, game_id: int, kind: EntryKind, payload: str = "") -> int:
        """Append one entry and commit it. Returns its position (seq), 1-based."""
        with self._transaction("record the action") as db:
            row = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            db.execute(
                "INSERT INTO entries(game_id, seq, kind, payload, crc, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, payload, entry_crc(kind, payload), _now()),
            )
            db.execute("UPDATE games SET updated = ? WHERE game_id = ?", (_now(), game_id))
        return seq

    def set_outcome(self, game_id: int, outcome: dict[str, Any] | None) -> None:
        """Mark a game finished (with its outcome) or active again (after an undo)."""
        status = "active" if outcome is None else "finished"
        text = None if outcome is None else json.dumps(outcome, sort_keys=True)
        with self._transaction("record the outcome") as db:
            db.execute(
                "UPDATE games SET status = ?, outcome = ?, updated = ? WHERE game_id = ?",
                (status, text, _now(), game_id),
            )

    def quarantine(self, game_id: int, from_seq: int, reason: str) -> int:
        """Move entries ``from_seq`` onwards to ``damaged_entries``; returns how many.

        Used after a replay stopped at a bad row, so the game can go on from the last
        good action while the bad rows stay on record for inspection.
        """
        with self._transaction("set damaged entries aside") as db:
            rows = db.execute(
                "SELECT seq, kind, payload FROM entries WHERE game_id = ? AND seq >= ?",
                (game_id, from_seq),
            ).fetchall()
            found = _now()
            db.executemany(
                "INSERT INTO damaged_entries(game_id, seq, kind, payload, reason, found)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        seq,
                        kind,
                        payload,
                        reason if seq == from_seq else "after damage",
                        found,
                    )
                    for seq, kind, payload in rows
                ],
            )
            db.execute("DELETE FROM entries WHERE game_id = ? AND seq >= ?", (game_id, from_seq))
        return len(rows)

    def delete_game(self, game_id: int) -> None:
        """Remove a game and its entries (demo games are pruned this way)."""
        with self._transaction("delete a game") as db:
            db.execute("DELETE FROM entries WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE game_id = ?", (game_id,))

    # --- reading ---------------------------------------------------------------------

    def _info(self, row: tuple[Any, ...]) -> GameInfo:
        (
            game_id,
            game,
            players,
            options,
            seed,
            start,
            created,
            updated,
            status,
            outcome,
            demo,
            entries,
        ) = row
        return GameInfo(
            game_id=game_id,
            game=game,
            players=tuple(json.loads(players)),
            options=json.loads(options),
            seed=seed,
            start_position=None if start is None else json.loads(start),
            created=created,
            updated=updated,
            status=status,
            outcome=None if outcome is None else json.loads(outcome),
            demo=bool(demo),
            entries=entries,
        )

    _INFO_SQL = (
        "SELECT g.game_id, g.game, g.players, g.options, g.seed, g.start_position, g.created,"
        " g.updated, g.status, g.outcome, g.demo,"
        " (SELECT COUNT(*) FROM entries e WHERE e.game_id = g.game_id)"
        " FROM games g"
    )

    def games(self, *, include_demo: bool = False) -> list[GameInfo]:
        """Every game, most recently played first."""
        sql = self._INFO_SQL + ("" if include_demo else " WHERE g.demo = 0")
        try:
            rows = self._db.execute(sql + " ORDER BY g.updated DESC, g.game_id DESC").fetchall()
            return [self._info(r) for r in rows]
        except (sqlite3.Error, ValueError) as exc:
            raise JournalError(f"Cannot list the games in {self.path}: {exc}") from None

    def game(self, game_id: int) -> GameInfo:
        try:
            row = self._db.execute(self._INFO_SQL + " WHERE g.game_id = ?", (game_id,)).fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"Cannot read game {game_id}: {exc}") from None
        if row is None:
            raise JournalError(f"There is no game {game_id} in the journal.")
        try:
            return self._info(row)
        except ValueError as exc:
            raise JournalError(f"Game {game_id}'s header is damaged: {exc}") from None

    def entries(self, game_id: int) -> tuple[list[Entry], Damage | None]:
        """The good entries of a game in order, and the first damaged one (if any).

        Reading stops at the first row that fails its checksum, has an unknown kind or
        breaks the sequence: everything after it cannot be trusted to replay.
        """
        try:
            rows = self._db.execute(
                "SELECT seq, kind, payload, crc FROM entries WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"Cannot read game {game_id}'s entries: {exc}") from None
        good: list[Entry] = []
        for expected, (seq, kind, payload, crc) in enumerate(rows, start=1):
            reason = None
            if seq != expected:
                reason = f"entry {expected} is missing (found {seq} instead)"
                seq = expected
            elif kind not in ("act", "undo", "redo"):
                reason = f"unknown entry kind {kind!r}"
            elif not isinstance(payload, str) or crc != entry_crc(kind, payload):
                reason = "checksum mismatch (the row is truncated or corrupt)"
            if reason is not None:
                return good, Damage(game_id=game_id, seq=seq, reason=reason)
            good.append(Entry(seq=seq, kind=kind, payload=payload))
        return good, None

    def damaged(self, game_id: int) -> list[Damage]:
        rows = self._db.execute(
            "SELECT seq, reason FROM damaged_entries WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [Damage(game_id=game_id, seq=s, reason=r) for s, r in rows]
