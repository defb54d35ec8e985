"""Which chain a Movement takes (B.3: "a hazard-free path first") and the path preview.

The referee picks, among the legal Road chains to a destination: no death on the way
(BM-R07), then the fewest unexplored spaces crossed, then the fewest steps. The same
chain is used for a move sent without ``path`` and shown by the ``"from>to"`` focus.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.board import IslandBoard, placeholder_board
from companion.games.island.mechanics import (
    check_path,
    destinations,
)
from companion.games.island.model import (
    AcolyteDied,
    IslandConfig,
    IslandState,
    Move,
    PendingExplore,
    PieceKind,
    PieceMoved,
    Spawn,
    Tile,
)
from companion.highlights import Highlight, Role

from .helpers import BM_CFG, connected_board_from, explored, graph_board, place

NAMES = ["Ann", "Bob", "Cleo"]
PLAIN = Tile(kind="environment", name="Plain")


def bm_actions(board: IslandBoard) -> bm.BeastMasterState:
    state = bm.RULES.setup(NAMES[:2], bm.BeastMasterOptions(board=board), seed=5)
    return state.model_copy(update={"phase": "actions", "movements_left": 4})


def ca_actions(board: IslandBoard) -> ca.ColossiState:
    state = ca.RULES.setup(NAMES[:2], ca.ColossiOptions(board=board, use_traits=False), 5)
    return state.model_copy(update={"phase": "actions", "movements_left": 4, "active": 0})


def unexplored(state: Any, *spaces: str) -> Any:
    """Everything explored except ``spaces``."""
    return place(explored(state, PLAIN), tiles=dict.fromkeys(spaces))


def paths(highlights: tuple[Highlight, ...]) -> list[tuple[int | None, str]]:
    return [(h.step, h.cell) for h in highlights if h.role == Role.PATH]


def moved_path(events: tuple[Any, ...]) -> tuple[str, ...]:
    (moved,) = [e for e in events if isinstance(e, PieceMoved)]
    path: tuple[str, ...] = moved.path
    return path


def explores(state: IslandState) -> list[str]:
    return [p.space for p in state.pending if isinstance(p, PendingExplore)]


# Two chains from o to d: the short one crosses a, the long one b and c.
#   o - a - d
#   o - b - c - d        (z hangs off d)
DIAMOND = [("o", "a"), ("a", "d"), ("o", "b"), ("b", "c"), ("c", "d"), ("d", "z")]


def diamond(rules: Any) -> Any:
    board = graph_board(DIAMOND, "o")
    state = bm_actions(board) if rules is bm.RULES else ca_actions(board)
    return place(
        state,
        colossi={0: "o", 1: "z"},
        acolytes={"a": {0: 1}, "b": {0: 1}, "c": {0: 1}},
        beasts=[],
    )


# --- the path preview ("from>to") -----------------------------------------------------------


def test_preview_on_the_placeholder_shows_selected_reachable_and_the_numbered_path() -> None:
    state = explored(bm_actions(placeholder_board()), PLAIN)
    state = place(state, acolytes={"r2c3": {0: 1}, "r2c4": {0: 1}, "r2c5": {0: 1}})
    marks = bm.RULES.highlights(state, focus="r2c3>r1c5")
    assert marks[0] == Highlight(cell="r2c3", role=Role.SELECTED, player=0)
    plain = bm.RULES.highlights(state, focus="r2c3")
    reachable = {h.cell for h in marks if h.role == Role.REACHABLE}
    assert reachable == {h.cell for h in plain if h.role == Role.REACHABLE}
    assert {"r1c5", "r1c4", "r2c6"} <= reachable  # only through the Acolytes on r2c4/r2c5
    # r3c3 holds Ann's Colossus but also the Beast: an Acolyte dies there (BM-R07)
    assert "r4c3" not in reachable
    assert paths(marks) == [(1, "r2c4"), (2, "r2c5"), (3, "r1c5")]
    assert all(h.player == 0 for h in marks if h.role == Role.PATH)
    # a plain focus previews no path: nothing is hovered yet
    assert paths(plain) == []


def test_preview_path_is_the_chain_a_move_without_path_takes() -> None:
    state = explored(bm_actions(placeholder_board()), PLAIN)
    state = place(state, acolytes={"r2c3": {0: 1}, "r2c4": {0: 1}, "r2c5": {0: 1}})
    for dest in ("r1c5", "r2c6", "r3c5", "r1c3"):
        preview = [cell for _, cell in paths(bm.RULES.highlights(state, focus=f"r2c3>{dest}"))]
        _, events = bm.RULES.apply(state, Move(piece="acolyte", origin="r2c3", to=dest))
        assert preview == list(moved_path(events)), dest


def test_preview_on_a_custom_board_in_both_games() -> None:
    for rules in (bm.RULES, ca.RULES):
        state = unexplored(diamond(rules), "a")
        marks = rules.highlights(state, focus="o>d")
        assert marks[0].role == Role.SELECTED and marks[0].cell == "o"
        # o itself is only SELECTED: a chain back to it (o-a-o) is legal (BM-R17), but the
        # origin of a move is never lit as its destination (tests/test_views_contract.py)
        assert {h.cell for h in marks if h.role == Role.REACHABLE} == {"a", "b", "c", "d"}
        back = Move(piece="colossus", origin="o", to="o", path=("a", "o"))
        assert back in list(rules.legal_actions(state))
        assert paths(marks) == [(1, "b"), (2, "c"), (3, "d")]  # around the unexplored a
        assert paths(rules.highlights(state, focus=" o > c ")) == [(1, "b"), (2, "c")]


def test_preview_of_an_unreachable_or_foreign_focus() -> None:
    state = unexplored(diamond(bm.RULES), "a")
    far = bm.RULES.highlights(state, focus="o>z")  # z is two steps past the last friend
    assert far[0].role == Role.SELECTED and paths(far) == []
    assert "z" not in {h.cell for h in far if h.role == Role.REACHABLE}
    overview = bm.RULES.highlights(state)
    assert bm.RULES.highlights(state, focus="z>d") == overview  # Bob's Colossus, Ann's turn
    assert bm.RULES.highlights(state, focus="nowhere>d") == overview
    assert bm.RULES.highlights(state, focus=">d") == overview
    resting = state.model_copy(update={"movements_left": 0})
    assert bm.RULES.highlights(resting, focus="o>d") == bm.RULES.highlights(resting)


# --- hazard-free first (B.3) -------------------------------------------------------------------


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_B3_move_without_path_avoids_unexplored_spaces(game: str) -> None:
    rules: Any = bm.RULES if game == "beast_master" else ca.RULES
    state = unexplored(diamond(rules), "a")
    after, events = rules.apply(state, Move(piece="colossus", origin="o", to="d"))
    assert moved_path(events) == ("b", "c", "d")  # longer, but nothing to explore on the way
    assert explores(after) == [] and after.colossi[0] == "d"


def test_B3_fewest_unexplored_then_shortest() -> None:
    state = unexplored(diamond(bm.RULES), "b", "c")  # long way: 2 unexplored before d
    after, events = bm.RULES.apply(state, Move(piece="colossus", origin="o", to="d"))
    assert moved_path(events) == ("a", "d")
    assert explores(after) == []  # a and d were explored
    both = unexplored(diamond(bm.RULES), "a", "b")  # 1 each: the shorter chain wins
    _, events = bm.RULES.apply(both, Move(piece="colossus", origin="o", to="d"))
    assert moved_path(events) == ("a", "d")
    none = unexplored(diamond(bm.RULES))
    _, events = bm.RULES.apply(none, Move(piece="colossus", origin="o", to="d"))
    assert moved_path(events) == ("a", "d")


def test_B3_only_hazardous_chain_is_still_legal_and_used() -> None:
    state = unexplored(diamond(bm.RULES), "a", "b", "c", "d")
    state = place(state, acolytes={"b": {0: 0}})  # the long way is broken: only via a
    after, events = bm.RULES.apply(state, Move(piece="colossus", origin="o", to="d"))
    assert moved_path(events) == ("a", "d")
    assert explores(after) == ["a", "d"]  # explored in the order entered
    assert paths(bm.RULES.highlights(state, focus="o>d")) == [(1, "a"), (2, "d")]


def test_B3_spawn_takes_the_hazard_free_chain_too() -> None:
    state = unexplored(diamond(bm.RULES), "a")
    reach = destinations(state, 0, "acolyte", "o", BM_CFG, spawn=True)
    assert reach["o"] == () and reach["d"] == ("b", "c", "d")
    after, events = bm.RULES.apply(state, Spawn(to="d"))
    assert moved_path(events) == ("b", "c", "d") and explores(after) == []
    assert after.space("d").acolytes[0] == 1


def test_BM_R07_B3_an_acolyte_chain_goes_around_the_beast() -> None:
    # o - x - d is shorter, but the Beast stands on x with Ann's Colossus: an Acolyte
    # entering x dies there and its chain ends (BM-R07). The way via b and c is safe.
    board = graph_board([("o", "x"), ("x", "d"), ("o", "b"), ("b", "c"), ("c", "d")], "o")
    state = explored(bm_actions(board), PLAIN)
    state = place(
        state,
        colossi={0: "x", 1: "o"},
        acolytes={"o": {0: 1}, "b": {0: 1}, "c": {0: 1}},
        beasts=[("the Beast", "x")],
    )
    reach = destinations(state, 0, "acolyte", "o", BM_CFG)
    assert reach["d"] == ("b", "c", "d") and reach["x"] == ("x",)
    assert paths(bm.RULES.highlights(state, focus="o>d")) == [(1, "b"), (2, "c"), (3, "d")]
    after, events = bm.RULES.apply(state, Move(piece="acolyte", origin="o", to="d"))
    assert moved_path(events) == ("b", "c", "d")
    assert not any(isinstance(e, AcolyteDied) for e in events)
    assert after.space("d").acolytes[0] == 1
    with pytest.raises(RuleViolation) as err:
        bm.RULES.apply(state, Move(piece="acolyte", origin="o", to="d", path=("x", "d")))
    assert err.value.ruling == "BM-R07"
    # the Colossus leaves the Beast's space unharmed and chains through Ann's Acolytes
    assert destinations(state, 0, "colossus", "x", BM_CFG)["c"] == ("o", "b", "c")


def test_BM_R07_B3_the_beasts_space_stays_a_deadly_destination() -> None:
    board = graph_board([("o", "x"), ("x", "d")], "o")
    state = explored(bm_actions(board), PLAIN)
    state = place(state, colossi={0: "o", 1: "d"}, beasts=[("the Beast", "x")])
    after, events = bm.RULES.apply(state, Spawn(to="x"))
    assert any(isinstance(e, AcolyteDied) for e in events)  # legal, and deadly
    assert after.space("x").acolytes[0] == 0


# --- the chosen chain is the best legal one (brute force) ---------------------------------------


def legal_chains(
    state: IslandState, piece: PieceKind, origin: str, cfg: IslandConfig, spawn: bool
) -> Iterator[tuple[str, ...]]:
    """Every chain of distinct entered spaces that check_path accepts."""
    board = state.board
    stack: list[tuple[str, ...]] = [()]
    while stack:
        path = stack.pop()
        if path or spawn:  # a Movement enters at least one space
            try:
                check_path(state, 0, piece, origin, path, cfg, spawn=spawn)
            except RuleViolation:
                continue  # no extension of an illegal chain is legal
            yield path
        here = path[-1] if path else origin
        for nxt in board.adjacent(here):
            if nxt not in path:
                stack.append((*path, nxt))


def hazard(state: IslandState, path: tuple[str, ...]) -> tuple[int, int]:
    return (sum(1 for s in path[:-1] if state.space(s).tile is None), len(path))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(3, 7),
    parents=st.lists(st.integers(0, 100), min_size=6, max_size=6),
    extra=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=6),
    friends=st.lists(st.integers(0, 9), max_size=5),
    dark=st.lists(st.integers(0, 9), max_size=5),
    beast=st.integers(0, 9),
    colossus=st.integers(0, 9),
    mover=st.integers(0, 9),
    piece=st.sampled_from(["colossus", "acolyte", "spawn"]),
    kills=st.booleans(),
)
def test_B3_chosen_chain_is_the_least_hazardous_legal_chain(
    n: int,
    parents: list[int],
    extra: list[tuple[int, int]],
    friends: list[int],
    dark: list[int],
    beast: int,
    colossus: int,
    mover: int,
    piece: str,
    kills: bool,
) -> None:
    board = connected_board_from(n, parents[: n - 1], extra, 0)
    ids = board.ids
    state = unexplored(bm_actions(board), *{ids[k % n] for k in dark})
    counts: dict[str, dict[int, int]] = {}
    for k in friends:
        counts.setdefault(ids[k % n], {0: 0})[0] += 1
    origin = ids[(colossus if piece != "acolyte" else mover) % n]
    if piece == "acolyte":
        counts.setdefault(origin, {0: 0})[0] += 1
    state = place(
        state,
        colossi={0: ids[colossus % n], 1: None},
        acolytes=counts,
        beasts=[("the Beast", ids[beast % n])],
    )
    cfg = IslandConfig(**{**BM_CFG.__dict__, "beast_kills": kills})
    kind: PieceKind = "colossus" if piece == "colossus" else "acolyte"
    spawn = piece == "spawn"
    best: dict[str, tuple[int, int]] = {}
    for path in legal_chains(state, kind, origin, cfg, spawn):
        end = path[-1] if path else origin
        best[end] = min(best.get(end, hazard(state, path)), hazard(state, path))
    reach = destinations(state, 0, kind, origin, cfg, spawn=spawn)
    assert set(reach) == set(best)
    for dest, path in reach.items():
        check_path(state, 0, kind, origin, path, cfg, spawn=spawn)
        assert hazard(state, path) == best[dest], (dest, path)
