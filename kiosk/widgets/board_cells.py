"""A board cell's instructions: its base colour and shape, and the layers over it.

The on-screen board (:mod:`kiosk.widgets.board`) keeps a :class:`DrawnCell` per shown
cell and draws over it a look layer (ring or fill in the LED colour, the focus ring, a
step number) and a text layer (pieces and levels on dark discs, an island's marks),
each made by a function here; the zoomed board's miniature and the grid's edge numbers
are drawn here too. A layer's instructions are costly to make, so a cell keeps the last
few it showed and a look of the same form is repainted in place (:func:`paint_look`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping

from kivy.graphics import Color, InstructionGroup, Line, Rectangle, SmoothEllipse, SmoothLine
from kivy.graphics.instructions import Instruction
from kivy.graphics.texture import Texture

from companion.highlights import Role
from kiosk import theme
from kiosk.presenters.board import BoardView, CellLook, Decoration
from kiosk.presenters.common import RGB
from kiosk.theme import RGBA
from kiosk.widgets.board_layout import BoardLayout, Rect
from kiosk.widgets.island import island_layer

#: Makes (or finds cached) the texture of a text at a font size: the board's own cache.
TextureOf = Callable[[str, int], Texture]

#: Roles that often cover much of the board: drawn as rings in the role's colour (a
#: guided-setup step's too: the landscape and the pieces it is about stay readable).
RING_ROLES = frozenset(
    {
        Role.SELECTABLE,
        Role.QUAKE_REGION,
        Role.HARVESTABLE,
        Role.CITADEL,
        Role.REBIRTH,
        Role.ROLL,
        Role.SETUP,
    }
)

#: Overlay layers kept per cell (looks and texts together, each for the place it was
#: drawn at): a selectable ring, a destination and a text or two cover most of what a
#: cell goes through, at the board's two usual sizes (with and without a banner).
LAYERS_KEPT = 6

#: What a cell shows over its base colour: its look, whether it is the focus, its texts.
OverlayKey = tuple[CellLook | None, bool, tuple[Decoration, ...]]
#: What a kept layer draws and where: its look or texts, and the cell's place and size.
LayerKey = tuple[object, ...]
BARE: OverlayKey = (None, False, ())
#: The instructions a look needs, whatever its colours: ring or fill (dim or full size),
#: the focus ring, a step number. Looks of one form differ by colours and text only.
LookForm = tuple[str | None, bool, bool]


def look_form(look: CellLook | None, focused: bool) -> LookForm:
    if look is None:
        return (None, focused, False)
    kind = "ring" if look.role in RING_ROLES else ("dim" if look.level < 0.5 else "full")
    return (kind, focused, look.step is not None)


@functools.lru_cache(maxsize=256)
def look_rgba(look: CellLook) -> tuple[float, float, float, float]:
    """A look's colour on the screen: rings opaque, fills as lit as the LED."""
    alpha = 1.0 if look.role in RING_ROLES else max(0.45, look.level)
    return theme.rgb_to_rgba(look.colour, alpha)


class LookLayer(InstructionGroup):  # type: ignore[misc]
    """A cell's look layer of one :data:`LookForm`, repainted in place for another look
    of that form: setting a colour costs a tenth of making the instructions again."""

    colour: Color | None = None  # the ring's or the fill's
    step: Rectangle | None = None  # the step number
    step_size = 12


# --- the instructions of one cell -------------------------------------------------------


