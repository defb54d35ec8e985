"""The window's side of shop mode: a locked kiosk's borderless fullscreen without a
cursor, the widget the hidden gesture to admin starts on (a screen's title), Escape,
and stopping the app from the admin page."""

from __future__ import annotations

from kivy.app import App
from kivy.core.window import WindowBase
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk.settings import KioskConfig
from kiosk.widgets.basic import TitleLabel

#: The key code of Escape, which a locked kiosk swallows.
ESCAPE = 27


def stop_running_app() -> None:
    """What "Exit app" on the admin page does: stop the running Kivy app."""
    app = App.get_running_app()
    if app is not None:
        app.stop()


def apply_window_mode(window: WindowBase, config: KioskConfig) -> None:
    """Locked: borderless fullscreen without a mouse cursor; else ``fullscreen`` as set."""
    if config.locked:
        window.borderless = True
        window.fullscreen = "auto"
        window.show_cursor = False
    elif config.fullscreen:
        window.fullscreen = "auto"


def title_widget(screen: Screen) -> Widget | None:
    """The widget a long press opens admin from: the screen's title (or whose turn)."""
    for key in ("title", "player"):
        widget = screen.ids.get(key)
        if widget is not None:
            return widget
    for widget in screen.walk(restrict=True):
        if isinstance(widget, TitleLabel):
            return widget
    return None
