"""Board files (BM-R01), word for word: every refusal of an unusable board as a table
reads it, the labels people read, and the development layouts' exact spaces."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from companion.errors import InvalidContent
from companion.games.island.board import (
    IslandBoard,
    SpaceDef,
    hex_rows_board,
    parse_board,
    placeholder_board,
    space_label,
)


def small_board() -> dict[str, Any]:
    """a - b - d, with c next to both a and b (Water), as a board file gives it."""
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


def refusal(data: Any) -> str:
    with pytest.raises(InvalidContent) as err:
        parse_board(data)
    assert err.value.ruling == "BM-R01"
    return str(err.value)


def usable(reason: str) -> str:
    return f"Not a usable island board: {reason}. (BM-R01)"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(centre="zz"), "the centre 'zz' is not one of the spaces"),
        (lambda d: d.pop("centre"), "centre: Field required"),
        (
            lambda d: d["spaces"][3]["adjacent"].append("q"),
            "space 'd' lists an unknown neighbour 'q'",
        ),
        (
            lambda d: d["spaces"][1]["adjacent"].remove("d"),
            "adjacency is not symmetric: 'd' lists 'b' but 'b' does not list 'd'",
        ),
        (lambda d: d["spaces"][1]["adjacent"].append("a"), "space 'b' lists a neighbour twice"),
        (lambda d: d["spaces"][3].update(leds=[2]), "LED 2 is used by both 'b' and 'd'"),
        (lambda d: d["spaces"][3].update(leds=[-1]), "space 'd' has a negative LED index -1"),
        (lambda d: d["spaces"][3].update(label="b"), "spaces 'b' and 'd' have the same label 'b'"),
        (
            lambda d: d["spaces"][0].update(colour="red"),
            "spaces.0.colour: Extra inputs are not permitted",
        ),
        (
            lambda d: d["spaces"][0].update(leds=["1"]),
            "spaces.0.leds.0: Input should be a valid integer",
        ),
        (
            lambda d: d.update(spaces=[]),
            "spaces: Tuple should have at least 1 item after validation, not 0",
        ),
    ],
)
def test_BM_R01_each_unusable_board_is_refused_with_its_reason_word_for_word(
    change: Any, reason: str
) -> None:
    data = small_board()
    change(data)
    assert refusal(data) == usable(reason)


def test_BM_R01_every_problem_of_a_board_is_named_at_once_in_order() -> None:
    data = small_board()
    data["spaces"][1]["adjacent"].append("b")
    data["spaces"][3].update(id="a")
    # the second 'a' is one space listed twice, not a label clash with itself
    assert refusal(data) == usable(
        "space 'a' is listed twice; space 'b' lists an unknown neighbour 'd'; "
        "space 'b' is adjacent to itself; "
        "adjacency is not symmetric: 'c' lists 'a' but 'a' does not list 'c'"
    )


def test_BM_R01_a_board_in_pieces_names_at_most_five_spaces_out_of_reach() -> None:
    far = ["c", "d", "e", "f", "g", "h"]
    spaces = [{"id": "a", "adjacent": ["b"]}, {"id": "b", "adjacent": ["a"]}]
    for k, sid in enumerate(far):
        spaces.append({"id": sid, "adjacent": [far[k - 1], far[(k + 1) % len(far)]]})
    assert refusal({"centre": "a", "spaces": spaces}) == usable(
        "the board is not connected: 'c', 'd', 'e', 'f', 'g' cannot be reached from 'a'"
    )
    # reached from the first space listed, whichever the centre is
    spaces.insert(0, spaces.pop())
    assert refusal({"centre": "a", "spaces": spaces}) == usable(
        "the board is not connected: 'a', 'b' cannot be reached from 'h'"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{not json", "key must be a string at line 1 column 2"),
        ("[]", "(top level): Input should be an object"),
        (b"{}", "centre: Field required; spaces: Field required"),
    ],
)
def test_BM_R01_a_board_file_that_is_not_one_is_refused_with_the_reason(
    text: str | bytes, reason: str
) -> None:
    assert refusal(text) == usable(reason)


def test_BM_R01_a_board_that_cannot_be_read_as_json_says_why() -> None:
    data = small_board()
    data["spaces"][0]["x"] = {1, 2}
    assert refusal(data) == (
        "Not an island board file: Object of type set is not JSON serializable (BM-R01)"
    )


def test_BM_R01_a_board_built_in_code_checks_itself_and_is_taken_as_it_is() -> None:
    with pytest.raises(ValidationError, match="space 'a' is adjacent to itself; space 'a' lists"):
        IslandBoard(centre="a", spaces=(SpaceDef(id="a", adjacent=("a", "b")),))
    board = parse_board(small_board())
    assert parse_board(board) is board
    # one that skipped its own check is still checked on the way in
    broken = IslandBoard.model_construct(name="x", centre="zz", spaces=board.spaces)
    assert refusal(broken) == (
        "Unusable island board: the centre 'zz' is not one of the spaces. (BM-R01)"
    )


def test_BM_R01_the_graph_of_a_board_file() -> None:
    board = parse_board(small_board())
    assert board.ids == ("a", "b", "c", "d")
    assert board.graph.index == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert board.adjacent("b") == ("a", "c", "d")
    assert [board.is_edge(s) for s in board.ids] == [True, False, True, True]
    assert board.has("d") and not board.has("e") and not board.has("")
    assert board.label("a") == "a" and board.label("nowhere") == "nowhere"


@pytest.mark.parametrize(
    ("space", "label"),
    [
        (SpaceDef(id="r3c3", label="Top"), "Top"),  # the board file's label comes first
        (SpaceDef(id="r3c3"), "C3"),
        (SpaceDef(id="r1c12"), "A12"),
        (SpaceDef(id="r26c1"), "Z1"),
        (SpaceDef(id="r27c1"), "r27c1"),  # past Z: no letter for the row
        (SpaceDef(id="r0c1"), "r0c1"),
        (SpaceDef(id="r3c3x"), "r3c3x"),
        (SpaceDef(id="hill"), "hill"),
    ],
)
def test_BM_R01_the_label_people_read_for_a_space(space: SpaceDef, label: str) -> None:
    assert space_label(space) == label


def test_BM_R01_a_hex_rows_board_short_long_short() -> None:
    board = hex_rows_board((2, 3, 2))
    assert board.name == "hex rows" and board.centre == "r2c2"
    assert [(s.id, s.label, s.adjacent, s.edge, s.leds, s.x, s.y) for s in board.spaces] == [
        ("r1c1", "A1", ("r1c2", "r2c1", "r2c2"), True, (0,), 0.5, 0.0),
        ("r1c2", "A2", ("r1c1", "r2c2", "r2c3"), True, (1,), 1.5, 0.0),
        ("r2c1", "B1", ("r1c1", "r2c2", "r3c1"), True, (2,), 0.0, 0.866),
        ("r2c2", "B2", ("r1c1", "r1c2", "r2c1", "r2c3", "r3c1", "r3c2"), False, (3,), 1.0, 0.866),
        ("r2c3", "B3", ("r1c2", "r2c2", "r3c2"), True, (4,), 2.0, 0.866),
        ("r3c1", "C1", ("r2c1", "r2c2", "r3c2"), True, (5,), 0.5, 1.732),
        ("r3c2", "C2", ("r2c2", "r2c3", "r3c1"), True, (6,), 1.5, 1.732),
    ]


def test_BM_R01_a_hex_rows_board_long_short_long_and_equal_rows() -> None:
    board = hex_rows_board((3, 2, 3), name="bow tie")
    assert board.name == "bow tie" and board.centre == "r2c2"
    assert [(s.id, s.adjacent, s.x) for s in board.spaces] == [
        ("r1c1", ("r1c2", "r2c1"), 0.0),
        ("r1c2", ("r1c1", "r1c3", "r2c1", "r2c2"), 1.0),
        ("r1c3", ("r1c2", "r2c2"), 2.0),
        ("r2c1", ("r1c1", "r1c2", "r2c2", "r3c1", "r3c2"), 0.5),
        ("r2c2", ("r1c2", "r1c3", "r2c1", "r3c2", "r3c3"), 1.5),
        ("r3c1", ("r2c1", "r3c2"), 0.0),
        ("r3c2", ("r2c1", "r2c2", "r3c1", "r3c3"), 1.0),
        ("r3c3", ("r2c2", "r3c2"), 2.0),
    ]
    square = hex_rows_board((3, 3))
    assert square.centre == "r2c2"
    assert [s.adjacent for s in square.spaces] == [
        ("r1c2", "r2c1"),
        ("r1c1", "r1c3", "r2c2"),
        ("r1c2", "r2c3"),
        ("r1c1", "r2c2"),
        ("r1c2", "r2c1", "r2c3"),
        ("r1c3", "r2c2"),
    ]


def test_BM_R01_a_hex_rows_board_past_row_z_has_no_letter_label() -> None:
    board = hex_rows_board((1,) * 27)
    assert board.spaces[25].label == "Z1"
    assert board.spaces[26].label is None and board.label("r27c1") == "r27c1"
    assert board.spaces[26].y == pytest.approx(26 * 0.866)
    assert board.centre == "r14c1"


def test_BM_R01_a_space_naming_its_own_led_twice_shares_it_with_nobody() -> None:
    data = small_board()
    data["spaces"][1]["leds"] = [2, 2]
    assert parse_board(data).spaces[1].leds == (2, 2)


def test_BM_R01_board_file_text_is_read_strictly() -> None:
    data = small_board()
    data["spaces"][0]["leds"] = ["1"]  # a number in quotes is no LED index
    assert refusal(json.dumps(data)) == usable("spaces.0.leds.0: Input should be a valid integer")
    assert refusal(json.dumps(data).encode()) == usable(
        "spaces.0.leds.0: Input should be a valid integer"
    )


def test_BM_R01_a_board_that_skipped_its_check_names_every_problem() -> None:
    board = parse_board(small_board())
    twice = (*board.spaces, board.spaces[0])
    broken = IslandBoard.model_construct(name="x", centre="zz", spaces=twice)
    assert refusal(broken) == (
        "Unusable island board: space 'a' is listed twice; "
        "the centre 'zz' is not one of the spaces. (BM-R01)"
    )


def test_BM_R01_the_placeholder_says_it_is_not_the_real_island() -> None:
    assert placeholder_board().name == "placeholder 5-6-5-6-5 (not the real island)"
