"""The one seam between LED logic and LED hardware: a strip that ships whole frames.

Every backend (simulated, rpi_ws281x, SPI) subclasses :class:`LedStrip` and only
implements how bytes leave the machine. The base class enforces the contract that the
shared contract tests check against every backend: ``begin`` before ``show``, frames of
exactly ``count`` pixels with channels in 0..255, ``close`` is idempotent and leaves the
strip dark, and a closed strip refuses frames.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import suppress
from itertools import chain
from types import TracebackType

RGB = tuple[int, int, int]
Frame = tuple[RGB, ...]

BLACK: RGB = (0, 0, 0)
_CHANNEL_TYPES = frozenset({int, bool})  # what ``isinstance(channel, int)`` admits in practice


class StripError(RuntimeError):
    """A strip was used out of order or with a malformed frame."""


class HardwareUnavailable(RuntimeError):
    """A real driver cannot run here (not a Pi, wrong Pi model, library or device missing).

    The message says what is missing and what to do, in plain words, because it ends up
    on the kiosk's screen and in ``companion doctor``.
    """


def black_frame(count: int) -> Frame:
    """A frame with every LED off."""
    return (BLACK,) * count


def check_frame(frame: Frame, count: int) -> None:
    """Refuse a frame a strip of ``count`` LEDs cannot show, naming the first fault.

    Every shipped frame passes here (up to 42 a second, on the Pi's CPU), so a good
    frame is recognised by C-level passes; only a bad one is walked to name its fault.
    """
    if len(frame) != count:
        raise StripError(f"A frame must have {count} pixels, this one has {len(frame)}.")
    with suppress(TypeError, ValueError):
        if all(map((3).__eq__, map(len, frame))):
            channels = tuple(chain.from_iterable(frame))
            if set(map(type, channels)) <= _CHANNEL_TYPES:
                bytes(channels)  # ValueError unless every channel is in 0..255
                return
    for index, pixel in enumerate(frame):
        if len(pixel) != 3:
            raise StripError(f"Pixel {index} must be (red, green, blue), got {pixel!r}.")
        for channel in pixel:
            if not isinstance(channel, int) or not 0 <= channel <= 255:
                raise StripError(f"Pixel {index} has a channel outside 0..255: {pixel!r}.")


class LedStrip(ABC):
    """A string of ``count`` addressable LEDs that shows one frame at a time.

    Use ``begin()`` once, ``show(frame)`` as often as needed, ``close()`` at the end (or
    ``with strip:``). Subclasses implement ``_open``, ``_ship`` and ``_release``.
    """

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"A strip needs at least 1 LED, got {count}.")
        self.count = count
        self._started = False
        self._closed = False

    @property
    def started(self) -> bool:
        return self._started and not self._closed

    @property
    def closed(self) -> bool:
        return self._closed

    def begin(self) -> None:
        """Acquire the hardware. Calling it again on a started strip does nothing."""
        if self._closed:
            raise StripError("This strip was closed; make a new one.")
        if self._started:
            return
        self._open()
        self._started = True

    def show(self, frame: Frame) -> None:
        """Send one whole frame to the LEDs."""
        if self._closed:
            raise StripError("This strip was closed; it cannot show frames any more.")
        if not self._started:
            raise StripError("Call begin() before show().")
        check_frame(frame, self.count)
        self._ship(frame)

    def close(self) -> None:
        """Switch every LED off and release the hardware. Safe to call twice."""
        if self._closed:
            return
        try:
            if self._started:
                self._ship(black_frame(self.count))
        finally:
            self._closed = True
            self._release()

    def __enter__(self) -> LedStrip:
        self.begin()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @abstractmethod
    def _open(self) -> None:
        """Acquire the device (import the library here, never at module import)."""

    @abstractmethod
    def _ship(self, frame: Frame) -> None:
        """Push an already validated frame to the LEDs."""

    @abstractmethod
    def _release(self) -> None:
        """Give the device back. Called once, also when ``begin`` never ran."""
