"""Kiosk figures: launch to first frame, idle CPU with a game on screen, memory, and
touch-to-highlight latency. Prints figures; asserts nothing (targets in the docs).

    .venv/bin/python bench/bench_kiosk.py [--idle-seconds 30] [--touches 20] [--no-split]
                                          [--no-devices]

Runs the real ``CompanionApp`` in a child process (offscreen SDL2 unless ``DISPLAY`` is
set), so the numbers include Kivy's start-up and main loop; by default with the simulated
devices ``./scripts/start`` runs (the tray on a pty, MockFactory buttons, the LED
animator and simulated strip), whose threads are part of the idle cost. Targets on this machine:
first frame < 1.5 s, idle CPU < 3 % of one core, resident memory < 200 MB.

Resident memory is split so the figure is honest about what the app costs: an empty
Kivy window idling as long (Python + Kivy + SDL2 + the GL driver), and, under Mesa's
software renderer llvmpipe, the same app run again with ``LP_NUM_THREADS=0`` (llvmpipe
then rasterises on the main thread: the difference is its rasterizer threads' scene
memory, which grows with what is drawn and with how far the threads lag behind on a
busy machine). The Pi draws with its GPU driver (V3D), so only the "app" part carries
over; measure the rest there.
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
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import os, sys, time, json, resource
T0 = time.perf_counter()

def rss_mb(field="VmRSS"):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")

out = {"rss_python_mb": rss_mb()}
from pathlib import Path
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.widget import Widget
out["rss_kivy_mb"] = rss_mb()  # Python + Kivy's modules, no window yet
from kivy.core.window import Window  # creates the window and the GL context
out["rss_window_mb"] = rss_mb()
from kivy.graphics.opengl import GL_RENDERER, glGetString
out["renderer"] = glGetString(GL_RENDERER).decode(errors="replace")

data_dir, idle_seconds, touches = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
mode = sys.argv[4]

class EmptyApp(App):
    # The GL driver's share: a window that draws nothing, idling as long as the app.
    def build(self):
        return Widget()

    def on_start(self):
        Clock.schedule_once(self.end, idle_seconds + 2.0)

    def end(self, _dt):
        out["rss_mb"] = rss_mb()
        self.stop()

if mode == "empty":
    EmptyApp().run()
    print("BENCH " + json.dumps(out), flush=True)
    sys.exit(0)

from kivy.tests.common import UnitTestTouch
from kiosk.app import CompanionApp
from companion.bot import RandomBot
from companion.highlights import Role
out["rss_imports_mb"] = rss_mb()  # the app's modules: pydantic, companion, kiosk

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
        if touches > 0:
            Clock.schedule_once(self.touch, 0.1)
        else:
            self.stop()

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

if mode == "app-sim":  # as ./scripts/start runs it: every device simulated, threads and all
    from firmware_bridge.config import load_config
    from firmware_bridge.rig import build_rig
    loaded = load_config(
        Path(sys.argv[5]), environ={"COMPANION_HARDWARE": "sim"}
    )
    rig = build_rig(loaded)
    try:
        BenchApp(data_dir, rig=rig, config=loaded).run()
    finally:
        rig.stop()
else:
    BenchApp(data_dir).run()
print("BENCH " + json.dumps(out), flush=True)
"""


