"""Simulated mode on the real play screen: a long press on the board lifts a miniature
from the simulated sensing board, a tap puts it down, and the move plays itself."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch

from companion.highlights import Role
from firmware_bridge.config import BoardConfig, ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.platform import Platform
from firmware_bridge.rig import Rig, build_rig
from kiosk.app import Kiosk
from kiosk.presenters.sensing import miniatures
from kiosk.settings import CompanionConfig
from kiosk.widgets.board import HOLD_S
from tests.helpers.kiosk_widgets import advance_to, tap_cell
from tests.kiosk.ui import close_kiosk, frames, open_kiosk

WAIT_S = 5.0


def until(kiosk: Kiosk, done: Callable[[], bool], what: str) -> None:
    """Drain the hardware hub (the app's trigger does it) and step frames until done."""
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, what
        kiosk.pump()
        EventLoop.idle()
        time.sleep(0.01)


def kolossus_on_a_sensing_board(tmp_path: Path) -> tuple[Kiosk, Rig]:
    """A kiosk with the simulated sensing board (and no other device), Kolossus started."""
    config = CompanionConfig(
        dice=DiceConfig(source="none"),
        buttons=ButtonsConfig(source="none"),
        leds=LedsConfig(driver="none"),
        board=BoardConfig(source="sim"),
    )
    rig = build_rig(config, Platform(None), sim_dir=tmp_path / "sim")
    kiosk = open_kiosk(tmp_path)
    kiosk.attach_rig(rig)
    kiosk.open_setup("kolossus")
    assert kiosk.setup is not None
    kiosk.setup.names[:] = ["Ann", "Bob"]
    kiosk.start_game()
    return kiosk, rig


def test_long_press_lifts_and_tap_places_on_the_simulated_board(tmp_path: Path) -> None:
    kiosk, rig = kolossus_on_a_sensing_board(tmp_path)
    try:
        play, sensing = kiosk.play, kiosk.sensing
        assert play is not None and sensing is not None and sensing.driver is not None
        advance_to(kiosk, "move")
        assert rig.sim is not None and rig.sim.board is not None
        board = rig.sim.board
        board.set_occupied(miniatures(play.rules.board(play.state)))  # the bot moved by touch
        driver = sensing.driver
        until(kiosk, lambda: driver.inference.occupied == board.occupied, "the board is read")
        origin = next(h.cell for h in play.highlights() if h.role is Role.SELECTABLE)
        widget = kiosk.play_screen.board
        assert widget is not None
        frames(2)
        touch = UnitTestTouch(*widget.cell_centre(origin))
        touch.touch_down()
        deadline = time.monotonic() + HOLD_S + WAIT_S
        while origin in board.occupied:  # held down: the long press lifts it
            assert time.monotonic() < deadline, "the long press never lifted"
            kiosk.pump()
            EventLoop.idle()
            time.sleep(0.02)
        touch.touch_up()
        assert sensing.in_hand == 1
        until(kiosk, lambda: play.board_input.focus == origin, "the lifted miniature's moves light")
        target = next(
            h.cell
            for h in play.highlights()
            if h.role is Role.REACHABLE and h.cell not in board.occupied
        )
        before = len(play.session.actions)
        tap_cell(kiosk, target)  # a tap: put down, not a touch entry
        assert target in board.occupied
        until(kiosk, lambda: len(play.session.actions) == before + 1, "the move plays itself")
        move = play.rules.dump_action(play.session.actions[-1])
        assert (move["from"], move["to"]) == (origin, target)
    finally:
        close_kiosk(kiosk)


def test_0_2_1_the_board_is_not_read_into_a_game_that_is_not_on_screen(tmp_path: Path) -> None:
    """RULINGS 0.2.1 (the table is the truth, seen on screen): while Home is shown the
    sensing board follows no game, so pieces moved then are not played into the game
    last shown, unseen; back on the play screen the board is read for it again."""
    kiosk, rig = kolossus_on_a_sensing_board(tmp_path)
    try:
        play, sensing = kiosk.play, kiosk.sensing
        assert play is not None and sensing is not None
        assert sensing.following is play
        advance_to(kiosk, "move")
        assert rig.sim is not None and rig.sim.board is not None
        board = rig.sim.board
        board.set_occupied(miniatures(play.rules.board(play.state)))  # the bot moved by touch
        play.board_input.tap_cell(
            next(h.cell for h in play.highlights() if h.role is Role.SELECTABLE)
        )
        origin = play.board_input.focus
        target = next(
            h.cell
            for h in play.highlights()
            if h.role is Role.REACHABLE and h.cell not in board.occupied
        )
        played = len(play.session.actions)
        kiosk.go_home()
        assert sensing.following is None and sensing.driver is None
        assert origin is not None
        board.lift(origin)  # a legal move made on the table while Home is shown
        board.place(target)
        deadline = time.monotonic() + 1.0  # well past the board's settle time
        while time.monotonic() < deadline:
            kiosk.pump()
            EventLoop.idle()
            time.sleep(0.01)
        assert len(play.session.actions) == played
        kiosk.open_scores()
        assert sensing.following is None
        kiosk.back_to_play()
        assert sensing.following is play and sensing.driver is not None
    finally:
        close_kiosk(kiosk)
