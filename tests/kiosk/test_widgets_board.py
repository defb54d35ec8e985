"""The board widget and the LED mirror on the play screen, driven by touches; what the
board redraws when its view changes (only the cells that changed, once a frame)."""

from __future__ import annotations

import dataclasses
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.clock import Clock
from kivy.uix.label import Label

from companion.bot import RandomBot
from companion.games.island.model import IslandState
from companion.highlights import Role
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE
from firmware_bridge.leds.render import render
from kiosk.app import Kiosk
from kiosk.presenters.board import BoardView, CellLook, cell_looks
from kiosk.theme import TOUCH_MIN
from kiosk.widgets.basic import BannerButton
from kiosk.widgets.board import PREMADE_FORM, BoardWidget
from tests.helpers.kiosk_widgets import advance_to, drawn_over, shoot, tap_cell
from tests.helpers.presenters import state_as
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, tap_at, tap_button


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=3)
    k.open_setup("kolossus")
    assert k.setup is not None
    k.setup.names[:] = ["Ann", "Bob"]
    k.start_game()
    yield k
    close_kiosk(k)


def test_select_a_miniature_then_tap_its_destination(kiosk: Kiosk) -> None:
    advance_to(kiosk, "move")
    play = kiosk.play
    assert play is not None
    selectable = [h.cell for h in play.highlights() if h.role is Role.SELECTABLE]
    assert selectable
    tap_cell(kiosk, selectable[0])
    assert play.board_input.focus == selectable[0]
    drawn = kiosk.play_screen.board.view  # type: ignore[union-attr]
    assert drawn is not None and drawn.focus == selectable[0]
    cue = tuple(h for h in play.highlights() if h.role is Role.ROLL)  # the die just read
    lights = play.rules.highlights(play.state, selectable[0]) + cue
    expected = cell_looks(lights, KOLOSSUS_PALETTE)
    assert dict(drawn.looks) == expected  # the screen draws exactly the rules' highlights
    reachable = [c for c, look in expected.items() if look.role is Role.REACHABLE]
    before = len(play.session.actions)
    tap_cell(kiosk, reachable[0])
    assert len(play.session.actions) == before + 1
    assert play.rules.dump_action(play.session.actions[-1])["to"] == reachable[0]


def the_board(kiosk: Kiosk) -> tuple[BoardWidget, BoardView]:
    frames(2)
    board = kiosk.play_screen.board
    assert board is not None and board.view is not None
    return board, board.view


def side_by_side_targets(view: BoardView) -> tuple[str, str]:
    for cell in sorted(view.targets):
        row, col = (int(v) for v in cell.split(","))
        if f"{row},{col + 1}" in view.targets:
            return cell, f"{row},{col + 1}"
    pytest.fail("no two targets side by side")


def test_a_tap_between_two_pieces_zooms_then_select_and_move_by_touch(kiosk: Kiosk) -> None:
    advance_to(kiosk, "move")
    play = kiosk.play
    assert play is not None
    board, view = the_board(kiosk)
    assert board.cell_side() < TOUCH_MIN  # 11 squares do not fit 48 px each
    west, east = side_by_side_targets(view)
    (wx, wy), (ex, ey) = board.cell_centre(west), board.cell_centre(east)
    tap_at((wx + ex) / 2, (wy + ey) / 2)  # on the edge between two pieces: ambiguous
    assert play.board_input.focus is None, "an ambiguous tap must not pick a piece"
    assert board.viewport.zoomed and board.cell_side() >= TOUCH_MIN
    button = board.whole_button
    assert button.parent is board
    assert button.width >= TOUCH_MIN and button.height >= TOUCH_MIN
    shoot(kiosk, "play-kolossus-zoomed")
    tap_cell(kiosk, west)  # zoomed: a precise tap at the square's centre
    assert play.board_input.focus == west and board.viewport.zoomed  # selecting keeps the zoom
    frames(1)
    assert board.whole_button.canvas in board.canvas.children, "the button is still drawn"
    _, view = the_board(kiosk)
    reachable = [c for c, look in view.looks.items() if look.role is Role.REACHABLE]
    assert reachable
    shown = [c for c in reachable if c in _shown_cells(board)]
    if not shown:  # the destinations lie outside the zoomed part
        tap_button(kiosk, "Whole board", exact=True)
        assert not board.viewport.zoomed
    before = len(play.session.actions)
    tap_cell(kiosk, (shown or reachable)[0])
    assert len(play.session.actions) == before + 1
    assert not board.viewport.zoomed, "after a move everyone sees the whole board"
    assert board.whole_button.parent is None


