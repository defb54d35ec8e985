"""The on-screen board: cells at their positions, lit as the LEDs are lit.

Draws a :class:`~kiosk.presenters.board.BoardView` (the winning highlight per cell,
coloured by the LED palette) and reports taps as cell IDs. Pieces and levels are drawn
as short texts so they stay legible at 33 px per square (the grid's edge numbers take the rest).

Fingers: taps go through :func:`~kiosk.presenters.board.resolve_tap` (a sloppy tap
snaps to the one target cell under the finger; a tap between several targets zooms that
part of the board to squares of at least 48 px). While zoomed, a strip under the board
shows the whole board in miniature with the zoomed part framed (a tap there moves the
zoom) and a **Whole board** button.

Cheap redraws (a touch on a Pi 4 has a few ms): the frame and every cell's rectangle are
computed once per size, position, viewport and geometry (:class:`BoardLayout`); the canvas
instructions of the cells are built once per layout, and a new view only updates the
cells whose look, base colour, focus or decorations changed (the others keep their
instructions untouched); a moved or resized board moves its cells' shapes in place.
``show``, ``zoom`` and moves of the widget only mark the board dirty: it is drawn once,
just before the next frame and after that frame's layouts, however many changes came in.
The board draws in ``canvas.before``, so the "Whole board" button's canvas (a child's,
in ``canvas``) is never cleared with it. A cell's instructions (its look and text layers,
kept per cell) and the edge numbers and miniature are made in
:mod:`kiosk.widgets.board_cells`.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, Rectangle, SmoothEllipse
from kivy.graphics.texture import Texture
from kivy.input.motionevent import MotionEvent
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.board import (
    WHOLE_BOARD,
    BoardView,
    Decoration,
    Viewport,
    resolve_tap,
    zoom_survives,
    zoom_viewport,
)
from kiosk.presenters.island import legend
from kiosk.widgets.basic import KButton
from kiosk.widgets.board_cells import (
    BARE,
    DrawnCell,
    LookForm,
    LookLayer,
    OverlayKey,
    base_rgba,
    by_cell,
    differing,
    draw_edges,
    draw_strip,
    look_form,
    look_layer,
    minimap_rgba,
    overlay_key,
    paint_look,
    text_layer,
)
from kiosk.widgets.board_layout import ZOOM_STRIP, BoardLayout, Rect, layout_of, same_cells
from kiosk.widgets.island import draw_legend

CellTap = Callable[[str], None]
#: A press this long on a square is a long press (``on_cell_hold``): on a simulated
#: sensing board it lifts the miniature there (kiosk/board_sensing.py).
HOLD_S = 0.5

_TEXTURES_KEPT = 256  # piece/level labels cached per widget (a game uses a few dozen)
#: The look a touch lights most cells with: a legal destination's fill. Making its layer
#: is ≈50 k instructions a cell (a Kivy Rectangle alone is ≈21 k), ≈5 M for a piece with
#: a hundred destinations, so once the board is drawn at a new place and has then been
#: still for PREMAKE_AFTER_S, it makes that layer for every cell, PREMADE_PER_BATCH
#: cells at a time (≈0.6 M: a touch meanwhile waits for one batch at most), pausing
#: whenever it draws again.
PREMADE_FORM: LookForm = ("full", False, False)
PREMAKE_AFTER_S = 0.3
PREMADE_PER_BATCH = 12
PREMAKE_BATCH_GAP_S = 0.05


class BoardWidget(Widget):  # type: ignore[misc]
    """A board that keeps its aspect ratio inside its box, zoomable by taps.

    The counters say how much drawing work the board did (tests and benches read them):
    ``redraws`` (passes that drew anything), ``rebuilds`` (every instruction made anew: a
    new viewport or geometry), ``relayouts`` (the board moved or was resized: shapes
    moved in place), ``cells_updated`` (cells whose instructions a new view changed) and
    ``looks_made`` (look layers made while drawing, by :data:`LookForm`: the costly part
    of a touch; kept layers and the ones made ahead while still are not counted).
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.view: BoardView | None = None
        self.viewport: Viewport = WHOLE_BOARD
        self.on_cell: CellTap | None = None
        self.on_cell_hold: CellTap | None = None
        self._labels: dict[tuple[str, int], Texture] = {}
        self._layout_cache: BoardLayout | None = None
        # What is drawn: the view and layout it was drawn for, and each shown cell.
        self._drawn_view: BoardView | None = None
        self._drawn_layout: BoardLayout | None = None
        self._drawn_cells: dict[str, DrawnCell] = {}
        self._minimap_colors: dict[str, Color] = {}
        self._decorations: tuple[tuple[Decoration, ...], dict[str, tuple[Decoration, ...]]] = (
            (),
            {},
        )
        self._drawing = InstructionGroup()
        # Made anew by each rebuild (the first draw is one); moved or cleared in between.
        self._surface = Rectangle()  # the board's background
        self._strip = InstructionGroup()  # the miniature of a zoomed board
        self._edges = InstructionGroup()  # the grid's row and column numbers
        self._legend = InstructionGroup()  # an island's marks in words
        self._legend_drawn: tuple[object, ...] = ()
        self.canvas.before.add(self._drawing)  # the "Whole board" button draws over it
        self.redraws = self.rebuilds = self.relayouts = self.cells_updated = 0
        self.looks_made: Counter[LookForm] = Counter()
        self._redraw_later = Clock.create_trigger(self._before_frame, -1)
        self._waited = False
        # The cells whose destination layer is still to be made (PREMADE_FORM).
        self._premake_cells: list[str] = []
        self._premake_when_still = Clock.create_trigger(self._premake, PREMAKE_AFTER_S)
        self._premake_next = Clock.create_trigger(self._premake, PREMAKE_BATCH_GAP_S)
        self.whole_button = KButton(text="Whole board", font_size=theme.FONT_BODY)
        self.whole_button.bind(on_release=lambda *_: self.show_whole_board())
        self.bind(pos=self._changed, size=self._changed)

    # --- what is shown ------------------------------------------------------------------

    def show(self, view: BoardView) -> None:
        """Draw ``view`` (before the next frame; an unchanged view costs nothing)."""
        if self.viewport.zoomed and not zoom_survives(self.view, view):
            self.viewport = WHOLE_BOARD
        self.view = view
        self._changed()

    def zoom(self, viewport: Viewport) -> None:
        self.viewport = viewport
        self._changed()

    def show_whole_board(self) -> None:
        self.zoom(WHOLE_BOARD)

    def _changed(self, *_: object) -> None:
        """The widgets now (the "Whole board" button: taps and layout checks see it at
        once), the canvas once before the next frame."""
        self._place_button()
        self._redraw_later()

    # --- geometry -----------------------------------------------------------------------

    @property
    def layout(self) -> BoardLayout:
        """Where the board, each shown cell, the edge numbers and a zoomed board's
        miniature are drawn now (computed once per size, place, viewport and geometry)."""
        geometry = self.view.geometry if self.view is not None else None
        key = (self.x, self.y, self.width, self.height, self.viewport, geometry)
        layout = self._layout_cache
        if layout is None or layout.key != key:
            layout = self._layout_cache = layout_of(key, self.viewport, geometry)
        return layout

    def cell_centre(self, cell_id: str) -> tuple[float, float]:
        """Where to tap ``cell_id`` now; KeyError when the zoomed view does not show it."""
        assert self.view is not None
        layout = self.layout
        if cell_id in layout.shown_ids:
            cx, cy, _ = layout.rects[cell_id]
            return cx, cy
        raise KeyError(cell_id)

    def cell_side(self) -> float:
        """The drawn side of the smallest cell (px) in the current view."""
        assert self.view is not None
        return min(side for _, _, side in self.layout.rects.values())

    # --- drawing ------------------------------------------------------------------------

    def texture_of(self, text: str, size: int) -> Texture:
        """The texture of ``text`` in bold at ``size`` (made once, then kept: at most
        _TEXTURES_KEPT of them)."""
        key = (text, size)
        texture = self._labels.get(key)
        if texture is None:
            if len(self._labels) >= _TEXTURES_KEPT:
                self._labels.clear()
            label = CoreLabel(text=text, font_size=size, bold=True)
            label.refresh()
            texture = label.texture
            self._labels[key] = texture
        return texture

    def _place_button(self) -> None:
        """The "Whole board" button beside the miniature while zoomed, gone otherwise."""
        zoomed = self.viewport.zoomed and self.view is not None
        if zoomed and self.whole_button.parent is None:
            self.add_widget(self.whole_button)
        elif not zoomed and self.whole_button.parent is not None:
            self.remove_widget(self.whole_button)
        if zoomed:
            layout = self.layout
            mx, _, mw, _ = layout.minimap
            x0, y0, width, _ = layout.frame
            left = mx + mw + theme.SPACING
            self.whole_button.pos = (left, y0)
            self.whole_button.size = (x0 + width - left, ZOOM_STRIP)

    def _before_frame(self, *_: object) -> None:
        """Draw the changes before the next frame, once the layouts queued so far have run.

        A banner shown or hidden resizes the board in two steps of one frame (its column's
        width follows the play area's height, then the column's layout sets the height):
        waiting one round of the clock's before-frame events draws it once, at its final
        size, instead of twice.
        """
        if not self._waited:
            self._waited = True
            self._redraw_later()  # the same frame still: behind the layouts queued meanwhile
            return
        self.redraw()

    def redraw(self, *_: object) -> None:
        """Bring the canvas up to date now (normally run just before the next frame)."""
        self._redraw_later.cancel()
        self._waited = False
        view = self.view
        if view is None:
            if self._drawn_view is not None or self._drawn_layout is not None:
                self._drawing.clear()
                self._drawn_cells, self._minimap_colors = {}, {}
                self._drawn_view = self._drawn_layout = None
                self.redraws += 1
            return
        layout = self.layout
        drawn = self._drawn_layout
        if self._drawn_view is None or drawn is None or not same_cells(drawn, layout):
            self._rebuild(view, layout)
            self._premake_cells = list(self._drawn_cells)
        elif drawn is not layout:
            self._relayout(view, layout)
            self._premake_cells = list(self._drawn_cells)
        elif self._drawn_view is view or not self._update(view, layout):
            self._drawn_view = view
            return
        self._drawn_view, self._drawn_layout = view, layout
        self.redraws += 1
        self._premake_next.cancel()
        if self._premake_cells:
            self._premake_when_still.cancel()
            self._premake_when_still()

    @property
    def premaking(self) -> bool:
        """Whether destination layers are still to be made (see PREMADE_FORM)."""
        return bool(self._premake_cells)

    def _premake(self, _dt: float = 0.0) -> None:
        """Make the next PREMADE_PER_BATCH cells' destination layers for the place they
        are drawn at now (a touch then only paints and shows them)."""
        layout, view = self._drawn_layout, self._drawn_view
        if layout is None or view is None:
            self._premake_cells = []
            return
        circle = view.geometry.shape == "circle"
        batch = self._premake_cells[:PREMADE_PER_BATCH]
        del self._premake_cells[:PREMADE_PER_BATCH]
        for cell in batch:
            drawn, rect = self._drawn_cells.get(cell), layout.rects.get(cell)
            if drawn is not None and rect is not None:
                drawn.premake_layer(
                    ("look", PREMADE_FORM, rect),
                    functools.partial(look_layer, PREMADE_FORM, rect, circle),
                )
        if self._premake_cells:
            self._premake_next()

    def _decorations_of(self, view: BoardView) -> dict[str, tuple[Decoration, ...]]:
        decorations, found = self._decorations
        if decorations is not view.decorations:
            found = by_cell(view.decorations)
            self._decorations = (view.decorations, found)
        return found

    def _rebuild(self, view: BoardView, layout: BoardLayout) -> None:
        """Every instruction anew: a new viewport or geometry (or the first view)."""
        self.rebuilds += 1
        drawing = self._drawing
        drawing.clear()
        self._drawn_cells = {}
        x0, y0, width, height = layout.board
        drawing.add(Color(*theme.SURFACE))
        self._surface = Rectangle(pos=(x0, y0), size=(width, height))
        drawing.add(self._surface)
        circle = view.geometry.shape == "circle"
        shape = SmoothEllipse if circle else Rectangle  # anti-aliased without MSAA
        base = view.base or {}
        decorations = self._decorations_of(view)
        for cell in layout.shown:
            cx, cy, side = layout.rects[cell.cell]
            inner = side * 0.9
            colour = base.get(cell.cell)
            drawn = DrawnCell(
                colour,
                Color(*base_rgba(colour)),
                shape(pos=(cx - inner / 2, cy - inner / 2), size=(inner, inner)),
                InstructionGroup(),
            )
            drawing.add(drawn.color)
            drawing.add(drawn.shape)
            drawing.add(drawn.overlay)
            self._drawn_cells[cell.cell] = drawn
            key = overlay_key(view, cell.cell, decorations)
            if key != BARE:
                self._draw_overlay(drawn, key, layout.rects[cell.cell], circle)
        self._strip = InstructionGroup()
        drawing.add(self._strip)
        self._edges = InstructionGroup()
        drawing.add(self._edges)
        draw_edges(self._edges, layout, self.texture_of)
        self._legend = InstructionGroup()
        drawing.add(self._legend)
        self._legend_drawn = ()
        self._draw_legend(view, layout)
        self._minimap_colors = {}
        if layout.viewport.zoomed:
            self._minimap_colors = draw_strip(self._strip, view, layout)

    def _relayout(self, view: BoardView, layout: BoardLayout) -> None:
        """The same cells moved or resized: shapes moved in place, overlays redrawn."""
        self.relayouts += 1
        x0, y0, width, height = layout.board
        self._surface.pos, self._surface.size = (x0, y0), (width, height)
        circle = view.geometry.shape == "circle"
        decorations = self._decorations_of(view)
        for cell in layout.shown:
            drawn = self._drawn_cells[cell.cell]
            rect = layout.rects[cell.cell]
            cx, cy, side = rect
            inner = side * 0.9
            drawn.shape.pos = (cx - inner / 2, cy - inner / 2)
            drawn.shape.size = (inner, inner)
            # Drawn again from bare, with the layers kept for this place (a banner shown
            # and hidden again brings the board back to a size it had).
            drawn.look.clear()
            drawn.texts.clear()
            drawn.key = BARE
            key = overlay_key(view, cell.cell, decorations)
            if key != BARE:
                self._draw_overlay(drawn, key, rect, circle)
        self._recolour(view, list(self._drawn_cells))
        self._strip.clear()
        self._minimap_colors = {}
        if layout.viewport.zoomed:
            self._minimap_colors = draw_strip(self._strip, view, layout)
        draw_edges(self._edges, layout, self.texture_of)
        self._draw_legend(view, layout)

    def _update(self, view: BoardView, layout: BoardLayout) -> bool:
        """A new view on the same layout: only the cells whose drawing changed (False:
        nothing did)."""
        old = self._drawn_view
        assert old is not None
        cells = set(differing(old.looks, view.looks))
        if old.focus != view.focus:
            cells.update(cell for cell in (old.focus, view.focus) if cell is not None)
        if old.decorations != view.decorations:
            cells.update(differing(self._decorations_of(old), self._decorations_of(view)))
            self._draw_legend(view, layout)
        if old.base is not view.base:
            cells.update(differing(old.base or {}, view.base or {}))
        if not cells:
            return False
        circle = view.geometry.shape == "circle"
        decorations = self._decorations_of(view)
        updated: set[str] = set()
        for cell in cells:
            drawn = self._drawn_cells.get(cell)
            if drawn is None:
                continue  # outside the zoomed part
            key = overlay_key(view, cell, decorations)
            if key != drawn.key:
                self._draw_overlay(drawn, key, layout.rects[cell], circle)
                updated.add(cell)
        updated.update(self._recolour(view, cells))
        self.cells_updated += len(updated)
        miniature = False  # the zoomed board's miniature shows every cell
        if self._minimap_colors:
            base = view.base or {}
            for cell in cells:
                color = self._minimap_colors.get(cell)
                if color is not None:
                    color.rgba = minimap_rgba(view.looks.get(cell), base.get(cell))
                    miniature = True
        return bool(updated) or miniature

    def _recolour(self, view: BoardView, cells: Iterable[str]) -> set[str]:
        """Base colours changed in place; the cells recoloured."""
        base = view.base or {}
        recoloured = set()
        for cell in cells:
            drawn = self._drawn_cells.get(cell)
            colour = base.get(cell)
            if drawn is not None and colour != drawn.base:
                drawn.base = colour
                drawn.color.rgba = base_rgba(colour)
                recoloured.add(cell)
        return recoloured

    def _draw_overlay(self, drawn: DrawnCell, key: OverlayKey, rect: Rect, circle: bool) -> None:
        """What lies over a cell's base: its look, the focus ring, the step and texts
        (only the layer that changed is swapped; ``rect`` must be this layout's)."""
        look, focused, texts = key
        old_look, old_focused, old_texts = drawn.key
        drawn.key = key
        if (look, focused) != (old_look, old_focused):
            if look is None and not focused:
                drawn.look.clear()
            else:
                form = look_form(look, focused)
                layer = drawn.show_layer(
                    drawn.look, ("look", form, rect), lambda: self._made_look(form, rect, circle)
                )
                paint_look(layer, look, rect, self.texture_of)
        if texts != old_texts:
            if not texts:
                drawn.texts.clear()
            else:
                drawn.show_layer(
                    drawn.texts,
                    ("texts", texts, rect),
                    lambda: text_layer(texts, rect, self.texture_of),
                )

    def _made_look(self, form: LookForm, rect: Rect, circle: bool) -> LookLayer:
        """A new look layer of ``form`` for this cell (counted in ``looks_made``)."""
        self.looks_made[form] += 1
        return look_layer(form, rect, circle)

    def _draw_legend(self, view: BoardView, layout: BoardLayout) -> None:
        """An island's legend under the board: the marks it shows now, in words (drawn
        again only when that list or the place changes)."""
        entries = legend(view.decorations) if layout.legend[3] else ()
        key = (entries, layout.legend)
        if key == self._legend_drawn:
            return
        self._legend_drawn = key
        if not entries:
            self._legend.clear()
            return
        draw_legend(
            self._legend, self.texture_of, entries, layout.legend, theme.FONT_SMALL, theme.TEXT_DIM
        )

    # --- taps ---------------------------------------------------------------------------

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.view is None or not self.collide_point(*touch.pos):
            return False
        if super().on_touch_down(touch):  # the "Whole board" button
            return True
        geometry = self.view.geometry
        layout = self.layout
        if self.viewport.zoomed:
            mx, my, mw, mh = layout.minimap
            if mx <= touch.x <= mx + mw and my <= touch.y <= my + mh:
                point = ((touch.x - mx) / mw, (my + mh - touch.y) / mh)
                moved = zoom_viewport(geometry, point, view_px=layout.zoom_frame[2])
                if moved is not None:
                    self.zoom(moved)
                return True
        x0, y0, width, height = layout.board
        if not (x0 <= touch.x <= x0 + width and y0 <= touch.y <= y0 + height):
            return False
        point = self.viewport.to_board((touch.x - x0) / width, (y0 + height - touch.y) / height)
        result = resolve_tap(
            geometry,
            point,
            self.view.targets,
            view_px=width,
            viewport=self.viewport,
            zoom_px=layout.zoom_frame[2],
        )
        if result.zoom is not None:
            self.zoom(result.zoom)
            return True
        if result.cell is not None and self.on_cell is not None:
            if self.on_cell_hold is not None:
                cell, hold = result.cell, self.on_cell_hold
                touch.ud["board_hold"] = Clock.schedule_once(lambda _dt: hold(cell), HOLD_S)
            self.on_cell(result.cell)
            return True
        return False

    def on_touch_up(self, touch: MotionEvent) -> bool:
        held = touch.ud.pop("board_hold", None)
        if held is not None:
            held.cancel()  # released before HOLD_S: a tap, not a long press
        return bool(super().on_touch_up(touch))
