"""Counting the taps a turn takes (no Kivy): a player who knows what to do, touching
the screen the cheapest way the play screen offers.

:class:`TapCounter` performs one action through the presenter's intents as a person
would — a die read off the electronic tray costs no tap, an action on the board costs
its touches there, one in the menu costs its row (and its group's tab when that group
is not shown), one on a card game's tiles its touch there (and the narrowed menu's row
when the tile names several actions, if that is no dearer than the menu) — and counts
each intent as one tap; ``tiles=False`` counts the screen as it was before the tiles.
Steps of the fix-the-table walk-through are counted apart ("All done", one tap): they
follow the physical table, not a choice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.dice import Roll
from kiosk.presenters.cards import tile_taps
from kiosk.presenters.play import PlayPresenter

Pick = Callable[[dict[str, Any]], bool]


@dataclass
class TapCounter:
    presenter: PlayPresenter
    taps: int = 0
    done_taps: int = 0
    ways: list[str] = field(default_factory=list)
    tiles: bool = True

    def _tap(self, intent: Callable[..., Any], *args: Any) -> Any:
        self.taps += 1
        return intent(*args)

    def settle(self) -> None:
        """Confirm every fix-the-table step, then read each die off the electronic tray."""
        p = self.presenter
        while True:
            if p.fix.step is not None:  # "All done" (one "Done" per step also works)
                self.done_taps += 1
                p.fix.finish()
            if p.queries.dice_request() is None:
                return
            assert p.dice.electronic_roll(Roll(values=None, source="software"))
            self.ways.append("die")

    def act(self, pick: Pick) -> dict[str, Any]:
        """Play the first listed action ``pick`` accepts, the cheapest way; returns it."""
        self.settle()
        p = self.presenter
        payload = next(x for x in p.queries.legal_payloads() if pick(x))
        before = len(p.session.actions)
        ways = (
            ("board", self._on_the_board),
            ("tile", self._on_the_tiles),
            ("form", self._from_the_form),
        )
        for name, way in (*ways, ("menu", self._from_the_menu)):
            if way(payload):
                self.ways.append(name)
                assert len(p.session.actions) == before + 1, (payload, p.banner)
                self.settle()
                return payload
        raise AssertionError(f"no way to play {payload}")

    def _on_the_board(self, payload: dict[str, Any]) -> bool:
        p = self.presenter
        if p.board_input.geometry() is None:
            return False
        taps = p.board_input.board_taps(payload)
        if not taps:
            return False
        for cell in taps:
            self._tap(p.board_input.tap_cell, cell)
        return True

    def _on_the_tiles(self, payload: dict[str, Any]) -> bool:
        """A tile that plays it alone (one touch), or its tile narrowing the menu and
        the row there when that costs no more than the menu as it stands."""
        p = self.presenter
        if not self.tiles:
            return False
        taps = tile_taps(p.queries, payload)
        if taps:
            for key in taps:
                self._tap(p.board_input.tap_tile, key)
            return True
        target = p.queries.cells_of(payload).target
        if target is None or p.forms.form is not None:
            return False
        named = p.queries.payloads_at(target)
        narrowed = 2 if named and named[0].get("type") == payload.get("type") else 3
        if narrowed > self._menu_cost(payload):
            return False
        self._tap(p.board_input.tap_tile, target)
        return self._from_the_menu(payload)

    def _menu_cost(self, payload: dict[str, Any]) -> int:
        view = self.presenter.view()
        if any(g.plays and g.payload == payload for g in view.groups):
            return 1
        return 1 if view.group == payload.get("type") else 2

    def _from_the_form(self, payload: dict[str, Any]) -> bool:
        """An entry form opened by itself: its prefilled values submitted (one tap)."""
        p = self.presenter
        form = p.forms.form
        if form is None or form.payload().get("type") != payload.get("type"):
            return False
        return bool(self._tap(p.forms.submit))

    def _from_the_menu(self, payload: dict[str, Any]) -> bool:
        p = self.presenter
        view = p.view()
        plays = next((g for g in view.groups if g.plays and g.payload == payload), None)
        if plays is not None:  # a group of one action: its button plays it
            return bool(self._tap(p.action_menu.choose_group, plays.key))
        if view.group != payload.get("type"):
            self._tap(p.action_menu.choose_group, str(payload.get("type")))
            view = p.view()
        index = next(i for i, a in enumerate(view.actions) if a.payload == payload)
        return bool(self._tap(p.action_menu.choose, index))


def of_type(*types: str) -> Pick:
    return lambda payload: payload.get("type") in types
