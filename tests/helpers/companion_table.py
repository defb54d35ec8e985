"""Play against the companion through the presenters (no Kivy): the thread seam held
(:class:`HeldRunner` runs a decision only when the test says), budgets on a
:class:`TickingClock` (a fixed number of readings, never the machine's speed), the
table doing what the game asks until the companion thinks, and a simulated sensing
board settled by hand (:class:`SettledBoard`)."""

from __future__ import annotations

import re

from companion.bots import Decision, Level
from companion.bots.core import TickingClock
from companion.games import get_rules
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.layout import LedLayout
from kiosk.presenters.companion import CompanionTurn, Done, Proposal, Think
from kiosk.presenters.companion_seats import CompanionSeats
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import SETTLE_S, SensingDriver, Verdict, miniatures
from kiosk.presenters.setup import SetupPresenter

BLUEPRINTS: list[dict[str, object]] = [  # of 4 to 12 Parts: not every one fits a hand
    {
        "name": f"Blueprint {i}",
        "rune_cost": 3 + i % 4,
        "parts": {"head": 1 + 4 * (i % 3), "leg": 2, "arm": 1},
    }
    for i in range(12)
]
"""A Builders Blueprint table (the game's option ``blueprints``): its deck is hidden."""


class HeldRunner:
    """The thread seam, held: a decision runs when :meth:`finish` says."""

    def __init__(self) -> None:
        self.held: list[tuple[Think, Done]] = []

    def start(self, think: Think, done: Done) -> None:
        self.held.append((think, done))

    def finish(self) -> Decision:
        think, done = self.held.pop(0)
        decision = think()
        done(decision)
        return decision


def ticking() -> TickingClock:
    return TickingClock(step=0.01)  # Easy: 5 readings; Medium 6; Hard 50


def turn_for(play: PlayPresenter, seats: CompanionSeats) -> tuple[CompanionTurn, HeldRunner]:
    runner = HeldRunner()
    return CompanionTurn(play, seats, runner, ticking()), runner


def started(game: str, levels: dict[int, Level], journal: Journal | None = None) -> Session:
    """A game started from Setup with ``levels``' seats the companion's (players added
    up to the highest seat named)."""
    setup = SetupPresenter(get_rules(game))
    while len(setup.levels) <= max(levels, default=0):
        setup.add_player()
    for seat, level in levels.items():
        while setup.levels[seat] != level:
            setup.cycle_seat(seat)
    session = setup.start(seed=7, journal=journal)
    assert session is not None, setup.banner
    return session


def until_thinking(turn: CompanionTurn, runner: HeldRunner, rolls: list[str] | None = None) -> None:
    """The table does what the game asks before the companion can think: the dice
    rolled, the table fixed as the last move's steps say; ``rolls``: what the screen
    said each time the companion's dice were asked for."""
    rolls = [] if rolls is None else rolls
    play = turn.play
    while not runner.held:
        assert not turn.paused and play.queries.outcome is None
        if play.fix.step is not None:
            play.fix.finish()
        else:
            request, seat = play.queries.dice_request(), play.queries.seat()
            assert request is not None
            if turn.seats.level(seat) is not None:  # the companion's dice: the table's
                assert seat is not None
                rolls.append(f"Roll for {turn.who(seat)}: {request.label}")
                view = turn.view()
                assert view is not None and view.text == rolls[-1]
            assert play.dice.roll_in_software()


def until_a_miniature_moves(
    turn: CompanionTurn, runner: HeldRunner, rolls: list[str] | None = None, most: int = 80
) -> Proposal:
    """Kolossus: the companion's actions confirmed by "Done" up to the first that moves
    a miniature (the Invasion, an activation …), which is returned, shown, unmade."""
    for _ in range(most):
        until_thinking(turn, runner, rolls)
        runner.finish()
        proposal = turn.proposal
        assert proposal is not None
        if proposal.payload["type"] == "move":
            return proposal
        assert turn.confirm()
    raise AssertionError(f"the companion moved no miniature in {most} actions")


class SettledBoard:
    """A sensing board on ``play`` whose snapshots settle when the test says."""

    def __init__(self, play: PlayPresenter) -> None:
        self.now = 100.0
        self.play = play
        self.driver = SensingDriver(play, clock=lambda: self.now)

    def shows(self) -> frozenset[str]:
        """The squares of the referee's position (the table as it should stand)."""
        return frozenset(miniatures(self.play.rules.board(self.play.state)))

    def settle(self, occupied: frozenset[str]) -> Verdict | None:
        self.driver.sensed(occupied)
        self.now += SETTLE_S + 0.01
        return self.driver.tick()


SAID_CELL = re.compile(r"\((\d+), (\d+)\)")
SAID_LINE = re.compile(r"\b(row|column) (\d+)\b")


def cells_said(words: str, layout: LedLayout) -> set[str]:
    """The squares a Kolossus move's words name: "(6, 9)", and a Quake's "row 6"."""
    said = {f"{r},{c}" for r, c in SAID_CELL.findall(words)}
    for line, number in SAID_LINE.findall(words):
        index = 0 if line == "row" else 1
        said |= {cell for cell in layout.cells if cell.split(",")[index] == number}
    return said
