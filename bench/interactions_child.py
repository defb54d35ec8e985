"""The child process of ``bench/bench_interactions.py``: one game in the real app, measured.

    python bench/interactions_child.py SPEC_JSON     (the parent writes the spec)

Runs ``CompanionApp`` with the simulated devices ``./scripts/start`` runs (the tray on a
pty read by the real serial reader, MockFactory buttons, the LED animator and the
simulated strip), offscreen, and drives it from the end of each frame (a generator
advanced by :class:`kiosk_child.FrameMeter`'s listener, so the bench's own work falls
outside every measured frame). Each measured interaction starts where the app's own
handling starts — a touch in Kivy's input phase (:func:`kiosk_child.input_queue`), the
hub's first drain after a die lands (rolled on the simulated tray from a timer thread, at
a seeded random moment of a frame), a screen's handler called in the input phase as a
button's ``on_release`` calls it — and ends when the window has drawn nothing for two
frames. Over that span it sums, in ``time.thread_time()`` of the main thread, the
handling (every frame's work before the window's ``on_draw``) and the GL draw
(``on_draw`` and the flip), counting only frames that drew or did part of the work (idle
frames between are left out). Prints one ``BENCH {json}`` line with every sample.
"""

from __future__ import annotations

import os

from kiosk.kivy_env import kivy_environment

assert not kivy_environment(os.environ), "the parent sets the app's Kivy environment"

import cProfile  # noqa: E402
import functools  # noqa: E402
import gc  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
from collections import deque  # noqa: E402
from collections.abc import Callable, Generator, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from kiosk_child import (  # noqa: E402
    FrameMeter,
    FrameTimes,
    counted,
    input_queue,
    instructions,
    print_figures,
)

SPEC: dict[str, Any] = json.loads(sys.argv[1])
GAME: str = SPEC["game"]
PROFILE: str | None = SPEC.get("profile")
#: ``--sections``: functions whose instructions are summed over the profiled kind.
SECTIONS: list[str] = SPEC.get("sections") or []

from kivy.core.window import Window  # noqa: E402, F401  (creates the window and GL context)
from kivy.graphics.opengl import GL_RENDERER, glGetString  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

from companion.bot import RandomBot  # noqa: E402
from companion.highlights import Role  # noqa: E402
from companion.rules import Rules  # noqa: E402
from firmware_bridge.rig import build_rig  # noqa: E402
from kiosk.app import CompanionApp, Kiosk  # noqa: E402
from kiosk.settings import load_config  # noqa: E402
from kiosk.widgets.lists import ActionRow  # noqa: E402

OUT: dict[str, Any] = {"game": GAME, "samples": {}, "missed": {}, "notes": []}
try:
    OUT["renderer"] = glGetString(GL_RENDERER).decode(errors="replace")
except Exception:  # the mock GL backend has no renderer string
    OUT["renderer"] = ""
OUT["renderer"] = OUT["renderer"] or "none (mock GL backend)"

SCREENS = "screens"
"""``--profile screens``: every screen change (home → setup, setup → play …)."""
#: The interactions ``--profile`` covers (the parent's ``PROFILE_KINDS``).
PROFILED_KINDS: frozenset[str] = frozenset(SPEC.get("profile_kinds") or ())


def profiled(kind: str) -> bool:
    """Whether ``--profile`` covers an interaction of ``kind``."""
    return kind in PROFILED_KINDS


#: Quiet frames that end an interaction; longest an interaction may take to settle.
QUIET_FRAMES = 2
SETTLE_TIMEOUT_S = 6.0 * float(SPEC.get("slowdown", 1.0))
#: A tap inside a ScrollView (the action menu) reaches its button 0.2 s later (Kivy
#: waits to tell a tap from a scroll); the measurement waits that out.
SCROLL_TAP_WAIT_S = 0.25
#: A person looks at a new position before touching it: the board's work while still
#: (its destination layers, kiosk/widgets/board.py PREMAKE_AFTER_S) is done by then.
LOOK_S = 0.6
#: The kiosk hands freed memory back once the window drew nothing for 1 s; how long
#: the bench waits for that at most.
STILL_WAIT_S = 3.0
#: One frame at the app's 30 fps.
FRAME_S = 1 / 30


