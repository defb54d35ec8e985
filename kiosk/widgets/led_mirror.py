"""The LED mirror: the exact frame the strip gets, drawn at the layout's positions."""

from __future__ import annotations

from kivy.graphics import Color, Rectangle, SmoothEllipse
from kivy.uix.widget import Widget

from firmware_bridge.leds.sim import perceived
from firmware_bridge.leds.strip import Frame
from kiosk import theme
from kiosk.presenters.board import LedDot, led_mirror_dots

# A dot a few pixels wide looks round with 16 sides; Kivy's default 180 makes each
# mirror redraw ~3x slower under software GL.
LED_SEGMENTS = 16


class LedMirror(Widget):  # type: ignore[misc]
    """Feed it ``show_frame(frame)`` with the frame shipped to the strip."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.positions: dict[str, tuple[float, float]] = {}
        self.cells: dict[str, tuple[int, ...]] = {}
        self.dots: tuple[LedDot, ...] = ()
        self.aspect = 1.0
        self.bind(pos=self.redraw, size=self.redraw)

    def set_layout(
        self, positions: dict[str, tuple[float, float]], cells: dict[str, tuple[int, ...]]
    ) -> None:
        self.positions, self.cells = dict(positions), dict(cells)
        if positions:
            width = max(x for x, _ in positions.values()) + 1.0
            height = max(y for _, y in positions.values()) + 1.0
            self.aspect = height / width

    def show_frame(self, frame: Frame) -> None:
        self.dots = led_mirror_dots(self.positions, self.cells, frame)
        self.redraw()

    def redraw(self, *_: object) -> None:
        self.canvas.clear()
        width = min(self.width, self.height / self.aspect)
        height = width * self.aspect
        x0 = self.x + (self.width - width) / 2
        y0 = self.y + (self.height - height) / 2
        count = max(1, len(self.positions))
        side = max(3.0, min(width, height) / (count**0.5) * 0.6)
        with self.canvas:
            Color(0.02, 0.02, 0.03, 1)
            Rectangle(pos=(x0, y0), size=(width, height))
            for dot in self.dots:
                # Strip values are gamma-corrected; draw them as the eye sees the LEDs,
                # and unlit LEDs as dark rings so the layout stays visible.
                if dot.colour == (0, 0, 0):
                    Color(0.09, 0.1, 0.12, 1)
                else:
                    Color(*theme.rgb_to_rgba(perceived(dot.colour)))
                SmoothEllipse(
                    pos=(x0 + dot.x * width - side / 2, y0 + height - dot.y * height - side / 2),
                    size=(side, side),
                    segments=LED_SEGMENTS,
                )
