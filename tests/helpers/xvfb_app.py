"""The real ``companion`` app on a private Xvfb display, driven through its
``COMPANION_UI_MAP`` hook and ``xdotool`` clicks (the fixtures are in
tests/kiosk/conftest.py)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.layout import kolossus_layout

ROOT = Path(__file__).resolve().parents[2]
COMPANION = Path(sys.executable).parent / "companion"
XVFB = shutil.which("Xvfb")
XDOTOOL = shutil.which("xdotool")
NEEDS_XVFB = pytest.mark.skipif(
    XVFB is None or XDOTOOL is None,
    reason="needs Xvfb and xdotool (Debian: apt install xvfb xdotool)",
)
"""The mark of every test that runs the real app under Xvfb."""
TRAY_BATTERY = 55
"""The battery level the test's dice tray reports."""


@dataclass
class App:
    """The running companion, seen through its UI map, its journal and the X server."""

    process: subprocess.Popen[bytes]
    display: str
    ui_map: Path
    strip_file: Path
    journal: Path
    window: str = ""
    timings: dict[str, list[float]] = field(default_factory=dict)

    def ui(self) -> dict[str, Any]:
        for _ in range(50):
            try:
                data: dict[str, Any] = json.loads(self.ui_map.read_text())
                return data
            except (OSError, ValueError):
                time.sleep(0.02)
        raise AssertionError("the app never wrote its UI map")

    def wait(self, what: str, done: Callable[[dict[str, Any]], bool], timeout: float = 8) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            assert self.process.poll() is None, f"the app exited ({self.process.returncode})"
            ui = self.ui()
            if done(ui):
                return ui
            assert time.monotonic() < deadline, f"waited for {what}; the screen: {brief(ui)}"
            time.sleep(0.03)

    def buttons(self) -> list[dict[str, Any]]:
        return [b for b in self.ui()["buttons"] if not b["disabled"]]

    def find(self, text: str, *, exact: bool = False) -> dict[str, Any] | None:
        found = [b for b in self.buttons() if b["text"] == text]
        if not found and not exact:
            found = [b for b in self.buttons() if b["text"].startswith(text)]
        return found[0] if found else None

    def xdotool(self, *args: str) -> str:
        assert XDOTOOL is not None
        result = subprocess.run(
            [XDOTOOL, *args],
            env={**os.environ, "DISPLAY": self.display},
            capture_output=True,
            text=True,
            timeout=10,
        )
        return result.stdout.strip()

    def click(self, text: str, *, exact: bool = False) -> None:
        """A mouse click at the centre of the button with this text; waits for a redraw."""
        self.wait(f"a button {text!r}", lambda _ui: self.find(text, exact=exact) is not None, 4)
        button = self.find(text, exact=exact)
        assert button is not None
        self.click_button(button)

    def click_button(self, button: dict[str, Any]) -> None:
        """A mouse click at the centre of ``button`` (from the UI map); waits for a redraw."""
        before = self.ui_map.read_text()
        self.xdotool("mousemove", "--window", self.window, str(button["x"]), str(button["y"]))
        time.sleep(0.03)
        self.xdotool("mousedown", "1")
        time.sleep(0.05)
        self.xdotool("mouseup", "1")
        deadline = time.monotonic() + 4
        while self.ui_map.read_text() == before and time.monotonic() < deadline:
            time.sleep(0.02)

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        if not self.journal.exists():
            return []
        db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute(sql).fetchall()
        finally:
            db.close()

    def actions(self) -> list[dict[str, Any]]:
        """The journal's acted actions, oldest first (no undo happens in this test)."""
        rows = self.rows("SELECT payload FROM entries WHERE kind = 'act' ORDER BY game_id, seq")
        return [json.loads(payload) for (payload,) in rows]


def brief(ui: dict[str, Any]) -> str:
    texts = [b["text"].replace("\n", " ")[:28] for b in ui.get("buttons", [])]
    return f"{ui.get('screen')} {ui.get('devices')!r} {ui.get('banner')!r} {texts}"


def grab(display: str, path: Path) -> Any:
    from PIL import ImageGrab

    image = ImageGrab.grab(xdisplay=display).convert("RGB")
    image.save(path)
    return image


def strip_lit(app: App) -> set[int]:
    """The LEDs the simulated strip's last shipped frame lights."""
    strip = json.loads(app.strip_file.read_text())
    return {i for i, pixel in enumerate(strip["frame"]) if any(pixel)}


def leds_of_cells(cells: list[str]) -> set[int]:
    layout = kolossus_layout()
    return {i for cell in cells for i in layout.leds_of(cell)}


def wait_for_strip(app: App, what: str) -> dict[str, Any]:
    """Wait until the strip lights exactly the LEDs of the cells the screen's board lights
    (the animator ships the new highlights on its next tick); returns that UI map."""
    found: dict[str, Any] = {}

    def matches(ui: dict[str, Any]) -> bool:
        found.update(ui)
        return strip_lit(app) == leds_of_cells(ui["board_lit"])

    try:
        shown: dict[str, Any] = app.wait(what, matches, timeout=6)
    except AssertionError:
        raise AssertionError(
            f"{what}: the strip lights {sorted(strip_lit(app))}, the screen's board "
            f"{found.get('board_lit')} (LEDs {sorted(leds_of_cells(found.get('board_lit', [])))})"
        ) from None
    return shown


@contextmanager
def launched(tmp_path: Path, display: str, config: Path) -> Iterator[App]:
    """The real ``companion`` with ``config`` on ``display``, as the README starts it
    (``--config``, ``--data-dir``), its UI map and simulated strip in ``tmp_path``;
    stopped as systemd stops it (SIGTERM) afterwards."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("KCFG_", "SDL_", "COMPANION_", "GPIOZERO_"))
    }
    kivy_home = tmp_path / "kivy-home"
    kivy_home.mkdir()
    env.update(
        DISPLAY=display,
        KIVY_HOME=str(kivy_home),
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        PYTHONOPTIMIZE="2",  # as scripts/start and the Pi's service run it
        COMPANION_UI_MAP=str(tmp_path / "ui.json"),
        COMPANION_SIM_LEDS=str(tmp_path / "strip.json"),
    )
    data = tmp_path / "data"
    log = (tmp_path / "app.log").open("wb")
    command = [str(COMPANION), "--config", str(config), "--data-dir", str(data)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
    running = App(
        process, display, tmp_path / "ui.json", tmp_path / "strip.json", data / "journal.sqlite3"
    )
    try:
        deadline = time.monotonic() + 20
        while not running.ui_map.exists():
            assert process.poll() is None, (tmp_path / "app.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "the app never drew its first screen"
            time.sleep(0.05)
        running.window = running.xdotool("search", "--sync", "--pid", str(process.pid))
        running.window = running.window.splitlines()[0]
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        log.close()