class DrawnCell:
    """A cell's instructions: its base colour and shape (moved and recoloured in place)
    and a group for what lies over it: its look (ring or fill, focus, step) under its
    texts (pieces, levels), two layers swapped in whole.

    A layer's instructions are costly to make (a smooth disc behind a piece's text is
    about as much work as the rest of a touch's drawing), while a touch changes the
    looks of a few cells and seldom their texts: each layer is kept per cell for the
    last few looks and texts it showed, each for the place it was drawn at (a banner
    shown and hidden moves the board between two sizes), and a change of look swaps the
    look layer alone.
    """

    __slots__ = ("base", "color", "key", "layers", "look", "overlay", "shape", "texts")

    def __init__(
        self, base: RGB | None, color: Color, shape: Instruction, overlay: InstructionGroup
    ) -> None:
        self.base = base
        self.color = color
        self.shape = shape
        self.overlay = overlay
        self.look = InstructionGroup()  # holds the look layer shown (or nothing)
        self.texts = InstructionGroup()  # holds the text layer shown (or nothing)
        overlay.add(self.look)
        overlay.add(self.texts)
        self.key: OverlayKey = BARE
        #: Layers made for this cell, by what they draw and where (oldest dropped first).
        self.layers: dict[LayerKey, InstructionGroup] = {}

    def premake_layer(self, key: LayerKey, make: Callable[[], InstructionGroup]) -> None:
        """Keep ``make()``'s layer for ``key`` without showing it, unless the cell has
        one already or no room (no kept layer is dropped for it)."""
        if key not in self.layers and len(self.layers) < LAYERS_KEPT:
            self.layers[key] = make()

    def show_layer(
        self, slot: InstructionGroup, key: LayerKey, make: Callable[[], InstructionGroup]
    ) -> InstructionGroup:
        """Put the layer drawing ``key`` in ``slot``: a kept one, else ``make()``'s."""
        slot.clear()
        layer = self.layers.pop(key, None)  # popped and set again: the newest
        if layer is None:
            layer = make()
            if len(self.layers) >= LAYERS_KEPT:
                del self.layers[next(iter(self.layers))]
        self.layers[key] = layer
        slot.add(layer)
        return layer


def base_rgba(base: RGB | None) -> RGBA:
    return theme.rgb_to_rgba(base) if base else theme.SURFACE_HIGH


def minimap_rgba(look: CellLook | None, base: RGB | None) -> RGBA:
    if look is not None:
        return theme.rgb_to_rgba(look.colour)
    if base is not None:
        return theme.rgb_to_rgba(base)
    return theme.SURFACE_HIGH


def by_cell(decorations: tuple[Decoration, ...]) -> dict[str, tuple[Decoration, ...]]:
    found: dict[str, list[Decoration]] = {}
    for deco in decorations:
        found.setdefault(deco.cell, []).append(deco)
    return {cell: tuple(texts) for cell, texts in found.items()}


def differing(old: Mapping[str, object], new: Mapping[str, object]) -> Iterable[str]:
    """The keys whose values differ between two mappings (missing = None)."""
    if old is new or old == new:
        return ()
    return [key for key in old.keys() | new.keys() if old.get(key) != new.get(key)]


def overlay_key(
    view: BoardView, cell: str, decorations: Mapping[str, tuple[Decoration, ...]]
) -> OverlayKey:
    """What ``cell`` shows over its base colour in ``view``."""
    return (view.looks.get(cell), cell == view.focus, decorations.get(cell, ()))


def look_layer(form: LookForm, rect: Rect, circle: bool) -> LookLayer:
    """The instructions of a look of ``form`` on this cell, painted by
    :func:`paint_look`: a ring or fill in the LED colour, the focus ring, the step."""
    kind, focused, step = form
    group = LookLayer()
    cx, cy, side = rect
    inner = side * 0.9
    pos = (cx - inner / 2, cy - inner / 2)
    shape = SmoothEllipse if circle else Rectangle
    if kind == "ring":
        # Wide areas (pieces that may act, quake regions) as rings in the
        # LED colour: the landscape stays readable and the screen dim.
        group.colour = Color(0, 0, 0, 0)
        group.add(group.colour)
        ring = max(2.0, inner * 0.09)
        if circle:
            group.add(SmoothLine(circle=(cx, cy, inner / 2 - ring / 2), width=ring))
        else:
            group.add(Line(rectangle=(*pos, inner, inner), width=ring, joint="miter"))
    elif kind is not None:
        # The LED colour over the landscape; dim roles stay see-through.
        group.colour = Color(0, 0, 0, 0)
        group.add(group.colour)
        lit = inner * (0.8 if kind == "dim" else 1.0)
        group.add(shape(pos=(cx - lit / 2, cy - lit / 2), size=(lit, lit)))
    if focused:
        group.add(Color(*theme.TEXT))
        if circle:
            group.add(SmoothLine(circle=(cx, cy, inner / 2), width=2))
        else:
            group.add(Line(rectangle=(*pos, inner, inner), width=2))
    if step:
        group.add(Color(0, 0, 0, 1))
        group.step = Rectangle()
        group.step_size = max(12, int(inner * 0.45))
        group.add(group.step)
    return group


