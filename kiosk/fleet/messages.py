"""What a table and the watcher say through the fleet broker: one JSON model per topic.

A table writes four: ``<prefix>/<device>/status`` (retained; the broker's last will says
``offline``), ``<prefix>/<device>/table`` (retained: the game on the table, updated on
each action), ``<prefix>/<device>/health`` (retained, every ``health_interval_s`` and on
a change) and ``<prefix>/<device>/plays`` (QoS 1, not retained: each finished game's
record, forwarded from the journal's outbox). The watcher (``companion fleet``) writes
two: ``<prefix>/<device>/ack`` (retained: the records of that table it has stored) and
``<prefix>/_watcher`` (retained; its last will says ``offline``: a table sends again what
is unconfirmed each time a watcher comes online). The models are the one definition of
each payload: the publisher and the watcher dump and parse them, and docs/fleet.md shows
their JSON Schema (:func:`fleet_schema`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, WithJsonSchema

FORMAT_VERSION = 1
#: The format versions this code reads; the watcher refuses (and counts) any other.
KNOWN_VERSIONS = frozenset({FORMAT_VERSION})
Topic = Literal["status", "table", "health", "plays"]
#: Each finished game's record: what the journal's outbox queues (Journal.keep_outbox).
PLAYS: Topic = "plays"
#: The watcher's topic per table (``<prefix>/<device>/ack``) and its presence topic
#: (``<prefix>/_watcher``, outside ``<prefix>/+/+``).
ACK_TOPIC: Literal["ack"] = "ack"
WATCHER_TOPIC = "_watcher"
#: The JSON Schema of a JSON object with any members.
_OBJECT_SCHEMA: dict[str, JsonValue] = {"type": "object", "additionalProperties": True}


class FleetMessage(BaseModel):
    """Frozen; unknown fields are ignored, so a watcher reads a newer table's messages."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    v: int = Field(default=FORMAT_VERSION, description="the message format's version")
    device: str = Field(description="the table's device id (the topic's second level)")


class Status(FleetMessage):
    """Whether the table is connected; ``offline`` is also the broker's last will."""

    state: Literal["online", "offline"]
    version: str = Field(default="", description="the companion's version")
    since: str | None = Field(default=None, description="when it came online (UTC, ISO 8601)")


class Table(FleetMessage):
    """The game on the table now (``game`` None: Home, no game open), sent retained on
    each action."""

    at: str = Field(description="when this was true (UTC, ISO 8601)")
    game: str | None = None
    title: str | None = None
    game_id: int | None = None
    players: tuple[str, ...] = ()
    turn: int | None = Field(default=None, description="the seat to move (0-based)")
    turn_player: str | None = Field(default=None, description="the name of the seat to move")
    status: str | None = Field(default=None, description="round or turn, and what is asked")
    moves: int = Field(default=0, ge=0, description="actions played (undone ones excluded)")
    measure: str | None = Field(default=None, description="what the scores count")
    scores: tuple[int, ...] = Field(default=(), description="per player, the latest row")
    finished: bool = False
    result: str | None = Field(default=None, description="how it ended, in words")
    demo: bool = Field(default=False, description="the shop's attract demo plays it")


class DeviceHealth(BaseModel):
    """One device as the kiosk's header shows it (dice, tray, buttons, LEDs)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    device: str
    state: Literal["connected", "reconnecting", "disconnected"]
    battery: int | None = Field(default=None, description="percent (Bluetooth dice)")
    level: Literal["ok", "warn", "off"] = Field(description="the header badge's colour")
    text: str = Field(description="the header badge, e.g. 'Dice on 80%'")


class Health(FleetMessage):
    """How the table is doing: what waits to be sent, what is wrong, the machine."""

    at: str
    uptime_s: float = Field(ge=0, description="since the companion started")
    outbox_waiting: int = Field(
        ge=0, description="records the watcher has not yet confirmed stored (still kept)"
    )
    outbox_dropped: int = Field(ge=0, description="records let go because the outbox was full")
    refused: int = Field(default=0, ge=0, description="records the broker refused (its ACL)")
    journal_read_only: bool = False
    journal_problems: tuple[str, ...] = Field(
        default=(), description="SQLite's quick_check of the journal (hourly); empty = ok"
    )
    problems: tuple[str, ...] = Field(
        default=(), description="what Home's banner lists: configuration and device problems"
    )
    doctor: tuple[str, ...] = Field(
        default=(), description="the hardware doctor's problems and warnings (hourly)"
    )
    devices: tuple[DeviceHealth, ...] = ()
    disk_free_mb: float | None = Field(default=None, description="free storage by the journal")
    load_1m: float | None = None
    cpu_temp_c: float | None = None


class Play(FleetMessage):
    """A finished game's record (what ``companion export`` writes), sent with QoS 1 from
    the journal's outbox: at least once. ``id`` (``<device>/<game_id>/<seq>``) is the
    dedup key: the same finish sent again has the same id. A game reopened by an undo
    and finished again is a new finish (a later ``seq``) that supersedes the first."""

    id: str = Field(description="the dedup key: <device>/<game_id>/<seq>")
    game_id: int = Field(description="the game's number in the table's journal")
    seq: int = Field(ge=1, description="the journal entry that finished the game")
    finished_at: str = Field(description="when that entry was committed (UTC, ISO 8601)")
    # Published as a plain JSON object, as before it was typed (docs/fleet.schema.json).
    record: Annotated[dict[str, JsonValue], WithJsonSchema(_OBJECT_SCHEMA)] = Field(
        description="format, game, title, players, options, seed, actions, outcome, scores"
    )


class Ack(FleetMessage):
    """The watcher's word to one table (``<prefix>/<device>/ack``, retained, QoS 1): the
    ids of the records it has stored and committed, the latest batch. The table deletes
    a record from its outbox only when an ack names it; a record stored twice is
    acknowledged twice."""

    at: str
    stored: tuple[str, ...] = Field(description="record ids stored (new or already there)")


class WatcherStatus(BaseModel):
    """The watcher's presence (``<prefix>/_watcher``, retained; its last will says
    ``offline``). ``session`` changes at each subscription: the tables then send again
    every record not yet acknowledged (a broker that lost its queue loses nothing)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    v: int = FORMAT_VERSION
    client_id: str
    state: Literal["online", "offline"]
    session: str = Field(default="", description="changes each time the watcher subscribes")


MODELS: dict[Topic, type[FleetMessage]] = {
    "status": Status,
    "table": Table,
    "health": Health,
    "plays": Play,
}


def fleet_schema() -> dict[str, JsonValue]:
    """The JSON Schema of every topic's payload (docs/fleet.md; ``companion fleet --schema``)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Colossus Companion fleet messages",
        "description": "The payload of each topic <prefix>/<device>/<topic>.",
        "type": "object",
        "properties": {
            **{topic: model.model_json_schema() for topic, model in MODELS.items()},
            ACK_TOPIC: Ack.model_json_schema(),
            WATCHER_TOPIC: WatcherStatus.model_json_schema(),
        },
    }
