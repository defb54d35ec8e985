"""What a table says to the fleet broker: four topics, one JSON model each.

``<prefix>/<device>/status`` (retained; the broker's last will says ``offline``),
``<prefix>/<device>/table`` (retained: the game on the table), ``<prefix>/<device>/health``
(retained, every ``health_interval_s``) and ``<prefix>/<device>/plays`` (QoS 1, not
retained: every play, forwarded from the journal's outbox). The models are the one
definition of each payload: the publisher dumps them, the ``companion fleet`` watcher
parses them and docs/fleet.md shows their JSON Schema (:func:`fleet_schema`).

No player name leaves the table: seats are numbers, and texts that could hold a name
(the phase, the result) have the names replaced.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

FORMAT_VERSION = 1
TOPICS = ("status", "table", "health", "plays")
Topic = Literal["status", "table", "health", "plays"]


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
    """The game on the table now (``game`` None: Home, no game open)."""

    at: str = Field(description="when this was true (UTC, ISO 8601)")
    game: str | None = None
    title: str | None = None
    game_id: int | None = None
    seats: int = Field(default=0, ge=0)
    turn: int | None = Field(default=None, description="the seat to move (0-based)")
    phase: str | None = Field(default=None, description="the step the game waits in")
    moves: int = Field(default=0, ge=0, description="actions played (undone ones excluded)")
    finished: bool = False
    result: str | None = Field(default=None, description="how it ended, in words")
    demo: bool = Field(default=False, description="the shop's attract demo plays it")


class Health(FleetMessage):
    """How the table is doing: what waits to be sent, what is wrong, the machine."""

    at: str
    uptime_s: float = Field(ge=0, description="since the companion started")
    outbox_waiting: int = Field(ge=0, description="plays not yet taken by the broker")
    outbox_dropped: int = Field(ge=0, description="plays let go because the outbox was full")
    refused: int = Field(default=0, ge=0, description="plays the broker refused (ACL)")
    journal_read_only: bool = False
    problems: tuple[str, ...] = Field(default=(), description="what Home's banner lists")
    devices: tuple[str, ...] = Field(default=(), description="the device badges")
    disk_free_mb: float | None = None
    load_1m: float | None = None
    cpu_temp_c: float | None = None


class Play(FleetMessage):
    """One play, as the journal recorded it: a game started (seq 0), an action, an undo
    or a redo. ``(device, game_id, seq)`` is unique: a repeat is the same play again."""

    game_id: int
    game: str
    seq: int = Field(ge=0)
    kind: Literal["start", "act", "undo", "redo"]
    action: dict[str, Any] | None = Field(default=None, description="the action (kind act)")
    seats: int | None = Field(default=None, description="players (kind start)")
    outcome: dict[str, Any] | None = Field(
        default=None, description="set when this play ended the game (or an undo reopened it)"
    )
    at: str


MODELS: dict[Topic, type[FleetMessage]] = {
    "status": Status,
    "table": Table,
    "health": Health,
    "plays": Play,
}


def fleet_schema() -> dict[str, Any]:
    """The JSON Schema of every topic's payload (docs/fleet.md; ``companion fleet --schema``)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Colossus Companion fleet messages",
        "description": "The payload of each topic <prefix>/<device>/<topic>.",
        "type": "object",
        "properties": {topic: model.model_json_schema() for topic, model in MODELS.items()},
    }
