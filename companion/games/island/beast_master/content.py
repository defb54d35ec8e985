"""Beast Master's fixed numbers: Banners, Movements and the starting hand (seed 001)."""

from __future__ import annotations

BANNERS = 5
MOVEMENTS = 4
#: What a paid move is called in Beast Master.
MOVEMENT_UNIT = "Movement"
START_CARDS = 3
