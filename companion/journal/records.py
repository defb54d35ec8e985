"""What the journal stores and hands out: headers, entries, damage, snapshots.

Plain values (frozen models), the entry checksum, and the plain-language phrases for
the OS and SQLite errors the journal meets.
"""

from __future__ import annotations

import errno
import zlib
from datetime import UTC, datetime
from typing import Any, Literal

from companion.model import Frozen

EntryKind = Literal["act", "undo", "redo"]
GameStatus = Literal["active", "finished"]
ENTRY_KINDS: tuple[EntryKind, ...] = ("act", "undo", "redo")


def now() -> str:
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
    rules_version: int = 1
    base_seq: int = 0  # > 0: the game goes on from the snapshot after this entry


class Entry(Frozen):
    """One journal row that passed its checksum."""

    seq: int
    kind: EntryKind
    payload: str


class Damage(Frozen):
    """A journal row that could not be used, and where it was (``seq`` 0: the header).

    ``kind`` tells a damaged file (``damage``) from a game whose old moves replay
    differently because the rules changed in an update (``rules_changed``: a move is
    refused, or a position the journal saved is not the one the rules reach now): then
    ``seq`` is the entry the game goes on after, and ``changes`` names each count that
    differs between the table's position and the one these rules reach, in plain words.
    """

    game_id: int
    seq: int
    reason: str
    kind: Literal["damage", "rules_changed"] = "damage"
    changes: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.kind == "rules_changed":
            return f"game {self.game_id}: the rules changed since it started; {self.reason}"
        where = "header" if self.seq == 0 else f"entry {self.seq}"
        return f"game {self.game_id}, {where}: {self.reason}"


class Snapshot(Frozen):
    """The position after entry ``seq``, to go on from when old moves no longer replay."""

    seq: int
    rules_version: int
    position: dict[str, Any]


class OutcomeMark(Frozen):
    """A change of a game's finished mark, written with the entry that caused it."""

    outcome: dict[str, Any] | None  # None: active again (an undo reopened the game)


class LockHolder(Frozen):
    """Who plays a game right now: a process and since when."""

    pid: int | None
    since: str | None


def check_row(game_id: int, expected: int, row: tuple[Any, ...]) -> Entry | Damage:
    seq, kind_bytes, payload_bytes, crc = row
    if seq != expected:
        return Damage(
            game_id=game_id,
            seq=expected,
            reason=f"entry {expected} is missing (found {seq} instead)",
        )
    try:
        kind = bytes(kind_bytes).decode("utf-8")
        payload = bytes(payload_bytes).decode("utf-8")
    except (TypeError, UnicodeDecodeError):
        return Damage(game_id=game_id, seq=seq, reason="the row is not valid text (corrupt)")
    if kind not in ENTRY_KINDS:
        return Damage(game_id=game_id, seq=seq, reason=f"unknown entry kind {kind!r}")
    if crc != entry_crc(kind, payload):
        return Damage(
            game_id=game_id, seq=seq, reason="checksum mismatch (the row is truncated or corrupt)"
        )
    return Entry(seq=seq, kind=kind, payload=payload)


def describe_error(exc: BaseException) -> str:
    """An OS or SQLite error as a phrase, with the plain-language reason where known."""
    if isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG:
        return "the path is too long for the file system"
    if isinstance(exc, OSError) and exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return "the storage is full"
    text = str(exc)
    if "database or disk is full" in text:
        return "the storage is full (database or disk is full)"
    if "file is not a database" in text:
        return "the file is not a journal (not an SQLite database, or its first page is damaged)"
    return text
