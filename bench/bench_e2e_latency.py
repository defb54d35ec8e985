"""End to end through the real app: a board's or a dice tray's last byte on a pty ->
the journal and the LED frame, at the app's own pace.

The real ``companion`` command runs on a private Xvfb display with ``[board] source =
"serial"`` and ``[dice] source = "serial"`` pointed at ptys whose device ends this
script owns as the Picos' firmware would: :class:`SimSensingBoard` and
:class:`SimDiceTray` answer the handshake, the pings and the bitmap requests, and each
measured frame (OCCUPANCY_CHANGE, ROLL_RESULT; docs/dice-protocol.md) is written byte
for byte, all but its last byte first; the clock (``time.monotonic``, one clock for
every process of the machine) starts just before that last byte. The app resumes a
Kolossus game prepared in its journal (round 1, the Colossus on 1,0 with 12 MP).

* **board**: the Colossus is lifted, the loop is left ``--idle`` seconds (its idle
  pace), then put down on a free square it may reach; the app waits for the 300 ms
  stable board, explains and plays the move. Measured: the journal's new entry (read
  from the SQLite file) and the first LED frame made from the highlights the app
  handed over after the move (the simulated strip's ``COMPANION_SIM_LEDS`` record:
  when each frame was shipped, from which highlights). The app's own work is what
  comes after the settle wait (``[board] settle_s``).
* **dice**: a Great Quake's d4 awaited (the Invasion), the loop left ``--idle``
  seconds, one result; measured to the journal and to the first LED frame made from
  the highlights handed over after it.

After each sample the bench taps Undo (``xdotool`` at the place the app's
``COMPANION_UI_MAP`` reports) and, for the board, puts the piece back. Prints median,
p99 and max; ``--json`` prints one object.

    .venv/bin/python bench/bench_e2e_latency.py [--moves 100] [--rolls 100] [--idle 3.5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench_board_latency import ORIGIN
from bench_dice_latency import summarise

from companion.games.kolossus.model import Move
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.dice.sim_board import SimSensingBoard
from firmware_bridge.dice.sim_tray import SimDiceTray
from firmware_bridge.frames import DieSpec, OccupancyChange, RollResult, encode_frame
from kiosk.presenters.sensing import miniatures
from tests.helpers.kolossus_positions import round_one_script  # on sys.path: bench_board_latency

ROOT = Path(__file__).resolve().parents[1]
COMPANION = Path(sys.executable).parent / "companion"
SETTLE_S = 0.3
WAIT_S = 10.0
POLL_S = 0.0005


@contextmanager
def xvfb() -> Iterator[str]:
    """A private display whose number Xvfb picks itself (``-displayfd``)."""
    server_path = shutil.which("Xvfb")
    if server_path is None or shutil.which("xdotool") is None:
        raise SystemExit("needs Xvfb and xdotool (Debian: apt install xvfb xdotool)")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [server_path, "-displayfd", str(write_end), "-screen", "0", "800x480x24"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_end,),
    )
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        display = ":" + pipe.readline().strip()
    try:
        yield display
    finally:
        server.terminate()
        server.wait(10)


class RealApp:
    """The ``companion`` command on ``display``, its journal, its strip and its buttons."""

    def __init__(self, folder: Path, display: str, config: str) -> None:
        self.folder = folder
        self.display = display
        (folder / "companion.toml").write_text(config, encoding="utf-8")
        (folder / "kivy-home").mkdir()
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("KCFG_", "SDL_", "COMPANION_", "GPIOZERO_"))
        }
        env.update(
            DISPLAY=display,
            KIVY_HOME=str(folder / "kivy-home"),
            KIVY_NO_ARGS="1",
            KIVY_NO_CONSOLELOG="1",
            KIVY_NO_FILELOG="1",
            PYTHONOPTIMIZE="2",  # as scripts/start and the Pi's service run it
            COMPANION_UI_MAP=str(folder / "ui.json"),
            COMPANION_SIM_LEDS=str(folder / "strip.json"),
        )
        self.log = (folder / "app.log").open("wb")
        config_path, data = str(folder / "companion.toml"), str(folder / "data")
        self.process = subprocess.Popen(
            [str(COMPANION), "--config", config_path, "--data-dir", data],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=self.log,
        )
        self.db: sqlite3.Connection | None = None
        self.window = ""

    def wait(self, what: str, done: Callable[[], Any], timeout: float = WAIT_S) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the app exited: {(self.folder / 'app.log').read_text()}")
            found = done()
            if found:
                return found
            if time.monotonic() > deadline:
                ui = self.ui()
                texts = [b["text"][:24] for b in ui.get("buttons", [])]
                raise TimeoutError(f"waited for {what}: {ui.get('screen')} {texts}")
            time.sleep(0.01)

    def ui(self) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads((self.folder / "ui.json").read_text())
        except (OSError, ValueError):
            return {}
        return data

    def strip(self) -> dict[str, Any]:
        try:
            data: dict[str, Any] = json.loads((self.folder / "strip.json").read_text())
        except (OSError, ValueError):
            return {}
        return data

    def handed(self) -> int:
        """How many times the app has handed the LEDs new highlights (as shipped)."""
        data = self.wait("the strip's record", self.strip)
        return max(int(handed) for _, _, handed in data["shipped"].values())

    def frame_after(self, handed: int) -> float:
        """When the first frame made from highlights handed after ``handed`` was shipped."""

        def found() -> float | None:
            data = self.strip()
            shipped = sorted((int(seq), at, h) for seq, (at, _, h) in data["shipped"].items())
            return next((at for _, at, h in shipped if h > handed), None)

        at: float = self.wait("a new LED frame", found)
        return at

    def last_entry(self) -> int:
        if self.db is None:
            journal = self.folder / "data" / "journal.sqlite3"
            self.db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=5)
        row = self.db.execute("SELECT max(seq) FROM entries").fetchone()
        return int(row[0] or 0)

    def journaled_after(self, entry: int, since: float) -> float:
        """When the journal's entry after ``entry`` was first seen (polled from ``since``)."""
        while time.monotonic() < since:
            time.sleep(POLL_S)
        deadline = time.monotonic() + WAIT_S
        while self.last_entry() <= entry:
            if time.monotonic() > deadline:
                raise TimeoutError("no new journal entry")
            time.sleep(POLL_S)
        return time.monotonic()

    def click(self, text: str) -> None:
        button = self.wait(
            f"a button {text!r}",
            lambda: next(
                (
                    b
                    for b in self.ui().get("buttons", [])
                    if b["text"] == text and not b["disabled"]
                ),
                None,
            ),
        )
        if not self.window:
            found = self.xdotool("search", "--sync", "--pid", str(self.process.pid))
            self.window = found.splitlines()[0]
        self.xdotool("mousemove", "--window", self.window, str(button["x"]), str(button["y"]))
        time.sleep(0.03)
        self.xdotool("mousedown", "1")
        time.sleep(0.05)
        self.xdotool("mouseup", "1")

    def undo(self) -> None:
        """Tap Undo until the journal has the undo (a tap during a redraw may miss)."""
        entry = self.last_entry()
        for _ in range(5):
            time.sleep(0.2)
            self.click("Undo")
            try:
                self.wait("the undo", lambda: self.last_entry() > entry, 1.5)
                return
            except TimeoutError:
                continue
        raise TimeoutError("Undo was tapped five times in vain")

    def xdotool(self, *args: str) -> str:
        return subprocess.run(
            ["xdotool", *args],
            env={**os.environ, "DISPLAY": self.display},
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.strip()

    def stop(self) -> None:
        if self.db is not None:
            self.db.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def prepared_game(folder: Path, steps: list[Any]) -> Session:
    """The journal the app resumes: Kolossus after ``steps``."""
    (folder / "data").mkdir()
    journal = Journal(folder / "data" / "journal.sqlite3")
    session = Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=1, journal=journal)
    for step in steps:
        session.submit(step)
    journal.close()
    return session


