"""The move inference on hand-made positions (snapshots fed straight to the driver, no
pty): a weapon after the Colossus's move, and what the walk-through checks."""

from __future__ import annotations

from companion.games.kolossus import RULES
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import SETTLE_S, Agree, SensingDriver, miniatures
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
    now = [0.0]
    driver = SensingDriver(play, clock=lambda: now[0])
    board = set(miniatures(play.rules.board(play.state)))
    driver.sensed(frozenset(board))  # the board's first bitmap

    def sense(*steps: str) -> object:
        for step in steps:
            (board.discard if step[0] == "-" else board.add)(step[1:])
            driver.sensed(frozenset(board))
        now[0] += SETTLE_S + 0.01
        return driver.tick()

    assert sense() == Agree()
    assert sense("-6,3", "+3,3") == Agree()
    assert play.rules.dump_action(play.session.actions[-1])["to"] == "3,3"
    assert play.state.phase == "after_move"
    assert sense("-0,3") == Agree()
    assert play.rules.dump_action(play.session.actions[-1]) == {"type": "spear", "target": "0,3"}
    assert play.fix_step is None, "the Guardian's removal was seen: its step is done"
    assert driver.played == 2
