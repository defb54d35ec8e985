"""LED animation cost: render time per frame and CPU share of the animator at 42 fps.

Run:  .venv/bin/python bench/bench_leds.py [--seconds 5] [--png docs/images/led-sim-kolossus.png]

Target: the animator for a 121-LED Kolossus board uses < 5 % of one core. The figures are
printed, never asserted (the machine may be shared). With --png it also writes the
example picture of the simulated board used in the docs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from companion.highlights import Highlight, Role
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.animation import Animator
from firmware_bridge.leds.render import PowerBudget, render
from firmware_bridge.leds.sim import SimStrip


def busy_scene() -> list[Highlight]:
    """A heavy but realistic moment: a quake row sweeping, pieces pulsing, a capture flashing."""
    scene = [Highlight(cell=f"{r},4", role=Role.QUAKE_REGION) for r in range(11)]
    scene += [Highlight(cell=f"{r},{c}", role=Role.SELECTABLE) for r, c in [(0, 0), (0, 1), (1, 0)]]
    scene += [Highlight(cell=f"{r},{c}", role=Role.REACHABLE) for r in (6, 7) for c in range(6, 11)]
    scene += [
        Highlight(cell="5,5", role=Role.CITADEL),
        Highlight(cell="3,3", role=Role.CAPTURABLE),
        Highlight(cell="0,4", role=Role.FALLS_OFF),
    ]
    scene += [Highlight(cell=f"9,{c}", role=Role.BANNER, player=c % 4) for c in range(3)]
    return scene


def write_example_png(path: Path) -> Path:
    layout = kolossus_layout()
    strip = SimStrip(layout.led_count)
    strip.begin()
    strip.show(render(busy_scene(), layout, brightness=0.8, power_budget=PowerBudget(), t=0.15))
    return strip.to_png(path, layout, cell_px=40, labels=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--fps", type=float, default=42.0)
    parser.add_argument("--png", type=Path, default=None, help="also write the example picture")
    args = parser.parse_args()

    layout = kolossus_layout()
    scene = busy_scene()
    power = PowerBudget()

    samples = []
    for frame_number in range(500):
        start = time.perf_counter()
        render(scene, layout, brightness=0.8, power_budget=power, t=frame_number / 42)
        samples.append(time.perf_counter() - start)
    print(f"render, 121 LEDs, {len(scene)} highlights:")
    print(
        f"  median {statistics.median(samples) * 1e3:.3f} ms, "
        f"p99 {sorted(samples)[int(len(samples) * 0.99)] * 1e3:.3f} ms per frame"
    )

    strip = SimStrip(layout.led_count, history=8)
    animator = Animator(strip, layout, brightness=0.8, power_budget=power, fps=args.fps)
    animator.show(scene)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    animator.start()
    time.sleep(args.seconds)
    animator.stop()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    strip.close()
    print(f"animator at {args.fps:g} fps for {wall:.1f} s:")
    ticks, shipped = animator.ticks / wall, animator.frames_shipped / wall
    print(f"  {ticks:.1f} ticks/s, {shipped:.1f} frames/s shipped")
    print(f"  CPU {cpu / wall:.1%} of one core (target < 5 %)")

    if args.png is not None:
        print(f"example picture: {write_example_png(args.png)}")


if __name__ == "__main__":
    main()
