"""The five games, looked up by name. Modules are imported on first use."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import InvalidOptions

if TYPE_CHECKING:  # the rules load with the first game: a list of games needs none of them
    from companion.rules import AnyRules

# name -> module that defines ``RULES``; the order is the home screen's order.
GAME_MODULES: dict[str, str] = {
    "kolossus": "companion.games.kolossus",
    "beast_master": "companion.games.island.beast_master",
    "colossi": "companion.games.island.colossi",
    "colossus_solo": "companion.games.colossus_solo",
    "builders": "companion.games.builders",
}


@dataclass(frozen=True)
class GameSummary:
    """What a list of games shows of one: its title and how many may play."""

    title: str
    min_players: int
    max_players: int


#: The summaries of the five games, so that a list of them (the home screen) needs none
#: of their modules: loading all five costs about 6 MB and a few hundred milliseconds of
#: a Pi's start. tests/test_contract.py checks each against its ``Rules``.
SUMMARIES: dict[str, GameSummary] = {
    "kolossus": GameSummary("Kolossus – The Citadel of Time", 2, 4),
    "beast_master": GameSummary("Beast Master", 2, 4),
    "colossi": GameSummary("Colossi", 2, 4),
    "colossus_solo": GameSummary("Colossus", 1, 1),
    "builders": GameSummary("Builders of the Colossus", 2, 4),
}


def game_summary(name: str) -> GameSummary:
    """Game ``name``'s summary, from :data:`SUMMARIES` without loading its module (from its
    ``Rules`` for a game registered elsewhere); InvalidOptions for an unknown game."""
    found = SUMMARIES.get(name)
    if found is not None:
        return found
    rules = get_rules(name)
    return GameSummary(rules.title, rules.min_players, rules.max_players)


def available_games() -> list[str]:
    """Names of the games whose module is present in this build, in home-screen order."""
    names = []
    for name, module in GAME_MODULES.items():
        try:
            if importlib.util.find_spec(module) is not None:
                names.append(name)
        except ModuleNotFoundError:  # a parent package is absent
            continue
    return names


def get_rules(name: str) -> AnyRules:
    """The referee of game ``name``; InvalidOptions naming the known games otherwise."""
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        known = ", ".join(GAME_MODULES)
        raise InvalidOptions(f"Unknown game {name!r}; the games are: {known}.")
    module = importlib.import_module(module_name)
    rules: AnyRules = module.RULES
    return rules
