"""The on-screen board: cells at their positions, lit as the LEDs are lit.

Draws a :class:`~kiosk.presenters.board.BoardView` (the winning highlight per cell,
coloured by the LED palette) and reports taps as cell IDs. Pieces and levels are drawn
as short texts so they stay legible at 35 px per square.

Fingers: taps go through :func:`~kiosk.presenters.board.resolve_tap` (a sloppy tap
snaps to the one target cell under the finger; a tap between several targets zooms that
part of the board to squares of at least 48 px). While zoomed, a strip under the board
shows the whole board in miniature with the zoomed part framed (a tap there moves the
zoom) and a **Whole board** button.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle, SmoothEllipse, SmoothLine
from kivy.uix.widget import Widget

from companion.highlights import Role
from kiosk import theme
from kiosk.presenters.board import (
    WHOLE_BOARD,
    BoardView,
    CellGeometry,
    Viewport,
    resolve_tap,
    zoom_survives,
    zoom_viewport,
)
from kiosk.widgets.basic import KButton

CellTap = Callable[[str], None]
Box = tuple[float, float, float, float]  # x, y, width, height

#: Roles that often cover much of the board: drawn as rings in the role's colour.
RING_ROLES = frozenset(
    {Role.SELECTABLE, Role.QUAKE_REGION, Role.HARVESTABLE, Role.CITADEL, Role.REBIRTH}
)

#: Height of the strip under a zoomed board (miniature + "Whole board"): one finger.
ZOOM_STRIP = theme.TOUCH_MIN
_TEXTURES_KEPT = 256  # piece/level labels cached per widget (a game uses a few dozen)


class BoardWidget(Widget):  # type: ignore[misc]
    """A board that keeps its aspect ratio inside its box, zoomable by taps."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: BoardView | None = None
        self.viewport: Viewport = WHOLE_BOARD
        self.on_cell: CellTap | None = None
        self._labels: dict[tuple[str, int], Any] = {}
        self.whole_button = KButton(text="Whole board", font_size=theme.FONT_BODY)
        self.whole_button.bind(on_release=lambda *_: self.show_whole_board())
        self.bind(pos=self.redraw, size=self.redraw)

    # --- what is shown ------------------------------------------------------------------

    def show(self, view: BoardView) -> None:
        if self.viewport.zoomed and not zoom_survives(self.view, view):
            self.viewport = WHOLE_BOARD
        self.view = view
        self.redraw()

    def zoom(self, viewport: Viewport) -> None:
        self.viewport = viewport
        self.redraw()

    def show_whole_board(self) -> None:
        self.zoom(WHOLE_BOARD)

    # --- geometry -----------------------------------------------------------------------

    @property
    def _aspect(self) -> float:
        return self.view.geometry.aspect if self.view else 1.0

    def _frame(self) -> Box:
        """x, y, width, height of the whole drawn board inside the widget."""
        aspect = self._aspect
        width = min(self.width, self.height / aspect)
        height = width * aspect
        return (
            self.x + (self.width - width) / 2,
            self.y + (self.height - height) / 2,
            width,
            height,
        )

    def _zoom_frame(self) -> Box:
        """Where a zoomed board is drawn: the frame less the strip under it."""
        x0, y0, width, height = self._frame()
        room = height - ZOOM_STRIP - theme.SPACING
        zoom_width = max(1.0, min(width, room / self._aspect))
        zoom_height = zoom_width * self._aspect
        return (
            x0 + (width - zoom_width) / 2,
            y0 + ZOOM_STRIP + theme.SPACING + (room - zoom_height) / 2,
            zoom_width,
            zoom_height,
        )

    def _board_frame(self) -> Box:
        return self._zoom_frame() if self.viewport.zoomed else self._frame()

    def _minimap_frame(self) -> Box:
        x0, y0, _, _ = self._frame()
        aspect = self._aspect
        width = ZOOM_STRIP / max(aspect, 1.0)
        height = width * aspect
        return x0, y0 + (ZOOM_STRIP - height) / 2, width, height

    def cell_rect(self, cell: CellGeometry) -> tuple[float, float, float]:
        """Centre x, centre y (parent coordinates) and side of a cell in the current view."""
        x0, y0, width, height = self._board_frame()
        u, v = self.viewport.to_view(cell.x, cell.y)
        return x0 + u * width, y0 + height - v * height, cell.size * width / self.viewport.span

    def cell_centre(self, cell_id: str) -> tuple[float, float]:
        """Where to tap ``cell_id`` now; KeyError when the zoomed view does not show it."""
        assert self.view is not None
        for cell in self.view.geometry.cells:
            if cell.cell == cell_id and self.viewport.shows(cell, self._aspect):
                cx, cy, _ = self.cell_rect(cell)
                return cx, cy
        raise KeyError(cell_id)

    def cell_side(self) -> float:
        """The drawn side of the smallest cell (px) in the current view."""
        assert self.view is not None
        return min(self.cell_rect(c)[2] for c in self.view.geometry.cells)

    # --- drawing ------------------------------------------------------------------------

    def _text(self, text: str, size: int) -> Any:
        key = (text, size)
        texture = self._labels.get(key)
        if texture is None:
            if len(self._labels) >= _TEXTURES_KEPT:
                self._labels.clear()
            label = CoreLabel(text=text, font_size=size, bold=True)
            label.refresh()
            texture = label.texture
            self._labels[key] = texture
        return texture

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        zoomed = self.viewport.zoomed and self.view is not None
        if zoomed and self.whole_button.parent is None:
            self.add_widget(self.whole_button)
        elif not zoomed and self.whole_button.parent is not None:
            self.remove_widget(self.whole_button)
        if self.view is None:
            return
        x0, y0, width, height = self._board_frame()
        with self.canvas:
            Color(*theme.SURFACE)
            Rectangle(pos=(x0, y0), size=(width, height))
        self._draw_cells()
        if zoomed:
            self._draw_strip()

    def _draw_cells(self) -> None:
        view = self.view
        assert view is not None
        decorations: dict[str, list[Any]] = {}
        for deco in view.decorations:
            decorations.setdefault(deco.cell, []).append(deco)
        circle = view.geometry.shape == "circle"
        shape = SmoothEllipse if circle else Rectangle  # anti-aliased without MSAA
        with self.canvas:
            for cell in view.geometry.cells:
                if not self.viewport.shows(cell, view.geometry.aspect):
                    continue
                cx, cy, side = self.cell_rect(cell)
                inner = side * 0.9
                look = view.looks.get(cell.cell)
                base = (view.base or {}).get(cell.cell)
                pos = (cx - inner / 2, cy - inner / 2)
                Color(*(theme.rgb_to_rgba(base) if base else theme.SURFACE_HIGH))
                shape(pos=pos, size=(inner, inner))
                if look is not None and look.role in RING_ROLES:
                    # Wide areas (pieces that may act, quake regions) as rings in the
                    # LED colour: the landscape stays readable and the screen dim.
                    Color(*theme.rgb_to_rgba(look.colour), 1.0)
                    ring = max(2.0, inner * 0.09)
                    if circle:
                        SmoothLine(circle=(cx, cy, inner / 2 - ring / 2), width=ring)
                    else:
                        Line(rectangle=(*pos, inner, inner), width=ring, joint="miter")
                elif look is not None:
                    # The LED colour over the landscape; dim roles stay see-through.
                    Color(*theme.rgb_to_rgba(look.colour), max(0.45, look.level))
                    lit = inner * (0.8 if look.level < 0.5 else 1.0)
                    shape(pos=(cx - lit / 2, cy - lit / 2), size=(lit, lit))
                if cell.cell == view.focus:
                    Color(*theme.TEXT)
                    if circle:
                        SmoothLine(circle=(cx, cy, inner / 2), width=2)
                    else:
                        Line(rectangle=(*pos, inner, inner), width=2)
                texts = decorations.get(cell.cell, [])
                if look is not None and look.step is not None:
                    texture = self._text(f"{look.step}", max(12, int(inner * 0.45)))
                    Color(0, 0, 0, 1)
                    Rectangle(
                        texture=texture,
                        pos=(cx - texture.width / 2, cy - texture.height / 2),
                        size=texture.size,
                    )
                for i, deco in enumerate(texts[:2]):
                    texture = self._text(deco.text, max(12, int(inner * 0.5)))
                    offset = (0.5 - i) * inner * 0.42 if len(texts) > 1 else 0.0
                    disc = max(texture.width, texture.height) + 2
                    Color(0, 0, 0, 0.7)
                    SmoothEllipse(
                        pos=(cx - disc / 2, cy - disc / 2 + offset), size=(disc, disc), segments=24
                    )
                    Color(*theme.rgb_to_rgba(deco.colour))
                    Rectangle(
                        texture=texture,
                        pos=(cx - texture.width / 2, cy - texture.height / 2 + offset),
                        size=texture.size,
                    )

    def _draw_strip(self) -> None:
        """The whole board in miniature (lit cells, the zoomed part framed) and the
        "Whole board" button beside it."""
        view = self.view
        assert view is not None
        mx, my, mw, mh = self._minimap_frame()
        with self.canvas:
            Color(*theme.SURFACE)
            Rectangle(pos=(mx, my), size=(mw, mh))
            for cell in view.geometry.cells:
                look = view.looks.get(cell.cell)
                base = (view.base or {}).get(cell.cell)
                if look is not None:
                    Color(*theme.rgb_to_rgba(look.colour))
                elif base is not None:
                    Color(*theme.rgb_to_rgba(base))
                else:
                    Color(*theme.SURFACE_HIGH)
                side = cell.size * mw * 0.85
                Rectangle(
                    pos=(mx + cell.x * mw - side / 2, my + mh - cell.y * mh - side / 2),
                    size=(side, side),
                )
            vp = self.viewport
            Color(*theme.TEXT)
            Line(
                rectangle=(
                    mx + vp.left * mw,
                    my + mh - (vp.top + vp.span) * mh,
                    vp.span * mw,
                    vp.span * mh,
                ),
                width=1.5,
            )
        x0, y0, width, _ = self._frame()
        left = mx + mw + theme.SPACING
        self.whole_button.pos = (left, y0)
        self.whole_button.size = (x0 + width - left, ZOOM_STRIP)

    # --- taps ---------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if self.view is None or not self.collide_point(*touch.pos):
            return False
        if super().on_touch_down(touch):  # the "Whole board" button
            return True
        geometry = self.view.geometry
        if self.viewport.zoomed:
            mx, my, mw, mh = self._minimap_frame()
            if mx <= touch.x <= mx + mw and my <= touch.y <= my + mh:
                point = ((touch.x - mx) / mw, (my + mh - touch.y) / mh)
                _, _, zoom_width, _ = self._zoom_frame()
                moved = zoom_viewport(geometry, point, view_px=zoom_width)
                if moved is not None:
                    self.zoom(moved)
                return True
        x0, y0, width, height = self._board_frame()
        if not (x0 <= touch.x <= x0 + width and y0 <= touch.y <= y0 + height):
            return False
        point = self.viewport.to_board((touch.x - x0) / width, (y0 + height - touch.y) / height)
        result = resolve_tap(
            geometry,
            point,
            self.view.targets,
            view_px=width,
            viewport=self.viewport,
            zoom_px=self._zoom_frame()[2],
        )
        if result.zoom is not None:
            self.zoom(result.zoom)
            return True
        if result.cell is not None and self.on_cell is not None:
            self.on_cell(result.cell)
            return True
        return False
