"""The app's font: DejaVu Sans Condensed, bundled so the Pi and a desktop look the same.

Kivy's bundled Roboto has no arrows, check marks or crosses (``→ ⇄ ✓ ✗``: the games'
event and status texts use them), so they would show as boxes. DejaVu Sans covers them
and most European scripts (players' names); its Condensed cut has the same characters
and is only 3 % wider than Roboto (DejaVu Sans: 15 %), so action labels in the 260 px
column beside the board still fit. Licence: ``LICENSE.txt`` beside the fonts (Bitstream
Vera / Arev terms; DejaVu's changes are public domain).

No Kivy import at module level: tests check the font files without a display.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.theme import FONT_NAME

FONT_DIR = Path(__file__).resolve().parent
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"
LICENCE = FONT_DIR / "LICENSE.txt"


def register_default_font() -> str:
    """Make the bundled font Kivy's default font and return its name.

    Registered both as ``FONT_NAME`` and under Kivy's default font name, so every
    Label, Button, TextInput and core label (the board's piece letters) uses it
    without naming it. Call before the first text is drawn (``widgets.kv`` does, when
    the kiosk loads its layout files). Text measuring is cached from then on
    (:mod:`kiosk.fonts.extents`).
    """
    from kivy.core.text import DEFAULT_FONT, LabelBase

    from kiosk.fonts import extents

    extents.install()

    for name in {FONT_NAME, DEFAULT_FONT}:
        LabelBase.register(
            name,
            fn_regular=str(REGULAR),
            fn_italic=str(REGULAR),
            fn_bold=str(BOLD),
            fn_bolditalic=str(BOLD),
        )
    return FONT_NAME