def config_text(folder: Path) -> str:
    return f"""
[dice]
source = "serial"

[dice.serial]
port = "{folder / "dice-tray"}"
usb_vid = 0
usb_pid = 0
backoff_initial_s = 0.2

[board]
source = "serial"
settle_s = {SETTLE_S}

[board.serial]
port = "{folder / "sensing-board"}"
backoff_initial_s = 0.2

[buttons]
source = "none"

[leds]
driver = "sim"

[kiosk]
idle_timeout_s = 0
on_boot = "resume"
"""


def write_in_two(device: SimDiceTray, frame: bytes) -> float:
    """All of ``frame`` but its last byte, then the last byte; when that was written."""
    device.send_raw(frame[:-1])
    time.sleep(0.002)
    started = time.monotonic()
    device.send_raw(frame[-1:])
    return started


@contextmanager
def table(steps: list[Any]) -> Iterator[tuple[RealApp, Session, SimSensingBoard, SimDiceTray]]:
    """The app on its display, resuming Kolossus after ``steps``, with the board (laid out
    as the game) and the dice tray on their ptys, both connected."""
    with tempfile.TemporaryDirectory() as name, xvfb() as display:
        folder = Path(name)
        session = prepared_game(folder, steps)
        occupied = miniatures(session.rules.board(session.state))
        board = SimSensingBoard(str(folder / "sensing-board"), occupied=occupied)
        tray = SimDiceTray(str(folder / "dice-tray"), device_id="bench-tray", dice=(DieSpec(1, 4),))
        board.start()
        tray.start()
        app = RealApp(folder, display, config_text(folder))
        try:
            app.wait("the game on screen", lambda: app.ui().get("screen") == "play", 30)
            devices = ("Board on", "Dice on")
            app.wait("the devices", lambda: all(d in str(app.ui().get("devices")) for d in devices))
            yield app, session, board, tray
        finally:
            app.stop()
            board.stop()
            tray.stop()


