"""The app's own CPU per interaction, in every game: what a Pi would feel, times its factor.

    .venv/bin/python bench/bench_interactions.py [--quick] [--touches N] [--rolls N]
        [--rounds N] [--games kolossus,...] [--backend both|real|mock] [--dir DIR] [--json]
        [--pi-profile [--pi-slowdown 5]]
    .venv/bin/python bench/bench_interactions.py --profile touch|die|screens [--game kolossus]
        [--profile-save FILE.pstats] [--sections module:Qual.name[@],...]

A Pi 4's core runs Python about 5× slower than the development machine, a Pi Zero 2 W
about 10×. Wall times here do not say what a Pi feels like; the CPU the app's own code
spends per interaction does, multiplied by that factor. The GL drawing is done by the
Pi's GPU, so it is measured apart.

For each game the real ``CompanionApp`` runs in a child process (offscreen; the
simulated devices ``./scripts/start`` runs: the tray on a pty read by the real serial
reader, the LED animator and simulated strip; see ``bench/interactions_child.py``), and
the bench measures, in ``time.thread_time()`` of the main thread:

* **touch → highlight**: a tap on a selectable miniature (Kolossus) or space (the
  island games), each on a fresh position; in the card games a tap on the top action
  button of the menu (that plays it; Kivy first waits 0.2 s to tell a tap in a list
  from a scroll — a wait, not CPU). From the touch entering Kivy's input phase to the
  first frame drawn — the highlight's (the card games': the played action's): the
  presenter, screen update, layout, label textures and canvas instructions before that
  frame's GL draw. **touch → settled** goes on until the window is still, over every
  frame the touch takes (the play screen shows a change's middle column — the menu,
  the dice, a fix step — a frame after the rest, on purpose). Both leave out the GL
  draw of those frames (``on_draw`` and the flip; see ``kiosk_child.FrameMeter``).
* **die → LED**: a roll of the simulated tray for the pending request (then taken back,
  so the request is pending again): the main thread's CPU from the hub's first drain
  after the roll to the LED animator's ``show()`` — collector, session submit with the
  journal commit, highlights — and on to the end of the screen update. The journal's
  commit (SQLite ``synchronous=FULL``) waits for the storage: its wall time is shown
  apart, and the wait is not CPU. Card games ask for no dice.
* **screen changes**: home → setup → play, play → scores → play, play → home: each
  handler called in Kivy's input phase (as a button's ``on_release`` calls it), until
  the window is still.
* **memory release**: the kiosk's full collection and ``malloc_trim`` once the window
  has drawn nothing for 1 s (``kiosk/memory.py``): not part of an interaction, but the
  main thread is busy for that long.

Each runs on Kivy's real backend (offscreen SDL2; here Mesa's llvmpipe draws in
software) and on the mock GL backend (``KIVY_GL_BACKEND=mock``: the same widgets and
game, nothing reaches the GL driver — the app's own CPU, the part a Pi pays too). The
first sample of each kind (cold caches, lazy imports) is shown apart; median and p99
are over the rest (with fewer than 100 samples p99 is the largest).

Targets, on this machine's app CPU: touch → highlight (the frame that shows
it) ≤ 3 ms median and ≤ 6 ms p99 in every game; die → LED software overhead ≤ 1 ms p99
(all but the fsync). touch → settled is printed beside it, judged by its largest frame:
the budget is a frame's, and the middle column a frame later has its own.

``--profile touch|die|screens`` runs cProfile over the handling of the touches (rolls,
screen changes) of one game on the mock backend and prints the 25 functions of the
project's own packages (companion, firmware_bridge, kiosk) with the most cumulative time,
and how the time splits between those packages, Kivy, pydantic and the rest. With
``--sections`` it counts instead, unprofiled, the instructions each named function costs
per interaction (a name ending in ``@``: split by the class of its first argument).

``--pi-profile`` runs every child again pinned to one core and, where a cgroup allows
it, under a CPU quota (``bench/pi_profile.py``), and prints both side by side.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk_child import BENCH_DIR, ROOT, ChildFailed, child_environment, run_child, write_config
from pi_profile import PiProfile, add_arguments, pi_profile

GAMES = ("kolossus", "beast_master", "colossi", "colossus_solo", "builders")
BACKENDS = {"real": True, "mock": False}  # name -> draws through the GL driver
PI_FACTORS = (("Pi 4", 5), ("Pi Zero 2 W", 10))
TOUCH_TARGET = (3.0, 6.0)  # ms of app CPU: median, p99
DIE_TARGET = 1.0  # ms of app CPU, p99, from the drain to the LEDs' show()
SCREEN_KINDS = ("home → setup", "setup → play", "play → scores", "scores → play", "play → home")
BUILT_OVER_FRAMES = ("home → setup",)
"""Screens that show their top in the first frame and make the rest a few a frame
(Setup's options): printed to the first frame, and whole (wall to the last frame)."""
PROFILE_KINDS = {"touch": ("touch",), "die": ("die",), "screens": SCREEN_KINDS}
"""What ``--profile`` covers: its samples' kinds."""
PROFILE_COUNTED = {"touch": "touches", "die": "rolls", "screens": "screen changes"}
CHILD = BENCH_DIR / "interactions_child.py"
PROJECT_PACKAGES = ("companion", "firmware_bridge", "kiosk")


@dataclass(frozen=True)
class Settings:
    touches: int
    rolls: int
    rounds: int
    games: tuple[str, ...]
    backends: tuple[str, ...]


# --- statistics -------------------------------------------------------------------------


@dataclass(frozen=True)
class Stat:
    """Median and p99 of the samples after the first, and the first apart."""

    n: int
    median: float
    p99: float
    first: float | None

    @classmethod
    def of(cls, values: Sequence[float | None], *, warm: bool = True) -> Stat | None:
        present = [v for v in values if v is not None]
        if not present:
            return None
        first = present[0] if warm and len(present) > 1 else None
        rest = present[1:] if first is not None else present
        ordered = sorted(rest)
        p99 = ordered[min(len(ordered) - 1, max(0, math.ceil(0.99 * len(ordered)) - 1))]
        return cls(len(rest), statistics.median(ordered), p99, first)


def column(samples: Iterable[dict[str, Any]], key: str) -> list[float | None]:
    return [sample.get(key) for sample in samples]


# --- running the children ---------------------------------------------------------------


def run_game(
    game: str,
    backend: str,
    settings: Settings,
    tmp: Path,
    *,
    profile: str | None = None,
    profile_out: Path | None = None,
    sections: Sequence[str] = (),
    pinned: PiProfile | None = None,
) -> dict[str, Any]:
    name = f"{game}-{backend}-{'pi' if pinned else 'plain'}-{profile or 'all'}"
    env = child_environment(tmp / f"kivy-{name}", draw=BACKENDS[backend])
    data_dir = Path(tempfile.mkdtemp(prefix=f"data-{name}-", dir=tmp))  # in --dir if given
    # No attract demo during a run: it would start after the idle timeout.
    config = write_config(data_dir / "companion.toml", data_dir, "[kiosk]\nidle_timeout_s = 0\n")
    slowdown = pinned.slowdown if pinned is not None and pinned.quota is not None else 1.0
    spec = {
        "game": game,
        "data_dir": str(data_dir),
        "config": str(config),
        "touches": settings.touches,
        "rolls": settings.rolls,
        "rounds": settings.rounds,
        "profile": profile,
        "profile_kinds": list(PROFILE_KINDS[profile]) if profile else [],
        "profile_out": str(profile_out) if profile_out else None,
        "sections": list(sections),
        "slowdown": slowdown,
    }
    # Generous: a Pi Zero 2 W takes several times as long as this machine.
    budget = 180 + 3 * (settings.touches + settings.rolls) + 15 * settings.rounds
    figures = run_child(
        [str(CHILD), json.dumps(spec)],
        env,
        timeout=budget * slowdown,
        preexec=pinned.preexec if pinned is not None else None,
    )
    figures["filesystem"] = filesystem_of(data_dir)
    if figures.get("error"):
        raise ChildFailed(f"{game} ({backend}): {figures['error']}")
    return figures


def filesystem_of(path: Path) -> str:
    """The file system the journal was on (its fsync is what the commit waits for)."""
    try:
        done = subprocess.run(
            ["df", "--output=fstype", str(path)], capture_output=True, text=True, check=False
        )
        lines = done.stdout.split()
        return lines[-1] if done.returncode == 0 and len(lines) > 1 else "?"
    except OSError:
        return "?"


def run_all(
    settings: Settings,
    tmp: Path,
    pinned: PiProfile | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """game -> backend -> figures (``{"failed": why}`` where a child failed)."""
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for game in settings.games:
        for backend in settings.backends:
            started = time.perf_counter()
            try:
                figures = run_game(game, backend, settings, tmp, pinned=pinned)
            except (ChildFailed, subprocess.TimeoutExpired) as error:
                figures = {"failed": str(error)}
            figures["seconds"] = time.perf_counter() - started
            results.setdefault(game, {})[backend] = figures
            if progress is not None:
                progress(
                    f"{game} ({backend}{', pi-profile' if pinned else ''}) "
                    f"{figures['seconds']:.0f} s"
                )
    return results


# --- printing ---------------------------------------------------------------------------


def ms(value: float | None, width: int = 6) -> str:
    if value is None:
        return "-".rjust(width)
    return f"{value:{width}.{1 if value >= 100 else 2}f}"


@dataclass(frozen=True)
class Row:
    label: str
    cpu: Stat | None
    draw: Stat | None = None
    frames: Stat | None = None
    wall: Stat | None = None
    scale: bool = True  # whether the Pi estimates make sense (CPU of the app's code)


def rows_of(figures: dict[str, Any]) -> list[Row]:
    samples: dict[str, list[dict[str, Any]]] = figures.get("samples", {})
    rows: list[Row] = []
    touch = samples.get("touch", [])
    if touch:
        board = figures.get("touch_target", "").startswith("a selectable")
        rows.append(
            Row(
                "touch → highlight" if board else "touch → action shown",
                Stat.of(column(touch, "first_frame_cpu_ms")),
                wall=Stat.of(column(touch, "wall_first_ms")),
            )
        )
        rows.append(
            Row(
                "touch → settled",
                Stat.of(column(touch, "cpu_ms")),
                Stat.of(column(touch, "draw_ms")),
                Stat.of(column(touch, "frames")),
                Stat.of(column(touch, "wall_last_ms")),
            )
        )
    dice = samples.get("die", [])
    if dice:
        rows.append(
            Row(
                "die → LED show()",
                Stat.of(column(dice, "led_cpu_ms")),
                wall=Stat.of(column(dice, "led_wall_ms")),
            )
        )
        rows.append(
            Row(
                "die → screen updated",
                Stat.of(column(dice, "cpu_ms")),
                Stat.of(column(dice, "draw_ms")),
                Stat.of(column(dice, "frames")),
                Stat.of(column(dice, "wall_first_ms")),
            )
        )
    for kind in SCREEN_KINDS:
        found = samples.get(kind, [])
        if found:
            wall_key = "wall_first_ms"
            if kind in BUILT_OVER_FRAMES:
                wall_key = "wall_last_ms"
                rows.append(
                    Row(
                        f"{kind}, 1st frame",
                        Stat.of(column(found, "first_frame_cpu_ms")),
                        wall=Stat.of(column(found, "wall_first_ms")),
                    )
                )
            rows.append(
                Row(
                    kind,
                    Stat.of(column(found, "cpu_ms")),
                    Stat.of(column(found, "draw_ms")),
                    Stat.of(column(found, "frames")),
                    Stat.of(column(found, wall_key)),
                )
            )
    release = samples.get("memory release", [])
    if release:
        rows.append(
            Row(
                "memory release",
                Stat.of(column(release, "cpu_ms"), warm=False),
                wall=Stat.of(column(release, "wall_first_ms"), warm=False),
            )
        )
    return rows


HEADER = (
    f"{'':22} {'':4} {'n':>3} {'app CPU, ms':>20}  "
    + "  ".join(f"{name + f' ×{factor}':>15}" for name, factor in PI_FACTORS)
    + f"  {'GL draw CPU':>15} {'frames':>6} {'wall, ms':>15}"
)
SUBHEADER = (
    f"{'interaction':22} {'':4} {'':>3} {'median':>6} {'p99':>6} {'first':>6}  "
    + "  ".join(f"{'median':>7} {'p99':>7}" for _ in PI_FACTORS)
    + f"  {'median':>7} {'p99':>7} {'median':>6} {'median':>7} {'p99':>7}"
)


def format_row(row: Row, backend: str) -> str:
    cpu = row.cpu
    text = f"{row.label:22} {backend:4} {cpu.n if cpu else 0:>3} "
    text += f"{ms(cpu.median if cpu else None)} {ms(cpu.p99 if cpu else None)} "
    text += f"{ms(cpu.first if cpu else None)}  "
    text += "  ".join(
        f"{ms(cpu.median * f if cpu and row.scale else None, 7)} "
        f"{ms(cpu.p99 * f if cpu and row.scale else None, 7)}"
        for _, f in PI_FACTORS
    )
    draw = row.draw
    text += f"  {ms(draw.median if draw else None, 7)} {ms(draw.p99 if draw else None, 7)}"
    frames = row.frames
    text += f" {format(frames.median, 'g') if frames else '-':>6}"
    wall = row.wall
    text += f" {ms(wall.median if wall else None, 7)} {ms(wall.p99 if wall else None, 7)}"
    return text.rstrip()


def journal_line(figures: dict[str, Any]) -> str | None:
    samples = [
        s
        for kind in ("die", "touch")
        for s in figures.get("samples", {}).get(kind, [])
        if s.get("journal_wall_ms") is not None
    ]
    wall = Stat.of(column(samples, "journal_wall_ms"), warm=False)
    cpu = Stat.of(column(samples, "journal_cpu_ms"), warm=False)
    if wall is None or cpu is None:
        return None
    waits = [s["journal_wall_ms"] - s["journal_cpu_ms"] for s in samples if "journal_cpu_ms" in s]
    wait = Stat.of(waits, warm=False)
    assert wait is not None
    return (
        f"journal commit per move (wall): median {wall.median:.2f} ms, p99 {wall.p99:.2f} ms; "
        f"of it waiting for the storage (fsync, not CPU) median {wait.median:.2f} ms, "
        f"p99 {wait.p99:.2f} ms; CPU median {cpu.median:.2f} ms "
        f"(journal on {figures.get('filesystem', '?')})"
    )


def instructions_line(figures: dict[str, Any]) -> str | None:
    """The app's work in instructions (bench/instructions.py): unlike CPU time, the same
    on a busy machine, so it is what to compare before and after a change."""
    samples: dict[str, list[dict[str, Any]]] = figures.get("samples", {})
    parts = []
    for kind, key, label in (
        ("touch", "first_frame_instr_m", "touch → highlight"),
        ("touch", "instr_m", "touch → settled"),
        ("die", "led_instr_m", "die → LED"),
        ("die", "journal_instr_m", "of it the journal's commit"),
        ("die", "instr_m", "die → screen"),
        *(
            (kind, key, f"{kind}{suffix}")
            for kind in BUILT_OVER_FRAMES
            for key, suffix in (("first_frame_instr_m", ", 1st frame"), ("instr_m", ""))
        ),
    ):
        found = Stat.of(column(samples.get(kind, []), key))
        if found is not None and found.median > 0:
            parts.append(f"{label} median {found.median:.2f} M, p99 {found.p99:.2f} M")
    if not parts:
        return None
    return "instructions of the main thread (user space; repeatable under load): " + "; ".join(
        parts
    )


def print_results(results: dict[str, dict[str, dict[str, Any]]]) -> None:
    print(
        "app CPU = thread_time of the main thread, handling only (no GL draw); "
        "Pi columns = app CPU × 5 (Pi 4) and × 10 (Pi Zero 2 W);\n"
        "GL draw CPU = on_draw + flip of the frames the interaction drew (real: llvmpipe "
        "rasterising here, a Pi's GPU does that; mock: Kivy's canvas walk only);\n"
        "wall = from the touch in Kivy's input phase (the die landing on the pty, at any "
        "moment of a frame) to the first frame drawn (to the LEDs' show());\n"
        "'first' = the first sample, left out of median and p99."
    )
    for game, backends in results.items():
        print()
        some = next((f for f in backends.values() if "failed" not in f), {})
        target = some.get("touch_target", "?")
        print(f"== {game} (touch: {target})")
        for backend, figures in backends.items():
            if "failed" in figures:
                print(f"   {backend}: FAILED: {figures['failed'].strip().splitlines()[-1]}")
                continue
            print(
                f"   {backend}: renderer {figures.get('renderer')}, {figures.get('fps')} fps, "
                f"child {figures.get('seconds', 0):.0f} s"
            )
        print(HEADER)
        print(SUBHEADER)
        for backend, figures in backends.items():
            if "failed" in figures:
                continue
            for row in rows_of(figures):
                print(format_row(row, backend))
        for backend, figures in backends.items():
            line = journal_line(figures) if "failed" not in figures else None
            if line:
                print(f"   {backend}: {line}")
            line = instructions_line(figures) if "failed" not in figures else None
            if line:
                print(f"   {backend}: {line}")
            missed = figures.get("missed") or {}
            if missed:
                print(f"   {backend}: not measured (the tap or roll did not act): {missed}")
            unsettled = {
                kind: n
                for kind, found in figures.get("samples", {}).items()
                if (n := sum(1 for sample in found if sample.get("unsettled")))
            }
            if unsettled:
                print(
                    f"   {backend}: still drawing when the measurement gave up (counted up to "
                    f"then): {unsettled}"
                )
            for note in figures.get("notes", []):
                print(f"   {backend}: note: {note}")
    print()
    print_targets(results)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def print_targets(results: dict[str, dict[str, dict[str, Any]]]) -> None:
    print(
        f"targets (app CPU on this machine): touch → highlight ≤ {TOUCH_TARGET[0]:g} ms median, "
        f"≤ {TOUCH_TARGET[1]:g} ms p99 in every game; die → LED ≤ {DIE_TARGET:g} ms p99 "
        "(all but the fsync; the commit's\n"
        "   thread time — SQLite, and the kernel's write and fsync work, about half each"
        " here — is taken out whole: its user part is in the instructions line)"
    )
    for game, backends in results.items():
        for backend, figures in backends.items():
            if "failed" in figures:
                continue
            touches = figures.get("samples", {}).get("touch", [])
            touch = Stat.of(column(touches, "first_frame_cpu_ms"))
            settled = Stat.of(column(touches, "cpu_ms"))
            largest = Stat.of(column(touches, "largest_frame_cpu_ms"))
            rolls = figures.get("samples", {}).get("die", [])
            die = Stat.of(column(rolls, "led_cpu_ms"))
            outside = Stat.of(
                [
                    s["led_cpu_ms"] - s.get("journal_cpu_ms", 0.0)
                    for s in rolls
                    if s.get("led_cpu_ms") is not None
                ]
            )
            parts = []
            if touch is not None:
                ok = touch.median <= TOUCH_TARGET[0] and touch.p99 <= TOUCH_TARGET[1]
                parts.append(f"touch {touch.median:.2f} / {touch.p99:.2f} ms: {verdict(ok)}")
            if settled is not None and largest is not None:
                # The budget is a frame's: the column that follows a frame later has its own.
                ok = largest.median <= TOUCH_TARGET[0] and largest.p99 <= TOUCH_TARGET[1]
                parts.append(
                    f"settled {settled.median:.2f} / {settled.p99:.2f} ms, its largest frame"
                    f" {largest.median:.2f} / {largest.p99:.2f} ms: {verdict(ok)}"
                )
            if die is not None and outside is not None:
                parts.append(
                    f"die → LED p99 {die.p99:.2f} ms, outside the journal's commit"
                    f" {outside.p99:.2f} ms: {verdict(outside.p99 <= DIE_TARGET)}"
                )
            elif figures.get("dice") is False:
                parts.append("no dice in this game")
            print(f"   {game:14} {backend:4}  " + ";  ".join(parts))


def print_comparison(
    plain: dict[str, dict[str, dict[str, Any]]],
    pinned: dict[str, dict[str, dict[str, Any]]],
    profile: PiProfile,
    report: str,
) -> None:
    print()
    print(f"== --pi-profile: {profile.describe()}")
    print(f"   {report}")
    for note in profile.notes:
        print(f"   note: {note}")
    print(
        "   app CPU is thread time: a quota adds waiting, not work, so it should stay "
        "close; wall times are what the quota and the shared core stretch."
    )
    print(
        f"{'':22} {'':4} {'app CPU median, ms':>22}   {'wall median, ms':>24}   "
        f"{'wall p99, ms':>17}"
    )
    print(
        f"{'interaction':22} {'':4} {'plain':>9} {'pi-profile':>12}   {'plain':>7} "
        f"{'pi-profile':>10} {'ratio':>5}   {'plain':>7} {'pi-profile':>9}"
    )
    for game, backends in plain.items():
        print(f"-- {game}")
        for backend, figures in backends.items():
            other = pinned.get(game, {}).get(backend, {})
            if "failed" in figures or "failed" in other:
                why = other.get("failed") or figures.get("failed") or ""
                print(f"   {backend}: FAILED: {why.strip().splitlines()[-1] if why else ''}")
                continue
            theirs = {row.label: row for row in rows_of(other)}
            for row in rows_of(figures):
                them = theirs.get(row.label)
                if them is None:
                    continue
                ratio = (
                    f"{them.wall.median / row.wall.median:5.1f}"
                    if row.wall and them.wall and row.wall.median > 0
                    else "    -"
                )
                print(
                    f"{row.label:22} {backend:4} {ms(row.cpu.median if row.cpu else None, 9)} "
                    f"{ms(them.cpu.median if them.cpu else None, 12)}   "
                    f"{ms(row.wall.median if row.wall else None, 7)} "
                    f"{ms(them.wall.median if them.wall else None, 10)} {ratio}   "
                    f"{ms(row.wall.p99 if row.wall else None, 7)} "
                    f"{ms(them.wall.p99 if them.wall else None, 9)}"
                )


# --- cProfile -----------------------------------------------------------------------------


def package_dirs() -> dict[str, list[str]]:
    """Where each group of code lives, to sort profile entries by owner."""
    found: dict[str, list[str]] = {}
    for group, names in (
        ("companion", ["companion"]),
        ("firmware_bridge", ["firmware_bridge"]),
        ("kiosk", ["kiosk"]),
        ("kivy", ["kivy"]),
        ("pydantic", ["pydantic", "pydantic_core"]),
    ):
        for name in names:
            spec = importlib.util.find_spec(name)
            for location in (spec.submodule_search_locations or []) if spec else []:
                found.setdefault(group, []).append(os.path.realpath(location) + os.sep)
    found["bench"] = [str(BENCH_DIR) + os.sep]
    found["stdlib"] = [os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep]
    return found


def owner(key: tuple[str, int, str], dirs: dict[str, list[str]]) -> str:
    filename, _line, name = key
    if filename == "~":  # a C function: a builtin, or a Cython method of Kivy's
        if "kivy." in name:
            return "kivy"
        if "sqlite3" in name:
            return "sqlite3"
        if "pydantic" in name:
            return "pydantic"
        return "builtins"
    path = os.path.realpath(filename)
    for group in ("companion", "firmware_bridge", "kiosk", "kivy", "pydantic", "bench"):
        if any(path.startswith(prefix) for prefix in dirs.get(group, [])):
            return group
    if any(path.startswith(prefix) for prefix in dirs["stdlib"]):
        return "stdlib"
    return "other"


def where(key: tuple[str, int, str]) -> str:
    filename, line, name = key
    if filename == "~":
        return name
    path = Path(filename)
    try:
        shown = str(path.resolve().relative_to(ROOT))
    except ValueError:
        shown = path.name
    return f"{shown}:{line}({name})"


def profiled_samples(figures: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The samples of the interactions ``--profile kind`` covered."""
    samples = figures.get("samples", {})
    return [s for found in PROFILE_KINDS[kind] for s in samples.get(found, [])]


def print_sections(figures: dict[str, Any], kind: str, game: str, count: int) -> None:
    """Instructions per interaction of each function ``--sections`` named."""
    samples = profiled_samples(figures, kind)
    handled = [s["instr_m"] for s in samples if s.get("instr_m")]
    counted = PROFILE_COUNTED[kind]
    print(
        f"instructions per {kind} of {game} on the mock GL backend ({count} {counted}; "
        f"outermost calls only, the wrappers' own reads included)"
    )
    first = [s["first_frame_instr_m"] for s in samples if s.get("first_frame_instr_m")]
    if handled:
        print(f"   the whole handling: median {statistics.median(handled):.2f} M")
    if first:
        print(f"   up to the first frame drawn: median {statistics.median(first):.2f} M")
    counter = figures.get("counted", True)
    if not counter:
        print(
            "   no instruction counter on this machine (bench/instructions.py): "
            "the calls are counted, the instructions left out"
        )
    print("   per interaction: in all, of it before the first frame, calls")
    for target, (instr, calls, before) in figures.get("sections", {}).items():
        per, early = instr / 1e6 / max(count, 1), before / 1e6 / max(count, 1)
        spent = f"{per:7.3f} M  {early:7.3f} M" if counter else f"{'—':>9}  {'—':>9}"
        print(f"   {spent}  {calls / max(count, 1):5.1f} calls  {target}")


def print_profile(path: Path, kind: str, game: str, count: int, top: int) -> None:
    stats = pstats.Stats(str(path))
    table: dict[tuple[str, int, str], tuple[int, int, float, float, Any]]
    table = stats.stats  # type: ignore[attr-defined]
    dirs = package_dirs()
    by_owner: dict[str, float] = {}
    for key, (_cc, _nc, tottime, _cumtime, _callers) in table.items():
        group = owner(key, dirs)
        by_owner[group] = by_owner.get(group, 0.0) + tottime
    total = sum(by_owner.values())
    what, start = {
        "touch": ("touches", "the touch entering Kivy's input phase"),
        "die": ("rolls", "the hub's first drain after the roll"),
        "screens": ("screen changes", "the screen's handler in Kivy's input phase"),
    }[kind]
    print(
        f"cProfile of {count} {what} of {game} on the mock GL backend, in thread CPU time: "
        f"the handling only, from {start} to the window's on_draw, over every frame the "
        "interaction takes"
    )
    print(
        f"profiled {1000 * total:.1f} ms in all, {1000 * total / max(count, 1):.2f} ms per "
        f"{kind} (with cProfile's own overhead: several times the unprofiled figure)"
    )
    print("own time by owner (tottime; Kivy's Cython code counts where cProfile sees it):")
    for group, seconds in sorted(by_owner.items(), key=lambda item: -item[1]):
        print(f"   {group:16} {1000 * seconds:9.2f} ms  {100 * seconds / max(total, 1e-9):5.1f} %")
    print(f"top {top} functions of {', '.join(PROJECT_PACKAGES)} by cumulative time:")
    print(f"   {'calls':>9} {'own ms':>9} {'cum ms':>9} {'cum/' + kind:>10}  function")
    own = [(key, value) for key, value in table.items() if owner(key, dirs) in PROJECT_PACKAGES]
    own.sort(key=lambda item: -item[1][3])
    for key, (cc, nc, tottime, cumtime, _callers) in own[:top]:
        calls = f"{nc}/{cc}" if nc != cc else str(nc)
        print(
            f"   {calls:>9} {1000 * tottime:9.2f} {1000 * cumtime:9.2f} "
            f"{1000 * cumtime / max(count, 1):10.3f}  {where(key)}"
        )


# --- main -------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short run (≈30 s here): fewer samples, the mock backend only",
    )
    parser.add_argument("--touches", type=int, default=None, help="touches per game (20)")
    parser.add_argument("--rolls", type=int, default=None, help="die rolls per game (15)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds of screen changes (3)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game names")
    parser.add_argument(
        "--backend",
        choices=("both", "real", "mock"),
        default=None,
        help="Kivy's GL backend(s) (default both; mock with --quick)",
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help="where the journals go (default a temporary folder)"
    )
    parser.add_argument("--json", action="store_true", help="print every sample as JSON")
    parser.add_argument(
        "--profile",
        choices=tuple(PROFILE_KINDS),
        default=None,
        help="cProfile the handling of one game's touches, rolls or screen changes",
    )
    parser.add_argument("--game", default="kolossus", help="the game for --profile")
    parser.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    parser.add_argument(
        "--profile-save", type=Path, default=None, help="keep --profile's pstats file here"
    )
    parser.add_argument(
        "--sections",
        default=None,
        help=(
            "with --profile: instead of cProfile, the instructions of these functions "
            "(comma-separated module:Qual.name) per interaction, unprofiled"
        ),
    )
    add_arguments(parser)
    return parser.parse_args(argv)


def settings_of(args: argparse.Namespace) -> Settings:
    quick = args.quick
    backend = args.backend or ("mock" if quick else "both")
    games = tuple(g.strip() for g in args.games.split(",") if g.strip())
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise SystemExit(f"unknown game(s): {', '.join(unknown)} (known: {', '.join(GAMES)})")
    return Settings(
        touches=args.touches if args.touches is not None else (6 if quick else 20),
        rolls=args.rolls if args.rolls is not None else (4 if quick else 15),
        rounds=args.rounds if args.rounds is not None else (1 if quick else 3),
        games=games,
        backends=("real", "mock") if backend == "both" else (backend,),
    )


def progress(text: str) -> None:
    print(f"   … {text}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    settings = settings_of(args)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp_name:
        tmp = Path(tmp_name)
        if args.profile:
            if args.game not in GAMES:
                raise SystemExit(f"unknown game: {args.game}")
            out = tmp / "profile.pstats"
            sections = [s.strip() for s in (args.sections or "").split(",") if s.strip()]
            try:
                figures = run_game(
                    args.game,
                    "mock",
                    settings,
                    tmp,
                    profile=args.profile,
                    profile_out=out,
                    sections=sections,
                )
            except (ChildFailed, subprocess.TimeoutExpired) as error:
                print(error, file=sys.stderr)
                return 1
            kind = args.profile
            count = len(profiled_samples(figures, kind))
            if sections:
                if args.json:  # each sample with its sections' instructions
                    print(json.dumps(figures, indent=1))
                    return 0
                print_sections(figures, kind, args.game, count)
                return 0
            if not out.exists() or not count:
                print(f"nothing was profiled: {figures.get('notes') or 'no samples'}")
                return 1
            print_profile(out, kind, args.game, count, args.top)
            if args.profile_save:
                shutil.copyfile(out, args.profile_save)
                print(f"the whole profile (pstats) is saved in {args.profile_save}")
            return 0
        results = run_all(settings, tmp, progress=progress)
        pinned: dict[str, dict[str, dict[str, Any]]] | None = None
        profile: PiProfile | None = None
        report = ""
        if args.pi_profile:
            with pi_profile(args.pi_slowdown) as profile:
                progress(f"pi-profile: {profile.describe()}")
                pinned = run_all(settings, tmp, profile, progress=progress)
                report = profile.report()
    if args.json:
        print(json.dumps({"plain": results, "pi_profile": pinned}, indent=1))
        return 0
    print_results(results)
    if pinned is not None and profile is not None:
        print_comparison(results, pinned, profile, report)
    print(f"\nwhole run {time.perf_counter() - started:.0f} s")
    failed = any("failed" in f for backends in results.values() for f in backends.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
