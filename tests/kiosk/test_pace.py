"""Idle means idle: the main loop slows down when nothing happens and comes
back at the next touch or device message; nothing repeats on the clock once a game is
on screen and still; device threads never touch widgets.

No test here asserts a time: each checks a mechanism (a rate set, an event scheduled or
not, which thread ran what). The figures are bench/bench_kiosk.py's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.clock import Clock
from kivy.uix.widget import Widget

from companion.bot import RandomBot
from firmware_bridge.dice.messages import DieResult
from kiosk.app import Kiosk
from kiosk.kivy_compat import frame_rate, set_frame_rate
from kiosk.pace import IdlePace
from tests.helpers.clock import FakeClock, idle_kivy_clock
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, tap_button


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path)
    yield k
    close_kiosk(k)


class FakeTrigger:
    def __init__(self) -> None:
        self.armed = False

    def __call__(self) -> None:
        self.armed = True

    def cancel(self) -> None:
        self.armed = False


class FakeKivyClock(FakeClock):
    """Kivy's clock as the pace drives it, on a fake time: its frame rate, its triggers
    (``trigger`` is the pace's first, slow down; ``deeper`` its second, slow down
    further; ``fire``/``fire_deep`` run them as Kivy would once their time came) and its
    loop's sleep before the next pass (:meth:`loop_sleep`).

    The members named as Kivy's (``_max_fps``, ``_last_tick``, ``_check_ready``,
    ``usleep``) are the ones the pace reads or replaces (kiosk/kivy_compat.py); tests
    read the loop's behaviour through the public methods."""

    def __init__(self, fps: float) -> None:
        super().__init__()
        self._max_fps = fps
        self.triggers: list[tuple[FakeTrigger, Any]] = []
        self._last_tick = 0.0

    def time(self) -> float:
        return self.now

    @property
    def trigger(self) -> FakeTrigger:
        return self.triggers[0][0]

    @property
    def deeper(self) -> FakeTrigger:
        return self.triggers[1][0]

    def create_trigger(self, callback: Any, timeout: float) -> FakeTrigger:
        trigger = FakeTrigger()
        self.triggers.append((trigger, callback))
        return trigger

    def usleep(self, microseconds: float) -> None:
        pass

    def kivy_check_ready(
        self, fps: float, min_sleep: float, undershoot: float
    ) -> tuple[bool, float]:
        """Kivy 2.3.1's own readiness (``ClockBaseBehavior._check_ready``)."""
        sleeptime = 1 / fps - (self.time() - self._last_tick)
        return sleeptime - undershoot <= min_sleep, sleeptime - undershoot

    _check_ready = kivy_check_ready  # what the pace replaces

    def passed_at(self, now: float) -> None:
        """The loop's last pass was at ``now``, which it is."""
        self.now = self._last_tick = now

    def loop_sleep(self) -> float:
        """How long the loop sleeps now before its next pass (0: it passes now), as
        Kivy 2.3.1's ``idle()`` asks its readiness check (the resolution: a third of a
        frame at the loop's rate)."""
        min_sleep = 1 / (3 * self._max_fps)
        done, sleep = self._check_ready(self._max_fps, min_sleep, 0.8 * min_sleep)
        return 0.0 if done else sleep

    def kivys_own_sleep(self) -> float:
        """What :meth:`loop_sleep` would be with Kivy's own readiness check."""
        min_sleep = 1 / (3 * self._max_fps)
        done, sleep = self.kivy_check_ready(self._max_fps, min_sleep, 0.8 * min_sleep)
        return 0.0 if done else sleep

    def fire(self, which: int = 0) -> None:
        trigger, callback = self.triggers[which]
        if trigger.armed:
            trigger.armed = False
            callback(0.0)

    def fire_deep(self) -> None:
        self.fire(1)


