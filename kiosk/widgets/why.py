"""The "Why?" panel: the rulings behind a refusal or behind what the table shows.

Made once per play screen and relabelled for each :class:`~kiosk.presenters.why.WhyView`
(its labels are pooled): opening it after a refusal renders the new texts, not new
widgets. Every text wraps in full — nothing is shortened with "…" — and the list
scrolls when the rulings are longer than the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk import theme
from kiosk.presenters.why import WhyView
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.lists import WidgetPool

#: A row of the panel: its text and how it looks (font size, bold, colour).
Row = tuple[str, int, bool, tuple[float, ...]]


def rows_of(why: WhyView) -> list[Row]:
    """The panel's lines: where the game stands, then per ruling its ID and title, the
    explanation, and what it means at this table now."""
    rows: list[Row] = [(line, theme.FONT_SMALL, False, theme.TEXT_DIM) for line in why.situation]
    for entry in why.entries:
        rows.append((f"{entry.ruling} · {entry.title}", theme.FONT_LARGE, True, theme.ACCENT))
        rows.append((entry.text, theme.FONT_BODY, False, theme.TEXT))
        rows.extend(("• " + line, theme.FONT_SMALL, False, theme.TEXT_DIM) for line in entry.here)
    return rows


class WhyPanel:
    """The heading with "Close", and the scrolled rulings (``box`` goes on screen)."""

    def __init__(self, on_close: Callable[[], None]) -> None:
        self.box = BoxLayout(orientation="vertical", spacing=theme.SPACING)
        top = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
        self.heading = WrapLabel(
            font_size=theme.FONT_LARGE, bold=True, size_hint_y=1, valign="middle"
        )
        top.add_widget(self.heading)
        top.add_widget(button("Close", on_close, role="accent", size_hint_x=None, width=120))
        self.column = GridLayout(cols=1, size_hint_y=None, spacing=theme.SPACING)
        self.column.bind(minimum_height=self.column.setter("height"))
        self.lines = WidgetPool(self.column, WrapLabel)
        self.scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
        self.scroll.add_widget(self.column)
        self.box.add_widget(top)
        self.box.add_widget(self.scroll)
        self.shown: WhyView | None = None

    def show(self, why: WhyView) -> None:
        """Relabel for ``why`` (nothing to do when it is the one shown)."""
        if why is self.shown:
            return
        self.shown = why
        self.heading.text = why.heading
        rows = rows_of(why)
        for label, (text, size, bold, colour) in zip(self.lines.show(len(rows)), rows, strict=True):
            label.text = text
            label.font_size = size
            label.bold = bold
            label.color = colour
        self.scroll.scroll_y = 1

    def labels(self) -> list[Any]:
        """The labels shown now (tests read their texts)."""
        return [self.heading, *self.column.children[::-1]]
