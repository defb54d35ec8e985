"""A Kolossus round played on the simulated sensing board, without a single move tap.

The board is a :class:`SimSensingBoard` on a pty, read by the real serial reader, its
snapshots drained by the hardware hub into the :class:`SensingDriver` on the "main
thread" (the test), whose clock is a variable: the 300 ms stable-position wait is
stepped, never slept, and no test asserts a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.dice import Roll
from companion.games.kolossus.model import Move
from companion.highlights import Role
from companion.session import Session
from firmware_bridge.board.messages import BOARD_READER, BoardOccupancy
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.dice.sim_board import SimSensingBoard
from kiosk.hardware import HardwareHub, HubHandlers
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import (
    SETTLE_S,
    Agree,
    Choose,
    Differ,
    InHand,
    SensingDriver,
    Unknown,
    Verdict,
    miniatures,
)
from tests.helpers.clock import FakeClock
from tests.helpers.dice_serial import fast_settings
from tests.kiosk.helpers import assert_imports_without_kivy

WAIT_S = 5.0
#: The Invasion's skills: one mana on each Warrior and Guardian skill (Ch.2+, K-R25).
SKILLS = {
    "type": "allocate",
    "warrior_attack": 1,
    "warrior_defence": 1,
    "guardian_attack": 1,
    "guardian_defence": 1,
}


def test_the_inference_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.sensing")


@dataclass
class Table:
    """The game on screen, the simulated board under it and the time on the clock."""

    play: PlayPresenter
    board: SimSensingBoard
    hub: HardwareHub
    driver: SensingDriver
    now: FakeClock
    seq: list[int]
    taps: int = 0
    """Actions entered on the screen (never a move in the round test)."""
    pipeline: list[Callable[[], None]] = field(default_factory=list)
    """What hears a change before the driver, as the kiosk's change pipeline (the LEDs)
    does: it is subscribed before the sensing board follows the game."""

    def tap(self, payload: dict[str, Any]) -> None:
        assert payload["type"] not in {"move", "earthquake", "rebirth"}, "a move tap"
        assert self.play.submit(payload), self.play.banner
        self.taps += 1
        self.driver.tick()

    def end_turn(self) -> None:
        """End the turn and put the turn's mana income on the pool (K-R22), on screen."""
        self.tap({"type": "end_turn"})
        payloads = self.play.queries.legal_payloads()
        if payloads and payloads[0]["type"] == "allocate":
            self.tap(payloads[0])

    def roll(self, *faces: int) -> None:
        """The electronic dice (the tray's path ends in the same presenter call)."""
        roll = Roll(values=faces, source="electronic", device="sim-tray")
        assert self.play.dice.electronic_roll(roll), self.play.banner
        self.driver.tick()

    def sensed(self) -> None:
        """Drain the hub until the driver has the board's present occupancy."""
        deadline = time.monotonic() + WAIT_S
        while (
            self.driver.inference.occupied != self.board.occupied or self.seq[0] != self.board.seq
        ):
            assert time.monotonic() < deadline, "the board's change never arrived"
            self.hub.pump(self.play.dice)
            time.sleep(0.005)

    def glance(self, seconds: float = 0.1) -> Verdict | None:
        """Some time passes, less than the settle wait: nothing may be decided."""
        self.sensed()
        self.now.advance(seconds)
        return self.driver.tick()

    def settle(self) -> Verdict:
        """The board stays still for the settle wait; the verdict shown."""
        self.sensed()
        self.now.advance(SETTLE_S + 0.01)
        verdict = self.driver.tick()
        assert verdict is not None
        return verdict

    def move(self, *steps: str) -> None:
        """Lift (``-r,c``) and place (``+r,c``) miniatures, quicker than the wait."""
        for step in steps:
            (self.board.lift if step[0] == "-" else self.board.place)(step[1:])

    @property
    def last(self) -> dict[str, Any]:
        return self.play.rules.dump_action(self.play.session.actions[-1])

    def turn_colour(self) -> str | None:
        return self.play.rules.panel(self.play.state).turn_colour


