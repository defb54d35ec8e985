"""The app's own settings: the screen (``[kiosk]``), the shop's broker (``[fleet]``) and
where games are saved (``data_dir``), on top of the table's devices.

The devices' sections are the hardware layer's (:class:`HardwareConfig` in
:mod:`firmware_bridge.config`); :class:`CompanionConfig` is the whole
``companion.toml``: those sections and the app's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from firmware_bridge.config import APP_NAME, CONFIG_KEY, HardwareConfig, Section


def default_data_dir() -> Path:
    return platformdirs.user_data_path(APP_NAME)


KioskBoot = Literal["resume", "demo", "home"]


class KioskConfig(BaseModel):
    """The screen side: window, shop demo (attract mode) and lock-down.

    Unknown keys are refused like everywhere else: a misspelt ``locked`` must not leave
    a shop's kiosk silently open (see :func:`load_config` for what survives a broken file).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    fullscreen: bool = Field(
        default=False, description="fill the screen (a locked kiosk always does, borderless)"
    )
    rotation: Literal[0, 90, 180, 270] = 0
    locked: bool = Field(
        default=False,
        description="shop lock-down: no exit, Escape ignored, settings only with the admin PIN",
    )
    idle_timeout_s: float = Field(
        default=0.0,
        ge=0,
        le=86_400,
        description="no input this long starts the demo; 0 = off (players at home)",
    )
    on_boot: KioskBoot = Field(
        default="resume", description="resume the last unfinished game, start the demo, or Home"
    )
    demo_step_s: float = Field(
        default=1.5, ge=0.2, le=30, description="seconds between two moves of the demo"
    )
    demo_outcome_s: float = Field(
        default=8.0, ge=0, le=300, description="how long a finished demo game stays on screen"
    )
    demo_games: tuple[str, ...] = Field(
        default=(), description="games the demo rotates through; empty = every game"
    )


_TOPIC_WORD = re.compile(r"[A-Za-z0-9_.-]{1,64}")
#: A table's device id: one topic level that is also a valid Home Assistant discovery
#: node id (letters, digits, '_' and '-' only).
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class FleetConfig(Section):
    """Reporting to a shop's MQTT broker (docs/fleet.md): the table's status, its game,
    its health and each finished game's record, forwarded from the journal's outbox.

    Not hardware: a mistake here is reported and the table plays on without the fleet,
    with its devices as configured (see :func:`load_config`).
    """

    enabled: bool = Field(default=False, description="report to the broker below")
    host: str = Field(default="", description="the broker's host name or address")
    port: int = Field(default=1883, ge=1, le=65535)
    device_id: str = Field(
        default="", description="this table's name in topics; empty = the host name"
    )
    topic_prefix: str = Field(default="colossus", description="topics start with this")
    username: str = ""
    password: str = Field(default="", description="redacted in support bundles")
    tls: bool = Field(default=False, description="TLS to the broker (port 8883, usually)")
    ca_file: Path | None = Field(
        default=None, description="CA certificate (PEM) for TLS; none = the system's"
    )
    certfile: Path | None = Field(
        default=None,
        description="client certificate (PEM), to log in with TLS instead of a password",
    )
    keyfile: Path | None = Field(default=None, description="the client certificate's key (PEM)")
    keepalive_s: int = Field(default=30, ge=5, le=3600)
    health_interval_s: float = Field(default=60.0, ge=5, le=86_400)
    outbox_limit: int = Field(
        default=10_000,
        ge=10,
        le=1_000_000,
        description="finished games kept while the broker is away",
    )
    discovery: bool = Field(
        default=False, description="announce the table's sensors to Home Assistant"
    )
    discovery_prefix: str = "homeassistant"
    watcher_client_id: str = Field(
        default="",
        max_length=64,
        description="companion fleet's MQTT client id; empty = colossus-fleet-<host name>"
        " (two watchers on one broker need two ids)",
    )
    max_message_bytes: int = Field(
        default=1_048_576,
        ge=4096,
        le=268_435_455,
        description="companion fleet refuses (and counts) a larger message",
    )

    @model_validator(mode="before")
    @classmethod
    def _password_is_text(cls, data: object) -> object:
        """Refused without echoing the value: a password must never reach a screen or log."""
        if (
            isinstance(data, Mapping)
            and "password" in data
            and not isinstance(data["password"], str)
        ):
            raise PydanticCustomError(
                "password_type",
                'the password must be text in quotes (password = "…")',
                {CONFIG_KEY: "password"},
            )
        return data

    @field_validator("device_id")
    @classmethod
    def _device_id_is_a_node_id(cls, value: str) -> str:
        if value and not DEVICE_ID.fullmatch(value):
            raise ValueError(
                "use 1-64 letters, digits, '-' or '_' (it is one level of the topics and"
                " Home Assistant's discovery node id)"
            )
        return value

    @field_validator("topic_prefix", "discovery_prefix")
    @classmethod
    def _prefix_is_topic_levels(cls, value: str) -> str:
        if not all(_TOPIC_WORD.fullmatch(level) for level in value.split("/")):
            raise ValueError(
                "use levels of letters, digits, '-', '_' or '.' separated by '/'"
                " (no '+', '#', spaces or empty levels)"
            )
        return value

    @model_validator(mode="after")
    def _host_when_enabled(self) -> FleetConfig:
        if self.enabled and not self.host.strip():
            raise PydanticCustomError(
                "no_host", "enabled = true needs the broker's host", {CONFIG_KEY: "host enabled"}
            )
        for key in ("ca_file", "certfile", "keyfile"):
            if getattr(self, key) is not None and not self.tls:
                raise PydanticCustomError(
                    "file_without_tls", f"{key} is only used with tls = true", {CONFIG_KEY: key}
                )
        if self.keyfile is not None and self.certfile is None:
            raise PydanticCustomError(
                "key_without_cert",
                "keyfile needs the certfile it belongs to",
                {CONFIG_KEY: "keyfile"},
            )
        return self


class CompanionConfig(HardwareConfig):
    """The whole ``companion.toml``: the table's devices and the app's settings."""

    data_dir: Path = Field(default_factory=default_data_dir)
    kiosk: KioskConfig = KioskConfig()
    fleet: FleetConfig = FleetConfig()
