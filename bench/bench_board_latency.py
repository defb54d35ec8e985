"""Sensing-board latency: last sensor change -> move played -> LED frame.

The whole chain with the real parts: the simulated sensing board on a pty, the real
reader (``SerialDiceTray``: pyserial, codec, ``OccupancyTracker``), a queue drained by
this script's main loop as the kiosk's hub does, the :class:`SensingDriver` asking the
referee (Kolossus, round 1: a Colossus with 12 MP to move), the session's submit with
its journal commit, the play presenter's highlights, the render on the Kolossus layout
and a simulated strip's ``show``. Each move is a lift (sent beforehand) and a place
whose frame is written in two parts; the clock starts just before its last byte.

The driver's 300 ms stable-position wait is a chosen pause (a slide is not a move), not
work: the bench runs the driver with ``settle_s = 0`` and reports what comes after the
wait. In the kiosk the verdict runs on Kivy's clock when the wait ends (up to one frame
later). After each move the session undoes it and the board is put back, unmeasured.

Prints median, p99 and max per stage over ``--moves`` moves (default 300), for an
in-memory and an on-disk journal (SQLite, ``synchronous=FULL``). Target, the dice
path's: p99 < 10 ms to the LED frame.

    .venv/bin/python bench/bench_board_latency.py [--moves 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_dice_latency import TimedStrip, summarise  # the dice path's, for the same figures

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the position the tests check too

from companion.games.kolossus.model import Move  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.session import Session  # noqa: E402
from firmware_bridge.board.messages import BOARD_READER, BoardOccupancy  # noqa: E402
from firmware_bridge.config import LedsConfig  # noqa: E402
from firmware_bridge.dice.messages import DiceMessage, TrayState, TrayStatus  # noqa: E402
from firmware_bridge.dice.serial_tray import SerialDiceSettings, SerialDiceTray  # noqa: E402
from firmware_bridge.dice.sim_board import SimSensingBoard  # noqa: E402
from firmware_bridge.frames import OccupancyChange, encode_frame  # noqa: E402
from firmware_bridge.layout import kolossus_layout  # noqa: E402
from firmware_bridge.leds.factory import power_budget_of  # noqa: E402
from firmware_bridge.leds.render import render  # noqa: E402
from kiosk.presenters.play import PlayPresenter  # noqa: E402
from kiosk.presenters.sensing import Agree, SensingDriver, miniatures  # noqa: E402
from tests.helpers.kolossus_positions import round_one_script  # noqa: E402

WAIT_S = 5.0
ORIGIN = "1,0"


class BoardToLeds:
    """Simulated board on a pty -> reader thread -> queue -> main loop -> LEDs."""

    def __init__(self, folder: Path, journal: Journal) -> None:
        session = Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=1, journal=journal)
        for action in round_one_script():
            session.submit(action)
        self.play = PlayPresenter(session)
        path = folder / "sensing-board"
        self.board = SimSensingBoard(
            str(path), occupied=miniatures(self.play.rules.board(self.play.state))
        )
        self.queue: queue.Queue[tuple[float, DiceMessage]] = queue.Queue()
        settings = SerialDiceSettings(port=str(path), usb_vid=0, usb_pid=0)
        self.reader = SerialDiceTray(settings, name=BOARD_READER)
        leds = LedsConfig()
        self.layout = kolossus_layout(led_count=leds.count)
        self.brightness = leds.brightness
        self.power = power_budget_of(leds)
        self.strip = TimedStrip(self.layout.led_count)
        self.played_at: float | None = None
        self.seq = 0
        self._state = self.play.state
        # As the kiosk's change pipeline: the LEDs hear a change before the sensing
        # board's driver, which follows the game once it is on screen.
        self.play.subscribe(self._light)
        self.driver = SensingDriver(self.play, clock=time.perf_counter, settle_s=0.0)

    def _light(self) -> None:
        """As the kiosk does: the LEDs first after every change."""
        if self.play.state is not self._state:
            self._state = self.play.state
            self.played_at = time.perf_counter()
        frame = render(
            self.play.highlights(),
            self.layout,
            self.play.board_input.palette,
            self.brightness,
            self.power,
        )
        self.strip.show(frame)

    def start(self) -> None:
        self.strip.begin()
        self.board.start()
        connected = threading.Event()

        def post(message: DiceMessage) -> None:
            self.queue.put((time.perf_counter(), message))
            if isinstance(message, TrayStatus) and message.state is TrayState.CONNECTED:
                connected.set()

        self.reader.start(post)
        if not connected.wait(WAIT_S):
            self.stop()
            raise RuntimeError("the reader did not connect to the simulated board")
        self.pump_until_seq(self.board.seq)

    def stop(self) -> None:
        self.reader.stop()
        self.board.stop()
        self.strip.close()

    def pump_until_seq(self, seq: int) -> float:
        """Drain the queue into the driver until the board's change ``seq`` is in;
        returns when that snapshot was posted."""
        deadline = time.monotonic() + WAIT_S
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"change {seq} never arrived")
            try:
                posted, message = self.queue.get(timeout=remaining)
            except queue.Empty:
                continue
            if isinstance(message, BoardOccupancy):
                self.driver.sensed(message.occupied)
                self.driver.tick()
                if message.seq >= seq and message.occupied is not None:
                    return posted

    def targets(self) -> list[str]:
        rules, state = self.play.rules, self.play.state
        return sorted(
            move.to
            for move in rules.legal_actions_at(state, origin=ORIGIN)
            if isinstance(move, Move) and move.to != ORIGIN and move.to not in self.board.occupied
        )


def measure(moves: int, *, on_disk: bool, pause_s: float = 0.002) -> dict[str, list[float]]:
    stages: dict[str, list[float]] = {"posted": [], "played": [], "leds": []}
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        journal = Journal(where / "games.db" if on_disk else ":memory:")
        chain = BoardToLeds(where, journal)
        chain.start()
        try:
            targets = chain.targets()
            for index in range(moves):
                target = targets[index % len(targets)]
                chain.board.lift(ORIGIN)
                chain.pump_until_seq(chain.board.seq)
                chain.board.lose_changes = 1  # its frame is written below, in two parts
                chain.board.place(target)
                cell = chain.board.index(target)
                frame = encode_frame(OccupancyChange(chain.board.seq, cell, True))
                chain.board.send_raw(frame[:-1])
                time.sleep(pause_s)
                chain.played_at = None
                shown = len(chain.strip.handed_at)
                started = time.perf_counter()
                chain.board.send_raw(frame[-1:])
                posted = chain.pump_until_seq(chain.board.seq)
                if chain.played_at is None or len(chain.strip.handed_at) == shown:
                    raise RuntimeError(f"move {index} to {target} was not played")
                stages["posted"].append(posted - started)
                stages["played"].append(chain.played_at - started)
                stages["leds"].append(chain.strip.handed_at[shown] - started)
                chain.play.undo()
                chain.board.set_occupied(miniatures(chain.play.rules.board(chain.play.state)))
                chain.pump_until_seq(chain.board.seq)
                if not isinstance(chain.driver.verdict, Agree):
                    raise RuntimeError(f"the board was not put back after move {index}")
        finally:
            chain.stop()
            journal.close()
    return stages


STAGES = {
    "posted": "pty+codec+tracker -> BoardOccupancy posted",
    "played": "-> driver explains it, session (journal commit) plays the move",
    "leds": "-> highlights rendered, LED frame shown",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results: dict[str, dict[str, dict[str, float]]] = {}
    for journal in ("memory", "disk"):
        stages = measure(args.moves, on_disk=journal == "disk")
        results[journal] = {key: summarise(values) for key, values in stages.items()}
    if args.json:
        print(json.dumps(results))
        return
    for journal, stages_of in results.items():
        print(f"{journal} journal, last sensor change (last byte into the pty) ...")
        for key, figures in stages_of.items():
            print(
                f"  {STAGES[key]}, {figures['rolls']:.0f} moves: median"
                f" {figures['median_ms']:.3f} ms, p99 {figures['p99_ms']:.3f} ms,"
                f" max {figures['max_ms']:.3f} ms"
            )
    print("target: p99 < 10 ms to the LED frame (the dice path's), after the 300 ms wait")


if __name__ == "__main__":
    main()
