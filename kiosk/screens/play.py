"""Play: whose turn, the status line, undo/redo, refusals, the "Why?" panel and the
lesson's panel; the screen's areas are modules of their own: the table on the left
(:mod:`kiosk.screens.play_table`), the middle column of what to touch now
(:mod:`kiosk.screens.play_column`: the fix walk, the outcome, teach mode, the forms of
:mod:`~kiosk.screens.play_forms`, the dice of :mod:`~kiosk.screens.play_dice`, the menu
of :mod:`~kiosk.screens.play_menu`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.input.motionevent import MotionEvent
from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.fonts.lines import fitted_lines
from kiosk.presenters.board import BoardView
from kiosk.presenters.play_view import PlayView
from kiosk.screens import KioskScreen
from kiosk.screens.play_actions import PlayActions, PlayCall
from kiosk.screens.play_column import PlayColumn
from kiosk.screens.play_table import TableArea
from kiosk.widgets.board import BoardWidget
from kiosk.widgets.cards import CardTiles
from kiosk.widgets.led_mirror import LedMirror
from kiosk.widgets.lesson import LessonCall, LessonColumn
from kiosk.widgets.lists import LogList, show_children
from kiosk.widgets.why import WhyPanel

if TYPE_CHECKING:
    from kiosk.presenters.companion import CompanionTurn, CompanionView

#: What the left area shows in each mode, as its button names it.
MODE_LABELS = {"board": "Board", "cards": "Cards", "info": "Table", "leds": "LEDs"}


class PlayScreen(KioskScreen):
    """Changes the properties of widgets it made once instead of rebuilding them:
    creating labels is the expensive part of a redraw (≈1 ms each here, several on a
    Pi). The action menu and the log are RecycleViews (only the rows on screen exist);
    the other sections are made at start and swapped in and out of the layout."""

    presenter: PlayActions | None = None
    #: What the left area shows: the board, the facts panel and log, or the LED mirror.
    mode = StringProperty("info")
    next_mode_label = StringProperty("")
    _shown: PlayView | None = None  # the view on screen (the presenter's, refreshed)

    def bind_presenter(self, presenter: PlayActions) -> None:
        """Show ``presenter``; the kiosk's change pipeline calls :meth:`changed` after
        each of its changes (after the lesson's check and the LEDs)."""
        self.presenter = presenter
        self.table.forget()
        self.column.forget()
        self.mode = self._modes()[0]
        self._update_mode_label()
        self.refresh()

    # --- the areas' widgets, as tests and the kiosk read them -----------------------------

    @property
    def board(self) -> BoardWidget | None:
        return self.table.board

    @property
    def tiles(self) -> CardTiles | None:
        return self.table.tiles

    @property
    def mirror(self) -> LedMirror | None:
        return self.table.mirror

    @property
    def log(self) -> LogList:
        return self.table.log

    def refresh(self) -> None:
        """Show the presenter's view whole, at once (the screen shown, its mode changed)."""
        if self.presenter is None:
            return
        self._column_later.cancel()
        self.show(self.presenter.view(), self._board_view())

    def changed(self) -> None:
        """The presenter changed (a move, a tap, a die read): the header, the board or
        the cards and the banner in this frame, the middle column — the menu, the dice,
        a fix-the-table step — in the next. The players see the change in the frame of
        their touch, which the column's rows (each renders its text again) and layout
        no longer hold back; until the column follows, a tap on the old menu does
        nothing (``_choose``: the view shown has no menu)."""
        if self.presenter is None:
            return
        self.show(self.presenter.view(menu=False), self._board_view(), column=False)
        self._column_later()

    @property
    def column_pending(self) -> bool:
        """A change's middle column is still to be shown (in the next frame)."""
        return bool(self._column_later.is_triggered)

    def on_touch_down(self, touch: MotionEvent) -> bool:
        """A touch that comes before a change's column, or before its menu's rows were
        relabelled, finds them up to date: they are shown first (a fast second tap, or a
        tap in the frame of a die's change)."""
        if self.column_pending:
            self._show_column()
        self.actions.catch_up()
        return bool(super().on_touch_down(touch))

    def _show_column(self, *_: object) -> None:
        """The middle column of the presenter's view now (a frame after a change)."""
        self._column_later.cancel()
        if self.presenter is None:
            return
        view = self.presenter.view()
        self._shown = view
        self.column.show(view)
        self._lesson(view)

    def _board_view(self) -> BoardView | None:
        """The board view only while the board is shown: the table view needs none."""
        if self.kiosk is None or self.mode != "board":
            return None
        shown: BoardView | None = self.kiosk.board_view()
        return shown

    # --- what the widgets call ----------------------------------------------------------

    def act(self, call: PlayCall) -> None:
        """Call the presenter of the game on screen now (a widget made once outlives the
        game it was made for): ``call`` names a bound method, checked by the type checker."""
        if self.presenter is not None:
            call(self.presenter)

    def roll_sim_tray(self) -> None:
        if self.kiosk is not None:
            self.kiosk.roll_sim_tray()

    def sim_tray_available(self) -> bool:
        return self.kiosk is not None and self.kiosk.sim_tray_available()

    def open_scores(self) -> None:
        if self.kiosk is not None:
            self.kiosk.open_scores()

    def companion_view(self) -> CompanionView | None:
        return None if self.kiosk is None else self.kiosk.companion_view()

    def companion_act(self, call: Callable[[CompanionTurn], object]) -> None:
        if self.kiosk is not None:
            self.kiosk.companion_act(call)

    def _lesson_act(self, call: LessonCall) -> None:
        """A tap on the lesson panel: ``call`` names the lesson's intent."""
        lesson = None if self.kiosk is None else self.kiosk.lesson
        if lesson is not None:
            call(lesson)

    def _go_home(self) -> None:
        if self.kiosk is not None:
            self.kiosk.go_home()

    def _choose(self, index: int, label: str) -> None:
        """A tap on a menu row. A row tapped in the same frame as a change of the menu
        (two touches in one batch) may still show the old action: then nothing happens.
        The menu is the one last shown: every change of the presenter shows its view."""
        if self.presenter is None or self._shown is None:
            return
        actions = self._shown.actions
        if 0 <= index < len(actions) and actions[index].label == label:
            self.presenter.action_menu.choose(index)

    # --- the sections, made once ----------------------------------------------------------

    def on_kv_post(self, base_widget: Widget) -> None:
        ids = self.ids
        self._status_font: CoreLabel | None = None  # measures the status's parts
        self._banner_measured: tuple[str, tuple[float, None]] | None = None  # text, width
        self._status = ""
        ids.status.bind(width=lambda *_: self._show_status(self._status))
        self._column_later = Clock.create_trigger(self._show_column, 0)
        self.table = TableArea(
            ids.info,
            ids.main,
            self.act,
            tap_cell=self._tap_cell,
            hold_cell=self._hold_cell,
            explain_count=self._explain_count,
        )
        self.column = PlayColumn(ids.act.__self__, self.table, self, self._choose)
        self.actions = self.column.menu.list
        self.why_panel = WhyPanel(
            lambda: self.act(lambda p: p.teacher.close_why()),
            (
                (
                    "Teach me the rules from here",
                    lambda: self.act(lambda p: p.teacher.again()),
                    "normal",
                ),
            ),
        )
        self.lesson = LessonColumn(ids.act.__self__, self.actions, self._lesson_act, self._go_home)

    # --- drawing ----------------------------------------------------------------------

    def show(
        self, view: PlayView, board_view: BoardView | None = None, *, column: bool = True
    ) -> None:
        """Show ``view``; without ``column`` all but the middle column and the lesson
        beside it (``changed`` shows them a frame later)."""
        self._shown = view
        ids = self.ids
        if view.turn_colour is not None and view.player_seat is not None:
            ids.turn_colour.colour = theme.rgb_to_rgba(view.turn_colour)
            who = view.player if self.kiosk is None else self.kiosk.seat_label(view.player_seat)
            ids.player.text = f"{who or view.player} to play"
        else:
            ids.turn_colour.colour = theme.ACCENT
            ids.player.text = "Game over" if view.outcome else view.title
        self._show_status(view.status)
        ids.devices.text = "\n".join(view.devices)
        ids.undo.disabled = not view.can_undo
        ids.redo.disabled = not view.can_redo
        self._banner(view)
        self._why(view)
        self.table.show(view, board_view, self.mode)
        if column:
            self.column.show(view)
            self._lesson(view)

    def _lesson(self, view: PlayView) -> None:
        """A lesson's panel on top of the right column (kiosk/widgets/lesson.py)."""
        dice_shown = view.dice is not None and view.teach is None and view.form is None
        self.lesson.show(
            None if self.kiosk is None else self.kiosk.lesson_view(self.presenter),
            aside=view.fix is not None or dice_shown,
            compact=view.teach is not None or view.form is not None,
            relay=lambda: self.column.show(view, again=True),
        )

    def _banner(self, view: PlayView) -> None:
        banner = self.ids.banner
        if view.banner is not None:
            banner.text = f"{view.banner.text}   (tap to close)"
            banner.background_color = theme.DANGER
            banner.disabled_color = theme.DANGER_TEXT
            banner.color = theme.DANGER_TEXT
        elif view.notice:
            banner.text = view.notice
            banner.background_color = theme.NOTICE
            banner.color = theme.TEXT
        shown = view.banner is not None or bool(view.notice)
        banner.disabled = not shown
        banner.opacity = 1 if shown else 0
        why = self.ids.banner_why
        offered = view.banner is not None and view.can_explain and view.why is None
        why.disabled = not offered
        why.width = theme.WHY_BUTTON_WIDTH if offered else 0
        why.opacity = 1 if offered else 0
        if not shown:
            self.ids.banner_row.height = 0
            return
        # The whole message, on as many lines as it needs: measured at the width it gets
        # (once per text and width: rendering it is ≈0.1 M instructions a move). A text
        # taller than the room the sidebar leaves is set in the small size: a third line
        # at the body size pushed Undo and Redo under a finger's size and up under it.
        text_size = (self.width - why.width - 12, None)
        if self._banner_measured != (banner.text, text_size):
            banner.text_size = text_size
            banner.font_size = theme.FONT_BODY
            banner.texture_update()
            if banner.texture_size[1] + 12 > self._banner_room():
                banner.font_size = theme.FONT_SMALL
                banner.texture_update()
            self._banner_measured = (banner.text, text_size)
        self.ids.banner_row.height = max(56, banner.texture_size[1] + 12)

    def _banner_room(self) -> float:
        """The banner row's most height: the screen under the header less what the
        sidebar needs when Undo and Redo have given way to a finger's size."""
        side = self.ids.sidebar
        rows = side.children
        least: float = sum(
            row.height if row.size_hint_y is None else theme.TOUCH_MIN * bool(row.size_hint_max_y)
            for row in rows
        )
        least += side.padding[1] + side.padding[3] + side.spacing * (len(rows) - 1)
        height: float = self.height
        return height - theme.PLAY_HEADER_HEIGHT - least

    def _why(self, view: PlayView) -> None:
        """The "Why?" panel takes the board's and the menu's place while it is open."""
        main = self.ids.main
        if view.why is not None:
            self.why_panel.show(view.why, actions=view.can_teach)
            show_children(main, [self.why_panel.box])
        else:
            show_children(main, [self.ids.info, self.ids.act])

    def set_led_layout(
        self, positions: dict[str, tuple[float, float]], cells: dict[str, tuple[int, ...]]
    ) -> None:
        self.table.set_led_layout(positions, cells)
        self._update_mode_label()

    def _modes(self) -> list[str]:
        modes = ["board"] if self.kiosk is not None and self.kiosk.board_geometry else []
        if self.presenter is not None and self.presenter.queries.tiled:
            modes.append("cards")  # a card game's table, to touch
        modes.append("info")
        if self.mirror is not None:
            modes.append("leds")
        return modes

    def _update_mode_label(self) -> None:
        modes = self._modes()
        if len(modes) < 2:
            self.next_mode_label = ""
            return
        following = (
            modes[(modes.index(self.mode) + 1) % len(modes)] if self.mode in modes else modes[0]
        )
        self.next_mode_label = MODE_LABELS[following]

    def next_mode(self) -> None:
        """Cycle the left area: board or cards → table (facts and log) → LED mirror."""
        modes = self._modes()
        self.mode = (
            modes[(modes.index(self.mode) + 1) % len(modes)] if self.mode in modes else modes[0]
        )
        self._update_mode_label()
        self.refresh()

    def _hold_cell(self, cell: str) -> None:
        """A long press: lifts the miniature there on a simulated sensing board."""
        sensing = None if self.kiosk is None else self.kiosk.sensing
        if sensing is not None:
            sensing.hold(cell)

    def _explain_count(self, count: str | None) -> None:
        """A tap on the facts panel: "Why?" about a fact, or about every count of the
        table (a player's line)."""
        if count is None:
            self.act(lambda p: p.teacher.explain_table())
        else:
            self.act(lambda p: p.teacher.explain_count(count))

    def _tap_cell(self, cell: str) -> None:
        if self.presenter is None:
            return
        sensing = None if self.kiosk is None else self.kiosk.sensing
        if sensing is not None and sensing.tap(cell):
            return  # a miniature put down on the simulated board: the board plays it
        self.presenter.board_input.tap_cell(cell)

    def _show_status(self, status: str) -> None:
        """The status, broken between its parts where it takes two lines (again when its
        width changes): lines that fit are laid out whole, as wide as they are (Kivy
        measures each once instead of every run of its words, kiosk/fonts/lines.py); a
        status that does not fit so is wrapped by Kivy at the label's width."""
        self._status = status
        label, room = self.ids.status, self.ids.status.width
        if self._status_font is None:
            self._status_font = CoreLabel(
                font_size=label.font_size, font_name=label.font_name, bold=label.bold
            )
        measure = self._status_font.get_cached_extents()
        fitted = fitted_lines(status, room, measure, label.max_lines, " · ")
        label.text_size = (room, None) if fitted is None else (None, None)
        label.text = status if fitted is None else fitted
