"""Dice latency: last byte of a roll frame written into a pty -> DieResult posted.

Runs the real reader (``SerialDiceTray``: pyserial, codec, de-duplication, ack)
against the simulated tray over a pty pair. Each roll frame is written in two parts:
everything but the last byte, a short pause so the reader has consumed it, then the
last byte; the clock starts just before that final write. Prints median, p99 and max
over ``--rolls`` rolls (default 1,000).

The lead extends this through the session and the LED frame; the measuring part is
``measure_dice_latency`` so it can be reused.

    .venv/bin/python bench/bench_dice_latency.py [--rolls 1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path

from firmware_bridge.dice.frames import RollResult, encode_frame
from firmware_bridge.dice.messages import DiceMessage, DieResult, TrayState, TrayStatus
from firmware_bridge.dice.serial_tray import SerialDiceSettings, SerialDiceTray
from firmware_bridge.dice.sim_tray import SimDiceTray

WAIT_S = 5.0


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


def summarise(latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "rolls": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p99_ms": p99 * 1000,
        "max_ms": ordered[-1] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rolls", type=int, default=1000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    figures = summarise(measure_dice_latency(args.rolls))
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"dice pty+codec+reader latency over {figures['rolls']} rolls: "
            f"median {figures['median_ms']:.3f} ms, p99 {figures['p99_ms']:.3f} ms, "
            f"max {figures['max_ms']:.3f} ms"
        )


if __name__ == "__main__":
    main()
