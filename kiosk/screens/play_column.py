"""The play screen's middle column: what to touch now. One of the table's fix (a step
of the walk-through), the game's outcome, teach mode's pause, a form, or — most of the
time — the last roll, the companion's panel, a previewed move, the dice, the groups'
tabs and the action menu. Its parts are made once and swapped in; the column is laid
out again only when what it shows changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.play_view import PlayView
from kiosk.screens.play_actions import PlayCall
from kiosk.screens.play_dice import DiceBox
from kiosk.screens.play_forms import FormArea, form_shape
from kiosk.screens.play_menu import ActionMenu, RowIntent
from kiosk.screens.play_parts import section
from kiosk.screens.play_table import TableArea
from kiosk.widgets.basic import WrapLabel, button
from kiosk.widgets.companion import CompanionPanel
from kiosk.widgets.layouts import Row
from kiosk.widgets.lists import show_children
from kiosk.widgets.why import WhyPanel

if TYPE_CHECKING:
    from kiosk.presenters.companion import CompanionTurn, CompanionView


class ColumnHost(Protocol):
    """What the column asks of the play screen (:class:`kiosk.screens.play.PlayScreen`)."""

    def act(self, call: PlayCall) -> None: ...

    def roll_sim_tray(self) -> None: ...

    def sim_tray_available(self) -> bool: ...

    def open_scores(self) -> None: ...

    def companion_view(self) -> CompanionView | None: ...

    def companion_act(self, call: Callable[[CompanionTurn], object]) -> None: ...


class PlayColumn:
    """The column ``act`` (the screen's kv id) beside the ``table`` area; ``choose``
    takes a tap on an action's row."""

    def __init__(self, act: Widget, table: TableArea, host: ColumnHost, choose: RowIntent) -> None:
        self.act = act
        self.table = table
        self.host = host
        self._key: object = None
        self.menu = ActionMenu(host.act, choose)
        self.forms = FormArea(host.act)
        self.dice = DiceBox(host.act, host.roll_sim_tray)
        # The last roll (value, purpose, who, source) and a previewed region move: at
        # the top of the column whatever it shows, until the next roll.
        self.last_roll = WrapLabel(font_size=theme.FONT_SMALL, color=theme.TEXT_DIM)
        self.preview = WrapLabel(font_size=theme.FONT_SMALL, color=theme.ACCENT)
        self.fix_text = WrapLabel(font_size=theme.FONT_LARGE)
        self.fix_buttons = Row(
            size_hint_y=None, height=theme.BIG_BUTTON_HEIGHT, spacing=theme.SPACING
        )
        self.fix_done = button("Done", lambda: host.act(lambda p: p.fix.next()), role="accent")
        # Every remaining step at once: the walk-through guides, players who know it skip it.
        self.fix_all = button(
            "All done", lambda: host.act(lambda p: p.fix.finish()), size_hint_x=0.8
        )
        self.fix_box = section(self.fix_text, self.fix_buttons, BoxLayout())
        self.outcome_text = WrapLabel(font_size=theme.FONT_TITLE, bold=True)
        self.winners_text = WrapLabel()
        self.scores_button = button(
            "Scores and export",
            host.open_scores,
            role="accent",
            size_hint_y=None,
            height=theme.BIG_BUTTON_HEIGHT,
        )
        self.outcome_filler = BoxLayout()
        self.outcome_box = section()
        self.companion_panel = CompanionPanel(host.companion_act)
        self.teach_panel = WhyPanel(
            None,
            (
                ("Got it", lambda: host.act(lambda p: p.teacher.next()), "accent"),
                ("Skip\nteaching", lambda: host.act(lambda p: p.teacher.skip()), "normal"),
                ("Show all\nagain", lambda: host.act(lambda p: p.teacher.again()), "normal"),
            ),
        )

    def forget(self) -> None:
        """Another game: its forms are made anew, and the column is shown whole."""
        self.forms.forget()
        self._key = None

    def show(self, view: PlayView, *, again: bool = False) -> None:
        """The column for ``view`` (made again only when it changed, or ``again``: a
        lesson gave the list back)."""
        companion = self.host.companion_view()
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
            None if view.form is None else form_shape(view.form),
            companion,
            view.last_roll,
            view.preview,
            self.table.info.size_hint_x,  # the board's narrow column lays out differently
        )
        if key == self._key and not again:
            if view.form is not None:
                self.forms.update(view.form)
            return
        self._key = key
        act = self.act
        self.last_roll.text = view.last_roll
        rolled: list[Widget] = [self.last_roll] if view.last_roll else []
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
        elif view.outcome is not None:
            self.outcome_text.text = view.outcome
            self.winners_text.text = "Winner: " + " and ".join(view.winners)
            winners = [self.winners_text] if view.winners else []
            show_children(
                self.outcome_box,
                [self.outcome_text, *winners, self.scores_button, self.outcome_filler],
            )
            show_children(act, [self.outcome_box])
        elif view.teach is not None:
            # Teach mode: the rule that matters now, beside the board that shows it.
            self.teach_panel.show(view.teach)
            show_children(act, [self.teach_panel.box])
        elif view.form is not None:
            show_children(act, self.forms.widgets(view.form))
            self.forms.update(view.form)
        else:
            self._show_play(view, rolled, companion)

    def _show_play(
        self, view: PlayView, shown: list[Widget], companion: CompanionView | None
    ) -> None:
        """The column in play: under ``shown`` (the last roll), the companion's panel, a
        previewed move, the dice, the tabs and the menu."""
        act = self.act
        narrow = self.table.narrow
        if self.companion_panel.place(act, shown, companion, dice=view.dice is not None):
            return  # the companion's move is made on the table, not chosen here
        if view.preview:
            self.preview.text = view.preview
            shown.append(self.preview)
        if view.dice is not None:
            # Rows of at most 4 faces beside the board (6 × 48 px do not fit its 260 px
            # column), 6 otherwise.
            tray = self.host.sim_tray_available()
            self.dice.show(view.dice, per_row=4 if narrow else 6, tray=tray)
            shown.append(self.dice.box)
        if self.menu.show_tabs(view, narrow=narrow):
            shown.append(self.menu.tabs)
        if view.actions or view.dice is None:
            self.menu.show(view)
            shown.append(self.menu.list)
        show_children(act, shown)
