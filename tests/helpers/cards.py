"""The card games' play presenters, each after some random moves."""

from __future__ import annotations

from typing import Any

from companion.bot import RandomBot
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from tests.helpers.builders import TABLE

GAMES: list[tuple[str, tuple[str, ...], dict[str, Any] | None]] = [
    ("builders", ("Ann", "Bob", "Cy"), None),
    ("builders", ("Ann", "Bob", "Cy", "Di"), {"blueprints": TABLE}),
    ("colossus_solo", ("Ann",), None),
]


def played(game: int, seed: int, steps: int) -> PlayPresenter:
    name, players, options = GAMES[game]
    presenter = PlayPresenter(Session.new(name, players, options, seed=seed))
    bot = RandomBot(seed)
    for _ in range(steps):
        action = bot.choose(presenter.rules, presenter.state)
        if action is None:
            break
        presenter.submit(action)
    return presenter
