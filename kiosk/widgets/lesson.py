"""The lesson panel: a scripted first game's step on top of the play screen's right
column (``kiosk/presenters/lesson.py`` decides what it says).

Made once per play screen and relabelled for each
:class:`~kiosk.presenters.lesson.LessonView`. Its words (the step's title and text, the
suggestion, how the last action went) scroll in a body as high as the column leaves
room for (:meth:`LessonPanel.fit`), so nothing under it is pushed off the screen. The
step's own words (its title and text) stay on screen whatever opens below the panel: beside
teach mode's pause or a form (one a step opens by itself) the panel shows its heading, the
step's words and its buttons; while the table's fix is what to touch, its heading and
the step's words only; while the dice panel is, it steps aside until the roll. The words
keep a few lines there (:data:`COMPACT_WORDS`, :data:`MIN_LINE`): the part below (a
form's fields, the teach pause's text) scrolls instead.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.lesson import LessonPresenter, LessonView
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.layouts import Column
from kiosk.widgets.lists import ACTION_ROW, show_children
from kiosk.widgets.scrolling import QuietScrollView

#: The panel's buttons by the :class:`LessonPresenter` intent they call ("home": the
#: kiosk's Home).
INTENTS = {
    "play_suggestion": "Play it",
    "show_me": "Show me",
    "skip_step": "Skip\nstep",
    "end_lesson": "End\nlesson",
    "keep_playing": "Keep playing",
    "home": "Home",
}
LessonCall = Callable[[LessonPresenter], object]
"""A button's intent: a method of the lesson, called with the lesson that runs now."""

ROW = theme.TOUCH_MIN + 4
#: What the panel leaves for a list under it (two rows of the action menu).
LIST_ROOM = 2 * ACTION_ROW
SPACING = 2
#: The least height the step's words keep beside a form, a pause, the dice or a fix:
#: two lines of small text (the rest scrolls).
MIN_WORDS = 2 * theme.FONT_SMALL + 10
#: One line of the step's text.
MIN_LINE = theme.FONT_SMALL + 8
#: Beside a teach pause or a form, what the step's words take: three lines (the rest
#: scrolls), the pause's rule or the form's fields get the rest.
COMPACT_WORDS = 3 * theme.FONT_SMALL + 12


class LessonPanel:
    """The step's heading, its words in a scrolled body, and a row of buttons."""

    def __init__(self, intent: Callable[[LessonCall], object], home: Callable[[], object]) -> None:
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
        calls: dict[str, LessonCall] = {
            "play_suggestion": LessonPresenter.play_suggestion,
            "show_me": LessonPresenter.show_me,
            "skip_step": LessonPresenter.skip_step,
            "end_lesson": LessonPresenter.end_lesson,
            "keep_playing": LessonPresenter.keep_playing,
        }
        self.buttons = {
            name: button(
                text,
                home if name == "home" else lambda call=calls[name]: intent(call),
                role="accent" if name in ("play_suggestion", "keep_playing") else "normal",
                font_size=theme.FONT_SMALL,
            )
            for name, text in INTENTS.items()
        }
        self.room = 0.0
        self.shown: tuple[LessonView, bool, bool] | None = None
        self.aside = False  # only the heading and the step's words: no buttons
        self.compact = False  # beside a pause or a form: a few lines of the words
        self.words: list[WrapLabel] = []  # the labels the body shows, in order
        self.column.bind(height=lambda *_: self.fit(self.room))
        self.heading.bind(height=lambda *_: self.fit(self.room))

    def show(self, view: LessonView, *, compact: bool = False, aside: bool = False) -> None:
        """Relabel for ``view``; ``compact`` (beside a pause or a form): the heading, the
        step's title and text, and the buttons; ``aside`` (beside the dice or the
        table's fix): the heading and the step's text only. ``compact`` does not apply to
        the end's summary: what the player did is the point of it."""
        compact = compact and not view.finished
        if self.shown == (view, compact, aside):
            return
        self.shown = (view, compact, aside)
        self.aside, self.compact = aside, compact
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
        # The step's own words first, so they show when the body is short; the heading
        # says the step's goal.
        words = [self.title, self.text, self.suggestion, self.feedback]
        if aside:  # beside the dice or a fix: its text only, the title is the heading's
            words = [self.text]
        elif compact:
            words = [self.title, self.text]
        elif view.kind == "Try it yourself":  # beside a list: the heading's goal is its title
            words = [self.text, self.feedback, self.suggestion]
        self.words = [label for label in words if label.text]
        show_children(self.column, self.words)
        show_children(
            self.box, [self.heading, self.body] if aside else [self.heading, self.body, self.row]
        )
        self.body.scroll_y = 1
        self.fit(self.room)

    def fit(self, room: float) -> None:
        """Take at most ``room`` px of the column: the body scrolls when its words need
        more than is left beside the heading and the buttons."""
        self.room = room
        fixed = self.heading.height + (0 if self.aside else ROW + SPACING)
        free = max(0.0, room - fixed - SPACING)
        # Too short for the title and two lines of the text: the text alone (the
        # heading says the step's goal).
        short = free < self.title.height + MIN_WORDS
        words = [label for label in self.words if not (short and label is self.title)]
        show_children(self.column, words)
        self.body.height = min(self.column.height, free)
        self.box.height = fixed + SPACING + self.body.height

    def least_height(self) -> float:
        """The height the panel keeps whatever is below it: its heading, its buttons and
        the step's first words (all of them when they are shorter)."""
        if self.aside:  # beside the dice or a fix, a line of the text is enough
            return float(self.heading.height + SPACING + min(self.column.height, MIN_LINE))
        words = COMPACT_WORDS if self.compact else MIN_WORDS
        return float(self.heading.height + ROW + 2 * SPACING + min(self.column.height, words))


