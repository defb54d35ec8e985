"""Looks for a 7" 800×480 panel read in dim light by people standing round a table.

Dark surfaces with light, large text (no white glare at night), one warm accent for
what to press, red only for refusals. Every touch target is at least ``TOUCH_MIN``
pixels in both directions (48 px ≈ 9 mm on the official panel, 0.19 mm a pixel: a
fingertip); the board's 33 px squares get there by forgiving taps and zoom
(``kiosk.presenters.board.resolve_tap``). Text is DejaVu Sans Condensed (``kiosk/fonts``):
it has the arrows and marks the games' texts use. Plain values, no Kivy import: the .kv
files and the presenters' tests both read them.
"""

from __future__ import annotations

#: The default font of every label (registered by :mod:`kiosk.fonts`, which loads Kivy).
FONT_NAME = "DejaVuSansCondensed"

RGBA = tuple[float, float, float, float]

WIDTH, HEIGHT = 800, 480

TOUCH_MIN = 48  # px: smallest button side
BUTTON_HEIGHT = 60  # px: ordinary buttons
BIG_BUTTON_HEIGHT = 76  # px: undo / redo / start
HEADER_HEIGHT = 64
PLAY_HEADER_HEIGHT = 80  # whose turn + a status line that may wrap once
SIDEBAR_WIDTH = 132
WHY_BUTTON_WIDTH = 96  # px: the "Why?" buttons of the play screen's header and banner
PADDING = 8
SPACING = 6

FONT_SMALL = 17  # px, the smallest text anywhere
FONT_BODY = 20
FONT_LARGE = 24
FONT_TITLE = 28


def rgba(hex_colour: str, alpha: float = 1.0) -> RGBA:
    """``"#1e2228"`` → Kivy's 0..1 floats."""
    h = hex_colour.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)


def rgb_to_rgba(colour: tuple[int, int, int], alpha: float = 1.0) -> RGBA:
    return (colour[0] / 255, colour[1] / 255, colour[2] / 255, alpha)


BACKGROUND = rgba("#101215")
SURFACE = rgba("#1c2026")
SURFACE_HIGH = rgba("#2a3039")
BORDER = rgba("#3a424e")
TEXT = rgba("#eef0f3")
TEXT_DIM = rgba("#a9b1bc")
ACCENT = rgba("#f0a030")  # the thing to press
ACCENT_TEXT = rgba("#15110a")
BUTTON = rgba("#323a46")
BUTTON_DOWN = rgba("#4a5566")
DISABLED_TEXT = rgba("#6b7380")
DANGER = rgba("#b3261e")  # refusal banner
DANGER_TEXT = rgba("#fff3f1")
NOTICE = rgba("#1f4b6e")  # neutral feedback banner
OK = rgba("#3fb950")
WARN = rgba("#e3b341")
