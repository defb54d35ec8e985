"""The dice panel's side of the play presenter: faces typed in, the devices, the rolls.

Every roll — "Roll in software", the faces read off the table and typed in, a roll of
the electronic dice (posted by the hub on the main thread) — goes through the
presenter's ``submit``: the touch path and the dice path are one path.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.dice import DiceRequest, Roll
from kiosk.presenters.common import Banner
from kiosk.presenters.devices import DeviceStatus, electronic_dice_ready
from kiosk.presenters.play_view import DicePanel
from kiosk.presenters.queries import StateQueries

MAX_TAPPABLE_FACES = 20  # dice with more sides are entered with a stepper instead


class DicePad:
    """The dice panel's side of the play presenter: the faces typed in so far and the
    dice devices' status. Each roll goes through the presenter's ``submit`` (the touch
    path and the dice path are one path); ``changed`` redraws."""

    def __init__(
        self,
        queries: StateQueries,
        submit: Callable[[object], bool],
        changed: Callable[[], None],
        refuse: Callable[[Banner], None],
        note: Callable[[str], None],
        *,
        held: Callable[[], bool],
    ) -> None:
        self._queries = queries
        self._submit = submit
        self._changed = changed
        self._refuse = refuse
        self._note = note
        #: True (the refusal shown) when a person's input must wait: the turn is held
        #: by a seat not at the screen (PlayPresenter.hold_turn).
        self._held = held
        #: The faces read off the table so far, for a roll of several dice.
        self.entered: tuple[int, ...] = ()
        self.devices: tuple[DeviceStatus, ...] = ()

    def clear(self) -> None:
        """A new position: no faces typed in (the caller redraws)."""
        self.entered = ()

    def panel(self) -> DicePanel | None:
        request = self._queries.dice_request()
        if request is None:
            return None
        players = self._queries.players
        player = (
            players[request.player]
            if request.player is not None and 0 <= request.player < len(players)
            else None
        )
        faces = tuple(range(1, request.sides + 1)) if request.sides <= MAX_TAPPABLE_FACES else ()
        return DicePanel(
            label=request.label,
            count=request.count,
            sides=request.sides,
            player=player,
            entered=self.entered,
            waiting_for_device=electronic_dice_ready(self.devices),
            faces=faces,
        )

    def roll_in_software(self) -> bool:
        self.entered = ()
        return self._submit(Roll(source="software"))

    def tap_face(self, face: int) -> bool:
        """Add one die face read off the table; submits once enough faces are in."""
        request = self._queries.dice_request()
        if request is None:
            return False
        self.entered = (*self.entered, face)
        if len(self.entered) < request.count:
            self._changed()
            return True
        values, self.entered = self.entered, ()
        return self._submit(Roll(values=values, source="manual"))

    def clear_faces(self) -> None:
        self.entered = ()
        self._changed()

    # --- the hub's roll target while the game is on screen (kiosk.hardware.RollTarget) ---

    def dice_request(self) -> DiceRequest | None:
        """The roll the position asks for (None: no dice are wanted)."""
        return self._queries.dice_request()

    def note(self, text: str) -> None:
        """A partial roll's note ("1 of 2 dice in") in the header, drawn by the hub's
        next ``changed``."""
        self._note(text)

    def changed(self) -> None:
        """Redraw (the hub shows a partial roll's note at the end of its drain)."""
        self._changed()

    def electronic_roll(self, roll: Roll) -> bool:
        """A roll from electronic dice, as the hub's collector made it (posted by a device
        thread, drained on the main loop): submitted as it is."""
        if self._held():
            return False
        if self._queries.dice_request() is None:
            self._refuse(Banner("A die was rolled, but no dice are wanted right now."))
            self._changed()
            return False
        return self._submit(roll)

    def note_devices(self, statuses: tuple[DeviceStatus, ...]) -> None:
        """The devices' status, shown at the next redraw (the caller's)."""
        self.devices = statuses

    def set_devices(self, statuses: tuple[DeviceStatus, ...]) -> None:
        self.devices = statuses
        self._changed()
