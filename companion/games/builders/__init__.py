"""Builders of the Colossus (seed 004): Runes, Parts hands and ten Blueprints.

The referee keeps what the table cannot see at a glance: every player's Runes, how many
Parts cards each hand holds (never which ones), the Parts deck count, the Colossi counter,
the three face-up Blueprint slots, who has acted how this turn, and the zero-Rune checks
that can end the game early. Hands are refilled to 10 right after anything that leaves a
player short (BC-R06), so the counts always add up to the 135 Parts cards.

Blueprint texts are not in the rules, so by default a build is recorded by slot, Rune Cost
(3–6) and Accessories, and only the Rune arithmetic is checked (BC-R15). A user-supplied
Blueprint table (see :func:`parse_blueprint_table`) turns on a virtual Blueprint deck and
a full check of the Parts laid out.
"""

from __future__ import annotations

from companion.games.builders.model import BuildersAction, BuildersOptions, BuildersState
from companion.games.builders.rules import RULES, BuildersRules

__all__ = ["RULES", "BuildersAction", "BuildersOptions", "BuildersRules", "BuildersState"]
