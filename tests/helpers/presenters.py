"""Play presenters in positions several presenter tests start from."""

from __future__ import annotations

from typing import TypeVar

from companion.rules import GameState
from companion.session import Session
from kiosk.presenters.play import PlayPresenter

S = TypeVar("S", bound=GameState)


def state_as(play: PlayPresenter, kind: type[S]) -> S:
    """The position on screen as the game's own state (a test knows which game it plays;
    the presenter holds every game's as a ``GameState``)."""
    state = play.state
    assert isinstance(state, kind), f"a {type(state).__name__} on screen, not a {kind.__name__}"
    return state


def colossi_age_revealed() -> PlayPresenter:
    """Colossi with an Age card of two Beasts revealed: a roll-off for the Lairs is due."""
    presenter = PlayPresenter(Session.new("colossi", ("Ann", "Bob", "Cy"), seed=3))
    reveal = next(
        p
        for p in presenter.queries.legal_payloads()
        if p["type"] == "reveal_age"
        and isinstance(beasts := p.get("beasts"), list)
        and len(beasts) == 2
    )
    presenter.submit(reveal)
    return presenter
