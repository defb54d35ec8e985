"""One contract for every DiceSource backend: start, post status, stop promptly, twice."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_bridge.dice.base import DiceSource
from firmware_bridge.dice.gpio_die import GpioDiceSettings, GpioDie
from firmware_bridge.dice.messages import DiceMessage, DieResult, TrayState, TrayStatus
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.dice.sim_tray import SimDiceTray
from tests.helpers.dice_serial import drain_until, fast_settings, has_state, n_results

Backend = tuple[DiceSource, Callable[[int], None]]
"""A source and a way to make its die show a face."""


@pytest.fixture(params=["serial", "gpio"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "serial":
        sim = SimDiceTray(str(tmp_path / "dice-tray"))
        sim.start()

        def roll(face: int) -> None:
            sim.roll(1, face)

        try:
            yield SerialDiceTray(fast_settings(tmp_path / "dice-tray")), roll
        finally:
            sim.stop()
    else:
        previous = Device.pin_factory
        factory = MockFactory(pin_class=MockPWMPin)
        Device.pin_factory = factory
        settings = GpioDiceSettings(enabled=True)

        def show(face: int) -> None:
            factory.pin(settings.strobe_pin).drive_low()
            for bit, pin in enumerate(settings.data_pins):
                if face >> bit & 1:
                    factory.pin(pin).drive_high()
                else:
                    factory.pin(pin).drive_low()
            factory.pin(settings.strobe_pin).drive_high()

        try:
            yield GpioDie(settings), show
        finally:
            factory.reset()
            factory.close()
            Device.pin_factory = previous


def test_every_source_connects_posts_a_d4_result_and_stops(backend: Backend) -> None:
    source, show = backend
    inbox: queue.Queue[DiceMessage] = queue.Queue()
    seen: list[DiceMessage] = []
    source.start(inbox.put)
    try:
        assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
        assert source.state is TrayState.CONNECTED
        show(3)
        assert drain_until(inbox, n_results(1), seen)
        result = next(m for m in seen if isinstance(m, DieResult))
        assert (result.face, result.faces) == (3, 4)
    finally:
        source.stop()
        source.stop()
    assert drain_until(inbox, has_state(TrayState.STOPPED), seen)
    assert isinstance(seen[-1], TrayStatus)
    assert not any(t.name.startswith("dice-") and t.is_alive() for t in threading.enumerate())
