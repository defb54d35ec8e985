"""Dice latency: last byte of a roll frame written into a pty -> message posted -> LED frame.

Two measurements, both with the real reader (``SerialDiceTray``: pyserial, codec,
de-duplication, ack) against the simulated tray over a pty pair. Each roll frame is
written in two parts: everything but the last byte, a short pause so the reader has
consumed it, then the last byte; the clock starts just before that final write.

1. **pty → message**: until the reader posts the ``DieResult``.
2. **pty → LED frame**, through the real session (:class:`DiceToLeds`): the reader
   posts to a ``queue.Queue``; this script's main loop drains it into a
   ``DiceCollector``, submits the finished ``Roll`` to a ``companion.session.Session``
   (Kolossus, whose Invasion waits for a d4 Great Quake roll), asks the rules for the
   new state's highlights, renders them on the Kolossus layout and hands the frame to
   a ``SimStrip``; the clock stops when ``show`` is called. After each roll the
   session undoes it, so the same request is pending again. Once with an in-memory
   journal, once with an on-disk journal (SQLite, ``synchronous=FULL``) in a temp dir.

Prints median, p99 and max over ``--rolls`` rolls (default 1,000). Target: p99 < 10 ms.
The main loop here blocks on the queue, as the kiosk's clock trigger is woken by each
post; Kivy runs the trigger on its next frame, which adds up to one frame on top.

    .venv/bin/python bench/bench_dice_latency.py [--rolls 1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.dice import DiceRequest, Roll
from companion.errors import RefereeError
from companion.games import get_rules
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.config import LedsConfig
from firmware_bridge.dice.collector import DiceCollector
from firmware_bridge.dice.messages import DiceMessage, DieResult, TrayState, TrayStatus
from firmware_bridge.dice.serial_tray import SerialDiceSettings, SerialDiceTray
from firmware_bridge.dice.sim_tray import SimDiceTray
from firmware_bridge.frames import DieSpec, RollResult, encode_frame
from firmware_bridge.layout import LedLayout, kolossus_layout
from firmware_bridge.leds.factory import power_budget_of
from firmware_bridge.leds.palette import Palette, palette_for_board
from firmware_bridge.leds.render import PowerBudget, render
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.leds.strip import Frame

WAIT_S = 5.0
#: Games tried in order for a session with a pending dice request.
GAMES = ("kolossus", "beast_master")
PLAYERS = ("Ann", "Ben")
SEED = 7
MAX_SETUP_STEPS = 200


def measure_dice_latency(rolls: int, *, pause_s: float = 0.002) -> list[float]:
    """Seconds from the last byte written to the ``DieResult`` posted, one per roll."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dice-tray"
        sim = SimDiceTray(str(path), device_id="bench-tray")
        posted_at: dict[int, float] = {}
        arrived = threading.Event()
        connected = threading.Event()

        def post(message: DiceMessage) -> None:
            if isinstance(message, DieResult):
                posted_at[message.seq] = time.perf_counter()
                arrived.set()
            elif isinstance(message, TrayStatus) and message.state is TrayState.CONNECTED:
                connected.set()

        settings = SerialDiceSettings(port=str(path), usb_vid=0xFFFF, usb_pid=0xFFFF)
        reader = SerialDiceTray(settings, name="bench")
        sim.start()
        reader.start(post)
        latencies: list[float] = []
        try:
            if not connected.wait(WAIT_S):
                raise RuntimeError("the reader did not connect to the simulated tray")
            for index in range(rolls):
                seq = 1_000_000 + index
                frame = encode_frame(RollResult(1 + index % 3, 1 + index % 4, seq))
                arrived.clear()
                sim.send_raw(frame[:-1])
                time.sleep(pause_s)
                started = time.perf_counter()
                sim.send_raw(frame[-1:])
                if not arrived.wait(WAIT_S):
                    raise RuntimeError(f"roll {index} was never posted")
                latencies.append(posted_at[seq] - started)
        finally:
            reader.stop()
            sim.stop()
        return latencies


# --- through the session to the LEDs ---------------------------------------------------


def pending_dice_session(journal: Journal | None, games: tuple[str, ...] = GAMES) -> Session:
    """A new game played (first legal action each time) until it waits for dice.

    Kolossus waits for the Great Quake d4 right after the Invasion's "ready".
    """
    for game in games:
        try:
            rules = get_rules(game)
        except (ImportError, AttributeError, RefereeError):  # not (yet) available: next one
            continue
        session = Session.new(
            rules, PLAYERS[: max(rules.min_players, 2)], seed=SEED, journal=journal
        )
        for _ in range(MAX_SETUP_STEPS):
            if rules.dice_request(session.state) is not None:
                return session
            action = next(iter(rules.legal_actions(session.state)), None)
            if action is None:
                break
            session.submit(action)
    raise RuntimeError(f"none of {', '.join(games)} reached a pending dice request")


