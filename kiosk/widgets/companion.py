"""The companion's panel on top of the play screen's middle column: what it is doing
("Companion (Hard) is thinking"), its move in players' words with "Done" and "Why?",
"Let the companion play" after an Undo, teach mode's "What would the companion do?",
and in a card game its hands face down — card backs and their number, never a face
(``kiosk/presenters/companion.py`` decides what it says). Made once per play screen and
relabelled for each view."""

from __future__ import annotations

from collections.abc import Callable

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.companion import CompanionTurn, CompanionView, HiddenHand
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.layouts import Column, Row
from kiosk.widgets.lists import show_children

#: The panel's buttons by the :class:`CompanionTurn` intent they call.
INTENTS: dict[str, str] = {
    "confirm": "Done",
    "explain": "Why this move?",
    "resume": "Let the companion play",
    "hint": "What would the companion do?",
}


BACK_WIDTH = 22  # px: one card back
BACK_STEP = 9  # px: the next back overlaps the one before, as a fanned hand
BACKS_DRAWN = 10
"""At most this many backs are drawn (the number says the rest)."""


class CardBacks(Widget):  # type: ignore[misc]
    """A hand kept face down: a fan of card backs (the number is in its words)."""

    def __init__(self) -> None:
        super().__init__(size_hint=(None, None), height=theme.TOUCH_MIN)
        self.count = 0
        self.bind(pos=self._draw, size=self._draw)

    def show(self, count: int) -> None:
        self.count = count
        drawn = min(count, BACKS_DRAWN)
        self.width = BACK_WIDTH + BACK_STEP * max(0, drawn - 1) if drawn else 0
        self._draw()

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        with self.canvas:
            for n in range(min(self.count, BACKS_DRAWN)):
                x = self.x + n * BACK_STEP
                Color(*theme.SURFACE_HIGH)
                RoundedRectangle(pos=(x, self.y), size=(BACK_WIDTH, self.height), radius=[3])
                Color(*theme.ACCENT)
                Line(rounded_rectangle=(x, self.y, BACK_WIDTH, self.height, 3), width=1.2)


class HandRow:
    """One companion hand: its backs and its words ("Companion (Hard)'s hand: 5 cards,
    face down")."""

    def __init__(self) -> None:
        self.backs = CardBacks()
        self.words = WrapLabel(font_size=theme.FONT_SMALL, color=theme.TEXT_DIM)
        self.row = Row(size_hint_y=None, height=theme.TOUCH_MIN, spacing=theme.SPACING)
        self.row.add_widget(self.backs)
        self.row.add_widget(self.words)
        self.words.bind(height=self._fit)

    def _fit(self, _label: object, height: float) -> None:
        """The row is as tall as its words need (two lines on a narrow column)."""
        self.row.height = max(theme.TOUCH_MIN, height)

    def show(self, hand: HiddenHand) -> None:
        self.backs.show(hand.count)
        self.words.text = hand.text


class CompanionPanel:
    """The companion's words and its buttons (see the module docstring)."""

    def __init__(self, intent: Callable[[Callable[[CompanionTurn], object]], object]) -> None:
        self.text = WrapLabel(font_size=theme.FONT_BODY, bold=True)
        self.why = WrapLabel(font_size=theme.FONT_SMALL, color=theme.TEXT_DIM)
        self.row = Row(size_hint_y=None, height=theme.BIG_BUTTON_HEIGHT, spacing=theme.SPACING)
        calls: dict[str, Callable[[CompanionTurn], object]] = {
            "confirm": CompanionTurn.confirm,
            "explain": CompanionTurn.explain,
            "resume": CompanionTurn.resume,
            "hint": CompanionTurn.hint,
        }
        self.buttons = {
            name: button(
                text,
                lambda call=calls[name]: intent(call),
                role="accent" if name in ("confirm", "resume") else "normal",
                font_size=theme.FONT_SMALL,
            )
            for name, text in INTENTS.items()
        }
        self.box = Column(spacing=theme.SPACING)
        self.hands: list[HandRow] = []
        self.shown: CompanionView | None = None

    def show(self, view: CompanionView) -> None:
        if view == self.shown:
            return
        self.shown = view
        self.text.text = view.text
        self.why.text = view.why
        names = [
            name
            for name, on in (
                ("confirm", view.can_confirm),
                ("explain", view.can_explain),
                ("resume", view.paused),
                ("hint", view.can_hint),
            )
            if on
        ]
        show_children(self.row, [self.buttons[name] for name in names])
        while len(self.hands) < len(view.hands):
            self.hands.append(HandRow())
        for row, hand in zip(self.hands, view.hands, strict=False):
            row.show(hand)
        hands = [row.row for row in self.hands[: len(view.hands)]]
        words = [w for w in (self.text, self.why) if w.text]
        show_children(self.box, [*hands, *words, *([self.row] if names else [])])

    def place(
        self, column: Widget, shown: list[Widget], view: CompanionView | None, *, dice: bool
    ) -> bool:
        """Add the panel for ``view`` (None: nothing) to the widgets ``shown`` in the play
        screen's middle column; True when the column is then complete: while the
        companion thinks or shows its move (no dice awaited) the menu gives way."""
        if view is None:
            return False
        self.box.width = column.width
        self.show(view)
        shown.append(self.box)
        if (view.thinking or view.can_confirm) and not dice:
            show_children(column, shown)
            return True
        return False
