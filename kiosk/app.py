"""The touchscreen app: the Kivy ``App`` around the kiosk.

:class:`CompanionApp` builds the :class:`~kiosk.navigation.Kiosk` (navigation, with its
hardware wiring, lesson flow and fleet reporting), paces the loop, drains the hub and
closes the journal; :func:`run_app` is what ``companion`` (``kiosk.cli``) calls. Screen
logic lives in :mod:`kiosk.presenters`.
"""

from __future__ import annotations

import os
import signal

from kiosk.kivy_env import kivy_environment

# Kivy and the GL driver read these when first loaded (why each: kiosk/kivy_env.py).
os.environ.update(kivy_environment(os.environ))

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.app import App
from kivy.clock import Clock, ClockEvent
from kivy.config import Config
from kivy.uix.screenmanager import ScreenManager

from firmware_bridge.rig import Rig, build_rig
from kiosk import touch_wake
from kiosk.guard import ExceptionGuard
from kiosk.hardware import HardwareHub
from kiosk.memory import freeze_startup
from kiosk.navigation import KV_FILES, RELEASE_MEMORY_AFTER_S, Kiosk
from kiosk.pace import WOKEN_DEEP_IDLE_FPS, WOKEN_IDLE_FPS, IdlePace
from kiosk.settings import LoadedConfig
from kiosk.ui_map import UiMap

if TYPE_CHECKING:  # the fleet's modules (paho-mqtt) load only when the fleet is on
    from kiosk.fleet.publisher import FleetPublisher

__all__ = [
    "KV_FILES",
    "RELEASE_MEMORY_AFTER_S",
    "CompanionApp",
    "CutBufferNotice",
    "Kiosk",
    "run_app",
]


