"""What the on-screen board draws: the same winning highlight per cell as the LEDs.

The board widget and the LED renderer both go through
:func:`companion.highlights.winning_highlights` with the game's palette, so a
table without LEDs sees exactly what the strip would show (colour and role per cell).
Geometry is normalised (0..1, y down = north at the top) so widgets only scale it.

Fingers: Kolossus squares are about 33 px on the 800×480 panel (the play area is too
short for 11 squares of 48 px), so taps go through :func:`resolve_tap`: every cell a tap
can act on (:data:`TAP_ROLES`) gets a finger-sized disc around its centre; a tap inside
exactly one disc picks that cell even if it landed on a neighbour, and a tap inside
several discs zooms that part of the board until squares are finger-sized
(:func:`zoom_viewport`) instead of guessing. A tap within half a finger of a target's
centre therefore never acts on another cell: the guarantee a 48 px button gives.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from companion import views
from companion.highlights import Highlight, Role, winning_highlights
from firmware_bridge.leds.palette import Palette
from firmware_bridge.leds.strip import Frame
from kiosk.presenters.common import RGB
from kiosk.presenters.looks import TERRAIN_SHADES, piece_colour
from kiosk.theme import TOUCH_MIN

KOLOSSUS_SIZE = 11
CellShape = Literal["square", "circle"]


@dataclass(frozen=True)
class CellGeometry:
    cell: str
    x: float  # centre, 0..1 west → east
    y: float  # centre, 0..1 north → south
    size: float  # width/diameter as a fraction of the board's width


@dataclass(frozen=True)
class BoardGeometry:
    shape: CellShape
    cells: tuple[CellGeometry, ...]
    aspect: float = 1.0  # height / width

    def cell_at(self, x: float, y: float) -> str | None:
        """The cell under a normalised point (for taps), or None."""
        return _cell_under(self.cells, self.shape, self.aspect, x, y)


def _cell_under(
    cells: Iterable[CellGeometry], shape: CellShape, aspect: float, x: float, y: float
) -> str | None:
    """The cell of ``cells`` under a normalised point (the nearest centre among the
    cells it lies in; the first of them on a tie), or None."""
    best: tuple[float, str] | None = None
    for c in cells:
        dx = (x - c.x) / (c.size / 2)
        dy = (y - c.y) / (c.size / 2 / max(aspect, 1e-6))
        distance = dx * dx + dy * dy
        inside = max(abs(dx), abs(dy)) <= 1.0 if shape == "square" else distance <= 1.0
        if inside and (best is None or distance < best[0]):
            best = (distance, c.cell)
    return None if best is None else best[1]


@dataclass(frozen=True)
class CellLook:
    cell: str
    role: Role
    colour: RGB
    level: float
    step: int | None
    player: int | None


@dataclass(frozen=True)
class Decoration:
    """A piece, level or counter drawn on a cell (text so it stays readable when small)."""

    cell: str
    text: str
    colour: RGB = (235, 235, 235)
    #: "text" (a Kolossus piece or level) or an island mark (kiosk/presenters/island.py).
    kind: str = "text"


@dataclass(frozen=True)
class BoardView:
    geometry: BoardGeometry
    looks: Mapping[str, CellLook]
    decorations: tuple[Decoration, ...] = ()
    focus: str | None = None
    base: Mapping[str, RGB] | None = None  # unlit colour per cell (landscape, water)
    #: Cells a tap acts on now (see :data:`TAP_ROLES`): what a sloppy tap snaps to.
    targets: frozenset[str] = field(default_factory=frozenset)


def grid_geometry(rows: int = KOLOSSUS_SIZE, cols: int = KOLOSSUS_SIZE) -> BoardGeometry:
    """Square cells ``"r,c"``, row 0 at the top (north)."""
    positions = {f"{r},{c}": (float(c), float(r)) for r in range(rows) for c in range(cols)}
    return positions_geometry(positions, "square")


def edge_labels(geometry: BoardGeometry) -> tuple[dict[str, str], dict[str, str]]:
    """The labels along a grid's edges, as the physical board and the rule book number
    it (RULINGS 2.3: rows 0..10 north to south, columns 0..10 west to east): each
    cell's row and column number by cell key (empty for boards of spaces, whose cells
    have names of their own)."""
    rows: dict[str, str] = {}
    cols: dict[str, str] = {}
    if geometry.shape != "square":
        return rows, cols
    for c in geometry.cells:
        row, sep, col = c.cell.partition(",")
        if not (sep and row.isdigit() and col.isdigit()):
            return {}, {}
        rows[c.cell], cols[c.cell] = row, col
    return rows, cols


def positions_geometry(
    positions: Mapping[str, tuple[float, float]], shape: CellShape = "circle"
) -> BoardGeometry:
    """Cells at drawing positions in cell units: discs (island boards, LED layouts) a
    little apart, or squares edge to edge (a grid)."""
    if not positions:
        return BoardGeometry(shape=shape, cells=())
    width = max(x for x, _ in positions.values()) + 1.0
    height = max(y for _, y in positions.values()) + 1.0
    size = (0.9 if shape == "circle" else 1.0) / width
    cells = tuple(
        CellGeometry(cell=cell, x=(x + 0.5) / width, y=(y + 0.5) / height, size=size)
        for cell, (x, y) in positions.items()
    )
    return BoardGeometry(shape=shape, cells=cells, aspect=height / width)


def geometry_of(board: views.BoardView) -> BoardGeometry:
    """Where each cell of the rules' board view is drawn: squares for a grid, discs at
    the board file's positions for an island."""
    positions = {c.cell: (c.x, c.y) for c in board.cells}
    return positions_geometry(positions, "square" if board.kind == "grid" else "circle")


