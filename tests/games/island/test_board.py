"""Board files (BM-R01): the placeholder layout and the parser's refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.errors import InvalidContent
from companion.games.island.board import (
    board_json_schema,
    hex_rows_board,
    parse_board,
    placeholder_board,
)


def small_board() -> dict[str, Any]:
    return {
        "name": "triangle plus tail",
        "centre": "b",
        "spaces": [
            {"id": "a", "adjacent": ["b", "c"], "edge": True, "leds": [0, 1], "x": 0, "y": 0},
            {"id": "b", "adjacent": ["a", "c", "d"], "leds": [2]},
            {"id": "c", "adjacent": ["a", "b"], "edge": True, "water": True, "leds": [3]},
            {"id": "d", "adjacent": ["b"], "edge": True, "leds": []},
        ],
    }


def test_BM_R01_placeholder_is_27_offset_hex_cells_with_centre_in_row_3() -> None:
    board = placeholder_board()
    assert len(board.spaces) == 27
    rows = [sum(1 for s in board.ids if s.startswith(f"r{r}c")) for r in range(1, 6)]
    assert rows == [5, 6, 5, 6, 5]
    assert board.centre == "r3c3"
    assert len(board.adjacent("r3c3")) == 6
    assert "not the real island" in board.name
    leds = [led for s in board.spaces for led in s.leds]
    assert sorted(leds) == list(range(27))
    assert all(s.x is not None and s.y is not None for s in board.spaces)


def test_BM_R01_placeholder_adjacency_is_symmetric_and_edge_is_the_rim() -> None:
    board = placeholder_board()
    for sid in board.ids:
        for other in board.adjacent(sid):
            assert sid in board.adjacent(other)
    assert board.is_edge("r1c1") and board.is_edge("r2c6") and not board.is_edge("r3c3")
    assert sum(1 for s in board.ids if not board.is_edge(s)) == 11


def test_BM_R01_parse_accepts_dicts_and_json_text() -> None:
    data = small_board()
    board = parse_board(data)
    assert parse_board(json.dumps(data)) == board
    assert board.adjacent("b") == ("a", "c", "d")
    assert board.spaces[0].leds == (0, 1)
    assert board.spaces[2].water
    assert parse_board(board.model_dump(mode="json")) == board


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(centre="zz"), "centre"),
        (lambda d: d.pop("centre"), "centre"),
        (
            lambda d: (
                d["spaces"][3].update(adjacent=[]),
                d["spaces"][1].update(adjacent=["a", "c"]),
            ),
            "not connected",
        ),
        (lambda d: d["spaces"][3]["adjacent"].append("q"), "unknown neighbour"),
        (lambda d: d["spaces"][1]["adjacent"].remove("d"), "not symmetric"),
        (lambda d: d["spaces"][1]["adjacent"].append("b"), "adjacent to itself"),
        (lambda d: d["spaces"][3].update(leds=[2]), "LED 2"),
        (lambda d: d["spaces"][3].update(id="a"), "listed twice"),
        (lambda d: d["spaces"][0].update(colour="red"), "Extra inputs"),
        (lambda d: d["spaces"][0].update(leds=["1"]), "leds"),
    ],
)
def test_BM_R01_parse_refuses_unusable_boards_with_the_reason(change: Any, reason: str) -> None:
    data = small_board()
    change(data)
    with pytest.raises(InvalidContent) as err:
        parse_board(data)
    assert reason in str(err.value)
    assert err.value.ruling == "BM-R01"


def test_BM_R01_parse_refuses_bad_json_text() -> None:
    with pytest.raises(InvalidContent):
        parse_board("{not json")


def test_hex_rows_board_other_shapes() -> None:
    board = hex_rows_board((3, 4, 3))
    assert len(board.spaces) == 10
    assert board.centre == "r2c3"
    assert set(board.adjacent("r1c1")) == {"r1c2", "r2c1", "r2c2"}


def test_board_schema_names_the_fields() -> None:
    schema = json.dumps(board_json_schema())
    for field in ("centre", "adjacent", "edge", "water", "leds"):
        assert field in schema
