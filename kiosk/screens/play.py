"""Play: whose turn, the status line, undo/redo, refusals, dice, actions, log, board."""

from __future__ import annotations

from typing import Any

from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from kiosk import theme
from kiosk.presenters.board import BoardView
from kiosk.presenters.common import humanize
from kiosk.presenters.forms import FormField, FormView
from kiosk.presenters.panels import GamePanel
from kiosk.presenters.play import CORRECTIONS_GROUP, DicePanel, PlayPresenter, PlayView
from kiosk.presenters.setup import seat_colours
from kiosk.screens import KioskScreen
from kiosk.widgets.basic import ChoiceButton, KLabel, KToggle, Stepper, WrapLabel, button
from kiosk.widgets.board import BoardWidget
from kiosk.widgets.led_mirror import LedMirror

ACTION_ROW = 56
FORM_ROW = 52
LOG_SHOWN = 16


def _scroll_of(content: Any) -> Any:
    scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
    scroll.add_widget(content)
    return scroll


def _column(**kwargs: Any) -> Any:
    grid = GridLayout(cols=1, size_hint_y=None, spacing=theme.SPACING, **kwargs)
    grid.bind(minimum_height=grid.setter("height"))
    return grid


class PlayScreen(KioskScreen):
    """Rebuilds only the sections whose view model changed: creating labels is the
    expensive part of a redraw (≈1 ms each here, several on a Pi), and a stepper tap
    should not rebuild the log."""

    presenter: PlayPresenter | None = None
    board: BoardWidget | None = None
    mirror: LedMirror | None = None
    #: What the left area shows: the board, the facts panel and log, or the LED mirror.
    mode = StringProperty("info")
    next_mode_label = StringProperty("")
    _info_key: object = None
    _act_key: object = None
    _form_values: dict[str, tuple[Any, Any, Any, Any]] | None = None

    def bind_presenter(self, presenter: PlayPresenter) -> None:
        if self.presenter is not None:
            self.presenter.unsubscribe(self.refresh)
        self.presenter = presenter
        presenter.subscribe(self.refresh)
        self.board = None
        self._info_key = self._act_key = None
        self.mode = self._modes()[0]
        self._update_mode_label()
        self.refresh()

    def refresh(self) -> None:
        if self.presenter is None:
            return
        board_view = self.kiosk.board_view() if self.kiosk is not None else None
        self.show(self.presenter.view(), board_view)

    # --- drawing ----------------------------------------------------------------------

    def show(self, view: PlayView, board_view: BoardView | None = None) -> None:
        ids = self.ids
        colours = seat_colours(view.game)
        if view.panel.turn_colour is not None:
            ids.turn_colour.colour = theme.rgb_to_rgba(view.panel.turn_colour)
            ids.player.text = f"{view.player} to play"
        elif view.player_seat is not None:
            ids.turn_colour.colour = theme.rgb_to_rgba(colours[view.player_seat % len(colours)])
            ids.player.text = f"{view.player} to play"
        else:
            ids.turn_colour.colour = theme.ACCENT
            ids.player.text = "Game over" if view.outcome else view.title
        ids.status.text = view.status
        ids.devices.text = "\n".join(view.devices)
        ids.undo.disabled = not view.can_undo
        ids.redo.disabled = not view.can_redo
        self._banner(view)
        self._info(view, board_view)
        self._act(view)

    def _banner(self, view: PlayView) -> None:
        banner = self.ids.banner
        if view.banner is not None:
            banner.text = f"{view.banner.text}      (tap to close)"
            banner.background_color = theme.DANGER
            banner.disabled_color = theme.DANGER_TEXT
            banner.color = theme.DANGER_TEXT
        elif view.notice:
            banner.text = view.notice
            banner.background_color = theme.NOTICE
            banner.color = theme.TEXT
        shown = view.banner is not None or bool(view.notice)
        banner.disabled = not shown
        banner.height = 56 if shown else 0
        banner.opacity = 1 if shown else 0

    def _info(self, view: PlayView, board_view: BoardView | None) -> None:
        key = (view.panel, view.log[:LOG_SHOWN], board_view, self.mode)
        if key == self._info_key:
            return
        self._info_key = key
        info = self.ids.info
        info.clear_widgets()
        if self.mode == "leds" and self.mirror is not None:
            info.size_hint_x = None
            self._fit_board()
            info.add_widget(self.mirror)
            return
        if board_view is not None and self.mode == "board":
            info.size_hint_x = None
            self._fit_board()
            if self.board is None:
                self.board = BoardWidget()
                self.board.on_cell = self._tap_cell
            self.board.show(board_view)
            info.add_widget(self.board)
            return
        info.size_hint_x = 0.46
        # Facts and log scroll together: a long facts panel (or the refusal banner taking
        # room) must not push text over the header.
        log = _column()
        log.add_widget(self._panel(view.panel))
        for line in view.log[:LOG_SHOWN]:
            log.add_widget(
                WrapLabel(text=f"{line.number}. {line.text}", font_size=theme.FONT_SMALL)
            )
        if not view.log:
            log.add_widget(WrapLabel(text="No moves yet.", color=theme.TEXT_DIM))
        info.add_widget(_scroll_of(log))

    def set_led_layout(
        self, positions: dict[str, tuple[float, float]], cells: dict[str, tuple[int, ...]]
    ) -> None:
        self.mirror = LedMirror()
        self.mirror.set_layout(positions, cells)
        self._update_mode_label()

    def _modes(self) -> list[str]:
        modes = ["board"] if self.kiosk is not None and self.kiosk.board_geometry else []
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
        self.next_mode_label = {"board": "Board", "info": "Table", "leds": "LEDs"}[following]

    def next_mode(self) -> None:
        """Cycle the left area: board → table (facts and log) → LED mirror → board."""
        modes = self._modes()
        self.mode = (
            modes[(modes.index(self.mode) + 1) % len(modes)] if self.mode in modes else modes[0]
        )
        self._update_mode_label()
        self.refresh()

    def on_kv_post(self, base_widget: Any) -> None:
        self.ids.main.bind(height=self._fit_board)

    def _fit_board(self, *_: Any) -> None:
        """A board is as wide as the play area is high: the biggest squares that fit."""
        info = self.ids.info
        if info.size_hint_x is None:
            info.width = max(200, self.ids.main.height - 2 * theme.PADDING)

    def _tap_cell(self, cell: str) -> None:
        if self.presenter is not None:
            self.presenter.tap_cell(cell)

    def _panel(self, panel: GamePanel) -> Any:
        box = _column()
        if panel.rows:
            table = GridLayout(cols=1 + len(panel.columns), size_hint_y=None, spacing=2)
            table.bind(minimum_height=table.setter("height"))
            header = any(panel.columns)
            if header:
                table.add_widget(KLabel(text="", size_hint_y=None, height=30))
            for seat, name in enumerate(panel.columns if header else ()):
                current = seat == panel.highlight_column
                table.add_widget(
                    KLabel(
                        text=name,
                        size_hint_y=None,
                        height=30,
                        bold=current,
                        color=theme.ACCENT if current else theme.TEXT,
                        halign="center",
                        font_size=theme.FONT_SMALL,
                    )
                )
            for row in panel.rows:
                table.add_widget(
                    KLabel(
                        text=row.label,
                        size_hint_y=None,
                        height=30,
                        font_size=theme.FONT_SMALL,
                        color=theme.TEXT_DIM,
                    )
                )
                for value in row.values:
                    table.add_widget(
                        KLabel(text=value, size_hint_y=None, height=30, halign="center")
                    )
            box.add_widget(table)
        for fact in panel.facts:
            box.add_widget(WrapLabel(text=fact, font_size=theme.FONT_SMALL))
        return box

    def _act(self, view: PlayView) -> None:
        form_shape = (
            None
            if view.form is None
            else (view.form.type, tuple((f.key, f.kind, f.choices) for f in view.form.fields))
        )
        key = (
            view.fix,
            view.outcome,
            view.winners,
            view.dice,
            view.groups,
            view.group,
            view.actions,
            view.more_actions,
            view.formable,
            form_shape,
            self.ids.info.size_hint_x,  # the board's narrow column lays out differently
        )
        if key == self._act_key and view.form is not None:
            self._update_form(view.form)
            return
        if key == self._act_key:
            return
        self._act_key = key
        self._form_values = None
        act = self.ids.act
        act.clear_widgets()
        presenter = self.presenter
        assert presenter is not None
        if view.fix is not None:
            act.add_widget(
                WrapLabel(
                    text=f"Fix the table — step {view.fix.number} of {view.fix.total}:\n"
                    f"{view.fix.instruction}",
                    font_size=theme.FONT_LARGE,
                )
            )
            act.add_widget(
                button(
                    "Done",
                    presenter.next_fix_step,
                    role="accent",
                    size_hint_y=None,
                    height=theme.BIG_BUTTON_HEIGHT,
                )
            )
            act.add_widget(BoxLayout())
            return
        if view.outcome is not None:
            act.add_widget(WrapLabel(text=view.outcome, font_size=theme.FONT_TITLE, bold=True))
            if view.winners:
                act.add_widget(WrapLabel(text="Winner: " + " and ".join(view.winners)))
            act.add_widget(
                button(
                    "Scores and export",
                    self.kiosk.open_scores,
                    role="accent",
                    size_hint_y=None,
                    height=theme.BIG_BUTTON_HEIGHT,
                )
            )
            act.add_widget(BoxLayout())
            return
        if view.form is not None:
            self._form(act, view.form)
            return
        if view.dice is not None:
            act.add_widget(self._dice(view.dice))
        # One group needs no tabs, unless it is "Correct the table": while only a die is
        # awaited it is the only group, and it must stay one tap away.
        if len(view.groups) > 1 or any(g.key == CORRECTIONS_GROUP for g in view.groups):
            narrow = self.ids.info.size_hint_x is None  # a board takes the left area
            tabs = GridLayout(
                cols=min(2 if narrow else 3, len(view.groups)),
                size_hint_y=None,
                spacing=theme.SPACING,
            )
            tabs.bind(minimum_height=tabs.setter("height"))
            for group in view.groups:
                tab = KToggle(
                    text=f"{group.label} ({group.count})",
                    group=f"groups-{id(self)}",
                    state="down" if group.key == view.group else "normal",
                    size_hint_y=None,
                    height=theme.TOUCH_MIN + 4,
                    font_size=theme.FONT_SMALL + 1,
                )
                tab.bind(on_release=lambda _w, key=group.key: presenter.choose_group(key))
                tabs.add_widget(tab)
            act.add_widget(tabs)
        actions = _column()
        if view.formable:
            actions.add_widget(
                button(
                    f"Enter amounts for {humanize(view.group or '')}…",
                    presenter.open_form,
                    role="accent",
                    size_hint_y=None,
                    height=ACTION_ROW,
                )
            )
        for index, choice in enumerate(view.actions):
            actions.add_widget(
                button(
                    choice.label,
                    lambda i=index: presenter.choose(i),
                    cls=ChoiceButton,
                    size_hint_y=None,
                    height=ACTION_ROW,
                )
            )
        if view.more_actions:
            actions.add_widget(
                WrapLabel(
                    text=f"… and {view.more_actions} more (select on the board to narrow)",
                    color=theme.TEXT_DIM,
                    font_size=theme.FONT_SMALL,
                )
            )
        if view.actions or view.dice is None:
            act.add_widget(_scroll_of(actions))

    def _form(self, act: Any, form: FormView) -> None:
        presenter = self.presenter
        assert presenter is not None
        act.add_widget(
            KLabel(
                text=form.title, size_hint_y=None, height=34, bold=True, font_size=theme.FONT_LARGE
            )
        )
        rows = _column()
        self._form_widgets: dict[str, dict[str, Any]] = {}
        for field in form.fields:
            row = BoxLayout(size_hint_y=None, height=FORM_ROW, spacing=theme.SPACING)
            parts: dict[str, Any] = {}
            self._form_widgets[field.key] = parts
            row.add_widget(KLabel(text=field.label, font_size=theme.FONT_SMALL + 1))
            if field.kind == "stepper":
                stepper = Stepper(row, lambda d, k=field.key: presenter.form_step(k, d))
                stepper.show(field.value_text, **_step_limits(field))
                parts["stepper"] = stepper
            elif field.kind == "switch":
                parts["switch"] = button(
                    field.value_text,
                    lambda k=field.key: presenter.form_toggle(k),
                    role="accent" if field.value else "normal",
                    size_hint_x=None,
                    width=110,
                )
                row.add_widget(parts["switch"])
            else:
                for index, choice in enumerate(field.choices):
                    label = (
                        field.choice_labels[index] if field.choice_labels else humanize(str(choice))
                    )
                    parts[f"choice-{index}"] = button(
                        label,
                        lambda k=field.key, c=choice: presenter.form_choose(k, c),
                        role="accent" if choice == field.value else "normal",
                        font_size=theme.FONT_SMALL,
                    )
                    row.add_widget(parts[f"choice-{index}"])
            rows.add_widget(row)
        act.add_widget(_scroll_of(rows))
        buttons = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
        buttons.add_widget(button("Submit", presenter.form_submit, role="accent"))
        buttons.add_widget(button("Cancel", presenter.form_cancel, size_hint_x=0.5))
        act.add_widget(buttons)

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

    def _dice(self, dice: DicePanel) -> Any:
        presenter = self.presenter
        assert presenter is not None
        box = _column()
        box.add_widget(WrapLabel(text=dice.prompt, font_size=theme.FONT_BODY))
        if dice.entered:
            box.add_widget(
                WrapLabel(
                    text="Entered: " + " ".join(str(v) for v in dice.entered), color=theme.ACCENT
                )
            )
        if dice.faces:
            # Rows of at most 4 faces beside the board (6 × 48 px do not fit its 260 px
            # column), 6 otherwise; balanced, so a d6 is 2 rows of 3, not 4 + 2.
            per_row = 4 if self.ids.info.size_hint_x is None else 6
            rows = -(-len(dice.faces) // per_row)
            faces = GridLayout(
                cols=-(-len(dice.faces) // rows), size_hint_y=None, spacing=theme.SPACING
            )
            faces.bind(minimum_height=faces.setter("height"))
            for face in dice.faces:
                faces.add_widget(
                    button(
                        str(face),
                        lambda f=face: presenter.tap_face(f),
                        size_hint_y=None,
                        height=theme.BUTTON_HEIGHT,
                        font_size=theme.FONT_LARGE,
                    )
                )
            box.add_widget(faces)
        row = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
        row.add_widget(button("Roll in software", presenter.roll_in_software, role="accent"))
        if dice.entered:
            row.add_widget(button("Clear", presenter.clear_faces, size_hint_x=0.4))
        box.add_widget(row)
        if self.kiosk is not None and self.kiosk.sim_tray_available():
            # Simulated hardware: roll the "electronic" dice of the simulated tray, which
            # reach the game through the pty and the real serial reader.
            box.add_widget(
                button(
                    "Roll the simulated tray",
                    self.kiosk.roll_sim_tray,
                    size_hint_y=None,
                    height=theme.BUTTON_HEIGHT,
                )
            )
        return box


def _step_limits(field: FormField) -> dict[str, bool]:
    """Which of − and + a form's number field allows (an optional one steps down to —)."""
    return {
        "can_decrease": field.value is not None and (field.value > field.minimum or field.optional),
        "can_increase": field.value is None or field.value < field.maximum,
    }
