"""The sensing board on the kiosk: one :class:`SensingDriver` for the game on screen, and
in simulated mode a hand to lift and place miniatures on the on-screen board.

The hub hands every :class:`~firmware_bridge.board.messages.BoardOccupancy` to
:meth:`BoardSensing.occupancy` (main thread; the kiosk's wiring is the hub's handler);
the driver decides once the board has settled, through a callback the kiosk schedules
(Kivy's ``Clock.schedule_once``, injected so this module runs without a display). With
the simulated board a long press on a square lifts the miniature there and the next tap
puts one down: the person at the screen plays the table's part, and the squares travel
the real path (the twin's pty, the serial reader, the codec).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from firmware_bridge.board.messages import BoardOccupancy
from firmware_bridge.dice.sim_board import SimSensingBoard
from kiosk.hardware import Later, Scheduled
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import SETTLE_S, SensingDriver, landscapes, miniatures


class BoardSensing:
    """Wires a sensing board (real or simulated) to whichever game is on screen."""

    def __init__(
        self,
        *,
        later: Later,
        sim_board: SimSensingBoard | None = None,
        settle_s: float = SETTLE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.later = later
        self.sim_board = sim_board
        self.settle_s = settle_s
        self.clock = clock
        self.driver: SensingDriver | None = None
        self.in_hand = 0
        """Miniatures lifted from the simulated board and not put down yet."""
        self.seq = 0
        """The sequence number of the last change the board's reader applied."""
        self._pending: Scheduled | None = None
        self._occupied: frozenset[str] | None = None
        self._landscapes: frozenset[str] | None = None
        self._play: PlayPresenter | None = None
        self._state: object = None

    def attach(self, play: PlayPresenter) -> None:
        """A game came on screen: follow it (grid games only; others are touch-entered).
        The simulated board is laid out as the game's position, as players would."""
        self.detach()
        if play.rules.board_kind != "grid":
            return
        self._play = play
        self._state = play.state
        self.driver = SensingDriver(
            play, clock=self.clock, schedule=self._schedule, settle_s=self.settle_s
        )
        play.subscribe(self._empty_hand_after_a_move)
        if self.sim_board is not None:
            view = play.rules.board(play.state)
            self.sim_board.set_occupied(miniatures(view), landscapes(view))
        self.in_hand = 0
        if self._occupied is not None:
            self.driver.sensed(self._occupied, self._landscapes)

    @property
    def following(self) -> PlayPresenter | None:
        """The game whose table the board is read for (None: none on screen)."""
        return self._play

    def detach(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if self.driver is not None:
            self.driver.close()
            self.driver = None
        if self._play is not None:
            self._play.unsubscribe(self._empty_hand_after_a_move)
            self._play = None

    def occupancy(self, message: BoardOccupancy) -> None:
        """The hub's handler (main thread)."""
        self._occupied = message.occupied
        self._landscapes = message.landscapes
        self.seq = message.seq
        if self.driver is not None:
            self.driver.sensed(message.occupied, message.landscapes)

    # --- the simulated board's hand -----------------------------------------------------

    def hold(self, cell: str) -> bool:
        """A long press: lift the miniature on ``cell`` (simulated board only)."""
        board = self.sim_board
        if board is None or self.driver is None or cell not in board.occupied:
            return False
        board.lift(cell)
        self.in_hand += 1
        return True

    def tap(self, cell: str) -> bool:
        """A tap while a miniature is in the hand puts it down on ``cell``; True when it
        did (the tap is then not also a touch entry)."""
        board = self.sim_board
        if board is None or self.in_hand == 0 or cell in board.occupied:
            return False
        board.place(cell)
        self.in_hand -= 1
        return True

    def _empty_hand_after_a_move(self) -> None:
        """A move was played: what is still in the hand was beaten, back in the box."""
        play = self._play
        if play is not None and play.state is not self._state:
            self._state = play.state
            self.in_hand = 0

    # --- timing ---------------------------------------------------------------------------

    def _schedule(self, delay: float) -> None:
        if self._pending is not None:
            self._pending.cancel()
        self._pending = self.later(delay, self._tick)

    def _tick(self) -> None:
        self._pending = None
        if self.driver is not None:
            self.driver.tick()
