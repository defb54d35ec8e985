"""The lesson panel: a scripted first game's step on top of the play screen's right
column (``kiosk/presenters/lesson.py`` decides what it says).

Made once per play screen and relabelled for each
:class:`~kiosk.presenters.lesson.LessonView`. Its words (the step's title and text, the
suggestion, how the last action went) scroll in a body as high as the column leaves
room for (:meth:`LessonPanel.fit`), so nothing under it is pushed off the screen. While
teach mode's pause or a form is below it, only its heading and buttons show; the screen
puts it aside while the dice panel or the table's fix is what to touch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.lesson import LessonView
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.lists import ACTION_ROW, show_children
from kiosk.widgets.scrolling import QuietScrollView

#: The panel's buttons by the lesson's intent they call.
INTENTS = {
    "play_suggestion": "Play it",
    "show_me": "Show me",
    "skip_step": "Skip\nstep",
    "end_lesson": "End\nlesson",
    "keep_playing": "Keep playing",
    "home": "Home",
}
ROW = theme.TOUCH_MIN + 4
#: What the panel leaves for a list under it (two rows of the action menu).
LIST_ROOM = 2 * ACTION_ROW
SPACING = 2


class LessonPanel:
    """The step's heading, its words in a scrolled body, and a row of buttons."""

    def __init__(self, intent: Callable[[str], None]) -> None:
        self.box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=SPACING)
        self.heading = WrapLabel(font_size=theme.FONT_SMALL, color=theme.ACCENT, bold=True)
        self.title = WrapLabel(font_size=theme.FONT_BODY, bold=True)
        self.text = WrapLabel(font_size=theme.FONT_SMALL)
        self.suggestion = WrapLabel(font_size=theme.FONT_SMALL, color=theme.TEXT_DIM)
        self.feedback = WrapLabel(font_size=theme.FONT_SMALL, color=theme.ACCENT)
        # The right padding keeps the words clear of the scroll bar.
        self.column = GridLayout(cols=1, size_hint_y=None, spacing=SPACING, padding=(0, 0, 12, 0))
        self.column.bind(minimum_height=self.column.setter("height"))
        self.body = QuietScrollView(
            do_scroll_x=False, bar_width=8, scroll_type=["bars", "content"], size_hint_y=None
        )
        self.body.add_widget(self.column)
        self.row = BoxLayout(size_hint_y=None, height=ROW, spacing=theme.SPACING)
        self.buttons = {
            name: button(
                text,
                lambda n=name: intent(n),
                role="accent" if name in ("play_suggestion", "keep_playing") else "normal",
                font_size=theme.FONT_SMALL,
            )
            for name, text in INTENTS.items()
        }
        self.room = 0.0
        self.shown: tuple[LessonView, bool] | None = None
        self.column.bind(height=lambda *_: self.fit(self.room))
        self.heading.bind(height=lambda *_: self.fit(self.room))

    def show(self, view: LessonView, *, compact: bool = False) -> None:
        """Relabel for ``view``; ``compact``: the heading and the buttons only (never for
        the end's summary: what the player did is the point of it)."""
        compact = compact and not view.finished
        if self.shown == (view, compact):
            return
        self.shown = (view, compact)
        self.heading.text = view.heading
        self.title.text = view.title  # its ruling is in "Why?"'s small print
        self.text.text = view.text
        self.suggestion.text = view.suggestion
        self.feedback.text = view.feedback
        if view.finished:
            names = ["keep_playing", "home"]
        else:
            first = ["show_me"] if view.can_show else ["play_suggestion"] if view.can_play else []
            names = [*first, "skip_step", "end_lesson"]
        show_children(self.row, [self.buttons[name] for name in names])
        words = [self.title, self.text, self.suggestion, self.feedback]
        if view.kind == "Try it yourself":  # the goal first: the body may be short here
            words = [self.suggestion, self.feedback, self.title, self.text]
        show_children(self.column, [label for label in words if label.text])
        show_children(
            self.box, [self.heading, self.row] if compact else [self.heading, self.body, self.row]
        )
        self.body.scroll_y = 1
        self.fit(self.room)

    def fit(self, room: float) -> None:
        """Take at most ``room`` px of the column: the body scrolls when its words need
        more than is left beside the heading and the buttons."""
        self.room = room
        fixed = self.heading.height + ROW + SPACING
        if self.body.parent is None:
            self.box.height = fixed
            return
        self.body.height = max(0.0, min(self.column.height, room - fixed - SPACING))
        self.box.height = fixed + SPACING + self.body.height


class LessonColumn:
    """The lesson panel in the play screen's right column, beside what the column shows
    for the game (``menu`` is its action list). The screen calls :meth:`show` after it
    laid the column out for the game; ``relay`` lays it out again (the list back)."""

    def __init__(self, column: Any, menu: Any, intent: Callable[[str], None]) -> None:
        self.column = column
        self.menu = menu
        self.panel = LessonPanel(intent)
        self.filler = Widget()  # in the list's place: the column stays packed to its top
        self._fit_later = Clock.create_trigger(self.fit, 0)
        self._watched: set[int] = set()  # the column's widgets whose height refits
        column.bind(height=self.fit)

    def show(
        self,
        lesson: LessonView | None,
        *,
        aside: bool,
        compact: bool,
        relay: Callable[[], None],
    ) -> None:
        """Put ``lesson`` on top of the column; ``aside``: take it away while the dice
        panel or the table's fix is what to touch; ``compact``: heading and buttons only
        (beside a teach pause or a form)."""
        box, column = self.panel.box, self.column
        if lesson is None or aside:
            if box.parent is not None:
                box.parent.remove_widget(box)
            if self.filler.parent is not None:
                self.filler.parent.remove_widget(self.filler)
                relay()
            return
        self.panel.show(lesson, compact=compact)
        # A watch step (and the summary at the end) needs its words more than the list:
        # its suggestion and the board do what the list would.
        words_first = (lesson.kind == "Watch" or lesson.finished) and not compact
        if words_first and self.menu.parent is column:
            column.remove_widget(self.menu)
            column.add_widget(self.filler)
        elif not words_first and self.filler.parent is column:
            relay()
        if box.parent is not column:
            column.add_widget(box, index=len(column.children))
        self.fit()
        self._fit_later()

    def fit(self, *_: Any) -> None:
        """The panel takes the room the column leaves: what is below it keeps its height,
        and a list below keeps a couple of rows."""
        box, column = self.panel.box, self.column
        if box.parent is None:
            return
        below = [child for child in column.children if child is not box]
        for child in below:
            # A text below that wraps anew (the column got narrower) grows after this
            # fit: fitted again then, or the column would overflow by its growth.
            if child.size_hint_y is None and id(child) not in self._watched:
                self._watched.add(id(child))
                child.fbind("height", self._fit_later)
        fixed = sum(child.height for child in below if child.size_hint_y is None)
        listed = any(c.size_hint_y is not None for c in below if c is not self.filler)
        spacing = column.spacing * len(below)
        self.panel.fit(column.height - fixed - spacing - (LIST_ROOM if listed else 0))
