"""The shop machine's record of its fleet: one SQLite file that ``companion fleet`` fills.

Every finished game once (the plays are delivered at least once; the record's ``id`` is
the key, so a repeat changes nothing), and the latest status, table and health of each
table. From it come the leaderboard per game, the tables' state and the alerts.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from companion.journal import immediate
from kiosk.fleet.messages import MODELS, Health, Play, Status, Table

_SCHEMA = """
CREATE TABLE IF NOT EXISTS plays (
    id TEXT PRIMARY KEY,
    device TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    game TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    record TEXT NOT NULL,
    received TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS latest (
    device TEXT NOT NULL,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    received TEXT NOT NULL,
    PRIMARY KEY (device, topic)
);
CREATE INDEX IF NOT EXISTS plays_by_game ON plays(device, game_id, seq);
"""

#: Health below these raises an alert.
LOW_DISK_MB = 200.0
HOT_CPU_C = 80.0


@dataclass(frozen=True)
class Standing:
    """One player's line on a game's leaderboard."""

    player: str
    wins: int
    played: int


@dataclass(frozen=True)
class TableState:
    """What the fleet knows of one table: its latest values (None: never heard)."""

    device: str
    status: Status | None = None
    table: Table | None = None
    health: Health | None = None
    last_seen: str = ""


@dataclass
class Taken:
    """What one message changed: a new finished game, a duplicate, or a value."""

    topic: str
    device: str
    new_game: Play | None = None
    duplicate: bool = False
    went: str | None = None  # "online" / "offline" when the table's status changed
    problems: list[str] = field(default_factory=list)


def short_time(iso: str) -> str:
    """``2026-11-26T11:58:25+00:00`` → ``2026-11-26 11:58 UTC`` (the fleet's times are UTC)."""
    try:
        moment = datetime.fromisoformat(iso).astimezone(UTC)
    except ValueError:
        return iso
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class FleetStore:
    """The fleet's SQLite file (WAL, one writer: the ``companion fleet`` process)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def take(self, topic: str, payload: bytes) -> Taken:
        """Store one message of ``<prefix>/<device>/<topic>``; a message that does not
        parse is reported in ``problems`` and changes nothing."""
        *_, device, kind = topic.split("/")
        taken = Taken(topic=kind, device=device)
        model = MODELS.get(kind)  # type: ignore[call-overload]
        if model is None:
            taken.problems.append(f"{topic}: not a fleet topic")
            return taken
        try:
            message = model.model_validate_json(payload)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the message"
            taken.problems.append(f"{topic}: unreadable message ({where}: {first['msg']})")
            return taken
        if message.device != device:
            taken.problems.append(f"{topic}: the message names another table ({message.device})")
            return taken
        with immediate(self._db) as db:
            if isinstance(message, Play):
                cur = db.execute(
                    "INSERT OR IGNORE INTO plays(id, device, game_id, seq, game, finished_at,"
                    " record, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        message.id,
                        device,
                        message.game_id,
                        message.seq,
                        str(message.record.get("game", "")),
                        message.finished_at,
                        json.dumps(message.record, sort_keys=True),
                        _now(),
                    ),
                )
                taken.duplicate = cur.rowcount == 0
                taken.new_game = None if taken.duplicate else message
            else:
                if isinstance(message, Status):
                    before = db.execute(
                        "SELECT payload FROM latest WHERE device = ? AND topic = 'status'",
                        (device,),
                    ).fetchone()
                    old = None if before is None else Status.model_validate_json(before[0]).state
                    taken.went = None if old == message.state else message.state
                db.execute(
                    "INSERT OR REPLACE INTO latest(device, topic, payload, received)"
                    " VALUES (?, ?, ?, ?)",
                    (device, kind, message.model_dump_json(), _now()),
                )
        return taken

    # --- what the page and the summary show ---------------------------------------------

    def games_played(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM plays").fetchone()[0])

    def finished_games(self, *, since: datetime | None = None) -> list[dict[str, Any]]:
        """Each game's latest finish (an undo and a second finish supersede the first),
        newest first; ``since``: finished at or after it."""
        rows = self._db.execute(
            "SELECT device, game_id, record, finished_at FROM plays p WHERE seq ="
            " (SELECT MAX(seq) FROM plays q WHERE q.device = p.device AND q.game_id = p.game_id)"
            " ORDER BY finished_at DESC, device, game_id DESC"
        ).fetchall()
        cutoff = None if since is None else since.isoformat(timespec="seconds")
        return [
            {"device": device, "game_id": game_id, "finished_at": at, **json.loads(record)}
            for device, game_id, record, at in rows
            if cutoff is None or at >= cutoff
        ]

    def leaderboard(self, *, days: float = 7.0) -> dict[str, list[Standing]]:
        """Per game title: wins and games played per player name over the last ``days``,
        most wins first."""
        since = datetime.now(UTC) - timedelta(days=days)
        tally: dict[str, dict[str, list[int]]] = {}
        for record in self.finished_games(since=since):
            title = str(record.get("title") or record.get("game") or "?")
            players = [str(p) for p in record.get("players", [])]
            outcome = record.get("outcome") or {}
            winners = set(outcome.get("winners", ()))
            board = tally.setdefault(title, {})
            for seat, name in enumerate(players):
                line = board.setdefault(name, [0, 0])
                line[0] += seat in winners
                line[1] += 1
        return {
            title: sorted(
                (Standing(name, wins, played) for name, (wins, played) in board.items()),
                key=lambda s: (-s.wins, -s.wins / s.played, s.player.lower()),
            )
            for title, board in sorted(tally.items())
        }

    def tables(self) -> list[TableState]:
        found: dict[str, dict[str, Any]] = {}
        for device, topic, payload, received in self._db.execute(
            "SELECT device, topic, payload, received FROM latest ORDER BY device"
        ):
            values = found.setdefault(device, {"device": device, "last_seen": ""})
            values[topic] = MODELS[topic].model_validate_json(payload)
            values["last_seen"] = max(values["last_seen"], received)
        return [TableState(**values) for values in found.values()]

    def alerts(self) -> list[str]:
        """What a shop owner should look at, one sentence each."""
        out: list[str] = []
        for state in self.tables():
            name = state.device
            if state.status is not None and state.status.state == "offline":
                out.append(f"{name} is offline (last heard {short_time(state.last_seen)}).")
            health = state.health
            if health is None:
                continue
            out += [f"{name}: {problem}" for problem in health.problems]
            out += [f"{name}: {finding}" for finding in health.doctor]
            if health.journal_problems:
                out.append(f"{name}: journal: {'; '.join(health.journal_problems)}")
            if health.journal_read_only:
                out.append(f"{name}: the journal is read-only; games are not saved.")
            if health.disk_free_mb is not None and health.disk_free_mb < LOW_DISK_MB:
                out.append(f"{name}: storage nearly full ({health.disk_free_mb:.0f} MB free).")
            if health.cpu_temp_c is not None and health.cpu_temp_c >= HOT_CPU_C:
                out.append(f"{name}: CPU at {health.cpu_temp_c:.0f} °C.")
            if health.outbox_dropped:
                out.append(
                    f"{name}: {health.outbox_dropped} game records were let go (outbox full)."
                )
            if health.refused:
                out.append(f"{name}: the broker refused {health.refused} records (check its ACL).")
            out += [f"{name}: {d.text}" for d in health.devices if d.level != "ok"]
        return out
