"""The kiosk's screens other than Home, each made when first shown.

Launch shows Home only: each screen's module (and its .kv) loads with the screen, the
first time it is needed (the play screen alone is ≈150 M instructions and ≈3 MB;
docs/kiosk.md, "Startup"). :class:`ScreenSet` makes them and adds them to the kiosk's
screen manager; :class:`kiosk.navigation.Kiosk` decides which one is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kivy.uix.screenmanager import ScreenManager

from kiosk.screens import Stage

if TYPE_CHECKING:
    from kiosk.screens.guided_setup import GuidedSetupScreen
    from kiosk.screens.play import PlayScreen
    from kiosk.screens.scores import ScoresScreen
    from kiosk.screens.setup import SetupScreen


class ScreenSet:
    """Setup, play, scores and guided setup of ``stage`` (the kiosk the screens call),
    made in ``manager`` when first asked for; ``play_made`` hears of the play screen
    once it exists (the LED mirror goes on it)."""

    def __init__(
        self,
        manager: ScreenManager,
        stage: Stage,
        play_made: Callable[[PlayScreen], None],
    ) -> None:
        self.manager = manager
        self.stage = stage
        self._play_made = play_made
        self._setup: SetupScreen | None = None
        self._play: PlayScreen | None = None
        self._scores: ScoresScreen | None = None
        self._guided: GuidedSetupScreen | None = None

    @property
    def setup(self) -> SetupScreen:
        if self._setup is None:
            # The Window is imported here as everywhere: importing it opens it.
            from kivy.core.window import Window

            from kiosk.screens.setup import SetupScreen
            from kiosk.widgets import keyboard

            # Its name fields are the app's only text fields: the on-screen keyboard they
            # bring up is laid out before it can be touched (kiosk/widgets/keyboard.py).
            keyboard.install(Window)

            self._setup = SetupScreen(name="setup", kiosk=self.stage)
            self.manager.add_widget(self._setup)
        return self._setup

    @property
    def play(self) -> PlayScreen:
        if self._play is None:
            from kiosk.screens.play import PlayScreen

            self._play = PlayScreen(name="play", kiosk=self.stage)
            self.manager.add_widget(self._play)
            self._play_made(self._play)
        return self._play

    @property
    def play_made(self) -> PlayScreen | None:
        """The play screen if it has been shown (a look at it that does not make it)."""
        return self._play

    @property
    def scores(self) -> ScoresScreen:
        if self._scores is None:
            from kiosk.screens.scores import ScoresScreen

            self._scores = ScoresScreen(name="scores", kiosk=self.stage)
            self.manager.add_widget(self._scores)
        return self._scores

    @property
    def guided(self) -> GuidedSetupScreen:
        if self._guided is None:
            from kiosk.screens.guided_setup import GuidedSetupScreen

            self._guided = GuidedSetupScreen(name="guided_setup", kiosk=self.stage)
            self.manager.add_widget(self._guided)
        return self._guided