def _shown_cells(board: BoardWidget) -> set[str]:
    assert board.view is not None
    geometry = board.view.geometry
    return {c.cell for c in geometry.cells if board.viewport.shows(c, geometry.aspect)}


def test_whole_board_button_and_the_miniature_move_the_zoom(kiosk: Kiosk) -> None:
    advance_to(kiosk, "move")
    board, view = the_board(kiosk)
    west, east = side_by_side_targets(view)
    (wx, wy), (ex, ey) = board.cell_centre(west), board.cell_centre(east)
    tap_at((wx + ex) / 2, (wy + ey) / 2)
    assert board.viewport.zoomed
    first = board.viewport
    # The miniature in the strip: a tap on its far corner from the zoom moves the zoom.
    mx, my, mw, mh = board.layout.minimap
    far_x = mx + (0.95 if first.left < 0.25 else 0.05) * mw
    far_y = my + (0.05 if first.top < 0.25 else 0.95) * mh
    tap_at(far_x, far_y)
    assert board.viewport.zoomed and board.viewport != first
    tap_button(kiosk, "Whole board", exact=True)
    assert not board.viewport.zoomed and board.whole_button.parent is None
    assert board.cell_side() < TOUCH_MIN


def test_a_sloppy_tap_beside_a_lone_piece_selects_it(kiosk: Kiosk) -> None:
    advance_to(kiosk, "move")
    play = kiosk.play
    assert play is not None
    board, view = the_board(kiosk)
    side = board.cell_side()
    for target in sorted(view.targets):
        x, y = board.cell_centre(target)
        point = (x + 0.6 * side, y)  # on the neighbouring square, 0.6 squares off
        others = [board.cell_centre(t) for t in view.targets if t != target]
        lone = all(
            (ox - point[0]) ** 2 + (oy - point[1]) ** 2 > (TOUCH_MIN / 2) ** 2 for ox, oy in others
        )
        if lone and x + 1.5 * side < board.x + board.width:
            break
    else:
        pytest.fail("no piece stands alone")
    tap_at(*point)
    assert play.board_input.focus == target and not board.viewport.zoomed


def test_fix_the_table_walk_through_by_touch(kiosk: Kiosk) -> None:
    play = kiosk.play
    assert play is not None
    bot = RandomBot(2)
    for _ in range(300):
        if play.fix.step is not None:
            break
        play.submit(bot.choose(play.rules, play.state))
    else:
        pytest.skip("no table changes in this game")
    total = len(play.fix.steps)
    assert play.view().fix is not None and play.view().fix.total == total  # type: ignore[union-attr]
    shoot(kiosk, "play-fix-the-table")
    drawn = kiosk.play_screen.board.view  # type: ignore[union-attr]
    step = play.fix.steps[0]  # red where to lift, green where it goes
    lit = {
        **{c: Role.REMOVE for c in step.lift},
        **{c: Role.PLACE for c in step.put},
        **{c: Role.FIX for c in step.fix},
    }
    assert drawn is not None and {c: look.role for c, look in drawn.looks.items()} == lit
    for _ in range(total):
        tap_button(kiosk, "Done", exact=True)
    assert play.view().fix is None


