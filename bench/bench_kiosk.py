"""Kiosk figures: launch to first frame, idle CPU with a game on screen, memory, and
touch-to-highlight latency (a touch handed to Kivy in its input phase, as the panel's
provider does, to the first frame that shows the selected piece). Prints figures;
asserts nothing (targets in the docs).

    .venv/bin/python bench/bench_kiosk.py [--idle-seconds 60] [--touches 20] [--no-split]
                                          [--no-devices] [--pi-profile [--pi-slowdown 5]]
                                          [--profile-idle FILE.pstats]

Runs the real ``CompanionApp`` in a child process (offscreen SDL2 unless ``DISPLAY`` is
set), so the numbers include Kivy's start-up and main loop; by default with the simulated
devices ``./scripts/start`` runs (the tray on a pty, MockFactory buttons, the LED
animator and simulated strip), whose threads are part of the idle cost. Targets on this machine:
first frame < 1.5 s, idle CPU < 3 % of one core, resident memory < 200 MB.

Every run starts Kivy with the app's own environment (``kiosk/kivy_env.py``: 30 fps, no
MSAA, llvmpipe on the main thread).

Resident memory is split so the figure is honest about what the app costs. Three more
runs idle as long: an empty Kivy window (Python + Kivy + SDL2 + the GL driver's base),
and both the empty window and the same app flow on Kivy's mock GL backend, where widgets,
texts and the game exist but nothing reaches the GL driver. Their difference is the app's
own share, the part the Pi pays too; what is left of the total is drawing in software
(under Mesa's llvmpipe: textures, per-frame scene buffers, compiled shaders), which the
Pi's GPU driver (V3D) keeps elsewhere. Each total is also split into file-backed pages
(shared-library code the kernel can drop and re-read: libLLVM alone under llvmpipe) and
anonymous memory.

``--pi-profile`` runs the app once more pinned to one core and, where a cgroup allows
it, under a CPU quota (``bench/pi_profile.py``; its limits are in bench/README.md), and
prints its launch, idle CPU and touch figures beside the first run's.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk_child import child_environment, run_child, write_config
from pi_profile import PiProfile, add_arguments, pi_profile

from kiosk.pace import (
    DEEP_IDLE_AFTER_S,
    DEEP_IDLE_FPS,
    IDLE_AFTER_S,
    IDLE_FPS,
    WOKEN_DEEP_IDLE_FPS,
    WOKEN_IDLE_FPS,
)

DEEP_MARK_S = IDLE_AFTER_S + DEEP_IDLE_AFTER_S + 1.0
REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import os, sys, time, json, resource
T0 = time.perf_counter()
from instructions import thread_counter
COUNTER = thread_counter()  # the main thread's instructions from here (None: no counter)
# An open counter makes the idle CPU lie on a virtual machine: each long sleep of the
# counted thread is charged 2-4 ms (the hypervisor's virtual PMU), 10-40 times the loop's
# own work. So the counter is closed for the idle CPU window and the idle instructions are
# counted in a window of their own after it (INSTR_WINDOW_S).
INSTR_WINDOW_S = 10.0

from kiosk.kivy_env import kivy_environment
assert not kivy_environment(os.environ)  # the parent set the app's environment

def rss_mb(field="VmRSS"):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")

out = {"rss_python_mb": rss_mb()}
from pathlib import Path
if os.environ.get("BENCH_PI_TOUCH"):  # --pi-touch: the Pi's one touch provider
    from kivy.config import Config
    for key in Config.options("input"):
        Config.remove_option("input", key)
    Config.set("input", "touchscreen", os.environ["BENCH_PI_TOUCH"])
from kivy.app import App
from kivy.clock import Clock
from kivy.uix.widget import Widget
out["rss_kivy_mb"] = rss_mb()  # Python + Kivy's modules, no window yet
from kivy.core.window import Window  # creates the window and the GL context
out["rss_window_mb"] = rss_mb()
from kivy.graphics.opengl import GL_RENDERER, glGetString
try:
    out["renderer"] = glGetString(GL_RENDERER).decode(errors="replace")
except Exception:  # the mock GL backend has no renderer string
    out["renderer"] = "none (mock GL backend)"

data_dir, idle_seconds, touches = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
# The idle window starts 2 s after the game's last move: the pace goes idle 3 s after
# that, and deeper a minute later (kiosk/pace.py).
from kiosk.pace import DEEP_IDLE_AFTER_S, IDLE_AFTER_S
DEEP_MARK_S = IDLE_AFTER_S + DEEP_IDLE_AFTER_S + 1.0
mode = sys.argv[4]

class EmptyApp(App):
    # The GL driver's share: a window that draws nothing, idling as long as the app.
    def build(self):
        return Widget()

    def on_start(self):
        Clock.schedule_once(self.end, idle_seconds + 2.0)

    def end(self, _dt):
        out["rss_mb"] = rss_mb()
        out["rss_file_mb"] = rss_mb("RssFile")
        self.stop()

if mode == "empty":
    EmptyApp().run()
    from kiosk_child import print_figures
    print_figures(out)
    sys.exit(0)

from kiosk.app import CompanionApp
from companion.highlights import Role
out["rss_imports_mb"] = rss_mb()  # the app's modules: pydantic, companion, kiosk
# The bench's own helpers (Kivy's test touch and unittest: ≈320 M instructions; the input
# queue) load after the launch and memory figures: the app never loads them.

def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def thread_cpu():
    # CPU seconds of each thread, by its Python name: Python's threads from their own
    # CPU clocks (exact), the others (Kivy's, SDL's, the GL driver's) from the kernel's
    # per-task counters (in clock ticks).
    import threading
    python = {t.native_id: t for t in threading.enumerate()}
    tick = os.sysconf("SC_CLK_TCK")
    seconds = {}
    for task in os.listdir("/proc/self/task"):
        thread = python.get(int(task))
        if thread is not None and thread.ident is not None:
            try:
                used = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
                seconds[thread.name] = seconds.get(thread.name, 0.0) + used
                continue
            except (OSError, ProcessLookupError):
                pass  # ended meanwhile, or no per-thread clock: the kernel's counters
        try:
            fields = open(f"/proc/self/task/{task}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        name = thread.name if thread is not None else "other (Kivy, SDL, GL)"
        seconds[name] = seconds.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return seconds

class BenchApp(CompanionApp):
    def on_start(self):
        Window.bind(on_flip=self.first_flip)

    def first_flip(self, *_):
        Window.unbind(on_flip=self.first_flip)
        out["first_frame_s"] = time.perf_counter() - T0
        out["first_frame_instr_m"] = None if COUNTER is None else COUNTER.read() / 1e6
        out["rss_first_frame_mb"] = rss_mb()
        if COUNTER is not None:
            COUNTER.close()
        Clock.schedule_once(self.start_game, 0)

    def start_game(self, _dt):
        kiosk = self.kiosk
        kiosk.seed = lambda: 8  # the same game every run, so runs compare
        kiosk.open_setup("kolossus")
        kiosk.start_game()
        play = kiosk.play
        from companion.bot import RandomBot  # after launch: it loads the rules, as a game does
        bot = RandomBot(8)
        while play.state.phase != "move" or play.fix.step is not None:
            while play.fix.step is not None:
                play.fix.next()
            play.submit(bot.choose(play.rules, play.state))
        out["rss_game_mb"] = rss_mb()
        Clock.schedule_once(self.begin_idle, 2.0)  # let the screen settle

    def begin_idle(self, _dt):
        self.idle_start = (time.perf_counter(), cpu_seconds())
        self.idle_threads = thread_cpu()
        self.idle_frames = Clock.frames
        self.idle_profile = None
        if os.environ.get("BENCH_PROFILE_IDLE"):  # --profile-idle: the main thread's ticks
            import cProfile
            self.idle_profile = cProfile.Profile(time.thread_time)
            self.idle_profile.enable()
        Clock.schedule_once(self.end_idle, idle_seconds)
        self.deep_start = None
        if idle_seconds > DEEP_MARK_S + 10:  # the pace's deeper idle, a minute in
            Clock.schedule_once(self.mark_deep, DEEP_MARK_S)

    def mark_deep(self, _dt):
        self.deep_start = (time.perf_counter(), cpu_seconds())

    def end_idle(self, _dt):
        if self.idle_profile is not None:
            self.idle_profile.disable()
            self.idle_profile.dump_stats(os.environ["BENCH_PROFILE_IDLE"])
        wall = time.perf_counter() - self.idle_start[0]
        cpu = cpu_seconds() - self.idle_start[1]
        out["idle_wall_s"] = wall
        out["idle_cpu_percent"] = 100 * cpu / wall
        if self.deep_start is not None:
            out["idle_first_min_cpu_percent"] = 100 * (
                self.deep_start[1] - self.idle_start[1]) / (self.deep_start[0] - self.idle_start[0])
            out["idle_deep_cpu_percent"] = 100 * (cpu_seconds() - self.deep_start[1]) / (
                time.perf_counter() - self.deep_start[0])
        out["idle_pace"] = bool(self.pace is not None and self.pace.idle)
        out["idle_deep"] = bool(self.pace is not None and self.pace.deep)
        out["idle_ticks_per_s"] = (Clock.frames - self.idle_frames) / wall
        animator = self.rig.animator if self.rig is not None else None
        out["idle_led_period_s"] = None if animator is None else animator.period
        before = self.idle_threads
        out["idle_threads"] = {
            name: 100 * (seconds - before.get(name, 0.0)) / wall
            for name, seconds in thread_cpu().items()
        }
        out["rss_mb"] = rss_mb()
        out["rss_file_mb"] = rss_mb("RssFile")
        out["peak_rss_mb"] = rss_mb("VmHWM")
        if COUNTER is not None:  # the idle instructions, in a window of their own
            self.counter = thread_counter()
            self.instr_start = time.perf_counter()
            Clock.schedule_once(self.end_instructions, INSTR_WINDOW_S)
        else:
            self.begin_touches()

    def end_instructions(self, _dt):
        wall = time.perf_counter() - self.instr_start
        out["idle_instr_m_per_s"] = self.counter.read() / 1e6 / wall
        out["idle_instr_window_s"] = wall
        self.counter.close()
        self.begin_touches()

    def begin_touches(self):
        self.latencies = []
        if touches > 0:
            # Touches enter Kivy in its input phase, as the panel's own provider hands
            # them over (bench/kiosk_child.py).
            from kiosk_child import input_queue
            self.touch_queue = input_queue()
            Clock.schedule_once(self.touch, 0.1)
        else:
            self.stop()

    def touch(self, _dt):
        play = self.kiosk.play
        board = self.kiosk.play_screen.board
        cells = [h.cell for h in play.rules.highlights(play.state, None)
                 if h.role is Role.SELECTABLE]
        cell = cells[len(self.latencies) % len(cells)]
        if play.board_input.focus is not None:
            # Clear the selection first, in a frame of its own (not timed).
            play.board_input.tap_cell(play.board_input.focus)
            Clock.schedule_once(self.touch, 0.05)
            return
        x, y = board.cell_centre(cell)
        self.pending = (None, cell)
        Window.bind(on_flip=self.flipped)
        from kivy.tests.common import UnitTestTouch
        self.touch_queue.tap(UnitTestTouch(x, y), self.touched)

    def touched(self):
        self.pending = (time.perf_counter(), self.pending[1])

    def flipped(self, *_):
        started, cell = self.pending
        if started is None:
            return  # the touch has not reached the input phase yet
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
    from kiosk.settings import load_config
    from firmware_bridge.rig import build_rig
    loaded = load_config(
        Path(sys.argv[5]), environ={"COMPANION_HARDWARE": "sim"}
    )
    rig = build_rig(loaded.config)
    try:
        BenchApp(data_dir, rig=rig, config=loaded).run()
    finally:
        rig.stop()
else:
    BenchApp(data_dir).run()
from kiosk_child import print_figures
print_figures(out)
"""


