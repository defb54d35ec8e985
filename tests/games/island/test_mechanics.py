"""Shared island mechanics: control (B.4) and Road Movement (B.3) on several board shapes."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.board import IslandBoard, placeholder_board
from companion.games.island.mechanics import (
    check_path,
    control_map,
    control_of,
    controller,
    destinations,
)
from companion.games.island.model import (
    IslandConfig,
    Move,
    PendingExplore,
    Spawn,
)

from .helpers import BM_CFG, CA_CFG, explored, graph_board, grid_board, line_board, place


def bm_state(board: IslandBoard, players: int = 2) -> bm.BeastMasterState:
    opts = bm.BeastMasterOptions(board=board)
    return bm.RULES.setup(["Ann", "Bob", "Cleo", "Dov"][:players], opts, seed=1)


# --- control table (B.4 / 2.6.5) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("colossi", "acolytes", "expected"),
    [
        ((), (0, 0, 0), None),  # empty space
        ((), (2, 1, 0), 0),  # most Acolytes
        ((), (1, 1, 0), None),  # tie: nobody
        ((), (0, 0, 3), 2),
        ((1,), (5, 0, 0), 1),  # one Colossus supersedes all Acolytes
        ((2,), (0, 0, 0), 2),
        ((0, 1), (0, 0, 0), None),  # several Colossi, 0-0: nobody
        ((0, 1), (1, 0, 0), 0),  # among Colossus owners, most Acolytes
        ((0, 1), (1, 1, 0), None),  # tie among them
        ((0, 1), (0, 0, 9), None),  # Acolytes of a player without a Colossus there are ignored
        ((0, 1), (2, 3, 9), 1),
        ((0, 1, 2), (1, 1, 2), 2),
    ],
)
def test_control_table_B4(
    colossi: tuple[int, ...], acolytes: tuple[int, ...], expected: int | None
) -> None:
    assert control_of(colossi, acolytes) == expected


def test_control_on_a_state_uses_pieces_on_the_space() -> None:
    state = bm_state(line_board(5), 3)
    state = place(state, acolytes={"a0": {0: 1, 1: 2}}, colossi={0: "a0", 1: "a4", 2: "a4"})
    assert controller(state, "a0", BM_CFG) == 0
    assert controller(state, "a4", BM_CFG) is None
    state = place(state, acolytes={"a4": {2: 1}})
    assert controller(state, "a4", BM_CFG) == 2


def test_CA_R06_tipped_colossus_counts_only_with_the_option() -> None:
    state = bm_state(line_board(3))
    state = place(state, acolytes={"a0": {1: 1}}, colossi={0: "a0", 1: "a2"})
    state = state.model_copy(update={"tipped": (True, False)})
    assert controller(state, "a0", CA_CFG) == 0
    off = IslandConfig(**{**CA_CFG.__dict__, "tipped_controls": False})
    assert controller(state, "a0", off) == 1


def test_CA_R06_the_control_map_of_one_state_follows_the_option_asked_for() -> None:
    """The map is worked out once per state (the board view and the highlights both ask),
    but never handed back for another option or another state."""
    state = bm_state(line_board(3))
    state = place(state, acolytes={"a0": {1: 1}}, colossi={0: "a0", 1: "a2"})
    state = state.model_copy(update={"tipped": (True, False)})
    off = IslandConfig(**{**CA_CFG.__dict__, "tipped_controls": False})
    on = control_map(state, CA_CFG)
    assert dict(on) == {"a0": 0, "a2": 1} and control_map(state, CA_CFG) is on
    assert dict(control_map(state, off)) == {"a0": 1, "a2": 1}
    moved = place(state, colossi={0: "a1"})
    assert dict(control_map(moved, CA_CFG)) == {"a0": 1, "a1": 0, "a2": 1}
    assert dict(control_map(state, CA_CFG)) == {"a0": 0, "a2": 1}
    with pytest.raises(TypeError):
        on["a1"] = 0  # type: ignore[index]  # shared between callers: read-only


# --- Road Movement (B.3 / 2.6.3) -------------------------------------------------------------


def test_road_movement_on_a_line_chains_through_own_pieces() -> None:
    state = bm_state(line_board(7))
    state = place(
        state, acolytes={"a2": {0: 1}, "a3": {0: 1}}, colossi={0: "a1", 1: "a6"}, beasts=[]
    )
    reach = destinations(state, 0, "colossus", "a1", BM_CFG)
    assert set(reach) == {"a0", "a2", "a3", "a4", "a1"}
    assert reach["a4"] == ("a2", "a3", "a4")
    # the opponent's pieces never chain
    state2 = place(state, acolytes={"a2": {0: 0, 1: 1}, "a3": {0: 0}})
    assert set(destinations(state2, 0, "colossus", "a1", BM_CFG)) == {"a0", "a2"}


def test_road_movement_start_space_does_not_matter() -> None:
    state = bm_state(line_board(5))
    state = place(state, acolytes={"a1": {0: 2}}, colossi={0: None, 1: None}, beasts=[])
    # An Acolyte leaving a1 (where another own Acolyte stays) still only reaches a0/a2 ...
    assert set(destinations(state, 0, "acolyte", "a1", BM_CFG)) == {"a0", "a2"}
    state = place(state, acolytes={"a1": {0: 1}, "a2": {0: 1}})
    reach = destinations(state, 0, "acolyte", "a1", BM_CFG)
    assert set(reach) == {"a0", "a2", "a3", "a1"}


def test_road_movement_on_a_grid_board_built_here() -> None:
    board = grid_board(3, 4)  # not the placeholder: 4-neighbourhood, 12 spaces
    state = bm_state(board)
    state = place(
        state,
        acolytes={"g01": {0: 1}, "g11": {0: 1}, "g12": {0: 1}},
        colossi={0: "g00", 1: "g23"},
        beasts=[],
    )
    reach = destinations(state, 0, "colossus", "g00", BM_CFG)
    expected = {"g01", "g10", "g02", "g11", "g00", "g21", "g12", "g22", "g13"}
    assert set(reach) == expected
    assert reach["g13"] == ("g01", "g11", "g12", "g13") or reach["g13"][-2] == "g12"
    assert len(reach["g13"]) == 4


def test_road_movement_on_the_placeholder_without_friends_is_one_step() -> None:
    state = bm_state(placeholder_board(), 2)
    state = place(state, colossi={1: "r1c1"})
    reach = destinations(state, 0, "colossus", "r3c3", BM_CFG)
    assert set(reach) == set(state.board.adjacent("r3c3"))


def test_BM_R07_beast_space_stops_an_acolyte_chain_not_a_colossus() -> None:
    state = bm_state(line_board(6))
    state = place(
        state,
        acolytes={"a0": {0: 1}, "a2": {0: 1}},
        colossi={0: "a1", 1: "a5"},
        beasts=[("the Beast", "a2")],
    )
    acolyte = destinations(state, 0, "acolyte", "a0", BM_CFG)
    assert set(acolyte) == {"a1", "a2", "a0"}  # a2 is reachable (and deadly), a3 is not
    colossus = destinations(state, 0, "colossus", "a1", BM_CFG)
    assert "a3" in colossus
    with pytest.raises(RuleViolation) as err:
        check_path(state, 0, "acolyte", "a0", ("a1", "a2", "a3"), BM_CFG)
    assert err.value.ruling == "BM-R07"


def test_CA_R09_water_is_never_entered_voluntarily() -> None:
    board = graph_board([("x", "y"), ("y", "z"), ("x", "w"), ("w", "z")], "x", water=("y",))
    state = bm_state(board)
    state = place(state, colossi={0: "x", 1: "z"}, acolytes={"w": {0: 1}}, beasts=[])
    reach = destinations(state, 0, "colossus", "x", CA_CFG)
    assert "y" not in reach and "z" in reach
    with pytest.raises(RuleViolation) as err:
        check_path(state, 0, "colossus", "x", ("y",), CA_CFG)
    assert err.value.ruling == "CA-R09"


def test_explicit_path_must_be_a_legal_chain() -> None:
    state = bm_state(line_board(6))
    state = place(state, acolytes={"a2": {0: 1}}, colossi={0: "a1", 1: "a5"}, beasts=[])
    check_path(state, 0, "colossus", "a1", ("a2", "a3"), BM_CFG)
    with pytest.raises(RuleViolation):
        check_path(state, 0, "colossus", "a1", ("a2", "a3", "a4"), BM_CFG)  # a3 holds no friend
    with pytest.raises(RuleViolation):
        check_path(state, 0, "colossus", "a1", ("a3",), BM_CFG)  # not adjacent
    with pytest.raises(RuleViolation):
        check_path(state, 0, "colossus", "a1", ("zz",), BM_CFG)


def test_spawn_destinations_include_staying_and_a_free_first_step() -> None:
    state = bm_state(line_board(7))
    state = place(state, acolytes={"a4": {0: 1}}, colossi={0: "a3", 1: "a0"}, beasts=[])
    reach = destinations(state, 0, "acolyte", "a3", BM_CFG, spawn=True)
    assert reach["a3"] == ()
    assert set(reach) == {"a3", "a2", "a4", "a5"}


def test_every_entered_space_of_a_chain_explores_in_order() -> None:
    state = bm_state(line_board(7))
    state = place(
        state,
        acolytes={"a2": {0: 1}, "a3": {0: 1}},
        colossi={0: "a1", 1: "a6"},
        beasts=[("the Beast", "a6")],
    )
    state = state.model_copy(update={"phase": "actions", "movements_left": 4})
    after, _ = bm.RULES.apply(state, Move(piece="colossus", origin="a1", to="a4"))
    assert [p.space for p in after.pending if isinstance(p, PendingExplore)] == ["a2", "a3", "a4"]
    assert after.colossi[0] == "a4"
    assert after.movements_left == 3


def test_move_to_an_unreachable_space_is_refused_and_changes_nothing() -> None:
    state = explored(bm_state(line_board(7)))
    state = place(state, colossi={0: "a1", 1: "a6"}, beasts=[("the Beast", "a6")])
    state = state.model_copy(update={"phase": "actions", "movements_left": 4})
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, Move(piece="colossus", origin="a1", to="a4"))
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, Move(piece="acolyte", origin="a1", to="a2"))


def test_road_movement_is_the_same_in_colossi() -> None:
    board = grid_board(3, 3)
    state = ca.RULES.setup(["Ann", "Bob"], ca.ColossiOptions(board=board, use_traits=False), 3)
    state = place(state, acolytes={"g10": {0: 1}}, colossi={0: "g00", 1: "g22"})
    state = state.model_copy(update={"phase": "actions", "movements_left": 4, "active": 0})
    after, _ = ca.RULES.apply(state, Move(piece="colossus", origin="g00", to="g20"))
    assert after.colossi[0] == "g20"
    after, _ = ca.RULES.apply(after.model_copy(update={"pending": ()}), Spawn(to="g21"))
    assert after.space("g21").acolytes[0] == 1
