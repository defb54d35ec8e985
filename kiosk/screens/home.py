"""Home: start a game, resume an unfinished one, see recent results."""

from __future__ import annotations

from kiosk import theme
from kiosk.presenters.home import HomeView
from kiosk.screens import KioskScreen
from kiosk.widgets.basic import WrapLabel, button


class HomeScreen(KioskScreen):
    def show(self, view: HomeView, devices: str = "") -> None:
        self.ids.devices.text = devices
        games = self.ids.games
        games.clear_widgets()
        for card in view.games:
            games.add_widget(
                button(
                    f"{card.title}\n{card.players}",
                    lambda name=card.name: self.kiosk.open_setup(name),
                    size_hint_y=None,
                    height=theme.BUTTON_HEIGHT + 4,
                    font_size=theme.FONT_BODY,
                )
            )
        for problem in view.problems:
            games.add_widget(WrapLabel(text=f"Not available: {problem}", color=theme.TEXT_DIM))
        resumable = self.ids.resumable
        resumable.clear_widgets()
        for resume in view.resumable:
            resumable.add_widget(
                button(
                    f"{resume.title} — {resume.players}\n{resume.detail}",
                    lambda game_id=resume.game_id: self.kiosk.resume(game_id),
                    role="accent",
                    size_hint_y=None,
                    height=theme.BIG_BUTTON_HEIGHT,
                )
            )
        if not view.resumable:
            resumable.add_widget(WrapLabel(text="No unfinished games.", color=theme.TEXT_DIM))
        recent = self.ids.recent
        recent.clear_widgets()
        for line in view.recent:
            recent.add_widget(WrapLabel(text=line.text, font_size=theme.FONT_SMALL))
        if not view.recent:
            recent.add_widget(WrapLabel(text="No finished games yet.", color=theme.TEXT_DIM))