def paint_look(layer: LookLayer, look: CellLook | None, rect: Rect, texture_of: TextureOf) -> None:
    """``look``'s colour and step number on a layer of its form."""
    if look is None:
        return
    if layer.colour is not None:
        layer.colour.rgba = look_rgba(look)
    if layer.step is not None and look.step is not None:
        texture = texture_of(f"{look.step}", layer.step_size)
        if layer.step.texture is not texture:
            cx, cy, _ = rect
            layer.step.texture = texture
            layer.step.pos = (cx - texture.width / 2, cy - texture.height / 2)
            layer.step.size = texture.size


def text_layer(
    texts: tuple[Decoration, ...], rect: Rect, texture_of: TextureOf
) -> InstructionGroup:
    """A cell's pieces and levels: up to two texts on dark discs (an island's marks:
    kiosk/widgets/island.py)."""
    if texts[0].kind != "text":
        return island_layer(texture_of, texts, rect)
    group = InstructionGroup()
    cx, cy, side = rect
    inner = side * 0.9
    for i, deco in enumerate(texts[:2]):
        texture = texture_of(deco.text, max(12, int(inner * 0.5)))
        offset = (0.5 - i) * inner * 0.42 if len(texts) > 1 else 0.0
        disc = max(texture.width, texture.height) + 2
        group.add(Color(0, 0, 0, 0.7))
        group.add(
            SmoothEllipse(
                pos=(cx - disc / 2, cy - disc / 2 + offset), size=(disc, disc), segments=24
            )
        )
        group.add(Color(*theme.rgb_to_rgba(deco.colour)))
        group.add(
            Rectangle(
                texture=texture,
                pos=(cx - texture.width / 2, cy - texture.height / 2 + offset),
                size=texture.size,
            )
        )
    return group


def draw_edges(group: InstructionGroup, layout: BoardLayout, texture_of: TextureOf) -> None:
    """The row numbers west of the grid and the column numbers north of it, as the
    physical board is numbered (only the rows and columns a zoomed view shows)."""
    group.clear()
    if not layout.edges:
        return
    group.add(Color(*theme.TEXT_DIM))
    for text, x, y in layout.edges:
        texture = texture_of(text, theme.FONT_SMALL)
        group.add(
            Rectangle(
                texture=texture,
                pos=(x - texture.width / 2, y - texture.height / 2),
                size=texture.size,
            )
        )


def draw_strip(strip: InstructionGroup, view: BoardView, layout: BoardLayout) -> dict[str, Color]:
    """Draw the whole board in miniature into ``strip`` (lit cells, the zoomed part
    framed; the board places the "Whole board" button beside it); the colour of each
    cell's square, by cell, to recolour in place as looks change."""
    colours: dict[str, Color] = {}
    mx, my, mw, mh = layout.minimap
    strip.add(Color(*theme.SURFACE))
    strip.add(Rectangle(pos=(mx, my), size=(mw, mh)))
    base = view.base or {}
    for cell in view.geometry.cells:
        color = Color(*minimap_rgba(view.looks.get(cell.cell), base.get(cell.cell)))
        colours[cell.cell] = color
        strip.add(color)
        side = cell.size * mw * 0.85
        strip.add(
            Rectangle(
                pos=(mx + cell.x * mw - side / 2, my + mh - cell.y * mh - side / 2),
                size=(side, side),
            )
        )
    vp = layout.viewport
    strip.add(Color(*theme.TEXT))
    strip.add(
        Line(
            rectangle=(
                mx + vp.left * mw,
                my + mh - (vp.top + vp.span) * mh,
                vp.span * mw,
                vp.span * mh,
            ),
            width=1.5,
        )
    )
    return colours
