"""A simulated strip: keeps the frames it is shown and draws them as a PNG.

It runs the same code path as a real strip (the base class checks the same contract),
so a table without LEDs, the tests and the shop demo all see exactly what the LEDs
would show. Frames hold PWM duty (after gamma); the drawings undo the gamma so that a
screen shows roughly what the eye sees on the board.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable
from pathlib import Path

from firmware_bridge.layout import LedLayout
from firmware_bridge.leds.render import DEFAULT_GAMMA
from firmware_bridge.leds.strip import RGB, Frame, LedStrip, StripError

BOARD_BACKGROUND: RGB = (24, 24, 28)
DARK_CELL: RGB = (45, 45, 52)


def perceived(colour: RGB, gamma: float = DEFAULT_GAMMA) -> RGB:
    """Undo the renderer's gamma: PWM duty → the level a screen should show."""
    r, g, b = colour
    return (
        round(255 * (r / 255) ** (1 / gamma)),
        round(255 * (g / 255) ** (1 / gamma)),
        round(255 * (b / 255) ** (1 / gamma)),
    )


class SimStrip(LedStrip):
    """An in-memory strip that remembers the last ``history`` frames (thread-safe)."""

    def __init__(self, count: int, history: int = 256) -> None:
        super().__init__(count)
        if history < 1:
            raise ValueError("A simulated strip must keep at least one frame.")
        self._frames: deque[Frame] = deque(maxlen=history)
        self._lock = threading.Lock()
        self.shown = 0  # frames shipped since begin(), including those dropped from history

    def _open(self) -> None:
        return None

    def _ship(self, frame: Frame) -> None:
        with self._lock:
            self._frames.append(frame)
            self.shown += 1

    def _release(self) -> None:
        return None

    @property
    def frames(self) -> tuple[Frame, ...]:
        """The kept frames, oldest first."""
        with self._lock:
            return tuple(self._frames)

    @property
    def last_frame(self) -> Frame | None:
        with self._lock:
            return self._frames[-1] if self._frames else None

    def _frame_to_draw(self, frame: Frame | None) -> Frame:
        chosen = frame if frame is not None else self.last_frame
        if chosen is None:
            raise StripError("The simulated strip has not shown a frame yet.")
        return chosen

    def to_png(
        self,
        path: Path,
        layout: LedLayout,
        frame: Frame | None = None,
        cell_px: int = 40,
        labels: bool = False,
    ) -> Path:
        """Draw the board: one square (or circle, for island spaces) per cell at its position."""
        from PIL import Image, ImageDraw  # lazy: only drawings need Pillow

        shown = self._frame_to_draw(frame)
        width, height = layout.size
        margin = cell_px // 4
        image = Image.new(
            "RGB",
            (round(width * cell_px) + 2 * margin, round(height * cell_px) + 2 * margin),
            BOARD_BACKGROUND,
        )
        draw = ImageDraw.Draw(image)
        gap = max(1, cell_px // 10)
        for cell, leds in layout.cells.items():
            x, y = layout.positions[cell]
            left = margin + round(x * cell_px) + gap
            top = margin + round(y * cell_px) + gap
            box = (left, top, left + cell_px - 2 * gap, top + cell_px - 2 * gap)
            colour = _brightest(shown[i] for i in leds if i < len(shown))
            fill = perceived(colour) if colour != (0, 0, 0) else DARK_CELL
            if layout.shape == "circle":
                draw.ellipse(box, fill=fill)
            else:
                draw.rectangle(box, fill=fill)
            if labels:
                text_colour = (0, 0, 0) if sum(fill) > 380 else (200, 200, 200)
                draw.text((left + 2, top + 1), str(min(leds)), fill=text_colour)
        path.parent.mkdir(parents=True, exist_ok=True)
        image.save(path, format="PNG")
        return path


def _brightest(pixels: Iterable[RGB]) -> RGB:
    best: RGB = (0, 0, 0)
    for pixel in pixels:
        if sum(pixel) > sum(best):
            best = pixel
    return best
