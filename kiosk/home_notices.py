"""Home's banner under its title: the configuration's and the devices' problems (the
first few, and how many more), the fleet's notice, and a die read while no game was on
screen (until Home is shown again)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from kivy.uix.widget import Widget

log = logging.getLogger(__name__)

HOME_PROBLEMS_SHOWN = 3


class HomeNotices:
    """What ``banner`` says: ``problems`` (a list the kiosk's collaborators append to)
    and ``fleet_notice``'s words, then the notice of a die read off the game."""

    def __init__(
        self, banner: Widget, problems: list[str], fleet_notice: Callable[[], str]
    ) -> None:
        self.banner = banner
        self.problems = problems
        self.fleet_notice = fleet_notice
        self.off_game = ""  # a die read with no game on screen (see off_game_roll)

    def off_game_roll(self, notice: str) -> None:
        """A die read with no game on screen: the banner says it was not used (until
        Home is shown again)."""
        log.info("%s", notice)
        self.off_game = notice
        self.show()

    def show(self) -> None:
        banner = self.banner
        shown = self.problems[:HOME_PROBLEMS_SHOWN]
        more = len(self.problems) - len(shown)
        notices = (*shown, self.fleet_notice(), self.off_game)
        text = "\n".join(f"• {problem}" for problem in notices if problem)
        if more > 0:
            text += f"\n… and {more} more (run companion doctor)."
        banner.text = text
        banner.opacity = 1 if text else 0
        if not text:
            banner.height = 0
