"""The journal itself: one SQLite file, opened, written one transaction per action, read
row by row (see the package's docstring for the rules it keeps)."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from companion.errors import DamagedHeader, GameInUse, GameNotFound, JournalError
from companion.journal import headers, health
from companion.journal.locks import GameLocks
from companion.journal.records import (
    Damage,
    Entry,
    EntryKind,
    GameInfo,
    GameStatus,
    LockHolder,
    OutcomeMark,
    Snapshot,
    check_row,
    describe_error,
    entry_crc,
    now,
)
from companion.journal.schema import (
    _NOTE_EMPTIED,
    _NOTE_LOST_WAL,
    _NOTE_MISSING_TABLES,
    _NOTE_NO_VERSION,
    _OUTBOX_DROPPED,
    _SCHEMA,
    SCHEMA_VERSION,
    TABLES,
    TABLES_V1,
    add_columns,
    missing_columns,
    schema_version,
)
from companion.journal.transaction import immediate


class Journal:
    """An SQLite journal of games. Not thread-safe: one owner (the main loop) uses it."""

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        """Open or create the journal at ``path`` (``":memory:"`` for a throwaway one).

        With ``read_only``, or when the file or its folder cannot be written, the journal
        is opened read-only: games can be listed and exported, nothing can be saved
        (:attr:`read_only_reason` says why).
        """
        self.path = str(path)
        self.read_only = False
        self.read_only_reason: str | None = None
        self._noticed: dict[str, str] = {}  # note key → sentence, found while opening
        self._in_memory = self.path == ":memory:"
        self._outbox_limit: int | None = None  # None: nothing is queued for the fleet
        self._outbox_topic = ""  # the fleet's topic of what is queued (keep_outbox)
        #: Records queued in the outbox by this object so far (the forwarder is woken
        #: when it grows, not after every action).
        self.queued = 0
        self._locks = GameLocks(self.path, in_memory=self._in_memory)
        try:
            self._db = self._connect(read_only)
            if not self.read_only:
                self._prepare()
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(
                f"Cannot open the journal {self.path}: {describe_error(exc)}"
            ) from None

    # --- opening ---------------------------------------------------------------------

    def _connect(self, read_only: bool) -> sqlite3.Connection:
        file = Path(self.path)
        if self._in_memory:
            return sqlite3.connect(self.path, isolation_level=None)
        if file.is_dir():
            raise JournalError(f"Cannot open the journal {self.path}: it is a folder, not a file.")
        blocking = next((p for p in file.parents if p.exists() and not p.is_dir()), None)
        if blocking is not None:
            raise JournalError(
                f"Cannot open the journal {self.path}: {blocking} is a file, not a folder."
            )
        reason = "opened read-only on request" if read_only else self._why_not_writable(file)
        if reason is None:
            file.parent.mkdir(parents=True, exist_ok=True)
            if file.exists() and file.stat().st_size == 0:
                self._noticed[_NOTE_EMPTIED] = (
                    "the journal file was empty (0 bytes) when it was opened: if games were"
                    " stored here, the file was cut off and they are lost."
                )
            if self._marker().exists() and not Path(self.path + "-wal").exists():
                self._noticed[_NOTE_LOST_WAL] = (
                    "the journal's write-ahead log (-wal file) vanished after the companion"
                    " stopped without closing it: moves made just before may be lost."
                )
            db = sqlite3.connect(self.path, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            return db
        self.read_only, self.read_only_reason = True, reason
        if not file.exists():
            raise JournalError(f"Cannot open the journal {self.path}: there is no such file.")
        # Read-only opening creates no file beside the journal: while a writer runs, its
        # -wal and -shm files exist and are shared; when no -wal exists nobody writes,
        # and the file is read ``immutable`` (a check run as root would otherwise leave
        # root-owned -wal/-shm files the kiosk's user could not open).
        running = Path(self.path + "-wal").exists()
        uri = file.resolve().as_uri() + ("?mode=ro" if running else "?mode=ro&immutable=1")
        return sqlite3.connect(uri, uri=True, isolation_level=None)

    @staticmethod
    def _why_not_writable(file: Path) -> str | None:
        folder = file.parent if file.parent.exists() else None
        if file.exists() and not os.access(file, os.W_OK):
            return f"the file {file} cannot be written"
        writable_folder = folder is None or os.access(folder, os.W_OK | os.X_OK)
        if file.exists() and not writable_folder:
            return f"the folder {folder} cannot be written"
        return None

    def _prepare(self) -> None:
        """Check what the file holds, migrate an older schema, note losses found."""
        existing = {
            name
            for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        version = schema_version(self._db) if "meta" in existing else None
        required = TABLES_V1 if (version or 1) < 2 else TABLES
        if existing and not existing.issuperset(required):
            missing = ", ".join(t for t in required if t not in existing)
            self._noticed[_NOTE_MISSING_TABLES] = (
                f"the journal had lost its table(s) {missing}: what they held is gone."
            )
        if version is not None and version > SCHEMA_VERSION:
            self._db.close()
            self._db = self._connect(read_only=True)
            self.read_only_reason = (
                f"it was written by a newer version of the companion (journal schema"
                f" {version}; this version knows {SCHEMA_VERSION})"
            )
            return
        if "meta" in existing and version is None:
            self._noticed[_NOTE_NO_VERSION] = (
                "the journal did not say which schema version it had; it was treated as"
                " version 1 and upgraded."
            )
        self._db.executescript(_SCHEMA)
        if "games" in existing and (absent := missing_columns(self._db)):
            with self._transaction("upgrade the journal to schema 2") as db:
                add_columns(db, absent)
        self._db.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )
        for key, note in self._noticed.items():
            self._db.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, f"{now()}: {note}")
            )
        self._mark_open()

    # The "open" marker: created by a writer, removed by the last one to close cleanly
    # (the one whose close made SQLite fold the write-ahead log away). Present while no
    # write-ahead log exists means the log was deleted after an unclean stop.

    def _marker(self) -> Path:
        return Path(self.path + "-open")

    def _mark_open(self) -> None:
        if self._in_memory:
            return
        with suppress(OSError):
            self._marker().touch()

    def close(self) -> None:
        self._locks.release_all()
        self._db.close()
        if self._in_memory or self.read_only:
            return
        if not Path(self.path + "-wal").exists():  # the last to close: the log is folded in
            with suppress(OSError):
                self._marker().unlink()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise JournalError(
                f"Could not {what}: the journal {self.path} is read-only"
                f" ({self.read_only_reason}); nothing can be saved."
            )
        try:
            with immediate(self._db) as db:
                yield db
        except sqlite3.Error as exc:
            with suppress(sqlite3.Error):
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
            raise JournalError(
                f"Could not {what} in the journal {self.path}: {describe_error(exc)}"
            ) from None

    # --- writing ---------------------------------------------------------------------

    def create_game(
        self,
        game: str,
        players: tuple[str, ...],
        options: dict[str, Any],
        seed: int,
        start_position: dict[str, Any] | None = None,
        demo: bool = False,
        rules_version: int = 1,
        notes: Mapping[str, str] | None = None,
    ) -> int:
        """Record a new game and claim it for this program; ``notes`` (the host's state
        of the game, :meth:`set_note`) are written in the same commit as its header."""
        created = now()
        game_id: int | None = None
        try:
            with self._transaction("create a game") as db:
                cur = db.execute(
                    "INSERT INTO games(game, players, options, seed, start_position, created,"
                    " updated, demo, rules_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game,
                        json.dumps(list(players)),
                        json.dumps(options, sort_keys=True),
                        seed,
                        None if start_position is None else json.dumps(start_position),
                        created,
                        created,
                        int(demo),
                        rules_version,
                    ),
                )
                game_id = cur.lastrowid
                if game_id is None:  # pragma: no cover - sqlite always sets it for an INSERT
                    raise JournalError("The journal did not return a game id.")
                for key, value in (notes or {}).items():
                    db.execute(
                        "INSERT INTO game_notes(game_id, key, value, crc) VALUES (?, ?, ?, ?)",
                        (game_id, key, value, entry_crc(f"note:{key}", value)),
                    )
                # Claimed before the commit: a lock that cannot be taken (its file on a
                # full disk) leaves no game behind.
                self.claim(game_id)
        except JournalError as exc:
            if game_id is not None and not isinstance(exc, GameInUse):
                self._forget_lock(game_id)
            raise
        return game_id

    def append(
        self,
        game_id: int,
        kind: EntryKind,
        payload: str = "",
        *,
        mark: OutcomeMark | None = None,
        snapshot: Snapshot | None = None,
        outgoing: Sequence[str] = (),
    ) -> int:
        """Append one entry — with the finished mark it changes, where one is due a saved
        position (``snapshot``, after an earlier or this entry) and the records it makes
        for the fleet (``outgoing``: JSON records, queued under :meth:`keep_outbox`'s topic
        only while it is on and the game is not a demo) — in one commit.

        Returns the entry's position (seq), 1-based. Refused with GameInUse when another
        program holds the game.
        """
        self._check_claim(game_id)
        with self._transaction("record the action") as db:
            row = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            at = now()
            db.execute(
                "INSERT INTO entries(game_id, seq, kind, payload, crc, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, kind, payload, entry_crc(kind, payload), at),
            )
            db.execute(
                "UPDATE games SET updated = ?, entry_count = entry_count + 1 WHERE game_id = ?",
                (at, game_id),
            )
            if mark is not None:
                self._write_mark(db, game_id, mark)
            queued = sum(self._queue(db, game_id, seq, record, at) for record in outgoing)
            if snapshot is not None:
                self._write_snapshot(db, game_id, snapshot)
        self.queued += queued
        return seq

    def save_snapshot(self, game_id: int, snapshot: Snapshot) -> None:
        """Save the position after entry ``snapshot.seq``, on its own commit."""
        self._check_claim(game_id)
        with self._transaction("save the position") as db:
            self._write_snapshot(db, game_id, snapshot)

    @staticmethod
    def _write_snapshot(db: sqlite3.Connection, game_id: int, snapshot: Snapshot) -> None:
        text = json.dumps(snapshot.position, sort_keys=True)
        db.execute(
            "INSERT OR REPLACE INTO snapshots(game_id, seq, rules_version, position, crc)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, snapshot.seq, snapshot.rules_version, text, entry_crc("snapshot", text)),
        )

    # --- the fleet's outbox (companion.journal.outbox reads it) ------------------------

    def keep_outbox(self, limit: int, *, topic: str) -> None:
        """From now on, queue the records an entry makes for the fleet (``append``'s
        ``outgoing``) in the ``outbox`` table under ``topic`` (the fleet's, relative), in
        the entry's own commit, for the fleet publisher to forward: a record of an
        acknowledged action reaches the fleet even across a power cut or a broker outage.
        At most ``limit`` wait; beyond that the oldest are let go and counted
        (:meth:`outbox_dropped`).
        """
        if limit < 1:
            raise ValueError("the outbox must hold at least one message")
        self._outbox_limit = limit
        self._outbox_topic = topic

    @property
    def keeps_outbox(self) -> bool:
        """Whether records for the fleet are queued (so worth making)."""
        return self._outbox_limit is not None and not self.read_only

    @property
    def durability(self) -> tuple[str, int]:
        """SQLite's journal mode and sync level it writes with (``("wal", 2)``: WAL, FULL)."""
        mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
        return str(mode), int(self._db.execute("PRAGMA synchronous").fetchone()[0])

    def outbox_dropped(self) -> int:
        """How many queued plays were let go because the outbox was full."""
        row = self._db.execute(
            "SELECT value FROM meta WHERE key = ?", (_OUTBOX_DROPPED,)
        ).fetchone()
        return 0 if row is None else int(row[0])

    def _queue(self, db: sqlite3.Connection, game_id: int, seq: int, payload: str, at: str) -> bool:
        """Queue one record in the outbox (in the caller's transaction); False when the
        outbox is off or the game is a demo."""
        limit = self._outbox_limit
        if limit is None:
            return False
        demo = db.execute("SELECT demo FROM games WHERE game_id = ?", (game_id,)).fetchone()
        if demo is None or demo[0]:
            return False
        cur = db.execute(
            "INSERT INTO outbox(topic, game_id, seq, payload, created) VALUES (?, ?, ?, ?, ?)",
            (self._outbox_topic, game_id, seq, payload, at),
        )
        newest = cur.lastrowid or 0
        dropped = db.execute("DELETE FROM outbox WHERE msg_id <= ?", (newest - limit,)).rowcount
        if dropped > 0:
            db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE"
                " SET value = CAST(value AS INTEGER) + excluded.value",
                (_OUTBOX_DROPPED, str(dropped)),
            )
        return True

    def set_outcome(self, game_id: int, outcome: dict[str, Any] | None) -> None:
        """Mark a game finished (with its outcome) or active again, on its own.

        Only for repairs (a resumed game whose mark disagrees with its replay); a move's
        mark goes with its entry through :meth:`append`.
        """
        self._check_claim(game_id)
        with self._transaction("record the outcome") as db:
            self._write_mark(db, game_id, OutcomeMark(outcome=outcome))

    @staticmethod
    def _write_mark(db: sqlite3.Connection, game_id: int, mark: OutcomeMark) -> None:
        status = "active" if mark.outcome is None else "finished"
        text = None if mark.outcome is None else json.dumps(mark.outcome, sort_keys=True)
        db.execute(
            "UPDATE games SET status = ?, outcome = ?, updated = ? WHERE game_id = ?",
            (status, text, now(), game_id),
        )

    def _check_claim(self, game_id: int) -> None:
        if not self._in_memory and not self.read_only and game_id not in self._locks:
            self.claim(game_id)

    # --- one writer per game (companion.journal.locks) -------------------------------

    def claim(self, game_id: int) -> None:
        """Become the one program that plays ``game_id``; GameInUse if another does.

        Claiming a game this journal object already holds is a no-op.
        """
        self._locks.claim(game_id, read_only=self.read_only)

    def holds(self, game_id: int) -> bool:
        """Whether this journal object plays ``game_id`` now (a throwaway journal, used
        by one program, plays every game)."""
        return self._in_memory or game_id in self._locks

    def release(self, game_id: int) -> None:
        """Let another program play ``game_id`` (the kernel also does it when we die)."""
        self._locks.release(game_id)

    def release_all_but(self, game_id: int | None) -> None:
        """Keep only ``game_id`` claimed: a journal object plays one game at a time."""
        self._locks.release_all_but(game_id)

    def holder(self, game_id: int) -> LockHolder | None:
        """Who holds ``game_id`` (this process included), or None if nobody does."""
        return self._locks.holder(game_id)

    def quarantine(self, game_id: int, from_seq: int, reason: str) -> int:
        """Move entries ``from_seq`` onwards to ``damaged_entries``; returns how many.

        Used after a replay stopped at a bad row, so the game can go on from the last
        good action while the bad rows stay on record for inspection. Entries the header
        counted but that are gone are put on record as missing. The rows are moved as
        stored bytes: a row that is not valid text is kept as it is.
        """
        self._check_claim(game_id)
        with self._transaction("set damaged entries aside") as db:
            rows = db.execute(
                "SELECT seq, CAST(kind AS BLOB), CAST(payload AS BLOB) FROM entries"
                " WHERE game_id = ? AND seq >= ? ORDER BY seq",
                (game_id, from_seq),
            ).fetchall()
            counted = db.execute(
                "SELECT entry_count FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            found = now()
            present = {seq for seq, _, _ in rows}
            missing = [
                s
                for s in range(from_seq, int(counted[0] if counted else 0) + 1)
                if s not in present
            ]
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
                ]
                + [
                    (game_id, seq, None, None, reason if seq == from_seq else "missing", found)
                    for seq in missing
                ],
            )
            db.execute("DELETE FROM entries WHERE game_id = ? AND seq >= ?", (game_id, from_seq))
            # Positions saved after the damage include what was set aside.
            db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, from_seq))
            db.execute(
                "UPDATE games SET entry_count ="
                " (SELECT COUNT(*) FROM entries e WHERE e.game_id = ?) WHERE game_id = ?",
                (game_id, game_id),
            )
        return len(rows)

    def set_note(self, game_id: int, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` beside the game's moves, replacing the last one,
        on a commit of its own (as durable as a move; JournalError if it cannot be
        written). The referee never reads notes: they are its host's state of the game
        (the kiosk's teach-mode progress), journaled so a power cut keeps them too."""
        self._check_claim(game_id)
        with self._transaction("save the game's notes") as db:
            db.execute(
                "INSERT OR REPLACE INTO game_notes(game_id, key, value, crc) VALUES (?, ?, ?, ?)",
                (game_id, key, value, entry_crc(f"note:{key}", value)),
            )

    def note(self, game_id: int, key: str) -> str | None:
        """The value kept under ``key`` for the game (None when there is none);
        JournalError when it is there but damaged (its owner decides what that costs)."""
        damaged = JournalError(
            f"The note {key!r} of game {game_id} in the journal {self.path} is damaged."
        )
        try:
            row = self._db.execute(
                "SELECT CAST(value AS BLOB), crc FROM game_notes WHERE game_id = ? AND key = ?",
                (game_id, key),
            ).fetchone()
            if row is None:
                return None
            text = bytes(row[0]).decode("utf-8")
        except (sqlite3.DatabaseError, TypeError, UnicodeDecodeError):
            raise damaged from None
        if row[1] != entry_crc(f"note:{key}", text):
            raise damaged
        return text

    def delete_game(self, game_id: int) -> None:
        """Remove a game and its entries (demo games are pruned this way)."""
        with self._transaction("delete a game") as db:
            db.execute("DELETE FROM entries WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM game_notes WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE game_id = ?", (game_id,))
        self._forget_lock(game_id)

    def _forget_lock(self, game_id: int) -> None:
        """Release a game that is gone and remove its lock file."""
        self.release(game_id)
        with suppress(OSError):
            self._locks.path(game_id).unlink()

    # --- reading ---------------------------------------------------------------------

    def _header(self, game_id: int) -> GameInfo | None:
        """One game's header; None if there is no such game. Raises ValueError (with
        the reason) or sqlite3.DatabaseError when the row cannot be read."""
        return headers.read_header(self._db, game_id)

    def header_fields(self, game_id: int) -> tuple[dict[str, Any], dict[str, str]]:
        """What can still be read of a game's header, column by column, and why each
        other column cannot (:func:`companion.journal.headers.read_fields`): what a
        damaged header is rebuilt from. GameNotFound when there is no such game;
        JournalError when the row itself cannot be read."""
        try:
            found = headers.read_fields(self._db, game_id)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"Cannot read game {game_id}: {describe_error(exc)}") from None
        if found is None:
            raise GameNotFound(game_id, self.path)
        return found

    def rebuild_header(self, rebuilt: GameInfo, reason: str) -> None:
        """Write a damaged header's game, players and options again from ``rebuilt``
        (made from the game's entries and saved positions), keeping what the row held
        before on record in ``damaged_entries`` (entry 0: the header) with ``reason``;
        one commit."""
        self._check_claim(rebuilt.game_id)
        with self._transaction("rebuild the game's header") as db:
            headers.rebuild(db, rebuilt, reason)

    def _game_ids(self, include_demo: bool) -> list[int]:
        sql = "SELECT game_id FROM games" + ("" if include_demo else " WHERE demo IS NOT 1")
        try:
            return [
                gid for (gid,) in self._db.execute(sql + " ORDER BY updated DESC, game_id DESC")
            ]
        except sqlite3.DatabaseError:
            # The index or the ordering column cannot be read: fall back to rowid order.
            return [gid for (gid,) in self._db.execute("SELECT game_id FROM games ORDER BY 1 DESC")]

    def game_ids(self) -> list[int]:
        """Every game's id, demo games included, whatever state its header is in."""
        try:
            return [gid for (gid,) in self._db.execute("SELECT game_id FROM games ORDER BY 1")]
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"Cannot list the games in {self.path}: {describe_error(exc)}"
            ) from None

    def _headers(self, include_demo: bool) -> tuple[list[GameInfo], list[Damage]]:
        try:
            ids = self._game_ids(include_demo)
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"Cannot list the games in {self.path}: {describe_error(exc)}"
            ) from None
        good: list[GameInfo] = []
        bad: list[Damage] = []
        for game_id in ids:
            try:
                info = self._header(game_id)
            except (ValueError, sqlite3.DatabaseError) as exc:
                bad.append(Damage(game_id=game_id, seq=0, reason=f"unreadable header: {exc}"))
                continue
            if info is not None and (include_demo or not info.demo):
                good.append(info)
        return good, bad

    def games(self, *, include_demo: bool = False) -> list[GameInfo]:
        """Every game whose header can be read, most recently played first.

        A damaged header never hides the others: :meth:`unreadable_games` names it.
        """
        return self._headers(include_demo)[0]

    def recent_games(
        self,
        status: GameStatus,
        limit: int,
        *,
        include_demo: bool = False,
        only_demo: bool = False,
        keep: Callable[[GameInfo], bool] | None = None,
        looked_at: int | None = None,
    ) -> list[GameInfo]:
        """The ``limit`` most recently played games of ``status`` whose header can be
        read, newest first: the unfinished games to resume, the latest results, the
        lessons (``only_demo``). ``keep`` leaves games out (a locked shop kiosk shows a
        visitor only their own), looking at the ``looked_at`` newest at most.

        Read through the ``games_recent`` index, stopping after ``limit`` kept headers:
        Home costs the same with 10,000 games as with 10 (bench/bench_home.py).
        """
        try:
            return headers.recent(
                self._db,
                status,
                limit,
                include_demo=include_demo or only_demo,
                only_demo=only_demo,
                keep=keep,
                looked_at=looked_at,
            )
        except sqlite3.DatabaseError:
            # The index cannot be read: the full list still can, at its cost.
            wanted = [
                g
                for g in self.games(include_demo=include_demo or only_demo)
                if g.status == status and (g.demo or not only_demo) and (keep is None or keep(g))
            ]
            return wanted[:limit]

    def unreadable_games(self) -> list[Damage]:
        """The games whose header cannot be read, and why."""
        return self._headers(include_demo=True)[1]

    def game(self, game_id: int) -> GameInfo:
        try:
            info = self._header(game_id)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"Cannot read game {game_id}: {describe_error(exc)}") from None
        except ValueError as exc:
            raise DamagedHeader(
                f"Game {game_id}'s header (its row in the journal's games table) is damaged: {exc}."
            ) from None
        if info is None:
            raise GameNotFound(game_id, self.path)
        return info

    def entries(self, game_id: int) -> tuple[list[Entry], Damage | None]:
        """The good entries of a game in order, and the first damaged one (if any).

        Reading goes row by row and stops at the first row that cannot be read or
        decoded, fails its checksum, has an unknown kind or breaks the sequence — or
        when entries the header counts are missing: what follows cannot be trusted to
        replay.
        """
        good: list[Entry] = []
        try:
            counted = self._db.execute(
                "SELECT entry_count FROM games WHERE game_id = ?", (game_id,)
            ).fetchone()
            cursor = self._db.execute(
                "SELECT seq, CAST(kind AS BLOB), CAST(payload AS BLOB), crc FROM entries"
                " WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        except sqlite3.DatabaseError as exc:
            raise JournalError(
                f"Cannot read game {game_id}'s entries: {describe_error(exc)}"
            ) from None
        expected = 1
        while True:
            try:
                row = cursor.fetchone()
            except sqlite3.DatabaseError as exc:
                return good, Damage(
                    game_id=game_id, seq=expected, reason=f"unreadable row: {describe_error(exc)}"
                )
            if row is None:
                break
            damage = check_row(game_id, expected, row)
            if isinstance(damage, Damage):
                return good, damage
            good.append(damage)
            expected += 1
        recorded = int(counted[0]) if counted is not None else 0
        if recorded > len(good):
            first = len(good) + 1
            span = f"entry {first}" if recorded == first else f"entries {first}–{recorded}"
            return good, Damage(
                game_id=game_id,
                seq=first,
                reason=(
                    f"{span} missing: the header counts {recorded} acknowledged entries,"
                    f" {len(good)} are present"
                ),
            )
        return good, None

    def snapshot(self, game_id: int, *, at: int | None = None) -> Snapshot | None:
        """The position saved after entry ``at`` — or the latest one — that can still be
        read; None when there is none."""
        found = self._snapshots(game_id, at=at, latest=True)
        return found[0] if found else None

    def snapshots(self, game_id: int) -> list[Snapshot]:
        """Every saved position of the game that can still be read, oldest first (a
        damaged one is left out: versioned replay compares the game with the others)."""
        return self._snapshots(game_id, at=None, latest=False)

    def _snapshots(self, game_id: int, *, at: int | None, latest: bool) -> list[Snapshot]:
        where = "game_id = ?" + ("" if at is None else " AND seq = ?")
        args = (game_id,) if at is None else (game_id, at)
        order = "DESC" if latest else "ASC"
        found: list[Snapshot] = []
        try:
            rows = self._db.execute(
                f"SELECT seq, rules_version, CAST(position AS BLOB), crc FROM snapshots"
                f" WHERE {where} ORDER BY seq {order}",
                args,
            )
            for seq, rules_version, raw, crc in rows:
                try:
                    text = bytes(raw).decode("utf-8")
                    if crc == entry_crc("snapshot", text):
                        position = json.loads(text)
                        found.append(
                            Snapshot(seq=seq, rules_version=rules_version, position=position)
                        )
                        if latest:
                            break
                except (TypeError, ValueError):
                    continue  # a damaged snapshot: an older one may do
        except sqlite3.DatabaseError:
            return found
        return found

    def rebase(self, game_id: int, *, base_seq: int, rules_version: int) -> None:
        """From now on the game starts from the snapshot after ``base_seq`` under
        ``rules_version`` (``base_seq`` 0: from its setup). The entries before it stay."""
        self._check_claim(game_id)
        with self._transaction("record the rules version") as db:
            db.execute(
                "UPDATE games SET base_seq = ?, rules_version = ? WHERE game_id = ?",
                (base_seq, rules_version, game_id),
            )

    def damaged(self, game_id: int) -> list[Damage]:
        rows = self._db.execute(
            "SELECT seq, reason FROM damaged_entries WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        return [Damage(game_id=game_id, seq=s, reason=r) for s, r in rows]

    # --- health (companion.journal.health) -------------------------------------------

    def check(self, *, full: bool = False) -> list[str]:
        """Every problem found, as sentences for people; an empty list means healthy.

        ``full`` runs SQLite's ``integrity_check`` (reads every page) instead of the
        faster ``quick_check``.
        """
        return health.check(self, full=full)

    def logical_problems(self) -> list[str]:
        """What SQLite's own check cannot see: missing tables, an unknown schema version,
        losses noticed when opening, unreadable headers, entry counts that disagree with
        the rows, entries set aside."""
        return health.logical_problems(self)