def run_child(
    tmp: Path, mode: str, idle_seconds: float, touches: int, extra_env: dict[str, str]
) -> dict[str, Any]:
    """One child process (``mode`` "app" or "empty"); its figures."""
    env = dict(os.environ)
    kivy_home = tmp / f"kivy-{mode}-{len(extra_env)}"
    kivy_home.mkdir()
    env.update(
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_LOG_MODE="PYTHON",
        KIVY_HOME=str(kivy_home),
        KCFG_GRAPHICS_WIDTH="800",
        KCFG_GRAPHICS_HEIGHT="480",
        KCFG_GRAPHICS_MAXFPS="30",  # as kiosk/app.py sets it (the child imports Kivy first)
        PYTHONPATH=str(ROOT),
    )
    env.update(extra_env)
    if not env.get("DISPLAY"):
        env["SDL_VIDEODRIVER"] = "offscreen"
    script = tmp / "bench_child.py"  # Kivy's App needs a real source file
    script.write_text(CHILD, encoding="utf-8")
    data_dir = tmp / f"data-{mode}-{len(extra_env)}"
    config = tmp / "companion.toml"  # the defaults, with the data directory set
    config.write_text(f'data_dir = "{data_dir}"\n', encoding="utf-8")
    argv = [str(data_dir), str(idle_seconds), str(touches), mode, str(config)]
    result = subprocess.run(
        [sys.executable, str(script), *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120 + idle_seconds,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("BENCH ")]
    if result.returncode != 0 or not lines:
        raise RuntimeError(result.stderr[-3000:])
    figures: dict[str, Any] = json.loads(lines[-1][len("BENCH ") :])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-seconds", type=float, default=30.0)
    parser.add_argument("--touches", type=int, default=20)
    parser.add_argument(
        "--no-devices",
        action="store_true",
        help="no device threads (by default the simulated tray, buttons and strip run)",
    )
    parser.add_argument(
        "--no-split", action="store_true", help="one run: no empty-window or LP_NUM_THREADS=0 run"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        started = time.perf_counter()
        try:
            mode = "app" if args.no_devices else "app-sim"
            figures = run_child(tmp, mode, args.idle_seconds, args.touches, {})
            total = time.perf_counter() - started
            empty = lp0 = None
            if not args.no_split:
                empty = run_child(tmp, "empty", args.idle_seconds, 0, {})
                if "llvmpipe" in figures["renderer"]:
                    lp0 = run_child(tmp, mode, args.idle_seconds, 0, {"LP_NUM_THREADS": "0"})
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            print(exc, file=sys.stderr)
            return 1
    latencies = figures["touch_to_highlight_ms"]
    print(f"renderer                   {figures['renderer']}")
    print(
        f"launch to first frame      {figures['first_frame_s']:.2f} s "
        "(in-process, from before `import kivy`; target < 1.5 s)"
    )
    print(
        f"idle CPU, Kolossus on show {figures['idle_cpu_percent']:.2f} % of one core over "
        f"{figures['idle_wall_s']:.0f} s (target < 3 %; "
        f"{'no devices' if args.no_devices else 'simulated tray, buttons and LED strip running'})"
    )
    print(
        f"resident memory            {figures['rss_mb']:.0f} MB after the idle run "
        f"(peak {figures['peak_rss_mb']:.0f} MB; target < 200 MB)"
    )
    print(
        f"  on the way               {figures['rss_first_frame_mb']:.0f} MB at the first frame, "
        f"{figures['rss_game_mb']:.0f} MB with Kolossus set up"
    )
    print_split(figures, empty, lp0)
    print(
        f"touch to highlight         median {statistics.median(latencies):.1f} ms, "
        f"max {max(latencies):.1f} ms over {len(latencies)} taps (to the frame showing it)"
    )
    print(f"whole child process        {total:.1f} s")
    return 0


def print_split(
    app: dict[str, Any], empty: dict[str, Any] | None, lp0: dict[str, Any] | None
) -> None:
    """Resident memory by owner: Python + Kivy, the GL driver, the app."""
    base = app["rss_kivy_mb"]
    print(f"  Python + Kivy modules    {base:5.0f} MB")
    if empty is None:
        window = app["rss_window_mb"] - base
        print(f"  window + GL context      {window:5.0f} MB (at window creation; no split run)")
        print(f"  app                      {app['rss_mb'] - base - window:5.0f} MB (the rest)")
        return
    window = empty["rss_mb"] - empty["rss_kivy_mb"]
    raster = max(0.0, app["rss_mb"] - lp0["rss_mb"]) if lp0 is not None else 0.0
    driver = window + raster
    own = app["rss_mb"] - base - driver
    imports = app["rss_imports_mb"] - app["rss_window_mb"]
    print(f"  GL driver                {driver:5.0f} MB")
    print(f"    empty window, idle     {window:5.0f} MB (window + GL context, nothing drawn)")
    if lp0 is not None:
        print(
            f"    llvmpipe raster threads {raster:4.0f} MB (the same run with LP_NUM_THREADS=0 "
            f"holds {lp0['rss_mb']:.0f} MB; software GL only, varies with machine load)"
        )
    print(f"  app                      {own:5.0f} MB")
    print(f"    its modules            {imports:5.0f} MB (pydantic, the games, kiosk)")
    print(
        f"    screens and drawing    {own - imports:5.0f} MB (widgets, label textures, fonts, "
        "the game; what the Pi pays too)"
    )


if __name__ == "__main__":
    sys.exit(main())