class CutBufferNotice(logging.Filter):
    """Kivy looks for an X11 cut buffer (xclip, xsel) the first time a text field is
    used and, finding none, logs a CRITICAL with two tracebacks. A touchscreen has no
    middle-click paste, so that is one line at INFO, not an alarm in the journal."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.CRITICAL and str(record.msg).startswith(
            "Cutbuffer: Unable to find"
        ):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = "Cutbuffer: no xclip or xsel; no middle-click paste in text fields"
            record.args = ()
        return True


logging.getLogger("kivy").addFilter(CutBufferNotice())

#: Test hooks (documented in docs/kiosk.md): the UI map file and the sim strip's frame file.
ENV_UI_MAP = "COMPANION_UI_MAP"
ENV_SIM_LEDS = "COMPANION_SIM_LEDS"
UI_MAP_INTERVAL_S = 1 / 30


class CompanionApp(App):  # type: ignore[misc]
    """The Kivy app: builds the kiosk, runs the rig, drains the hub, closes the journal."""

    title = "Colossus Companion"

    def __init__(
        self,
        data_dir: Path,
        hub: HardwareHub | None = None,
        *,
        rig: Rig | None = None,
        fleet: FleetPublisher | None = None,
        problems: Sequence[str] = (),
        ui_map: Path | None = None,
        config: LoadedConfig | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)
        # Not ``self.config``: that is Kivy's own ConfigParser, set by App.run().
        self.loaded_config = config
        self.data_dir = Path(data_dir)
        self.hub = hub if hub is not None else HardwareHub()
        self.rig = rig
        self.fleet = fleet
        self.problems = tuple(problems)
        self.ui_map = ui_map
        self.kiosk: Kiosk | None = None
        self._events: list[ClockEvent] = []
        self._ui_map: UiMap | None = None
        self.pace: IdlePace | None = None
        self.guard: ExceptionGuard | None = None

    def build(self) -> ScreenManager:
        self.kiosk = Kiosk(
            self.data_dir, hub=self.hub, problems=self.problems, config=self.loaded_config
        )
        # A widget's exception is logged and recovered from, not the end of the app.
        self.guard = ExceptionGuard(self.kiosk.recover)
        self.guard.install()
        # The loop slows down while nothing happens (kiosk/pace.py).
        from kivy.core.window import Window  # here: importing it opens the window

        # Touches read by an input thread (the Pi's panel) wake the loop themselves, so
        # an idle loop can pass more seldom (kiosk/touch_wake.py).
        woken = touch_wake.touches_wake(value for _, value in Config.items("input"))
        rates = {"idle_fps": WOKEN_IDLE_FPS, "deep_fps": WOKEN_DEEP_IDLE_FPS} if woken else {}
        self.pace = IdlePace(Clock, on_idle=self._calm_devices, **rates)
        if woken:
            touch_wake.install(self.pace.wake)
        # Woken by every post from a device thread, at once, whatever the pace; no
        # polling (see kiosk.hardware).
        self.hub.wake = self._device_wake(Clock.create_trigger(self._pump, 0), self.pace)
        Window.bind(
            on_flip=self.pace.activity,
            on_motion=self.pace.activity,
            on_key_down=self.pace.activity,
        )
        if self.pace.enabled:
            self.kiosk.on_time = self.pace.later
        if self.rig is not None:
            self.kiosk.attach_rig(self.rig)
        if self.fleet is not None:
            self.kiosk.attach_fleet(self.fleet)
        self.hub.wake()  # whatever was posted before the trigger existed
        freeze_startup()  # before a game is resumed: only what lives for the whole run
        self.kiosk.shop.apply_window_mode()  # shop lock-down: borderless fullscreen
        self.kiosk.shop.boot()  # [kiosk] on_boot; idle -> demo
        if self.ui_map is not None:
            self._ui_map = UiMap(self.kiosk, self.ui_map)  # Kivy's clock holds it weakly
            self._events.append(Clock.schedule_interval(self._ui_map.write, UI_MAP_INTERVAL_S))
        return self.kiosk.manager

    @staticmethod
    def _device_wake(pump: Callable[[], None], pace: IdlePace) -> Callable[[], None]:
        def wake() -> None:  # the posting thread
            pump()
            pace.wake()

        return wake

    def _calm_devices(self, idle: bool) -> None:
        if self.rig is not None:
            self.rig.set_calm(idle)

    def _pump(self, _dt: float) -> None:
        if self.pace is not None:
            self.pace.activity()
        if self.kiosk is not None:
            self.kiosk.pump()

    def open_settings(self, *_args: object) -> bool:
        """No Kivy settings panel on F1: it could switch Escape back on in a locked shop
        kiosk. The admin page (behind the PIN when locked) is the settings."""
        return False

    def on_stop(self) -> None:
        if self.guard is not None:
            self.guard.uninstall()
        self.hub.wake = None
        touch_wake.uninstall()
        if self.pace is not None:
            self.pace.close()
        for event in self._events:
            event.cancel()
        if self.kiosk is not None:
            self.kiosk.close()


def run_app(loaded: LoadedConfig) -> int:
    """Start the touchscreen app with the devices ``loaded`` configures; the exit status.

    ``loaded.config.data_dir`` holds the journal. Configuration problems appear in a
    banner on Home (the app then runs with simulated devices, as the loader decided).
    Test hooks: ``COMPANION_UI_MAP`` (see :class:`UiMap`) and ``COMPANION_SIM_LEDS``
    (the strip records every frame it ships: newest frame + checksums of recent ones).
    """
    if not os.environ.get("DISPLAY"):
        # No desktop (the Pi's KMSDRM): a docked on-screen keyboard for player names.
        Config.set("kivy", "keyboard_mode", "systemanddock")
    frame_file = os.environ.get(ENV_SIM_LEDS)
    ui_map = os.environ.get(ENV_UI_MAP)
    rig = build_rig(loaded.config, frame_file=Path(frame_file) if frame_file else None)
    problems = [str(problem) for problem in loaded.problems]
    fleet: FleetPublisher | None = None
    if loaded.config.fleet.enabled:  # the fleet's modules (paho-mqtt) load only when on
        from kiosk.fleet.report import make_publisher

        fleet, fleet_problem = make_publisher(loaded)
        if fleet_problem is not None:
            problems.append(fleet_problem)
    app = CompanionApp(
        loaded.config.data_dir,
        rig=rig,
        fleet=fleet,
        problems=problems,
        ui_map=Path(ui_map) if ui_map else None,
        config=loaded,
    )
    stop_on_sigterm(app)
    try:
        app.run()
    finally:
        rig.stop()
    return 0


def stop_on_sigterm(app: App) -> None:
    """``systemctl stop`` (and a test's teardown) sends SIGTERM: stop as after Escape.

    Python's default would end the process at once, leaving the LEDs lit, the journal
    open and the simulated tray's port behind; this stops the app from its own clock
    on the main thread, so ``on_stop`` closes the journal and the rig darkens the strip.
    """

    def handler(_signum: int, _frame: object) -> None:
        Clock.schedule_once(lambda _dt: app.stop(), 0)

    signal.signal(signal.SIGTERM, handler)
