"""The island board's marks on the canvas: a shape per kind of thing, a letter or number
on each, the space's label, and the legend under the board (the marks and their words:
kiosk/presenters/island.py).

Inside a space (its drawn disc ``D`` across): the label top left, what lies face up top
right (or alone at the top), the pieces in a row below the middle, a second row under it
when more than three share the space. A mark is a few instructions: the board keeps each
space's layer and swaps it whole when the space changes (kiosk/widgets/board.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.graphics import Color, InstructionGroup, Line, Rectangle, SmoothEllipse, SmoothLine
from kivy.graphics.texture import Texture

from kiosk.presenters.board import Decoration
from kiosk.presenters.common import RGB
from kiosk.presenters.island import FEATURE_TEXT, MARK_COLOURS, MarkKind

#: The texture of a text at a size (the board widget's cache of them).
TextureOf = Callable[[str, int], Texture]
Box = tuple[float, float, float, float]

FEATURE_KINDS = frozenset({"unexplored", "loot", "environment", "grass", "lair", "water"})
#: Marks filled with a light colour carry dark text, the others light text.
DARK = (0.0, 0.0, 0.0, 1.0)
LIGHT = (1.0, 1.0, 1.0, 1.0)
#: The shape of each mark: ``(kind of instruction, segments)``; a polygon's first corner
#: points north (a triangle points up, four segments make a diamond).
SHAPES: dict[str, tuple[str, int]] = {
    "square": ("square", 0),
    "disc": ("disc", 24),
    "star": ("star", 3),
    "flag": ("flag", 0),
    "diamond": ("polygon", 4),
    "more": ("text", 0),
    "loot": ("coin", 24),
    "environment": ("polygon", 6),
    "grass": ("polygon", 8),
    "lair": ("polygon", 5),
    "unexplored": ("text", 0),
    "water": ("text", 0),
    "label": ("text", 0),
}
#: Text inside a shape, as a part of its size.
TEXT_PART = 0.72


def _rgba(colour: RGB, alpha: float = 1.0) -> tuple[float, float, float, float]:
    r, g, b = colour
    return (r / 255, g / 255, b / 255, alpha)


def _ink(colour: RGB) -> tuple[float, float, float, float]:
    r, g, b = colour
    return DARK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else LIGHT


def _text(
    group: InstructionGroup, texture_of: TextureOf, text: str, size: int, cx: float, cy: float
) -> None:
    if not text:
        return
    texture = texture_of(text, size)
    group.add(
        Rectangle(
            texture=texture,
            pos=(cx - texture.width / 2, cy - texture.height / 2),
            size=texture.size,
        )
    )


def draw_mark(
    group: InstructionGroup,
    texture_of: TextureOf,
    kind: str,
    text: str,
    colour: RGB,
    centre: tuple[float, float],
    size: float,
) -> None:
    """One mark: its shape in ``colour`` (dark-edged, to stand out on any lit space) and
    its text; the kinds drawn as text only (label, unexplored, Water) in ``colour``."""
    cx, cy = centre
    shape, segments = SHAPES.get(kind, ("disc", 24))
    font = max(11, int(size * TEXT_PART))
    if shape == "star":  # two triangles, spikes all round: the text in the middle
        size *= 1.3
        font = max(10, int(size * 0.45))
    if shape == "text":
        if not text:
            return
        font = max(11, int(size * (1.0 if kind == "label" else 0.9)))
        texture = texture_of(text, font)
        # On a dark backing: readable on any light a space is lit with (a white focus).
        group.add(Color(0, 0, 0, 0.8))
        width, height = texture.width + 4, texture.height
        group.add(Rectangle(pos=(cx - width / 2, cy - height / 2), size=(width, height)))
        group.add(Color(*_rgba(colour)))
        _text(group, texture_of, text, font, cx, cy)
        return
    half = size / 2
    group.add(Color(0, 0, 0, 0.75))  # the edge: a dark outline one pixel or two wide
    edge = max(1.5, size * 0.08)
    if shape == "square":
        group.add(Rectangle(pos=(cx - half - edge, cy - half - edge), size=(size + 2 * edge,) * 2))
        group.add(Color(*_rgba(colour)))
        group.add(Rectangle(pos=(cx - half, cy - half), size=(size, size)))
    elif shape == "flag":
        pole = cx - half
        group.add(
            Rectangle(
                pos=(pole - edge, cy - half - edge), size=(size + edge * 2, size * 0.7 + edge * 2)
            )
        )
        group.add(Color(*_rgba(colour)))
        group.add(Rectangle(pos=(pole, cy - half + size * 0.3 - edge), size=(size, size * 0.7)))
        group.add(Line(points=(pole, cy - half - edge, pole, cy + half), width=max(1.0, edge)))
        cy += size * 0.15 - edge / 2
    elif shape == "star":
        pos, across = (cx - half - edge, cy - half - edge), size + 2 * edge
        for start in (0, 60):  # pointing up, pointing down
            turn = {"angle_start": start, "angle_end": start + 360}
            group.add(SmoothEllipse(pos=pos, size=(across, across), segments=3, **turn))
        group.add(Color(*_rgba(colour)))
        for start in (0, 60):
            turn = {"angle_start": start, "angle_end": start + 360}
            group.add(
                SmoothEllipse(pos=(cx - half, cy - half), size=(size, size), segments=3, **turn)
            )
    else:
        pos, across = (cx - half - edge, cy - half - edge), size + 2 * edge
        extra = {"segments": segments} if shape == "polygon" else {}
        group.add(SmoothEllipse(pos=pos, size=(across, across), **extra))
        group.add(Color(*_rgba(colour)))
        group.add(SmoothEllipse(pos=(cx - half, cy - half), size=(size, size), **extra))
        if shape == "coin":  # a coin's rim
            group.add(Color(0, 0, 0, 0.45))
            group.add(SmoothLine(circle=(cx, cy, half * 0.78), width=max(1.0, edge * 0.6)))
    group.add(Color(*_ink(colour)))
    _text(group, texture_of, text, font, cx, cy)


def island_layer(
    texture_of: TextureOf, marks: Sequence[Decoration], rect: tuple[float, float, float]
) -> InstructionGroup:
    """A space's marks (kiosk/presenters/island.py order: what lies face up, the
    pieces, the label) drawn inside its disc."""
    group = InstructionGroup()
    cx, cy, side = rect
    disc = side * 0.9
    feature = [m for m in marks if m.kind in FEATURE_KINDS]
    label = [m for m in marks if m.kind == "label"]
    pieces = [m for m in marks if m.kind not in FEATURE_KINDS and m.kind != "label"]
    top = cy + disc * 0.33
    small = disc * 0.26
    if label:
        x = cx - disc * 0.17 if feature else cx
        draw_mark(group, texture_of, "label", label[0].text, label[0].colour, (x, top), small * 0.8)
    for mark in feature[:1]:
        x = cx + disc * 0.2 if label else cx
        draw_mark(group, texture_of, mark.kind, mark.text, mark.colour, (x, top), small)
    two_rows = len(pieces) > 3
    size = disc * (0.3 if two_rows else 0.33)
    rows = [pieces[:3], pieces[3:6]] if two_rows else [pieces]
    heights = (cy + disc * 0.05, cy - disc * 0.28) if two_rows else (cy - disc * 0.1,)
    for row, y in zip(rows, heights, strict=True):
        step = size * 1.1
        x0 = cx - step * (len(row) - 1) / 2
        for i, mark in enumerate(row):
            draw_mark(
                group, texture_of, mark.kind, mark.text, mark.colour, (x0 + i * step, y), size
            )
    return group


#: The legend's line height and the size of its marks (px).
LEGEND_LINE = 24
LEGEND_MARK = 16
#: What a mark shows in the legend, where it is nobody's in particular: a count on a disc
#: or a diamond, a letter in a star.
LEGEND_TEXT: dict[MarkKind, str] = {"disc": "2", "star": "B", "diamond": "3", **FEATURE_TEXT}


def draw_legend(
    group: InstructionGroup,
    texture_of: TextureOf,
    entries: Sequence[tuple[MarkKind, str]],
    box: Box,
    font: int,
    ink: tuple[float, float, float, float],
) -> None:
    """The legend's entries in ``box``: a mark and its words each, line after line (the
    ones that do not fit are left out)."""
    group.clear()
    x0, y0, width, height = box
    if height < LEGEND_LINE or not entries:
        return
    x, y = x0, y0 + height - LEGEND_LINE / 2
    for kind, words in entries:
        texture = texture_of(words, font)
        needed = LEGEND_MARK + 6 + texture.width + 14
        if x + needed > x0 + width and x > x0:
            x, y = x0, y - LEGEND_LINE
        if y < y0 + LEGEND_LINE / 2 - 1:
            return
        colour = MARK_COLOURS.get(kind, (200, 200, 200))
        draw_mark(
            group,
            texture_of,
            kind,
            LEGEND_TEXT.get(kind, ""),
            colour,
            (x + LEGEND_MARK / 2, y),
            LEGEND_MARK,
        )
        group.add(Color(*ink))
        group.add(
            Rectangle(
                texture=texture,
                pos=(x + LEGEND_MARK + 6, y - texture.height / 2),
                size=texture.size,
            )
        )
        x += needed
