"""Random-touch soak: the real app, thousands of taps, drags and multi-finger batches.

    .venv/bin/python bench/bench_touch_soak.py [--touches 5000] [--seed 1] [--idle 3]

A visitor poking at a shop kiosk, sped up. The real app (``companion app``'s
:func:`kiosk.app.run_app`, offscreen SDL2 unless ``DISPLAY`` is set, the docked
on-screen keyboard as on the Pi) runs locked in shop mode with the demo after
``--idle`` seconds; ``bench/touch_soak_child.py`` queues random input every frame (see
there: taps, a third where the keyboard appears, drags, 2-5 fingers in one frame, pauses
that let the demo start).

Like the service manager, this restarts the app whenever it ends before the touches are
done, and counts those ends: **exits** is the figure (0 expected). It also prints what
the app's exception guard recovered from (kiosk/guard.py: logged, Home, no exit), the
screens the touches reached, and the time taken. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from kiosk_child import ChildFailed, child_environment, run_child, write_config  # noqa: E402

CHILD = ROOT / "bench" / "touch_soak_child.py"
MAX_EXITS = 10  # then the soak stops and reports them


def run_once(
    tmp: Path, config: Path, touches: int, seed: int, timeout: float
) -> tuple[dict[str, Any] | None, int, str]:
    """One app run: (its figures, or None when it ended early; touches done; why)."""
    progress = tmp / f"progress-{seed}"
    progress.write_text("0", encoding="utf-8")
    argv = [str(CHILD), str(config), str(touches), str(seed), str(progress)]
    try:
        figures = run_child(argv, child_environment(tmp / "kivy"), timeout=timeout)
    except ChildFailed as failed:
        return None, int(progress.read_text(encoding="utf-8") or "0"), str(failed)
    except subprocess.TimeoutExpired:
        return None, int(progress.read_text(encoding="utf-8") or "0"), f"no end in {timeout:g} s"
    return figures, int(figures["touches"]), ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--touches", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--idle", type=float, default=3.0, help="[kiosk] idle_timeout_s")
    parser.add_argument("--timeout", type=float, default=1800.0, help="per app run, seconds")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="touch-soak-") as name:
        tmp = Path(name)
        data_dir = tmp / "data"
        config = write_config(
            tmp / "companion.toml",
            data_dir,
            f'[kiosk]\nlocked = true\nidle_timeout_s = {args.idle}\non_boot = "demo"\n',
        )
        exits: list[str] = []
        done = 0
        runs = 0
        totals: dict[str, int] = {}
        screens: dict[str, int] = {}
        started = time.monotonic()
        seed = args.seed
        while done < args.touches:
            runs += 1
            figures, reached, why = run_once(tmp, config, args.touches - done, seed, args.timeout)
            done += reached
            if figures is None:  # the app ended before its touches: an exit
                exits.append(f"run {runs}: after {reached} touches: {why}")
                seed += 1  # the same touches again would end it the same way
                if len(exits) >= MAX_EXITS:
                    break
                continue
            for key, value in figures.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    totals[key] = totals.get(key, 0) + value
            for screen, frames in dict(figures.get("screens", {})).items():
                screens[screen] = screens.get(screen, 0) + int(frames)
        seconds = time.monotonic() - started

    print(f"Random-touch soak: seed {args.seed}, [kiosk] locked, demo after {args.idle:g} s idle")
    print(f"  touches            {done}")
    print(f"    taps             {totals.get('taps', 0)}")
    print(f"    drags            {totals.get('drags', 0)}")
    print(
        f"    batches          {totals.get('batches', 0)} "
        f"(2-5 fingers in one frame; {totals.get('batch_touches', 0)} touches)"
    )
    print(f"  pauses (demo)      {totals.get('pauses', 0)}")
    print(f"  frames             {totals.get('frames', 0)}")
    print(f"  fresh keyboards    {totals.get('fresh_keyboards', 0)}  (each as after a restart)")
    print(f"  app runs           {runs}")
    print(f"  exits              {len(exits)}  (the app ending before its touches were done)")
    print(f"  guard recoveries   {totals.get('recovered_exceptions', 0)}  (logged, went Home)")
    shown = ", ".join(f"{k} {v}" for k, v in sorted(screens.items(), key=lambda i: -i[1]))
    print(f"  frames per screen  {shown}")
    print(f"  wall time          {seconds:.0f} s")
    for exit_text in exits:
        print("\n" + exit_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
