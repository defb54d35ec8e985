"""The one fake clock of the suite: a time that moves only when the test moves it.

Pass it wherever the code under test takes a ``clock`` (a callable returning seconds):
``clock = FakeClock(); thing = Thing(clock=clock); clock.advance(0.5)``. The stand-in for
Kivy's own clock that kiosk/pace.py drives builds on it (tests/kiosk/test_pace.py);
:func:`idle_kivy_clock` gives Kivy's real clock gone idle under a pace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the bridge's tests use the fake clock without the kiosk
    from kiosk.pace import IdlePace


class FakeClock:
    """Seconds since some origin, as ``time.monotonic`` gives them, set by the test."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Let ``seconds`` pass; the new time."""
        self.now += seconds
        return self.now


def idle_kivy_clock(idle_fps: float, deep_fps: float) -> tuple[Any, IdlePace]:
    """Kivy's own clock (a fresh ``ClockBase``) with an :class:`IdlePace` at 30 fps, idle
    at ``idle_fps`` (``deep_fps`` a minute later), that has gone idle: its countdown
    (``after_s`` 0) ran out in the clock's first pass."""
    from kivy.clock import ClockBase

    from kiosk.pace import IdlePace

    clock = ClockBase()
    paced = IdlePace(clock, full_fps=30.0, idle_fps=idle_fps, after_s=0.0, deep_fps=deep_fps)
    clock.tick()
    assert paced.idle, "the pace's countdown did not run out in the clock's first pass"
    return clock, paced
