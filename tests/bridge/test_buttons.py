"""Table and roll buttons: debounce, hold, feedback — MockFactory pins, injected clock."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from firmware_bridge.buttons import (
    ButtonMessage,
    ButtonPanel,
    ButtonPressed,
    ButtonSettings,
    Debouncer,
    RollButtonPressed,
)
from tests.helpers.clock import FakeClock

SETTINGS = ButtonSettings()  # confirm 5, undo 6, end_turn 13, menu 19, roll 26, LED 16, buzzer 20


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    previous = Device.pin_factory
    mock = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = mock
    yield mock
    mock.reset()
    mock.close()
    Device.pin_factory = previous


class Rig:
    """A started panel, its fake clock and what it posted."""

    def __init__(self, factory: MockFactory) -> None:
        self.factory = factory
        self.clock = FakeClock(100.0)
        self.posted: list[ButtonMessage] = []
        self.panel = ButtonPanel(SETTINGS, self.posted.append, clock=self.clock, poll_thread=False)
        self.panel.start()

    def advance(self, seconds: float, step: float = 0.005) -> None:
        """Let time pass with the poll running every ``step`` seconds."""
        end = self.clock.now + seconds
        while self.clock.now < end - 1e-9:
            self.clock.now = min(end, self.clock.now + step)
            self.panel.poll()

    def press(self, pin: int) -> None:
        self.factory.pin(pin).drive_low()  # buttons switch to ground

    def release(self, pin: int) -> None:
        self.factory.pin(pin).drive_high()

    def bounce(self, pin: int, pressed: bool, edges: int = 5) -> None:
        """Contact bounce: the level flips every millisecond before settling."""
        for index in range(edges):
            level_low = (index % 2 == 0) == pressed
            if level_low:
                self.press(pin)
            else:
                self.release(pin)
            self.advance(0.001, step=0.001)
        if pressed:
            self.press(pin)
        else:
            self.release(pin)


@pytest.fixture
def rig(factory: MockFactory) -> Iterator[Rig]:
    setup = Rig(factory)
    yield setup
    setup.panel.stop()


def test_confirm_press_is_posted_once_after_the_debounce_time(rig: Rig) -> None:
    rig.press(5)
    rig.advance(0.02)
    assert rig.posted == [], "not yet stable for 30 ms"
    rig.advance(0.02)
    assert rig.posted == [ButtonPressed("confirm", "confirm")]
    rig.release(5)
    rig.advance(0.1)
    assert rig.posted == [ButtonPressed("confirm", "confirm")]


def test_a_bouncing_press_and_release_count_once(rig: Rig) -> None:
    rig.bounce(13, pressed=True)
    rig.advance(0.1)
    rig.bounce(13, pressed=False)
    rig.advance(0.1)
    assert rig.posted == [ButtonPressed("end_turn", "end_turn")]


def test_a_glitch_shorter_than_the_debounce_is_ignored(rig: Rig) -> None:
    rig.press(5)
    rig.advance(0.01)
    rig.release(5)
    rig.advance(0.2)
    assert rig.posted == []


def test_short_undo_is_undo_on_release(rig: Rig) -> None:
    rig.press(6)
    rig.advance(0.3)
    assert rig.posted == [], "undo waits for the release: it might become a hold"
    rig.release(6)
    rig.advance(0.05)
    assert rig.posted == [ButtonPressed("undo", "undo")]


def test_holding_undo_means_redo_and_the_release_adds_nothing(rig: Rig) -> None:
    rig.bounce(6, pressed=True)
    rig.advance(1.1)
    assert rig.posted == [ButtonPressed("undo", "redo", held=True)]
    rig.bounce(6, pressed=False)
    rig.advance(0.1)
    assert rig.posted == [ButtonPressed("undo", "redo", held=True)]


def test_holding_menu_two_seconds_opens_admin_but_one_second_is_menu(rig: Rig) -> None:
    rig.press(19)
    rig.advance(1.0)
    rig.release(19)
    rig.advance(0.1)
    rig.press(19)
    rig.advance(2.1)
    rig.release(19)
    rig.advance(0.1)
    assert rig.posted == [ButtonPressed("menu", "menu"), ButtonPressed("menu", "admin", True)]


def test_roll_button_is_posted_with_light_and_sound(rig: Rig) -> None:
    led, buzzer = rig.factory.pin(16), rig.factory.pin(20)
    assert not led.state and not buzzer.state
    rig.bounce(26, pressed=True)
    rig.advance(0.04)
    assert rig.posted == [RollButtonPressed("roll-1")]
    assert led.state and buzzer.state and rig.panel.feedback_on
    rig.advance(0.2)
    assert not led.state and not buzzer.state and not rig.panel.feedback_on
    rig.release(26)
    rig.advance(0.1)
    rig.press(26)
    rig.advance(0.05)
    assert rig.posted == [RollButtonPressed("roll-1")] * 2


def test_the_poll_thread_runs_with_the_real_clock(factory: MockFactory) -> None:
    got = threading.Event()
    posted: list[ButtonMessage] = []

    def post(message: ButtonMessage) -> None:
        posted.append(message)
        got.set()

    panel = ButtonPanel(SETTINGS, post)
    panel.start()
    try:
        factory.pin(13).drive_low()
        assert got.wait(2.0)
        assert posted == [ButtonPressed("end_turn", "end_turn")]
    finally:
        panel.stop()
    assert not any(t.name == "buttons" and t.is_alive() for t in threading.enumerate())


def test_a_failing_poll_restarts_the_thread_and_says_so(
    factory: MockFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unexpected error ended the poll thread, silently."""
    got = threading.Event()
    posted: list[ButtonMessage] = []
    errors: list[str] = []

    def post(message: ButtonMessage) -> None:
        posted.append(message)
        got.set()

    panel = ButtonPanel(SETTINGS, post, on_error=errors.append)
    real_poll = panel.poll
    failures = iter([RuntimeError("the driver said no")])

    def poll_failing_once() -> None:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        real_poll()

    monkeypatch.setattr(panel, "poll", poll_failing_once)
    panel.start()
    try:
        factory.pin(13).drive_low()  # the first poll fails; the restarted thread sees it
        assert got.wait(5.0)
        assert posted == [ButtonPressed("end_turn", "end_turn")]
        assert errors == [
            "The table buttons failed (RuntimeError: the driver said no); restarting in"
            " 0.5 s (attempt 1)."
        ]
    finally:
        panel.stop()


