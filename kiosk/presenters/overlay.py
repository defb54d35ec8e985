"""What a sensing board adds to the play screen (``kiosk/presenters/sensing.py`` decides).

Squares that differ from the game (red: take off, green: put on), the moves that fit
the board when several do (the action menu narrows to them), and a notice. While
there is an overlay it replaces the game's highlights on the board and the LEDs.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.highlights import Highlight
from kiosk.presenters.payloads import Payload


class SensingOverlay:
    """The sensing board's verdict as shown; set only through :meth:`show`."""

    def __init__(self, forget_menus: Callable[[], None]) -> None:
        self._forget_menus = forget_menus
        self.highlights: tuple[Highlight, ...] = ()
        #: The moves that fit the board (None: the menu lists every legal action).
        self.choices: tuple[Payload, ...] | None = None
        self.notice = ""

    def show(
        self,
        highlights: tuple[Highlight, ...],
        choices: tuple[Payload, ...] | None,
        notice: str = "",
    ) -> None:
        """What the sensing board's driver wants shown: lit squares that replace the
        game's highlights, the candidate moves the action menu narrows to, a notice.
        The caller redraws (``changed``)."""
        if choices != self.choices:
            self._forget_menus()
        self.highlights = highlights
        self.choices = choices
        self.notice = notice

    def shown(self) -> tuple[tuple[Highlight, ...], tuple[Payload, ...] | None, str]:
        return (self.highlights, self.choices, self.notice)
