"""The five games, looked up by name. Modules are imported on first use."""

from __future__ import annotations

import importlib
import importlib.util

from companion.errors import InvalidOptions
from companion.rules import AnyRules

# name -> module that defines ``RULES``; the order is the home screen's order.
GAME_MODULES: dict[str, str] = {
    "kolossus": "companion.games.kolossus",
    "beast_master": "companion.games.island.beast_master",
    "colossi": "companion.games.island.colossi",
    "colossus_solo": "companion.games.colossus_solo",
    "builders": "companion.games.builders",
}


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