def run_app_child(
    tmp: Path,
    mode: str,
    idle_seconds: float,
    touches: int,
    *,
    draw: bool = True,
    pinned: PiProfile | None = None,
    pi_touch: bool = False,
) -> dict[str, Any]:
    """One child process (``mode`` "app", "app-sim" or "empty"); its figures.

    ``draw=False`` runs it on Kivy's mock GL backend: the same widgets, textures and
    game, but nothing reaches the GL driver. ``pinned``: under ``--pi-profile``.
    ``pi_touch``: Kivy's input as on the Pi (``deploy/kivy_config.py``: the panel read
    by a thread, which wakes the loop; no panel here, the bench's touches go on).
    """
    name = f"{mode}-{'drawn' if draw else 'mock'}{'-pi' if pinned else ''}"
    name += "-pitouch" if pi_touch else ""
    env = child_environment(tmp / f"kivy-{name}", draw=draw)
    if pi_touch:
        env["BENCH_PI_TOUCH"] = pi_touch_provider()
    script = tmp / "bench_child.py"  # Kivy's App needs a real source file
    script.write_text(CHILD, encoding="utf-8")
    data_dir = tmp / f"data-{name}"
    config = write_config(tmp / f"companion-{name}.toml", data_dir)
    argv = [str(script), str(data_dir), str(idle_seconds), str(touches), mode, str(config)]
    slowdown = pinned.slowdown if pinned is not None and pinned.quota is not None else 1.0
    return run_child(
        argv,
        env,
        timeout=(120 + idle_seconds) * slowdown,
        preexec=pinned.preexec if pinned is not None else None,
    )


