"""A small hand-made island for the shared rules' tests (test_island_rules_*.py)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import RuleViolation
from companion.games.island.model import IslandState
from tests.helpers.island import actions_turn

from .helpers import graph_board, place

#   e - a - o - b - f        e and f on the edge; w (Water) and c hang off o
#           | \
#           w   c
EDGES = [("o", "a"), ("a", "e"), ("o", "b"), ("b", "f"), ("o", "w"), ("o", "c")]
BOARD = graph_board(EDGES, "o", edge_spaces=("e", "f"), water=("w",))


def position(game: str = "beast_master", **pieces: Any) -> Any:
    """Ann's Actions turn (4 Movements) on the island above, everything explored; Ann's
    Colossus on o, one of her Acolytes on a, Bob's Colossus on f, the Wyrm on b (unless
    said otherwise)."""
    pieces.setdefault("colossi", {0: "o", 1: "f"})
    pieces.setdefault("acolytes", {"a": {0: 1}})
    pieces.setdefault("beasts", [("Wyrm", "b")])
    water = ("w", *pieces.pop("water", ()))
    state: IslandState = place(actions_turn(game, BOARD), water=water, **pieces)
    return state


def refused(call: Any, *args: Any, **kwargs: Any) -> tuple[str, str | None]:
    """The refusal ``call(*args, **kwargs)`` raises: its sentence and its ruling."""
    with pytest.raises(RuleViolation) as err:
        call(*args, **kwargs)
    return err.value.message, err.value.ruling
