"""The animator: one thread that renders the current highlights at a steady frame rate.

Whoever owns the session calls :meth:`Animator.show` with new highlights from any thread;
the newest highlights simply replace the old ones, so there is never a backlog of frames
to catch up on. Each tick renders the latest state with the pure renderer and ships it
only if it differs from what the strip already shows (plus a refresh once a second, which
repairs a glitched strip). If a tick is late the schedule resynchronises instead of
bursting. While nothing shown moves (no pulsing, sweeping or flashing role), the thread
sleeps until new highlights arrive or the refresh is due: a kiosk idles most of its
life, and a still board should cost nothing. While the kiosk is idle (nobody touched
anything for a few seconds; :meth:`set_calm`), what would move is held still at its full
level — the same cells in the same colours, refreshed every few seconds — and it moves again
at the next touch, key, die or move. The clock is injectable so tests can step time by
hand with :meth:`tick`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable

from companion.highlights import Highlight
from firmware_bridge.layout import LedLayout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE, Palette
from firmware_bridge.leds.render import DEFAULT_GAMMA_TABLE, PowerBudget, animated, render
from firmware_bridge.leds.strip import Frame, LedStrip

log = logging.getLogger(__name__)

DEFAULT_FPS = 42.0
REFRESH_S = 1.0
CALM_REFRESH_S = 5.0
"""The refresh while the kiosk is idle: a still frame is sent again only to repair a
strip that glitched, and nobody is looking closely at an idle table."""


class Animator:
    """Renders highlights onto a strip at ``fps`` on its own thread."""

    def __init__(
        self,
        strip: LedStrip,
        layout: LedLayout,
        *,
        palette: Palette = KOLOSSUS_PALETTE,
        brightness: float = 0.5,
        power_budget: PowerBudget | None = None,
        fps: float = DEFAULT_FPS,
        clock: Callable[[], float] = time.monotonic,
        gamma: tuple[int, ...] = DEFAULT_GAMMA_TABLE,
    ) -> None:
        if layout.led_count > strip.count:
            raise ValueError(
                f"The layout needs {layout.led_count} LEDs but the strip has {strip.count}."
            )
        if not 1 <= fps <= 240:
            raise ValueError(f"Frame rate must be between 1 and 240 per second, not {fps}.")
        self.strip = strip
        self.layout = layout
        self.palette = palette
        self.power_budget = power_budget if power_budget is not None else PowerBudget()
        self.fps = fps
        self._clock = clock
        self._gamma = gamma
        self._brightness = brightness
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._ticked = threading.Condition()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._highlights: tuple[Highlight, ...] = ()
        self._calm = False
        self._last_frame: Frame | None = None
        self._last_ship = float("-inf")
        self._epoch = clock()
        self.frames_shipped = 0
        self.ticks = 0
        self.handed = 0
        """How many times highlights were handed over (:meth:`show`)."""
        self.rendered = 0
        """Which of them the last frame rendered shows (``handed`` then): a frame
        listener on this thread knows what the frame it hears of was made from."""
        self.last_error: Exception | None = None

    # --- what to show (any thread) ----------------------------------------------------

    def show(self, highlights: Iterable[Highlight], *, wait_s: float = 0.0) -> None:
        """Replace the highlights: exactly these are lit (the play presenter hands only
        the current step of a fix-the-table walk-through).

        ``wait_s``: wait at most this long for the thread to render them (and ship the
        frame if it changed), so the caller's next work (a screen's redraw) does not hold
        the interpreter while the LEDs wait for their turn."""
        new = tuple(highlights)
        with self._lock:
            self._highlights = new
            self.handed += 1
            mine = self.handed
        self._wake.set()
        thread = self._thread
        if wait_s > 0 and thread is not None and thread is not threading.current_thread():
            with self._ticked:
                self._ticked.wait_for(lambda: self.rendered >= mine or not self.running, wait_s)

    def set_brightness(self, brightness: float) -> None:
        if not 0.0 <= brightness <= 1.0:
            raise ValueError(f"Brightness must be between 0 and 1, got {brightness}.")
        with self._lock:
            self._brightness = brightness
        self._wake.set()

    def set_calm(self, calm: bool) -> None:
        """Idle kiosk (True): hold every role still at its full level; activity (False):
        move again from the next frame on (any thread)."""
        with self._lock:
            changed = calm != self._calm
            self._calm = calm
        if changed:
            self._wake.set()

    @property
    def period(self) -> float:
        """Seconds to the next tick: a frame while something moves, else the refresh."""
        with self._lock:
            if self._calm:
                return CALM_REFRESH_S
            if not animated(self._highlights):
                return REFRESH_S
            return 1.0 / self.fps

    # --- one frame (the thread's body; tests call it directly) ------------------------

    def render_now(self, now: float | None = None) -> Frame:
        """The frame for the current highlights at ``now`` (the clock's time by default)."""
        moment = self._clock() if now is None else now
        with self._lock:
            highlights, brightness, still = self._highlights, self._brightness, self._calm
            self.rendered = self.handed
        frame = render(
            highlights,
            self.layout,
            self.palette,
            brightness,
            self.power_budget,
            moment - self._epoch,
            gamma=self._gamma,
            still=still,
        )
        missing = self.strip.count - len(frame)
        return frame + ((0, 0, 0),) * missing if missing else frame

    def tick(self, now: float | None = None) -> bool:
        """Render once and ship if the frame changed (or is due a refresh). True if shipped."""
        moment = self._clock() if now is None else now
        frame = self.render_now(moment)
        self.ticks += 1
        if frame == self._last_frame and moment - self._last_ship < REFRESH_S:
            self._tell_waiters()
            return False
        self.strip.show(frame)
        self._last_frame = frame
        self._last_ship = moment
        self.frames_shipped += 1
        self._tell_waiters()
        return True

    def _tell_waiters(self) -> None:
        with self._ticked:
            self._ticked.notify_all()

    # --- the thread ---------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Begin the strip (if needed) and start rendering. Starting twice does nothing."""
        if self.running:
            return
        self.strip.begin()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="led-animator", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and wait for it; the strip stays open (its owner closes it)."""
        self._stopping.set()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                log.warning("The LED animator did not stop within %.1f s.", timeout)

    @property
    def moving(self) -> bool:
        """True while what is shown animates (the thread ticks at ``fps``); else it sleeps
        between refreshes."""
        with self._lock:
            return not self._calm and animated(self._highlights)

    def _run(self) -> None:
        deadline = time.monotonic()
        while not self._stopping.is_set():
            period = self.period
            try:
                self.tick()
                self.last_error = None
            except Exception as error:  # keep animating; the strip may come back
                if self.last_error is None:
                    log.exception("The LED strip refused a frame.")
                self.last_error = error
                self._tell_waiters()
            deadline += period
            now = time.monotonic()
            if deadline < now:  # late: skip the missed frames instead of bursting
                deadline = now
            woken = self._wake.wait(deadline - now)
            self._wake.clear()
            if woken:  # new highlights: render them at once, keep the rhythm from here
                deadline = time.monotonic()