def board_moves(moves: int, idle_s: float) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"journal": [], "leds": []}
    with table(round_one_script()) as (app, session, board, _):
        targets = sorted(
            move.to
            for move in session.rules.legal_actions_at(session.state, origin=ORIGIN)
            if isinstance(move, Move) and move.to != ORIGIN and move.to not in board.occupied
        )
        for index in range(moves):
            target = targets[index % len(targets)]
            board.lift(ORIGIN)
            time.sleep(idle_s)  # the piece in the hand lit; the loop slows down
            entry, handed = app.last_entry(), app.handed()
            board.lose_changes = 1  # its frame is written below, byte for byte
            board.place(target)
            frame = encode_frame(OccupancyChange(board.seq, board.index(target), True))
            started = write_in_two(board, frame)
            journaled = app.journaled_after(entry, started + SETTLE_S - 0.02)
            shown = app.frame_after(handed)
            found["journal"].append(journaled - started - SETTLE_S)
            found["leds"].append(shown - started - SETTLE_S)
            app.undo()
            board.lift(target)
            board.place(ORIGIN)
            time.sleep(SETTLE_S + 0.2)
        assert app.db is not None
        moved = app.db.execute(
            "SELECT count(*) FROM entries WHERE kind = 'act' AND payload LIKE '%\"move\"%'"
        ).fetchone()[0]
        if moved < moves:
            raise RuntimeError(f"only {moved} of {moves} moves were journaled")
    return found


def dice_rolls(rolls: int, idle_s: float) -> dict[str, list[float]]:
    found: dict[str, list[float]] = {"journal": [], "leds": []}
    with table(round_one_script()[:5]) as (app, _, _, tray):  # a Great Quake's d4 awaited
        for index in range(rolls):
            time.sleep(idle_s)  # the loop at its idle pace
            entry, handed = app.last_entry(), app.handed()
            frame = encode_frame(RollResult(1, 1 + index % 4, index + 1))
            started = write_in_two(tray, frame)
            journaled = app.journaled_after(entry, started)
            shown = app.frame_after(handed)
            found["journal"].append(journaled - started)
            found["leds"].append(shown - started)
            app.undo()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--rolls", type=int, default=100)
    parser.add_argument("--idle", type=float, default=3.5, help="seconds before each sample")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results: dict[str, dict[str, dict[str, float]]] = {}
    if args.moves:
        moves = board_moves(args.moves, args.idle)
        results["board"] = {key: summarise(values) for key, values in moves.items()}
    if args.rolls:
        rolls = dice_rolls(args.rolls, args.idle)
        results["dice"] = {key: summarise(values) for key, values in rolls.items()}
    if args.json:
        print(json.dumps(results))
        return
    what = {
        "board": "board: last byte of the place -> (after the settle wait)",
        "dice": "dice: last byte of the roll ->",
    }
    for device, stages in results.items():
        for stage, figures in stages.items():
            print(
                f"{what[device]} {stage}, {figures['rolls']:.0f} samples: median"
                f" {figures['median_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms,"
                f" max {figures['max_ms']:.1f} ms"
            )


if __name__ == "__main__":
    main()
