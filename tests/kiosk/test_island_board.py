"""The island board as players see it, without Kivy: the board file's labels, the view's
features and pieces, the marks each kind gets, and no space ID in any text of a game.

The drawing of the marks (a shape per kind on the canvas) is checked in
tests/kiosk/test_widgets_island.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.errors import InvalidContent
from companion.games.island.board import parse_board, placeholder_board
from companion.games.island.model import BeastPos, IslandState, Tile
from companion.session import Session
from companion.views import PIECE_LOOKS, cell_names
from firmware_bridge.leds.palette import ISLAND_PLAYER_COLOURS
from kiosk.presenters.island import LEGEND, MAX_MARKS, island_dressing, seat_letters
from kiosk.presenters.lesson import LessonPresenter
from kiosk.presenters.play import PlayPresenter
from kiosk.teaching.lessons import lesson_for
from kiosk.teaching.progress import LessonPlace

SPACE_ID = re.compile(r"\br\d+c\d+\b")
PLAYERS = ("Ann", "Bob", "Cy")


# --- the board file's labels --------------------------------------------------------------


def test_placeholder_spaces_are_labelled_by_row_letter_and_number() -> None:
    board = placeholder_board()
    assert board.label("r3c3") == "C3" == board.label(board.centre)
    assert board.label("r1c1") == "A1" and board.label("r4c6") == "D6"
    assert len({board.label(s) for s in board.ids}) == len(board.ids) == 27


def test_a_board_file_names_its_spaces_and_unlabelled_ones_keep_their_id() -> None:
    board = parse_board(
        {
            "centre": "mid",
            "spaces": [
                {"id": "mid", "label": "Peak", "adjacent": ["s1"]},
                {"id": "s1", "adjacent": ["mid"]},
            ],
        }
    )
    assert board.label("mid") == "Peak" and board.label("s1") == "s1"
    # A journal saved before labels: the development IDs still read as the board draws.
    old = parse_board({"centre": "r1c1", "spaces": [{"id": "r1c1"}]})
    assert old.label("r1c1") == "A1"


def test_two_spaces_with_one_label_are_refused_naming_both() -> None:
    with pytest.raises(InvalidContent, match="'a' and 'b' have the same label 'X'"):
        parse_board(
            {
                "centre": "a",
                "spaces": [
                    {"id": "a", "label": "X", "adjacent": ["b"]},
                    {"id": "b", "label": "X", "adjacent": ["a"]},
                ],
            }
        )


def test_cell_names_replace_whole_ids_only() -> None:
    session = Session.new("beast_master", list(PLAYERS), seed=1)
    names = cell_names(session.rules.board(session.state))
    assert names.text("Move from r3c3 to r2c3.") == "Move from C3 to B3."
    assert names.text("r3c3x and xr3c3 and r3c31") == "r3c3x and xr3c3 and r3c31"


# --- what the view carries and the marks it gets -----------------------------------------


def every_kind(game: str) -> tuple[PlayPresenter, IslandState]:
    """A game's start with a space of each kind: Loot, Environment, a Lair, Grass,
    explored and bare, Water, a Banner, Gold cubes and Acolytes."""
    session = Session.new(game, list(PLAYERS), seed=2)
    state = session.state
    assert isinstance(state, IslandState)
    tiles = {
        "r1c1": Tile(kind="loot", gold=2),
        "r1c2": Tile(kind="environment", name="Volcano"),
        "r1c3": Tile(kind="lair", beast="the Wyrm"),
        "r1c4": Tile(kind="grass", loot="gold"),
        "r1c5": Tile(kind="bare"),
    }
    spaces = tuple(
        here.evolve(
            {
                "tile": tiles.get(sid, here.tile),
                "banner": 1 if sid == "r1c1" else here.banner,
                "cubes": 3 if sid == "r1c2" else here.cubes,
                "water": sid == "r5c5",
                "acolytes": (2, 1, 0) if sid == "r1c1" else here.acolytes,
            }
        )
        for sid, here in zip(state.board.ids, state.spaces, strict=True)
    )
    hands = tuple(n - placed for n, placed in zip(state.acolytes_in_hand, (2, 1, 0), strict=True))
    changes: dict[str, Any] = {"spaces": spaces, "acolytes_in_hand": hands}
    if "banners_in_hand" in type(state).model_fields:  # Beast Master: Bob's Banner is out
        banners = state.model_dump()["banners_in_hand"]
        changes["banners_in_hand"] = (banners[0], banners[1] - 1, *banners[2:])
    if not state.beasts:  # Colossi before its first Age is revealed: the Lair's Beast
        changes["beasts"] = (BeastPos(name="the Wyrm", space="r1c3"),)
    state = state.evolve(changes)
    return PlayPresenter(Session.from_position(game, state.model_dump(mode="json"))), state


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_the_view_carries_each_thing_the_drawing_needs(game: str) -> None:
    play, state = every_kind(game)
    board = play.rules.board(play.state)
    assert board is not None
    by_cell = {c.cell: c for c in board.cells}
    kinds = {cell: (c.feature.kind if c.feature else None) for cell, c in by_cell.items()}
    assert [kinds[s] for s in ("r1c1", "r1c2", "r1c3", "r1c4", "r1c5")] == [
        "loot",
        "environment",
        "lair",
        "grass",
        "bare",
    ]
    assert by_cell["r1c2"].feature is not None and by_cell["r1c2"].feature.name == "Volcano"
    assert kinds["r2c2"] == "unexplored" and by_cell["r5c5"].terrain == "water"
    assert [c.label for c in board.cells] == [state.board.label(s) for s in state.board.ids]
    pieces = {(p.kind, p.player, p.count) for p in by_cell["r1c1"].pieces}
    assert {("banner", 1, 1), ("acolyte", 0, 2), ("acolyte", 1, 1)} <= pieces
    assert ("gold", None, 3) in {(p.kind, p.player, p.count) for p in by_cell["r1c2"].pieces}
    centre = by_cell[state.board.centre].pieces
    assert [p.player for p in centre if p.kind == "colossus"] == list(range(len(PLAYERS)))
    assert any(p.kind == "beast" for c in board.cells for p in c.pieces)


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_each_kind_gets_its_own_mark_and_a_legend_line(game: str) -> None:
    play, state = every_kind(game)
    board = play.rules.board(play.state)
    assert board is not None
    base, marks = island_dressing(board, ISLAND_PLAYER_COLOURS, PLAYERS)
    kinds = {m.kind for m in marks}
    mark = {kind: look.mark for kind, look in PIECE_LOOKS.items()}
    expected: set[str] = {mark[k] for k in ("colossus", "acolyte", "beast", "banner", "gold")}
    expected |= {"loot", "environment", "lair", "grass", "unexplored", "water", "label"}
    assert expected <= kinds
    assert {kind for kind, _ in LEGEND} | {"label", "more"} >= kinds
    # Unexplored land, explored land and Water differ in colour as well as in mark.
    assert len({base["r2c2"], base["r1c5"], base["r5c5"]}) == 3
    # Each player's pieces carry the player's letter, not only a colour.
    at = {(m.cell, m.kind): m.text for m in marks}
    assert at["r1c1", mark["banner"]] == "B" and at["r1c1", "label"] == "A1"
    acolytes = {m.text for m in marks if m.cell == "r1c1" and m.kind == mark["acolyte"]}
    assert acolytes == {"2A", "1B"}
    centre = [m for m in marks if m.cell == state.board.centre and m.kind == mark["colossus"]]
    assert [m.text for m in centre] == ["A", "B", "C"]


def test_more_pieces_than_a_space_holds_are_counted() -> None:
    play, _ = every_kind("beast_master")
    board = play.rules.board(play.state)
    assert board is not None
    crowded = board.cells[0]
    many = tuple(crowded.pieces) * 4
    board = replace(board, cells=(replace(crowded, pieces=many), *board.cells[1:]))
    _, marks = island_dressing(board, ISLAND_PLAYER_COLOURS, PLAYERS)
    pieces = [m for m in marks if m.cell == crowded.cell and m.kind not in ("label", "loot")]
    assert len(pieces) == MAX_MARKS and pieces[-1].text == f"+{len(many) - MAX_MARKS + 1}"


def test_seat_letters_stay_distinct() -> None:
    assert seat_letters(("Ann", "Bob"), 2) == ("A", "B")
    assert seat_letters(("Ann", "Amy"), 2) == ("An", "Am")
    assert seat_letters(("Ann", "Ann"), 2) == ("1", "2")
    assert seat_letters((), 3) == ("1", "2", "3")
    assert seat_letters(("Player 1", "Player 2"), 2) == ("1", "2")


def test_acolytes_of_a_numbered_seat_keep_their_count_apart() -> None:
    play, _ = every_kind("beast_master")
    board = play.rules.board(play.state)
    assert board is not None
    _, marks = island_dressing(board, ISLAND_PLAYER_COLOURS, ("Player 1", "Player 2", "Player 3"))
    disc = PIECE_LOOKS["acolyte"].mark
    acolytes = {m.text for m in marks if m.cell == "r1c1" and m.kind == disc}
    assert acolytes == {"2·1", "1·2"}  # not "21" and "12"


# --- no space ID on the screen ------------------------------------------------------------


#: The fields of a view that hold keys for the code (an action's payload, the cell the
#: board lights or a fix step's LEDs show, a menu group's key), not text people read.
KEYS = frozenset({"payload", "focus", "cell", "key", "game"})


def texts(node: Any) -> Iterator[str]:
    """Every text of a view people read (payloads and keys apart: :data:`KEYS`)."""
    if isinstance(node, str):
        yield node
    elif is_dataclass(node) and not isinstance(node, type):
        for f in fields(node):
            if f.name not in KEYS:
                yield from texts(getattr(node, f.name))
    elif isinstance(node, tuple | list):
        for item in node:
            yield from texts(item)


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_no_text_of_a_played_island_game_names_a_space_by_its_id(game: str) -> None:
    play = PlayPresenter(Session.new(game, list(PLAYERS), seed=7))
    bot = RandomBot(5)
    seen: set[str] = set()
    for _ in range(40):
        if play.session.outcome is not None:
            break
        view = play.view()
        for group in view.groups[:3]:
            play.action_menu.choose_group(group.key)
            seen.update(texts(play.view()))
        seen.update(texts(view))
        play.submit(bot.choose(play.rules, play.state))
        while play.fix.step is not None:
            play.fix.next()
    play.teacher.explain_table()
    seen.update(texts(play.view()))
    named = [t for t in seen if SPACE_ID.search(t)]
    assert not named, named[:5]
    assert any(re.search(r"\b[A-E][1-6]\b", t) for t in seen)  # the labels are shown


def test_a_lesson_suggests_island_moves_by_the_spaces_labels() -> None:
    lesson = lesson_for("beast_master")
    assert lesson is not None
    session = Session.new("beast_master", lesson.players, lesson.options, seed=lesson.seed)
    teacher = LessonPresenter(PlayPresenter(session), lesson, LessonPlace())
    said: list[str] = []
    for _ in range(6):
        view = teacher.view()
        if view is None or view.finished:
            break
        teacher.show_me()
        shown = teacher.view()
        assert shown is not None
        said += [shown.suggestion, shown.feedback, shown.text]
        teacher.play_suggestion()
    assert any(re.search(r"\b[A-E][1-6]\b", t) for t in said), said
    assert not [t for t in said if SPACE_ID.search(t)]
