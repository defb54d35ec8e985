"""Shared test setup.

The test-only game "toy_pig" (tests/toy_game.py) is registered for the whole run, so
the session, journal and protocol can be tested by name without depending on any real
game's details.
"""

from __future__ import annotations

from companion.games import GAME_MODULES

GAME_MODULES.setdefault("toy_pig", "tests.toy_game")
