"""The app side of the hardware: one thread-safe queue, drained on the main thread.

Device threads (the dice readers, the button panel, the LED animator) only ever call
:meth:`HardwareHub.post` — ``queue.Queue.put`` plus a wake-up — with a message from
:mod:`firmware_bridge.rig`. The main thread calls :meth:`HardwareHub.pump`:

* :class:`TrayStatus` updates the header badges (connected / reconnecting… / battery);
* single :class:`DieResult` values are collected (:class:`DiceCollector`: the right kind
  of die, until the pending request has its count), then submitted as one electronic
  ``Roll`` through the play presenter — the same path as a tap. A partial roll's note
  ("1 of 2 dice in") is shown once the drain is done (or before a button or a note is
  handled), so the dice of one roll that arrive together reach the LEDs without a
  screen refresh between them;
* button presses, shipped LED frames, device notes, changed device statuses and a
  sensing board's occupancy snapshots go to the one typed set of :class:`HubHandlers`
  the hub is given (built with it, or :meth:`HardwareHub.connect` once by the kiosk's
  wiring, kiosk/wiring.py); a sensing board's reader's status is the "Board" badge (the
  dice tray's too, when the tray's Pico reads the board), and an unreadable board shows
  there until the bitmap is back.

Shipped LED frames are not queued: the animator may ship 42 a second, so the hub keeps
only the newest one, and the mirror draws the latest frame, never a backlog.

**Waking the main thread.** ``wake`` (the kiosk sets a Kivy ``Clock.create_trigger``)
is called after every post; there is no polling interval. Kivy's scheduling methods are
thread-safe, and a trigger is disarmed *before* its callback runs, so a message posted
while :meth:`pump` is draining re-arms it and is handled on the next frame: a wake-up
cannot be lost. The queue is filled before ``wake`` is called, and ``pump`` re-arms the
trigger itself when it stops at :data:`MAX_PER_PUMP` with messages left. Nothing here
imports Kivy, so the hub is tested without a display.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from companion.dice import DiceRequest, Roll
from firmware_bridge.board.messages import BOARD_READER, BoardOccupancy
from firmware_bridge.buttons import ButtonMessage, ButtonPressed, RollButtonPressed
from firmware_bridge.dice.collector import DiceCollector
from firmware_bridge.dice.messages import DieResult, DieRolling, TrayState, TrayStatus
from firmware_bridge.rig import DeviceNote, LedFrameShown, RigMessage
from kiosk.presenters.devices import DeviceState, DeviceStatus

if TYPE_CHECKING:  # the game's presenter loads with the first game, not at launch
    from kiosk.presenters.play import PlayPresenter

MAX_PER_PUMP = 64  # messages handled per main-loop frame; the rest wait for the next one
#: How long a partial roll's note ("1 of 2 dice in") waits to be drawn where the hub has a
#: ``later``: the dice of one roll come a millisecond apart over a tray's line, often in
#: two drains, and the roll's own change shows what became of them; the note drawn in
#: between was a screen redraw in the roll's way to the LEDs (≈2 M instructions).
NOTE_AFTER_S = 0.15

_STATE: dict[TrayState, DeviceState] = {
    TrayState.CONNECTED: "connected",
    TrayState.CONNECTING: "reconnecting",
    TrayState.RECONNECTING: "reconnecting",
    TrayState.ABSENT: "disconnected",
    TrayState.INCOMPATIBLE: "disconnected",
    TrayState.STOPPED: "disconnected",
}


class RollTarget(Protocol):
    """What the hub hands rolls to: the dice panel of the game on screen
    (``PlayPresenter.dice``), the guided setup, or Home's note of rolls off the game."""

    def note(self, text: str) -> None: ...

    def dice_request(self) -> DiceRequest | None: ...

    def electronic_roll(self, roll: Roll) -> bool: ...

    def set_devices(self, statuses: tuple[DeviceStatus, ...]) -> None: ...

    def changed(self) -> None: ...


class Scheduled(Protocol):
    """A call waiting on the main thread's clock (a Kivy ``ClockEvent``, a ``Deadline``)."""

    def cancel(self) -> None: ...


Later = Callable[[float, Callable[[], None]], Scheduled]
"""Run a callable some seconds later on the main thread (a Kivy clock event in the app);
what it returns can be cancelled."""


