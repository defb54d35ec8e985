"""The island board on the play screen at 800×480: a shape of its own for each kind of
thing (read from the canvas instructions), every Colossus at Beast Master's start, no
space ID on the screen, and the screenshot of that start the docs show (a game of each
island kind under way: tests/kiosk/test_widgets_board.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.graphics import InstructionGroup

from companion.games.island.model import IslandState
from companion.views import PIECE_LOOKS
from kiosk.app import Kiosk
from kiosk.presenters.board import Decoration
from kiosk.widgets.board import BoardWidget
from kiosk.widgets.island import SHAPES, island_layer
from tests.helpers.kiosk_widgets import drawn_over
from tests.helpers.presenters import state_as
from tests.kiosk.helpers import screenshot_dir
from tests.kiosk.ui import close_kiosk, frames, open_kiosk

SPACE_ID = re.compile(r"\br\d+c\d+\b")
PLAYERS = ["Ann", "Bob", "Cy"]
RECT = (100.0, 100.0, 60.0)  # a space's centre and side


#: The text each texture a board made shows, by the texture's id (see :func:`text_of`).
TEXT_OF: dict[int, str] = {}


@pytest.fixture(autouse=True)
def text_of(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each board's texts read back from its canvas: the textures its ``texture_of``
    makes, noted with the text each shows."""
    make = BoardWidget.texture_of

    def noted(board: BoardWidget, text: str, size: int) -> Any:
        texture = make(board, text, size)
        TEXT_OF[id(texture)] = text
        return texture

    monkeypatch.setattr(BoardWidget, "texture_of", noted)
    yield
    TEXT_OF.clear()


def walked(board: BoardWidget, group: Any) -> list[tuple[str, int | str]]:
    """What a layer draws, in order: ``("text", the text)`` for a text (by the textures
    noted by :func:`text_of`), else the instruction's kind and its segments (a polygon's
    corners); colours and texture bindings apart."""
    by_texture = TEXT_OF
    found: list[tuple[str, int | str]] = []
    for instruction in group.children:
        kind = type(instruction).__name__
        if kind == "InstructionGroup":
            found.extend(walked(board, instruction))
        elif kind in ("Color", "BindTexture"):
            continue
        elif id(getattr(instruction, "texture", None)) in by_texture:
            found.append(("text", by_texture[id(instruction.texture)]))
        else:
            found.append((kind, int(getattr(instruction, "segments", 0))))
    return found


def shapes(board: BoardWidget, group: Any) -> list[tuple[str, int | str]]:
    return [drawn for drawn in walked(board, group) if drawn[0] != "text"]


def texts(board: BoardWidget, group: Any) -> list[str]:
    return [str(text) for kind, text in walked(board, group) if kind == "text"]


def screen_texts(kiosk: Kiosk) -> list[str]:
    return [
        str(w.text)
        for w in kiosk.manager.current_screen.walk(restrict=True)
        if isinstance(getattr(w, "text", None), str)
    ]


def shoot(kiosk: Kiosk, name: str) -> None:
    frames(3)
    path = screenshot_dir() / f"screen-{name}.png"
    kiosk.manager.export_to_png(str(path))
    assert path.stat().st_size > 5000, "blank screenshot"


def start(kiosk: Kiosk, game: str) -> BoardWidget:
    kiosk.open_setup(game)
    assert kiosk.setup is not None
    kiosk.setup.names[:] = PLAYERS
    kiosk.start_game()
    frames(2)
    board = kiosk.play_screen.board
    assert board is not None and board.view is not None
    return board


def test_every_piece_look_has_a_shape_drawn() -> None:
    """Each mark a piece kind has in the view vocabulary is a shape the board draws (an
    unknown one would fall back to a plain disc, like an Acolyte's)."""
    assert {look.mark for look in PIECE_LOOKS.values()} <= set(SHAPES)


def test_the_island_board_as_players_see_it(tmp_path: Path) -> None:
    assert Window.size == (800, 480)
    kiosk = open_kiosk(tmp_path, seed=4)
    try:
        board = start(kiosk, "beast_master")
        # Each kind of thing in a shape of its own.
        drawn = {
            kind: shapes(
                board, island_layer(board.texture_of, (Decoration("x", "A", kind=kind),), RECT)
            )
            for kind, (shape, _) in SHAPES.items()
            if shape != "text"
        }
        assert all(drawn.values())
        assert len({tuple(s) for s in drawn.values()}) == len(drawn), drawn
        # Beast Master's start: every Colossus on the centre, each with its player's letter.
        play = kiosk.play
        assert play is not None
        centre = state_as(play, IslandState).board.centre
        layer = drawn_over(board, centre)[1]
        assert isinstance(layer, InstructionGroup)
        marks = walked(board, layer)
        square = [("Rectangle", 0), ("Rectangle", 0)]  # its dark edge, then its fill
        letters = [
            text
            for i, (kind, text) in enumerate(marks)
            if kind == "text" and marks[i - 2 : i] == square
        ]
        assert letters == ["A", "B", "C"]  # a Colossus each, with its player's letter
        assert {"B", "C3"} <= set(texts(board, layer))  # the Beast, the space's label
        assert not any(SPACE_ID.search(t) for t in screen_texts(kiosk))
        shoot(kiosk, "play-island-beast-master-start")
    finally:
        close_kiosk(kiosk)
