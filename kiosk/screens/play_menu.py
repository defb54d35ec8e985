"""The play screen's action menu: the groups' tabs and the list of actions.

The list is a RecycleView (only the rows on screen exist); each row is as high as its
text needs, measured once per text and menu width (:meth:`ActionMenu.row_height`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from kivy.core.text import Label as CoreLabel

from kiosk import theme
from kiosk.presenters.menus import CORRECTIONS_GROUP
from kiosk.presenters.play_view import PlayView
from kiosk.screens.play_actions import Act
from kiosk.widgets.basic import KToggle
from kiosk.widgets.layouts import EvenGrid
from kiosk.widgets.lists import ACTION_ROW, ActionList, WidgetPool

TAB_HEIGHT = theme.TOUCH_MIN + 4  # a group's tab: two lines of small text
ROW_HEIGHTS_KEPT = 512  # menu texts whose height is known (a game lists a few hundred)
TOUCH_ROW_TEXT_MIN = 120  # px: the narrowest a menu row's text is measured at
#: The letters of a menu text average 0.42-0.53 font sizes wide in the bundled
#: condensed font (a row of W alone 0.89); with this width per letter and half a line
#: left for word wrapping, a text shorter than the bound holds in two lines unmeasured.
WIDEST_LETTER = 0.62
TWO_LINES_SURELY = 1.5
#: The font of each kind of menu row (widgets.kv), to measure their texts.
ROW_FONTS = {"ActionRow": theme.FONT_SMALL + 1}

RowIntent = Callable[[int, str], None]
"""What a tap on a menu row calls, with the row's index and text."""


class MenuRow(TypedDict, total=False):
    """One row's data in the action list (the RecycleView makes its widget)."""

    viewclass: str
    text: str
    index: int
    intent: RowIntent
    height: int
    font_size: int
    color: theme.RGBA


class ActionMenu:
    """The tabs and the action list; ``act`` calls the presenter on screen, ``choose``
    takes a tap on an action's row (its index and text)."""

    def __init__(self, act: Act, choose: RowIntent) -> None:
        self.act = act
        self.choose = choose
        self.list = ActionList()
        self.rows: list[MenuRow] = []
        self._row_heights: dict[tuple[str, int, int], int] = {}
        self.list.bind(width=self._width_changed)
        # Laid out by a grid of equal cells: Kivy's GridLayout costs ≈0.4 M instructions
        # a pass, and a touch that narrows the menu lays the tabs out two or three times.
        self.tabs = EvenGrid(cols=3, spacing=theme.SPACING, row_height=TAB_HEIGHT)
        self.tab_buttons = WidgetPool(self.tabs, self._make_tab)

    def _make_tab(self) -> KToggle:
        """A group's button: it says the list it opens ("Swap (68)") or the one action it
        plays ("Ready"), on two lines where one does not hold it — never shortened."""
        tab = KToggle(group=f"groups-{id(self)}", font_size=theme.FONT_SMALL)
        tab.shorten = False
        tab.max_lines = 2
        tab.key = ""
        tab.bind(on_release=self._tab_tapped)
        return tab

    def _tab_tapped(self, tab: KToggle) -> None:
        self.act(lambda p: p.action_menu.choose_group(tab.key))

    def _open_form(self, _index: int, _label: str) -> None:
        self.act(lambda p: p.action_menu.open_form())

    def show_tabs(self, view: PlayView, *, narrow: bool) -> bool:
        """Label the tabs for ``view``'s groups; False when it needs none. One group
        needs no tabs, unless it is "Correct the table": while only a die is awaited
        it is the only group, and it must stay one tap away."""
        if len(view.groups) < 2 and all(g.key != CORRECTIONS_GROUP for g in view.groups):
            return False
        self.tabs.cols = min(2 if narrow else 3, len(view.groups))
        for tab, group in zip(self.tab_buttons.show(len(view.groups)), view.groups, strict=True):
            tab.key = group.key
            tab.text = group.button_text
            tab.state = "down" if group.key == view.group else "normal"
        return True

    def show(self, view: PlayView) -> None:
        """The rows of ``view``'s menu: the form's row, the actions, how many more."""
        rows: list[MenuRow] = []
        if view.formable:
            text = view.form_label
            rows.append(
                {
                    "viewclass": "ActionRow",  # plain: the listed actions are the usual pick
                    "text": text,
                    "index": -1,
                    "intent": self._open_form,
                    "height": self.row_height(text, ROW_FONTS["ActionRow"]),
                }
            )
        rows.extend(
            {
                "viewclass": "ActionRow",
                "text": choice.label,
                "index": i,
                "intent": self.choose,
                "height": self.row_height(choice.label, ROW_FONTS["ActionRow"]),
            }
            for i, choice in enumerate(view.actions)
        )
        if view.more_actions:
            rows.append(
                {
                    "viewclass": "TextRow",
                    "text": f"… and {view.more_actions} more (select on the board to narrow)",
                    "font_size": theme.FONT_SMALL,
                    "color": theme.TEXT_DIM,
                }
            )
        self.rows = rows
        self._show_rows()

    def row_height(self, text: str, font_size: int) -> int:
        """The height of a menu row that shows all of ``text``: at least
        ``ACTION_ROW``, more for a text that wraps onto a third line. Each text is
        measured once per menu width (a Colossi Age card, a correction naming four
        players); rows render their own texture as before. A text far too short for a
        third line is not measured: a piece's menu of 40 moves costs no rendering."""
        width = max(TOUCH_ROW_TEXT_MIN, int(self.list.width) - 12 - 10)  # bar, padding
        if len(text) * font_size * WIDEST_LETTER <= TWO_LINES_SURELY * width:
            return ACTION_ROW
        key = (text, font_size, width)
        height = self._row_heights.get(key)
        if height is None:
            label = CoreLabel(text=text, font_size=font_size, text_size=(width, None))
            label.refresh()
            height = max(ACTION_ROW, int(label.texture.height) + 10)
            if len(self._row_heights) >= ROW_HEIGHTS_KEPT:
                self._row_heights.clear()
            self._row_heights[key] = height
        return height

    def _width_changed(self, *_: object) -> None:
        """The menu got its width (laid out, or the board came or went): its rows are
        measured again at that width."""
        rows: list[MenuRow] = []
        for row in self.rows:
            font = ROW_FONTS.get(row.get("viewclass", ""))
            if font is not None:
                row = row.copy()
                row["height"] = self.row_height(row.get("text", ""), font)
            rows.append(row)
        if rows != self.rows:
            self.rows = rows
            self._show_rows()

    def _show_rows(self) -> None:
        """Put the menu's rows in the list (the list relabels its rows before the frame
        is drawn, or before a touch reaches them: the screen's ``on_touch_down``)."""
        if self.rows != self.list.data:
            self.list.data = self.rows
            self.list.scroll_y = 1  # a new menu starts at its top
