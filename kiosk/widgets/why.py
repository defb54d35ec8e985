"""The "Why?" panel (the rulings behind a refusal or behind what the table shows) and
teach mode's pause (a rule the first time it matters).

Made once per play screen and relabelled for each :class:`~kiosk.presenters.why.WhyView`
(its labels are pooled): opening it after a refusal renders the new texts, not new
widgets. Every text wraps in full — nothing is shortened with "…" — and the list
scrolls when the rulings are longer than the screen.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.why import WhyView
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.lists import WidgetPool, show_children
from kiosk.widgets.scrolling import QuietScrollView

#: A row of the panel: its text and how it looks (font size, bold, colour).
Row = tuple[str, int, bool, tuple[float, ...]]


def rows_of(why: WhyView) -> list[Row]:
    """The panel's lines: where the game stands, then per ruling its title, the
    explanation, what it means at this table now and, in small print, the ruling's ID
    (a title is for players; the ID is for looking the ruling up)."""
    rows: list[Row] = [(line, theme.FONT_SMALL, False, theme.TEXT_DIM) for line in why.situation]
    for entry in why.entries:
        rows.append((entry.title, theme.FONT_LARGE, True, theme.ACCENT))
        rows.append((entry.text, theme.FONT_BODY, False, theme.TEXT))
        rows.extend(("• " + line, theme.FONT_SMALL, False, theme.TEXT_DIM) for line in entry.here)
        rows.append((f"Ruling {entry.ruling}", theme.FONT_SMALL, False, theme.TEXT_DIM))
    return rows


#: A button under the rulings: its text, what it calls, its role ("accent", "normal").
Action = tuple[str, Callable[[], None], str]


class WhyPanel:
    """The rulings in a scrolled column (``box`` goes on screen). With ``on_close``: the
    heading and "Close" above them (the "Why?" panel); else the heading scrolls with
    them and ``actions`` are a row of buttons below (teach mode's pause, in the narrow
    column beside the board)."""

    def __init__(
        self, on_close: Callable[[], None] | None, actions: tuple[Action, ...] = ()
    ) -> None:
        self.box = BoxLayout(orientation="vertical", spacing=theme.SPACING)
        self.heading = WrapLabel(font_size=theme.FONT_LARGE, bold=True)
        # The right padding keeps the text clear of the scroll bar drawn over the list.
        self.column = GridLayout(
            cols=1, size_hint_y=None, spacing=theme.SPACING, padding=(0, 0, 14, 0)
        )
        self.column.bind(minimum_height=self.column.setter("height"))
        self.lines = WidgetPool(None, WrapLabel)
        self.scroll = QuietScrollView(
            do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"]
        )
        self.scroll.add_widget(self.column)
        self._heading_scrolls = on_close is None
        if on_close is not None:
            top = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
            self.heading.size_hint_y = 1
            self.heading.valign = "middle"
            top.add_widget(self.heading)
            top.add_widget(button("Close", on_close, role="accent", size_hint_x=None, width=120))
            self.box.add_widget(top)
        self.box.add_widget(self.scroll)
        #: What the panel always shows; the row of ``actions`` comes under it when asked.
        self._parts = list(reversed(self.box.children))
        self.actions = BoxLayout(
            size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING
        )
        for text, call, role in actions:
            self.actions.add_widget(button(text, call, role=role, font_size=theme.FONT_SMALL))
        self.shown: WhyView | None = None

    def show(self, why: WhyView, *, actions: bool = True) -> None:
        """Relabel for ``why`` (nothing to do when it is the one shown); ``actions``: show
        the row of buttons under the rulings."""
        below = [self.actions] if actions and self.actions.children else []
        show_children(self.box, [*self._parts, *below])
        if why is self.shown:
            return
        self.shown = why
        self.heading.text = why.heading
        rows = rows_of(why)
        labels = self.lines.show(len(rows))
        for label, (text, size, bold, colour) in zip(labels, rows, strict=True):
            label.text = text
            label.font_size = size
            label.bold = bold
            label.color = colour
        show_children(self.column, [self.heading, *labels] if self._heading_scrolls else labels)
        self.scroll.scroll_y = 1

    def labels(self) -> list[Widget]:
        """The heading and the lines shown now (tests read their texts)."""
        lines = list(self.column.children[::-1])
        return lines if self._heading_scrolls else [self.heading, *lines]
