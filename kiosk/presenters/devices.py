"""Device status for the header: which dice are connected, reconnecting, their battery."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DeviceState = Literal["connected", "reconnecting", "disconnected"]


@dataclass(frozen=True)
class DeviceStatus:
    """What the hardware hub last heard from one device."""

    device: str  # "dice", "tray", "buttons", "leds"
    state: DeviceState
    battery: int | None = None  # percent, for Bluetooth dice
    detail: str = ""


@dataclass(frozen=True)
class DeviceBadge:
    text: str
    level: Literal["ok", "warn", "off"]


_SYMBOL = {"connected": "on", "reconnecting": "reconnecting…", "disconnected": "off"}


def badges(statuses: tuple[DeviceStatus, ...]) -> tuple[DeviceBadge, ...]:
    """Short header badges, e.g. ``"Dice on 80%"``; a low battery is a warning."""
    out = []
    for status in statuses:
        text = f"{status.device.capitalize()} {_SYMBOL[status.state]}"
        level: Literal["ok", "warn", "off"] = (
            "ok"
            if status.state == "connected"
            else "warn"
            if status.state == "reconnecting"
            else "off"
        )
        if status.battery is not None:
            text += f" {status.battery}%"
            if status.battery < 20 and level == "ok":
                level = "warn"
        out.append(DeviceBadge(text=text, level=level))
    return tuple(out)


def electronic_dice_ready(statuses: tuple[DeviceStatus, ...]) -> bool:
    """True when a die is connected, so the dice panel says it waits for that die."""
    return any(s.device in ("dice", "tray") and s.state == "connected" for s in statuses)
