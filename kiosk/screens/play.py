"""Play: whose turn, the status line, undo/redo, refusals, dice, actions, log, board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from kiosk import theme
from kiosk.fonts.lines import fitted_lines
from kiosk.presenters.board import BoardView
from kiosk.presenters.forms import FormField, FormView
from kiosk.presenters.menus import CORRECTIONS_GROUP
from kiosk.presenters.play_view import DicePanel, PlayView
from kiosk.screens import KioskScreen
from kiosk.screens.play_actions import PlayActions
from kiosk.widgets.basic import KButton, KLabel, KToggle, Stepper, WrapLabel, button
from kiosk.widgets.board import BoardWidget
from kiosk.widgets.cards import CardTiles
from kiosk.widgets.companion import CompanionPanel
from kiosk.widgets.layouts import Column, EvenGrid, Row
from kiosk.widgets.led_mirror import LedMirror
from kiosk.widgets.lesson import LessonColumn
from kiosk.widgets.lists import ACTION_ROW, ActionList, LogList, WidgetPool, show_children
from kiosk.widgets.scrolling import QuietScrollView
from kiosk.widgets.why import WhyPanel

FORM_ROW = 52
TAB_HEIGHT = theme.TOUCH_MIN + 4  # a group's tab: two lines of small text
ROW_HEIGHTS_KEPT = 512  # menu texts whose height is known (a game lists a few hundred)
TOUCH_ROW_TEXT_MIN = 120  # px: the narrowest a menu row's text is measured at
#: The letters of a menu text average 0.42-0.53 font sizes wide in the bundled
#: condensed font (a row of W alone 0.89); with this width per letter and half a line
#: left for word wrapping, a text shorter than the bound holds in two lines unmeasured.
WIDEST_LETTER = 0.62
TWO_LINES_SURELY = 1.5
#: The font of each kind of menu row (widgets.kv), to measure their texts.
ROW_FONTS = {"ActionRow": theme.FONT_SMALL + 1}
#: Letters of choice labels that fit beside a field's name in one form row.
CHOICES_IN_A_ROW = 14
LOG_SHOWN = 16
INFO_SHARE = 0.46  # the facts and log beside the menu: 0.46 of the menu's width
#: What the left area shows in each mode, as its button names it.
MODE_LABELS = {"board": "Board", "cards": "Cards", "info": "Table", "leds": "LEDs"}


def _scroll_of(content: Any) -> Any:
    scroll = QuietScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
    scroll.add_widget(content)
    return scroll


def _column(**kwargs: Any) -> Any:
    grid = GridLayout(cols=1, size_hint_y=None, spacing=theme.SPACING, **kwargs)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


def _section(*widgets: Any) -> Any:
    box = Column(spacing=theme.SPACING)
    for widget in widgets:
        box.add_widget(widget)
    return box


class DiceBox:
    """The dice panel: the prompt, the face buttons, "Roll in software" — made once,
    relabelled for each request (a face tap changes one label, not the panel)."""

    def __init__(self, screen: PlayScreen) -> None:
        self.box = _column()
        self.prompt = WrapLabel(font_size=theme.FONT_BODY)
        self.entered = WrapLabel(color=theme.ACCENT)
        self.faces = GridLayout(cols=6, size_hint_y=None, spacing=theme.SPACING)
        self.faces.bind(minimum_height=self.faces.setter("height"))
        self.face_buttons = WidgetPool(self.faces, lambda: self._face_button(screen))
        self.row = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
        self.roll = button(
            "Roll in software",
            lambda: screen.act(lambda p: p.dice.roll_in_software()),
            role="accent",
        )
        self.clear = button(
            "Clear", lambda: screen.act(lambda p: p.dice.clear_faces()), size_hint_x=0.4
        )
        # Simulated hardware: roll the "electronic" dice of the simulated tray, which
        # reach the game through the pty and the real serial reader.
        self.tray = button(
            "Roll the simulated tray",
            screen.roll_sim_tray,
            size_hint_y=None,
            height=theme.BUTTON_HEIGHT,
        )

    @staticmethod
    def _face_button(screen: PlayScreen) -> Any:
        # The smallest touch target: a d6's two rows must fit the column beside the board
        # under the last roll and the prompt.
        face = KButton(size_hint_y=None, height=theme.TOUCH_MIN, font_size=theme.FONT_LARGE)
        face.bind(on_release=lambda widget: screen.act(lambda p: p.dice.tap_face(widget.face)))
        return face

    def show(self, dice: DicePanel, *, per_row: int, tray: bool) -> None:
        self.prompt.text = dice.prompt
        parts: list[Any] = [self.prompt]
        if dice.entered:
            self.entered.text = "Entered: " + " ".join(str(v) for v in dice.entered)
            parts.append(self.entered)
        if dice.faces:
            # Balanced rows: a d6 is 2 rows of 3, not 4 + 2.
            rows = -(-len(dice.faces) // per_row)
            self.faces.cols = -(-len(dice.faces) // rows)
            for widget, face in zip(
                self.face_buttons.show(len(dice.faces)), dice.faces, strict=True
            ):
                widget.text = str(face)
                widget.face = face
            parts.append(self.faces)
        show_children(self.row, [self.roll, self.clear] if dice.entered else [self.roll])
        parts.append(self.row)
        if tray:
            parts.append(self.tray)
        show_children(self.box, parts)


class PlayScreen(KioskScreen):
    """Changes the properties of widgets it made once instead of rebuilding them:
    creating labels is the expensive part of a redraw (≈1 ms each here, several on a
    Pi). The action menu and the log are RecycleViews (only the rows on screen exist);
    the other sections are made at start and swapped in and out of the layout."""

    presenter: PlayActions | None = None
    board: BoardWidget | None = None
    tiles: CardTiles | None = None
    mirror: LedMirror | None = None
    #: What the left area shows: the board, the facts panel and log, or the LED mirror.
    mode = StringProperty("info")
    next_mode_label = StringProperty("")
    _info_key: object = None
    _act_key: object = None
    _shown: PlayView | None = None  # the view on screen (the presenter's, refreshed)

    def bind_presenter(self, presenter: PlayActions) -> None:
        """Show ``presenter``; the kiosk's change pipeline calls :meth:`changed` after
        each of its changes (after the lesson's check and the LEDs)."""
        self.presenter = presenter
        self.board = None
        self._info_key = self._act_key = None
        self._forms: dict[object, tuple[list[Any], dict[str, dict[str, Any]]]] = {}
        self.mode = self._modes()[0]
        self._update_mode_label()
        self.refresh()

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

    def on_touch_down(self, touch: Any) -> bool:
        """A touch that comes before a change's column, or before its menu's rows were
        relabelled, finds them up to date: they are shown first (a fast second tap, or a
        tap in the frame of a die's change)."""
        if self.column_pending:
            self._show_column()
        self.actions.catch_up()
        return bool(super().on_touch_down(touch))

    def _show_column(self, *_: Any) -> None:
        """The middle column of the presenter's view now (a frame after a change)."""
        self._column_later.cancel()
        if self.presenter is None:
            return
        view = self.presenter.view()
        self._shown = view
        self._act(view)
        self._lesson(view)

    def _board_view(self) -> BoardView | None:
        """The board view only while the board is shown: the table view needs none."""
        if self.kiosk is None or self.mode != "board":
            return None
        shown: BoardView | None = self.kiosk.board_view()
        return shown

    # --- what the widgets call ----------------------------------------------------------

    def act(self, call: Callable[[PlayActions], object]) -> None:
        """Call the presenter of the game on screen now (a widget made once outlives the
        game it was made for): ``call`` names a bound method, checked by the type checker."""
        if self.presenter is not None:
            call(self.presenter)

    def roll_sim_tray(self) -> None:
        if self.kiosk is not None:
            self.kiosk.roll_sim_tray()

    def _choose(self, index: int, label: str) -> None:
        """A tap on a menu row. A row tapped in the same frame as a change of the menu
        (two touches in one batch) may still show the old action: then nothing happens.
        The menu is the one last shown: every change of the presenter shows its view."""
        if self.presenter is None or self._shown is None:
            return
        actions = self._shown.actions
        if 0 <= index < len(actions) and actions[index].label == label:
            self.presenter.choose(index)

    def _open_form(self, _index: int, _label: str) -> None:
        self.act(lambda p: p.open_form())

    def _choose_group(self, tab: Any) -> None:
        self.act(lambda p: p.choose_group(tab.key))

    # --- the sections, made once ----------------------------------------------------------

    def on_kv_post(self, base_widget: Any) -> None:
        self.ids.main.bind(height=self._fit_board)
        self._forms = {}
        self.log = LogList()
        self.actions = ActionList()
        self._menu: list[dict[str, Any]] = []
        self._row_heights: dict[tuple[str, int, int], int] = {}
        self._status_font: Any = None  # measures the status's parts (``_show_status``)
        self._banner_measured: tuple[str, Any] | None = None  # text and width last measured
        self._status = ""
        self.ids.status.bind(width=lambda *_: self._show_status(self._status))
        self.actions.bind(width=self._menu_width_changed)
        self._column_later = Clock.create_trigger(self._show_column, 0)
        self.dice = DiceBox(self)
        # Laid out by a grid of equal cells: Kivy's GridLayout costs ≈0.4 M instructions
        # a pass, and a touch that narrows the menu lays the tabs out two or three times.
        self.tabs = EvenGrid(cols=3, spacing=theme.SPACING, row_height=TAB_HEIGHT)
        self.tab_buttons = WidgetPool(self.tabs, self._make_tab)
        # The last roll (value, purpose, who, source) and a previewed region move: at
        # the top of the column whatever it shows, until the next roll.
        self.last_roll = WrapLabel(font_size=theme.FONT_SMALL, color=theme.TEXT_DIM)
        self.preview = WrapLabel(font_size=theme.FONT_SMALL, color=theme.ACCENT)
        self.fix_text = WrapLabel(font_size=theme.FONT_LARGE)
        self.fix_buttons = Row(
            size_hint_y=None, height=theme.BIG_BUTTON_HEIGHT, spacing=theme.SPACING
        )
        self.fix_done = button("Done", lambda: self.act(lambda p: p.next_fix_step()), role="accent")
        # Every remaining step at once: the walk-through guides, players who know it skip it.
        self.fix_all = button(
            "All done", lambda: self.act(lambda p: p.finish_fix()), size_hint_x=0.8
        )
        self.fix_box = _section(self.fix_text, self.fix_buttons, BoxLayout())
        self.outcome_text = WrapLabel(font_size=theme.FONT_TITLE, bold=True)
        self.winners_text = WrapLabel()
        self.scores_button = button(
            "Scores and export",
            lambda: self.kiosk.open_scores(),
            role="accent",
            size_hint_y=None,
            height=theme.BIG_BUTTON_HEIGHT,
        )
        self.outcome_filler = BoxLayout()
        self.outcome_box = _section()
        self.companion_panel = CompanionPanel(
            lambda call: self.kiosk and self.kiosk.companion_act(call)
        )
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
        self.lesson = LessonColumn(self.ids.act.__self__, self.actions, self._lesson_intent)
        self.teach_panel = WhyPanel(
            None,
            (
                ("Got it", lambda: self.act(lambda p: p.teacher.next()), "accent"),
                ("Skip\nteaching", lambda: self.act(lambda p: p.teacher.skip()), "normal"),
                ("Show all\nagain", lambda: self.act(lambda p: p.teacher.again()), "normal"),
            ),
        )

    def _make_tab(self) -> Any:
        """A group's button: it says the list it opens ("Swap (68)") or the one action it
        plays ("Ready"), on two lines where one does not hold it — never shortened."""
        tab = KToggle(group=f"groups-{id(self)}", font_size=theme.FONT_SMALL)
        tab.shorten = False
        tab.max_lines = 2
        tab.key = ""
        tab.bind(on_release=self._choose_group)
        return tab

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
        self._info(view, board_view)
        if column:
            self._act(view)
            self._lesson(view)

    def _lesson(self, view: PlayView) -> None:
        """A lesson's panel on top of the right column (kiosk/widgets/lesson.py)."""
        dice_shown = view.dice is not None and view.teach is None and view.form is None
        self.lesson.show(
            None if self.kiosk is None else self.kiosk.lesson_view(self.presenter),
            aside=view.fix is not None or dice_shown,
            compact=view.teach is not None or view.form is not None,
            relay=lambda: self._act(view, again=True),
        )

    def _lesson_intent(self, name: str) -> None:
        if self.kiosk is not None and name == "home":
            self.kiosk.go_home()
        elif self.kiosk is not None and self.kiosk.lesson is not None:
            getattr(self.kiosk.lesson, name)()

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
        # (once per text and width: rendering it is ≈0.1 M instructions a move).
        text_size = (self.width - why.width - 12, None)
        if self._banner_measured != (banner.text, text_size):
            banner.text_size = text_size
            banner.texture_update()
            self._banner_measured = (banner.text, text_size)
        self.ids.banner_row.height = max(56, banner.texture_size[1] + 12)

    def _why(self, view: PlayView) -> None:
        """The "Why?" panel takes the board's and the menu's place while it is open."""
        main = self.ids.main
        if view.why is not None:
            self.why_panel.show(view.why, actions=view.can_teach)
            show_children(main, [self.why_panel.box])
        else:
            show_children(main, [self.ids.info, self.ids.act])

    def _info(self, view: PlayView, board_view: BoardView | None) -> None:
        key = (view.panel, view.log[:LOG_SHOWN], board_view, view.tiles, self.mode)
        if key == self._info_key:
            return
        self._info_key = key
        info = self.ids.info
        if self.mode == "leds" and self.mirror is not None:
            info.size_hint_x = None
            self._fit_board()
            show_children(info, [self.mirror])
            return
        if board_view is not None and self.mode == "board":
            info.size_hint_x = None
            self._fit_board()
            if self.board is None:
                self.board = BoardWidget()
                self.board.on_cell = self._tap_cell
                self.board.on_cell_hold = self._hold_cell
            self.board.show(board_view)
            show_children(info, [self.board])
            return
        if self.mode == "cards" and view.tiles:
            info.size_hint_x = 1  # half the play area: two columns of cards
            if self.tiles is None:
                self.tiles = CardTiles(lambda key: self.act(lambda p: p.tap_tile(key)))
            self.tiles.show(view.tiles)
            show_children(info, [self.tiles])
            return
        info.size_hint_x = INFO_SHARE
        # Facts and log scroll together (the facts panel is the log's first row): a long
        # facts panel (or the refusal banner taking room) must not push text over the header.
        data: list[dict[str, Any]] = [
            {"viewclass": "PanelView", "panel": view.panel, "count_tapped": self._explain_count}
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
        show_children(info, [self.log])

    def set_led_layout(
        self, positions: dict[str, tuple[float, float]], cells: dict[str, tuple[int, ...]]
    ) -> None:
        self.mirror = LedMirror()
        self.mirror.set_layout(positions, cells)
        self._update_mode_label()

    def _modes(self) -> list[str]:
        modes = ["board"] if self.kiosk is not None and self.kiosk.board_geometry else []
        if self.presenter is not None and self.presenter.tiled:
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

    def _fit_board(self, *_: Any) -> None:
        """A board is as wide as the play area is high: the biggest squares that fit."""
        info = self.ids.info
        if info.size_hint_x is None:
            info.width = max(200, self.ids.main.height - 2 * theme.PADDING)

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
        self.presenter.tap_cell(cell)

    def _act(self, view: PlayView, *, again: bool = False) -> None:
        """The middle column for ``view`` (made again only when it changed, or ``again``:
        a lesson gave the list back)."""
        form_shape = None if view.form is None else _form_shape(view.form)
        key = (
            view.fix,
            view.outcome,
            view.teach,
            view.winners,
            view.dice,
            view.groups,
            view.group,
            view.actions,
            view.more_actions,
            view.formable,
            form_shape,
            None if self.kiosk is None else self.kiosk.companion_view(),
            view.last_roll,
            view.preview,
            self.ids.info.size_hint_x,  # the board's narrow column lays out differently
        )
        if key == self._act_key and not again:
            if view.form is not None:
                self._update_form(view.form)
            return
        self._act_key = key
        act = self.ids.act
        self.last_roll.text = view.last_roll
        rolled = [self.last_roll] if view.last_roll else []
        if view.fix is not None:
            # Its width first: a text set while it is still unplaced (the first step of
            # a game) would wrap at Kivy's default 100 px, then again at the column's.
            self.fix_box.width = self.fix_text.width = act.width
            self.fix_text.text = (
                f"Fix the table — step {view.fix.number} of {view.fix.total}:\n"
                f"{view.fix.instruction}"
            )
            more = view.fix.number < view.fix.total
            show_children(
                self.fix_buttons, [self.fix_done, self.fix_all] if more else [self.fix_done]
            )
            show_children(act, [*rolled, self.fix_box])
            return
        if view.outcome is not None:
            self.outcome_text.text = view.outcome
            self.winners_text.text = "Winner: " + " and ".join(view.winners)
            show_children(
                self.outcome_box,
                [
                    self.outcome_text,
                    *([self.winners_text] if view.winners else []),
                    self.scores_button,
                    self.outcome_filler,
                ],
            )
            show_children(act, [self.outcome_box])
            return
        if view.teach is not None:
            # Teach mode: the rule that matters now, beside the board that shows it.
            self.teach_panel.show(view.teach)
            show_children(act, [self.teach_panel.box])
            return
        if view.form is not None:
            show_children(act, self._form(view.form))
            self._update_form(view.form)
            return
        # A board or the cards take the left area: the menu's column is narrower.
        narrow = self.ids.info.size_hint_x != INFO_SHARE
        shown: list[Any] = list(rolled)
        companion = None if self.kiosk is None else self.kiosk.companion_view()
        if self.companion_panel.place(act, shown, companion, dice=view.dice is not None):
            return  # the companion's move is made on the table, not chosen here
        if view.preview:
            self.preview.text = view.preview
            shown.append(self.preview)
        if view.dice is not None:
            # Rows of at most 4 faces beside the board (6 × 48 px do not fit its 260 px
            # column), 6 otherwise.
            tray = self.kiosk is not None and self.kiosk.sim_tray_available()
            self.dice.show(view.dice, per_row=4 if narrow else 6, tray=tray)
            shown.append(self.dice.box)
        # One group needs no tabs, unless it is "Correct the table": while only a die is
        # awaited it is the only group, and it must stay one tap away.
        if len(view.groups) > 1 or any(g.key == CORRECTIONS_GROUP for g in view.groups):
            self.tabs.cols = min(2 if narrow else 3, len(view.groups))
            for tab, group in zip(
                self.tab_buttons.show(len(view.groups)), view.groups, strict=True
            ):
                tab.key = group.key
                tab.text = group.button_text
                tab.state = "down" if group.key == view.group else "normal"
            shown.append(self.tabs)
        if view.actions or view.dice is None:
            self._show_actions(view)
            shown.append(self.actions)
        show_children(act, shown)

    def _show_actions(self, view: PlayView) -> None:
        data: list[dict[str, Any]] = []
        if view.formable:
            text = view.form_label
            data.append(
                {
                    "viewclass": "ActionRow",  # plain: the listed actions are the usual pick
                    "text": text,
                    "index": -1,
                    "intent": self._open_form,
                    "height": self.row_height(text, ROW_FONTS["ActionRow"]),
                }
            )
        data.extend(
            {
                "viewclass": "ActionRow",
                "text": choice.label,
                "index": i,
                "intent": self._choose,
                "height": self.row_height(choice.label, ROW_FONTS["ActionRow"]),
            }
            for i, choice in enumerate(view.actions)
        )
        if view.more_actions:
            data.append(
                {
                    "viewclass": "TextRow",
                    "text": f"… and {view.more_actions} more (select on the board to narrow)",
                    "font_size": theme.FONT_SMALL,
                    "color": theme.TEXT_DIM,
                }
            )
        self._menu = data
        self._show_menu()

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

    def row_height(self, text: str, font_size: int) -> int:
        """The height of a menu row that shows all of ``text``: at least
        ``ACTION_ROW``, more for a text that wraps onto a third line. Each text is
        measured once per menu width (a Colossi Age card, a correction naming four
        players); rows render their own texture as before. A text far too short for a
        third line is not measured: a piece's menu of 40 moves costs no rendering."""
        width = max(TOUCH_ROW_TEXT_MIN, int(self.actions.width) - 12 - 10)  # bar, padding
        if len(text) * font_size * WIDEST_LETTER <= TWO_LINES_SURELY * width:
            return ACTION_ROW
        key = (text, font_size, width)
        height = self._row_heights.get(key)
        if height is None:
            label = CoreLabel(text=text, font_size=font_size, text_size=(width, None))
            label.refresh()
            height = max(ACTION_ROW, int(label.texture.height) + 10)
            if len(self._row_heights) >= ROW_HEIGHTS_KEPT:
                self._row_heights.clear()
            self._row_heights[key] = height
        return height

    def _menu_width_changed(self, *_: Any) -> None:
        """The menu got its width (laid out, or the board came or went): its rows are
        measured again at that width."""
        data = [
            {**row, "height": self.row_height(row["text"], ROW_FONTS[row["viewclass"]])}
            if row["viewclass"] in ROW_FONTS
            else row
            for row in self._menu
        ]
        if data != self._menu:
            self._menu = data
            self._show_menu()

    def _show_menu(self) -> None:
        """Put the menu's rows in the list (the list relabels its rows before the frame
        is drawn, or before a touch reaches them: ``on_touch_down``)."""
        data = self._menu
        if data != self.actions.data:
            self.actions.data = data
            self.actions.scroll_y = 1  # a new menu starts at its top

    def _form(self, form: FormView) -> list[Any]:
        """The form's widgets, made the first time a form of this shape opens in this
        game and kept: its fields depend on the action's model, their values change in
        place (:meth:`_update_form`)."""
        shape = _form_shape(form)
        cached = self._forms.get(shape)
        if cached is not None:
            widgets, self._form_widgets = cached
            return widgets
        title = KLabel(
            text=form.title, size_hint_y=None, height=34, bold=True, font_size=theme.FONT_LARGE
        )
        rows = _column()
        parts_of: dict[str, dict[str, Any]] = {}
        for field in form.fields:
            row = BoxLayout(size_hint_y=None, height=FORM_ROW, spacing=theme.SPACING)
            parts: dict[str, Any] = {}
            parts_of[field.key] = parts
            name = KLabel(text=field.label, font_size=theme.FONT_SMALL)
            name.shorten = False  # a long player name wraps onto a second line
            row.add_widget(name)
            if field.kind == "stepper":
                parts["stepper"] = Stepper(
                    row, lambda d, k=field.key: self.act(lambda p: p.forms.step(k, d))
                )
            elif field.kind == "switch":
                parts["switch"] = button(
                    field.value_text,
                    lambda k=field.key: self.act(lambda p: p.forms.toggle(k)),
                    size_hint_x=None,
                    width=110,
                )
                row.add_widget(parts["switch"])
            else:
                labels = [
                    field.choice_labels[index] if field.choice_labels else str(choice)
                    for index, choice in enumerate(field.choices)
                ]
                choices: Any = row
                if sum(len(label) for label in labels) > CHOICES_IN_A_ROW:
                    # Long choices (players' names) get rows of two under the field's
                    # name instead of squeezing beside it.
                    row.orientation = "vertical"
                    row.spacing = 2
                    choices = GridLayout(cols=2, spacing=theme.SPACING)
                    row.add_widget(choices)
                    name.size_hint_y = None
                    name.height = FORM_ROW // 2
                    lines = -(-len(labels) // 2)
                    row.height = name.height + lines * (FORM_ROW + theme.SPACING)
                for index, choice in enumerate(field.choices):
                    parts[f"choice-{index}"] = button(
                        labels[index],
                        lambda k=field.key, c=choice: self.act(lambda p: p.forms.choose(k, c)),
                        font_size=theme.FONT_SMALL,
                    )
                    choices.add_widget(parts[f"choice-{index}"])
            rows.add_widget(row)
        buttons = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
        buttons.add_widget(
            button("Submit", lambda: self.act(lambda p: p.forms.submit()), role="accent")
        )
        buttons.add_widget(
            button("Cancel", lambda: self.act(lambda p: p.forms.cancel()), size_hint_x=0.5)
        )
        widgets = [title, _scroll_of(rows), buttons]
        self._forms[shape] = (widgets, parts_of)
        self._form_widgets = parts_of
        return widgets

    def _update_form(self, form: FormView) -> None:
        """Same fields, new values: change texts and states in place."""
        for field in form.fields:
            parts = self._form_widgets.get(field.key, {})
            if field.kind == "stepper" and parts:
                parts["stepper"].show(field.value_text, **_step_limits(field))
            elif field.kind == "switch" and parts:
                parts["switch"].text = field.value_text
                parts["switch"].role = "accent" if field.value else "normal"
            else:
                for index, choice in enumerate(field.choices):
                    widget = parts.get(f"choice-{index}")
                    if widget is not None:
                        widget.role = "accent" if choice == field.value else "normal"


def _form_shape(form: FormView) -> object:
    """What a form's widgets are made from (its values are shown in place)."""
    return (
        form.type,
        form.title,
        tuple((f.key, f.kind, f.label, f.choices, f.choice_labels) for f in form.fields),
    )


def _step_limits(field: FormField) -> dict[str, bool]:
    """Which of − and + a form's number field allows (an optional one steps down to —)."""
    return {
        "can_decrease": field.can_decrease,
        "can_increase": field.can_increase,
    }