def invade(play: PlayPresenter) -> None:
    """Setup and the Invasion, on the screen: the Great Quake moves only landscapes (no
    miniature stands on a central line then), which carry no magnet."""
    assert play.submit({"type": "ready"})
    for _ in range(4):
        assert play.submit(SKILLS)
    for region in ("row3", "row4", "row5", "row6"):
        assert play.submit(Roll(values=(1,), source="manual"))
        assert play.submit({"type": "quake_move", "region": region, "direction": "east"})
        assert play.submit({"type": "allocate", "pool": 3})  # K-R23: 4 - 1 mana


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=1))
    invade(play)
    occupied = miniatures(play.rules.board(play.state))
    board = SimSensingBoard(str(tmp_path / "sensing-board"), occupied=occupied, boot_id=1)
    board.start()
    hub = HardwareHub()
    now = FakeClock(100.0)
    pipeline: list[Callable[[], None]] = []

    def run_pipeline() -> None:
        for step in pipeline:
            step()

    play.subscribe(run_pipeline)
    driver = SensingDriver(play, clock=now)
    seq = [0]

    def on_board(message: BoardOccupancy) -> None:
        seq[0] = message.seq
        driver.sensed(message.occupied)

    hub.connect(HubHandlers(board=on_board))
    reader = SerialDiceTray(fast_settings(tmp_path / "sensing-board"), name=BOARD_READER)
    reader.start(hub.post)
    found = Table(play, board, hub, driver, now, seq, pipeline=pipeline)
    try:
        found.sensed()
        assert found.settle() == Agree()
        yield found
    finally:
        reader.stop()
        driver.close()
        board.stop()


def test_a_round_with_a_quake_a_capture_and_a_rebirth_without_a_move_tap(table: Table) -> None:
    play = table.play
    # --- Tua'tha (blue): the Die of Destiny, then an Earthquake (K-R34) on column 0.
    assert table.turn_colour() == "blue"
    table.roll(4)
    table.move("-10,0")  # Firbolg's Colossus falls off the board: beaten
    assert table.settle() == Differ(remove=frozenset(), place=frozenset({"10,0"}))
    assert {h.role for h in play.highlights()} == {Role.PLACE}
    for src, dst in (("9,0", "10,0"), ("8,0", "9,0"), ("2,0", "3,0"), ("1,0", "2,0")):
        table.move(f"-{src}", f"+{dst}")
        assert not isinstance(table.settle(), Agree), "half a quake is no position"
    assert table.driver.played == 0
    table.move("-0,0", "+1,0")
    assert table.settle() == Agree()
    assert table.last == {"type": "earthquake", "region": "col0", "direction": "south"}
    assert play.fix.step is None, "every step of the line was seen done"
    assert play.overlay.highlights == ()

    # --- the Colossus (3 AP, 3d4 = 12 MP) beats a Firbolg Warrior, slid on its way.
    table.tap({"type": "choose_class", "cls": "C"})
    table.roll(4, 4, 4)
    table.move("-1,0")
    assert table.settle() == InHand("1,0")
    assert play.board_input.focus == "1,0"
    assert ("8,1", Role.CAPTURABLE) in {(h.cell, h.role) for h in play.highlights()}
    for square in ("4,1", "5,1", "6,1"):  # slid across the board, never long on a square
        table.move(f"+{square}")
        assert table.glance() is None
        table.move(f"-{square}")
        assert table.glance() is None
    table.move("-8,1", "+8,1")  # the beaten Warrior off, the Colossus on
    assert table.settle() == Agree()
    assert table.last["type"] == "move"
    assert (table.last["from"], table.last["to"]) == ("1,0", "8,1")
    assert miniatures(play.rules.board(play.state))["8,1"][0][:2] == ("colossus", "C")
    assert play.fix.step is None and play.board_input.focus is None
    table.end_turn()

    # --- Krell (yellow): a Warrior put where it cannot go, lit, then put right.
    assert table.turn_colour() == "yellow"
    table.roll(2)
    table.tap({"type": "choose_class", "cls": "W"})
    table.roll(1)
    legal = {
        a.to
        for a in play.rules.legal_actions_at(play.state, origin="2,9")
        if a.to != "2,9" and a.to not in table.board.occupied
    }
    assert legal and "5,5" not in legal
    table.move("-2,9", "+5,5")
    assert table.settle() == Differ(remove=frozenset({"5,5"}), place=frozenset({"2,9"}))
    lit = {(h.cell, h.role) for h in play.highlights()}
    assert lit == {("5,5", Role.REMOVE), ("2,9", Role.PLACE)}
    assert "differs" in play.view().notice
    target = min(legal)
    table.move("-5,5", f"+{target}")
    assert table.settle() == Agree()
    assert (table.last["from"], table.last["to"]) == ("2,9", target)
    assert play.highlights() != () and all(h.role is not Role.REMOVE for h in play.highlights())
    table.end_turn()

    # --- Ishtari (green) passes.
    assert table.turn_colour() == "green", play.view().status
    table.roll(1)
    table.end_turn()

    # --- Firbolg (red): a miniature put on a free start square fits two Rebirths
    # (K-R35: the Colossus for 3 mana, the Warrior for 1); the players pick by touch.
    assert table.turn_colour() == "red"
    table.roll(3)
    table.move("+8,0")
    verdict = table.settle()
    assert isinstance(verdict, Choose)
    choices = play.view().actions
    assert sorted(c.payload["cls"] for c in choices) == ["C", "W"]
    assert {h.cell for h in play.highlights()} == {"8,0"}
    warrior = next(i for i, c in enumerate(choices) if c.payload["cls"] == "W")
    assert play.action_menu.choose(warrior)
    table.driver.tick()
    assert table.last == {"type": "rebirth", "cls": "W", "to": "8,0"}
    assert isinstance(table.driver.verdict, Agree) and play.overlay.choices is None
    table.end_turn()

    assert "Round 2" in play.view().status
    moves = [a for a in play.session.actions if a.type in {"move", "earthquake", "rebirth"}]
    assert len(moves) == 4 and table.driver.played == 3  # the fourth: chosen, not tapped


