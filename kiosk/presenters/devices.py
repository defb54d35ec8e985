"""Device status for the header: which dice are connected, reconnecting, their battery."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from companion.dice import DiceRequest, Roll

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


def unused_roll(roll: Roll, why: str) -> str:
    """What the screen says of a die read where no roll is asked for: its faces, that it
    was not used, and ``why`` (it is never played into a game not on screen)."""
    faces = ", ".join(str(v) for v in roll.values or ())
    shown = f"A die showed {faces}" if faces else "A die was rolled"
    return f"{shown}: not used. {why}"


class OffGameRolls:
    """The hub's roll target while no game is on screen (Home, Setup, Scores, admin): a
    die read then is not played into the game last shown, where it would be saved
    unseen; ``on_notice`` shows why."""

    def __init__(self, on_notice: Callable[[str], None]) -> None:
        self.notice = ""
        self._on_notice = on_notice

    def dice_request(self) -> DiceRequest | None:
        return None

    def electronic_roll(self, roll: Roll) -> bool:
        self.notice = unused_roll(roll, "No game is on screen: open or resume one first.")
        self._on_notice(self.notice)
        return False

    def set_devices(self, statuses: tuple[DeviceStatus, ...]) -> None:
        """Nothing to show: the kiosk's own handler updates every screen's badges."""

    def note(self, text: str) -> None:
        """A partial roll's note (never: no dice are wanted here)."""
        self.notice = text

    def changed(self) -> None:
        """Nothing to redraw: the notice is shown when it is made."""
