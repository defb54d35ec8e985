"""The main loop's pace: the full frame rate while something happens, a slow one when not.

Kivy's loop wakes ``maxfps`` times a second whether or not anything changed: a few per
cent of a Pi's core for a screen nobody touches, which is most of a kiosk's life. The
pace drops to :data:`IDLE_FPS` once :data:`IDLE_AFTER_S` pass without a touch, a key, a
device message or a drawn frame, to :data:`DEEP_IDLE_FPS` a minute later, and returns to
the full rate at the next one.

What the slow pace costs: the first touch after a pause is read at the next slow frame,
at most ``1 / IDLE_FPS`` later; from then on the loop runs at the full rate. Where an
input thread reads the touches (the Pi's panel), each one wakes the loop at once
(``kiosk/touch_wake.py``) and the idle rates drop to :data:`WOKEN_IDLE_FPS` and
:data:`WOKEN_DEEP_IDLE_FPS`. A device
message (a die, a table button) does not wait: :meth:`IdlePace.wake`, called by the
posting thread, ends the clock's sleep at once, whatever the pace. Animations keep the
full rate by themselves: each frame they draw is activity.

Kivy's ``interrupt`` clock, whose sleep a trigger from another thread would end at once,
was tried and left out: its loop spins (hundreds of wake-ups a second even at 10 fps,
Kivy 2.3.1), costing more than it saves. The wake here is the same idea on the default
clock: its sleep waits on an event, and its readiness check says "now" once the event is
set (``usleep`` and ``_check_ready`` of Kivy's ``ClockBaseBehavior``: internals,
listed and checked in :mod:`kiosk.kivy_compat`). While idle, the check also sleeps the
whole rest of a frame at once: Kivy's own starts a pass early by a third of a frame
plus an undershoot, which made a 2 fps loop pass 2.7 times a second.

A deadline (:meth:`IdlePace.later`: the sensing board's stable-position wait) is met on
time at any pace: the clock's sleep ends at it and its callback runs in that pass.
Kivy's own timers run at the loop's first pass after their time (up to a frame late at
the full rate, up to a second idle) and up to 5 ms early, which made the board's
300 ms wait end a frame late, after a second trip round the loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from kiosk.kivy_compat import check_clock, frame_rate, set_frame_rate

if TYPE_CHECKING:  # Kivy has no type hints; the pace is tested with a clock of its own
    from kivy.clock import ClockBase, ClockEvent

IDLE_FPS = 10.0
"""Frames a second while idle: a first touch after a pause waits at most 0.1 s."""
IDLE_AFTER_S = 3.0
"""Seconds without activity before the loop slows down."""
DEEP_IDLE_FPS = 4.0
"""Frames a second once nobody has been at the table for :data:`DEEP_IDLE_AFTER_S`: the
touch that wakes a deserted kiosk waits at most a quarter of a second."""
DEEP_IDLE_AFTER_S = 60.0
"""Seconds without activity before the loop slows down further."""
WOKEN_IDLE_FPS = 2.0
"""The idle rate where touches wake the loop themselves (read by an input thread: the
Pi's panel, ``kiosk/touch_wake.py``): nothing then waits for the loop's next pass but
Kivy's own timers, which may run up to half a second late while nobody is at the table."""
WOKEN_DEEP_IDLE_FPS = 1.0
"""The deeper idle rate where touches wake the loop themselves."""


IDLE_SLACK_S = 0.002
"""How early an idle pass may start: less than this left is not worth another sleep."""


class _Trigger(Protocol):
    def __call__(self) -> None: ...
    def cancel(self) -> None: ...


class Deadline:
    """A callable due at ``at`` (the clock's time), until cancelled."""

    def __init__(self, at: float, then: Callable[[], None]) -> None:
        self.at = at
        self.then = then
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class IdlePace:
    """Sets the Kivy clock's frame rate from activity (``clock`` is ``kivy.clock.Clock``).

    ``activity`` is what the app binds to touches, keys, drawn frames and device
    messages. With a clock whose rate is 0 (unlimited, as the kiosk tests run it) the
    pace does nothing. ``on_idle`` hears each change (True: idle now, False: busy
    again), so the devices can rest with the loop (the LED animator holds its lights still).
    """

    def __init__(
        self,
        clock: ClockBase,
        *,
        full_fps: float | None = None,
        idle_fps: float = IDLE_FPS,
        after_s: float = IDLE_AFTER_S,
        deep_fps: float = DEEP_IDLE_FPS,
        deep_after_s: float = DEEP_IDLE_AFTER_S,
        on_idle: Callable[[bool], None] | None = None,
    ) -> None:
        check_clock(clock)
        self._clock = clock
        self._on_idle = on_idle
        self.full_fps = frame_rate(clock) if full_fps is None else float(full_fps)
        self.idle_fps = min(idle_fps, self.full_fps)
        self.deep_fps = min(deep_fps, self.idle_fps)
        self.enabled = self.full_fps > 0 and self.idle_fps < self.full_fps
        self.idle = False
        self.deep = False
        self._woken = threading.Event()
        self._slow_down: _Trigger = clock.create_trigger(self._to_idle, after_s)
        self._deeper: _Trigger = clock.create_trigger(self._to_deep_idle, deep_after_s)
        self._deadlines: list[Deadline] = []
        self._run_due: _Trigger = clock.create_trigger(self._run_deadlines, 0)
        if self.enabled:
            self._wake_on_event()
            self._slow_down()

    def wake(self) -> None:
        """Any thread: end the main loop's sleep now (a device posted a message)."""
        self._woken.set()

    def later(self, delay: float, then: Callable[[], None]) -> Deadline | ClockEvent:
        """Main thread: run ``then`` in the loop's pass ``delay`` seconds from now, on
        time whatever the pace (the clock's sleep ends at the deadline); something
        with ``cancel()``. An unlimited loop uses Kivy's own timer (it passes anyway)."""
        if not self.enabled:
            return self._clock.schedule_once(lambda _dt: then(), delay)
        deadline = Deadline(self._clock.time() + delay, then)
        self._deadlines.append(deadline)
        return deadline

    def _next_deadline(self) -> float | None:
        """The earliest deadline still to meet (cancelled ones are dropped)."""
        if not self._deadlines:
            return None
        self._deadlines = [d for d in self._deadlines if not d.cancelled]
        return min((d.at for d in self._deadlines), default=None)

    def _run_deadlines(self, _dt: float) -> None:
        now = self._clock.time()
        due = [d for d in self._deadlines if d.at <= now and not d.cancelled]
        self._deadlines = [d for d in self._deadlines if d.at > now and not d.cancelled]
        for deadline in due:
            deadline.then()

    def _wake_on_event(self) -> None:
        clock, woken = self._clock, self._woken
        check_ready = clock._check_ready

        def sleep(microseconds: float) -> None:
            woken.wait(microseconds / 1_000_000)

        def ready(fps: float, min_sleep: float, undershoot: float) -> tuple[bool, float]:
            if woken.is_set():
                woken.clear()
                return True, 0.0
            due = self._next_deadline()
            if due is not None:
                to_due = due - clock.time()
                if to_due <= 0:
                    self._run_due()  # runs in this pass, with Kivy's other events
                    return True, 0.0
            if self.idle:
                # One sleep to the next pass (Kivy's check, meant for smooth frames at
                # the full rate, would pass a 2 fps loop every 0.37 s).
                left = 1.0 / fps - (clock.time() - clock._last_tick)
                done, sleep = left <= IDLE_SLACK_S, left
            else:
                done, sleep = check_ready(fps, min_sleep, undershoot)
            return done, sleep if due is None else min(sleep, to_due)

        self._kivy_sleep = (clock.usleep, check_ready)
        clock.usleep = sleep
        clock._check_ready = ready

    def activity(self, *_args: object) -> None:
        """Something happened: the full rate now, and the countdown starts again.

        Returns None, so as a handler of Kivy's window events it never consumes one.
        """
        if not self.enabled:
            return
        if self.idle:
            self.idle = self.deep = False
            set_frame_rate(self._clock, self.full_fps)
            if self._on_idle is not None:
                self._on_idle(False)
        self._deeper.cancel()
        self._slow_down.cancel()
        self._slow_down()

    def _to_idle(self, _dt: float) -> None:
        self.idle = True
        set_frame_rate(self._clock, self.idle_fps)
        self._deeper()  # counted from the last activity: after_s + deep_after_s
        if self._on_idle is not None:
            self._on_idle(True)

    def _to_deep_idle(self, _dt: float) -> None:
        if self.idle:
            self.deep = True
            set_frame_rate(self._clock, self.deep_fps)

    def close(self) -> None:
        """Back to the full rate and Kivy's own sleep for good (the app is stopping)."""
        self._slow_down.cancel()
        self._deeper.cancel()
        self._run_due.cancel()
        self._deadlines = []  # the app is stopping: nothing waits for the board any more
        if self.enabled:
            set_frame_rate(self._clock, self.full_fps)
            self._clock.usleep, self._clock._check_ready = self._kivy_sleep
            if self.idle and self._on_idle is not None:
                self._on_idle(False)
        self.enabled = False
        self.idle = self.deep = False
