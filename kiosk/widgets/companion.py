"""The companion's panel on top of the play screen's middle column: what it is doing
("Companion (Hard) is thinking"), its move in players' words with "Done" and "Why?",
"Let the companion play" after an Undo, and teach mode's "What would the companion
do?" (``kiosk/presenters/companion.py`` decides what it says). Made once per play
screen and relabelled for each view."""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.companion import CompanionTurn, CompanionView
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
        words = [w for w in (self.text, self.why) if w.text]
        show_children(self.box, [*words, *([self.row] if names else [])])

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
