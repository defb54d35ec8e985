"""The shop demo's widgets over the play screen: its banner, for a game with a lesson
the "Learn <game> in 10 minutes" button, and for a game the companion plays "Play <game>
against the companion" (kiosk/shop.py runs the demo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.core.window import Window
from kivy.input.motionevent import MotionEvent

from kiosk import theme
from kiosk.widgets.basic import KButton, button

if TYPE_CHECKING:  # the admin page's and the play screen's modules, with the first demo
    from kiosk.screens.admin import DemoBanner
    from kiosk.screens.play import PlayScreen

DEMO_BANNER = "DEMO — touch to play"
#: The demo's button that starts the demoed game's lesson (Kiosk.start_lesson).
LEARN_TEXT = "Learn {title}\nin 10 minutes"
LEARN_SIZE = (340, 64)
#: The demo's button that starts a game against the companion (Kiosk.play_against_companion).
AGAINST_TEXT = "Play {title}\nagainst the companion"


def _corner_button() -> KButton:
    """A button in the demo's corner, above the banner (labelled in ``show``)."""
    return button(
        "",
        lambda: None,
        role="accent",
        size_hint=(None, None),
        size=LEARN_SIZE,
        font_size=theme.FONT_SMALL,
    )


class DemoOverlay:
    """The banner and the Learn button laid over the play screen while a demo runs."""

    def __init__(self) -> None:
        self._banner: DemoBanner | None = None
        # Touches during the demo never reach widgets (the first one ends it), so this
        # button is found by where it was touched (:meth:`touched`), not by its event.
        self.learn_button = _corner_button()
        self.against_button = _corner_button()

    @property
    def banner(self) -> DemoBanner:
        """The demo's banner over the play screen (made with the first demo)."""
        if self._banner is None:
            from kiosk.screens.admin import DemoBanner

            self._banner = DemoBanner(text=DEMO_BANNER)
        return self._banner

    def show(self, screen: PlayScreen, game: str, title: str) -> None:
        """Lay the banner over ``screen`` (the play screen) for the demoed ``game``, and
        offer its lesson above the banner when it has one."""
        from kiosk.presenters.companion_seats import plays
        from kiosk.teaching.lessons import lesson_for  # a demo is on: its modules are loaded

        self.banner.text = f"{DEMO_BANNER}   ·   {title}"
        if self.banner.parent is None:
            screen.add_widget(self.banner)
        bottom = self.banner.height + 8
        name = title.split(" – ")[0]
        for widget, text, shown in (
            (self.learn_button, LEARN_TEXT, lesson_for(game) is not None),
            (self.against_button, AGAINST_TEXT, plays(game)),
        ):
            if not shown:
                if widget.parent is not None:
                    widget.parent.remove_widget(widget)
                continue
            # The game's name without its subtitle ("Kolossus"): the button is a short one.
            widget.text = text.format(title=title if widget is self.learn_button else name)
            widget.pos = (Window.width - LEARN_SIZE[0] - 8, bottom)
            bottom += LEARN_SIZE[1] + 8
            if widget.parent is None:
                screen.add_widget(widget)

    def touched(self, touch: MotionEvent, widget: KButton | None = None) -> bool:
        """Whether ``touch`` is on the Learn button shown (or on ``widget``)."""
        widget = self.learn_button if widget is None else widget
        return widget.parent is not None and bool(
            widget.collide_point(*widget.to_widget(touch.x, touch.y))
        )

    def hide(self) -> None:
        for widget in (self._banner, self.learn_button, self.against_button):
            if widget is not None and widget.parent is not None:
                widget.parent.remove_widget(widget)