def test_led_mirror_shows_the_strip_frame(kiosk: Kiosk) -> None:
    layout = kolossus_layout()
    kiosk.mirror.set_layout(layout)
    frames_sent: list[object] = []

    def feed(highlights: object) -> None:
        frame = render(highlights, layout, KOLOSSUS_PALETTE, t=0.6)  # type: ignore[arg-type]
        frames_sent.append(frame)
        kiosk.mirror.show(frame)

    kiosk.on_highlights = feed
    advance_to(kiosk, "move")
    tap_button(kiosk, "Table", exact=True)  # board → facts and log
    assert kiosk.play_screen.mode == "info"
    shoot(kiosk, "play-kolossus-table")
    tap_button(kiosk, "LEDs", exact=True)  # → what the strip shows
    mirror = kiosk.play_screen.mirror
    assert mirror is not None and mirror.parent is not None
    assert frames_sent
    lit = [d for d in mirror.dots if d.colour != (0, 0, 0)]
    assert lit and len(mirror.dots) == 121
    shoot(kiosk, "play-led-mirror")
    tap_button(kiosk, "Board", exact=True)
    assert kiosk.play_screen.board is not None and kiosk.play_screen.board.parent is not None


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_island_board_draws_the_rules_highlights(tmp_path: Path, game: str) -> None:
    from firmware_bridge.leds.palette import ISLAND_PALETTE

    kiosk = open_kiosk(tmp_path, seed=5)
    try:
        kiosk.open_setup(game)
        kiosk.start_game()
        play = kiosk.play
        assert play is not None
        bot = RandomBot(4)
        for _ in range(25):
            while play.fix.step is not None:
                play.fix.next()
            play.submit(bot.choose(play.rules, play.state))
        frames(2)
        board = kiosk.play_screen.board
        assert board is not None and board.view is not None
        assert len(board.view.geometry.cells) == len(state_as(play, IslandState).board.spaces)
        assert dict(board.view.looks) == cell_looks(play.highlights(), ISLAND_PALETTE)
        space = state_as(play, IslandState).board.spaces[0].id
        tap_cell(kiosk, space)
        assert (
            play.board_input.focus == space or play.session.actions
        )  # selected, or it played a move
        frames(2)
        on_screen = [w.text for w in kiosk.play_screen.walk() if isinstance(w, Label)]
        assert not [t for t in on_screen if re.search(r"\br\d+c\d+\b", t)]  # "C3", not "r3c3"
        shoot(kiosk, f"play-{game.replace('_', '-')}")
    finally:
        close_kiosk(kiosk)


# --- what a redraw costs ------------------------------------------------------------------

Drawn = list[tuple[int, str, object]]


def drawn(board: BoardWidget) -> Drawn:
    """Every instruction the board draws (the "Whole board" button apart), in order: its
    id, its kind and what it draws."""
    return walked(board.canvas.before)


def walked(top: Any) -> Drawn:
    """Every instruction inside ``top``, in drawing order (see :func:`drawn`)."""
    found: Drawn = []

    def walk(group: Any) -> None:
        for instruction in group.children:
            kind = type(instruction).__name__
            state: object = None
            if kind == "Color":
                state = tuple(instruction.rgba)
            elif hasattr(instruction, "joint"):  # Line, SmoothLine
                state = tuple(
                    tuple(value) if isinstance(value, list | tuple) else value
                    for value in (
                        instruction.rectangle,
                        instruction.circle,
                        instruction.points,
                        instruction.width,
                        instruction.joint,
                    )
                )
            elif hasattr(instruction, "pos"):  # Rectangle, SmoothEllipse
                texture = instruction.texture
                state = (
                    tuple(instruction.pos),
                    tuple(instruction.size),
                    getattr(instruction, "segments", None),
                    None if texture is None else tuple(texture.size),
                )
            found.append((id(instruction), kind, state))
            if hasattr(instruction, "children"):
                walk(instruction)

    walk(top)
    return found


def pixels(board: BoardWidget) -> bytes:
    """The board as drawn (offscreen, RGBA)."""
    pixels: bytes = board.export_as_image().texture.pixels
    return pixels


def differs_from_a_new_board(board: BoardWidget) -> int:
    """How many bytes of the board's pixels differ from those of a new board of the same
    place, size and zoom that draws the same view from scratch."""
    assert board.view is not None
    fresh = BoardWidget(size_hint=(None, None), size=board.size, pos=board.pos)
    fresh.show(board.view)
    fresh.zoom(board.viewport)
    fresh.redraw()
    drawn, expected = pixels(board), pixels(fresh)
    assert len(drawn) == len(expected)
    if drawn == expected:  # compared at once; counted byte by byte only when they differ
        return 0
    return sum(a != b for a, b in zip(drawn, expected, strict=True))


