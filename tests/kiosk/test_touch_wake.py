"""Touches read by an input thread wake the idle loop at once (kiosk/touch_wake.py).

The Pi's panel is read by Kivy's ``mtdev`` provider in a thread; with each touch waking
the loop, an idle kiosk passes twice a second instead of ten times (idle CPU)
and a first touch after a pause still waits for nothing.
"""

from __future__ import annotations

import collections
import configparser
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kivy
import pytest

from kiosk import touch_wake
from kiosk.pace import WOKEN_DEEP_IDLE_FPS, WOKEN_IDLE_FPS
from tests.helpers.clock import idle_kivy_clock

KIVY_PROVIDERS = Path(kivy.__file__).parent / "input" / "providers"
REPO = Path(__file__).resolve().parents[2]


def _pi_input_lines() -> list[str]:
    """The ``[input]`` values of the config.ini deploy/install-pi writes for the Pi (the
    generator run as the installer runs it)."""
    done = subprocess.run(
        [sys.executable, str(REPO / "deploy" / "kivy_config.py"), "--rotate", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    config = configparser.RawConfigParser()
    config.read_string(done.stdout)
    return [value for _, value in config.items("input")]


PI_INPUT = _pi_input_lines()
TOUCH_PROVIDER = PI_INPUT[0]


class ReaderProvider:
    """A touch provider built as Kivy's ``mtdev`` is: ``start()`` runs ``_thread_run``
    in a thread with the provider's queue, which ``update()`` drains on the main loop."""

    def __init__(self, touches: int) -> None:
        self.touches = touches
        self.queue: Any = collections.deque()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.queue = collections.deque()
        self.thread = threading.Thread(
            target=self._thread_run, kwargs={"queue": self.queue}, daemon=True
        )
        self.thread.start()

    def _thread_run(self, **kwargs: Any) -> None:
        queue = kwargs["queue"]
        for touch in range(self.touches):
            queue.append(("begin", touch))
            queue.append(("end", touch))

    def update(self, dispatch: Any) -> None:
        while self.queue:
            dispatch(*self.queue.popleft())


@pytest.fixture
def provider_class() -> Iterator[type[ReaderProvider]]:
    class Provider(ReaderProvider):  # a class of its own: install() wraps it for good
        pass

    yield Provider
    touch_wake.uninstall()


def test_every_touch_the_reader_thread_queues_wakes_the_loop(
    provider_class: type[ReaderProvider],
) -> None:
    wakes: list[str] = []
    touch_wake.install(lambda: wakes.append(threading.current_thread().name), [provider_class])
    touch_wake.install(lambda: wakes.append(threading.current_thread().name), [provider_class])
    provider = provider_class(touches=3)
    provider.start()
    assert provider.thread is not None
    provider.thread.join(timeout=10)
    assert len(wakes) == 6, "one wake per queued event, wrapped once however often installed"
    assert threading.main_thread().name not in wakes  # woken from the reader's thread
    dispatched: list[tuple[str, int]] = []
    provider.update(lambda kind, touch: dispatched.append((kind, touch)))
    assert dispatched == [(kind, t) for t in range(3) for kind in ("begin", "end")]
    touch_wake.uninstall()
    provider.start()  # after the app stopped: queued, nobody woken
    assert provider.thread is not None
    provider.thread.join(timeout=10)
    assert len(wakes) == 6 and len(provider.queue) == 6


def test_a_woken_pace_ends_the_clocks_sleep_when_a_touch_is_queued(
    provider_class: type[ReaderProvider],
) -> None:
    """The whole path on Kivy's own clock, asleep at the woken idle rate: the reader
    thread's touch ends the sleep (the join's bound only keeps a broken wake from
    hanging the suite)."""
    clock, pace = idle_kivy_clock(idle_fps=0.001, deep_fps=0.001)
    touch_wake.install(pace.wake, [provider_class])
    slept = threading.Thread(target=clock.idle)
    slept.start()
    time.sleep(0.05)
    provider = provider_class(touches=1)
    provider.start()
    slept.join(timeout=60.0)
    assert not slept.is_alive(), "a queued touch did not end the clock's sleep"
    pace.close()


@pytest.mark.parametrize(
    ("lines", "wakes"),
    [
        (PI_INPUT, True),  # the Pi: deploy/kivy_config.py
        (["probesysfs"], True),  # probesysfs hands devices to mtdev by default
        (["probesysfs,provider=hidinput"], True),
        (["mtdev,/dev/input/event3"], True),
        (["mouse,mouse"], False),  # SDL's mouse: read by the loop itself
        ([TOUCH_PROVIDER, "mouse,mouse"], False),
        (["probesysfs,provider=linuxwacom"], False),
        (["tuio,0.0.0.0:3333"], False),
        ([], False),
    ],
)
def test_the_slow_idle_rate_is_only_for_touches_that_wake(lines: list[str], wakes: bool) -> None:
    assert touch_wake.touches_wake(lines) is wakes


def test_kivys_threaded_providers_still_queue_as_the_wake_expects() -> None:
    """kivy==2.3.1's reader threads: ``start()`` runs ``self._thread_run`` (looked up on
    the class when the thread starts), the thread appends each touch to the provider's
    queue, and ``update()`` pops them from ``self.queue``."""
    for name in touch_wake.THREADED_PROVIDERS:
        source = (KIVY_PROVIDERS / f"{name}.py").read_text()
        assert "target=self._thread_run" in source, name
        assert "self.queue = collections.deque()" in source, name
        assert "queue.append((" in source, name
        assert "self.queue.popleft()" in source, name
    assert "queue = kwargs.get('queue')" in (KIVY_PROVIDERS / "mtdev.py").read_text()
    assert "queue = self.queue" in (KIVY_PROVIDERS / "hidinput.py").read_text()


def test_the_woken_rates_are_slower_than_the_usual_idle_ones() -> None:
    from kiosk.pace import DEEP_IDLE_FPS, IDLE_FPS

    assert WOKEN_IDLE_FPS < IDLE_FPS and WOKEN_DEEP_IDLE_FPS < DEEP_IDLE_FPS
    assert WOKEN_DEEP_IDLE_FPS <= WOKEN_IDLE_FPS
