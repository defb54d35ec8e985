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

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from kiosk import theme
from kiosk.presenters.lesson import LessonView
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.lists import show_children
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
        """Relabel for ``view``; ``compact``: the heading and the buttons only."""
        if self.shown == (view, compact):
            return
        self.shown = (view, compact)
        self.heading.text = view.heading
        ruling = f"  [{view.ruling}]" if view.ruling else ""
        self.title.text = f"{view.title}{ruling}"
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
