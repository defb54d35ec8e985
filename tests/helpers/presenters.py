"""Play presenters in positions several presenter tests start from."""

from __future__ import annotations

from companion.session import Session
from kiosk.presenters.play import PlayPresenter


def colossi_age_revealed() -> PlayPresenter:
    """Colossi with an Age card of two Beasts revealed: a roll-off for the Lairs is due."""
    presenter = PlayPresenter(Session.new("colossi", ("Ann", "Bob", "Cy"), seed=3))
    reveal = next(
        p
        for p in presenter.legal_payloads()
        if p["type"] == "reveal_age"
        and isinstance(beasts := p.get("beasts"), list)
        and len(beasts) == 2
    )
    presenter.submit(reveal)
    return presenter
