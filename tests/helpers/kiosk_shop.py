"""A kiosk in shop mode on a fake clock (the ``make_shop`` fixture in tests/kiosk/conftest.py
builds them)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch

from companion.highlights import Highlight
from firmware_bridge.doctor import Finding, Severity
from kiosk.app import Kiosk
from kiosk.settings import CompanionConfig, KioskConfig, LoadedConfig
from kiosk.theme import HEIGHT, WIDTH
from tests.helpers.clock import FakeClock
from tests.kiosk.ui import close_kiosk, frames


class Shop:
    """A kiosk with shop settings, a fake clock and a recorded exit."""

    def __init__(self, data_dir: Path, **settings: Any) -> None:
        EventLoop.ensure_window()
        for child in list(Window.children):
            Window.remove_widget(child)
        config = LoadedConfig(CompanionConfig(kiosk=KioskConfig(**settings)), None)
        seeds = itertools.count(100)
        self.kiosk = Kiosk(data_dir, seed=lambda: next(seeds), config=config)
        self.clock = FakeClock(1000.0)
        shop = self.kiosk.shop
        shop.clock = self.clock
        shop.attract.idle.touch(self.clock())
        shop.diagnose = lambda: [Finding(Severity.OK, "LEDs", "121 LEDs are simulated.")]
        self.exits: list[str] = []
        shop.on_exit = lambda: self.exits.append("exit")
        self.leds: list[tuple[Highlight, ...]] = []
        self.kiosk.on_highlights = self.leds.append
        Window.add_widget(self.kiosk.manager)
        frames(2)

    @property
    def current(self) -> str:
        return str(self.kiosk.manager.current)

    def advance(self, seconds: float, *, step: float = 1.0, draw_every: int = 10) -> None:
        """Let ``seconds`` pass on the shop's clock, ticking every ``step``."""
        ticks = max(1, round(seconds / step))
        for n in range(ticks):
            self.clock.now += seconds / ticks
            self.kiosk.shop.tick(self.clock.now)
            if n % draw_every == 0:
                frames(1)
        frames(1)

    def touch(self, x: float = WIDTH / 2, y: float = HEIGHT / 2) -> None:
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        frames(2)

    def long_press(self, widget: Any, seconds: float = 3.1) -> None:
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.advance(seconds, step=0.25)
        touch.touch_up()
        frames(2)

    def close(self) -> None:
        close_kiosk(self.kiosk)
