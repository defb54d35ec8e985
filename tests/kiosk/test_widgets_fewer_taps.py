"""Choices made on the on-screen board, offscreen at 800×480: a Great Quake
by its edge arrow with the preview, an island move by touching spaces, the last roll in
view, the grid's edge numbers; screenshots to look at (``shoot``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.highlights import Role
from kiosk.app import Kiosk
from kiosk.presenters.regions import ARROW_COLOUR
from kiosk.widgets.board_layout import EDGE
from tests.helpers.kiosk_widgets import shoot, tap_cell
from tests.helpers.kiosk_widgets import started_kiosk as _start
from tests.kiosk.ui import close_kiosk, find_button, tap_button


@pytest.fixture
def kolossus(tmp_path: Path) -> Iterator[Kiosk]:
    kiosk = _start(tmp_path, "kolossus", ["Ann", "Bob"])
    yield kiosk
    close_kiosk(kiosk)


def test_a_great_quake_made_on_the_board_with_its_preview(kolossus: Kiosk) -> None:
    play, screen = kolossus.play, kolossus.play_screen
    assert play is not None
    tap_button(kolossus, "Ready", exact=True)  # one button: no "Ready (1)" tab beside a row
    tap_button(kolossus, "3", exact=True)  # the Great Quake's d4, read off the table
    assert (
        screen.column.last_roll.text == "Rolled 3 · Great Quake: Tua'tha rolls 1d4 · Ann · typed in"
    )
    board = screen.board
    assert board is not None and board.view is not None
    arrows = {d.cell: d.text for d in board.view.decorations if d.colour == ARROW_COLOUR}
    assert len(arrows) == 20 and arrows["3,10"] == "→" and arrows["10,5"] == "↓"
    shoot(kolossus, "play-kolossus-quake-arrows")

    tap_cell(kolossus, "3,10")  # the east arrow of row 3: the preview
    assert play.board_input.preview is not None and len(play.session.actions) == 2
    assert screen.column.preview.parent is not None
    quake = play.rules.parse_action(play.board_input.preview.payload)
    said = play.rules.describe(play.state, quake)  # the game's words for the move
    assert screen.column.preview.text.startswith(f"{said}; leaves the board: Woods")
    drawn = board.view
    assert drawn.looks["3,10"].role is Role.SELECTED
    assert drawn.looks["3,0"].role is Role.QUAKE_REGION
    assert drawn.base is not None
    assert dict(drawn.base) == {**drawn.base, **_shifted_row(play)}  # the line as it will lie
    shoot(kolossus, "play-kolossus-quake-preview")

    tap_cell(kolossus, "3,10")  # the same arrow again: the quake
    move = play.rules.dump_action(play.session.actions[-1])
    assert (move["type"], move["region"], move["direction"]) == ("quake_move", "row3", "east")
    assert play.view().fix is not None
    assert find_button(kolossus, "All done", exact=True)
    shoot(kolossus, "play-kolossus-quake-fix")
    tap_button(kolossus, "All done", exact=True)
    assert play.view().fix is None
    assert screen.column.last_roll.parent is not None  # the roll stays in view until the next


def _shifted_row(play: object) -> dict[str, tuple[int, int, int]]:
    """The unlit colours of row 3 after the previewed quake, from the rules' board."""
    from kiosk.presenters.board import board_dressing

    preview = play.board_input.preview  # type: ignore[attr-defined]
    base, _ = board_dressing(preview.board, ())
    return {cell: colour for cell, colour in base.items() if cell.startswith("3,")}


def test_the_grid_is_numbered_along_its_edges_as_the_physical_board(kolossus: Kiosk) -> None:
    board = kolossus.play_screen.board
    assert board is not None
    layout = board.layout
    texts = sorted({text for text, _, _ in layout.edges}, key=int)
    assert texts == [str(n) for n in range(11)]
    x0, y0, _width, height = layout.frame
    rows = [(t, x, y) for t, x, y in layout.edges if x < x0]
    cols = [(t, x, y) for t, x, y in layout.edges if y > y0 + height]
    assert len(rows) == 11 and len(cols) == 11  # west of the grid and north of it
    top_row = max(rows, key=lambda r: r[2])
    assert top_row[0] == "0" and min(cols, key=lambda c: c[1])[0] == "0"  # (0, 0) north-west
    assert x0 - board.x >= EDGE - 1


def test_an_island_move_by_touching_its_space_then_the_destination(tmp_path: Path) -> None:
    kiosk = _start(tmp_path, "beast_master", ["Ann", "Bob", "Cy"])
    try:
        play = kiosk.play
        assert play is not None
        tap_button(kiosk, "Take Actions", exact=True)
        move = next(
            p
            for p in play.queries.legal_payloads()
            if p["type"] == "move" and p["piece"] == "colossus" and p["origin"] != p["to"]
        )
        before = len(play.session.actions)
        origin, to = str(move["origin"]), str(move["to"])
        tap_cell(kiosk, origin)
        assert play.board_input.focus == origin
        drawn = kiosk.play_screen.board.view  # type: ignore[union-attr]
        assert drawn is not None and drawn.looks[to].role is Role.REACHABLE
        shoot(kiosk, "play-beast-master-selected")
        tap_cell(kiosk, to)
        assert len(play.session.actions) >= before + 1
        assert play.rules.dump_action(play.session.actions[before]) == move
        shoot(kiosk, "play-beast-master-moved")
    finally:
        close_kiosk(kiosk)