def board_dressing(
    board: views.BoardView, seat_colours: tuple[RGB, ...]
) -> tuple[dict[str, RGB], tuple[Decoration, ...]]:
    """The unlit colour of each cell (its terrain) and a text per piece standing on it
    (a Kolossus miniature's class in its warband colour, an island stack's count)."""
    base: dict[str, RGB] = {}
    decorations: list[Decoration] = []
    for cell in board.cells:
        base[cell.cell] = TERRAIN_SHADES[cell.terrain]
        for piece in cell.pieces:
            decorations.append(
                Decoration(
                    cell=cell.cell, text=piece.label, colour=piece_colour(piece, seat_colours)
                )
            )
    return base, tuple(decorations)


def cell_looks(highlights: Iterable[Highlight], palette: Palette) -> dict[str, CellLook]:
    """The winning highlight of each cell, coloured by the game's LED palette."""
    looks = {}
    shades: dict[tuple[Role, int | None], tuple[RGB, float]] = {}  # the palette, per look
    for cell, h in winning_highlights(highlights, palette).items():
        shade = shades.get((h.role, h.player))
        if shade is None:
            shade = shades[h.role, h.player] = (
                palette.colour(h.role, h.player),
                palette.level(h.role),
            )
        looks[cell] = _cell_look(cell, h.role, shade[0], shade[1], h.step, h.player)
    return looks


@functools.lru_cache(maxsize=4096)
def _cell_look(
    cell: str, role: Role, colour: RGB, level: float, step: int | None, player: int | None
) -> CellLook:
    """One object per distinct look: views compare (and the board widget diffs) looks on
    every touch, and identical objects compare without looking inside."""
    return CellLook(cell, role, colour, level, step, player)


def board_view(
    palette: Palette,
    geometry: BoardGeometry,
    highlights: Iterable[Highlight],
    *,
    decorations: tuple[Decoration, ...] = (),
    focus: str | None = None,
    base: Mapping[str, RGB] | None = None,
) -> BoardView:
    highlights = tuple(highlights)
    return BoardView(
        geometry=geometry,
        looks=cell_looks(highlights, palette),
        decorations=decorations,
        focus=focus,
        base=base,
        targets=tap_targets(highlights, focus),
    )


# --- fingers: forgiving taps and zoom ---------------------------------------------------

#: Roles whose cells a tap acts on: pick a piece, move, capture, aim, harvest, choose a
#: quake region, bring a piece back. Display-only roles (path preview, blocked, control,
#: banners, beasts, the Citadel, fix-the-table steps) are not tap targets.
TAP_ROLES = frozenset(
    {
        Role.SELECTABLE,
        Role.SELECTED,
        Role.REACHABLE,
        Role.CAPTURABLE,
        Role.TARGET,
        Role.REBIRTH,
        Role.QUAKE_REGION,
        Role.HARVESTABLE,
    }
)


