"""Builders games for the tests: a new game, actions applied in turn, runes and builds
handed out, and the blueprint table the card tests use."""

from __future__ import annotations

from typing import Any

from companion.games.builders import RULES, BuildersAction, BuildersState
from companion.games.builders.model import BuildRecord


def new_game(players: int = 3, seed: int = 7, **options: Any) -> BuildersState:
    return RULES.setup(NAMES[:players], RULES.parse_options(options), seed)


def act(state: BuildersState, *actions: BuildersAction) -> BuildersState:
    for action in actions:
        state, _ = RULES.apply(state, action)
    return state


def with_runes(state: BuildersState, *runes: int) -> BuildersState:
    """Set Runes while keeping the stockpile bookkeeping consistent."""
    flows = tuple(r - 10 for r in runes)
    return state.model_copy(
        update={
            "runes": runes,
            "from_stockpile": tuple(max(f, 0) for f in flows),
            "sealed": tuple(max(-f, 0) for f in flows),
        }
    )


def with_builds(state: BuildersState, *builders: int) -> BuildersState:
    """Pretend Colossi were already built by the given seats."""
    records = tuple(
        BuildRecord(player=p, turn=1, slot=1, blueprint=None, rune_cost=3, accessories=0, cards=5)
        for p in builders
    )
    return state.model_copy(update={"builds": records})


TABLE: list[dict[str, Any]] = [
    {"name": f"Blueprint {i}", "rune_cost": 3 + i % 4, "parts": {"head": 1, "leg": 2, "arm": 1}}
    for i in range(12)
]


NAMES = ["Ann", "Bob", "Cleo", "Dov"]
