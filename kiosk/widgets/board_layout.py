"""Where the board widget draws: the frame, the zoomed part, the miniature and every
cell's centre and side, computed once per position, size, viewport and geometry.

Kivy-free arithmetic: :class:`~kiosk.widgets.board.BoardWidget` keeps the layout it
drew and rebuilds, moves or updates its canvas by comparing layouts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kiosk import theme
from kiosk.presenters.board import BoardGeometry, CellGeometry, Viewport, edge_labels

Box = tuple[float, float, float, float]  # x, y, width, height
Rect = tuple[float, float, float]  # centre x, centre y, side

#: The margin west and north of a grid for its row and column numbers (the smallest text).
EDGE = theme.FONT_SMALL + 5
#: Height of the strip under a zoomed board (miniature + "Whole board"): one finger.
ZOOM_STRIP = theme.TOUCH_MIN
#: The room an island's legend takes under the board when the box is taller than the
#: board (three lines of marks and words), and the least worth drawing (one line).
LEGEND_ROOM = 3 * 24 + 4
LEGEND_LEAST = 24


#: What a layout is computed from: the widget's x, y, width and height, its viewport
#: and the board's geometry.
LayoutKey = tuple[float, float, float, float, "Viewport", "BoardGeometry | None"]


@dataclass(frozen=True, eq=False)
class BoardLayout:
    """Where everything goes for one (position, size, viewport, geometry)."""

    key: LayoutKey
    viewport: Viewport
    geometry: BoardGeometry | None
    frame: Box  # the whole drawn board inside the widget
    zoom_frame: Box  # a zoomed board: the frame less the strip under it
    board: Box  # where the cells are drawn now (zoom_frame while zoomed, else frame)
    minimap: Box  # the miniature in the strip of a zoomed board
    rects: Mapping[str, Rect]  # every cell's centre and side in the current view
    shown: tuple[CellGeometry, ...]  # the cells inside the viewport, in drawing order
    shown_ids: frozenset[str]
    #: The grid's numbers shown along its edges: (text, x, y) of each, centred.
    edges: tuple[tuple[str, float, float], ...] = ()
    #: Where an island board's legend goes: the room under the board (height 0: none).
    legend: Box = (0.0, 0.0, 0.0, 0.0)


def _frame_of(x: float, y: float, w: float, h: float, aspect: float) -> Box:
    width = min(w, h / aspect)
    height = width * aspect
    return (x + (w - width) / 2, y + (h - height) / 2, width, height)


def _zoom_frame_of(frame: Box, aspect: float) -> Box:
    x0, y0, width, height = frame
    room = height - ZOOM_STRIP - theme.SPACING
    zoom_width = max(1.0, min(width, room / aspect))
    zoom_height = zoom_width * aspect
    return (
        x0 + (width - zoom_width) / 2,
        y0 + ZOOM_STRIP + theme.SPACING + (room - zoom_height) / 2,
        zoom_width,
        zoom_height,
    )


def _minimap_of(frame: Box, aspect: float) -> Box:
    x0, y0, _, _ = frame
    width = ZOOM_STRIP / max(aspect, 1.0)
    height = width * aspect
    return x0, y0 + (ZOOM_STRIP - height) / 2, width, height


def layout_of(key: LayoutKey, viewport: Viewport, geometry: BoardGeometry | None) -> BoardLayout:
    """The layout for ``key`` (x, y, width, height, …): the frames, every cell's rect,
    the cells shown and the edge numbers."""
    x, y, w, h = key[:4]
    aspect = geometry.aspect if geometry is not None else 1.0
    rows, cols = edge_labels(geometry) if geometry is not None else ({}, {})
    edge = EDGE if rows else 0.0
    frame = _frame_of(x + edge, y, w - edge, h - edge, aspect)
    legend: Box = (0.0, 0.0, 0.0, 0.0)
    if geometry is not None and geometry.shape == "circle":
        # An island: the board at the top of its box, its legend in the room under it.
        room = min(LEGEND_ROOM, h - frame[3])
        if room >= LEGEND_LEAST:
            frame = _frame_of(x, y + room, w, h - room, aspect)
            frame = (frame[0], y + h - frame[3], frame[2], frame[3])
            legend = (frame[0], y + h - frame[3] - room, frame[2], room)
    zoom_frame = _zoom_frame_of(frame, aspect)
    board = zoom_frame if viewport.zoomed else frame
    x0, y0, width, height = board
    rects: dict[str, Rect] = {}
    shown: list[CellGeometry] = []
    for cell in geometry.cells if geometry is not None else ():
        u, v = viewport.to_view(cell.x, cell.y)
        rects[cell.cell] = (
            x0 + u * width,
            y0 + height - v * height,
            cell.size * width / viewport.span,
        )
        if viewport.shows(cell, aspect):
            shown.append(cell)
    edges: dict[str, tuple[str, float, float]] = {}
    for cell in shown if rows else ():
        cx, cy, _ = rects[cell.cell]
        edges.setdefault("r" + rows[cell.cell], (rows[cell.cell], x0 - edge / 2, cy))
        edges.setdefault("c" + cols[cell.cell], (cols[cell.cell], cx, y0 + height + edge / 2))
    return BoardLayout(
        key=key,
        viewport=viewport,
        geometry=geometry,
        frame=frame,
        zoom_frame=zoom_frame,
        board=board,
        minimap=_minimap_of(frame, aspect),
        rects=rects,
        shown=tuple(shown),
        shown_ids=frozenset(cell.cell for cell in shown),
        edges=tuple(edges.values()),
        legend=legend,
    )


def same_cells(old: BoardLayout, new: BoardLayout) -> bool:
    """The same cells are drawn (same viewport and geometry): instructions can be kept."""
    return old.viewport == new.viewport and (
        old.geometry is new.geometry or old.geometry == new.geometry
    )