def tap_targets(highlights: Iterable[Highlight], focus: str | None = None) -> frozenset[str]:
    """Cells a tap can act on now: every highlight with a :data:`TAP_ROLES` role (not only
    the one that wins the cell's colour) and the focus (a tap on it clears it)."""
    cells = {h.cell for h in highlights if h.role in TAP_ROLES}
    if focus is not None:
        cells.add(focus)
    return frozenset(cells)


@dataclass(frozen=True)
class Viewport:
    """The part of the board on screen, in the geometry's normalised coordinates.

    ``left``/``top`` are fractions of the board's width/height and ``span`` is the
    fraction shown of both, so the zoom is the same in x and y and the drawn board
    keeps its aspect ratio. ``Viewport()`` is the whole board.
    """

    left: float = 0.0
    top: float = 0.0
    span: float = 1.0

    @property
    def zoomed(self) -> bool:
        return self.span < 1.0 - 1e-9

    def to_board(self, u: float, v: float) -> tuple[float, float]:
        """A point of the drawn view (0..1 across, 0..1 down) → board coordinates."""
        return self.left + u * self.span, self.top + v * self.span

    def to_view(self, x: float, y: float) -> tuple[float, float]:
        """Board coordinates → the drawn view (outside 0..1 when not shown)."""
        return (x - self.left) / self.span, (y - self.top) / self.span

    def shows(self, cell: CellGeometry, aspect: float) -> bool:
        """True when the whole cell lies inside the view (partial cells are not drawn)."""
        half_x = cell.size / 2
        half_y = cell.size / 2 / max(aspect, 1e-6)
        eps = 1e-9
        return (
            cell.x - half_x >= self.left - eps
            and cell.x + half_x <= self.left + self.span + eps
            and cell.y - half_y >= self.top - eps
            and cell.y + half_y <= self.top + self.span + eps
        )


WHOLE_BOARD = Viewport()


def cell_side_px(
    geometry: BoardGeometry, view_px: float, viewport: Viewport = WHOLE_BOARD
) -> float:
    """The smallest cell's side in pixels when the view is ``view_px`` wide."""
    if not geometry.cells:
        return math.inf
    return min(c.size for c in geometry.cells) * view_px / viewport.span


def zoom_viewport(
    geometry: BoardGeometry,
    point: tuple[float, float],
    *,
    view_px: float,
    min_cell_px: float = TOUCH_MIN,
) -> Viewport | None:
    """The least zoom around ``point`` that makes every cell at least ``min_cell_px``
    when drawn ``view_px`` wide, or None when cells already are that big.

    Grids zoom by whole squares (6×6 of Kolossus's 11×11 in a 330 px view: 55 px
    squares), aligned to the squares nearest the tap and kept inside the board.
    """
    if not geometry.cells or view_px <= 0:
        return None
    size = min(c.size for c in geometry.cells)
    span = size * view_px / min_cell_px
    if geometry.shape == "square":
        span = max(1, math.floor(span / size + 1e-9)) * size
    if span >= 1.0 - 1e-9:
        return None
    x, y = point
    if geometry.shape == "square":
        row = size / max(geometry.aspect, 1e-6)  # a square's height as a fraction
        left = round((x - span / 2) / size) * size
        top = round((y - span / 2) / row) * row
    else:
        left, top = x - span / 2, y - span / 2
    return Viewport(
        left=min(max(left, 0.0), 1.0 - span),
        top=min(max(top, 0.0), 1.0 - span),
        span=span,
    )


@dataclass(frozen=True)
class TapResult:
    """What a tap on the board means: a cell to tap, a zoom to show, or nothing."""

    cell: str | None = None
    zoom: Viewport | None = None


