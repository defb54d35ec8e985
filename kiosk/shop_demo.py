"""The shop demo's widgets over the play screen: its banner and, for a game with a
lesson, the "Learn <game> in 10 minutes" button (kiosk/shop.py runs the demo)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.core.window import Window
from kivy.input.motionevent import MotionEvent

from kiosk import theme
from kiosk.widgets.basic import button

if TYPE_CHECKING:  # the admin page's and the play screen's modules, with the first demo
    from kiosk.screens.admin import DemoBanner
    from kiosk.screens.play import PlayScreen

DEMO_BANNER = "DEMO — touch to play"
#: The demo's button that starts the demoed game's lesson (Kiosk.start_lesson).
LEARN_TEXT = "Learn {title}\nin 10 minutes"
LEARN_SIZE = (340, 64)


class DemoOverlay:
    """The banner and the Learn button laid over the play screen while a demo runs."""

    def __init__(self) -> None:
        self._banner: DemoBanner | None = None
        # Touches during the demo never reach widgets (the first one ends it), so this
        # button is found by where it was touched (:meth:`touched`), not by its event.
        self.learn_button = button(
            "",
            lambda: None,
            role="accent",
            size_hint=(None, None),
            size=LEARN_SIZE,
            font_size=theme.FONT_SMALL,
        )

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
        from kiosk.teaching.lessons import lesson_for  # a demo is on: its modules are loaded

        self.banner.text = f"{DEMO_BANNER}   ·   {title}"
        if self.banner.parent is None:
            screen.add_widget(self.banner)
        widget = self.learn_button
        if lesson_for(game) is None:
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            return
        widget.text = LEARN_TEXT.format(title=title)
        widget.pos = (Window.width - LEARN_SIZE[0] - 8, self.banner.height + 8)
        if widget.parent is None:
            screen.add_widget(widget)

    def touched(self, touch: MotionEvent) -> bool:
        """Whether ``touch`` is on the Learn button shown."""
        widget = self.learn_button
        return widget.parent is not None and bool(
            widget.collide_point(*widget.to_widget(touch.x, touch.y))
        )

    def hide(self) -> None:
        for widget in (self._banner, self.learn_button):
            if widget is not None and widget.parent is not None:
                widget.parent.remove_widget(widget)