def test_the_pace_slows_when_idle_and_returns_at_the_next_activity() -> None:
    clock = FakeKivyClock(30.0)
    pace = IdlePace(clock, idle_fps=10.0)
    assert clock.trigger.armed and not pace.idle  # the countdown runs from the start
    clock.fire()
    assert pace.idle and frame_rate(clock) == 10.0
    pace.activity()
    assert not pace.idle and frame_rate(clock) == 30.0 and clock.trigger.armed
    pace.activity()  # activity while busy only restarts the countdown
    assert frame_rate(clock) == 30.0 and clock.trigger.armed
    clock.fire()
    pace.close()
    assert frame_rate(clock) == 30.0 and not clock.trigger.armed
    pace.activity()  # closed: nothing changes any more
    assert not clock.trigger.armed


def test_an_idle_loop_sleeps_once_to_its_next_pass() -> None:
    """Kivy's readiness check starts a pass early by a third of a frame plus an
    undershoot, which suits 30 fps but makes a 2 fps loop pass every 0.37 s. Idle, the
    pace sleeps the whole rest of the frame in one sleep, so the loop passes exactly as
    often as its idle rate says; busy, Kivy's own check decides."""
    clock = FakeKivyClock(30.0)
    pace = IdlePace(clock, idle_fps=2.0)
    clock.now = 0.01
    assert clock.loop_sleep() == clock.kivys_own_sleep() > 0  # busy: Kivy's own sleep
    clock.fire()
    assert pace.idle and frame_rate(clock) == 2.0
    assert clock.loop_sleep() == pytest.approx(0.49)  # the rest of the frame, at once
    assert 0 < clock.kivys_own_sleep() < 0.36  # what the loop slept before
    clock.now = 0.4995  # woken at the end of that sleep: the pass starts
    assert clock.loop_sleep() == 0.0
    clock.now = 0.02
    pace.wake()  # a device message ends the sleep at once, idle or not
    assert clock.loop_sleep() == 0.0
    pace.close()
    clock.now = 0.005
    pace.wake()  # closed: Kivy's own sleep is back, and a wake ends nothing
    assert clock.loop_sleep() == clock.kivys_own_sleep() > 0


def test_a_deserted_kiosk_slows_down_further_and_any_activity_brings_the_full_rate() -> None:
    """A minute after going idle the loop drops to DEEP_IDLE_FPS; the countdown starts
    only once idle, and activity cancels it and restores the full rate."""
    clock = FakeKivyClock(30.0)
    pace = IdlePace(clock, idle_fps=10.0, deep_fps=4.0)
    assert not clock.deeper.armed  # busy: no deep countdown yet
    clock.fire()
    assert pace.idle and not pace.deep and clock.deeper.armed
    clock.fire_deep()
    assert pace.deep and frame_rate(clock) == 4.0
    pace.activity()
    assert not pace.idle and not pace.deep and frame_rate(clock) == 30.0
    assert not clock.deeper.armed and clock.trigger.armed
    clock.fire()
    pace.activity()  # activity before the deep countdown ends: it never fires
    assert not clock.deeper.armed
    pace.close()
    assert not clock.trigger.armed and not clock.deeper.armed


def test_the_devices_hear_when_the_kiosk_goes_idle_and_comes_back() -> None:
    """The LED animator rests with the loop (lights held still): on_idle hears each change
    once, and closing a calm pace wakes the devices again."""
    clock = FakeKivyClock(30.0)
    heard: list[bool] = []
    pace = IdlePace(clock, idle_fps=10.0, on_idle=heard.append)
    pace.activity()
    assert heard == []  # busy stays busy: nothing to tell
    clock.fire()
    pace.activity()
    pace.activity()
    clock.fire()
    pace.close()
    assert heard == [True, False, True, False]


def test_an_unlimited_loop_is_left_alone() -> None:
    """Kivy's rate 0 (the kiosk tests step frames as fast as they can): no pace."""
    clock = FakeKivyClock(0.0)
    pace = IdlePace(clock)
    assert not pace.enabled and not clock.trigger.armed
    pace.activity()
    assert frame_rate(clock) == 0.0 and not clock.trigger.armed


