"""What the play screen uses of the game's presenter, as a :class:`typing.Protocol`.

The screen's widgets call bound methods of the presenter (checked by the type checker,
never looked up by name): its view, the intents of the core (``PlayPresenter``) and of
the collaborators some of them go to (the dice panel, the forms, teach mode and "Why?").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from kiosk.presenters.dice_pad import DicePad
from kiosk.presenters.form_desk import FormDesk
from kiosk.presenters.play_view import PlayView
from kiosk.presenters.teach import Teacher


class PlayActions(Protocol):
    """What the play screen uses of the game's presenter (``PlayPresenter``): its view,
    the intents of its widgets, and the collaborators some of them go to."""

    @property
    def dice(self) -> DicePad: ...

    @property
    def forms(self) -> FormDesk: ...

    @property
    def teacher(self) -> Teacher: ...

    @property
    def tiled(self) -> bool: ...

    def view(self, *, menu: bool = True) -> PlayView: ...

    def choose(self, index: int) -> bool: ...

    def choose_group(self, key: str) -> bool: ...

    def open_form(self, key: str | None = None) -> bool: ...

    def next_fix_step(self) -> None: ...

    def finish_fix(self) -> None: ...

    def tap_cell(self, cell: str) -> bool: ...

    def tap_tile(self, key: str) -> bool: ...


PlayCall = Callable[[PlayActions], object]
"""A widget's intent: a bound method of the presenter on screen, called with it."""
Act = Callable[[PlayCall], None]
"""How a widget made once reaches the presenter of the game on screen now
(:meth:`kiosk.screens.play.PlayScreen.act`)."""
