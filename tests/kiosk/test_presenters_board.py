"""Board presenter: the screen shows the LEDs' winning highlight per cell; taps map to cells."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import Roll
from companion.games.kolossus.model import KolossusState
from companion.highlights import Highlight, Role, winning_highlights
from companion.session import Session
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE
from firmware_bridge.leds.render import render
from kiosk.presenters.board import (
    TAP_ROLES,
    WHOLE_BOARD,
    BoardGeometry,
    Decoration,
    TapResult,
    Viewport,
    board_view,
    cell_looks,
    cell_side_px,
    grid_geometry,
    led_mirror_dots,
    positions_geometry,
    resolve_tap,
    tap_targets,
    zoom_survives,
    zoom_viewport,
)
from kiosk.presenters.devices import DeviceStatus, badges, electronic_dice_ready
from kiosk.presenters.play import PlayPresenter
from kiosk.theme import TOUCH_MIN
from tests.helpers.presenters import state_as
from tests.kiosk.helpers import assert_imports_without_kivy

#: The play screen's board: 384 px wide (as high as the play area), 330 px when zoomed
#: (a finger-high strip under it): Kolossus squares of 35 px, 55 px zoomed.
BOARD_PX = 384.0
ZOOM_PX = 330.0
GRID = grid_geometry()


def centre(geometry: BoardGeometry, cell: str) -> tuple[float, float]:
    found = next(c for c in geometry.cells if c.cell == cell)
    return found.x, found.y


def offset(
    point: tuple[float, float], dx_px: float, dy_px: float, view_px: float = BOARD_PX
) -> tuple[float, float]:
    """``point`` moved by pixels on the whole-board view (y down)."""
    return point[0] + dx_px / view_px, point[1] + dy_px / view_px


def tap(
    point: tuple[float, float], targets: set[str], viewport: Viewport = WHOLE_BOARD
) -> TapResult:
    view_px = ZOOM_PX if viewport.zoomed else BOARD_PX
    return resolve_tap(
        GRID, point, frozenset(targets), view_px=view_px, viewport=viewport, zoom_px=ZOOM_PX
    )


def test_board_presenter_does_not_import_kivy() -> None:
    assert_imports_without_kivy(
        "kiosk.presenters.board",
        "kiosk.presenters.looks",
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
    """The presenter owns the step: the board and the strip draw what it hands them,
    only the current step's lights (red: lift here, green: put here); the board shows
    step 2 after next_fix_step."""
    lights = (
        Highlight(cell="1,1", role=Role.FIX, step=1),
        Highlight(cell="2,2", role=Role.FIX, step=2),
        Highlight(cell="3,3", role=Role.REACHABLE),
    )
    assert set(cell_looks(lights, KOLOSSUS_PALETTE)) == {"1,1", "2,2", "3,3"}  # no step rule
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=5))
    presenter.submit({"type": "ready"})
    presenter.submit(Roll(values=(1,)))
    quake = next(p for p in presenter.queries.legal_payloads() if p["type"] == "quake_move")
    presenter.submit(quake)
    layout = kolossus_layout()
    for number, step in enumerate(presenter.fix.steps[:2], start=1):
        assert presenter.fix.step == number
        view = presenter.board_view()
        assert view is not None and set(view.looks) == set(step.cells)
        roles = {**{c: Role.REMOVE for c in step.lift}, **{c: Role.PLACE for c in step.put}}
        assert {c: look.role for c, look in view.looks.items()} == roles
        frame = render(presenter.highlights(), layout, presenter.board_input.palette)
        lit = {i for i, pixel in enumerate(frame) if pixel != (0, 0, 0)}
        assert lit == {i for c in step.cells for i in layout.leds_of(c)}
        presenter.fix.next()


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
    view = presenter.board_view()
    assert view is not None and view.geometry == grid_geometry()
    lit = set(winning_highlights(highlights, KOLOSSUS_PALETTE))
    assert set(view.looks) == lit
    base, pieces = view.base or {}, view.decorations
    minis = [d for d in pieces if d.text in ("C", "G", "W")]
    assert len(base) == 121 and len(minis) == 32  # every miniature is on the board
    crystals = [d for d in pieces if d.text.startswith("×")]
    assert [d.text for d in crystals] == [f"×{state_as(presenter, KolossusState).crystals}"]


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


# --- fingers: forgiving taps and zoom ---------------------------------------------------


def test_kolossus_squares_are_below_a_finger_on_the_whole_board() -> None:
    # Why this machinery exists: 11 squares in the 384 px play area are 35 px.
    assert cell_side_px(GRID, BOARD_PX) < TOUCH_MIN


def test_tap_targets_are_the_actionable_roles_and_the_focus() -> None:
    lights = [Highlight(cell=f"0,{i}", role=role) for i, role in enumerate(Role)]
    targets = tap_targets(lights, focus="9,9")
    acting = {f"0,{i}" for i, role in enumerate(Role) if role in TAP_ROLES}
    assert targets == frozenset(acting | {"9,9"})
    assert Role.PATH not in TAP_ROLES and Role.FIX not in TAP_ROLES
    # A reachable square drawn as the path preview (PATH outranks REACHABLE) is a target.
    both = [Highlight(cell="3,3", role=Role.PATH), Highlight(cell="3,3", role=Role.REACHABLE)]
    view = board_view(KOLOSSUS_PALETTE, GRID, both)
    assert view.looks["3,3"].role is Role.PATH and view.targets == {"3,3"}


def test_a_sloppy_tap_snaps_to_the_only_target_under_the_finger() -> None:
    lone = centre(GRID, "5,5")
    beside = offset(lone, 20, 0)  # on square 5,6, 20 px from the target's centre
    assert GRID.cell_at(*beside) == "5,6"
    assert tap(beside, {"5,5"}).cell == "5,5"
    # Beyond half a finger the neighbour is meant: no snapping across the board.
    assert tap(offset(lone, 30, 0), {"5,5"}).cell == "5,6"
    assert tap(offset(lone, 30, 0), set()).cell == "5,6"  # no targets: plain hit test
    assert tap((1.5, 0.5), {"5,5"}).cell is None  # off the board


def test_a_tap_between_two_targets_zooms_to_finger_sized_squares() -> None:
    between = offset(centre(GRID, "5,5"), 17.5, 0)  # the edge between 5,5 and 5,6
    result = tap(between, {"5,5", "5,6"})
    assert result.cell is None and result.zoom is not None
    zoom = result.zoom
    assert cell_side_px(GRID, ZOOM_PX, zoom) >= TOUCH_MIN
    assert math.isclose(zoom.span, 6 / 11)  # 6×6 squares of 55 px: about a quadrant
    assert zoom.left <= between[0] <= zoom.left + zoom.span
    assert zoom.top <= between[1] <= zoom.top + zoom.span
    shown = [c.cell for c in GRID.cells if zoom.shows(c, GRID.aspect)]
    assert len(shown) == 36 and {"5,5", "5,6"} <= set(shown)
    # Zoomed, the same spot is a precise tap: the square under the finger.
    assert tap(between, {"5,5", "5,6"}, zoom).cell in ("5,5", "5,6")
    assert tap(centre(GRID, "5,6"), {"5,5", "5,6"}, zoom).cell == "5,6"
    # The centre of a square with a target beside it is still a sure tap.
    assert tap(centre(GRID, "5,5"), {"5,5", "5,6"}).cell == "5,5"


def test_zoom_aligns_to_squares_and_stays_on_the_board() -> None:
    corner = zoom_viewport(GRID, (0.01, 0.01), view_px=ZOOM_PX)
    assert corner == Viewport(0.0, 0.0, 6 / 11)
    far = zoom_viewport(GRID, (0.99, 0.99), view_px=ZOOM_PX)
    assert far is not None and math.isclose(far.left, 5 / 11) and math.isclose(far.top, 5 / 11)
    middle = zoom_viewport(GRID, centre(GRID, "5,5"), view_px=ZOOM_PX)
    assert middle is not None
    assert math.isclose(middle.left * 11, round(middle.left * 11))  # whole squares
    assert zoom_viewport(GRID, (0.5, 0.5), view_px=11 * TOUCH_MIN) is None  # big enough


def test_viewport_maps_view_points_to_the_board_and_back() -> None:
    viewport = Viewport(left=0.25, top=0.5, span=0.5)
    assert viewport.to_board(0.0, 0.0) == (0.25, 0.5)
    assert viewport.to_board(1.0, 1.0) == (0.75, 1.0)
    u, v = viewport.to_view(*viewport.to_board(0.3, 0.7))
    assert math.isclose(u, 0.3) and math.isclose(v, 0.7)
    assert viewport.zoomed and not WHOLE_BOARD.zoomed


def test_island_spaces_are_finger_sized_so_taps_never_zoom() -> None:
    positions = {f"s{i}": (float(i % 6), float(i // 6)) for i in range(30)}
    islands = positions_geometry(positions)
    assert cell_side_px(islands, BOARD_PX) >= TOUCH_MIN
    assert zoom_viewport(islands, (0.5, 0.5), view_px=BOARD_PX) is None
    a, b = (next(c for c in islands.cells if c.cell == n) for n in ("s0", "s1"))
    targets = frozenset({"s0", "s1"})
    for fraction in (0.1, 0.3, 0.45):  # from s0's centre towards s1, inside s0
        point = (a.x + (b.x - a.x) * fraction, a.y)
        result = resolve_tap(islands, point, targets, view_px=BOARD_PX)
        assert result == TapResult(cell="s0")
    gap = ((a.x + b.x) / 2, a.y)  # between the two discs, beyond half a finger of both
    assert resolve_tap(islands, gap, targets, view_px=BOARD_PX) == TapResult()


grid_cells = st.tuples(st.integers(0, 10), st.integers(0, 10)).map(lambda rc: f"{rc[0]},{rc[1]}")


@settings(max_examples=300, deadline=None)
@given(
    targets=st.sets(grid_cells, min_size=1, max_size=30),
    pick=st.integers(0, 1000),
    angle=st.floats(0, 2 * math.pi),
    reach=st.floats(0, TOUCH_MIN / 2),
)
def test_a_tap_within_half_a_finger_of_a_target_never_acts_elsewhere(
    targets: set[str], pick: int, angle: float, reach: float
) -> None:
    """The 48 px guarantee: a tap that misses a target by less than half a finger picks
    that target or zooms; it never plays another cell."""
    meant = sorted(targets)[pick % len(targets)]
    point = offset(centre(GRID, meant), reach * math.cos(angle), reach * math.sin(angle))
    result = tap(point, targets)
    assert result.cell == meant or result.zoom is not None
    if result.zoom is not None:
        assert cell_side_px(GRID, ZOOM_PX, result.zoom) >= TOUCH_MIN
        # The zoom shows both the square the finger landed on and the one it meant.
        landed = GRID.cell_at(*point)
        for name in {meant, landed} - {None}:
            cell = next(c for c in GRID.cells if c.cell == name)
            assert result.zoom.shows(cell, GRID.aspect), f"the zoom hides {name}"


@settings(max_examples=200, deadline=None)
@given(
    targets=st.sets(grid_cells, max_size=30),
    x=st.floats(0, 1, exclude_max=True),
    y=st.floats(0, 1, exclude_max=True),
)
def test_a_tap_picks_the_square_under_it_or_a_target_within_reach(
    targets: set[str], x: float, y: float
) -> None:
    result = tap((x, y), targets)
    if result.cell is None:
        assert result.zoom is not None
        return
    cx, cy = centre(GRID, result.cell)
    distance = math.hypot(cx - x, cy - y) * BOARD_PX
    assert result.cell == GRID.cell_at(x, y) or (
        result.cell in targets and distance <= TOUCH_MIN / 2 + 1e-6
    )


def test_zoom_survives_a_selection_but_not_a_move_or_a_fix_step() -> None:
    pieces = (Decoration(cell="1,1", text="W"),)
    before = board_view(KOLOSSUS_PALETTE, GRID, [], decorations=pieces)
    selected = board_view(
        KOLOSSUS_PALETTE,
        GRID,
        [Highlight(cell="1,1", role=Role.SELECTED), Highlight(cell="1,2", role=Role.REACHABLE)],
        decorations=pieces,
        focus="1,1",
    )
    assert zoom_survives(before, selected)
    moved = board_view(KOLOSSUS_PALETTE, GRID, [], decorations=(Decoration(cell="1,2", text="W"),))
    assert not zoom_survives(selected, moved)
    fix = board_view(
        KOLOSSUS_PALETTE, GRID, [Highlight(cell="1,1", role=Role.FIX, step=1)], decorations=pieces
    )
    assert not zoom_survives(before, fix)
    assert not zoom_survives(None, before)


def _resolve_by_scanning(
    geometry: BoardGeometry,
    point: tuple[float, float],
    targets: frozenset[str],
    *,
    view_px: float,
    viewport: Viewport = WHOLE_BOARD,
    finger_px: float = TOUCH_MIN,
) -> TapResult:
    """``resolve_tap`` as it was: every shown cell looked at for every tap."""
    shown = [c for c in geometry.cells if viewport.shows(c, geometry.aspect)]
    x, y = point
    px_x = view_px / viewport.span
    px_y = px_x * geometry.aspect
    under = BoardGeometry(geometry.shape, tuple(shown), geometry.aspect).cell_at(x, y)
    near = sorted(
        (math.hypot((x - c.x) * px_x, (y - c.y) * px_y), c.cell) for c in shown if c.cell in targets
    )
    candidates = [cell for d, cell in near if d <= finger_px / 2 + 1e-6 or cell == under]
    if not candidates:
        return TapResult(cell=under)
    if len(candidates) == 1:
        return TapResult(cell=candidates[0])
    zoom = zoom_viewport(geometry, point, view_px=view_px, min_cell_px=finger_px)
    if zoom is not None and zoom.span < viewport.span - 1e-9:
        return TapResult(zoom=zoom)
    return TapResult(cell=under if under in candidates else candidates[0])


_ISLAND = positions_geometry(
    {f"S{i}": (i % 6 + 0.5 * (i // 6 % 2), float(i // 6)) for i in range(27)}
)


@given(
    geometry=st.sampled_from([GRID, _ISLAND]),
    data=st.data(),
    x=st.floats(-0.05, 1.05),
    y=st.floats(-0.05, 1.05),
    on_a_centre=st.booleans(),
    viewport=st.sampled_from([WHOLE_BOARD, Viewport(0.0, 0.0, 0.5), Viewport(0.25, 0.5, 0.5)]),
)
@settings(max_examples=400, deadline=None)
def test_a_tap_looks_only_at_nearby_cells_and_finds_what_a_scan_finds(
    geometry: BoardGeometry,
    data: st.DataObject,
    x: float,
    y: float,
    on_a_centre: bool,
    viewport: Viewport,
) -> None:
    keys = [c.cell for c in geometry.cells]
    targets = frozenset(data.draw(st.lists(st.sampled_from(keys), max_size=6)))
    if on_a_centre:
        x, y = centre(geometry, data.draw(st.sampled_from(keys)))
    expected = _resolve_by_scanning(geometry, (x, y), targets, view_px=BOARD_PX, viewport=viewport)
    found = resolve_tap(geometry, (x, y), targets, view_px=BOARD_PX, viewport=viewport)
    assert found == expected
    assert (
        geometry.cell_at(x, y)
        == _resolve_by_scanning(geometry, (x, y), frozenset(), view_px=BOARD_PX).cell
    )