def counters(board: BoardWidget) -> tuple[int, int, int, int]:
    return board.redraws, board.rebuilds, board.relayouts, board.cells_updated


def test_an_unchanged_view_touches_nothing_and_a_new_look_only_its_cell(kiosk: Kiosk) -> None:
    advance_to(kiosk, "move")
    board, view = the_board(kiosk)
    before, instructions = counters(board), drawn(board)
    board.show(view)
    board.show(dataclasses.replace(view))  # equal, not the same object
    kiosk.play_screen.refresh()  # the screen asks again: the same view
    frames(2)
    assert counters(board) == before
    assert drawn(board) == instructions, "an unchanged view touched the canvas"

    covered = set(view.looks) | {deco.cell for deco in view.decorations}
    cell = next(c.cell for c in view.geometry.cells if c.cell not in covered)  # a bare cell
    look = CellLook(cell, Role.REACHABLE, colour=(10, 200, 30), level=1.0, step=None, player=None)
    board.show(dataclasses.replace(view, looks={**view.looks, cell: look}))
    frames(2)
    redraws, rebuilds, relayouts, cells_updated = before
    assert counters(board) == (redraws + 1, rebuilds, relayouts, cells_updated + 1)
    now, kept = set(drawn(board)), set(instructions)
    assert kept <= now, "another cell was touched"
    layers = [layer for layer in drawn_over(board, cell) if layer is not None]
    overlay = {entry[0] for layer in layers for entry in [(id(layer),), *walked(layer)]}
    assert {entry[0] for entry in now - kept} <= overlay  # the new instructions: that cell's
    assert {"Color", "Rectangle"} <= {kind for _, kind, _ in now - kept}  # lit square
    assert differs_from_a_new_board(board) == 0

    # A piece gone, a terrain changed, the focus moved: one cell each.
    lit = board.view
    assert lit is not None and lit.base is not None and lit.decorations
    gone = lit.decorations[-1]
    terrain = next(c for c in lit.base if c not in covered and c != cell)
    focus = next(c for c in lit.base if c not in covered and c not in (cell, terrain))
    for change in (
        {"decorations": lit.decorations[:-1]},
        {"base": {**lit.base, terrain: (200, 40, 40)}},
        {"focus": focus},
    ):
        counted = board.cells_updated
        lit = dataclasses.replace(lit, **change)
        board.show(lit)
        frames(1)
        assert board.cells_updated == counted + 1, change
        assert differs_from_a_new_board(board) == 0, change
    assert (board.rebuilds, board.relayouts) == (rebuilds, relayouts)
    assert drawn_over(board, gone.cell)[1] is None  # its square drawn, without the piece


def test_changes_in_one_frame_are_drawn_once_as_a_new_board_would(kiosk: Kiosk) -> None:
    advance_to(kiosk, "move")
    play = kiosk.play
    assert play is not None
    board, view = the_board(kiosk)
    piece = sorted(view.targets)[0]
    redraws, rebuilds = board.redraws, board.rebuilds
    play.board_input.tap_cell(piece)  # selected,
    play.board_input.tap_cell(piece)  # cleared,
    play.board_input.tap_cell(piece)  # selected again, all before the next frame
    frames(1)
    assert board.redraws == redraws + 1
    assert board.view is not None and board.view.focus == piece
    assert differs_from_a_new_board(board) == 0
    reachable = sorted(c for c, look in board.view.looks.items() if look.role is Role.REACHABLE)
    moves = len(play.session.actions)
    play.board_input.tap_cell(reachable[0])  # a move: pieces (texts) and highlights change
    frames(1)
    assert len(play.session.actions) == moves + 1 and board.rebuilds == rebuilds
    assert differs_from_a_new_board(board) == 0


def test_a_moved_or_resized_board_moves_its_shapes_in_place(kiosk: Kiosk) -> None:
    advance_to(kiosk, "move")
    _, view = the_board(kiosk)
    board = BoardWidget(size_hint=(None, None), size=(384, 384), pos=(8, 8))
    board.show(view)
    frames(1)
    assert (board.rebuilds, board.relayouts) == (1, 0)
    board.size = (300, 330)
    board.pos = (20, 30)
    frames(1)
    assert (board.redraws, board.rebuilds, board.relayouts) == (2, 1, 1)
    assert differs_from_a_new_board(board) == 0
    piece = sorted(view.targets)[0]
    x, y = board.cell_centre(piece)
    assert board.x < x < board.right and board.y < y < board.top
    assert board.cell_side() < TOUCH_MIN