def pi_touch_provider() -> str:
    """The Pi's one ``[input]`` line, as ``deploy/kivy_config.py`` writes it."""
    spec = importlib.util.spec_from_file_location("kivy_config", REPO / "deploy" / "kivy_config.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.TOUCH_PROVIDER)


def print_idle(label: str, figures: dict[str, Any], setting: str, woken: bool = False) -> None:
    """One idle run's lines: CPU, passes, the main thread's instructions, by thread."""
    rates = (WOKEN_IDLE_FPS, WOKEN_DEEP_IDLE_FPS) if woken else (IDLE_FPS, DEEP_IDLE_FPS)
    print(
        f"{label:<26} {figures['idle_cpu_percent']:.2f} % of one core over "
        f"{figures['idle_wall_s']:.0f} s (target ≤ 0.5 %; {setting})"
    )
    if "idle_deep_cpu_percent" in figures:
        print(
            f"  split                    {figures['idle_first_min_cpu_percent']:.2f} % in the"
            f" first {DEEP_MARK_S:.0f} s ({rates[0]:g} fps idle),"
            f" {figures['idle_deep_cpu_percent']:.2f} % after it"
            f" (the deeper idle, {rates[1]:g} fps)"
        )
    pace = (
        "slowed further (deep idle)"
        if figures.get("idle_deep")
        else "slowed (idle pace)"
        if figures.get("idle_pace")
        else "at full rate"
    )
    period = figures.get("idle_led_period_s")
    print(
        f"  at the end               main loop {pace}, "
        f"{figures['idle_ticks_per_s']:.1f} loop passes a second on average"
        + ("" if period is None else f", LED animator ticking every {1000 * period:.0f} ms")
    )
    if figures.get("idle_instr_m_per_s") is not None:
        print(
            f"  main thread's work       {figures['idle_instr_m_per_s']:.2f} M instructions a"
            f" second, over {figures['idle_instr_window_s']:.0f} s more (user space: the same on"
            " a busy or a virtual machine; counted apart, since on a virtual machine an open"
            " counter adds 2-4 ms of CPU to each of the loop's sleeps)"
        )
    threads = sorted(figures.get("idle_threads", {}).items(), key=lambda item: -item[1])
    if threads:
        print(
            "  by thread                "
            + ", ".join(f"{name} {percent:.2f} %" for name, percent in threads if percent > 0)
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--touches", type=int, default=20)
    parser.add_argument(
        "--no-devices",
        action="store_true",
        help="no device threads (by default the simulated tray, buttons and strip run)",
    )
    parser.add_argument("--no-split", action="store_true", help="one run: no empty-window run")
    parser.add_argument(
        "--pi-touch",
        action="store_true",
        help="also idle with the Pi's touch input (read by a thread that wakes the loop)",
    )
    parser.add_argument(
        "--profile-idle",
        type=Path,
        default=None,
        metavar="FILE.pstats",
        help="cProfile the main thread (thread CPU time) while idle; prints its top",
    )
    add_arguments(parser)
    args = parser.parse_args()
    if args.profile_idle is not None:
        os.environ["BENCH_PROFILE_IDLE"] = str(args.profile_idle.resolve())
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        started = time.perf_counter()
        pinned_figures: dict[str, Any] | None = None
        pi_touch: dict[str, Any] | None = None
        profile: PiProfile | None = None
        report = ""
        try:
            mode = "app" if args.no_devices else "app-sim"
            figures = run_app_child(tmp, mode, args.idle_seconds, args.touches)
            total = time.perf_counter() - started
            split = None
            if not args.no_split:
                idle = args.idle_seconds
                split = Split(
                    empty=run_app_child(tmp, "empty", idle, 0),
                    empty_mock=run_app_child(tmp, "empty", idle, 0, draw=False),
                    app_mock=run_app_child(tmp, mode, idle, 0, draw=False),
                )
            if args.pi_touch:
                pi_touch = run_app_child(tmp, mode, args.idle_seconds, 0, pi_touch=True)
            if args.pi_profile:
                with pi_profile(args.pi_slowdown) as profile:
                    pinned_figures = run_app_child(
                        tmp, mode, args.idle_seconds, args.touches, pinned=profile
                    )
                    report = profile.report()
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            print(exc, file=sys.stderr)
            return 1
    if args.profile_idle is not None:
        print(f"== the main thread while idle (cProfile in {args.profile_idle}), by own time")
        pstats.Stats(str(args.profile_idle)).sort_stats("tottime").print_stats(20)
    latencies = figures["touch_to_highlight_ms"]
    print(f"renderer                   {figures['renderer']}")
    launch_instr = figures.get("first_frame_instr_m")
    print(
        f"launch to first frame      {figures['first_frame_s']:.2f} s "
        "(in-process, from before `import kivy`; target < 1.5 s)"
        + ("" if launch_instr is None else f"; {launch_instr:.0f} M instructions")
    )
    devices = "no devices" if args.no_devices else "simulated tray, buttons and LED strip running"
    print_idle("idle CPU, Kolossus on show", figures, f"SDL's input; {devices}")
    if pi_touch is not None:
        print_idle(
            "  with the Pi's touch input",
            pi_touch,
            "read by a thread that wakes the loop: the slower idle pace",
            woken=True,
        )
    print(
        f"resident memory            {figures['rss_mb']:.0f} MB after the idle run "
        f"(peak {figures['peak_rss_mb']:.0f} MB; target < 200 MB)"
    )
    print(
        f"  on the way               {figures['rss_first_frame_mb']:.0f} MB at the first frame, "
        f"{figures['rss_game_mb']:.0f} MB with Kolossus set up"
    )
    print_split(figures, split)
    print(
        f"touch to highlight         median {statistics.median(latencies):.1f} ms, "
        f"max {max(latencies):.1f} ms over {len(latencies)} taps "
        "(from Kivy's input phase to the frame showing it)"
    )
    print(f"whole child process        {total:.1f} s")
    if pinned_figures is not None and profile is not None:
        print_pinned(figures, pinned_figures, profile, report)
    return 0


def print_pinned(
    plain: dict[str, Any], pinned: dict[str, Any], profile: PiProfile, report: str
) -> None:
    """The --pi-profile run beside the first one."""
    print()
    print(f"--pi-profile: {profile.describe()}")
    print(f"  {report}")
    for note in profile.notes:
        print(f"  note: {note}")
    rows = [
        ("launch to first frame", "first_frame_s", "s", 2),
        ("idle CPU, % of one core", "idle_cpu_percent", "%", 2),
    ]
    print(f"  {'':28} {'plain':>10} {'pi-profile':>12}")
    for label, key, unit, digits in rows:
        print(f"  {label:28} {plain[key]:10.{digits}f} {pinned[key]:12.{digits}f} {unit}")
    for label, pick in (("touch to highlight, median", statistics.median), ("  max", max)):
        a, b = pick(plain["touch_to_highlight_ms"]), pick(pinned["touch_to_highlight_ms"])
        print(f"  {label:28} {a:10.1f} {b:12.1f} ms")
    print(
        "  (a quota stretches wall time; CPU per operation stays this machine's: "
        "see bench/README.md)"
    )


@dataclass(frozen=True)
class Split:
    """The runs that divide the app's resident memory by owner."""

    empty: dict[str, Any]  # an empty window idling as long, drawn by the GL driver
    empty_mock: dict[str, Any]  # the same on the mock GL backend
    app_mock: dict[str, Any]  # the same app flow on the mock GL backend


def print_split(app: dict[str, Any], split: Split | None) -> None:
    """Resident memory by kind and by owner: Python + Kivy, the GL driver's base, the
    app itself (measured without drawing), and drawing it in software."""
    base = app["rss_kivy_mb"]
    print(
        f"  by kind                  {app['rss_file_mb']:5.0f} MB file-backed (library code), "
        f"{app['rss_mb'] - app['rss_file_mb']:.0f} MB anonymous"
    )
    print(f"  Python + Kivy modules    {base:5.0f} MB")
    if split is None:
        window = app["rss_window_mb"] - base
        print(f"  window + GL context      {window:5.0f} MB (at window creation; no split run)")
        print(f"  app                      {app['rss_mb'] - base - window:5.0f} MB (the rest)")
        return
    window = split.empty["rss_mb"] - split.empty["rss_kivy_mb"]
    own = split.app_mock["rss_mb"] - split.empty_mock["rss_mb"]
    imports = split.app_mock["rss_imports_mb"] - split.app_mock["rss_window_mb"]
    drawing = app["rss_mb"] - base - window - own
    print(
        f"  GL driver, empty window  {window:5.0f} MB (an empty window idling as long; "
        f"{split.empty['rss_file_mb']:.0f} MB of that process is file-backed)"
    )
    print(
        f"  app                      {own:5.0f} MB (the same flow on Kivy's mock GL backend, "
        "less a mock empty window: what the Pi pays too)"
    )
    print(f"    its modules            {imports:5.0f} MB (pydantic, the games, kiosk)")
    print(f"    screens and the game   {own - imports:5.0f} MB (widgets, texts, game state)")
    print(
        f"  drawing it in software   {drawing:5.0f} MB (llvmpipe: textures, per-frame scenes, "
        "compiled shaders; a GPU driver keeps these elsewhere)"
    )
    print(
        f"  whole process, no GL drawing {split.app_mock['rss_mb']:.0f} MB "
        "(mock backend; the window still loads llvmpipe)"
    )


if __name__ == "__main__":
    sys.exit(main())
