"""Small builders for island test positions (boards, pieces, Beasts)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from companion.games.island import beast_master as bm
from companion.games.island.board import IslandBoard, SpaceDef, parse_board
from companion.games.island.model import (
    BeastPos,
    IslandConfig,
    IslandState,
    Tile,
)

S = TypeVar("S", bound=IslandState)

# The island rules of each game with its default options (what ``config(state)`` of
# beast_master and colossi gives), for tests of the shared mechanics.
BM_CFG = IslandConfig(
    beast_kills=True,
    spawn_safe_first_step=False,
    tipped_controls=True,
    hand_limit_immediate=True,
    gold_floor_zero=False,
)

CA_CFG = replace(BM_CFG, beast_kills=False, gold_floor_zero=True, movement_unit="Action")


def graph_board(
    edges: Sequence[tuple[str, str]],
    centre: str,
    *,
    edge_spaces: Sequence[str] = (),
    water: Sequence[str] = (),
) -> IslandBoard:
    """A board from an edge list (one LED per space, in first-seen order)."""
    order: list[str] = []
    adj: dict[str, list[str]] = {}
    for a, b in edges:
        for x in (a, b):
            if x not in adj:
                adj[x] = []
                order.append(x)
        adj[a].append(b)
        adj[b].append(a)
    spaces = [
        {
            "id": sid,
            "adjacent": adj[sid],
            "edge": sid in edge_spaces,
            "water": sid in water,
            "leds": [k],
        }
        for k, sid in enumerate(order)
    ]
    return parse_board({"name": "test", "centre": centre, "spaces": spaces})


def line_board(length: int) -> IslandBoard:
    """a0 - a1 - ... (both ends are edge spaces; centre in the middle)."""
    ids = [f"a{k}" for k in range(length)]
    return graph_board(
        list(itertools.pairwise(ids)),
        ids[length // 2],
        edge_spaces=(ids[0], ids[-1]),
    )


def grid_board(rows: int, cols: int) -> IslandBoard:
    """A square grid with 4-neighbourhood: a non-hex island shape."""
    edges = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                edges.append((f"g{r}{c}", f"g{r}{c + 1}"))
            if r + 1 < rows:
                edges.append((f"g{r}{c}", f"g{r + 1}{c}"))
    rim = [
        f"g{r}{c}"
        for r in range(rows)
        for c in range(cols)
        if r in (0, rows - 1) or c in (0, cols - 1)
    ]
    return graph_board(edges, f"g{rows // 2}{cols // 2}", edge_spaces=rim)


def place(
    state: S,
    *,
    acolytes: Mapping[str, Mapping[int, int]] | None = None,
    colossi: Mapping[int, str | None] | None = None,
    beasts: Sequence[tuple[str, str]] | None = None,
    tiles: Mapping[str, Tile | None] | None = None,
    water: Sequence[str] = (),
    extra: Mapping[str, Any] | None = None,
) -> S:
    """A copy of ``state`` with pieces placed; Acolytes come from (go back to) hand."""
    index = state.board.graph.index
    spaces = list(state.spaces)
    in_hand = list(state.acolytes_in_hand)
    for space, per_seat in (acolytes or {}).items():
        sp = spaces[index[space]]
        counts = list(sp.acolytes)
        for seat, n in per_seat.items():
            in_hand[seat] -= n - counts[seat]
            counts[seat] = n
        spaces[index[space]] = sp.model_copy(update={"acolytes": tuple(counts)})
    for space, tile in (tiles or {}).items():
        spaces[index[space]] = spaces[index[space]].model_copy(update={"tile": tile})
    for space in water:
        spaces[index[space]] = spaces[index[space]].model_copy(update={"water": True})
    cols = list(state.colossi)
    for seat, where in (colossi or {}).items():
        cols[seat] = where
    update: dict[str, Any] = {
        "spaces": tuple(spaces),
        "acolytes_in_hand": tuple(in_hand),
        "colossi": tuple(cols),
    }
    if beasts is not None:
        update["beasts"] = tuple(BeastPos(name=n, space=s) for n, s in beasts)
    update.update(extra or {})
    return state.model_copy(update=update)


def explored(state: S, tile: Tile | None = None) -> S:
    """Every space explored (so moves do not queue exploring)."""
    t = tile or Tile(kind="environment", name="Plain")
    return place(state, tiles=dict.fromkeys(state.board.ids, t))


def connected_board_from(
    n: int, parents: Sequence[int], extra: Sequence[tuple[int, int]], centre: int
) -> IslandBoard:
    """A connected board: node k>0 links to ``parents[k-1] % k``, plus extra links."""
    pairs: set[tuple[int, int]] = set()
    for k in range(1, n):
        pairs.add((parents[k - 1] % k, k))
    for a, b in extra:
        a, b = a % n, b % n
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    adj: dict[int, list[str]] = {k: [] for k in range(n)}
    for a, b in sorted(pairs):
        adj[a].append(f"s{b}")
        adj[b].append(f"s{a}")
    spaces = [
        SpaceDef(id=f"s{k}", adjacent=tuple(adj[k]), edge=len(adj[k]) <= 2, leds=(2 * k, 2 * k + 1))
        for k in range(n)
    ]
    return IslandBoard(name="random", centre=f"s{centre % n}", spaces=tuple(spaces))


def beast_master(players: int = 2, **options: Any) -> bm.BeastMasterState:
    """A new Beast Master game of Ann, Bob, Cleo and Dov (the first ``players``) with
    ``options`` as a table would enter them (seed 7)."""
    names = ["Ann", "Bob", "Cleo", "Dov"][:players]
    return bm.RULES.setup(names, bm.RULES.parse_options(options), seed=7)
