"""Kolossus – The Citadel of Time (seed 000), Chapters 1–3. See docs/games/kolossus.md."""

from companion.games.kolossus.model import KolossusAction, KolossusOptions, KolossusState
from companion.games.kolossus.rules import RULES, KolossusRules

__all__ = ["RULES", "KolossusAction", "KolossusOptions", "KolossusRules", "KolossusState"]
