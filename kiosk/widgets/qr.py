"""A QR code of the BG Stats link, if a QR library (segno or qrcode) is installed."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.uix.widget import Widget

QR_HEIGHT = 170


def qr_available() -> bool:
    return any(importlib.util.find_spec(name) is not None for name in ("segno", "qrcode"))


def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...] | None:
    """The QR modules of ``text`` (True = dark), or None without a QR library."""
    if importlib.util.find_spec("segno") is not None:
        segno: Any = importlib.import_module("segno")
        code = segno.make(text, error="l")
        return tuple(tuple(bool(m) for m in row) for row in code.matrix)
    if importlib.util.find_spec("qrcode") is not None:
        qrcode: Any = importlib.import_module("qrcode")
        qr = qrcode.QRCode(border=0)
        qr.add_data(text)
        qr.make(fit=True)
        return tuple(tuple(bool(m) for m in row) for row in qr.get_matrix())
    return None


class QrCode(Widget):  # type: ignore[misc]
    """Dark modules on a white quiet zone, as phone cameras expect even at night."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.matrix: tuple[tuple[bool, ...], ...] | None = None
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, text: str | None) -> None:
        self.matrix = None if text is None else qr_matrix(text)
        self.height = QR_HEIGHT if self.matrix else 0
        self.redraw()

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if not self.matrix:
            return
        count = len(self.matrix) + 4  # quiet zone of 2 modules each side
        side = min(self.width, self.height)
        module = side / count
        x0 = self.x + (self.width - side) / 2
        y0 = self.y
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(pos=(x0, y0), size=(side, side))
            Color(0, 0, 0, 1)
            for r, row in enumerate(self.matrix):
                for c, dark in enumerate(row):
                    if dark:
                        Rectangle(
                            pos=(x0 + (c + 2) * module, y0 + side - (r + 3) * module),
                            size=(module, module),
                        )
