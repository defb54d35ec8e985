"""A die wired straight to the Pi: binary-coded face on data lines, latched by a strobe.

Interface (documented in ``docs/dice-protocol.md``): the die drives ``data_pins``
(LSB first, active high) with the face in binary, then raises STROBE. The Pi reads the
lines on the rising edge (twice, and again until two reads agree, so a read during a
transition is never used). STROBE falls when the die starts moving again, which is
posted as :class:`~firmware_bridge.dice.messages.DieRolling`. Face 0 (or above the
die's face count) means "no valid face" and is counted, not posted.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import Field, model_validator

from companion.model import Frozen
from firmware_bridge.dice.base import DiceSource
from firmware_bridge.dice.messages import (
    DieResult,
    DieRolling,
    PostDice,
    TrayState,
    TrayStatus,
)

log = logging.getLogger(__name__)
READ_ATTEMPTS = 4


class GpioDiceSettings(Frozen):
    """BCM pins of one GPIO die."""

    enabled: bool = Field(default=False, description="A die is wired to the GPIO header.")
    device: str = Field(default="gpio-die", description="Name shown in the log and the Roll.")
    die_id: int = Field(default=1, ge=0, le=255)
    faces: int = Field(default=4, ge=2, le=100, description="Number of faces (4 for a d4).")
    data_pins: tuple[int, ...] = Field(
        default=(17, 27, 22), min_length=1, max_length=7, description="Face bits, LSB first."
    )
    strobe_pin: int = Field(default=23, ge=0, le=27, description="Rising edge = face valid.")

    @model_validator(mode="after")
    def _lines_fit_the_die(self) -> GpioDiceSettings:
        if (1 << len(self.data_pins)) - 1 < self.faces:
            raise ValueError(
                f"{len(self.data_pins)} data lines cannot carry faces up to {self.faces}"
            )
        pins = (*self.data_pins, self.strobe_pin)
        if len(set(pins)) != len(pins) or any(not 0 <= pin <= 27 for pin in pins):
            raise ValueError(f"GPIO die pins must be distinct BCM 0..27, got {pins}")
        return self

    def used_pins(self) -> tuple[int, ...]:
        return (*self.data_pins, self.strobe_pin)


class DataLine(Protocol):
    """One data line as :meth:`GpioDie.read_face` reads it (gpiozero's input device)."""

    @property
    def value(self) -> int: ...


class GpioDie(DiceSource):
    """Reads one strobe-latched die and posts a :class:`DieResult` per roll."""

    def __init__(self, settings: GpioDiceSettings, *, data_lines: Sequence[DataLine] = ()) -> None:
        """``data_lines``: what :meth:`read_face` reads until :meth:`start` opens the
        settings' pins (lines caught mid-transition, standing in for the wiring)."""
        self.settings = settings
        self.name = settings.device
        self._post: PostDice | None = None
        self._data: list[Any] = list(data_lines)
        self._strobe: Any = None
        self._state = TrayState.ABSENT
        self._seq = 0
        self._lock = threading.Lock()
        self.bad_reads = 0
        """Strobes whose lines showed no valid face."""

    def start(self, post: PostDice) -> None:
        from gpiozero import DigitalInputDevice  # lazily: only where a die is wired

        self._post = post
        try:
            self._data = [DigitalInputDevice(pin, pull_up=False) for pin in self.settings.data_pins]
            self._strobe = DigitalInputDevice(self.settings.strobe_pin, pull_up=False)
        except Exception:
            self._close()
            raise
        self._strobe.when_activated = self._on_strobe_rise
        self._strobe.when_deactivated = self._on_strobe_fall
        self._set_state(TrayState.CONNECTED, f"GPIO die on pins {self.settings.used_pins()}.")

    def stop(self, timeout: float = 2.0) -> None:
        self._close()
        if self._state != TrayState.STOPPED and self._post is not None:
            self._set_state(TrayState.STOPPED, "GPIO die stopped.")

    @property
    def state(self) -> TrayState:
        return self._state

    def read_face(self) -> int | None:
        """The face on the data lines, or ``None`` if two reads never agreed."""
        previous = self._read_lines()
        for _ in range(READ_ATTEMPTS):
            current = self._read_lines()
            if current == previous:
                return current
            previous = current
        return None

    def _read_lines(self) -> int:
        return sum(int(bool(line.value)) << bit for bit, line in enumerate(self._data))

    def _on_strobe_rise(self) -> None:
        face = self.read_face()
        settings = self.settings
        if face is None or not 1 <= face <= settings.faces:
            with self._lock:
                self.bad_reads += 1
            log.warning("%s: strobe without a valid face (%s)", settings.device, face)
            return
        with self._lock:
            self._seq += 1
            seq = self._seq
        self._emit(DieResult(settings.device, settings.die_id, face, settings.faces, seq))

    def _on_strobe_fall(self) -> None:
        self._emit(DieRolling(self.settings.device, self.settings.die_id))

    def _set_state(self, state: TrayState, detail: str) -> None:
        self._state = state
        self._emit(TrayStatus(self.settings.device, state, detail=detail))

    def _emit(self, message: DieResult | DieRolling | TrayStatus) -> None:
        if self._post is not None:
            self._post(message)

    def _close(self) -> None:
        for device in (*self._data, self._strobe):
            if device is not None:
                device.close()
        self._data = []
        self._strobe = None