class Measure:
    """The main thread's CPU one interaction costs, over the frames it takes."""

    def __init__(self, kind: str, profiler: cProfile.Profile | None) -> None:
        self.kind = kind
        self.profiler = profiler
        self.active = False
        self.done = False
        self.handling = 0.0
        self.draw = 0.0
        self.handling_instr = 0  # the same span in instructions (0: no counter)
        self.frames = 0
        self.quiet = 0
        self.wall_start = 0.0
        self.first_shown: float | None = None
        self.last_shown: float | None = None
        #: the handling up to the first frame drawn (the highlight's, or the played
        #: action's): what the players see within a frame; the rest (the play screen's
        #: middle column a frame later, on purpose) follows it
        self.first_frame: float | None = None
        self.first_frame_instr: int | None = None
        #: the most handling any one of its frames did: the frame budget is per frame
        self.largest_frame = 0.0
        self.extra: dict[str, Any] = {}
        self._segment: float | None = None
        self._segment_instr: int | None = None
        self._marked = False

    def begin(self, wall_start: float | None = None) -> None:
        """The interaction's handling starts now (inside a frame)."""
        self._segment = time.thread_time()
        self._segment_instr = instructions()
        self.wall_start = time.perf_counter() if wall_start is None else wall_start
        self.active = True
        self._marked = True
        if self.profiler is not None:
            self.profiler.enable()

    def mark(self) -> None:
        """Part of the work happened in this frame: count it even if nothing is drawn."""
        self._marked = True

    def frame_start(self) -> None:
        if self.active and not self.done and self.profiler is not None:
            self.profiler.enable()

    def draw_start(self) -> None:
        if self.profiler is not None:
            self.profiler.disable()

    def feed(self, frame: FrameTimes) -> None:
        if self.profiler is not None:
            self.profiler.disable()
        if not self.active or self.done:
            return
        segment = self._segment if self._segment is not None else frame.start
        if frame.drew or self._marked:
            stop = frame.draw_start if frame.draw_start is not None else frame.end
            self.handling += stop - segment
            self.largest_frame = max(self.largest_frame, stop - segment)
            first = self._segment_instr if self._segment_instr is not None else frame.instr_start
            last = frame.instr_draw if frame.instr_draw is not None else frame.instr_end
            self.handling_instr += last - first
            self.draw += frame.draw_cpu
            self.frames += 1
        if frame.drew:
            self.quiet = 0
            if self.first_shown is None:
                self.first_shown = frame.wall_end
                self.first_frame = self.handling
                self.first_frame_instr = self.handling_instr
            self.last_shown = frame.wall_end
        else:
            self.quiet += 1
        self._segment = None
        self._segment_instr = None
        self._marked = False

    def settled(self, min_wait: float, done: Callable[[], bool] | None = None) -> bool:
        return (
            self.active
            and self.quiet >= QUIET_FRAMES
            and time.perf_counter() - self.wall_start >= min_wait
            and (done is None or done())
        )

    def sample(self) -> dict[str, Any]:
        def since(at: float | None) -> float | None:
            return None if at is None else round(1000 * (at - self.wall_start), 3)

        return {
            "cpu_ms": round(1000 * self.handling, 4),
            "instr_m": round(self.handling_instr / 1e6, 4),
            "first_frame_cpu_ms": None
            if self.first_frame is None
            else round(1000 * self.first_frame, 4),
            "first_frame_instr_m": None
            if self.first_frame_instr is None
            else round(self.first_frame_instr / 1e6, 4),
            "largest_frame_cpu_ms": round(1000 * self.largest_frame, 4),
            "draw_ms": round(1000 * self.draw, 4),
            "frames": self.frames,
            "wall_first_ms": since(self.first_shown),
            "wall_last_ms": since(self.last_shown),
            **self.extra,
        }