def test_a_banner_resizes_the_board_once_a_frame(kiosk: Kiosk) -> None:
    """The banner takes its height from the play area: the board's column shrinks in two
    steps of one frame (width, then height); the board is drawn once, at its final size."""
    advance_to(kiosk, "move")
    play = kiosk.play
    assert play is not None
    board, _ = the_board(kiosk)
    whole = tuple(board.size)
    redraws, rebuilds, relayouts = board.redraws, board.rebuilds, board.relayouts
    play.submit({"type": "no_such_action"})  # refused: the banner shows
    frames(1)
    assert board.width < whole[0] and board.height < whole[1]
    assert (board.redraws, board.rebuilds, board.relayouts) == (
        redraws + 1,
        rebuilds,
        relayouts + 1,
    )
    assert differs_from_a_new_board(board) == 0
    play.dismiss_banner()
    frames(1)
    assert tuple(board.size) == whole
    assert (board.redraws, board.rebuilds, board.relayouts) == (
        redraws + 2,
        rebuilds,
        relayouts + 2,
    )
    assert differs_from_a_new_board(board) == 0


def test_a_board_back_at_a_size_it_had_shows_the_layers_it_made_there(kiosk: Kiosk) -> None:
    """A banner shown and hidden moves the board between two sizes (an undo's, a refusal's,
    then the next move): the second time, each cell's layers (its pieces' discs and texts,
    the costliest instructions) come back as they were made, and the board is drawn as a
    new one would be."""
    advance_to(kiosk, "move")
    play = kiosk.play
    assert play is not None
    board, view = the_board(kiosk)
    cells = sorted({deco.cell for deco in view.decorations})
    assert cells, "the board shows pieces"

    def text_layers() -> list[Any]:
        return [drawn_over(board, cell)[1] for cell in cells]

    whole_layers = text_layers()
    play.submit({"type": "no_such_action"})  # refused: the banner shows
    frames(1)
    banner_layers = text_layers()
    assert not set(map(id, banner_layers)) & set(map(id, whole_layers))  # drawn anew there
    play.dismiss_banner()
    frames(1)
    assert list(map(id, text_layers())) == list(map(id, whole_layers))
    assert differs_from_a_new_board(board) == 0
    play.submit({"type": "no_such_action"})
    frames(1)
    assert list(map(id, text_layers())) == list(map(id, banner_layers))
    assert differs_from_a_new_board(board) == 0


def test_a_new_look_keeps_the_cells_texts_and_a_look_shown_before_is_reused(
    kiosk: Kiosk,
) -> None:
    """A touch changes the looks of a few cells, seldom their pieces: the text layer (the
    costliest instructions) stays, and a look the cell showed before comes back whole."""
    advance_to(kiosk, "move")
    board, view = the_board(kiosk)
    cell = view.decorations[0].cell

    def texts_drawn() -> set[int]:
        layer = drawn_over(board, cell)[1]
        assert layer is not None, "a decorated cell draws its texts"
        return {id(layer)} | {entry[0] for entry in walked(layer)}

    texts = texts_drawn()
    looks = [
        CellLook(cell, role, colour=colour, level=1.0, step=None, player=None)
        for role, colour in ((Role.REACHABLE, (10, 200, 30)), (Role.SELECTABLE, (200, 200, 30)))
    ]
    first_layer = None
    for look in (*looks, looks[0]):
        board.show(dataclasses.replace(view, looks={**view.looks, cell: look}))
        frames(1)
        assert texts_drawn() == texts
        assert differs_from_a_new_board(board) == 0, look.role
        layer = drawn_over(board, cell)[0]
        if first_layer is None:
            first_layer = layer
    assert layer is first_layer, "the look shown before was made again"