def test_fix_the_table_steps_tick_off_as_the_squares_match(table: Table) -> None:
    """An Earthquake entered on the screen: its steps light one after the other and
    tick off by themselves as the players shift the line."""
    play = table.play
    table.roll(4)
    assert play.submit({"type": "earthquake", "region": "col0", "direction": "south"})
    table.driver.tick()
    assert [(s.lift, s.put) for s in play.fix.steps] == [
        (("10,0",), ()),
        (("9,0",), ("10,0",)),
        (("8,0",), ("9,0",)),
        (("2,0",), ("3,0",)),
        (("1,0",), ("2,0",)),
        (("0,0",), ("1,0",)),
    ], "the fallen Colossus off first, then each miniature onto a square just cleared"
    assert play.fix.index == 0
    table.move("-10,0")
    table.settle()
    assert play.fix.index == 1, "the red Colossus is off 10,0"
    assert {h.cell: h.role for h in play.highlights()} == {"9,0": Role.REMOVE, "10,0": Role.PLACE}
    table.move("-9,0", "+10,0")
    table.settle()
    assert play.fix.index == 2, "10,0 holds the Guardian; 9,0 waits for its Warrior"
    table.move("-8,0", "+9,0")
    table.settle()
    assert play.fix.index == 3, "9,0 and 8,0 match now"
    table.move("-2,0", "+3,0", "-1,0", "+2,0")
    table.settle()
    assert play.fix.index == 5, "1,0 waits for the Colossus"
    table.move("-0,0", "+1,0")
    assert table.settle() == Agree()
    assert play.fix.step is None
    assert table.driver.played == 0


def test_lift_and_put_back_is_nothing_and_an_unknown_board_means_touch(table: Table) -> None:
    play = table.play
    table.roll(4)
    table.move("-0,1")
    assert table.settle() == Differ(remove=frozenset(), place=frozenset({"0,1"}))
    table.move("+0,1")
    assert table.settle() == Agree()
    table.board.unplug()
    deadline = time.monotonic() + WAIT_S
    while (
        not isinstance(table.driver.verdict, Unknown)
        or table.hub.statuses[BOARD_READER].state == "connected"
    ):
        assert time.monotonic() < deadline
        table.hub.pump(play.dice)
        time.sleep(0.01)
    badge = table.hub.statuses[BOARD_READER]
    assert badge.device == "board" and badge.state != "connected"
    assert "touch" in badge.detail
    table.board.place("5,5")  # while unplugged: never a move, then read on reconnect
    table.board.replug()
    deadline = time.monotonic() + WAIT_S
    while table.hub.statuses[BOARD_READER].state != "connected":
        assert time.monotonic() < deadline
        table.hub.pump(play.dice)
        time.sleep(0.01)
    assert table.settle() == Differ(remove=frozenset({"5,5"}), place=frozenset())
    assert table.driver.played == 0


def test_the_table_is_right_opens_the_corrections_and_stops_the_lights(table: Table) -> None:
    play = table.play
    table.roll(4)
    table.move("-0,1", "+5,5")
    assert isinstance(table.settle(), Differ)
    play.action_menu.choose_group("correct_the_table")  # the menu's "Correct the table"
    assert play.overlay.highlights == () and play.overlay.notice == ""
    view = play.view()
    assert view.group == "correct_the_table" and play.board_input.focus == "0,1"
    assert any(c.payload["type"] == "correct_piece" for c in view.actions)
    assert table.settle() == Agree(), "accepted until the board changes again"
    table.move("-5,5")
    assert isinstance(table.settle(), Differ), "a new change is looked at again"


