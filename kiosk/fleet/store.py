"""The shop machine's record of its fleet: one SQLite file that ``companion fleet`` fills.

Every finished game once (the plays are delivered at least once; the record's ``id`` is
the key, so a repeat changes nothing), the latest status, table and health of each
table, what was refused and why (counted per table), and when the watcher last heard
the broker. From it come the leaderboard per game, the tables' state and the alerts.

A message is refused, counted and changes nothing when it is larger than the size cap,
has a format version this code does not know, does not parse, names another table than
its topic's, or — a play — carries an id that is not ``<its topic's table>/<game_id>/<seq>``
(else one table could hide another's game behind a forged id).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pydantic import JsonValue, ValidationError

from companion.journal import immediate
from companion.json_values import json_list, json_object
from kiosk.fleet.messages import (
    ACK_TOPIC,
    KNOWN_VERSIONS,
    MODELS,
    FleetMessage,
    Health,
    Play,
    Status,
    Table,
)
from kiosk.settings import DEVICE_ID

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
CREATE INDEX IF NOT EXISTS plays_by_time ON plays(finished_at);
CREATE TABLE IF NOT EXISTS refusals (
    device TEXT NOT NULL,
    reason TEXT NOT NULL,
    count INTEGER NOT NULL,
    latest TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (device, reason)
);
CREATE TABLE IF NOT EXISTS watcher (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

#: The size cap when none is given (``[fleet] max_message_bytes``'s default).
MAX_MESSAGE_BYTES = 1_048_576

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
    last_seen: str = ""  # the latest of the table's own timestamps ("": none yet)


@dataclass(frozen=True)
class Refusal:
    """Messages of one table refused for one reason: how many, the latest, when."""

    device: str
    reason: str
    count: int
    latest: str
    at: str


@dataclass(frozen=True)
class BrokerLink:
    """Whether the watcher is connected to the broker, since when, and when it last
    heard it (a message or the connection itself); empty before the first run."""

    connected: bool = False
    since: str = ""
    heard: str = ""
    error: str = ""  # why it cannot connect, in words


@dataclass
class Taken:
    """What one message changed: a new finished game, a duplicate, or a value."""

    topic: str
    device: str
    new_game: Play | None = None
    duplicate: bool = False
    went: str | None = None  # "online" / "offline" when the table's status changed
    problems: list[str] = field(default_factory=list)
    ack_id: str | None = None  # a play stored, now or before: the table may forget it


def short_time(iso: str) -> str:
    """``2026-11-26T11:58:25+00:00`` → ``2026-11-26 11:58 UTC`` (the fleet's times are UTC)."""
    try:
        moment = datetime.fromisoformat(iso).astimezone(UTC)
    except ValueError:
        return iso
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _utc(iso: str) -> str:
    """A table's timestamp in UTC (comparable as text), or as given if unreadable."""
    try:
        return datetime.fromisoformat(iso).astimezone(UTC).isoformat(timespec="seconds")
    except ValueError:
        return iso


class FleetStore:
    """The fleet's SQLite file (WAL, one writer: the ``companion fleet`` process)."""

    def __init__(self, path: Path, *, max_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self.path = path
        self.max_bytes = max_bytes
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def take(self, topic: str, payload: bytes) -> Taken:
        """Store one message of ``<prefix>/<device>/<topic>`` (see :meth:`take_all`)."""
        return self.take_all([(topic, payload)])[0]

    def take_all(self, messages: list[tuple[str, bytes]]) -> list[Taken]:
        """Store messages of ``<prefix>/<device>/<topic>`` in one commit; a message that
        is refused is reported in its ``problems``, counted, and changes nothing else."""
        with immediate(self._db) as db:
            return [self._take(db, topic, payload) for topic, payload in messages]

    def _take(self, db: sqlite3.Connection, topic: str, payload: bytes) -> Taken:
        *_, device, kind = topic.split("/")
        taken = Taken(topic=kind, device=device)
        if kind == ACK_TOPIC:
            return taken  # the watcher's own word to the table
        message, refusal = self._parse(topic, device, kind, payload)
        if refusal is not None:
            reason, text = refusal
            taken.problems.append(f"{topic}: {text}")
            db.execute(
                "INSERT INTO refusals(device, reason, count, latest, at) VALUES (?, ?, 1, ?, ?)"
                " ON CONFLICT(device, reason) DO UPDATE SET count = count + 1,"
                " latest = excluded.latest, at = excluded.at",
                (device, reason, text, _now()),
            )
            return taken
        assert message is not None
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
            taken.ack_id = message.id
            return taken
        if isinstance(message, Status):
            before = db.execute(
                "SELECT payload FROM latest WHERE device = ? AND topic = 'status'", (device,)
            ).fetchone()
            old = None if before is None else Status.model_validate_json(before[0]).state
            taken.went = None if old == message.state else message.state
        db.execute(
            "INSERT OR REPLACE INTO latest(device, topic, payload, received) VALUES (?, ?, ?, ?)",
            (device, kind, message.model_dump_json(), _now()),
        )
        return taken

    def _parse(
        self, topic: str, device: str, kind: str, payload: bytes
    ) -> tuple[FleetMessage | None, tuple[str, str] | None]:
        """The message, or None and (reason, what was wrong) for the refusal."""
        model = MODELS.get(kind)  # type: ignore[call-overload]
        if model is None:
            return None, ("topic", "not a fleet topic")
        if not DEVICE_ID.fullmatch(device):
            return None, ("device", f"{device!r} is not a device id (letters, digits, '-', '_')")
        if len(payload) > self.max_bytes:
            return None, (
                "size",
                f"{len(payload):,} bytes, more than the {self.max_bytes:,} allowed",
            )
        try:
            data = json.loads(payload)
        except ValueError as error:
            return None, ("unreadable", f"unreadable message (not JSON: {error})")
        version = data.get("v") if isinstance(data, dict) else None
        if version is not None and version not in KNOWN_VERSIONS:
            known = ", ".join(str(v) for v in sorted(KNOWN_VERSIONS))
            return None, (
                "version",
                f"format version {version!r} is unknown here (this watcher reads {known};"
                " update companion fleet)",
            )
        try:
            message: FleetMessage = model.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the message"
            return None, ("unreadable", f"unreadable message ({where}: {first['msg']})")
        if message.device != device:
            return None, ("device", f"the message names another table ({message.device})")
        if isinstance(message, Play):
            expected = f"{device}/{message.game_id}/{message.seq}"
            if message.id != expected:
                return None, (
                    "id",
                    f"the record's id {message.id!r} is not this table's (expected {expected!r})",
                )
        return message, None

    # --- the watcher's link to the broker ------------------------------------------------

    def set_broker(
        self, *, connected: bool | None = None, heard: bool = True, error: str | None = None
    ) -> None:
        """Note that the watcher (dis)connected (``connected``), why it cannot connect
        (``error``) and/or that it heard the broker now."""
        now = _now()
        values: dict[str, str] = {}
        before = self.broker()
        if connected is not None and (connected != before.connected or not before.since):
            values |= {"connected": "1" if connected else "0", "since": now}
        if connected:
            values["error"] = ""
        if error is not None:
            values["error"] = error
        if heard:
            values["heard"] = now
        with immediate(self._db) as db:
            db.executemany(
                "INSERT OR REPLACE INTO watcher(key, value) VALUES (?, ?)", values.items()
            )

    def broker(self) -> BrokerLink:
        values = dict(self._db.execute("SELECT key, value FROM watcher").fetchall())
        return BrokerLink(
            connected=values.get("connected") == "1",
            since=values.get("since", ""),
            heard=values.get("heard", ""),
            error=values.get("error", ""),
        )

    def refusals(self) -> list[Refusal]:
        return [
            Refusal(*row)
            for row in self._db.execute(
                "SELECT device, reason, count, latest, at FROM refusals ORDER BY device, reason"
            )
        ]

    # --- what the page and the summary show ---------------------------------------------

    def games_played(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM plays").fetchone()[0])

    def finished_games(
        self, *, since: datetime | None = None, limit: int | None = None
    ) -> list[dict[str, JsonValue]]:
        """Each game's latest finish (an undo and a second finish supersede the first),
        newest first; ``since``: finished at or after it; ``limit``: that many at most
        (the page is rewritten often: only what it shows is read)."""
        cutoff = "" if since is None else since.isoformat(timespec="seconds")
        rows = self._db.execute(
            "SELECT device, game_id, record, finished_at FROM plays p WHERE finished_at >= ?"
            " AND seq = (SELECT MAX(seq) FROM plays q"
            " WHERE q.device = p.device AND q.game_id = p.game_id)"
            " ORDER BY finished_at DESC, device, game_id DESC LIMIT ?",
            (cutoff, -1 if limit is None else limit),
        ).fetchall()
        return [
            {"device": device, "game_id": game_id, "finished_at": at, **json.loads(record)}
            for device, game_id, record, at in rows
        ]

    def leaderboard(self, *, days: float = 7.0) -> dict[str, list[Standing]]:
        """Per game title: wins and games played per player name over the last ``days``,
        most wins first."""
        since = datetime.now(UTC) - timedelta(days=days)
        tally: dict[str, dict[str, list[int]]] = {}
        for record in self.finished_games(since=since):
            title = str(record.get("title") or record.get("game") or "?")
            players = [str(p) for p in json_list(record.get("players"))]
            winners = json_list(json_object(record.get("outcome")).get("winners"))
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
        found: dict[str, TableState] = {}
        for device, topic, payload in self._db.execute(
            "SELECT device, topic, payload FROM latest ORDER BY device"
        ):
            state = found.get(device) or TableState(device=device)
            message = MODELS[topic].model_validate_json(payload)
            if isinstance(message, Status):
                state = replace(state, status=message)
            elif isinstance(message, Table):
                state = replace(state, table=message)
            elif isinstance(message, Health):
                state = replace(state, health=message)
            # The table's own clock, not the watcher's: retained values replayed when the
            # watcher reconnects are old news, not a sign of life.
            own = message.since if isinstance(message, Status) else getattr(message, "at", None)
            if own:
                state = replace(state, last_seen=max(state.last_seen, _utc(own)))
            found[device] = state
        return list(found.values())

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
        for refusal in self.refusals():
            out.append(
                f"{refusal.device}: {refusal.count} message(s) refused by the watcher —"
                f" {refusal.latest} (latest {short_time(refusal.at)})."
            )
        return out
