"""Home: start a game, resume an unfinished one, see recent results."""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.home import HomeView
from kiosk.screens import KioskScreen
from kiosk.widgets.basic import KButton, WrapLabel, button
from kiosk.widgets.lists import WidgetPool, show_children

#: The button beside each game that has a scripted first game (kiosk.teaching.lessons).
#: Narrow, so the longest title keeps one line beside it.
LEARN = "Learn it\n10 min"


class HomeScreen(KioskScreen):
    """Shown after every game: its buttons and lines are made once and relabelled."""

    def on_kv_post(self, base_widget: Widget) -> None:
        self._game_buttons = WidgetPool(None, self._game_button)
        self._problems = WidgetPool(None, lambda: WrapLabel(color=theme.TEXT_DIM))
        self._resume_buttons = WidgetPool(None, self._resume_button)
        self._no_resumable = WrapLabel(text="No unfinished games.", color=theme.TEXT_DIM)
        self._recent = WidgetPool(None, lambda: WrapLabel(font_size=theme.FONT_SMALL))
        self._no_recent = WrapLabel(text="No finished games yet.", color=theme.TEXT_DIM)
        self._admin: KButton | None = None

    def offer_admin(self, open_admin: Callable[[], None]) -> None:
        """An Admin button in the header beside the device badges (an unlocked shop
        kiosk; a locked one reaches admin by the long press on a title only)."""
        if self._admin is None:
            self._admin = button("Admin", open_admin, size_hint_x=None, width=110)
            self.ids.devices.parent.add_widget(self._admin)

    def _game_button(self) -> BoxLayout:
        """A game's row: its button opens Setup, "Learn it" starts its lesson."""
        row = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT + 4, spacing=theme.SPACING)
        row.game = KButton(font_size=theme.FONT_BODY)
        row.game.bind(on_release=lambda w: self.kiosk.open_setup(w.game))
        row.learn = KButton(
            text=LEARN, role="accent", font_size=theme.FONT_SMALL, size_hint_x=None, width=86
        )
        row.learn.bind(on_release=lambda w: self.kiosk.start_lesson(w.game))
        row.add_widget(row.game)
        return row

    def _resume_button(self) -> KButton:
        widget = KButton(role="accent", size_hint_y=None, height=theme.BIG_BUTTON_HEIGHT)
        widget.bind(on_release=lambda w: self.kiosk.resume(w.game_id))
        return widget

    def show(self, view: HomeView, devices: str = "") -> None:
        self.ids.devices.text = devices
        games = self._game_buttons.show(len(view.games))
        for row, card in zip(games, view.games, strict=True):
            row.game.text = f"{card.title}\n{card.players}"
            row.game.game = row.learn.game = card.name
            show_children(row, [row.game, row.learn] if card.learn else [row.game])
        problems = self._problems.show(len(view.problems))
        for label, problem in zip(problems, view.problems, strict=True):
            label.text = f"Not available: {problem}"
        show_children(self.ids.games, [*games, *problems])
        resumable = self._resume_buttons.show(len(view.resumable))
        for widget, resume in zip(resumable, view.resumable, strict=True):
            widget.text = f"{resume.title} — {resume.players}\n{resume.detail}"
            widget.game_id = resume.game_id
        show_children(self.ids.resumable, resumable or [self._no_resumable])
        recent = self._recent.show(len(view.recent))
        for label, line in zip(recent, view.recent, strict=True):
            label.text = line.text
        show_children(self.ids.recent, recent or [self._no_recent])