def test_a_look_of_the_same_form_repaints_the_layer_in_place(kiosk: Kiosk) -> None:
    """Making a look's instructions costs about ten times setting their colour.
    Looks that differ only by colour or step number (another player's destination, the
    next step of a path) repaint the cell's layer of that form, and the board still
    matches one drawn from scratch."""
    advance_to(kiosk, "move")
    board, view = the_board(kiosk)
    covered = set(view.looks) | {deco.cell for deco in view.decorations}
    cell = next(c.cell for c in view.geometry.cells if c.cell not in covered)
    looks = [
        CellLook(cell, role, colour=colour, level=1.0, step=step, player=None)
        for role, colour, step in (
            (Role.REACHABLE, (10, 200, 30), None),
            (Role.CAPTURABLE, (220, 30, 30), None),
            (Role.PATH, (30, 30, 220), 1),
            (Role.PATH, (200, 30, 220), 2),
            (Role.SELECTABLE, (200, 200, 30), None),
            (Role.SELECTABLE, (30, 200, 200), None),
        )
    ]
    layers = []
    for look in looks:
        board.show(dataclasses.replace(view, looks={**view.looks, cell: look}))
        frames(1)
        assert differs_from_a_new_board(board) == 0, look
        layers.append(drawn_over(board, cell)[0])
    fill, capture, step1, step2, ring, ring2 = layers
    assert fill is capture and step1 is step2 and ring is ring2
    assert len({id(fill), id(step1), id(ring)}) == 3  # three forms, three layers


def test_a_still_board_makes_its_destination_layers_before_a_touch(kiosk: Kiosk) -> None:
    """Making a destination's fill layer is ≈50 k instructions a cell, ≈5 M for a piece
    with a hundred destinations: once the board has been still for PREMAKE_AFTER_S it
    makes that layer for every cell, a batch at a time, and then schedules nothing more
    (idle means idle). A touch afterwards makes none, and draws what a new board would."""
    advance_to(kiosk, "move")
    play = kiosk.play
    assert play is not None
    board, _ = the_board(kiosk)
    assert board.premaking  # drawn at a new place: the layers are to come
    for _ in range(400):
        if not board.premaking:
            break
        frames(1)
        time.sleep(0.01)
    assert not board.premaking
    scheduled = [event.get_callback() for event in Clock.get_events() if event.is_triggered]
    assert not [done for done in scheduled if getattr(done, "__self__", None) is board]
    made = board.looks_made[PREMADE_FORM]
    piece = max(
        (h.cell for h in play.highlights() if h.role is Role.SELECTABLE),
        key=lambda cell: len(play.queries.actions_at(cell)),
    )
    play.board_input.tap_cell(piece)
    frames(1)
    lit = [look for look in board.view.looks.values() if look.role is Role.REACHABLE]
    assert len(lit) > 3  # the piece has somewhere to go
    assert board.looks_made[PREMADE_FORM] == made, "a destination's layer was made during the touch"
    assert differs_from_a_new_board(board) == 0


def test_the_banner_is_measured_once_per_text_and_never_while_hidden(
    kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The banner's whole message is measured to size its row: once per text and width,
    not at every move, and not at all while no banner is shown."""
    advance_to(kiosk, "move")
    frames(2)  # the screen laid out at its size
    play = kiosk.play
    assert play is not None
    screen = kiosk.play_screen
    banner = screen.ids.banner
    measured: list[str] = []
    render = BannerButton.texture_update  # the play screen's one BannerButton

    def texture_update(self: Any, *args: Any) -> None:
        if sys._getframe(1).f_code.co_name == "_banner":  # the screen's own measure
            measured.append(self.text)
        render(self, *args)

    monkeypatch.setattr(BannerButton, "texture_update", texture_update)
    screen.refresh()
    screen.refresh()
    assert measured == []  # hidden: nothing to measure
    play.submit({"type": "no_such_action"})  # refused: the banner shows
    frames(2)
    assert len(measured) == 1 and banner.opacity == 1
    assert screen.ids.banner_row.height >= 56
    shown = len(measured)
    screen.refresh()
    screen.refresh()
    frames(2)
    assert len(measured) == shown  # the same text at the same width: not again
    play.dismiss_banner()
    frames(2)
    assert screen.ids.banner_row.height == 0 and len(measured) == shown
