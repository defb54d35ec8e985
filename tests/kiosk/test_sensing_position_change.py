"""A move made on the sensing board right after the position changed by a tap, a die
or "Done" — before the board's next settled tick — counts for the new position: the
squares a capture lifts and fills are not forgotten with the old move (found in the
companion's long run: its capture made by hand right after its dice, the beaten
miniature's lift and return lost, the move left "in the hand" with nothing more to
read)."""

from __future__ import annotations

from companion.dice import Roll
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import SETTLE_S, Agree, SensingDriver, miniatures
from tests.helpers.clock import FakeClock
from tests.helpers.kolossus_positions import round_one_script


def test_a_capture_made_by_hand_before_the_tick_after_a_die_is_played() -> None:
    """K-R13: the Colossus beats the Firbolg Warrior on 8,1 — lifted, then the Colossus
    set down there — made on the board as soon as its movement dice are in."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=1))
    *before, dice = round_one_script()
    for step in before:
        assert play.submit(step), play.banner
    now, waits = FakeClock(0.0), list[float]()
    driver = SensingDriver(play, clock=now, schedule=waits.append)  # ticks when told
    occupied = frozenset(miniatures(play.rules.board(play.state)))
    driver.sensed(occupied)
    now.advance(1.0)
    driver.tick()
    assert driver.verdict == Agree()
    assert isinstance(dice, Roll) and play.submit(dice)  # the dice typed in: 12 MP
    count = len(play.session.actions)
    for change in ({"8,1"}, {"8,1", "1,0"}):  # the beaten Warrior lifted, the Colossus
        driver.sensed(occupied - change)
    driver.sensed(occupied - {"1,0"})  # the Colossus set down on 8,1
    now.advance(SETTLE_S + 1.0)
    driver.tick()
    assert len(play.session.actions) == count + 1, driver.verdict
    made = play.rules.dump_action(play.session.actions[-1])
    assert (made["from"], made["to"]) == ("1,0", "8,1")
