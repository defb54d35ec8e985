"""Kiosk figures: launch to first frame, idle CPU with a game on screen, memory, and
touch-to-highlight latency. Prints figures; asserts nothing (targets in the docs).

    .venv/bin/python bench/bench_kiosk.py [--idle-seconds 30] [--touches 20]

Runs the real ``CompanionApp`` in a child process (offscreen SDL2 unless ``DISPLAY`` is
set), so the numbers include Kivy's start-up and main loop. Targets on this machine:
first frame < 1.5 s, idle CPU < 3 % of one core, resident memory < 200 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import os, sys, time, json, resource
T0 = time.perf_counter()
from pathlib import Path
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kiosk.app import CompanionApp
from companion.bot import RandomBot
from companion.highlights import Role

data_dir, idle_seconds, touches = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
out = {}

def rss_mb(field="VmRSS"):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")

def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

class BenchApp(CompanionApp):
    def on_start(self):
        Window.bind(on_flip=self.first_flip)

    def first_flip(self, *_):
        Window.unbind(on_flip=self.first_flip)
        out["first_frame_s"] = time.perf_counter() - T0
        out["rss_first_frame_mb"] = rss_mb()
        Clock.schedule_once(self.start_game, 0)

    def start_game(self, _dt):
        kiosk = self.kiosk
        kiosk.open_setup("kolossus")
        kiosk.start_game()
        play = kiosk.play
        bot = RandomBot(8)
        while play.state.phase != "move" or play.fix_step is not None:
            while play.fix_step is not None:
                play.next_fix_step()
            play.submit(bot.choose(play.rules, play.state))
        out["rss_game_mb"] = rss_mb()
        Clock.schedule_once(self.begin_idle, 2.0)  # let the screen settle

    def begin_idle(self, _dt):
        self.idle_start = (time.perf_counter(), cpu_seconds())
        Clock.schedule_once(self.end_idle, idle_seconds)

    def end_idle(self, _dt):
        wall = time.perf_counter() - self.idle_start[0]
        cpu = cpu_seconds() - self.idle_start[1]
        out["idle_wall_s"] = wall
        out["idle_cpu_percent"] = 100 * cpu / wall
        out["rss_mb"] = rss_mb()
        out["peak_rss_mb"] = rss_mb("VmHWM")
        self.latencies = []
        Clock.schedule_once(self.touch, 0.1)

    def touch(self, _dt):
        play = self.kiosk.play
        board = self.kiosk.play_screen.board
        cells = [h.cell for h in play.rules.highlights(play.state, None)
                 if h.role is Role.SELECTABLE]
        cell = cells[len(self.latencies) % len(cells)]
        if play.focus is not None:
            play.tap_cell(play.focus)  # clear the selection first (not timed)
        x, y = board.cell_centre(cell)
        self.pending = (time.perf_counter(), cell)
        Window.bind(on_flip=self.flipped)
        t = UnitTestTouch(x, y)
        t.touch_down()
        t.touch_up()

    def flipped(self, *_):
        started, cell = self.pending
        drawn = self.kiosk.play_screen.board.view
        if drawn is None or drawn.focus != cell:
            return  # this frame does not show the selection yet
        Window.unbind(on_flip=self.flipped)
        self.latencies.append(time.perf_counter() - started)
        if len(self.latencies) < touches:
            Clock.schedule_once(self.touch, 0.05)
        else:
            out["touch_to_highlight_ms"] = [round(1000 * v, 2) for v in self.latencies]
            self.stop()

BenchApp(data_dir).run()
print("BENCH " + json.dumps(out), flush=True)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--touches", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.update(
            KIVY_NO_ARGS="1",
            KIVY_NO_CONSOLELOG="1",
            KIVY_NO_FILELOG="1",
            KIVY_LOG_MODE="PYTHON",
            KIVY_HOME=str(Path(tmp) / "kivy"),
            KCFG_GRAPHICS_WIDTH="800",
            KCFG_GRAPHICS_HEIGHT="480",
            PYTHONPATH=str(ROOT),
        )
        Path(env["KIVY_HOME"]).mkdir()
        if not env.get("DISPLAY"):
            env["SDL_VIDEODRIVER"] = "offscreen"
        script = Path(tmp) / "bench_child.py"  # Kivy's App needs a real source file
        script.write_text(CHILD, encoding="utf-8")
        started = time.perf_counter()
        result = subprocess.run(
            [
                sys.executable,
                str(script),
                str(Path(tmp) / "data"),
                str(args.idle_seconds),
                str(args.touches),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120 + args.idle_seconds,
        )
        total = time.perf_counter() - started
    lines = [line for line in result.stdout.splitlines() if line.startswith("BENCH ")]
    if result.returncode != 0 or not lines:
        print(result.stderr[-3000:], file=sys.stderr)
        return 1
    figures = json.loads(lines[-1][len("BENCH ") :])
    latencies = figures["touch_to_highlight_ms"]
    print(
        f"launch to first frame      {figures['first_frame_s']:.2f} s "
        "(in-process, from before `import kivy`; target < 1.5 s)"
    )
    print(
        f"idle CPU, Kolossus on show {figures['idle_cpu_percent']:.2f} % of one core over "
        f"{figures['idle_wall_s']:.0f} s (target < 3 %)"
    )
    print(
        f"resident memory            {figures['rss_mb']:.0f} MB "
        f"(peak {figures['peak_rss_mb']:.0f} MB; target < 200 MB)"
    )
    print(
        f"  of which                 {figures['rss_first_frame_mb']:.0f} MB at the first frame, "
        f"{figures['rss_game_mb']:.0f} MB with Kolossus set up"
    )
    print(
        f"touch to highlight         median {statistics.median(latencies):.1f} ms, "
        f"max {max(latencies):.1f} ms over {len(latencies)} taps (to the frame showing it)"
    )
    print(f"whole child process        {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