def resolve_tap(
    geometry: BoardGeometry,
    point: tuple[float, float],
    targets: frozenset[str],
    *,
    view_px: float,
    viewport: Viewport = WHOLE_BOARD,
    finger_px: float = TOUCH_MIN,
    zoom_px: float | None = None,
) -> TapResult:
    """The cell a finger meant (``point`` in board coordinates, ``view_px`` the drawn
    view's width, ``zoom_px`` the width a zoomed view would get; default ``view_px``).

    Each target cell owns a disc of ``finger_px`` around its centre (and its own area).
    One target under the finger: that target, even if the tap landed on a neighbouring
    square. Several: zoom in (:func:`zoom_viewport`) when that makes squares
    finger-sized, else the target under the tap, else the nearest. No target: the cell
    under the tap (a tap that only moves the focus), or nothing outside the cells.
    """
    shown = _shown_cells(geometry, viewport)
    x, y = point
    px_x = view_px / viewport.span  # pixels per unit of board width
    px_y = px_x * geometry.aspect  # pixels per unit of board height
    under = _cell_under(shown.near_x(x), geometry.shape, geometry.aspect, x, y)
    radius = finger_px / 2
    found = (shown.by_cell.get(cell) for cell in targets)
    near = sorted(
        (math.hypot((x - c.x) * px_x, (y - c.y) * px_y), c.cell) for c in found if c is not None
    )
    candidates = [cell for distance, cell in near if distance <= radius + 1e-6 or cell == under]
    if not candidates:
        return TapResult(cell=under)
    if len(candidates) == 1:
        return TapResult(cell=candidates[0])
    zoom_width = view_px if zoom_px is None else zoom_px
    zoom = zoom_viewport(geometry, point, view_px=zoom_width, min_cell_px=finger_px)
    if zoom is not None and zoom.span < viewport.span - 1e-9:
        return TapResult(zoom=zoom)
    return TapResult(cell=under if under in candidates else candidates[0])


class _ShownCells:
    """The cells a viewport shows whole, indexed for taps: by key, and by the x of their
    centres, so a tap looks only at the cells whose column it can lie in."""

    def __init__(self, cells: tuple[CellGeometry, ...]) -> None:
        self.cells = cells
        self.by_cell = {c.cell: c for c in cells}
        order = sorted(range(len(cells)), key=lambda i: cells[i].x)
        self._order = order
        self._xs = [cells[i].x for i in order]
        # How far from its centre a cell reaches across (a little more: rounding).
        self._reach = max((c.size / 2 for c in cells), default=0.0) * (1 + 1e-6) + 1e-9

    def near_x(self, x: float) -> list[CellGeometry]:
        """Every cell a point at ``x`` can lie in (and perhaps a few more), in the
        geometry's order: the same cells :func:`_cell_under` would find in all of them."""
        low = bisect.bisect_left(self._xs, x - self._reach)
        high = bisect.bisect_right(self._xs, x + self._reach)
        return [self.cells[i] for i in sorted(self._order[low:high])]


#: The cells shown per geometry (by identity: a game keeps one) and viewport.
_SHOWN: dict[tuple[int, Viewport], tuple[BoardGeometry, _ShownCells]] = {}
_SHOWN_KEPT = 64


def _shown_cells(geometry: BoardGeometry, viewport: Viewport) -> _ShownCells:
    key = (id(geometry), viewport)
    hit = _SHOWN.get(key)
    if hit is not None and hit[0] is geometry:
        return hit[1]
    shown = _ShownCells(tuple(c for c in geometry.cells if viewport.shows(c, geometry.aspect)))
    if len(_SHOWN) >= _SHOWN_KEPT:
        _SHOWN.clear()
    _SHOWN[key] = (geometry, shown)
    return shown


def zoom_survives(previous: BoardView | None, new: BoardView) -> bool:
    """A zoomed board stays zoomed while the table is unchanged (selecting a piece,
    narrowing the menu); a move that changed the pieces or the landscape, or a
    fix-the-table step, returns to the whole board so everyone sees what happened."""
    if previous is None or previous.geometry != new.geometry:
        return False
    if any(look.role is Role.FIX for look in new.looks.values()):
        return False
    return previous.decorations == new.decorations and previous.base == new.base


@dataclass(frozen=True)
class LedDot:
    x: float
    y: float
    colour: RGB


def led_mirror_dots(
    positions: Mapping[str, tuple[float, float]],
    cells: Mapping[str, tuple[int, ...]],
    frame: Frame,
) -> tuple[LedDot, ...]:
    """One dot per LED at its cell's position (several LEDs of a cell side by side)."""
    if not positions:
        return ()
    width = max(x for x, _ in positions.values()) + 1.0
    height = max(y for _, y in positions.values()) + 1.0
    dots = []
    for cell, leds in cells.items():
        x, y = positions.get(cell, (0.0, 0.0))
        n = len(leds)
        for i, index in enumerate(leds):
            if 0 <= index < len(frame):
                offset = 0.0 if n == 1 else (i / (n - 1) - 0.5) * 0.6
                dots.append(
                    LedDot(
                        x=(x + 0.5 + offset) / width,
                        y=(y + 0.5) / height,
                        colour=frame[index],
                    )
                )
    return tuple(dots)
