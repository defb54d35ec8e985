"""A game's header row (its line in ``games``): read whole, read column by column when
damaged, and its game, players and options written again once rebuilt."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from companion.journal.records import GameInfo, now

_COLUMNS = (
    "game_id, CAST(game AS BLOB), CAST(players AS BLOB), CAST(options AS BLOB), seed,"
    " CAST(start_position AS BLOB), CAST(created AS BLOB), CAST(updated AS BLOB),"
    " CAST(status AS BLOB), CAST(outcome AS BLOB), demo, entry_count, rules_version, base_seq"
)
_NAMES = (
    "game_id", "game", "players", "options", "seed", "start_position", "created", "updated",
    "status", "outcome", "demo", "entries", "rules_version", "base_seq",
)  # fmt: skip
_TEXT = frozenset({"game", "created", "updated", "status"})
_JSON = frozenset({"players", "options", "start_position", "outcome"})
_MAY_BE_NULL = frozenset({"start_position", "outcome"})


def _decode(column: str, value: Any) -> Any:
    """One stored value as the header holds it; ValueError naming what is wrong."""
    if value is None:
        if column in _MAY_BE_NULL:
            return None
        raise ValueError(f"{column} is empty")
    if column not in _TEXT | _JSON:
        return value
    try:
        text = bytes(value).decode("utf-8")
    except (TypeError, UnicodeDecodeError):
        raise ValueError(f"{column} is not valid text") from None
    if column in _TEXT:
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"{column} is not valid JSON") from None


def read_fields(
    db: sqlite3.Connection, game_id: int
) -> tuple[dict[str, Any], dict[str, str]] | None:
    """Each column of the header that can be read, and why each other one cannot; None
    when there is no such game. sqlite3.DatabaseError when the row itself is unreadable."""
    row = db.execute(f"SELECT {_COLUMNS} FROM games WHERE game_id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    fields: dict[str, Any] = {}
    damaged: dict[str, str] = {}
    for column, value in zip(_NAMES, row, strict=True):
        try:
            fields[column] = _decode(column, value)
        except ValueError as exc:
            damaged[column] = str(exc)
    players = fields.get("players")
    if "players" in fields and not (
        isinstance(players, list) and all(isinstance(p, str) for p in players)
    ):
        del fields["players"]
        damaged["players"] = "players is not a list of names"
    if "options" in fields and not isinstance(fields["options"], dict):
        del fields["options"]
        damaged["options"] = "options is not an object"
    return fields, damaged


def read_header(db: sqlite3.Connection, game_id: int) -> GameInfo | None:
    """One game's header; None if there is no such game. Raises ValueError (with the
    reason) or sqlite3.DatabaseError when the row cannot be read."""
    found = read_fields(db, game_id)
    if found is None:
        return None
    fields, damaged = found
    if damaged:
        raise ValueError(next(iter(damaged.values())))
    try:
        return GameInfo.model_validate(fields)
    except (TypeError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        raise ValueError(str(exc).splitlines()[0]) from None


def rebuild(db: sqlite3.Connection, rebuilt: GameInfo, reason: str) -> None:
    """Write the header's game, players and options again (in the caller's transaction),
    the row's earlier values kept in ``damaged_entries`` as entry 0 (the header)."""
    old = db.execute(
        "SELECT CAST(game AS BLOB), CAST(players AS BLOB), CAST(options AS BLOB) FROM games"
        " WHERE game_id = ?",
        (rebuilt.game_id,),
    ).fetchone()
    before = " | ".join(
        "NULL" if value is None else bytes(value).decode("utf-8", "backslashreplace")
        for value in old
    )
    db.execute(
        "INSERT INTO damaged_entries(game_id, seq, kind, payload, reason, found)"
        " VALUES (?, 0, 'header', ?, ?, ?)",
        (rebuilt.game_id, f"game | players | options: {before}", reason, now()),
    )
    db.execute(
        "UPDATE games SET game = ?, players = ?, options = ? WHERE game_id = ?",
        (
            rebuilt.game,
            json.dumps(list(rebuilt.players)),
            json.dumps(rebuilt.options, sort_keys=True),
            rebuilt.game_id,
        ),
    )


def recent_sql(*, include_demo: bool, only_demo: bool = False) -> str:
    """The ids of one status's games, most recently played first (``only_demo``: the
    lessons and demos alone)."""
    demo = " AND demo = 1" if only_demo else "" if include_demo else " AND demo = 0"
    return f"SELECT game_id FROM games WHERE status = ?{demo} ORDER BY updated DESC, game_id DESC"


def recent(
    db: sqlite3.Connection,
    status: str,
    limit: int,
    *,
    include_demo: bool,
    only_demo: bool = False,
    keep: Callable[[GameInfo], bool] | None = None,
    looked_at: int | None = None,
) -> list[GameInfo]:
    """The ``limit`` most recently played readable headers of ``status``, newest first,
    read through the ``games_recent`` index (a damaged header is skipped: the journal's
    ``unreadable_games`` names it). ``keep`` leaves out the headers it refuses, among
    the ``looked_at`` newest at most, so the cost stays bounded whatever it refuses.
    sqlite3.DatabaseError when the rows cannot be read."""
    found: list[GameInfo] = []
    sql = recent_sql(include_demo=include_demo, only_demo=only_demo)
    for seen, (game_id,) in enumerate(db.execute(sql, (status,)), start=1):
        try:
            info = read_header(db, game_id)
        except ValueError:
            info = None
        if info is not None and (keep is None or keep(info)):
            found.append(info)
        if len(found) >= limit or (looked_at is not None and seen >= looked_at):
            break
    return found
