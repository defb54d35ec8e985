"""A QR code of the BG Stats link (segno draws it; without segno, none is shown)."""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from kivy.graphics import Color, Rectangle
from kivy.input.motionevent import MotionEvent
from kivy.uix.widget import Widget

if TYPE_CHECKING:  # the full-screen view loads when the code is first enlarged
    from kivy.uix.modalview import ModalView

QR_HEIGHT = 170


def qr_available() -> bool:
    return importlib.util.find_spec("segno") is not None


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...] | None:
    """The QR modules of ``text`` (True = dark), or None without segno."""
    if importlib.util.find_spec("segno") is not None:
        segno = importlib.import_module("segno")
        code = segno.make(text, error="l")
        return tuple(tuple(bool(m) for m in row) for row in code.matrix)
    return None


class QrCode(Widget):  # type: ignore[misc]
    """Dark modules on a white quiet zone, as phone cameras expect even at night.

    A play with four players is a QR code of ~85 modules: too fine for a camera at the
    preview's size, so a tap shows it as large as the screen allows (≥ 4 px a module).
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.matrix: tuple[tuple[bool, ...], ...] | None = None
        self.enlarged: ModalView | None = None  # the full-screen view while it is open
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, text: str | None) -> None:
        self.matrix = None if text is None else qr_matrix(text)
        self.height = QR_HEIGHT if self.matrix else 0
        self.redraw()

    def redraw(self, *_: object) -> None:
        self.canvas.clear()
        if self.matrix:
            draw_matrix(self, self.matrix)

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.matrix and self.collide_point(*touch.pos):
            self.enlarge()
            return True
        return False

    def enlarge(self) -> None:
        """The code full screen on white; any tap closes it."""
        from kivy.uix.modalview import ModalView

        class FullScreenQr(ModalView):  # type: ignore[misc]
            def on_touch_down(self, touch: MotionEvent) -> bool:
                self.dismiss()
                return True

        big = QrCode(size_hint=(1, 1))
        big.matrix = self.matrix
        view = FullScreenQr(background_color=(1, 1, 1, 1))
        view.add_widget(big)
        view.bind(on_dismiss=lambda *_: setattr(self, "enlarged", None))
        self.enlarged = view
        view.open()

    def close_enlarged(self) -> None:
        """Close the full-screen view, if open: it belongs to its screen (it is the
        window's child, so it would otherwise stay over whatever comes next)."""
        view = self.enlarged
        if view is not None:
            view.dismiss(animation=False)
            self.enlarged = None


def draw_matrix(widget: Widget, matrix: tuple[tuple[bool, ...], ...]) -> None:
    """Whole pixels per module (a blurred module edge is what makes scans fail)."""
    count = len(matrix) + 4  # quiet zone of 2 modules each side
    module = max(1, int(min(widget.width, widget.height) // count))
    side = module * count
    x0 = int(widget.x + (widget.width - side) / 2)
    y0 = int(widget.y + (widget.height - side) / 2)
    with widget.canvas:
        Color(1, 1, 1, 1)
        Rectangle(pos=(x0, y0), size=(side, side))
        Color(0, 0, 0, 1)
        for r, row in enumerate(matrix):
            for c, dark in enumerate(row):
                if dark:
                    Rectangle(
                        pos=(x0 + (c + 2) * module, y0 + side - (r + 3) * module),
                        size=(module, module),
                    )
