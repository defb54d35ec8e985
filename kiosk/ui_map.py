"""The test hook ``COMPANION_UI_MAP=<file>``: what the running app shows, as JSON.

The Xvfb end-to-end tests drive the real ``companion`` command with ``xdotool`` clicks
at the coordinates written here, and compare the screen with the simulated LED strip
(the LED mirror's frame, the board's lit cells). Nothing here changes the app.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import ScreenManager
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from kiosk.mirror_feed import MirrorFeed

if TYPE_CHECKING:  # the play screen's module loads with the first game, not at launch
    from kiosk.screens.play import PlayScreen


class Shown(Protocol):
    """What the map reads of the app (:class:`kiosk.app.Kiosk`)."""

    @property
    def manager(self) -> ScreenManager: ...

    @property
    def home_banner(self) -> Label: ...

    @property
    def mirror(self) -> MirrorFeed: ...

    @property
    def play_screen_made(self) -> PlayScreen | None: ...


class UiMap:
    """Test hook (``COMPANION_UI_MAP=<file>``): where the visible buttons are, as JSON.

    Written whenever it changes (checked 30 times a second): the current screen, every
    visible button's text and centre in window pixels (origin top left, as X11 and
    ``xdotool`` count), the other visible texts, the header's device badges, the
    banner, and the LED mirror's
    frame with its sequence number — so an end-to-end test can click by text and
    compare the mirror with what the strip shipped. Off unless the variable is set.
    """

    def __init__(self, kiosk: Shown, path: Path) -> None:
        self.kiosk = kiosk
        self.path = Path(path)
        self._last = ""

    def snapshot(self) -> dict[str, object]:
        from kivy.core.window import Window  # here: importing it opens the window

        kiosk = self.kiosk
        screen = kiosk.manager.current_screen
        height = Window.height
        buttons = []
        texts = []
        for widget in screen.walk(restrict=True):
            if not isinstance(widget, Label) or widget.width < 1 or widget.height < 1:
                continue
            point = _tap_point(widget, Window.width, height)
            if point is None:
                continue
            x, y = point
            if not isinstance(widget, Button):
                if widget.text:
                    texts.append(widget.text)
                continue
            buttons.append(
                {
                    "text": widget.text,
                    "x": round(x),
                    "y": round(height - y),
                    "disabled": bool(widget.disabled),
                }
            )
        play_screen = kiosk.play_screen_made  # not made before a game is shown
        mirror = None if play_screen is None else play_screen.mirror
        mirror_view: dict[str, object] = {"visible": False}
        if mirror is not None and kiosk.mirror.drawn is not None:
            left, bottom = mirror.to_window(mirror.x, mirror.y)
            mirror_view = {
                "visible": mirror.get_root_window() is not None,
                "seq": kiosk.mirror.drawn_seq,
                "frame": [list(pixel) for pixel in kiosk.mirror.drawn],
                "rect": [
                    round(left),
                    round(height - bottom - mirror.height),
                    round(mirror.width),
                    round(mirror.height),
                ],
            }
        play = None if play_screen is None else play_screen.ids
        return {
            "screen": kiosk.manager.current,
            "buttons": buttons,
            "texts": texts,
            "devices": play.devices.text if play and kiosk.manager.current == "play" else "",
            "banner": play.banner.text if play and play.banner.opacity > 0 else "",
            "home_banner": kiosk.home_banner.text,
            "mirror": mirror_view,
            # The cells the on-screen board lights now (the play or guided-setup screen).
            "board_lit": _board_lit(getattr(screen, "board", None)),
        }

    def write(self, *_: object) -> None:
        play_screen = self.kiosk.play_screen_made
        if play_screen is not None and play_screen.column_pending:
            return  # a change's column comes in the next frame: the screen is not whole
        text = json.dumps(self.snapshot())
        if text != self._last:
            temp = self.path.with_name(self.path.name + ".tmp")
            temp.write_text(text, encoding="utf-8")
            os.replace(temp, self.path)
            self._last = text


def _board_lit(widget: Widget) -> list[str]:
    """The cells a board widget on screen draws lit (its view's looks), sorted."""
    view = getattr(widget, "view", None)
    if view is None or widget.get_root_window() is None:
        return []
    return sorted(view.looks)


#: The least of a widget, in pixels each way, that must show for it to count as shown.
MIN_SHOWN_PX = 12


def _tap_point(widget: Widget, width: float, height: float) -> tuple[float, float] | None:
    """Where a finger would tap ``widget``: the centre of the part of it that shows —
    inside the window and every scroll view it is in, not hidden (opacity 0 up the
    tree) — or None when less than :data:`MIN_SHOWN_PX` of it shows. A row scrolled
    half out of its list is tapped on its half that shows, not on its own centre, which
    may lie on the list's very edge."""
    left, bottom = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    left, bottom, right, top = max(left, 0.0), max(bottom, 0.0), min(right, width), min(top, height)
    node = widget
    while node is not None and node.parent is not node:
        if node.opacity <= 0:
            return None
        if isinstance(node, ScrollView) and node is not widget:
            x0, y0 = node.to_window(node.x, node.y)
            left, bottom = max(left, x0), max(bottom, y0)
            right, top = min(right, x0 + node.width), min(top, y0 + node.height)
        node = node.parent
    if right - left < MIN_SHOWN_PX or top - bottom < MIN_SHOWN_PX:
        return None
    return (left + right) / 2, (bottom + top) / 2