def test_an_idle_panel_sleeps_until_an_edge_then_times_the_hold(factory: MockFactory) -> None:
    """Idle: no 100 Hz polling (CPU on the Pi); a press wakes the thread for its timers."""
    polls: list[float] = []
    posted: list[ButtonMessage] = []
    got = threading.Event()

    def post(message: ButtonMessage) -> None:
        posted.append(message)
        got.set()

    panel = ButtonPanel(SETTINGS.model_copy(update={"undo_hold_s": 0.3}), post)
    real_poll = panel.poll

    def counting_poll() -> None:
        polls.append(time.monotonic())
        real_poll()

    panel.poll = counting_poll  # type: ignore[method-assign]
    panel.start()
    try:
        time.sleep(0.3)
        assert len(polls) <= 1  # IDLE_POLL_S is 0.5 s; a 10 ms poll would be ~30
        factory.pin(6).drive_low()  # undo held: only the thread's polls can see the hold
        assert got.wait(3.0)
        assert posted == [ButtonPressed("undo", "redo", True)]
    finally:
        factory.pin(6).drive_high()
        panel.stop()


def test_unfitted_buttons_are_skipped(factory: MockFactory) -> None:
    settings = ButtonSettings(menu_pin=None, roll_pins=(), feedback_led_pin=None, buzzer_pin=None)
    posted: list[ButtonMessage] = []
    panel = ButtonPanel(settings, posted.append, poll_thread=False)
    panel.start()
    panel.stop()
    assert settings.used_pins() == (5, 6, 13)


def test_settings_refuse_a_pin_used_twice() -> None:
    with pytest.raises(ValidationError, match="distinct"):
        ButtonSettings(undo_pin=5)
    with pytest.raises(ValidationError, match="distinct"):
        ButtonSettings(roll_pins=(16,))


# ---------------------------------------------------------------- the debouncer alone


@given(
    st.lists(st.floats(0.0001, 0.004), min_size=0, max_size=8),
    st.floats(0.05, 0.5),
)
def test_any_bounce_shorter_than_the_debounce_gives_exactly_one_press(
    bounce_gaps: list[float], held: float
) -> None:
    debouncer = Debouncer(debounce_s=0.03)
    now = 0.0
    events = []
    level = True
    for gap in bounce_gaps:  # bouncing edges, each gap far below 30 ms in total
        events += debouncer.edge(level, now)
        level = not level
        now += gap
    events += debouncer.edge(True, now)
    for _ in range(int(held / 0.005)):
        now += 0.005
        events += debouncer.poll(now)
    events += debouncer.edge(False, now)
    for _ in range(20):
        now += 0.005
        events += debouncer.poll(now)
    assert events == ["press"]


def test_a_hold_is_recognised_at_the_release_edge_even_without_a_poll_in_between() -> None:
    debouncer = Debouncer(debounce_s=0.03, hold_s=1.0)
    assert debouncer.edge(True, 0.0) == []
    assert debouncer.poll(0.05) == []
    assert debouncer.edge(False, 1.5) == ["hold"]
    assert debouncer.poll(1.6) == [], "and the release is not also a press"


def test_a_short_hold_button_press_is_reported_on_release() -> None:
    debouncer = Debouncer(debounce_s=0.03, hold_s=1.0)
    assert debouncer.edge(True, 0.0) == []
    assert debouncer.poll(0.05) == []
    assert debouncer.edge(False, 0.5) == []
    assert debouncer.poll(0.52) == [], "the release is still being debounced"
    assert debouncer.poll(0.54) == ["press"]
