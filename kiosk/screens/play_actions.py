"""What the play screen uses of the game's presenter, as a :class:`typing.Protocol`.

The screen's widgets call bound methods (checked by the type checker, never looked up by
name) of the collaborators of the core (``PlayPresenter``) that own what a tap changes:
the action menu, board input, the dice panel, the fix walk, the forms, teach mode and
"Why?".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from kiosk.presenters.board_input import BoardInput
from kiosk.presenters.common import Banner
from kiosk.presenters.dice_pad import DicePad
from kiosk.presenters.fix_walk import FixWalk
from kiosk.presenters.form_desk import FormDesk
from kiosk.presenters.menu_desk import MenuDesk
from kiosk.presenters.play_view import PlayView
from kiosk.presenters.queries import StateQueries
from kiosk.presenters.teach import Teacher


class PlayActions(Protocol):
    """What the play screen uses of the game's presenter (``PlayPresenter``): its view
    and banner, and the collaborators its widgets' intents go to."""

    @property
    def banner(self) -> Banner | None: ...

    @property
    def queries(self) -> StateQueries: ...

    @property
    def action_menu(self) -> MenuDesk: ...

    @property
    def board_input(self) -> BoardInput: ...

    @property
    def dice(self) -> DicePad: ...

    @property
    def fix(self) -> FixWalk: ...

    @property
    def forms(self) -> FormDesk: ...

    @property
    def teacher(self) -> Teacher: ...

    def view(self, *, menu: bool = True) -> PlayView: ...


PlayCall = Callable[[PlayActions], object]
"""A widget's intent: a bound method of the presenter on screen, called with it."""
Act = Callable[[PlayCall], None]
"""How a widget made once reaches the presenter of the game on screen now
(:meth:`kiosk.screens.play.PlayScreen.act`)."""
