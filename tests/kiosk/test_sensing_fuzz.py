"""Fuzzed occupancy streams into the move inference: never a spurious move.

A table is simulated in memory (no pty, so hypothesis can draw many streams): players
make legal moves, captures, slides, wrong placements and plain noise on the squares,
while the wire loses, repeats and reorders change events and the cable comes out
mid-move. The host's :class:`OccupancyTracker` (the reader's own) turns what arrives
into snapshots for the :class:`SensingDriver`, whose clock jumps at random.

Properties: an action is played only when the physical board really was the referee's
position after it (at the last change the host has; later ones are still on the wire)
and a beaten miniature was really lifted, and after a reconnect the whole bitmap
brings the driver back to the physical board.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from companion.games.kolossus.model import Move
from companion.session import Session
from firmware_bridge.board.tracker import OccupancyTracker
from firmware_bridge.frames import Occupancy, OccupancyChange
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import SETTLE_S, SensingDriver, miniatures
from tests.helpers.clock import FakeClock
from tests.helpers.kolossus_positions import (
    START,  # the bench's position too
)

SIZE = 11


def index(key: str) -> int:
    row, col = key.split(",")
    return int(row) * SIZE + int(col)


@dataclass
class Wire:
    """The physical board, the Pico's numbering and the faults between it and the host."""

    physical: set[str]
    seq: int = 0
    queue: list[OccupancyChange] = field(default_factory=list)
    lifted: Counter[str] = field(default_factory=Counter)
    """Lifts made on each square (for the capture check)."""
    history: list[tuple[frozenset[str], Counter[str]]] = field(default_factory=list)
    """The board and its lifts after each change (index = seq): what the host may know."""

    def __post_init__(self) -> None:
        self.history.append((frozenset(self.physical), Counter()))

    def toggle(self, key: str) -> None:
        self.seq += 1
        if key in self.physical:
            self.physical.discard(key)
            self.lifted[key] += 1
            self.queue.append(OccupancyChange(self.seq, index(key), False))
        else:
            self.physical.add(key)
            self.queue.append(OccupancyChange(self.seq, index(key), True))
        self.history.append((frozenset(self.physical), Counter(self.lifted)))

    def bitmap(self) -> Occupancy:
        return Occupancy(SIZE, SIZE, self.seq, frozenset(index(k) for k in self.physical))


def before_last(session: Session[Any, Any, Any]) -> Any:
    """The position before the session's last action, replayed from its start."""
    state = session.initial_state
    for action in session.actions[:-1]:
        state, _ = session.rules.apply(state, action)
    return state


squares = st.builds(lambda r, c: f"{r},{c}", st.integers(0, 10), st.integers(0, 10))
steps = st.lists(
    st.one_of(
        st.tuples(st.just("legal"), st.integers(0, 1000)),
        st.tuples(st.just("legal"), st.integers(0, 1000)),
        st.tuples(st.just("toggle"), squares),
        st.tuples(st.just("lose"), st.none()),
        st.tuples(st.just("repeat"), st.none()),
        st.tuples(st.just("swap"), st.none()),
        st.tuples(st.just("deliver"), st.none()),
        st.tuples(st.just("reconnect"), st.none()),
        st.tuples(st.just("wait"), st.floats(0.0, 1.0)),
        st.tuples(st.just("wait"), st.floats(0.0, 1.0)),
    ),
    max_size=40,
)


@given(steps)
@settings(max_examples=100, deadline=None)
def test_no_spurious_move_from_any_occupancy_stream(plan: list[tuple[str, Any]]) -> None:
    play = PlayPresenter(Session.from_position("kolossus", START, options={"chapter": 3}))
    now = FakeClock(0.0)
    driver = SensingDriver(play, clock=now)
    wire = Wire(set(miniatures(play.rules.board(play.state))))
    tracker = OccupancyTracker()
    driver.sensed(tracker.on_bitmap(wire.bitmap()))
    lifted_at_last_action: Counter[str] = Counter()

    def check_played(before: int) -> None:
        """The move just played is the position the board really had when the host's
        last change was made (events still on the wire are not known yet), and each
        square whose miniature it replaced was really lifted since the last move."""
        nonlocal lifted_at_last_action
        if len(play.session.actions) == before:
            return
        board_then, lifted_then = wire.history[tracker.seq]
        assert frozenset(miniatures(play.rules.board(play.state))) == board_then
        action = play.session.actions[-1]
        expected_before = miniatures(play.rules.board(before_last(play.session)))
        after = miniatures(play.rules.board(play.state))
        for cell, who in after.items():
            if cell in expected_before and expected_before[cell] != who:
                assert lifted_then[cell] > lifted_at_last_action[cell], (action, cell)
        lifted_at_last_action = Counter(lifted_then)

    def deliver() -> None:
        for change in wire.queue:
            occupied = tracker.on_change(change)
            if occupied is not None:
                driver.sensed(occupied)
            elif tracker.wants_bitmap:  # the reader posts "unknown", then asks
                driver.sensed(None)
                driver.sensed(tracker.on_bitmap(wire.bitmap()))
        wire.queue.clear()

    for action, arg in plan:
        if action == "legal":
            moves = [m for m in play.rules.legal_actions(play.state) if isinstance(m, Move)]
            if moves:
                move = moves[arg % len(moves)]
                cells = play.rules.action_cells(play.state, move)
                for beaten in sorted(cells.touched - {cells.origin, cells.target}):
                    wire.toggle(beaten)
                wire.toggle(move.from_)
                if move.to != move.from_:
                    if move.to in wire.physical:
                        wire.toggle(move.to)  # the beaten miniature on the target
                    wire.toggle(move.to)
                else:
                    wire.toggle(move.from_)
        elif action == "toggle":
            wire.toggle(arg)
        elif action == "lose" and wire.queue:
            wire.queue.pop()
        elif action == "repeat" and wire.queue:
            wire.queue.append(wire.queue[-1])
        elif action == "swap" and len(wire.queue) >= 2:
            wire.queue[-1], wire.queue[-2] = wire.queue[-2], wire.queue[-1]
        elif action == "deliver":
            deliver()
        elif action == "reconnect":  # mid-move: what is on the wire is gone
            wire.queue.clear()
            driver.sensed(None)
            tracker = OccupancyTracker()
            driver.sensed(tracker.on_bitmap(wire.bitmap()))
        elif action == "wait":
            now.advance(arg)
            before = len(play.session.actions)
            driver.tick()
            check_played(before)
    deliver()
    if tracker.seq != wire.seq:
        driver.sensed(tracker.on_bitmap(wire.bitmap()))
    assert driver.inference.occupied == frozenset(wire.physical), "resynchronised"
    now.advance(SETTLE_S + 1)
    before = len(play.session.actions)
    driver.tick()
    check_played(before)
    event(f"moves played from the board: {driver.played}")
    driver.close()
