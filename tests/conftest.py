"""Shared test setup.

The test-only game "toy_pig" (tests/toy_game.py) is registered for the whole run, so
the session, journal and protocol can be tested by name without depending on any real
game's details.

Property tests draw the same examples on every run (hypothesis ``derandomize``), so a
suite that passed on one machine passes on the next and a failure reproduces as it is.
``HYPOTHESIS_PROFILE=explore scripts/test`` draws fresh random examples instead, to
look for new faults; a fault found that way becomes a named test or an ``@example``.
"""

from __future__ import annotations

import os

from hypothesis import settings

from companion.games import GAME_MODULES

GAME_MODULES.setdefault("toy_pig", "tests.toy_game")

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
