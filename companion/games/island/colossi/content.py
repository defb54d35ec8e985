"""The numbers of the Colossi box (seed 002): Actions, the starting hand, the Ages, Traits."""

from __future__ import annotations

ACTIONS = 4
#: What a paid move is called in Colossi.
MOVEMENT_UNIT = "Action"
START_CARDS = 2
AGES = 3
AGE_NAMES = ("I", "II", "III")
MAX_TRAITS = 2
