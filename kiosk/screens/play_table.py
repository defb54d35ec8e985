"""The play screen's left area, the table as the screen shows it: the board, the cards
to touch, the facts panel with the game log, or the LED mirror (the screen's mode says
which). Each is made once and swapped in; the area is redrawn only when what it shows
changed."""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.board import BoardView
from kiosk.presenters.play_view import PlayView
from kiosk.screens.play_actions import Act
from kiosk.widgets.board import BoardWidget
from kiosk.widgets.cards import CardTiles
from kiosk.widgets.led_mirror import LedMirror
from kiosk.widgets.lists import LogList, show_children

LOG_SHOWN = 16
INFO_SHARE = 0.46  # the facts and log beside the menu: 0.46 of the menu's width

CellTap = Callable[[str], None]


class TableArea:
    """The area ``info`` of the play area ``main`` (the screen's kv ids); ``act`` calls the
    presenter on screen, ``tap_cell`` and ``hold_cell`` take a board's square,
    ``explain_count`` a tap on the facts panel (a count's key, or None: the table's)."""

    def __init__(
        self,
        info: Widget,
        main: Widget,
        act: Act,
        *,
        tap_cell: CellTap,
        hold_cell: CellTap,
        explain_count: Callable[[str | None], None],
    ) -> None:
        self.info = info
        self.main = main
        self.act = act
        self.tap_cell = tap_cell
        self.hold_cell = hold_cell
        self.explain_count = explain_count
        self.log = LogList()
        self.board: BoardWidget | None = None
        self.tiles: CardTiles | None = None
        self.mirror: LedMirror | None = None
        self._key: object = None
        main.bind(height=self.fit_board)

    @property
    def narrow(self) -> bool:
        """A board or the cards take the area: the menu's column beside it is narrower."""
        return bool(self.info.size_hint_x != INFO_SHARE)

    def forget(self) -> None:
        """Another game: its board is made anew, and the area is shown whole."""
        self.board = None
        self._key = None

    def set_led_layout(
        self, positions: dict[str, tuple[float, float]], cells: dict[str, tuple[int, ...]]
    ) -> None:
        self.mirror = LedMirror()
        self.mirror.set_layout(positions, cells)

    def fit_board(self, *_: object) -> None:
        """A board is as wide as the play area is high: the biggest squares that fit."""
        info = self.info
        if info.size_hint_x is None:
            info.width = max(200, self.main.height - 2 * theme.PADDING)

    def show(self, view: PlayView, board_view: BoardView | None, mode: str) -> None:
        key = (view.panel, view.log[:LOG_SHOWN], board_view, view.tiles, mode)
        if key == self._key:
            return
        self._key = key
        info = self.info
        if mode == "leds" and self.mirror is not None:
            info.size_hint_x = None
            self.fit_board()
            show_children(info, [self.mirror])
            return
        if board_view is not None and mode == "board":
            info.size_hint_x = None
            self.fit_board()
            if self.board is None:
                self.board = BoardWidget()
                self.board.on_cell = self.tap_cell
                self.board.on_cell_hold = self.hold_cell
            self.board.show(board_view)
            show_children(info, [self.board])
            return
        if mode == "cards" and view.tiles:
            info.size_hint_x = 1  # half the play area: two columns of cards
            if self.tiles is None:
                self.tiles = CardTiles(lambda key: self.act(lambda p: p.board_input.tap_tile(key)))
            self.tiles.show(view.tiles)
            show_children(info, [self.tiles])
            return
        info.size_hint_x = INFO_SHARE
        self._show_log(view)
        show_children(info, [self.log])

    def _show_log(self, view: PlayView) -> None:
        """Facts and log scroll together (the facts panel is the log's first row): a long
        facts panel (or the refusal banner taking room) must not push text over the
        header."""
        data: list[dict[str, object]] = [
            {"viewclass": "PanelView", "panel": view.panel, "count_tapped": self.explain_count}
        ]
        data.extend(
            {
                "viewclass": "TextRow",
                "text": f"{line.number}. {line.text}",
                "font_size": theme.FONT_SMALL,
                "color": theme.TEXT,
            }
            for line in view.log[:LOG_SHOWN]
        )
        if not view.log:
            data.append(
                {
                    "viewclass": "TextRow",
                    "text": "No moves yet.",
                    "font_size": theme.FONT_BODY,
                    "color": theme.TEXT_DIM,
                }
            )
        if data != self.log.data:
            self.log.data = data