class TimedStrip(SimStrip):
    """A simulated strip that notes when each frame is handed to it."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.handed_at: list[float] = []

    def show(self, frame: Frame) -> None:
        self.handed_at.append(time.perf_counter())
        super().show(frame)


class DiceToLeds:
    """The whole chain: simulated tray on a pty → reader thread → queue → main loop.

    The main loop (:meth:`pump_until_shown`, on the caller's thread) feeds each
    ``DieResult`` to a ``DiceCollector`` expecting the session's pending request,
    submits the finished ``Roll``, renders the new state's highlights on the Kolossus
    layout and shows the frame on a :class:`TimedStrip`.
    """

    def __init__(
        self,
        folder: Path,
        journal: Journal | None,
        *,
        device_id: str = "bench-tray",
        settings: dict[str, Any] | None = None,
    ) -> None:
        self.session = pending_dice_session(journal)
        self.rules = self.session.rules
        request = self.rules.dice_request(self.session.state)
        if request is None:
            raise RuntimeError("the session is not waiting for dice")
        self.request: DiceRequest = request
        path = folder / "dice-tray"
        # die 1 is the kind the game waits for (a d4 for the Great Quake)
        self.sim = SimDiceTray(
            str(path), device_id=device_id, dice=(DieSpec(1, self.request.sides),)
        )
        self.queue: queue.Queue[DiceMessage] = queue.Queue()
        reader_settings = SerialDiceSettings(
            port=str(path), usb_vid=0xFFFF, usb_pid=0xFFFF, **(settings or {})
        )
        self.reader = SerialDiceTray(reader_settings, name="bench")
        self.collector = DiceCollector()
        leds = LedsConfig()
        self.layout: LedLayout = kolossus_layout(led_count=leds.count)
        self.palette: Palette = palette_for_board(self.rules.board_kind)
        self.brightness = leds.brightness
        self.power: PowerBudget = power_budget_of(leds)
        self.strip = TimedStrip(self.layout.led_count)
        self.results: list[DieResult] = []
        self.submitted: list[Roll] = []
        self.notes: list[str] = []

    def start(self) -> None:
        self.strip.begin()
        self.sim.start()
        connected = threading.Event()

        def post(message: DiceMessage) -> None:
            self.queue.put(message)
            if isinstance(message, TrayStatus) and message.state is TrayState.CONNECTED:
                connected.set()

        self.reader.start(post)
        if not connected.wait(WAIT_S):
            self.stop()
            raise RuntimeError("the reader did not connect to the simulated tray")

    def stop(self) -> None:
        self.reader.stop()
        self.sim.stop()
        self.strip.close()

    def frame_for_state(self) -> Frame:
        """What the LEDs show for the session's current state."""
        highlights = self.rules.highlights(self.session.state)
        return render(highlights, self.layout, self.palette, self.brightness, self.power)

    def handle(self, message: DiceMessage) -> bool:
        """One message on the main loop; True when it finished a roll and lit the LEDs."""
        if not isinstance(message, DieResult):
            return False
        self.results.append(message)
        self.collector.expect(self.rules.dice_request(self.session.state))
        step = self.collector.add(message)
        if step.note:
            self.notes.append(step.note)
        if step.roll is None:
            return False
        self.session.submit(step.roll)
        self.submitted.append(step.roll)
        self.strip.show(self.frame_for_state())
        return True

    def pump_until_shown(self, timeout: float = WAIT_S) -> float:
        """Drain the queue until a roll lit the LEDs; returns when the frame was handed over."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no roll reached the LEDs")
            try:
                message = self.queue.get(timeout=remaining)
            except queue.Empty:
                continue
            if self.handle(message):
                return self.strip.handed_at[-1]

    def pump_idle(self, seconds: float) -> int:
        """Handle whatever arrives for ``seconds``; returns how many rolls it finished."""
        finished = 0
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                finished += self.handle(self.queue.get(timeout=remaining))
            except queue.Empty:
                break
        return finished

    def undo(self) -> None:
        """Take the roll back so the same request is pending again."""
        self.session.undo()
        self.collector.clear()


@contextmanager
def running_chain(*, on_disk: bool, **kwargs: Any) -> Iterator[DiceToLeds]:
    """A started :class:`DiceToLeds` in a temp dir, its journal in memory or in that dir."""
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        journal = Journal(where / "games.db" if on_disk else ":memory:")
        chain = DiceToLeds(where, journal, **kwargs)
        chain.start()
        try:
            yield chain
        finally:
            chain.stop()
            journal.close()


def measure_dice_to_leds(rolls: int, *, on_disk: bool, pause_s: float = 0.002) -> list[float]:
    """Seconds from the last byte of a roll's last frame to ``show``, one per roll."""
    latencies: list[float] = []
    seq = 1_000_000
    with running_chain(on_disk=on_disk) as chain:
        request = chain.request
        for index in range(rolls):
            frames = []
            for die in range(request.count):  # all but the last die land beforehand
                seq += 1
                face = 1 + (index + die) % request.sides
                frames.append(encode_frame(RollResult(1, face, seq)))
            chain.sim.send_raw(b"".join(frames)[:-1])
            time.sleep(pause_s)
            started = time.perf_counter()
            chain.sim.send_raw(frames[-1][-1:])
            latencies.append(chain.pump_until_shown() - started)
            chain.undo()
    return latencies


def summarise(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "rolls": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p99_ms": p99 * 1000,
        "max_ms": ordered[-1] * 1000,
    }


MEASUREMENTS: dict[str, tuple[str, Callable[[int], list[float]]]] = {
    "pty_to_message": ("pty+codec+reader -> DieResult posted", measure_dice_latency),
    "pty_to_leds_memory_journal": (
        "pty -> session (in-memory journal) -> LED frame shown",
        lambda rolls: measure_dice_to_leds(rolls, on_disk=False),
    ),
    "pty_to_leds_disk_journal": (
        "pty -> session (on-disk journal) -> LED frame shown",
        lambda rolls: measure_dice_to_leds(rolls, on_disk=True),
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rolls", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results = {key: summarise(measure(args.rolls)) for key, (_, measure) in MEASUREMENTS.items()}
    if args.json:
        print(json.dumps(results))
        return
    for key, figures in results.items():
        print(
            f"{MEASUREMENTS[key][0]}, {figures['rolls']:.0f} rolls: "
            f"median {figures['median_ms']:.3f} ms, p99 {figures['p99_ms']:.3f} ms, "
            f"max {figures['max_ms']:.3f} ms (target p99 < 10 ms)"
        )


if __name__ == "__main__":
    main()
