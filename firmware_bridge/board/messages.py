"""What the sensing board's reader posts to its owner's queue."""

from __future__ import annotations

from dataclasses import dataclass

BOARD_READER = "sensing-board"
"""The sensing board's reader's name: its ``TrayStatus.device`` (a status badge key)."""


@dataclass(frozen=True, slots=True)
class BoardOccupancy:
    """The squares that sense a piece now, as cell keys (``"r,c"``).

    A whole snapshot rather than a delta, so a lost message can never leave the owner
    with a wrong picture: each one replaces the last. ``occupied`` is None while the
    reader does not know the board (disconnected, or waiting for the whole bitmap after
    a gap): moves are then entered by touch. ``resync`` marks a snapshot made from the
    whole bitmap (on connect, after a gap) rather than from one change.
    """

    device: str
    occupied: frozenset[str] | None
    seq: int = 0
    resync: bool = False
    landscapes: frozenset[str] | None = None
    """The squares that sense a landscape, on a board with that second layer (else
    None); unknown whenever ``occupied`` is."""
