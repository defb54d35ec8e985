"""Layouts that do only what the kiosk asks of them, cheaply.

Kivy's GridLayout and BoxLayout handle every size hint, minimum, maximum and position
hint on each pass: about 0.4 M instructions to lay out two buttons here, even when
nothing moved, and a touch that narrows the action menu lays out its group tabs two or
three times (≈1.3 M of a Beast Master touch's ≈9.7 M). :class:`EvenGrid` places equal
cells and nothing else, and :class:`Column` stacks its children the way a vertical
BoxLayout does for the size hints the kiosk uses, each for a few thousand instructions a
pass.
"""

from __future__ import annotations

from kivy.properties import NumericProperty
from kivy.uix.layout import Layout


class EvenGrid(Layout):  # type: ignore[misc]
    """Children in ``cols`` equal columns and rows of ``row_height``, filled left to
    right from the top, ``spacing`` apart; the grid is exactly as tall as its rows (its
    children's own sizes and size hints are not read: each gets its cell).

    The height follows at once when children, columns or rows change (a column that
    shares its room reads it in the same frame); the cells are placed before the next
    frame."""

    cols = NumericProperty(1)
    row_height = NumericProperty(48)
    spacing = NumericProperty(0)

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        for name in ("cols", "row_height", "spacing", "children"):
            self.fbind(name, self._fit_height)
        for name in ("cols", "row_height", "spacing", "children", "size", "pos"):
            self.fbind(name, self._trigger_layout)
        self._fit_height()

    def _fit_height(self, *_: object) -> None:
        rows = -(-len(self.children) // max(1, int(self.cols)))
        self.height = rows * self.row_height + max(0, rows - 1) * self.spacing

    def do_layout(self, *_: object) -> None:
        children = self.children[::-1]  # Kivy keeps the last added first
        cols = max(1, int(self.cols))
        spacing, row = self.spacing, self.row_height
        width = (self.width - (cols - 1) * spacing) / cols
        x0, top = self.x, self.top
        for index, child in enumerate(children):
            line, col = divmod(index, cols)
            child.size = (width, row)
            child.pos = (x0 + col * (width + spacing), top - (line + 1) * row - line * spacing)


class _Stack(Layout):  # type: ignore[misc]
    """Children one after the other, ``spacing`` apart, laid out again when they, the
    spacing, or the layout's size or place change."""

    spacing = NumericProperty(0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        trigger = self._trigger_layout
        for name in ("spacing", "children", "size", "pos"):
            self.fbind(name, trigger)


class Column(_Stack):
    """Children stacked from the top, ``spacing`` apart, as a vertical BoxLayout without
    padding: a child without a height hint keeps its height, the others share what is
    left by their hints (never below their ``size_hint_min_y``); a child with a width
    hint takes that share of the column's width, one without keeps its width; all start
    at the left edge (position hints are not read)."""

    def do_layout(self, *_: object) -> None:
        children = self.children[::-1]  # Kivy keeps the last added first
        if not children:
            return
        spacing = self.spacing
        fixed, shares = 0.0, 0.0
        for child in children:
            hint = child.size_hint_y
            if hint is None:
                fixed += child.height
            else:
                shares += hint
        free = max(0.0, self.height - fixed - spacing * (len(children) - 1))
        x0, top, width = self.x, self.top, self.width
        for child in children:
            hint = child.size_hint_y
            if hint is None:
                height = child.height
            else:
                height = max(free * hint / shares, child.size_hint_min_y or 0)
                child.height = height
            if child.size_hint_x is not None:
                child.width = width * child.size_hint_x
            child.pos = (x0, top - height)
            top -= height + spacing


class Row(_Stack):
    """Children side by side from the left, ``spacing`` apart, as a horizontal BoxLayout
    without padding: a child without a width hint keeps its width, the others share what
    is left by their hints; a child with a height hint takes that share of the row's
    height, one without keeps its height; all sit on the row's bottom edge (position
    hints and minimum sizes are not read)."""

    def do_layout(self, *_: object) -> None:
        children = self.children[::-1]  # Kivy keeps the last added first
        if not children:
            return
        spacing = self.spacing
        fixed = sum(c.width for c in children if c.size_hint_x is None)
        shares = sum(c.size_hint_x for c in children if c.size_hint_x is not None)
        free = max(0.0, self.width - fixed - spacing * (len(children) - 1))
        x, y0, height = self.x, self.y, self.height
        for child in children:
            hint = child.size_hint_x
            width = child.width if hint is None else free * hint / shares
            if hint is not None:
                child.width = width
            if child.size_hint_y is not None:
                child.height = height * child.size_hint_y
            child.pos = (x, y0)
            x += width + spacing
