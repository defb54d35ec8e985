"""The kiosk's own layouts (kiosk/widgets/layouts.py): where they put their children,
compared with what Kivy's GridLayout and vertical and horizontal BoxLayouts do for the
same hints."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.widgets.layouts import Column, EvenGrid, Row
from kiosk.widgets.lists import show_children
from tests.kiosk.ui import frames


@pytest.fixture
def window() -> Iterator[Any]:
    EventLoop.ensure_window()
    shown: list[Any] = []
    yield shown
    for widget in shown:
        Window.remove_widget(widget)


def boxes(layout: Any) -> list[tuple[float, float, float, float]]:
    return [(*c.pos, *c.size) for c in reversed(layout.children)]


def flat(layout: Any) -> list[float]:
    return [value for box in boxes(layout) for value in box]


def test_even_grid_fills_rows_from_the_top_and_is_as_tall_as_its_rows(window: Any) -> None:
    grid = EvenGrid(cols=2, spacing=6, row_height=50, size_hint_x=None, width=206, pos=(10, 20))
    window.append(grid)
    Window.add_widget(grid)
    for _ in range(3):
        grid.add_widget(Widget())
    assert grid.height == 50 + 6 + 50  # at once: a column reads it in the same frame
    frames(1)
    top = 20 + 106
    assert boxes(grid) == [
        (10, top - 50, 100, 50),
        (116, top - 50, 100, 50),
        (10, top - 106, 100, 50),
    ]
    grid.remove_widget(grid.children[0])
    grid.cols = 3
    assert grid.height == 50
    frames(1)
    assert [box[2] for box in boxes(grid)] == [pytest.approx(64.667, abs=0.01)] * 2


def children_for(layout: Any) -> list[Widget]:
    """A label-like fixed row, a list sharing the room 2:1 with a filler, a narrow row."""
    made = [
        Widget(size_hint_y=None, height=40),
        Widget(size_hint_y=2),
        Widget(size_hint_y=None, height=30, size_hint_x=0.5),
        Widget(size_hint_y=1),
        Widget(size_hint=(None, None), size=(80, 20)),
    ]
    for widget in made:
        layout.add_widget(widget)
    return made


def test_column_places_its_children_as_a_vertical_box_layout_would(window: Any) -> None:
    column = Column(spacing=6, size_hint=(None, None), size=(200, 400), pos=(5, 7))
    box = BoxLayout(
        orientation="vertical", spacing=6, size_hint=(None, None), size=(200, 400), pos=(5, 7)
    )
    for layout in (column, box):
        window.append(layout)
        Window.add_widget(layout)
        children_for(layout)
    frames(2)
    assert flat(column) == pytest.approx(flat(box))


def test_row_places_its_children_as_a_horizontal_box_layout_would(window: Any) -> None:
    """The fix-the-table step's buttons ("Done" and a narrower "All done")."""
    row = Row(spacing=6, size_hint=(None, None), size=(300, 60), pos=(5, 7))
    box = BoxLayout(spacing=6, size_hint=(None, None), size=(300, 60), pos=(5, 7))
    for layout in (row, box):
        window.append(layout)
        Window.add_widget(layout)
        for widget in (
            Widget(),
            Widget(size_hint_x=0.8),
            Widget(size_hint_x=None, width=40),
            Widget(size_hint_y=0.5),
            Widget(size_hint=(None, None), size=(30, 20)),
        ):
            layout.add_widget(widget)
    frames(2)
    assert flat(row) == pytest.approx(flat(box))


def test_a_shared_child_of_a_column_keeps_its_minimum_height(window: Any) -> None:
    column = Column(spacing=0, size_hint=(None, None), size=(100, 100))
    window.append(column)
    Window.add_widget(column)
    column.add_widget(Widget(size_hint_y=None, height=90))
    listed = Widget(size_hint_y=1, size_hint_min_y=48)
    column.add_widget(listed)
    frames(2)
    assert listed.height == 48  # it overflows below rather than shrink under a finger
    assert listed.top == 10


def test_show_children_leaves_the_leading_widgets_attached_in_order() -> None:
    """Three tabs becoming two detach one: the widgets already in place at the start stay
    attached (taken off and put back, each would be laid out and dispatched anew)."""
    box = BoxLayout()
    first, second, third = Widget(), Widget(), Widget()
    moves: list[Any] = []
    for widget in (first, second):
        widget.bind(parent=lambda widget, parent: moves.append(widget))
    show_children(box, [first, second, third])
    assert list(reversed(box.children)) == [first, second, third]
    moves.clear()
    show_children(box, [first, second])
    assert list(reversed(box.children)) == [first, second] and third.parent is None
    assert moves == []  # neither was taken off
    show_children(box, [first, third, second])
    assert list(reversed(box.children)) == [first, third, second]
    assert moves == [second, second]  # off, and back after the one put before it


def test_show_children_knows_a_kv_id_for_the_widget_it_stands_for() -> None:
    """A kv id is a WeakProxy of its widget: equal to it, not the same object. Listed
    among widgets already in place, it leaves them attached (when only the identity was
    asked, every card-game tap took its column's widgets off and put them back: ≈0.65 M
    instructions)."""
    box = BoxLayout()
    first, second, third = Widget(), Widget(), Widget()
    show_children(box, [first, second, third])
    moves: list[Any] = []
    for widget in (first, second, third):
        widget.bind(parent=lambda widget, parent: moves.append(widget))
    show_children(box, [first, second.proxy_ref, third])
    show_children(box, [first, second.proxy_ref])
    assert list(reversed(box.children)) == [first, second] and third.parent is None
    assert moves == [third]  # only the one no longer shown
