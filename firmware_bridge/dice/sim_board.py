"""A simulated sensing board: the device side of the board's messages, on a pty.

It is the simulated dice tray with no dice and a sensor matrix (the Pico firmware's
``board_scan.py`` twin), so the host reads it with the real serial reader, codec and
occupancy tracker. Controls: :meth:`lift` and :meth:`place` (a miniature leaves or
reaches a square, as debounced by the firmware), :meth:`set_occupied`, and for the fault
tests :attr:`lose_changes` (frames lost on the wire), :meth:`repeat_last_change`, the
tray's :meth:`unplug`/:meth:`replug` and :meth:`send_raw`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from firmware_bridge.dice.sim_tray import SimDiceTray, _Plug
from firmware_bridge.frames import (
    Message,
    Occupancy,
    OccupancyChange,
    OccupancyRequest,
    encode_frame,
)


class SimSensingBoard(SimDiceTray):
    """Device-side twin of a Pico reading a sensor under each of ``rows`` × ``cols``."""

    def __init__(
        self,
        path: str,
        *,
        rows: int = 11,
        cols: int = 11,
        occupied: Iterable[str] = (),
        landscapes: Iterable[str] | None = None,
        device_id: str = "sim-board",
        boot_id: int | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(path, device_id=device_id, dice=(), boot_id=boot_id, seed=seed)
        self.rows = rows
        self.cols = cols
        self.layers = 1 if landscapes is None else 2
        """2: a second sensor per square sees the landscapes (layer 1)."""
        self._board_lock = threading.Lock()
        self._cells = {self.index(key) for key in occupied}
        self._cells |= {self.index(key, 1) for key in landscapes or ()}
        self._seq = 0
        self._last_frame: bytes | None = None
        self.lose_changes = 0
        """Drop the next N change frames on the wire (their numbers are used up)."""
        self.bitmaps_sent = 0

    def index(self, key: str, layer: int = 0) -> int:
        """The bitmap index of the square ``"r,c"`` in ``layer`` (1: its landscape)."""
        row, _, col = key.partition(",")
        r, c = int(row), int(col)
        if not (0 <= r < self.rows and 0 <= c < self.cols) or not 0 <= layer < self.layers:
            raise ValueError(f"{key} is not a square of a {self.rows}x{self.cols} board")
        return layer * self.rows * self.cols + r * self.cols + c

    def _keys(self, layer: int) -> frozenset[str]:
        size = self.rows * self.cols
        with self._board_lock:
            return frozenset(
                f"{(i - layer * size) // self.cols},{(i - layer * size) % self.cols}"
                for i in self._cells
                if layer * size <= i < (layer + 1) * size
            )

    @property
    def occupied(self) -> frozenset[str]:
        """The squares where a miniature stands."""
        return self._keys(0)

    @property
    def landscapes(self) -> frozenset[str] | None:
        """The squares holding a landscape (None on a board that does not sense them)."""
        return self._keys(1) if self.layers > 1 else None

    @property
    def seq(self) -> int:
        """The number of the last change (sent or not)."""
        with self._board_lock:
            return self._seq

    def lift(self, key: str, layer: int = 0) -> None:
        """A miniature (``layer`` 1: a landscape) leaves ``key`` (nothing happens if the
        square is already empty)."""
        self._set(self.index(key, layer), False)

    def place(self, key: str, layer: int = 0) -> None:
        """A miniature (``layer`` 1: a landscape) reaches ``key`` (nothing happens if
        one is already there)."""
        self._set(self.index(key, layer), True)

    def set_occupied(self, keys: Iterable[str], landscapes: Iterable[str] | None = None) -> None:
        """Make the board sense exactly ``keys`` (and ``landscapes``, on a board with
        that layer), one change per differing square."""
        wanted = {self.index(key) for key in keys}
        size = self.rows * self.cols
        if landscapes is not None and self.layers > 1:
            wanted |= {self.index(key, 1) for key in landscapes}
        else:
            wanted |= {i for i in self._snapshot() if i >= size}  # landscapes stay
        for index in sorted(self._snapshot() ^ wanted):
            self._set(index, index in wanted)

    def repeat_last_change(self) -> None:
        """Send the last change frame again (a duplicated sequence number)."""
        plug = self._plug
        frame = self._last_frame
        if plug is not None and frame is not None:
            self._write(plug, frame)

    def _snapshot(self) -> set[int]:
        with self._board_lock:
            return set(self._cells)

    def _set(self, index: int, occupied: bool) -> None:
        with self._board_lock:
            if (index in self._cells) == occupied:
                return
            if occupied:
                self._cells.add(index)
            else:
                self._cells.discard(index)
            self._seq += 1
            frame = encode_frame(OccupancyChange(self._seq, index, occupied))
            self._last_frame = frame
            plug = self._plug
            if self.lose_changes > 0:
                self.lose_changes -= 1
            elif plug is not None and plug.connected:
                self._write(plug, frame)  # under the lock: changes and bitmaps stay in order

    def _send_bitmap(self, plug: _Plug) -> None:
        with self._board_lock:
            bitmap = Occupancy(self.rows, self.cols, self._seq, frozenset(self._cells), self.layers)
            self.bitmaps_sent += 1
            self._send(plug, bitmap)

    def _after_hello(self, plug: _Plug) -> None:
        self._send_bitmap(plug)

    def _answer_other(self, plug: _Plug, message: Message) -> None:
        if isinstance(message, OccupancyRequest):
            self._send_bitmap(plug)
