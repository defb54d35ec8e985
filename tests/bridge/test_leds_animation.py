"""The animator thread: steady ticks, only the latest highlights, clean start/stop."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from companion.dice import Roll
from companion.highlights import Highlight, Role
from companion.session import Session
from firmware_bridge.layout import build_layout, kolossus_layout
from firmware_bridge.leds.animation import CALM_REFRESH_S, REFRESH_S, Animator
from firmware_bridge.leds.render import (
    PULSE_PERIOD_S,
    PowerBudget,
    estimate_current_ma,
    render,
)
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.leds.strip import Frame, LedStrip
from kiosk.presenters.play import PlayPresenter
from tests.helpers.clock import FakeClock

LAYOUT = kolossus_layout()


def make(
    clock: FakeClock | None = None, strip: LedStrip | None = None
) -> tuple[Animator, SimStrip]:
    sim = SimStrip(121)
    animator = Animator(
        strip or sim, LAYOUT, brightness=1.0, clock=clock or FakeClock(100.0), fps=42
    )
    (strip or sim).begin()
    return animator, sim


def test_tick_renders_the_current_highlights_at_the_clock_time() -> None:
    clock = FakeClock(100.0)
    animator, strip = make(clock)
    highlights = [Highlight(cell="2,2", role=Role.SELECTABLE)]
    animator.show(highlights)
    clock.now = 100.5
    assert animator.tick()
    expected = render(highlights, LAYOUT, brightness=1.0, power_budget=PowerBudget(), t=0.5)
    assert strip.last_frame == expected


def test_unchanged_static_frames_are_not_shipped_again_until_a_refresh() -> None:
    clock = FakeClock(100.0)
    animator, strip = make(clock)
    animator.show([Highlight(cell="2,2", role=Role.REACHABLE)])
    assert animator.tick()
    clock.now += 0.1
    assert not animator.tick()
    clock.now += 1.0
    assert animator.tick()  # the once-a-second refresh
    assert strip.shown == 2


def test_new_highlights_replace_pending_ones() -> None:
    clock = FakeClock(100.0)
    animator, strip = make(clock)
    for column in range(11):
        animator.show([Highlight(cell=f"0,{column}", role=Role.REACHABLE)])
    animator.tick()
    assert strip.shown == 1
    lit = [i for i, pixel in enumerate(strip.last_frame or ()) if pixel != (0, 0, 0)]
    assert lit == [10]


def test_the_animator_lights_every_fix_step_it_is_handed() -> None:
    """No step state downstream: what the animator is shown is what it lights."""
    animator, strip = make()
    animator.show(
        [
            Highlight(cell="0,0", role=Role.FIX, step=1),
            Highlight(cell="0,1", role=Role.FIX, step=2),
        ]
    )
    animator.tick()
    frame = strip.last_frame or ()
    assert frame[0] != (0, 0, 0) and frame[1] != (0, 0, 0)


def test_the_presenter_walks_the_strip_through_the_steps_then_the_fix_goes_dark() -> None:
    """The play presenter owns the step: fed after every change, as the kiosk feeds the
    rig, the strip lights one step, then the next, then no FIX light at all."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=5))
    play.submit({"type": "ready"})
    play.submit(Roll(values=(1,)))
    play.submit(next(p for p in play.queries.legal_payloads() if p["type"] == "quake_move"))
    steps = [set(step.cells) for step in play.fix.steps]
    cells = set().union(*steps)
    assert len(steps) >= 2 and play.fix.step == 1
    animator, strip = make()
    play.subscribe(lambda: animator.show(play.highlights()))
    animator.show(play.highlights())
    for number, step in enumerate(steps):
        animator.tick()
        frame = strip.last_frame or ()
        assert {c for c in cells if frame[LAYOUT.cells[c][0]] != (0, 0, 0)} == step, (
            f"step {number + 1}"
        )
        play.fix.next()
    assert play.fix.step is None
    assert all(h.role is not Role.FIX for h in play.highlights())
    animator.tick()  # the game's own highlights again, rendered as they are
    game = render(play.highlights(), LAYOUT, brightness=1.0, power_budget=PowerBudget(), t=0.0)
    assert strip.last_frame == game


