"""Colossi (seed 002): three Ages of Action and Harvest Phases, Mantle, Traits, Water, Lairs.

One of the two island games (the island itself is :mod:`companion.games.island`):
``content.py`` (the box's numbers), ``model.py`` (options, state, actions), ``play.py``
(the handlers, with the Age cycle in ``ages.py``), ``rules.py`` (the referee's contract)
and ``views.py``.
"""

from companion.games.island.colossi.model import ColossiAction, ColossiOptions, ColossiState
from companion.games.island.colossi.rules import RULES, ColossiRules

__all__ = ["RULES", "ColossiAction", "ColossiOptions", "ColossiRules", "ColossiState"]
