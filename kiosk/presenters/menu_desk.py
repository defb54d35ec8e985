"""The play presenter's action menu: made for what is selected, and what its buttons do.

The menu lists the legal actions of the position on screen (``StateQueries.menu``, made
once per state for each focus and group): all of them, those a touch on the board or a
tile narrowed it to (``BoardInput``), or the moves that fit a sensing board
(``SensingOverlay.choices``). A button of a list plays its action; a group of one plays
it at once; a correction opens its form instead (a correction is entered, never sent
unchanged, RULINGS 0.2.1).
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.presenters.board_input import BoardInput
from kiosk.presenters.form_desk import FormDesk
from kiosk.presenters.menus import CORRECTIONS_GROUP, Menu
from kiosk.presenters.overlay import SensingOverlay
from kiosk.presenters.queries import StateQueries


class MenuDesk:
    """The action menu of the current focus and group, and the taps on it. Every action
    goes through the presenter's ``submit``; ``changed`` redraws."""

    def __init__(
        self,
        queries: StateQueries,
        board_input: BoardInput,
        overlay: SensingOverlay,
        forms: FormDesk,
        submit: Callable[[object], bool],
        changed: Callable[[], None],
        *,
        held: Callable[[], bool],
    ) -> None:
        self._queries = queries
        self._board_input = board_input
        self._overlay = overlay
        self._forms = forms
        self._submit = submit
        self._changed = changed
        #: True (the refusal shown) when a person's input must wait: the turn is held
        #: by a seat not at the screen (PlayPresenter.hold_turn).
        self._held = held

    def menu(self) -> Menu:
        """The action menu of the current focus and group (``StateQueries.menu``)."""
        board = self._board_input
        return self._queries.menu(board.focus, board.group, self._overlay.choices, self._forms)

    def choose(self, index: int) -> bool:
        """Tap on the ``index``-th action button of the menu.

        In the "Correct the table" group the tap opens the correction's form instead
        (True when it opened): a correction is entered, never sent unchanged.
        """
        if self._held():
            return False
        menu = self.menu()
        actions = menu.actions
        if not 0 <= index < len(actions):
            return False
        payload = actions[index].payload
        if menu.group == CORRECTIONS_GROUP:
            return self._forms.open_correction(payload)
        return self._submit(payload)

    def choose_group(self, key: str) -> bool:
        """Show ``key``'s actions, or play it when the group is one action (True when
        played); a second tap on "Correct the table" closes that list."""
        if self._held():
            return False
        group = next((g for g in self.menu().groups if g.key == key), None)
        if group is not None and group.payload is not None:
            return self._submit(group.payload)
        self._board_input.toggle_group(key)
        self._changed()
        return False

    def open_form(self, key: str | None = None) -> bool:
        """Edit the amounts of an action of group ``key`` (the group shown when None)."""
        if self._held():
            return False
        return self._forms.open(key or self.menu().group)