def test_brightness_changes_apply_on_the_next_tick() -> None:
    animator, strip = make()
    animator.show([Highlight(cell="0,0", role=Role.SELECTED)])
    animator.tick()
    bright = (strip.last_frame or ())[0]
    animator.set_brightness(0.2)
    animator.tick()
    assert sum((strip.last_frame or ())[0]) < sum(bright)
    with pytest.raises(ValueError):
        animator.set_brightness(2.0)


def test_frames_keep_the_power_budget() -> None:
    strip = SimStrip(121)
    strip.begin()
    power = PowerBudget(budget_ma=600)
    animator = Animator(strip, LAYOUT, brightness=1.0, power_budget=power, clock=FakeClock(100.0))
    animator.show([Highlight(cell=cell, role=Role.SELECTED) for cell in LAYOUT.cells])
    animator.tick()
    assert estimate_current_ma(strip.last_frame or (), power) <= 600


def test_a_layout_longer_than_the_strip_is_refused() -> None:
    with pytest.raises(ValueError, match="121 LEDs"):
        Animator(SimStrip(100), LAYOUT)


def wait_for(condition: object, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.005)
    return False


def test_thread_animates_at_a_steady_rate_and_stops_cleanly() -> None:
    strip = SimStrip(121)
    animator = Animator(strip, LAYOUT, fps=50)
    animator.show([Highlight(cell="4,4", role=Role.SELECTABLE)])  # pulses: a new frame each tick
    started = time.monotonic()  # before the thread exists: its every tick falls after it
    animator.start()
    animator.start()  # idempotent
    assert animator.running and strip.started
    assert wait_for(lambda: animator.ticks >= 5, timeout=30.0)
    animator.stop()
    elapsed = time.monotonic() - started
    assert not animator.running
    assert not any(t.name == "led-animator" for t in threading.enumerate())
    # A busy machine may lose ticks but never gains any: a late thread skips the frames
    # it missed instead of bursting (one tick at the start, one woken by the stop).
    assert animator.ticks <= 50 * elapsed + 2
    shipped = strip.shown
    animator.stop()  # a second stop finds no thread: nothing can ship a frame any more
    assert strip.shown == shipped
    strip.close()


def test_thread_shows_new_highlights_promptly() -> None:
    strip = SimStrip(121)
    animator = Animator(strip, LAYOUT, fps=2)  # slow ticks: the wake-up must not wait for them
    animator.start()
    try:
        assert wait_for(lambda: strip.shown >= 1)
        animator.show([Highlight(cell="0,0", role=Role.REACHABLE)])
        assert wait_for(lambda: (strip.last_frame or ((0, 0, 0),))[0] != (0, 0, 0), 0.4)
    finally:
        animator.stop()


def test_show_can_wait_for_its_frame_so_the_leds_come_first() -> None:
    """The kiosk hands the highlights to the LEDs before it redraws the screen and
    waits (bounded) for the frame: the LEDs do not queue behind the redraw. The
    generous bound only keeps a broken wait from hanging the suite."""
    strip = SimStrip(121)
    animator = Animator(strip, LAYOUT, fps=2)
    animator.start()
    try:
        assert wait_for(lambda: strip.shown >= 1)
        animator.show([Highlight(cell="0,0", role=Role.REACHABLE)], wait_s=60.0)
        assert (strip.last_frame or ((0, 0, 0),))[0] != (0, 0, 0), "shipped before show returned"
        assert animator.rendered == animator.handed
        shown = strip.shown
        animator.show([Highlight(cell="0,0", role=Role.REACHABLE)], wait_s=60.0)
        assert strip.shown == shown, "the same frame: rendered, not shipped again"
        assert animator.rendered == animator.handed
    finally:
        animator.stop()
    animator.show([], wait_s=60.0)  # stopped: nothing to wait for


class FlakyStrip(SimStrip):
    def __init__(self) -> None:
        super().__init__(121)
        self.failures = 3

    def _ship(self, frame: Frame) -> None:
        if self.failures:
            self.failures -= 1
            raise OSError("strip unplugged")
        super()._ship(frame)


def test_thread_survives_a_strip_that_fails_for_a_while() -> None:
    strip = FlakyStrip()
    animator = Animator(strip, LAYOUT, fps=100)
    animator.show([Highlight(cell="1,1", role=Role.SELECTABLE)])
    animator.start()
    try:
        assert wait_for(lambda: strip.shown >= 2)
        assert wait_for(lambda: animator.last_error is None)
    finally:
        animator.stop()


