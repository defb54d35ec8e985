"""The kiosk's sensing-board glue without a display: the simulated board's hand (long
press to lift, tap to put down) playing a move through the pty and the real reader."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.highlights import Role
from companion.session import Session
from firmware_bridge.board.messages import BOARD_READER, BoardOccupancy
from firmware_bridge.config import BoardConfig, ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.dice.sim_board import SimSensingBoard
from firmware_bridge.platform import Platform
from firmware_bridge.rig import build_rig
from kiosk.board_sensing import BoardSensing
from kiosk.hardware import HardwareHub, HubHandlers
from kiosk.presenters.devices import badges
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import Agree, InHand, Relift, miniatures
from kiosk.settings import CompanionConfig
from tests.helpers.clock import FakeClock
from tests.helpers.dice_serial import fast_settings
from tests.helpers.kolossus_positions import START
from tests.kiosk.helpers import assert_imports_without_kivy

WAIT_S = 5.0


def sensed(sensing: BoardSensing) -> frozenset[str] | None:
    """What the game being followed knows of the board (None: nothing read yet)."""
    return None if sensing.driver is None else sensing.driver.inference.occupied


class Later:
    """A stand-in for ``Clock.schedule_once``: runs what is due when asked."""

    def __init__(self) -> None:
        self.due: list[tuple[float, Callable[[], None]]] = []

    def __call__(self, delay: float, then: Callable[[], None]) -> Any:
        entry = (delay, then)
        self.due.append(entry)

        class Handle:
            def cancel(self_inner) -> None:
                if entry in self.due:
                    self.due.remove(entry)

        return Handle()

    def run(self) -> None:
        due, self.due = self.due, []
        for _, then in due:
            then()


def test_the_glue_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.board_sensing")


@pytest.fixture
def sim_board(tmp_path: Path) -> Iterator[tuple[SimSensingBoard, SerialDiceTray, HardwareHub]]:
    board = SimSensingBoard(str(tmp_path / "sensing-board"))
    board.start()
    hub = HardwareHub()
    reader = SerialDiceTray(fast_settings(tmp_path / "sensing-board"), name=BOARD_READER)
    reader.start(hub.post)
    yield board, reader, hub
    reader.stop()
    board.stop()


def test_long_press_lifts_and_a_tap_puts_down_on_the_simulated_board(
    sim_board: tuple[SimSensingBoard, SerialDiceTray, HardwareHub],
) -> None:
    board, _, hub = sim_board
    play = PlayPresenter(Session.from_position("kolossus", START, options={"chapter": 3}))
    now = FakeClock(0.0)
    later = Later()
    sensing = BoardSensing(later=later, sim_board=board, clock=now)
    hub.connect(HubHandlers(board=sensing.occupancy))
    sensing.attach(play)
    expected = frozenset(miniatures(play.rules.board(play.state)))
    assert board.occupied == expected, "the simulated table is laid out as the game"

    def settled() -> Any:
        deadline = time.monotonic() + WAIT_S
        while sensing.seq != board.seq or sensed(sensing) != board.occupied:
            assert time.monotonic() < deadline
            hub.pump(play.dice)
            time.sleep(0.005)
        now.advance(1.0)
        later.run()
        assert sensing.driver is not None
        return sensing.driver.verdict

    assert settled() == Agree()
    assert not sensing.tap("5,5"), "nothing in the hand: a tap is a touch entry"
    assert sensing.hold("1,0")
    assert settled() == InHand("1,0")
    assert sensing.hold("8,1")  # the Firbolg Warrior it beats
    assert sensing.tap("8,1") and sensing.in_hand == 1
    assert settled() == Agree()
    assert play.rules.dump_action(play.session.actions[-1])["to"] == "8,1"
    assert sensing.in_hand == 0, "the beaten Warrior went back to the box"
    assert not sensing.hold("5,5"), "an empty square has nothing to lift"
    sensing.detach()
    assert sensing.driver is None


def test_a_capture_whose_lifts_were_lost_asks_to_lift_and_set_down_again(
    sim_board: tuple[SimSensingBoard, SerialDiceTray, HardwareHub],
) -> None:
    """Both lifts of a capture lost on the wire: the board, read again, shows only the
    mover's square empty. It may be in the hand or already stand on the piece it beat:
    the players are asked to lift it and set it down again, and the square it may stand
    on is not shown to capture."""
    board, _, hub = sim_board
    play = PlayPresenter(Session.from_position("kolossus", START, options={"chapter": 3}))
    now = FakeClock(0.0)
    later = Later()
    sensing = BoardSensing(later=later, sim_board=board, clock=now)
    hub.connect(HubHandlers(board=sensing.occupancy))
    sensing.attach(play)

    def settled() -> Any:
        deadline = time.monotonic() + WAIT_S
        while sensing.seq != board.seq or sensed(sensing) != board.occupied:
            assert time.monotonic() < deadline
            hub.pump(play.dice)
            time.sleep(0.005)
        now.advance(1.0)
        later.run()
        assert sensing.driver is not None
        return sensing.driver.verdict

    assert settled() == Agree()
    board.lose_changes = 2
    board.lift("1,0")  # lost
    board.lift("8,1")  # lost: the beaten Warrior
    board.place("8,1")  # the Colossus on its square: a gap, the whole bitmap read again
    verdict = settled()
    assert isinstance(verdict, Relift) and verdict.origin == "1,0"
    assert "8,1" in verdict.squares
    lit = {(h.cell, h.role) for h in play.highlights()}
    assert ("8,1", Role.CAPTURABLE) not in lit and ("8,1", Role.FIX) in lit
    assert "set it down again" in play.view().notice
    assert "lift the miniature from (1, 0)" in play.view().notice  # the board's own words
    assert play.board_input.focus is None and not play.session.actions
    board.lift("8,1")
    board.place("8,1")
    assert settled() == Agree()
    assert play.rules.dump_action(play.session.actions[-1])["to"] == "8,1"
    assert play.overlay.highlights == () and "set it down" not in play.view().notice


def test_a_game_without_a_grid_is_not_followed(
    sim_board: tuple[SimSensingBoard, SerialDiceTray, HardwareHub],
) -> None:
    board, _, hub = sim_board
    sensing = BoardSensing(later=Later(), sim_board=board)
    hub.connect(HubHandlers(board=sensing.occupancy))
    sensing.attach(PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=1)))
    assert sensing.driver is None and not sensing.hold("0,0")


def test_a_board_read_by_the_dice_tray_has_its_board_badge(tmp_path: Path) -> None:
    """``[board] source = "tray"``: the dice tray's reader reads the squares, and its
    status is the Board badge as well (connected, unplugged, waiting for a resync)."""
    tray = SimSensingBoard(str(tmp_path / "dice-tray"), occupied={"0,0"})
    tray.battery = 77
    config = CompanionConfig(
        dice=DiceConfig(
            source="serial",
            serial=fast_settings(tmp_path / "dice-tray").model_copy(update={"enabled": True}),
        ),
        buttons=ButtonsConfig(source="none"),
        leds=LedsConfig(driver="none"),
        board=BoardConfig(source="tray"),
    )
    rig = build_rig(config, Platform(None), sim_dir=tmp_path)
    assert [reader.name for reader in rig.dice] == ["serial-tray"], "no reader of its own"
    assert rig.board_reader == "serial-tray"
    hub = HardwareHub()
    hub.board_reader = rig.board_reader
    shown: list[tuple[str, ...]] = []

    def until(*texts: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not set(texts) <= set(shown[-1] if shown else ()):
            assert time.monotonic() < deadline, f"never {texts}: {shown[-1:]}"
            hub.pump(None)
            time.sleep(0.01)

    hub.connect(
        HubHandlers(devices=lambda statuses: shown.append(tuple(b.text for b in badges(statuses))))
    )
    tray.start()
    rig.start(hub.post)
    try:
        until("Board on", "Dice on 77%")
        tray.unplug()
        until("Board reconnecting…", "Dice reconnecting… 77%")
        assert "touch" in hub.statuses[BOARD_READER].detail
        tray.replug()
        until("Board on", "Dice on 77%")
        hub.post(BoardOccupancy("sim-board", None))  # a lost change: read again
        until("Board reconnecting…", "Dice on 77%")
    finally:
        rig.stop()
        tray.stop()