def test_the_real_clock_slows_and_a_die_from_another_thread_wakes_it() -> None:
    """With Kivy's own clock: idle lowers its rate; a trigger scheduled from a device
    thread (how a die reaches the app) brings the full rate back at the next frame."""
    saved = frame_rate(Clock)
    pace = IdlePace(Clock, full_fps=30.0, after_s=0.05)
    woken = Clock.create_trigger(lambda _dt: pace.activity(), 0)
    try:
        deadline = time.monotonic() + 5.0
        while not pace.idle and time.monotonic() < deadline:
            time.sleep(0.02)
            frames(1)
        assert pace.idle and frame_rate(Clock) == pace.idle_fps
        thread = threading.Thread(target=woken)  # as HardwareHub.post does
        thread.start()
        thread.join()
        frames(1)
        assert not pace.idle and frame_rate(Clock) == 30.0
    finally:
        pace.close()
        set_frame_rate(Clock, saved)


def test_a_device_message_ends_the_loops_sleep_at_once_whatever_the_pace() -> None:
    """A die after a pause must not wait for the next slow frame: wake() from a device
    thread ends the sleep of Kivy's own clock (here at a pace of one frame in 1,000 s;
    the join's generous bound only keeps a broken wake from hanging the suite)."""
    clock, pace = idle_kivy_clock(idle_fps=0.001, deep_fps=0.001)
    assert frame_rate(clock) == 0.001
    slept = threading.Thread(target=clock.idle)
    slept.start()
    time.sleep(0.05)  # most likely asleep by now; a wake before the sleep works too
    threading.Thread(target=pace.wake).start()
    slept.join(timeout=60.0)
    assert not slept.is_alive(), "the wake did not end the clock's sleep"
    pace.close()


def test_a_deadline_ends_the_loops_sleep_and_runs_in_that_pass() -> None:
    """The sensing board's stable-position wait: the loop's sleep, idle or at the full
    rate, ends at the deadline (not at the next pass of its pace), and the callable runs
    in that very pass; a cancelled deadline shortens nothing."""
    clock = FakeKivyClock(30.0)
    pace = IdlePace(clock, idle_fps=2.0)
    clock.fire()
    assert pace.idle
    ran: list[str] = []
    clock.passed_at(10.0)
    pace.later(0.3, lambda: ran.append("settled"))
    gone = pace.later(0.1, lambda: ran.append("cancelled"))
    gone.cancel()
    clock.now = 10.1
    assert clock.loop_sleep() == pytest.approx(0.2), "to the deadline, not the idle pass"
    clock.fire(2)  # the pass's events: nothing due yet
    assert ran == []
    clock.now = 10.3
    assert clock.loop_sleep() == 0.0
    clock.fire(2)  # the pass's events
    assert ran == ["settled"]
    pace.activity()  # the full rate: Kivy's check, capped by the deadline as well
    clock.passed_at(20.0)
    pace.later(0.004, lambda: ran.append("busy"))
    assert clock.loop_sleep() == pytest.approx(0.004)
    clock.now = 20.004
    assert clock.loop_sleep() == 0.0
    clock.fire(2)
    assert ran == ["settled", "busy"]
    pace.close()


def test_a_deadline_wakes_kivys_own_clock_at_any_pace() -> None:
    """On Kivy's real clock at a pace of one frame in 1,000 s, a tick returns once the
    deadline has come and runs the callable (the join's generous bound only keeps a
    broken deadline from hanging the suite)."""
    clock, pace = idle_kivy_clock(idle_fps=0.001, deep_fps=0.001)
    ran: list[bool] = []
    pace.later(0.05, lambda: ran.append(True))
    ticked = threading.Thread(target=clock.tick)
    ticked.start()
    ticked.join(timeout=60.0)
    assert not ticked.is_alive(), "the deadline did not end the clock's sleep"
    assert ran == [True]
    pace.close()


