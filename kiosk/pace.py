"""The main loop's pace: the full frame rate while something happens, a slow one when not.

Kivy's loop wakes ``maxfps`` times a second whether or not anything changed: a few per
cent of a Pi's core for a screen nobody touches, which is most of a kiosk's life. The
pace drops to :data:`IDLE_FPS` once :data:`IDLE_AFTER_S` pass without a touch, a key, a
device message or a drawn frame, and returns to the full rate at the next one.

What the slow pace costs: the first touch or die after a pause is read at the next slow
frame, at most ``1 / IDLE_FPS`` later; from then on the loop runs at the full rate.
Animations keep the full rate by themselves: each frame they draw is activity.

Kivy's ``interrupt`` clock, whose sleep a trigger from another thread would end at once,
was tried and left out: its loop spins (hundreds of wake-ups a second even at 10 fps,
Kivy 2.3.1), costing more than it saves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

IDLE_FPS = 10.0
"""Frames a second while idle: a first touch after a pause waits at most 0.1 s."""
IDLE_AFTER_S = 3.0
"""Seconds without activity before the loop slows down."""


class _Trigger(Protocol):
    def __call__(self) -> None: ...
    def cancel(self) -> None: ...


class IdlePace:
    """Sets the Kivy clock's frame rate from activity (``clock`` is ``kivy.clock.Clock``).

    ``activity`` is what the app binds to touches, keys, drawn frames and device
    messages. With a clock whose rate is 0 (unlimited, as the kiosk tests run it) the
    pace does nothing. ``on_idle`` hears each change (True: idle now, False: busy
    again), so the devices can rest with the loop (the LED animator holds its lights still).
    """

    def __init__(
        self,
        clock: Any,
        *,
        full_fps: float | None = None,
        idle_fps: float = IDLE_FPS,
        after_s: float = IDLE_AFTER_S,
        on_idle: Callable[[bool], None] | None = None,
    ) -> None:
        self._clock = clock
        self._on_idle = on_idle
        self.full_fps = float(clock._max_fps if full_fps is None else full_fps)
        self.idle_fps = min(idle_fps, self.full_fps)
        self.enabled = self.full_fps > 0 and self.idle_fps < self.full_fps
        self.idle = False
        self._slow_down: _Trigger = clock.create_trigger(self._to_idle, after_s)
        if self.enabled:
            self._slow_down()

    def activity(self, *_args: Any) -> None:
        """Something happened: the full rate now, and the countdown starts again.

        Returns None, so as a handler of Kivy's window events it never consumes one.
        """
        if not self.enabled:
            return
        if self.idle:
            self.idle = False
            self._clock._max_fps = self.full_fps
            if self._on_idle is not None:
                self._on_idle(False)
        self._slow_down.cancel()
        self._slow_down()

    def _to_idle(self, _dt: float) -> None:
        self.idle = True
        self._clock._max_fps = self.idle_fps
        if self._on_idle is not None:
            self._on_idle(True)

    def close(self) -> None:
        """Back to the full rate for good (the app is stopping)."""
        self._slow_down.cancel()
        if self.enabled:
            self._clock._max_fps = self.full_fps
            if self.idle and self._on_idle is not None:
                self._on_idle(False)
        self.enabled = False
        self.idle = False
