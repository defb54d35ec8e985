"""Driving the Kivy screens in tests: real touches on real widgets, offscreen."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.tests.common import UnitTestTouch
from kivy.uix.button import Button
from kivy.uix.scrollview import ScrollView

from kiosk.app import Kiosk


def frames(count: int = 2) -> None:
    for _ in range(count):
        EventLoop.idle()


def laid_out(count: int = 2) -> None:
    """``count`` of Kivy's frames without drawing the window: input, the clock's events
    (layouts, labels' textures, the screens' refreshes) and the kv rules run as in
    ``EventLoop.idle()``; only the window's drawing is left out (≈40 ms a frame under the
    software renderer, most of a frame). For checks that read sizes and texts, not pixels.
    """
    for _ in range(count):
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()


def setup_built(kiosk: Kiosk) -> None:
    """Frames until Setup has made every option's widgets (it makes a few a frame)."""
    for _ in range(100):
        if not kiosk.setup_screen.building:
            return
        frames(1)
    raise AssertionError("Setup still building its options after 100 frames")


def _scroll_parent(widget: Any) -> Any:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            return parent
        parent = parent.parent
    return None


def tap(widget: Any, *, patient: bool = False) -> None:
    """A finger press and release at the widget's centre (window coordinates).

    Inside a ScrollView Kivy holds a touch for 0.2 s to tell a tap from a scroll; the
    widget is scrolled into view and, unless ``patient``, pressed by dispatching
    on_press/on_release (the documented shortcut) to keep the suite fast. The screen is
    laid out before the finger lands and drawn in the frame after (once a tap, as on the
    table: a person sees the last frame before tapping again).
    """
    laid_out(1)
    assert widget.get_root_window() is not None, f"{widget} is not on screen"
    assert not widget.disabled, f"{getattr(widget, 'text', widget)!r} is disabled"
    scroll = _scroll_parent(widget)
    if scroll is not None:
        scroll.scroll_to(widget, padding=0, animate=False)
        laid_out(1)
        x, y = widget.to_window(*widget.center)
        sx, sy = scroll.to_window(*scroll.pos)
        visible = sx <= x <= sx + scroll.width and sy <= y <= sy + scroll.height
        assert visible, f"{widget.text!r} is scrolled out of view"
        if not patient:
            widget.dispatch("on_press")
            widget.dispatch("on_release")
            frames(1)
            return
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(1)
    if scroll is not None:
        deadline = time.monotonic() + 0.35
        while time.monotonic() < deadline:
            frames(1)


def tap_at(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(1)


def buttons(kiosk: Kiosk) -> Iterator[Any]:
    for widget in kiosk.manager.current_screen.walk(restrict=True):
        if isinstance(widget, Button) and widget.opacity > 0:
            yield widget


def find_button(kiosk: Kiosk, text: str, *, exact: bool = False) -> Any:
    """The first button on screen saying ``text``, looked for a frame on, as a person
    looks: a change shows the play screen's middle column a frame after the rest (laid
    out: what is on screen is known without drawing it)."""
    laid_out(1)
    found = [b for b in buttons(kiosk) if (b.text == text if exact else b.text.startswith(text))]
    assert found, f"no button {text!r} on {kiosk.manager.current}: " + ", ".join(
        repr(b.text) for b in buttons(kiosk)
    )
    return found[0]


def tap_button(kiosk: Kiosk, text: str, *, exact: bool = False) -> None:
    tap(find_button(kiosk, text, exact=exact))


def open_kiosk(data_dir: Path, seed: int = 7) -> Kiosk:
    EventLoop.ensure_window()
    for child in list(Window.children):
        Window.remove_widget(child)
    kiosk = Kiosk(data_dir, seed=lambda: seed)
    Window.add_widget(kiosk.manager)
    frames(2)
    return kiosk


def close_kiosk(kiosk: Kiosk) -> None:
    Window.remove_widget(kiosk.manager)
    kiosk.close()


def play_modes(kiosk: Kiosk) -> list[str]:
    """The views the play screen's "next view" button cycles through, the one shown
    first; the screen shows that one again after."""
    screen = kiosk.play_screen
    modes = [screen.mode]
    for _ in range(10):
        screen.next_mode()
        if screen.mode == modes[0]:
            return modes
        modes.append(screen.mode)
    raise AssertionError(f"the play screen's views do not come round: {modes}")