class LessonColumn:
    """The lesson panel in the play screen's right column, beside what the column shows
    for the game (``menu`` is its action list); ``intent`` calls the lesson that runs
    now, ``home`` shows Home. The screen calls :meth:`show` after it
    laid the column out for the game; ``relay`` lays it out again (the list back)."""

    def __init__(
        self,
        column: Widget,
        menu: Widget,
        intent: Callable[[LessonCall], object],
        home: Callable[[], object],
    ) -> None:
        self.column = column
        self.menu = menu
        self.panel = LessonPanel(intent, home)
        self.filler = Widget()  # in the list's place: the column stays packed to its top
        self._fit_later = Clock.create_trigger(self.fit, 0)
        self._watched: set[int] = set()  # the column's widgets whose height refits
        self.waiting = False  # stepped aside beside the dice or a fix: too little room
        column.bind(height=self.fit)

    def show(
        self,
        lesson: LessonView | None,
        *,
        aside: bool,
        compact: bool,
        relay: Callable[[], None],
    ) -> None:
        """Put ``lesson`` on top of the column; ``aside`` (the dice panel or the
        table's fix is what to touch) and ``compact`` (beside a teach pause or a form):
        the step's words stay, the rest of the panel makes room."""
        box, column = self.panel.box, self.column
        self.waiting = False
        if lesson is None or (aside and lesson.finished):  # the summary waits its turn
            if box.parent is not None:
                box.parent.remove_widget(box)
            if self.filler.parent is not None:
                self.filler.parent.remove_widget(self.filler)
                relay()
            return
        self.panel.show(lesson, compact=compact, aside=aside)
        # A watch step (and the summary at the end) needs its words more than the list:
        # its suggestion and the board do what the list would.
        words_first = (lesson.kind == "Watch" or lesson.finished) and not (compact or aside)
        if words_first and self.menu.parent is column:
            column.remove_widget(self.menu)
            column.add_widget(self.filler)
        elif not words_first and self.filler.parent is column:
            relay()
        if box.parent is not column:
            column.add_widget(box, index=len(column.children))
        self.fit()
        self._fit_later()

    def fit(self, *_: object) -> None:
        """The panel takes the room the column leaves: what is below it keeps its height,
        and a list below keeps a couple of rows — unless the step's first words need
        them (:meth:`LessonPanel.least_height`). Beside the dice or a fix, when even those
        words do not fit above them, the panel steps aside until they are done."""
        box, column = self.panel.box, self.column
        if box.parent is None and not self.waiting:
            return
        below = [child for child in column.children if child is not box]
        for child in [*below, *(inner for c in below for inner in _held(c))]:
            # A text below that wraps anew (the column got narrower) grows after this
            # fit: fitted again then, or the column would overflow by its growth.
            if child.size_hint_y is None and id(child) not in self._watched:
                self._watched.add(id(child))
                child.fbind("height", self._fit_later)
        fixed = sum(_kept(child) for child in below)
        listed = any(c.size_hint_y is not None for c in below if c is not self.filler)
        spacing = column.spacing * len(below)
        most = column.height - fixed - spacing  # all but what must keep its height
        least = self.panel.least_height()
        # Beside the dice panel the panel steps aside (the faces and "Roll in software"
        # need the column); beside the table's fix, only when its line does not fit.
        beside_fix = any(_held(child) for child in below)
        if self.panel.aside and (most < least or not beside_fix):
            if box.parent is not None:
                column.remove_widget(box)
            self.waiting = True  # back as soon as what is below leaves it room
            return
        if box.parent is None:
            column.add_widget(box, index=len(column.children))
        self.waiting = False
        room = most - (LIST_ROOM if listed else 0)
        if self.panel.compact:  # the pause's rule or the form's fields get the rest
            room = min(room, least)
        self.panel.fit(max(room, min(least, most)))


def _held(child: Widget) -> list[Widget]:
    """The parts of a stretching stack below the panel (the table's fix: its words and
    buttons above a filler) that keep their heights; none for any other widget."""
    if isinstance(child, Column) and child.size_hint_y is not None:
        return [inner for inner in child.children if inner.size_hint_y is None]
    return []


def _kept(child: Widget) -> float:
    """The height ``child`` of the column keeps whatever the panel takes: its own
    without a height hint; for a stretching stack, what its fixed parts need."""
    if child.size_hint_y is None:
        return float(child.height)
    held = _held(child)
    if not held:
        return 0.0
    return float(sum(inner.height for inner in held) + child.spacing * (len(held) - 1))
