"""A card game's table as tiles to touch (``kiosk/presenters/cards.py`` decides)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kivy.core.text import Label as CoreLabel
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.gridlayout import GridLayout

from kiosk import theme
from kiosk.presenters.cards import Tile
from kiosk.widgets.basic import KButton
from kiosk.widgets.lists import WidgetPool
from kiosk.widgets.scrolling import QuietScrollView

TILE_COLUMNS = 2
TILE_LINE = 22  # px: one line of a tile's text (FONT_SMALL and its leading)
TILE_PADDING = 14  # px: above and below a tile's text
TILE_TEXT_INSET = 10  # px: the text's room is the tile's width less this (widgets.kv)


class TileButton(KButton):
    """One card, pile or tracker: its title and lines, never shortened (widgets.kv)."""

    key = StringProperty("")
    #: A line of its text is wider than the tile: Kivy wraps it. Otherwise the lines are
    #: laid out whole, each measured once (wrapping measures every run of their words:
    #: ≈35 k instructions each new run, a dozen a changed tile).
    wraps = BooleanProperty(True)
    shown: Tile | None = None  # the tile it shows now


class CardTiles(QuietScrollView):
    """Two columns of tiles filling the left area (scrolling when a table has more than
    fit); a tile names what it stands for, an accent marks the one the menu is narrowed
    to and those lit (the companion's move), and a tile with nothing to do now is drawn
    dim and cannot be touched. Its bar does not fade (half a second of frames after a
    tile grew a line)."""

    def __init__(self, on_tile: Callable[[str], None], **kwargs: object) -> None:
        super().__init__(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
        self.grid = GridLayout(cols=TILE_COLUMNS, spacing=theme.SPACING, size_hint_y=None)
        self.grid.bind(minimum_height=self.grid.setter("height"))
        self.add_widget(self.grid)
        self.pool = WidgetPool(self.grid, lambda: self._tile(on_tile))
        self._measure: Callable[[str], tuple[int, int]] | None = None  # (``_fit_text``)
        self.bind(height=self._fit_rows)
        self._lines = 1
        self._rows = 1

    def _tile(self, on_tile: Callable[[str], None]) -> TileButton:
        tile = TileButton(font_size=theme.FONT_SMALL)
        tile.bind(on_release=lambda widget: on_tile(widget.key))
        tile.bind(text=self._fit_text, width=self._fit_text)
        return tile

    def _fit_text(self, tile: TileButton, *_: object) -> None:
        """Whether ``tile``'s text needs wrapping: a line wider than its room."""
        if self._measure is None:  # one font for every tile: its sizes, kept
            font = CoreLabel(font_size=tile.font_size, font_name=tile.font_name)
            self._measure = font.get_cached_extents()
        room = tile.width - TILE_TEXT_INSET
        tile.wraps = any(self._measure(line)[0] > room for line in tile.text.split("\n"))

    def show(self, tiles: Sequence[Tile]) -> None:
        """Each tile on its button; a button already showing its tile is left alone (a
        move changes a few tiles: setting a button's properties re-evaluates its looks,
        ≈60 k instructions a button even when nothing changes)."""
        for widget, tile in zip(self.pool.show(len(tiles)), tiles, strict=True):
            if widget.shown == tile:
                continue
            widget.shown = tile
            widget.key = tile.key
            widget.text = f"{tile.title}\n{tile.text}" if tile.text else tile.title
            widget.role = "accent" if tile.selected or tile.lit else "normal"
            widget.disabled = tile.actions == 0 and not (tile.selected or tile.lit)
        self._lines = max((w.text.count("\n") + 1 for w in self.pool.widgets), default=1)
        self._rows = -(-len(tiles) // TILE_COLUMNS)
        self._fit_rows()

    def _fit_rows(self, *_: object) -> None:
        """Rows share the height, but never below what the longest tile's lines need."""
        needed = self._lines * TILE_LINE + TILE_PADDING
        spare = (self.height - (self._rows - 1) * theme.SPACING) / max(1, self._rows)
        self.grid.row_default_height = max(needed, theme.TOUCH_MIN, int(spare))
        self.grid.row_force_default = True
