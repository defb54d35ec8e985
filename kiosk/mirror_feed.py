"""The LED mirror's feed: the exact frames the strip was sent, drawn on the play screen.

The strip ships up to 42 frames a second while something pulses, and every mirror
redraw repaints the window, so the mirror is drawn only while it is on screen and at
most :data:`MIRROR_FPS` times a second — always a frame the strip really got, and the
newest one once the strip is still. A hidden mirror asks the hub for no frames (none
wakes the main loop) and draws the newest one as soon as it is shown again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from kivy.clock import Clock, ClockEvent

from firmware_bridge.layout import LedLayout
from firmware_bridge.leds.strip import Frame
from firmware_bridge.rig import LedFrameShown
from kiosk.hardware import HardwareHub

if TYPE_CHECKING:
    from kiosk.screens.play import PlayScreen
    from kiosk.widgets.led_mirror import LedMirror

MIRROR_FPS = 10
"""How often the LED mirror is redrawn at most (each redraw repaints the window)."""


class MirrorFeed:
    """Main thread only. ``play_screen`` gives the play screen if it has been made (the
    mirror lives there; :meth:`offer` is called when it is made); ``pump`` drains the
    hub into the game on screen (a die waiting there too is handled, not dropped)."""

    def __init__(
        self,
        hub: HardwareHub,
        play_screen: Callable[[], PlayScreen | None],
        pump: Callable[[], object],
    ) -> None:
        self._hub = hub
        self._play_screen = play_screen
        self._pump = pump
        self.layout: LedLayout | None = None
        #: The newest frame the strip was sent, and its sequence number.
        self.frame: Frame | None = None
        self.frame_seq = 0
        #: The frame the mirror draws now, and its sequence number.
        self.drawn: Frame | None = None
        self.drawn_seq = 0
        self._drawn_at = float("-inf")
        self._later: ClockEvent | None = None  # a scheduled draw of the newest frame

    def set_layout(self, layout: LedLayout) -> None:
        """Offer the mirror for a strip wired as ``layout`` (now, or when the play screen
        is made)."""
        self.layout = layout
        screen = self._play_screen()
        if screen is not None:
            self.offer(screen)

    def offer(self, screen: PlayScreen) -> None:
        """Put the mirror on ``screen`` (just made) if a layout is known."""
        if self.layout is None:
            return
        screen.set_led_layout(dict(self.layout.positions), dict(self.layout.cells))
        mirror = screen.mirror
        if mirror is not None:
            mirror.bind(parent=self._moved)

    def shipped(self, shown: LedFrameShown) -> None:
        """The hub's ``on_frame``: a frame the strip was sent."""
        self.frame_seq = shown.seq
        self.show(shown.frame)

    def show(self, frame: Frame) -> None:
        """Show ``frame`` (the exact one the strip was sent) if the mirror is on screen,
        at most MIRROR_FPS times a second."""
        self.frame = frame
        mirror = self._mirror()
        if mirror is None or mirror.get_root_window() is None:
            return
        wait = self._drawn_at + 1 / MIRROR_FPS - time.monotonic()
        if wait <= 0:
            self._draw()
        elif self._later is None:
            self._later = Clock.schedule_once(lambda _dt: self._draw(), wait)

    def _mirror(self) -> LedMirror | None:
        screen = self._play_screen()
        return None if screen is None else screen.mirror

    def _moved(self, *_: object) -> None:
        """The mirror came on screen or left it: ask for shipped frames only while shown."""
        mirror = self._mirror()
        shown = mirror is not None and mirror.parent is not None
        self._hub.frames_wanted = shown
        if shown:
            self._pump()  # the newest frame the strip shipped while it was hidden
            self._draw()

    def _draw(self) -> None:
        self._later = None
        mirror = self._mirror()
        if mirror is not None and self.frame is not None and mirror.parent is not None:
            mirror.show_frame(self.frame)
            self.drawn = self.frame
            self.drawn_seq = self.frame_seq
            self._drawn_at = time.monotonic()
