"""Small layouts the play screen's areas are made of: a scrolled column, a column that
grows with its rows, a stack of sections."""

from __future__ import annotations

from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.widgets.layouts import Column
from kiosk.widgets.scrolling import QuietScrollView


def scroll_of(content: Widget) -> QuietScrollView:
    """``content`` in a vertical scroll view with a bar to drag."""
    scroll = QuietScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
    scroll.add_widget(content)
    return scroll


def column() -> GridLayout:
    """A column of one cell per row, as high as its rows."""
    grid = GridLayout(cols=1, size_hint_y=None, spacing=theme.SPACING)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


def section(*widgets: Widget) -> Column:
    """``widgets`` stacked, stretching to the room they are given."""
    box = Column(spacing=theme.SPACING)
    for widget in widgets:
        box.add_widget(widget)
    return box