def _ignore(_message: object) -> None:
    """A handler for what nobody listens to."""


@dataclass(frozen=True)
class HubHandlers:
    """Where the hub hands what it drains (main thread); each has a do-nothing default."""

    #: A table button (the kiosk's navigation, else the game on screen).
    button: Callable[[ButtonMessage], object] = _ignore
    #: The newest LED frame the strip shipped (the LED mirror).
    frame: Callable[[LedFrameShown], None] = _ignore
    #: A device's note for people (Home's banner).
    note: Callable[[DeviceNote], None] = _ignore
    #: The device statuses after one changed (the header's badges).
    devices: Callable[[tuple[DeviceStatus, ...]], None] = _ignore
    #: A sensing board's occupancy snapshot (kiosk/board_sensing.py).
    board: Callable[[BoardOccupancy], None] = _ignore
    #: None: a partial roll's note is drawn at the end of its drain.
    later: Later | None = None


class HardwareHub:
    """Owns the queue; ``post`` is for any thread, everything else for the main thread."""

    def __init__(
        self, wake: Callable[[], None] | None = None, handlers: HubHandlers | None = None
    ) -> None:
        self.queue: queue.Queue[RigMessage] = queue.Queue()
        #: Called after every post, from the posting thread (a Kivy trigger in the app).
        self.wake = wake
        self.collector = DiceCollector()
        self.statuses: dict[str, DeviceStatus] = {}
        self.notes: list[DeviceNote] = []
        self.rolling = False
        self.handled = 0
        self.handlers = HubHandlers() if handlers is None else handlers
        self._connected = handlers is not None
        #: The reader whose status is the sensing board's ("Board" badge): its own
        #: reader, or the dice tray's when its Pico reads the board too (``tray``).
        self.board_reader = BOARD_READER
        #: Whether a shipped LED frame wakes the main thread (the LED mirror is on
        #: screen). Up to 42 wake-ups a second for a hidden mirror would cost more idle
        #: CPU than everything else; the newest frame is still kept for the next drain.
        self.frames_wanted = False
        self._frame: LedFrameShown | None = None
        self._frame_lock = threading.Lock()
        #: A target whose notice changed (a partial roll) and is still to be redrawn.
        self._noted: RollTarget | None = None
        self._note_due = False

    def connect(self, handlers: HubHandlers) -> None:
        """Give the hub its handlers: once, by whoever drains it (the kiosk's wiring), when
        the hub was built without them. A second set is refused: one owner, no order."""
        if self._connected:
            raise RuntimeError("the hardware hub already has its handlers")
        self.handlers = handlers
        self._connected = True

    # --- any thread -------------------------------------------------------------------

    def post(self, message: RigMessage) -> None:
        """Thread-safe: what device threads call. Frames replace the unshown one."""
        if isinstance(message, LedFrameShown):
            with self._frame_lock:
                self._frame = message
            if not self.frames_wanted:
                return  # kept for the next drain; no one is looking, so no wake-up
        else:
            self.queue.put(message)
        wake = self.wake
        if wake is not None:
            wake()

    # --- main thread ------------------------------------------------------------------

    def device_statuses(self) -> tuple[DeviceStatus, ...]:
        return tuple(self.statuses[k] for k in sorted(self.statuses))

    def pump(self, target: RollTarget | None) -> int:
        """Handle waiting messages (at most MAX_PER_PUMP), then the newest LED frame
        (after the dice: a roll's highlights reach the LEDs before the mirror redraws)."""
        handled = 0
        statuses_changed = False
        while handled < MAX_PER_PUMP:
            try:
                message = self.queue.get_nowait()
            except queue.Empty:
                break
            handled += 1
            if isinstance(message, TrayStatus):
                self._status(message)
                statuses_changed = True
            elif isinstance(message, BoardOccupancy):
                statuses_changed |= self._board_readable(message)
                self.handlers.board(message)
            elif isinstance(message, DieRolling):
                self.rolling = True
            elif isinstance(message, DieResult):
                self.rolling = False
                if target is not None:
                    self._collect(message, target)
            elif isinstance(message, ButtonPressed | RollButtonPressed):
                self._show_note()
                self.handlers.button(message)
            elif isinstance(message, DeviceNote):
                self._show_note()
                self.notes.append(message)
                self.handlers.note(message)
        self._note_soon()
        if statuses_changed:
            statuses = self.device_statuses()
            if target is not None:
                target.set_devices(statuses)
            self.handlers.devices(statuses)
        with self._frame_lock:
            frame, self._frame = self._frame, None
        if frame is not None:
            self.handlers.frame(frame)
        if handled == MAX_PER_PUMP and not self.queue.empty() and self.wake is not None:
            self.wake()  # the rest on the next frame
        self.handled += handled
        return handled

    def _status(self, message: TrayStatus) -> None:
        """A reader's status: the dice badge, the Board badge, or both when the dice
        tray's Pico reads the board too (:attr:`board_reader`)."""
        state = _STATE.get(message.state, "disconnected")
        if message.device != BOARD_READER:
            self.statuses[message.device] = DeviceStatus(
                "dice", state, battery=message.battery, detail=message.detail
            )
        if message.device == self.board_reader:
            touch = " Moves are entered by touch." if state != "connected" else ""
            detail = message.detail + touch
            self.statuses[BOARD_READER] = DeviceStatus("board", state, detail=detail)

    def _board_readable(self, message: BoardOccupancy) -> bool:
        """A connected board whose squares are unknown (a gap being resynchronised) is
        shown as such: touch entry until its bitmap is back. True when that changed."""
        status = self.statuses.get(BOARD_READER)
        if status is None or status.state == "disconnected":
            return False
        wanted: DeviceState = "connected" if message.occupied is not None else "reconnecting"
        if status.state == wanted:
            return False
        detail = (
            ""
            if message.occupied is not None
            else "Reading the board again. Moves are entered by touch."
        )
        self.statuses[BOARD_READER] = DeviceStatus("board", wanted, detail=detail)
        return True

    def _collect(self, result: DieResult, target: RollTarget) -> None:
        """Gather single dice until the request has its count; then submit them as one."""
        request = target.dice_request()
        if request is None:
            self.collector.expect(None)
            stray = Roll(values=(result.face,), source="electronic", device=result.device)
            self._noted = None  # the refusal's change shows the note too
            target.electronic_roll(stray)  # refused with a banner: no dice are wanted
            return
        self.collector.expect(request)
        step = self.collector.add(result)
        if step.roll is not None:
            self._noted = None  # the roll's own change shows what became of the note
            target.electronic_roll(step.roll)
        else:  # partial ("1 of 2 dice in") or the wrong kind of die
            target.note(step.note)
            self._noted = target  # shown at the end of the drain (_show_note)

    def _show_note(self) -> None:
        """Redraw a partial roll's note, unless the rest of the roll came in since."""
        noted, self._noted = self._noted, None
        if noted is not None:
            noted.changed()

    def _note_soon(self) -> None:
        """The end of a drain: a partial roll's note is drawn now, or NOTE_AFTER_S later
        where the hub has a ``later`` (unless the rest of the roll comes in first)."""
        if self._noted is None:
            return
        later = self.handlers.later
        if later is None:
            self._show_note()
        elif not self._note_due:
            self._note_due = True
            later(NOTE_AFTER_S, self._note_later)

    def _note_later(self) -> None:
        self._note_due = False
        self._show_note()


def press_on_game(play: PlayPresenter, message: ButtonMessage) -> bool:
    """What a table button does to the game on screen; False for menu and admin.

    The same presenter calls as the screen's buttons: confirm = "Done" of the
    fix-the-table step, else the open form's "Submit"; undo / redo (held undo); end turn
    = the game's own end-of-turn action if it is legal; a roll button = the Pi rolls the
    pending dice from the game's seeded generator (a software roll, journaled and
    replayable; the button panel lights its LED and sounds its buzzer by itself).
    Navigation (menu, admin) belongs to the kiosk.
    """
    if isinstance(message, RollButtonPressed):
        play.dice.roll_in_software()
        return True
    action = message.action
    if action == "confirm":
        play.confirm()
    elif action == "undo":
        play.undo()
    elif action == "redo":
        play.redo()
    elif action == "end_turn":
        play.end_turn()
    else:
        return False
    return True
