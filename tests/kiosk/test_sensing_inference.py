"""The move inference on hand-made positions (snapshots fed straight to the driver, no
pty): a weapon after the Colossus's move, and what the walk-through checks."""

from __future__ import annotations

from companion.games.kolossus import RULES
from companion.games.kolossus.model import KolossusState
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import SETTLE_S, Agree, SensingDriver, landscapes, miniatures
from tests.games.kolossus.helpers import (
    SE,
    SW,
    act,
    charge,
    in_turn,
    new_game,
    pid,
    place,
    roll,
    set_skills,
)
from tests.helpers.clock import FakeClock
from tests.helpers.presenters import state_as


def test_the_colossus_moves_then_spears_by_the_board_alone() -> None:
    """The seed's Spear example (K-R29): Dagda moves 6,3 → 3,3, then beats the Firbolg
    Guardian on 0,3; on the table that is a move, then the Guardian lifted away."""
    state = new_game(chapter=3)
    state = place(state, {pid(SE, "C"): "6,3", pid(SW, "G"): "0,3"})
    state = set_skills(state, SW, guardian_defence=2)
    state = charge(state, SE, "spear")
    state = in_turn(state, SE, ap=3)
    state = roll(act(state, {"type": "choose_class", "cls": "C"})[0], 2, 3, 3)
    play = PlayPresenter(Session.from_position("kolossus", RULES.dump_position(state)))
    now = FakeClock(0.0)
    driver = SensingDriver(play, clock=now)
    board = set(miniatures(play.rules.board(play.state)))
    driver.sensed(frozenset(board))  # the board's first bitmap

    def sense(*steps: str) -> object:
        for step in steps:
            (board.discard if step[0] == "-" else board.add)(step[1:])
            driver.sensed(frozenset(board))
        now.advance(SETTLE_S + 0.01)
        return driver.tick()

    assert sense() == Agree()
    assert sense("-6,3", "+3,3") == Agree()
    assert play.rules.dump_action(play.session.actions[-1])["to"] == "3,3"
    assert state_as(play, KolossusState).phase == "after_move"
    assert sense("-0,3") == Agree()
    assert play.rules.dump_action(play.session.actions[-1]) == {"type": "spear", "target": "0,3"}
    assert play.fix.step is None, "the Guardian's removal was seen: its step is done"
    assert driver.played == 2


def test_the_great_quake_is_read_off_a_board_that_senses_landscapes() -> None:
    """The Invasion's Great Quake moves only landscapes (K-R04, K-R05): a board with a
    landscape layer sees row 3 shift one square east, tile by tile from its east end, and
    plays that Quake; every step of its walk-through was done on the table."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], {"chapter": 1}, seed=1))
    assert play.submit({"type": "ready"})
    assert play.submit({"type": "roll", "values": [1], "source": "manual"})
    now = FakeClock(0.0)
    driver = SensingDriver(play, clock=now)
    view = play.rules.board(play.state)
    occupied = frozenset(miniatures(view))
    land = set(landscapes(view))
    driver.sensed(occupied, frozenset(land))
    now.advance(SETTLE_S + 0.01)
    assert driver.tick() == Agree()
    row = sorted((int(c.split(",")[1]) for c in land if c.startswith("3,")), reverse=True)
    assert row, "row 3 carries landscapes"
    for col in row:  # from the east end: each tile one square on
        land.discard(f"3,{col}")
        driver.sensed(occupied, frozenset(land))
        if col < 10:
            land.add(f"3,{col + 1}")
            driver.sensed(occupied, frozenset(land))
        now.advance(0.05)  # quicker than the settle wait: half a quake is no position
        assert driver.tick() is None
    now.advance(SETTLE_S + 0.01)
    assert driver.tick() == Agree()
    assert play.rules.dump_action(play.session.actions[-1]) == {
        "type": "quake_move",
        "region": "row3",
        "direction": "east",
        "distance": None,
    }
    assert play.fix.steps and play.fix.step is None, "the walk-through was done on the table"


def test_without_a_landscape_layer_the_great_quake_is_entered_by_touch() -> None:
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], {"chapter": 1}, seed=1))
    assert play.submit({"type": "ready"})
    assert play.submit({"type": "roll", "values": [1], "source": "manual"})
    now = FakeClock(0.0)
    driver = SensingDriver(play, clock=now)
    driver.sensed(frozenset(miniatures(play.rules.board(play.state))))
    now.advance(SETTLE_S + 0.01)
    assert driver.tick() == Agree() and driver.played == 0
