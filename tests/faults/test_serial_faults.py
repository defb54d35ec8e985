"""The dice line under abuse: noise on the wire and a cable pulled again and again.

The real reader (:class:`SerialDiceTray`, pyserial) talks to the simulated tray over a
real pty pair. Noise: random bytes between the tray's frames. Unplugs: the pty closed
mid-stream and a new one put at the same path, with rolls made while connected and
while unplugged. Every roll must be posted exactly once, in the tray's order; nothing
that was not rolled may be posted; the reader must still be alive at the end.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware_bridge.dice.messages import DiceMessage, TrayState
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.dice.sim_tray import SimDiceTray
from firmware_bridge.frames import RollResult
from tests.faults.scale import report, scaled
from tests.helpers.dice_serial import (
    Seen,
    drain_until,
    fast_settings,
    has_state,
    n_results,
    results,
)

CHUNK = 4096


@contextmanager
def tray_and_reader(
    tmp_path: Path, device_id: str, seed: int
) -> Iterator[tuple[SimDiceTray, SerialDiceTray, queue.Queue[DiceMessage]]]:
    """The simulated tray on a pty at a stable path, and the real reader on it."""
    tray_path = tmp_path / "dice-tray"
    sim = SimDiceTray(str(tray_path), device_id=device_id, seed=seed, boot_id=seed)
    inbox: queue.Queue[DiceMessage] = queue.Queue()
    sim.start()
    reader = SerialDiceTray(fast_settings(tray_path))
    reader.start(inbox.put)
    try:
        yield sim, reader, inbox
    finally:
        reader.stop()
        sim.stop()


def test_noise_between_frames_posts_every_roll_once_and_nothing_else(tmp_path: Path) -> None:
    total = scaled(100_000, 10_000_000)
    rnd = random.Random(11)
    seen: Seen = []
    rolled: list[RollResult] = []
    with tray_and_reader(tmp_path, "noisy", 0xBEEF) as (sim, reader, inbox):
        assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
        sent = 0
        while sent < total:
            noise = rnd.randbytes(min(CHUNK, total - sent))
            sim.send_raw(noise)
            sent += len(noise)
            if rnd.random() < 0.3:
                sim.send_raw(b"\x00")  # end whatever the noise started: the next frame is whole
                rolled.append(sim.roll(rnd.randint(1, 3)))
            drain_until(inbox, lambda _: False, seen, timeout=0)
        sim.send_raw(b"\x00")
        rolled.append(sim.roll(1))
        assert drain_until(inbox, n_results(len(rolled)), seen, timeout=30)
        assert sim.wait_until("all_acked", 10)
        drain_until(inbox, lambda _: False, seen, timeout=0.2)
        posted = [(r.die_id, r.face, r.seq) for r in results(seen) if r.device == "noisy"]
        expected = [(r.die_id, r.face, r.seq) for r in rolled]
        false_rolls = len([p for p in posted if p not in expected])
        assert false_rolls == 0, "a roll nobody made was posted"
        assert posted == expected, "a roll was lost, doubled or posted out of order"
        assert reader.state is TrayState.CONNECTED
    report(
        "serial_noise",
        noise_bytes=sent,
        rolls=len(rolled),
        false_rolls=false_rolls,
        lost=0,
        bad_frames=reader.stats.bad_crc + reader.stats.bad_cobs + reader.stats.bad_payload,
    )


def test_unplug_cycles_lose_and_double_nothing(tmp_path: Path) -> None:
    cycles = scaled(10, 100)
    rnd = random.Random(5)
    seen: Seen = []
    rolled: list[RollResult] = []
    with tray_and_reader(tmp_path, "unplugged", 0xCAFE) as (sim, reader, inbox):
        for cycle in range(cycles):
            assert drain_until(inbox, has_state(TrayState.CONNECTED, cycle + 1), seen)
            rolled += [sim.roll(rnd.randint(1, 3)) for _ in range(rnd.randint(0, 3))]
            sim.unplug()  # sometimes mid-frame: rolls just sent may not have arrived
            rolled += [sim.roll(rnd.randint(1, 3)) for _ in range(rnd.randint(0, 2))]
            sim.replug()
        assert drain_until(inbox, n_results(len(rolled)), seen, timeout=30)
        assert sim.wait_until("all_acked", 10)
        drain_until(inbox, lambda _: False, seen, timeout=0.2)
        posted = [(r.die_id, r.face, r.seq) for r in results(seen)]
        assert posted == [(r.die_id, r.face, r.seq) for r in rolled]
        assert reader.state is TrayState.CONNECTED
    report("serial_unplug", cycles=cycles, rolls=len(rolled), lost=0, duplicated=0)
