"""Beast Master (seed 001): 15 turns each of Actions or Rest, Banners, one Beast.

One of the two island games (the island itself is :mod:`companion.games.island`):
``content.py`` (its fixed numbers), ``model.py`` (options, state, actions), ``play.py``
(the handlers), ``rules.py`` (the referee's contract) and ``views.py``.
"""

from companion.games.island.beast_master.model import (
    BeastMasterAction,
    BeastMasterOptions,
    BeastMasterState,
)
from companion.games.island.beast_master.rules import RULES, BeastMasterRules

__all__ = [
    "RULES",
    "BeastMasterAction",
    "BeastMasterOptions",
    "BeastMasterRules",
    "BeastMasterState",
]
