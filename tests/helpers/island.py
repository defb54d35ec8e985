"""A small island for Beast Master and Colossi: Ann's Colossus and Acolytes, Bob's Colossus,
no Beast, and the spaces left unexplored."""

from __future__ import annotations

from typing import Any

from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.board import IslandBoard
from companion.games.island.model import (
    Tile,
)
from tests.games.island.helpers import graph_board, place

GAMES = ["beast_master", "colossi"]


def island(game: str, *unexplored: str) -> Any:
    """Ann's Colossus on o and her Acolytes on a and b; Bob's Colossus on y; no Beast."""
    state = actions_turn(game, graph_board(EDGES, "o"))
    return place(
        state,
        colossi={0: "o", 1: "y"},
        acolytes={"a": {0: 1}, "b": {0: 1}},
        beasts=[],
        tiles=dict.fromkeys(unexplored),
    )


NAMES = ["Ann", "Bob"]


#   x - a - o - b - y        (c hangs off o with nobody on it)
#           |
#           c
EDGES = [("o", "a"), ("a", "x"), ("o", "b"), ("b", "y"), ("o", "c")]


def actions_turn(game: str, board: IslandBoard) -> Any:
    """Ann's Actions turn with 4 Movements (Actions in Colossi), everything explored."""
    if game == "beast_master":
        state: Any = bm.RULES.setup(NAMES, bm.BeastMasterOptions(board=board), seed=5)
    else:
        state = ca.RULES.setup(NAMES, ca.ColossiOptions(board=board, use_traits=False), 5)
    state = state.model_copy(update={"phase": "actions", "movements_left": 4, "active": 0})
    return place(state, tiles=dict.fromkeys(board.ids, PLAIN))


PLAIN = Tile(kind="environment", name="Plain")
