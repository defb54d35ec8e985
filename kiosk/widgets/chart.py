"""A score line chart drawn with Kivy graphics (no plotting library on the Pi)."""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle, SmoothLine
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.scores import ChartSeries

MARGIN = 10


class ScoreChart(Widget):  # type: ignore[misc]
    """One polyline per player over the rounds; points are normalised by the presenter."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.series: tuple[ChartSeries, ...] = ()
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, series: tuple[ChartSeries, ...]) -> None:
        self.series = series
        self.redraw()

    def redraw(self, *_: object) -> None:
        self.canvas.clear()
        x0, y0 = self.x + MARGIN, self.y + MARGIN
        width, height = max(1, self.width - 2 * MARGIN), max(1, self.height - 2 * MARGIN)
        with self.canvas:
            Color(*theme.SURFACE)
            Rectangle(pos=self.pos, size=self.size)
            Color(*theme.BORDER)
            for i in range(5):
                y = y0 + height * i / 4
                Line(points=[x0, y, x0 + width, y], width=1)
            for series in self.series:
                Color(*theme.rgb_to_rgba(series.colour))
                points: list[float] = []
                for px, py in series.points:
                    points.extend((x0 + px * width, y0 + py * height))
                if len(points) >= 4:
                    SmoothLine(points=points, width=2.5)
                for i in range(0, len(points), 2):
                    SmoothLine(circle=(points[i], points[i + 1], 4), width=2)
