"""The dice tray's MicroPython firmware under CPython: its folder, its protocol module,
a fake ``machine.Pin``, and the host's view of the bytes it writes."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any, ClassVar

from firmware_bridge.frames import (
    FrameDecoder,
    Message,
)

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware" / "pico_dice_tray"


UNIQUE_ID = bytes.fromhex("e660583883123456")


class FakePin:
    """Just enough of ``machine.Pin``: inputs idle high with the pull-up."""

    IN, OUT, PULL_UP = 0, 1, 2
    board: ClassVar[dict[int, FakePin]] = {}
    held_low: ClassVar[set[int]] = set()
    """Pins whose button is held down when the firmware creates them."""

    def __init__(self, number: int, mode: int = 0, pull: int | None = None) -> None:
        self.number = number
        self.level = 1 if pull == self.PULL_UP and number not in self.held_low else 0
        FakePin.board[number] = self

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = level
        return self.level


def _load_protocol() -> Any:
    sys.path.insert(0, str(FIRMWARE_DIR))
    try:
        return importlib.import_module("tray_protocol")
    finally:
        sys.path.remove(str(FIRMWARE_DIR))
        sys.modules.pop("tray_protocol", None)


PROTOCOL = _load_protocol()  # pure module: no fake hardware needed


class HostSide:
    """What the host would see: the firmware's bytes through the host decoder."""

    def __init__(self) -> None:
        self.decoder = FrameDecoder()
        self.seen: list[Message] = []

    def write(self, frame: bytes) -> None:
        self.seen += self.decoder.feed(frame)

    def take(self) -> list[Message]:
        out, self.seen = self.seen, []
        return out
