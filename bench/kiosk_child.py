"""What the kiosk benches share: the real ``CompanionApp`` run in a child process.

The parent side (no Kivy imported here at module level, so a bench's parent process
stays light):

* :func:`child_environment` — the environment of a child: the app's own Kivy settings
  (``kiosk.kivy_env.kivy_environment``: 30 fps, no MSAA, llvmpipe on the main thread),
  quiet logs, a private ``KIVY_HOME``, offscreen without ``DISPLAY``, and Kivy's mock
  GL backend when nothing is to be drawn;
* :func:`write_config` — a ``companion.toml`` with the data directory set;
* :func:`run_child` — runs a child script and returns the JSON object it printed on a
  line starting with :data:`MARK` (``preexec`` runs in the child before it starts: the
  ``--pi-profile`` pinning, see ``bench/pi_profile.py``).

The child side (call these only inside the child, after Kivy's environment is set):

* :func:`input_queue` — a Kivy input provider that hands touches (and callables) to
  Kivy in its input phase, as the panel's own provider hands over touches, rather than
  from a clock callback (which runs earlier in the frame);
* :class:`FrameMeter` — the main thread's CPU of every frame, split at the start of
  the window's drawing (see its docstring).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from instructions import ThreadCounter, thread_counter

from kiosk.kivy_env import kivy_environment

ROOT = Path(__file__).resolve().parents[1]
BENCH_DIR = ROOT / "bench"
#: A child's figures: one line ``BENCH {json}`` on its standard output.
MARK = "BENCH "


class ChildFailed(RuntimeError):
    """A child process ended without printing its figures (its stderr's tail)."""


def child_environment(
    kivy_home: Path, *, draw: bool = True, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a child running the app (``draw=False``: Kivy's mock GL
    backend — the same widgets, textures and game, but nothing reaches the GL driver)."""
    env = dict(os.environ if base is None else base)
    # The project and the bench folder (for ``import kiosk_child`` in the child).
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(BENCH_DIR)])
    if not draw:
        env["KIVY_GL_BACKEND"] = "mock"
    # Optimised as scripts/start and the Pi's service run the app (unless set already).
    env.setdefault("PYTHONOPTIMIZE", "2")
    kivy_home.mkdir(parents=True, exist_ok=True)
    env.update(kivy_environment(env, quiet=True, kivy_home=kivy_home, headless=True))
    return env


def write_config(path: Path, data_dir: Path, extra: str = "") -> Path:
    """A configuration file: the defaults, with ``data_dir`` set (and ``extra`` TOML)."""
    path.write_text(f'data_dir = "{data_dir}"\n{extra}', encoding="utf-8")
    return path


def run_child(
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    timeout: float,
    preexec: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Run ``python argv…`` from the repository root; the figures it printed."""
    result = subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=preexec,
        check=False,
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith(MARK)]
    if result.returncode != 0 or not lines:
        raise ChildFailed(
            f"{Path(argv[0]).name} exited with {result.returncode}:\n{result.stderr[-3000:]}"
        )
    figures: dict[str, Any] = json.loads(lines[-1][len(MARK) :])
    return figures


def print_figures(figures: Mapping[str, Any]) -> None:
    """The child's side of :func:`run_child`."""
    print(MARK + json.dumps(figures), flush=True)


# --- child side -------------------------------------------------------------------------


def input_queue() -> Any:
    """A Kivy input provider, added to the event loop, that runs what it is given in
    Kivy's input phase: ``tap(touch, reached)`` dispatches a touch down and up (calling
    ``reached()`` just before), ``call(fn)`` runs ``fn()`` where a touch would be
    handled. Touches are handed over there, as the panel's provider hands them over,
    not from a clock callback (which runs earlier in the frame, where work a touch
    schedules for later would still land in the same frame)."""
    from kivy.base import EventLoop
    from kivy.input.provider import MotionEventProvider

    class InputQueue(MotionEventProvider):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__("bench", None)
            self.waiting: list[Callable[[Callable[..., Any]], None]] = []

        def tap(self, touch: Any, reached: Callable[[], None]) -> None:
            def dispatch(dispatch_fn: Callable[..., Any]) -> None:
                reached()
                dispatch_fn("begin", touch)
                dispatch_fn("end", touch)

            self.waiting.append(dispatch)

        def call(self, fn: Callable[[], None]) -> None:
            self.waiting.append(lambda _dispatch_fn: fn())

        def update(self, dispatch_fn: Callable[..., Any]) -> None:
            while self.waiting:
                self.waiting.pop(0)(dispatch_fn)

    queue = InputQueue()
    EventLoop.add_input_provider(queue)
    return queue


@dataclass(frozen=True, slots=True)
class FrameTimes:
    """One pass of Kivy's main loop, in ``time.thread_time()`` of the main thread (and,
    where the CPU's counter can be read, in instructions: ``instr_*``)."""

    number: int
    start: float  # EventLoop.idle entered
    draw_start: float | None  # the window's on_draw began (None: nothing to draw)
    end: float  # EventLoop.idle returned: drawn and flipped
    wall_end: float  # time.perf_counter() then
    instr_start: int = 0
    instr_draw: int | None = None
    instr_end: int = 0

    @property
    def drew(self) -> bool:
        return self.draw_start is not None

    @property
    def draw_cpu(self) -> float:
        return 0.0 if self.draw_start is None else self.end - self.draw_start


class FrameMeter:
    """The main thread's CPU per frame, split into handling and drawing.

    The hook: Kivy's main loop calls ``EventLoop.idle()`` once per frame, and ``idle``
    ticks the clock (callbacks, among them the hardware hub's drain), dispatches input,
    runs what that scheduled before the frame (``Clock.tick_draw``: layouts, label
    textures, triggers) and then — only when a canvas changed — dispatches the window's
    ``on_draw`` (clear, ``render_context.draw()``: the GL calls) and ``on_flip`` (the
    buffer swap; with llvmpipe the software rasterising ends there). Nothing but the
    listener check follows. So ``idle`` is wrapped (an instance attribute on
    ``EventLoop``, which ``mainloop`` calls as ``self.idle()``), and a callback bound to
    the window's ``on_draw`` notes the thread time where drawing starts: Kivy calls
    bound callbacks before the window's own ``on_draw``. A frame's GL draw is then
    ``end - draw_start`` and everything before ``draw_start`` is handling. Frames in
    which nothing changed draw nothing. A frame starts when the clock's sleep (to hold
    30 fps) ends: ``Clock.idle`` is wrapped too, and the thread time of waking up is
    not the app's.

    ``listeners`` are called after every frame with its :class:`FrameTimes`; their own
    time falls outside every frame.
    """

    def __init__(self) -> None:
        self.frames = 0
        self.listeners: list[Callable[[FrameTimes], None]] = []
        self.on_frame_start: list[Callable[[], None]] = []
        self.on_draw_start: list[Callable[[], None]] = []
        self._draw_start: float | None = None
        self._instr_draw: int | None = None
        self._start = 0.0
        self._instr_start = 0

    def install(self) -> None:
        from kivy.base import EventLoop
        from kivy.clock import Clock
        from kivy.core.window import Window

        original = EventLoop.idle
        clock_idle = Clock.idle

        def idle() -> Any:
            self._draw_start = self._instr_draw = None
            self._start = time.thread_time()
            self._instr_start = instructions()
            try:
                return original()
            finally:
                instr_end = instructions()
                end = time.thread_time()
                wall = time.perf_counter()
                self.frames += 1
                frame = FrameTimes(
                    self.frames,
                    self._start,
                    self._draw_start,
                    end,
                    wall,
                    self._instr_start,
                    self._instr_draw,
                    instr_end,
                )
                for listener in list(self.listeners):
                    listener(frame)

        def clock_sleep_then_start() -> Any:
            # The frame's work starts when the clock's sleep ends (Kivy ticks the clock
            # first thing in a frame): waking up is charged to the thread (on a virtual
            # machine with a counter open, 40-80 µs for a frame's sleep), not the app's.
            try:
                return clock_idle()
            finally:
                for hook in self.on_frame_start:
                    hook()
                self._start = time.thread_time()
                self._instr_start = instructions()

        EventLoop.idle = idle
        Clock.idle = clock_sleep_then_start
        Window.bind(on_draw=self._drawing)

    def _drawing(self, *_: Any) -> None:
        for hook in self.on_draw_start:
            hook()
        self._instr_draw = instructions()
        self._draw_start = time.thread_time()


_COUNTER: list[ThreadCounter | None] = []


def instructions() -> int:
    """User-space instructions the main thread has executed so far (0 where the CPU's
    counter cannot be read: ``bench/instructions.py``). Call it first from the main
    thread: the counter counts the thread that opened it."""
    if not _COUNTER:
        _COUNTER.append(thread_counter())
    counter = _COUNTER[0]
    return 0 if counter is None else counter.read()


def counted() -> bool:
    """Whether :func:`instructions` counts anything on this machine."""
    instructions()
    return _COUNTER[0] is not None
