"""The kiosk's Kivy config, loaded by the real Kivy: one touch provider, rotation, no log files.

Each check runs Kivy in a fresh interpreter (offscreen SDL2) with the generated
``config.ini`` as its only configuration, the way the service does.

Touch rotation: the config rotates the picture with ``[graphics] rotation`` and gives
the touch provider no rotation of its own, relying on Kivy (≥ 2.1) to turn every touch
by the window's rotation. The test feeds a touch in the panel's own coordinates and
checks where it lands, so a Kivy that stopped doing that would fail here.
"""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GENERATOR = REPO / "deploy" / "kivy_config.py"

PROBE = r"""
import json, sys
from kivy.config import Config
from kivy.base import EventLoop
from kivy.input.motionevent import MotionEvent

class PanelTouch(MotionEvent):
    def depack(self, args):
        self.sx, self.sy = args
        self.profile = ["pos"]
        super().depack(args)

EventLoop.ensure_window()
window = EventLoop.window
touch = PanelTouch("touchscreen", 1, (0.1, 0.2), is_touch=True)
window.transform_motion_event_2d(touch)
width, height = window._get_effective_size()
json.dump({
    "input": Config.items("input"),
    "rotation": window.rotation,
    "log_enable": Config.get("kivy", "log_enable"),
    "touch": [touch.x / width, touch.y / height],
}, sys.stdout)
"""


def generate(rotation: int) -> str:
    result = subprocess.run(
        [sys.executable, str(GENERATOR), "--rotate", str(rotation)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def run_kivy(home: Path) -> dict[str, object]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("KIVY_", "KCFG_")) and key != "SDL_VIDEODRIVER"
    }
    # No KIVY_NO_FILELOG and Kivy's own log mode: the config alone must stop log files.
    env.update({"KIVY_HOME": str(home), "KIVY_NO_ARGS": "1", "SDL_VIDEODRIVER": "offscreen"})
    env.pop("DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    found: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return found


def test_the_generator_is_deterministic_and_keeps_kivy_s_config_version() -> None:
    text = generate(180)
    assert text == generate(180)
    ini = configparser.RawConfigParser()
    ini.read_string(text)
    assert int(ini.get("kivy", "config_version")) >= 27  # Kivy 2.3: no "upgrade" rewrite
    assert ini.items("input") == [("touchscreen", "probesysfs,provider=mtdev,select_all=0")]


@pytest.mark.parametrize(("rotation", "expected"), [(0, (0.1, 0.2)), (180, (0.9, 0.8))])
def test_touch_lands_where_the_rotated_picture_is(
    tmp_path: Path, rotation: int, expected: tuple[float, float]
) -> None:
    config = tmp_path / "config.ini"
    config.write_text(generate(rotation), encoding="utf-8")
    before = config.read_bytes()
    found = run_kivy(tmp_path)
    assert found["input"] == [["touchscreen", "probesysfs,provider=mtdev,select_all=0"]]
    assert found["rotation"] == rotation and found["log_enable"] == "0"
    touch = found["touch"]
    assert isinstance(touch, list)
    assert touch == pytest.approx(list(expected), abs=0.01)  # pixels count from 0
    assert config.read_bytes() == before  # Kivy did not rewrite (upgrade) the file
    assert not (tmp_path / "logs").exists()  # no log files on the SD card
