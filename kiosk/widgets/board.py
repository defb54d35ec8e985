"""The on-screen board: cells at their positions, lit as the LEDs are lit.

Draws a :class:`~kiosk.presenters.board.BoardView` (the winning highlight per cell,
coloured by the LED palette) and reports taps as cell IDs. Pieces and levels are drawn
as short texts so they stay legible at 38 px per square.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.uix.widget import Widget

from companion.highlights import Role
from kiosk import theme
from kiosk.presenters.board import BoardView, CellGeometry

CellTap = Callable[[str], None]

#: Roles that often cover much of the board: drawn as rings in the role's colour.
RING_ROLES = frozenset(
    {Role.SELECTABLE, Role.QUAKE_REGION, Role.HARVESTABLE, Role.CITADEL, Role.REBIRTH}
)


class BoardWidget(Widget):  # type: ignore[misc]
    """A board that keeps its aspect ratio inside its box."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: BoardView | None = None
        self.on_cell: CellTap | None = None
        self._labels: dict[tuple[str, int], Any] = {}
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, view: BoardView) -> None:
        self.view = view
        self.redraw()

    def _frame(self) -> tuple[float, float, float, float]:
        """x, y, width, height of the drawn board inside the widget."""
        aspect = self.view.geometry.aspect if self.view else 1.0
        width = min(self.width, self.height / aspect)
        height = width * aspect
        return (
            self.x + (self.width - width) / 2,
            self.y + (self.height - height) / 2,
            width,
            height,
        )

    def cell_rect(self, cell: CellGeometry) -> tuple[float, float, float]:
        """Centre x, centre y (window coordinates) and side of a cell."""
        x0, y0, width, height = self._frame()
        return x0 + cell.x * width, y0 + height - cell.y * height, cell.size * width

    def cell_centre(self, cell_id: str) -> tuple[float, float]:
        assert self.view is not None
        for cell in self.view.geometry.cells:
            if cell.cell == cell_id:
                cx, cy, _ = self.cell_rect(cell)
                return cx, cy
        raise KeyError(cell_id)

    def _text(self, text: str, size: int) -> Any:
        key = (text, size)
        texture = self._labels.get(key)
        if texture is None:
            label = CoreLabel(text=text, font_size=size, bold=True)
            label.refresh()
            texture = label.texture
            self._labels[key] = texture
        return texture

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.view is None:
            return
        view = self.view
        x0, y0, width, height = self._frame()
        decorations: dict[str, list[Any]] = {}
        for deco in view.decorations:
            decorations.setdefault(deco.cell, []).append(deco)
        with self.canvas:
            Color(*theme.SURFACE)
            Rectangle(pos=(x0, y0), size=(width, height))
            for cell in view.geometry.cells:
                cx, cy, side = self.cell_rect(cell)
                inner = side * 0.9
                look = view.looks.get(cell.cell)
                base = (view.base or {}).get(cell.cell)
                pos = (cx - inner / 2, cy - inner / 2)
                shape = Ellipse if view.geometry.shape == "circle" else Rectangle
                Color(*(theme.rgb_to_rgba(base) if base else theme.SURFACE_HIGH))
                shape(pos=pos, size=(inner, inner))
                if look is not None and look.role in RING_ROLES:
                    # Wide areas (pieces that may act, quake regions) as rings in the
                    # LED colour: the landscape stays readable and the screen dim.
                    Color(*theme.rgb_to_rgba(look.colour), 1.0)
                    ring = max(2.0, inner * 0.09)
                    if view.geometry.shape == "circle":
                        Line(circle=(cx, cy, inner / 2 - ring / 2), width=ring)
                    else:
                        Line(rectangle=(*pos, inner, inner), width=ring)
                elif look is not None:
                    # The LED colour over the landscape; dim roles stay see-through.
                    Color(*theme.rgb_to_rgba(look.colour), max(0.45, look.level))
                    lit = inner * (0.8 if look.level < 0.5 else 1.0)
                    shape(pos=(cx - lit / 2, cy - lit / 2), size=(lit, lit))
                if cell.cell == view.focus:
                    Color(*theme.TEXT)
                    Line(rectangle=(*pos, inner, inner), width=2)
                texts = decorations.get(cell.cell, [])
                if look is not None and look.step is not None:
                    texts = [*texts]
                    marker = f"{look.step}"
                    texture = self._text(marker, max(12, int(inner * 0.45)))
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
                    Ellipse(pos=(cx - disc / 2, cy - disc / 2 + offset), size=(disc, disc))
                    Color(*theme.rgb_to_rgba(deco.colour))
                    Rectangle(
                        texture=texture,
                        pos=(cx - texture.width / 2, cy - texture.height / 2 + offset),
                        size=texture.size,
                    )

    def on_touch_down(self, touch: Any) -> bool:
        if self.view is None or not self.collide_point(*touch.pos):
            return False
        x0, y0, width, height = self._frame()
        nx = (touch.x - x0) / width if width else -1
        ny = (y0 + height - touch.y) / height if height else -1
        cell = self.view.geometry.cell_at(nx, ny)
        if cell is not None and self.on_cell is not None:
            self.on_cell(cell)
            return True
        return False
