"""Board presenter: the screen shows the LEDs' winning highlight per cell; taps map to cells."""

from __future__ import annotations

from companion.highlights import Highlight, Role
from companion.session import Session
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE
from firmware_bridge.leds.render import render, winning_highlights
from kiosk.presenters.board import (
    board_view,
    cell_looks,
    grid_geometry,
    led_mirror_dots,
    positions_geometry,
)
from kiosk.presenters.devices import DeviceStatus, badges, electronic_dice_ready
from kiosk.presenters.games import board_decorations
from kiosk.presenters.play import PlayPresenter
from tests.kiosk.helpers import assert_imports_without_kivy


def test_board_presenter_does_not_import_kivy() -> None:
    assert_imports_without_kivy(
        "kiosk.presenters.board",
        "kiosk.presenters.games",
        "kiosk.presenters.devices",
        "tests.kiosk.test_presenters_board",
    )


def test_priority_and_colours_match_the_led_renderer() -> None:
    lights = (
        Highlight(cell="5,5", role=Role.REACHABLE),
        Highlight(cell="5,5", role=Role.SELECTED),
        Highlight(cell="0,0", role=Role.CONTROL, player=2),
    )
    looks = cell_looks(lights, KOLOSSUS_PALETTE)
    assert looks["5,5"].role is Role.SELECTED
    assert looks["0,0"].colour == KOLOSSUS_PALETTE.players[2]
    assert set(looks) == set(winning_highlights(lights, KOLOSSUS_PALETTE))


def test_fix_steps_show_one_at_a_time_like_the_leds() -> None:
    lights = (
        Highlight(cell="1,1", role=Role.FIX, step=1),
        Highlight(cell="2,2", role=Role.FIX, step=2),
        Highlight(cell="3,3", role=Role.REACHABLE),
    )
    assert set(cell_looks(lights, KOLOSSUS_PALETTE)) == {"1,1"}
    assert set(cell_looks(lights, KOLOSSUS_PALETTE, fix_step=2)) == {"2,2"}


def test_grid_taps_find_the_square() -> None:
    geometry = grid_geometry()
    assert len(geometry.cells) == 121
    assert geometry.cell_at(5.5 / 11, 5.5 / 11) == "5,5"
    assert geometry.cell_at(0.01, 0.99) == "10,0"
    assert geometry.cell_at(1.2, 0.5) is None


def test_island_positions_geometry() -> None:
    geometry = positions_geometry({"a": (0.0, 0.0), "b": (1.0, 0.0), "c": (0.5, 1.0)})
    assert geometry.shape == "circle"
    a = next(c for c in geometry.cells if c.cell == "a")
    assert geometry.cell_at(a.x, a.y) == "a"


def test_kolossus_board_view_lights_what_the_rules_say() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=3))
    highlights = presenter.highlights()
    view = board_view("kolossus", grid_geometry(), highlights)
    lit = set(winning_highlights(highlights, KOLOSSUS_PALETTE))
    assert set(view.looks) == lit
    base, pieces = board_decorations("kolossus", presenter.state)
    minis = [d for d in pieces if d.text in ("C", "G", "W")]
    assert len(base) == 121 and len(minis) == 32  # every miniature is on the board
    crystals = [d for d in pieces if d.text.startswith("×")]
    assert [d.text for d in crystals] == [f"×{presenter.state.crystals}"]


def test_led_mirror_dots_follow_the_frame() -> None:
    layout = kolossus_layout()
    lights = (Highlight(cell="0,0", role=Role.SELECTED),)
    frame = render(lights, layout, KOLOSSUS_PALETTE)
    dots = led_mirror_dots(layout.positions, layout.cells, frame)
    assert len(dots) == 121
    lit = [d for d in dots if d.colour != (0, 0, 0)]
    assert len(lit) == 1 and (lit[0].x, lit[0].y) == (0.5 / 11, 0.5 / 11)


def test_device_badges() -> None:
    statuses = (DeviceStatus("dice", "connected", battery=15), DeviceStatus("tray", "reconnecting"))
    shown = badges(statuses)
    assert [b.text for b in shown] == ["Dice on 15%", "Tray reconnecting…"]
    assert [b.level for b in shown] == ["warn", "warn"]
    assert electronic_dice_ready(statuses)
    assert not electronic_dice_ready(statuses[1:])
