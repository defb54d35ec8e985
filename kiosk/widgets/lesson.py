"""The lesson panel: a scripted first game's step on top of the play screen's right
column (``kiosk/presenters/lesson.py`` decides what it says).

Made once per play screen and relabelled for each
:class:`~kiosk.presenters.lesson.LessonView`. While teach mode's pause explains a rule
below it (or a form, the table's fix), only its heading and the buttons show, so what
is below keeps the room it needs; while dice are asked for it steps aside for the dice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from kiosk import theme
from kiosk.presenters.lesson import LessonView
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.lists import show_children

#: The panel's buttons by the lesson's intent they call.
INTENTS = {
    "play_suggestion": "Play it",
    "show_me": "Show me",
    "skip_step": "Skip\nstep",
    "end_lesson": "End\nlesson",
    "keep_playing": "Keep playing",
    "home": "Home",
}


class LessonPanel:
    """The step's heading, words, suggestion and feedback, and a row of buttons."""

    def __init__(self, intent: Callable[[str], None]) -> None:
        self.box = GridLayout(cols=1, size_hint_y=None, spacing=2)
        self.box.bind(minimum_height=self.box.setter("height"))
        self.heading = WrapLabel(font_size=theme.FONT_SMALL, color=theme.ACCENT, bold=True)
        self.title = WrapLabel(font_size=theme.FONT_BODY, bold=True)
        self.text = WrapLabel(font_size=theme.FONT_SMALL)
        self.suggestion = WrapLabel(font_size=theme.FONT_SMALL, color=theme.TEXT_DIM)
        self.feedback = WrapLabel(font_size=theme.FONT_SMALL, color=theme.ACCENT)
        self.row = BoxLayout(size_hint_y=None, height=theme.TOUCH_MIN + 4, spacing=theme.SPACING)
        self.buttons = {
            name: button(
                text,
                lambda n=name: intent(n),
                role="accent" if name in ("play_suggestion", "keep_playing") else "normal",
                font_size=theme.FONT_SMALL,
            )
            for name, text in INTENTS.items()
        }
        self.shown: tuple[LessonView, bool] | None = None

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
        parts: list[Any] = [self.heading]
        if not compact:
            parts += [self.title, self.text]
            parts += [label for label in (self.suggestion, self.feedback) if label.text]
        show_children(self.box, [*parts, self.row])
