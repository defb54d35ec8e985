"""The app's exception guard (kiosk/guard.py): a widget's exception is logged and the
kiosk recovers (Home) instead of exiting; a burst still ends the run for a fresh start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.base import EventLoop, ExceptionManager
from kivy.clock import Clock

from kiosk.app import Kiosk
from kiosk.guard import ExceptionGuard
from tests.helpers.clock import FakeClock
from tests.kiosk.ui import close_kiosk, open_kiosk


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    kiosk = open_kiosk(tmp_path)
    yield kiosk
    close_kiosk(kiosk)


def test_an_exception_is_logged_and_passed(caplog: pytest.LogCaptureFixture) -> None:
    recovered: list[str] = []
    guard = ExceptionGuard(lambda: recovered.append("home"))
    assert guard.handle_exception(KeyError("LINE_HINT_1")) == ExceptionManager.PASS
    assert recovered == ["home"]
    assert "KeyError" in caplog.text


def test_interrupts_and_exits_are_not_swallowed() -> None:
    guard = ExceptionGuard(lambda: None)
    assert guard.handle_exception(KeyboardInterrupt()) == ExceptionManager.RAISE
    assert guard.handle_exception(SystemExit(0)) == ExceptionManager.RAISE


def test_a_burst_ends_the_run_and_a_spread_does_not() -> None:
    clock = FakeClock()
    guard = ExceptionGuard(lambda: None, clock=clock, limit=3, window_s=10.0)
    for _ in range(3):
        assert guard.handle_exception(ValueError()) == ExceptionManager.PASS
    assert guard.handle_exception(ValueError()) == ExceptionManager.RAISE
    clock.now = 100.0  # long after: the count starts again
    assert guard.handle_exception(ValueError()) == ExceptionManager.PASS


def test_a_failing_recovery_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> None:
        raise RuntimeError("no home")

    guard = ExceptionGuard(broken)
    assert guard.handle_exception(ValueError()) == ExceptionManager.PASS
    assert "Recovering after an exception failed" in caplog.text


def test_the_main_loop_goes_on_after_a_widget_raises(kiosk: Kiosk) -> None:
    """Kivy's own main loop: a clock callback raises, the loop runs on, Home is shown."""
    kiosk.open_setup("builders")
    guard = ExceptionGuard(kiosk.recover)
    guard.install()
    ran: list[str] = []

    def boom(_dt: float) -> None:
        raise KeyError("LINE_HINT_1")

    def after(_dt: float) -> None:
        ran.append("after")
        EventLoop.quit = True

    Clock.schedule_once(boom, 0)
    Clock.schedule_once(after, 0.05)
    status, EventLoop.status = EventLoop.status, "started"  # the tests step frames themselves
    try:
        EventLoop.mainloop()
    finally:
        EventLoop.quit, EventLoop.status = False, status
        guard.uninstall()
    assert ran == ["after"]
    assert guard.recovered == 1
    assert kiosk.manager.current == "home"
