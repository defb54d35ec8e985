"""What the on-screen board draws: the same winning highlight per cell as the LEDs.

The board widget and the LED renderer both go through
:func:`firmware_bridge.leds.render.winning_highlights` with the game's palette, so a
table without LEDs sees exactly what the strip would show (colour and role per cell).
Geometry is normalised (0..1, y down = north at the top) so widgets only scale it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from companion.highlights import Highlight, Role
from firmware_bridge.leds.palette import Palette, palette_for_game
from firmware_bridge.leds.render import winning_highlights
from firmware_bridge.leds.strip import Frame
from kiosk.presenters.common import RGB

KOLOSSUS_SIZE = 11
CellShape = Literal["square", "circle"]


@dataclass(frozen=True)
class CellGeometry:
    cell: str
    x: float  # centre, 0..1 west → east
    y: float  # centre, 0..1 north → south
    size: float  # width/diameter as a fraction of the board's width


@dataclass(frozen=True)
class BoardGeometry:
    shape: CellShape
    cells: tuple[CellGeometry, ...]
    aspect: float = 1.0  # height / width

    def cell_at(self, x: float, y: float) -> str | None:
        """The cell under a normalised point (for taps), or None."""
        best: tuple[float, str] | None = None
        for c in self.cells:
            dx = (x - c.x) / (c.size / 2)
            dy = (y - c.y) / (c.size / 2 / max(self.aspect, 1e-6))
            distance = dx * dx + dy * dy
            inside = max(abs(dx), abs(dy)) <= 1.0 if self.shape == "square" else distance <= 1.0
            if inside and (best is None or distance < best[0]):
                best = (distance, c.cell)
        return None if best is None else best[1]


@dataclass(frozen=True)
class CellLook:
    cell: str
    role: Role
    colour: RGB
    level: float
    step: int | None
    player: int | None


@dataclass(frozen=True)
class Decoration:
    """A piece, level or counter drawn on a cell (text so it stays readable when small)."""

    cell: str
    text: str
    colour: RGB = (235, 235, 235)


@dataclass(frozen=True)
class BoardView:
    geometry: BoardGeometry
    looks: Mapping[str, CellLook]
    decorations: tuple[Decoration, ...] = ()
    focus: str | None = None
    base: Mapping[str, RGB] | None = None  # unlit colour per cell (landscape, water)


def grid_geometry(rows: int = KOLOSSUS_SIZE, cols: int = KOLOSSUS_SIZE) -> BoardGeometry:
    """Square cells ``"r,c"``, row 0 at the top (north)."""
    size = 1.0 / cols
    cells = tuple(
        CellGeometry(cell=f"{r},{c}", x=(c + 0.5) / cols, y=(r + 0.5) / rows, size=size)
        for r in range(rows)
        for c in range(cols)
    )
    return BoardGeometry(shape="square", cells=cells, aspect=rows / cols)


def positions_geometry(positions: Mapping[str, tuple[float, float]]) -> BoardGeometry:
    """Round cells at drawing positions in cell units (island boards, LED layouts)."""
    if not positions:
        return BoardGeometry(shape="circle", cells=())
    width = max(x for x, _ in positions.values()) + 1.0
    height = max(y for _, y in positions.values()) + 1.0
    cells = tuple(
        CellGeometry(cell=cell, x=(x + 0.5) / width, y=(y + 0.5) / height, size=0.9 / width)
        for cell, (x, y) in positions.items()
    )
    return BoardGeometry(shape="circle", cells=cells, aspect=height / width)


def cell_looks(
    highlights: Iterable[Highlight], palette: Palette, fix_step: int | None = None
) -> dict[str, CellLook]:
    """The winning highlight of each cell, coloured by the game's LED palette."""
    looks = {}
    for cell, h in winning_highlights(highlights, palette, fix_step).items():
        looks[cell] = CellLook(
            cell=cell,
            role=h.role,
            colour=palette.colour(h.role, h.player),
            level=palette.level(h.role),
            step=h.step,
            player=h.player,
        )
    return looks


def board_view(
    game: str,
    geometry: BoardGeometry,
    highlights: Iterable[Highlight],
    *,
    fix_step: int | None = None,
    decorations: tuple[Decoration, ...] = (),
    focus: str | None = None,
    base: Mapping[str, RGB] | None = None,
) -> BoardView:
    return BoardView(
        geometry=geometry,
        looks=cell_looks(highlights, palette_for_game(game), fix_step),
        decorations=decorations,
        focus=focus,
        base=base,
    )


@dataclass(frozen=True)
class LedDot:
    x: float
    y: float
    colour: RGB


def led_mirror_dots(
    positions: Mapping[str, tuple[float, float]],
    cells: Mapping[str, tuple[int, ...]],
    frame: Frame,
) -> tuple[LedDot, ...]:
    """One dot per LED at its cell's position (several LEDs of a cell side by side)."""
    if not positions:
        return ()
    width = max(x for x, _ in positions.values()) + 1.0
    height = max(y for _, y in positions.values()) + 1.0
    dots = []
    for cell, leds in cells.items():
        x, y = positions.get(cell, (0.0, 0.0))
        n = len(leds)
        for i, index in enumerate(leds):
            if 0 <= index < len(frame):
                offset = 0.0 if n == 1 else (i / (n - 1) - 0.5) * 0.6
                dots.append(
                    LedDot(
                        x=(x + 0.5 + offset) / width,
                        y=(y + 0.5) / height,
                        colour=frame[index],
                    )
                )
    return tuple(dots)