def test_an_undone_move_is_not_played_again_by_the_board(table: Table) -> None:
    play = table.play
    table.roll(4)
    table.tap({"type": "choose_class", "cls": "C"})
    table.roll(4, 4, 4)
    first, second = sorted(
        a.to
        for a in play.rules.legal_actions_at(play.state, origin="0,0")
        if isinstance(a, Move) and a.to not in table.board.occupied
    )[-2:]
    table.move("-0,0", f"+{first}")
    assert table.settle() == Agree() and table.driver.played == 1
    play.undo()
    table.driver.tick()
    assert table.settle() == Differ(remove=frozenset({first}), place=frozenset({"0,0"}))
    assert table.driver.played == 1
    table.move(f"-{first}", "+0,0")
    assert table.settle() == Agree()
    table.move("-0,0", f"+{second}")
    assert table.settle() == Agree(), "a new move after the undo plays"
    assert (table.last["from"], table.last["to"]) == ("0,0", second)


def colossus_to_move(table: Table) -> str:
    """Round 1: the Colossus on 0,0 with 12 MP; a free square it may move to."""
    play = table.play
    table.roll(4)
    table.tap({"type": "choose_class", "cls": "C"})
    table.roll(4, 4, 4)
    free: list[str] = [
        a.to
        for a in play.rules.legal_actions_at(play.state, origin="0,0")
        if isinstance(a, Move) and a.to not in table.board.occupied
    ]
    return max(free)


def test_an_undone_move_put_back_and_made_again_is_played(table: Table) -> None:
    """As players do it: a move, Undo (lit red and green), the piece put back (lights
    clear), the same move again: it is played like any other."""
    play = table.play
    target = colossus_to_move(table)
    table.move("-0,0", f"+{target}")
    assert table.settle() == Agree() and table.driver.played == 1
    play.undo()
    table.driver.tick()
    assert table.settle() == Differ(remove=frozenset({target}), place=frozenset({"0,0"}))
    table.move(f"-{target}", "+0,0")
    assert table.settle() == Agree()
    assert play.overlay.highlights == ()
    table.move("-0,0", f"+{target}")
    assert table.settle() == Agree(), "the same move made again is played"
    assert table.driver.played == 2
    assert (table.last["from"], table.last["to"]) == ("0,0", target)
    assert "Took back" not in play.view().notice
    assert play.overlay.highlights == ()


def test_an_undone_move_redone_by_hand_agrees_with_the_board(table: Table) -> None:
    play = table.play
    target = colossus_to_move(table)
    table.move("-0,0", f"+{target}")
    assert table.settle() == Agree()
    moves = len(play.session.actions)
    play.undo()
    table.driver.tick()
    assert isinstance(table.settle(), Differ), "the board still shows the undone move"
    play.redo()  # Redo on the screen: the board shows it already
    table.driver.tick()
    assert table.settle() == Agree() and play.overlay.highlights == ()
    assert len(play.session.actions) == moves and table.driver.played == 1
    table.move(f"-{target}", "+0,0")  # and the same piece moves on from there later
    assert isinstance(table.settle(), Differ)


def test_a_board_move_reaches_the_lights_once_without_a_flash(table: Table) -> None:
    """The move played, its walk-through ticked off as done on the table and the next
    lights: one change for the LEDs, never a frame of the walk-through's white step."""
    play = table.play
    target = colossus_to_move(table)
    table.move("-0,0")
    assert table.settle() == InHand("0,0")
    handed: list[tuple[Any, ...]] = []
    table.pipeline.append(lambda: handed.append(play.highlights()))  # as the LEDs
    table.move(f"+{target}")
    assert table.settle() == Agree() and table.driver.played == 1
    assert handed == [play.highlights()]
    assert all(h.role is not Role.FIX for h in handed[0])


def test_the_difference_stays_lit_across_a_roll(table: Table) -> None:
    """A new position (here the Destiny roll) clears the presenter's board overlay; the
    driver looks again at once and lights the same difference."""
    play = table.play
    table.move("-0,1", "+5,5")
    assert isinstance(table.settle(), Differ)
    shown: list[int] = []
    table.pipeline.append(lambda: shown.append(len(play.overlay.highlights)))  # as the LEDs
    table.roll(4)
    assert {h.role for h in play.highlights()} == {Role.REMOVE, Role.PLACE}
    assert shown[-1] == 2, "the last redraw shows the difference again"
