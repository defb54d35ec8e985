"""Kivy setup for the kiosk tests: offscreen SDL2, 800×480, a fresh KIVY_HOME.

The environment must be set before the first ``import kivy`` anywhere in the run, so it
happens at import time of this conftest (pytest imports it before the test modules of
this folder). Presenter tests never import Kivy; they assert it.

The end-to-end tests' fixtures are here too: a private Xvfb display, the test's dice
tray on a pty, and the real ``companion`` app on that display (tests/helpers/xvfb_app.py
drives it).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from firmware_bridge.dice.sim_tray import SimDiceTray
from firmware_bridge.frames import DieSpec
from kiosk.kivy_env import kivy_environment

if TYPE_CHECKING:  # Kivy is imported by the fixture, after the environment is set
    from tests.helpers.kiosk_shop import Shop
from tests.helpers.xvfb_app import TRAY_BATTERY, XVFB, App, launched

_KIVY_HOME = Path(tempfile.mkdtemp(prefix="kivy-home-"))
atexit.register(shutil.rmtree, _KIVY_HOME, True)

os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "0")  # tests step frames as fast as they can
os.environ.setdefault("KCFG_GRAPHICS_RESIZABLE", "0")
# Otherwise the app's own settings, so the tests draw what players see.
os.environ.update(kivy_environment(os.environ, quiet=True, kivy_home=_KIVY_HOME, headless=True))


@pytest.fixture
def display() -> Iterator[str]:
    """A private Xvfb display whose number Xvfb picks itself (``-displayfd``).

    Xvfb takes the first number whose lock it can create and writes it to the pipe once
    it accepts connections, so tests running side by side (pytest-xdist workers, another
    run on the machine) never pick the same display or talk to each other's server.
    """
    assert XVFB is not None
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [XVFB, "-displayfd", str(write_end), "-screen", "0", "800x480x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_end,),
    )
    os.close(write_end)
    with os.fdopen(read_end) as ready:
        number = ready.readline().strip()  # empty: Xvfb ended without a display
    if not number.isdigit():
        server.kill()
        pytest.fail(f"Xvfb did not start (status {server.wait(5)})")
    yield f":{number}"
    server.terminate()
    server.wait(5)


@pytest.fixture
def tray(tmp_path: Path) -> Iterator[SimDiceTray]:
    """The test's own dice tray: three d4 behind a pty, speaking the tray protocol."""
    sim = SimDiceTray(
        str(tmp_path / "dice-tray"),
        device_id="test-tray",
        dice=(DieSpec(1, 4), DieSpec(2, 4), DieSpec(3, 4)),
        seed=7,
    )
    sim.battery = TRAY_BATTERY
    sim.start()
    yield sim
    sim.stop()


@pytest.fixture
def app(tmp_path: Path, display: str, tray: SimDiceTray) -> Iterator[App]:
    config = tmp_path / "companion.toml"
    config.write_text(
        f"""
[dice]
source = "serial"

[dice.serial]
port = "{tray.path}"
usb_vid = 0                  # never a real tray on this machine
usb_pid = 0
backoff_initial_s = 0.2

[buttons]
source = "none"

[leds]
driver = "sim"

[kiosk]
idle_timeout_s = 0           # no shop demo in the middle of the test
on_boot = "home"
""",
        encoding="utf-8",
    )
    with launched(tmp_path, display, config) as running:
        yield running


@pytest.fixture
def make_shop(tmp_path: Path) -> Iterator[Callable[..., Shop]]:
    """Kiosks with shop settings, a fake clock and a recorded exit; closed afterwards."""
    from tests.helpers.kiosk_shop import Shop

    opened: list[Shop] = []

    def make(**settings: Any) -> Shop:
        shop = Shop(tmp_path, **settings)
        opened.append(shop)
        return shop

    yield make
    for shop in opened:
        shop.close()