def _game_on_screen(kiosk: Kiosk) -> None:
    tap_button(kiosk, "Kolossus")
    tap_button(kiosk, "Start game")
    play = kiosk.play
    assert play is not None
    bot = RandomBot(3)
    for _ in range(20):  # a few moves in: pieces, highlights, a log
        while play.fix.step is not None:
            play.fix.next()
        action = bot.choose(play.rules, play.state)
        assert action is not None and play.submit(action)
    frames(5)


def test_a_still_game_schedules_nothing_that_repeats(kiosk: Kiosk) -> None:
    """Once a game is on screen and nothing happens, no clock event of the app repeats:
    the loop is woken by touches, device messages and one-shot timers only. (Kivy's own
    cache purge runs once a second: it expires cached label textures, and the app leaves
    it be.)"""
    from kivy.cache import Cache

    def repeating() -> list[Any]:
        return [
            event
            for event in Clock.get_events()
            if event.loop and event.get_callback() != Cache._purge_by_timeout
        ]

    _game_on_screen(kiosk)
    time.sleep(0.6)  # past the scroll bars' half-second trigger (no fade follows)
    frames(2)
    repeating_now = repeating()
    assert repeating_now == [], [(e.get_callback(), e.timeout) for e in repeating_now]


def test_a_list_that_changes_fades_no_scroll_bar(
    kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kivy fades a ScrollView's bar for half a second after its content changes (some
    fifteen frames redrawn after every move); the kiosk's lists change the bar's colour
    once instead (kiosk/widgets/scrolling.py)."""
    from kivy.animation import Animation
    from kivy.uix.scrollview import ScrollView

    started: list[Any] = []
    real_start = Animation.start

    def recording_start(self: Animation, widget: Any) -> None:
        started.append(widget)
        real_start(self, widget)

    monkeypatch.setattr(Animation, "start", recording_start)
    _game_on_screen(kiosk)
    play = kiosk.play
    assert play is not None
    for _ in range(3):  # the log grows: its list moves and shows its bar
        while play.fix.step is not None:
            play.fix.next()
        action = RandomBot(5).choose(play.rules, play.state)
        assert action is not None and play.submit(action)
        frames(2)
        time.sleep(0.6)  # past the bar's half-second trigger
        frames(2)
    assert [w for w in started if isinstance(w, ScrollView)] == []


def test_device_threads_never_touch_widgets(kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dice posted from a device thread are handled on the main thread: the roll is
    played and the screen updated there, and no widget is changed by the posting thread."""
    _game_on_screen(kiosk)
    play = kiosk.play
    assert play is not None
    bot = RandomBot(5)
    while play.queries.dice_request() is None:  # on to the next roll the game asks for
        while play.fix.step is not None:
            play.fix.next()
        action = bot.choose(play.rules, play.state)
        assert action is not None and play.submit(action)
    frames(2)
    request = play.queries.dice_request()
    assert request is not None
    main = threading.main_thread()
    touched_from: set[str] = set()
    original = Widget.__setattr__

    def watch(self: Widget, name: str, value: Any) -> None:
        if threading.current_thread() is not main:
            touched_from.add(f"{threading.current_thread().name}: {type(self).__name__}.{name}")
        original(self, name, value)

    monkeypatch.setattr(Widget, "__setattr__", watch)
    kiosk.hub.wake = Clock.create_trigger(lambda _dt: kiosk.pump(), 0)  # as the app does
    before = len(play.session.actions)

    def device() -> None:
        for die in range(request.count):
            kiosk.hub.post(
                DieResult(device="test-tray", die_id=die, face=1, faces=request.sides, seq=die)
            )

    thread = threading.Thread(target=device, name="test-device")
    thread.start()
    thread.join()
    assert len(play.session.actions) == before  # nothing played in the device thread
    frames(3)
    assert len(play.session.actions) == before + 1  # played on the main thread
    assert touched_from == set()