def test_png_gallery_of_the_animations(tmp_path: Path) -> None:
    """Writes PNGs a person can look at (quake sweep, fix step, capture, island)."""
    strip = SimStrip(121)
    strip.begin()
    quake = [Highlight(cell=f"{r},3", role=Role.QUAKE_REGION) for r in range(11)]
    quake += [Highlight(cell="5,5", role=Role.CITADEL), Highlight(cell="0,3", role=Role.FALLS_OFF)]
    moves = [Highlight(cell="0,0", role=Role.SELECTED)]
    moves += [Highlight(cell=f"{r},{c}", role=Role.REACHABLE) for r, c in [(1, 1), (2, 2), (0, 1)]]
    moves += [Highlight(cell="3,3", role=Role.CAPTURABLE), Highlight(cell="1,0", role=Role.PATH)]
    scenes = {
        "quake-t0.0": (quake, 0.0),
        "quake-t0.4": (quake, 0.4),
        "moves": (moves, 0.0),
        "fix-step-1": ([Highlight(cell="4,6", role=Role.FIX, step=1)], 0.0),
    }
    written = []
    for name, (highlights, t) in scenes.items():
        strip.show(render(highlights, LAYOUT, brightness=0.8, power_budget=PowerBudget(), t=t))
        written.append(strip.to_png(tmp_path / f"{name}.png", LAYOUT, labels=True))
    island = build_layout(
        name="placeholder island",
        board="island",
        led_count=5,
        cells={f"s{i}": [i] for i in range(5)},
        positions={f"s{i}": (i * 1.0 + (0.5 if i % 2 else 0.0), float(i % 2)) for i in range(5)},
    )
    island_strip = SimStrip(5)
    island_strip.begin()
    island_strip.show(
        render(
            [Highlight(cell="s1", role=Role.CONTROL, player=0)],
            island,
            brightness=1.0,
        )
    )
    written.append(island_strip.to_png(tmp_path / "island.png", island))
    assert all(path.stat().st_size > 200 for path in written)


def test_a_still_board_does_not_wake_the_animator() -> None:
    """Idle means idle: with nothing pulsing, sweeping or flashing, the thread
    sleeps between the once-a-second refreshes instead of rendering at its frame rate;
    new highlights still wake it at once, and an animated role brings the ticks back."""
    strip = SimStrip(121)
    animator = Animator(strip, LAYOUT, fps=100)
    animator.show([Highlight(cell="2,2", role=Role.REACHABLE)])  # a still colour
    animator.start()
    try:
        assert wait_for(lambda: strip.shown >= 1)
        assert not animator.moving
        ticks = animator.ticks
        # The thread waits a whole period between ticks: the refresh, not a frame.
        assert animator.period == REFRESH_S
        animator.show([Highlight(cell="3,3", role=Role.SELECTABLE)])  # pulses
        assert animator.moving
        assert wait_for(lambda: animator.ticks - ticks >= 10)
    finally:
        animator.stop()


def test_a_calm_kiosk_holds_moving_roles_still_and_activity_moves_them_again() -> None:
    """Idle means idle: while the kiosk is idle a pulse is held still at its
    full level and the thread only refreshes once a second; activity brings the motion
    back at once. Checked on the frames and the tick period, not on a time. The clock
    starts at 0, so the frames asked for at 0.0 and 0.8 s are a trough and a crest of the
    pulse (with the machine's clock, they could fall either side of a crest alike)."""
    animator = Animator(SimStrip(121), LAYOUT, fps=42, clock=lambda: 0.0)
    animator.show([Highlight(cell="3,3", role=Role.SELECTABLE)])  # pulses
    assert animator.period == pytest.approx(1 / 42) and animator.moving
    assert animator.render_now(0.0) != animator.render_now(0.8)
    animator.set_calm(True)
    assert animator.period == CALM_REFRESH_S and not animator.moving
    held = animator.render_now(0.0)
    assert held == animator.render_now(0.8) == animator.render_now(123.4)
    peak = render(  # the pulse at its brightest: what the held frame shows
        [Highlight(cell="3,3", role=Role.SELECTABLE)],
        LAYOUT,
        animator.palette,
        0.5,
        animator.power_budget,
        PULSE_PERIOD_S / 2,
    )
    assert held == peak and any(map(any, held))
    animator.set_calm(False)
    assert animator.period == pytest.approx(1 / 42) and animator.moving