class Bench:
    """Drives the app from the end of each frame and keeps the samples."""

    def __init__(self, app: BenchApp) -> None:
        self.app = app
        kiosk = app.kiosk
        assert kiosk is not None
        self.kiosk: Kiosk = kiosk
        self.meter = FrameMeter()
        self.queue = input_queue()
        self.recent: deque[bool] = deque(maxlen=QUIET_FRAMES)
        self.measure: Measure | None = None
        self.die: Measure | None = None  # armed for the next roll
        self.die_actions = 0  # actions in the session when the roll was made
        self.pump_cpu = 0.0  # thread time in the hub's drains since the roll
        self.pump_start = 0.0
        self.pump_instr = 0  # the same in instructions
        self.pump_instr_start = 0
        self.bot = RandomBot(8)
        self.phase = random.Random(8)  # when in a frame each die lands
        # CPU time, as everywhere here: the clock's sleep between frames is not work.
        self.profiler = cProfile.Profile(time.thread_time) if PROFILE and not SECTIONS else None
        self.script = self.run()
        self._wrap()
        self.sections = {target: self._section(target) for target in SECTIONS}
        gc.callbacks.append(self._collected)
        self.meter.listeners.append(self.after_frame)
        self.meter.on_frame_start.append(self._frame_start)
        self.meter.on_draw_start.append(self._draw_start)
        self.meter.install()

    # --- hooks --------------------------------------------------------------------------

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        """Python's collector ran: the generation it collected goes in the sample it ran
        in (a young collection costs ≈1.3–1.5 M instructions: most p99 samples)."""
        for measure in (self.measure, self.die):
            if phase == "start" and measure is not None and measure.active and not measure.done:
                measure.extra.setdefault("collections", []).append(info["generation"])

    def _wrap(self) -> None:
        kiosk, rig = self.kiosk, self.app.rig
        pump = kiosk.pump

        def measured_pump() -> int:
            die = self.die
            if die is None:
                return pump()
            if not die.active:
                die.begin(wall_start=die.wall_start)  # the first drain after the roll
            die.mark()
            self.pump_start = time.thread_time()
            self.pump_instr_start = instructions()
            try:
                return pump()
            finally:
                self.pump_instr += instructions() - self.pump_instr_start
                self.pump_cpu += time.thread_time() - self.pump_start

        kiosk.pump = measured_pump  # type: ignore[method-assign]

        assert rig is not None and rig.animator is not None, "the simulated LEDs run"
        animator = rig.animator
        show = animator.show

        def measured_show(highlights: Any, *, wait_s: float = 0.0) -> None:
            die = self.die
            play = kiosk.play
            if (
                die is not None
                and die.active
                and "led_cpu_ms" not in die.extra
                and play is not None
                and len(play.session.actions) > self.die_actions
            ):
                # The drains since the roll, up to this call: collector, submit (with the
                # journal's commit), highlights. Not the frames' other work.
                led = self.pump_cpu + time.thread_time() - self.pump_start
                led_instr = self.pump_instr + instructions() - self.pump_instr_start
                die.extra["led_cpu_ms"] = round(1000 * led, 4)
                die.extra["led_instr_m"] = round(led_instr / 1e6, 4)
                die.extra["led_wall_ms"] = round(1000 * (time.perf_counter() - die.wall_start), 3)
            show(highlights, wait_s=wait_s)

        animator.show = measured_show  # type: ignore[method-assign]

        journal = kiosk.journal
        append = journal.append

        def measured_append(*args: Any, **kwargs: Any) -> int:
            wall, cpu, instr = time.perf_counter(), time.thread_time(), instructions()
            try:
                return append(*args, **kwargs)
            finally:
                measure = self.measure
                if measure is not None and measure.active:
                    measure.extra["journal_wall_ms"] = round(1000 * (time.perf_counter() - wall), 3)
                    measure.extra["journal_cpu_ms"] = round(1000 * (time.thread_time() - cpu), 4)
                    measure.extra["journal_instr_m"] = round((instructions() - instr) / 1e6, 4)

        journal.append = measured_append  # type: ignore[method-assign]

        app_module: Any = sys.modules["kiosk.navigation"]  # where the Kiosk calls it
        release = app_module.release_freed_memory

        def measured_release() -> bool:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return bool(release())
            finally:
                self.add(
                    "memory release",
                    {
                        "cpu_ms": round(1000 * (time.thread_time() - cpu), 4),
                        "draw_ms": 0.0,
                        "wall_first_ms": round(1000 * (time.perf_counter() - wall), 3),
                    },
                )

        app_module.release_freed_memory = measured_release

    def _section(self, target: str) -> dict[str, list[int]]:
        """Wrap ``module:Qual.name`` so that its instructions (outermost calls, inside
        the profiled kind's interactions) add up as [instructions, calls, instructions
        before the first frame drawn]; a target ending in ``@`` is split by the class of
        its first argument (``self``)."""
        by_class = target.endswith("@")
        module_name, _, qualname = target.rstrip("@").partition(":")
        owner: Any = importlib.import_module(module_name)
        *path, name = qualname.split(".")
        for part in path:
            owner = getattr(owner, part)
        function = getattr(owner, name)
        totals: dict[str, list[int]] = {}
        depth = [0]

        @functools.wraps(function)  # Kivy's WeakMethod finds a method by its name
        def counted(*args: Any, **kwargs: Any) -> Any:
            measure = self.measure
            if depth[0] or measure is None or not measure.active or not profiled(measure.kind):
                return function(*args, **kwargs)
            depth[0] += 1
            start = instructions()
            try:
                return function(*args, **kwargs)
            finally:
                key = type(args[0]).__name__ if by_class and args else ""
                total = totals.setdefault(key, [0, 0, 0])
                spent = instructions() - start
                total[0] += spent
                total[1] += 1
                if measure.first_shown is None:  # the frame that answers the interaction
                    total[2] += spent
                # Each sample's own share too (``--json``): what its p99 samples spent.
                label = f"{target.rstrip('@')} {key}".strip()
                shares = measure.extra.setdefault("sections", {})
                shares[label] = shares.get(label, 0) + spent
                depth[0] -= 1

        setattr(owner, name, counted)
        return totals

    def _frame_start(self) -> None:
        if self.measure is not None:
            self.measure.frame_start()

    def _draw_start(self) -> None:
        if self.measure is not None:
            self.measure.draw_start()

    def after_frame(self, frame: FrameTimes) -> None:
        self.recent.append(frame.drew)
        if self.measure is not None:
            self.measure.feed(frame)
        try:
            next(self.script)
        except StopIteration:
            self.finish()
        except Exception:
            OUT["error"] = traceback.format_exc()
            self.finish()

    def finish(self) -> None:
        self.meter.listeners.clear()
        OUT["counted"] = counted()
        OUT["sections"] = {
            f"{target.rstrip('@')} {key}".strip(): total
            for target, totals in self.sections.items()
            for key, total in sorted(totals.items(), key=lambda item: -item[1][0])
        }
        if self.profiler is not None and SPEC.get("profile_out"):
            self.profiler.dump_stats(SPEC["profile_out"])
        self.app.stop()

    def add(self, kind: str, sample: dict[str, Any]) -> None:
        OUT["samples"].setdefault(kind, []).append(sample)

    def miss(self, kind: str) -> None:
        OUT["missed"][kind] = OUT["missed"].get(kind, 0) + 1

    # --- waiting ------------------------------------------------------------------------

    def frames(self, count: int) -> Iterator[None]:
        for _ in range(count):
            yield

    def still(self, seconds: float) -> Iterator[None]:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            yield

    def released(self) -> Iterator[None]:
        """Stay still until the kiosk has handed memory back (or a while has passed)."""
        before = len(OUT["samples"].get("memory release", []))
        until = time.perf_counter() + STILL_WAIT_S
        while len(OUT["samples"].get("memory release", [])) == before:
            if time.perf_counter() > until:
                OUT["notes"].append("the window was never still long enough to release memory")
                return
            yield

    def settle(self) -> Iterator[None]:
        """Until the window drew nothing for a couple of frames."""
        until = time.perf_counter() + SETTLE_TIMEOUT_S
        yield
        while (len(self.recent) < QUIET_FRAMES or any(self.recent)) and (
            time.perf_counter() < until
        ):
            yield

    def timed(
        self,
        kind: str,
        start: Callable[[Measure], None],
        *,
        min_wait: float = 0.0,
        done: Callable[[], bool] | None = None,
    ) -> Iterator[None]:
        """Measure one interaction that ``start`` sets off (over once ``done()`` holds
        and the window is still); keep its sample."""
        profiler = self.profiler if profiled(kind) else None
        measure = self.measure = Measure(kind, profiler)
        start(measure)
        until = time.perf_counter() + SETTLE_TIMEOUT_S + min_wait
        yield
        while not measure.settled(min_wait, done) and time.perf_counter() < until:
            yield
        measure.done = True
        self.measure = None
        if not measure.active:
            self.miss(kind)
            return
        sample = measure.sample()
        if not measure.settled(min_wait, done):
            sample["unsettled"] = True
        self.add(kind, sample)

    # --- the game -----------------------------------------------------------------------

    @property
    def play(self) -> Any:
        play = self.kiosk.play
        assert play is not None
        return play

    def new_game(self) -> None:
        """Untimed: a fresh game of the same kind, through the screens."""
        self.kiosk.go_home()
        self.kiosk.open_setup(GAME)
        self.kiosk.start_game()

    def advance(self) -> None:
        """Untimed: one step of play (a bot's move, a software roll, a fix step)."""
        play = self.play
        if play.queries.outcome is not None:
            self.new_game()
        elif play.fix.step is not None:
            play.fix.next()
        elif play.queries.dice_request() is not None:
            play.dice.roll_in_software()
        else:
            action = self.bot.choose(play.rules, play.state)
            if action is None:
                self.new_game()
            else:
                play.submit(action)

    def advance_until(
        self, ready: Callable[[], bool], steps: int = 600
    ) -> Generator[None, None, bool]:
        for step in range(steps):
            if ready():
                return True
            self.advance()
            if step % 8 == 7:
                yield  # let the window catch up now and then
        return ready()

    # --- interactions -------------------------------------------------------------------

    def screen(self, kind: str, handler: Callable[[], None]) -> Iterator[None]:
        yield from self.settle()

        def start(measure: Measure) -> None:
            def run() -> None:
                measure.begin()
                handler()

            self.queue.call(run)

        yield from self.timed(kind, start)

    def start_game(self) -> Iterator[None]:
        yield from self.screen("home → setup", lambda: self.kiosk.open_setup(GAME))
        yield from self.screen("setup → play", self.kiosk.start_game)

    def screen_round(self) -> Iterator[None]:
        yield from self.screen("play → scores", self.kiosk.open_scores)
        yield from self.screen("scores → play", self.kiosk.back_to_play)
        yield from self.screen("play → home", self.kiosk.go_home)
        yield from self.start_game()

    def selectable(self) -> list[str]:
        play = self.play
        if (
            play.fix.step is not None
            or play.queries.outcome is not None
            or play.queries.dice_request() is not None
            or play.board_input.focus is not None
        ):
            return []
        return [h.cell for h in play.highlights() if h.role is Role.SELECTABLE]

    def board_touches(self, count: int) -> Iterator[None]:
        """Taps on a selectable cell (a miniature, a space), each on a fresh position."""
        kind = "touch"
        for index in range(count):
            self.advance()  # a new position for each tap: nothing is cached for it yet
            if not (yield from self.advance_until(lambda: bool(self.selectable()))):
                OUT["notes"].append("no position with a selectable cell was reached")
                return
            yield from self.settle()
            yield from self.still(LOOK_S)
            cells = self.selectable()
            board = self.kiosk.play_screen.board
            if not cells or board is None or board.view is None:
                self.miss(kind)
                continue
            cell = cells[index % len(cells)]
            if board.viewport.zoomed:
                board.show_whole_board()
                yield from self.settle()
            try:
                x, y = board.to_window(*board.cell_centre(cell))
            except KeyError:
                self.miss(kind)
                continue

            def start(measure: Measure, x: float = x, y: float = y) -> None:
                self.queue.tap(UnitTestTouch(x, y), measure.begin)

            yield from self.timed(kind, start)
            if self.play.board_input.focus != cell:
                samples = OUT["samples"].get(kind, [])
                if samples:
                    samples.pop()
                self.miss(kind)

    def action_row(self) -> Any | None:
        """The top action button of the menu, if one is on screen."""
        actions = self.kiosk.play_screen.actions
        if actions.parent is None or actions.get_root_window() is None:
            return None
        left, bottom = actions.to_window(actions.x, actions.y)
        rows = []
        for widget in actions.walk(restrict=True):
            if isinstance(widget, ActionRow) and widget.text and widget.height > 0:
                x, y = widget.to_window(*widget.center)
                if left <= x <= left + actions.width and bottom <= y <= bottom + actions.height:
                    rows.append((y, x, widget))
        if not rows:
            return None
        rows.sort(key=lambda row: -row[0])
        return rows[0]

    def card_touches(self, count: int) -> Iterator[None]:
        """Taps on the first action button of the menu (card games have no board)."""
        kind = "touch"
        for _ in range(count):
            for _attempt in range(200):
                yield from self.settle()
                play = self.play
                if (
                    play.queries.outcome is None
                    and play.fix.step is None
                    and play.forms.form is None
                    and play.queries.dice_request() is None
                    and self.action_row() is not None
                ):
                    break
                self.advance()
            row = self.action_row()
            if row is None:
                self.miss(kind)
                continue
            y, x, _widget = row
            before = len(self.play.session.actions)

            def start(measure: Measure, x: float = x, y: float = y) -> None:
                self.queue.tap(UnitTestTouch(x, y), measure.begin)

            yield from self.timed(kind, start, min_wait=SCROLL_TAP_WAIT_S)
            if len(self.play.session.actions) <= before and self.play.forms.form is None:
                samples = OUT["samples"].get(kind, [])
                if samples:
                    samples.pop()
                self.miss(kind)

    def die_rolls(self, count: int) -> Iterator[None]:
        """Rolls of the simulated tray for the pending request, each taken back after."""
        kind = "die"
        rig = self.app.rig
        if rig is None or rig.sim is None or not rig.sim.dice_simulated:
            OUT["notes"].append("the dice are not simulated: no rolls")
            return
        sim = rig.sim

        def waiting() -> bool:
            play = self.play
            return play.fix.step is None and play.queries.dice_request() is not None

        def submitted() -> bool:
            return len(self.play.session.actions) > self.die_actions

        for index in range(count):
            if not (yield from self.advance_until(waiting, steps=800)):
                OUT["notes"].append("no dice request was reached in 800 steps")
                return
            yield from self.settle()
            request = self.play.queries.dice_request()
            faces = [1 + (index + die) % request.sides for die in range(request.count)]
            self.die_actions = len(self.play.session.actions)

            def start(
                measure: Measure,
                sides: int = request.sides,
                n: int = request.count,
                faces: list[int] = faces,
            ) -> None:
                def roll() -> None:
                    measure.wall_start = time.perf_counter()
                    sim.roll_dice(sides, n, faces)

                self.pump_cpu = 0.0
                self.pump_instr = 0
                self.die = measure
                # A die lands at any moment of a frame, not just after one (where this
                # runs): from another thread, after a (seeded) part of a frame.
                timer = threading.Timer(self.phase.uniform(0.0, FRAME_S), roll)
                timer.daemon = True
                timer.start()

            yield from self.timed(kind, start, done=submitted)
            self.die = None
            if not submitted():
                samples = OUT["samples"].get(kind, [])
                if samples and samples[-1].get("led_cpu_ms") is None:
                    samples.pop()
                self.miss(kind)
                OUT["notes"].append(
                    f"roll {index} ({request.count}d{request.sides}, faces {faces}) was not "
                    f"submitted in {SETTLE_TIMEOUT_S:.0f} s"
                )
                yield from self.still(1.0)  # a late roll lands before the next one
            if submitted():
                self.play.undo()  # the same request is pending again

    def run(self) -> Iterator[None]:
        yield from self.frames(3)
        self.kiosk.seed = lambda: 8  # the same games every run, so runs compare
        yield from self.start_game()
        rules = self.play.rules
        OUT["touch_target"] = {
            "grid": "a selectable miniature",
            "island": "a selectable space",
        }.get(rules.board_kind, "the top action button")
        # Card games keep the contract's default: they never ask for dice.
        OUT["dice"] = type(rules).dice_request is not Rules.dice_request
        touches, rolls, rounds = SPEC["touches"], SPEC["rolls"], SPEC["rounds"]
        warm = 1  # the first of each kind is kept apart (cold caches, lazy imports)
        if PROFILE in (None, "touch"):
            if rules.board_kind is not None:
                yield from self.board_touches(touches + warm)
            else:
                yield from self.card_touches(touches + warm)
        if PROFILE in (None, "die") and OUT["dice"]:
            yield from self.die_rolls(rolls + warm)
        if PROFILE is None:
            yield from self.released()
        if PROFILE in (None, SCREENS):
            for _ in range(rounds):
                yield from self.screen_round()


class BenchApp(CompanionApp):
    def on_start(self) -> None:
        self.bench = Bench(self)


def main() -> None:
    data_dir = Path(SPEC["data_dir"])
    loaded = load_config(Path(SPEC["config"]), environ={"COMPANION_HARDWARE": "sim"})
    rig = build_rig(loaded.config)
    try:
        BenchApp(data_dir, rig=rig, config=loaded).run()
    finally:
        rig.stop()
    from kivy.config import Config

    OUT["fps"] = Config.getint("graphics", "maxfps")
    print_figures(OUT)


if __name__ == "__main__":
    main()
