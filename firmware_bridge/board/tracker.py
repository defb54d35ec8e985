"""The host's copy of the sensor matrix, kept consistent from numbered change events.

Pure (no I/O, no clock), one per connection. Changes are applied only in sequence
order; a duplicate or an old one is dropped, and a gap (a change lost on the wire), a
change before any bitmap or a change that contradicts the copy makes the tracker
forget the board and ask for the whole bitmap, which says how far it already goes.
Nothing is ever guessed: while the copy is unknown the reader posts "unknown".
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.frames import Occupancy, OccupancyChange


def cell_key(index: int, cols: int) -> str:
    """The referee's name of bitmap cell ``index`` (row-major): ``"r,c"``."""
    return f"{index // cols},{index % cols}"


@dataclass
class TrackerStats:
    """What the tracker dropped or repaired, for diagnostics and the fault tests."""

    changes: int = 0
    duplicates: int = 0
    gaps: int = 0
    contradictions: int = 0
    bitmaps: int = 0


class OccupancyTracker:
    """Feed it the board's messages; it answers the occupancy to post, if any."""

    def __init__(self) -> None:
        self.rows = 0
        self.cols = 0
        self.layers = 1
        self.seq = 0
        self._occupied: set[int] | None = None
        self.wants_bitmap = True
        """True until a bitmap arrives after a connect or a gap (the reader asks again)."""
        self.stats = TrackerStats()

    @property
    def known(self) -> bool:
        return self._occupied is not None

    def snapshot(self, layer: int = 0) -> frozenset[str] | None:
        """The cells of ``layer`` that sense something, as keys; None while unknown or
        when the board has no such layer (0 = miniatures, 1 = landscapes)."""
        if self._occupied is None or layer >= self.layers:
            return None
        size = self.rows * self.cols
        start = layer * size
        return frozenset(
            cell_key(i - start, self.cols) for i in self._occupied if start <= i < start + size
        )

    def on_bitmap(self, bitmap: Occupancy) -> frozenset[str]:
        """The whole matrix: the truth, whatever came before."""
        self.stats.bitmaps += 1
        self.rows, self.cols, self.seq = bitmap.rows, bitmap.cols, bitmap.seq
        self.layers = bitmap.layers
        self._occupied = set(bitmap.occupied)
        self.wants_bitmap = False
        snapshot = self.snapshot()
        assert snapshot is not None
        return snapshot

    def on_change(self, change: OccupancyChange) -> frozenset[str] | None:
        """The new occupancy when ``change`` applies, else None (dropped or waiting)."""
        occupied = self._occupied
        if occupied is None or self.wants_bitmap:
            return None  # the bitmap asked for will include it
        if change.seq <= self.seq:
            self.stats.duplicates += 1
            return None
        if change.seq != self.seq + 1 or not 0 <= change.cell < self.rows * self.cols * self.layers:
            self.stats.gaps += 1
            self._forget()
            return None
        if (change.cell in occupied) == change.occupied:
            self.stats.contradictions += 1  # a change that changes nothing: out of step
            self._forget()
            return None
        self.seq = change.seq
        self.stats.changes += 1
        if change.occupied:
            occupied.add(change.cell)
        else:
            occupied.discard(change.cell)
        return self.snapshot()

    def _forget(self) -> None:
        self._occupied = None
        self.wants_bitmap = True
