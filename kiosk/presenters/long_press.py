"""The hidden way to the admin page: one finger held still on a screen's title.

Its own module, without the admin page's presenters: the shop listens for it from
launch, and the admin page (PIN store, doctor, LED controls) loads when first opened.
"""

from __future__ import annotations

HOLD_S = 3.0  # the hidden gesture: a press this long on a screen's title
SLOP_PX = 24.0  # a finger may wander this far and still be "holding"


class LongPress:
    """One finger held still for ``hold_s`` seconds; fires once per press."""

    def __init__(self, hold_s: float = HOLD_S, slop_px: float = SLOP_PX) -> None:
        self.hold_s = hold_s
        self.slop_px = slop_px
        self._start: tuple[float, float, float] | None = None

    @property
    def pressing(self) -> bool:
        return self._start is not None

    def down(self, x: float, y: float, now: float) -> None:
        self._start = (x, y, now)

    def move(self, x: float, y: float) -> None:
        if self._start is not None:
            sx, sy, _ = self._start
            if abs(x - sx) > self.slop_px or abs(y - sy) > self.slop_px:
                self._start = None

    def up(self) -> None:
        self._start = None

    @property
    def holding(self) -> bool:
        """A finger is down on the title and may still become the gesture."""
        return self._start is not None

    def fired(self, now: float) -> bool:
        """True once, when the finger has been down long enough."""
        if self._start is None or now - self._start[2] < self.hold_s:
            return False
        self._start = None
        return True
