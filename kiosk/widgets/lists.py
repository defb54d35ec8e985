"""Lists that update in place: RecycleViews for long lists, pools for short rows.

A Pi's CPU spends most of a redraw creating labels (each renders its text into a
texture), so screens keep their widgets and change their properties:

* :class:`ActionList` and :class:`LogList` are RecycleViews. Their ``data`` are the
  presenter's rows as dicts; only the rows on screen exist as widgets, and a new state
  re-labels them instead of building up to 48 buttons.
* :class:`WidgetPool` keeps the widgets of a short, varying row (group tabs, die faces,
  a facts table) and shows as many as needed; :func:`show_children` swaps persistent
  sections in and out of a layout without recreating them.

Row heights that follow their text (log lines, facts) are set again each time a row is
shown: a recycled row whose text did not change gets no new texture, so a height bound
to ``texture_size`` alone would keep the size the list gave it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Generic, TypeVar

from kivy.input.motionevent import MotionEvent
from kivy.metrics import dp
from kivy.properties import NumericProperty, ObjectProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.recycleboxlayout import RecycleBoxLayout
from kivy.uix.recycleview import RecycleView
from kivy.uix.recycleview.layout import RecycleLayoutManagerBehavior
from kivy.uix.recycleview.views import RecycleDataAdapter, RecycleDataViewBehavior
from kivy.uix.widget import Widget

from companion import views
from kiosk import theme
from kiosk.widgets.basic import ChoiceButton, WrapLabel
from kiosk.widgets.scrolling import QuietScrollBar

ACTION_ROW = 56  # px: an action button in the menu
TEXT_ROW = 30  # px: a first guess for a text row before its text is laid out

#: One row of a RecycleView's ``data``: its widget's properties by name.
RowData = Mapping[str, object]
#: The widgets a pool makes.
W = TypeVar("W", bound=Widget)


def show_children(layout: Widget, widgets: Sequence[Widget]) -> None:
    """Make ``widgets`` (persistent, in this order) the children of ``layout``.

    Widgets already in place stay; others are detached, not destroyed, so showing them
    again costs no new textures. The leading widgets already there in that order are
    left attached (three tabs becoming two detach one, not three: each widget taken off
    and put back is laid out and dispatched anew, ≈0.1 M instructions a button).
    """
    current = list(reversed(layout.children))  # Kivy keeps children last-added first
    if current == list(widgets):
        return
    kept = 0
    for child, widget in zip(current, widgets, strict=False):  # the common start
        if child != widget:  # not ``is``: a kv id is a WeakProxy, equal to its widget
            break
        kept += 1
    for child in current[kept:]:
        layout.remove_widget(child)
    for widget in widgets[kept:]:
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        layout.add_widget(widget)


class WidgetPool(Generic[W]):
    """The widgets of one layout, made once each and reused: ``show(n)`` puts the first
    ``n`` in the layout (making more when needed) and returns them for updating.
    Without a layout the caller places them (beside widgets of its own)."""

    def __init__(self, layout: Widget | None, make: Callable[[], W]) -> None:
        self.layout = layout
        self.make = make
        self.widgets: list[W] = []

    def show(self, count: int) -> list[W]:
        while len(self.widgets) < count:
            self.widgets.append(self.make())
        shown = self.widgets[:count]
        if self.layout is not None:
            show_children(self.layout, shown)
        return shown


# --- rows of the lists ----------------------------------------------------------------


class _TappedRow(RecycleDataViewBehavior):  # type: ignore[misc]
    """A row button: ``intent(index, text)`` on release (both come from the row's data;
    the text lets the screen check the row still shows what the menu lists)."""

    index = NumericProperty(0)
    intent = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.intent is not None:
            self.intent(int(self.index), self.text)


class _FittedRow(RecycleDataViewBehavior):  # type: ignore[misc]
    def fitted_height(self) -> float:
        raise NotImplementedError

    def refresh_view_layout(
        self, rv: RecycleView, index: int, layout: RowData, viewport: Sequence[float]
    ) -> None:
        super().refresh_view_layout(rv, index, layout, viewport)
        self.height = self.fitted_height()


class _WrappedButtonRow(_TappedRow):
    """A row button whose whole text shows: wrapped at its width on as many lines as
    the height its data gives it holds (the screen measures each text once: see
    ``PlayScreen.row_height``), never "…"-shortened."""

    def refresh_view_attrs(self, rv: RecycleView, index: int, data: RowData) -> None:
        super().refresh_view_attrs(rv, index, data)
        # KButton's rule shortens one-line texts whenever the text changes, and a row
        # gets its text after the rules ran: every line shows again.
        self.shorten = False
        self.max_lines = 0


class ActionRow(_WrappedButtonRow, ChoiceButton):
    """A legal action in the menu (left-aligned, wrapped)."""


class TextRow(_FittedRow, WrapLabel):
    """A wrapped line of text: a log line, or a note under the actions."""

    def fitted_height(self) -> float:
        return float(self.texture_size[1] + 4)


class PanelView(_FittedRow, GridLayout):  # type: ignore[misc]
    """The facts panel, updated in place: one line per player ("Ann · Gold 3 · Cards
    2"), the player to move in the accent, then the shared facts.

    One wrapping line per player rather than a table with a column per player: a
    column of 60 px cannot hold a 16-letter name or "Acolytes" without cutting it.
    The first row of the game log, so that facts and log scroll together.
    """

    panel = ObjectProperty(None, allownone=True)
    #: Called with a fact's text, or None for a player's line, when it is tapped ("Why?"
    #: for that count, or for every count of the table).
    count_tapped = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: object) -> None:
        #: label widget → the count it shows (a fact), or None for a player's line (all
        #: the counts of the table)
        self._counts: dict[Widget, str | None] = {}
        self._players = WidgetPool(None, lambda: WrapLabel(font_size=theme.FONT_SMALL + 1))
        self._facts = WidgetPool(None, lambda: WrapLabel(font_size=theme.FONT_SMALL))
        super().__init__(**kwargs)

    def fitted_height(self) -> float:
        return float(self.minimum_height)

    def on_panel(self, _widget: Widget, panel: views.PanelView | None) -> None:
        if panel is None:
            return
        lines = []
        for seat, name in enumerate(panel.columns):
            values = [f"{row.label} {row.values[seat]}" for row in panel.rows]
            lines.append((" · ".join([name, *values] if name else values), seat == panel.turn))
        players = self._players.show(len(lines) if panel.rows else 0)
        self._counts = {}
        for label, (text, current) in zip(players, lines, strict=False):
            label.text = text
            label.bold = current
            label.color = theme.ACCENT if current else theme.TEXT
            self._counts[label] = None
        facts = self._facts.show(len(panel.facts))
        for label, fact in zip(facts, panel.facts, strict=True):
            label.text = fact
            self._counts[label] = fact
        show_children(self, [*players, *facts])

    def on_touch_up(self, touch: MotionEvent) -> bool:
        """A tap on a fact asks "Why?" about that count, on a player's line about the
        table's counts."""
        if self.count_tapped is None or not self.collide_point(*touch.pos):
            return bool(super().on_touch_up(touch))
        for label, count in self._counts.items():
            if label.parent is not None and label.collide_point(*touch.pos):
                self.count_tapped(count)
                return True
        return bool(super().on_touch_up(touch))


class RowKeepingAdapter(RecycleDataAdapter):  # type: ignore[misc]
    """Gives a row back the widget that last showed the same text.

    Kivy's adapter drops every row's widget into a shared pool whenever the data or a
    row's height changes, and hands them back in another order: each row then gets
    another row's text and renders its texture again — up to three times per move, as
    new texts change the rows' heights. Here a widget is kept under its row's viewclass
    and text: a log line that moved down a place, or an action listed again, keeps its
    texture, and only a new text is rendered, once.
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._kept: dict[Hashable, Widget] = {}  # row key -> the widget that showed it
        self._spare: list[Widget] = []  # widgets whose key another widget already holds
        self._key_of: dict[Widget, Hashable] = {}
        self._wanted: set[Hashable] = set()  # the keys of the rows being shown now

    @staticmethod
    def row_key(index: int, data_item: RowData) -> Hashable:
        return (data_item.get("viewclass"), data_item.get("text", index))

    def invalidate(self) -> None:
        shown: dict[int, Widget] = self.views
        dirty_views: dict[type[Widget], dict[int, Widget]] = self.dirty_views
        dirty = [view for views in dirty_views.values() for view in views.values()]
        for view in [*shown.values(), *dirty]:
            key = self._key_of.get(view)
            if key is None or key in self._kept:
                self._spare.append(view)
            else:
                self._kept[key] = view
        self.views: dict[int, Widget] = {}
        dirty_views.clear()

    def set_visible_views(
        self, indices: Sequence[int], data: Sequence[RowData], viewclasses: object
    ) -> object:
        self._wanted = {self.row_key(i, data[i]) for i in indices}
        try:
            return super().set_visible_views(indices, data, viewclasses)
        finally:
            self._wanted = set()

    def get_view(self, index: int, data_item: RowData, viewclass: type[Widget]) -> Widget | None:
        key = self.row_key(index, data_item)
        view = self._kept.pop(key, None)
        if view is not None and view.__class__ is not viewclass:
            self._spare.append(view)
            view = None
        if view is None:
            view = self._reusable(viewclass)
        if view is None:
            view = super().get_view(index, data_item, viewclass)  # made, or Kivy's pool
        else:
            self.refresh_view_attrs(index, data_item, view)
        if view is not None:
            self._key_of[view] = key
        return view

    def _reusable(self, viewclass: type[Widget]) -> Widget | None:
        """A spare widget of ``viewclass``, else one kept for a text not shown now."""
        for i, view in enumerate(self._spare):
            if view.__class__ is viewclass:
                return self._spare.pop(i)
        for key, view in self._kept.items():
            if view.__class__ is viewclass and key not in self._wanted:
                return self._kept.pop(key)
        return None


class RowKeepingLayout(RecycleBoxLayout):  # type: ignore[misc]
    """The rows' layout: new data leaves the rows' widgets attached until it is known
    which of them show again.

    Kivy's layout detaches every row when its data changes and attaches the ones shown
    again a moment later: each a remove and an add, with their canvas and property
    work (about 0.6 M instructions a touch in the menu). Here only the rows no longer
    shown are detached; a row the :class:`RowKeepingAdapter` hands back stays where it
    is (rows are placed by position, so their order among the children is not used).
    """

    def clear_layout(self) -> None:
        RecycleLayoutManagerBehavior.clear_layout(self)  # the adapter's invalidate()
        self.view_indices: dict[Widget, int] = {}
        self._size_needs_update = False

    def set_visible_views(
        self, indices: Sequence[int], data: Sequence[RowData], viewport: Sequence[float]
    ) -> None:
        super().set_visible_views(indices, data, viewport)
        shown: dict[Widget, int] = self.view_indices
        for child in [c for c in self.children if c not in shown]:
            self.remove_widget(child)


class RowList(QuietScrollBar, RecycleView):  # type: ignore[misc]
    """A vertical RecycleView of rows (its layout is in ``kiosk/kv/widgets.kv``)."""

    scroll_y: float  # ScrollView's property (an annotation only: Kivy defines it)

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("view_adapter", RowKeepingAdapter())
        super().__init__(**kwargs)

    def catch_up(self) -> None:
        """Relabel the rows now if new data waits for the list's refresh before the
        frame (a touch then reaches the rows the data lists)."""
        pending = self._refresh_trigger  # Kivy's RecycleView refreshes by this trigger
        if pending.is_triggered:
            self.refresh_views()

    def scroll_to(
        self, widget: Widget, padding: float | Sequence[float] = 10, animate: object = True
    ) -> None:
        """Scroll until a row on screen is wholly shown (without animation).

        ScrollView's own version first waits for its content's pending layout, and a
        RecycleView's layout has no layout trigger to ask (an AttributeError in Kivy
        2.3), so this does the same vertical scroll directly.
        """
        if not self.parent:
            return
        pad = dp(padding if isinstance(padding, int | float) else padding[1])
        bottom = self.parent.to_widget(*widget.to_window(*widget.pos))[1]
        top = self.parent.to_widget(*widget.to_window(widget.right, widget.top))[1]
        dy = 0.0
        if bottom < self.y:
            dy = self.y - bottom + pad
        elif top > self.top:
            dy = self.top - top - pad
        _, dsy = self.convert_distance_to_scroll(0, dy)
        self.scroll_y = min(1.0, max(0.0, self.scroll_y - dsy))


class ActionList(RowList):
    """The action menu: rows of :class:`ActionRow` (``data``: text, index, intent)."""


class LogList(RowList):
    """The facts panel and the game log, newest first, scrolling together."""


__all__ = [
    "ACTION_ROW",
    "ActionList",
    "ActionRow",
    "LogList",
    "PanelView",
    "RowKeepingLayout",
    "RowList",
    "TextRow",
    "WidgetPool",
    "show_children",
]
