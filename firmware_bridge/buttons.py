"""Table buttons (confirm, undo, end turn, menu) and roll buttons, through gpiozero.

Debouncing is our own, time-based with an injectable clock (gpiozero's mock pins ignore
``bounce_time``, and a debounce that matters must be testable): a level counts only once
it has been stable for ``debounce_s``. Hold meanings:

* hold **undo** for ``undo_hold_s`` (1 s) = **redo**;
* hold **menu** for ``menu_hold_s`` (2 s) = **admin** menu.

Buttons with a hold meaning report a short press on release (so a hold never also
counts as a press); confirm, end turn and roll report on the press itself. A roll button
posts a :class:`RollButtonPressed` (the kiosk answers the pending dice with a software
roll from the game's seeded generator, journaled and replayable), lights the feedback
LED and sounds the buzzer for ``feedback_s``. Every press goes to the owner through
``post`` as a small typed message; nothing here touches the referee or the UI.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, model_validator

from companion.model import Frozen
from firmware_bridge.supervise import run_restarting

log = logging.getLogger(__name__)

TableButton = Literal["confirm", "undo", "end_turn", "menu"]
ButtonAction = Literal["confirm", "undo", "redo", "end_turn", "menu", "admin"]
PressKind = Literal["press", "hold"]

HOLD_ACTIONS: dict[TableButton, ButtonAction] = {"undo": "redo", "menu": "admin"}
"""What holding a button means instead of pressing it."""

IDLE_POLL_S = 0.5
"""How often an idle panel re-reads its pins anyway (heals a missed edge)."""


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A table button was pressed (``held=False``) or held (``held=True``)."""

    button: TableButton
    action: ButtonAction
    held: bool = False


@dataclass(frozen=True, slots=True)
class RollButtonPressed:
    """A roll button was pressed: the pending dice are rolled in software (the game's
    own seeded generator, so the journal replays the same faces)."""

    button: str


ButtonMessage = ButtonPressed | RollButtonPressed
PostButton = Callable[[ButtonMessage], None]


class ButtonSettings(Frozen):
    """BCM pin numbers of the buttons and the roll feedback. ``None`` = not fitted."""

    enabled: bool = Field(default=True, description="Use the GPIO buttons at all.")
    confirm_pin: int | None = Field(default=5, ge=0, le=27, description="Confirm button.")
    undo_pin: int | None = Field(default=6, ge=0, le=27, description="Undo (hold = redo).")
    end_turn_pin: int | None = Field(default=13, ge=0, le=27, description="End turn button.")
    menu_pin: int | None = Field(default=19, ge=0, le=27, description="Menu (hold = admin).")
    roll_pins: tuple[int, ...] = Field(default=(26,), description="Roll buttons (Pi rolls).")
    feedback_led_pin: int | None = Field(default=16, ge=0, le=27, description="Roll LED.")
    buzzer_pin: int | None = Field(default=20, ge=0, le=27, description="Roll buzzer.")
    pull_up: bool = Field(
        default=True, description="Buttons switch to ground with the internal pull-up."
    )
    debounce_s: float = Field(
        default=0.03, ge=0, le=0.5, description="Level must be stable this long."
    )
    undo_hold_s: float = Field(default=1.0, gt=0, le=10, description="Hold undo this long = redo.")
    menu_hold_s: float = Field(default=2.0, gt=0, le=30, description="Hold menu this long = admin.")
    feedback_s: float = Field(default=0.15, gt=0, le=5, description="LED + buzzer time per roll.")
    poll_s: float = Field(default=0.01, gt=0, le=0.5, description="Debounce/hold check period.")

    @model_validator(mode="after")
    def _pins_are_distinct(self) -> ButtonSettings:
        pins = [pin for pin in self.used_pins() if pin is not None]
        if len(pins) != len(set(pins)):
            raise ValueError(f"button pins must be distinct, got {sorted(pins)}")
        if any(not 0 <= pin <= 27 for pin in self.roll_pins):
            raise ValueError("roll button pins must be BCM 0..27")
        return self

    def used_pins(self) -> tuple[int, ...]:
        """Every pin this model claims (for the config's cross-device conflict check)."""
        single = (
            self.confirm_pin,
            self.undo_pin,
            self.end_turn_pin,
            self.menu_pin,
            self.feedback_led_pin,
            self.buzzer_pin,
        )
        return tuple(pin for pin in single if pin is not None) + self.roll_pins


@dataclass
class Debouncer:
    """Time-based debounce and hold detection for one button. Pure: time is passed in.

    Feed raw edges with :meth:`edge` and call :meth:`poll` regularly; both return the
    press kinds that became true. With ``hold_s`` set, a short press is reported on
    release and a hold once, when the hold time is reached (or on release if no poll
    happened in between).
    """

    debounce_s: float
    hold_s: float | None = None
    raw: bool = False
    raw_since: float = 0.0
    stable: bool = False
    stable_since: float = 0.0
    hold_fired: bool = False

    def edge(self, pressed: bool, now: float) -> list[PressKind]:
        if pressed != self.raw:
            self.raw = pressed
            self.raw_since = now
        return self.poll(now)

    def poll(self, now: float) -> list[PressKind]:
        events: list[PressKind] = []
        if self.raw != self.stable and now - self.raw_since >= self.debounce_s:
            if self.raw:
                self.stable, self.stable_since, self.hold_fired = True, self.raw_since, False
                if self.hold_s is None:
                    events.append("press")
            else:
                held_for = self.raw_since - self.stable_since
                self.stable, self.stable_since = False, self.raw_since
                if self.hold_s is not None and not self.hold_fired:
                    events.append("hold" if held_for >= self.hold_s else "press")
                    self.hold_fired = True
        if (
            self.stable
            and self.hold_s is not None
            and not self.hold_fired
            and now - self.stable_since >= self.hold_s
        ):
            self.hold_fired = True
            events.append("hold")
        return events


@dataclass
class _Input:
    name: str
    pin: int
    debouncer: Debouncer
    device: Any = None
    roll: bool = False


@dataclass
class ButtonPanel:
    """All GPIO buttons; posts :data:`ButtonMessage` values through ``post``.

    ``start()`` opens the pins (gpiozero, so ``MockFactory`` works in tests) and, unless
    ``poll_thread=False``, a small thread that runs :meth:`poll` every ``poll_s`` while
    something is in motion (a bounce settling, a hold being timed, the roll feedback on)
    and every :data:`IDLE_POLL_S` otherwise, woken at once by an edge: an idle table
    costs a few wake-ups a second, not a hundred.
    """

    settings: ButtonSettings
    post: PostButton
    clock: Callable[[], float] = time.monotonic
    poll_thread: bool = True
    pin_factory: Any = None
    """gpiozero's pin factory for these pins (a ``MockFactory`` when simulated); None:
    the board's own pins."""
    on_error: Callable[[str], None] = field(default=lambda text: log.warning("%s", text))
    """Told when the poll thread failed and restarts (the rig shows it as a device note)."""
    _inputs: list[_Input] = field(default_factory=list)
    _led: Any = None
    _buzzer: Any = None
    _feedback_until: float | None = None
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _stop: threading.Event = field(default_factory=threading.Event)
    _activity: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        from gpiozero import LED, Buzzer, DigitalInputDevice  # lazily: GPIO is optional

        settings = self.settings
        table: list[tuple[TableButton, int | None, float | None]] = [
            ("confirm", settings.confirm_pin, None),
            ("undo", settings.undo_pin, settings.undo_hold_s),
            ("end_turn", settings.end_turn_pin, None),
            ("menu", settings.menu_pin, settings.menu_hold_s),
        ]
        for name, pin, hold in table:
            if pin is not None:
                self._inputs.append(_Input(name, pin, Debouncer(settings.debounce_s, hold)))
        for index, pin in enumerate(settings.roll_pins, start=1):
            self._inputs.append(
                _Input(f"roll-{index}", pin, Debouncer(settings.debounce_s), roll=True)
            )
        try:
            for item in self._inputs:
                # A plain input, not gpiozero's Button: we debounce and time holds ourselves.
                item.device = DigitalInputDevice(
                    item.pin, pull_up=settings.pull_up, pin_factory=self.pin_factory
                )
                item.device.when_activated = self._edge_handler(item, True)
                item.device.when_deactivated = self._edge_handler(item, False)
            if settings.feedback_led_pin is not None:
                self._led = LED(settings.feedback_led_pin, pin_factory=self.pin_factory)
            if settings.buzzer_pin is not None:
                self._buzzer = Buzzer(settings.buzzer_pin, pin_factory=self.pin_factory)
        except Exception:
            self._close_devices()
            raise
        if self.poll_thread:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._activity.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                raise RuntimeError("button poll thread did not stop")
            self._thread = None
        self._close_devices()

    def poll(self) -> None:
        """Advance debouncers and hold timers, end the roll feedback; post what happened."""
        with self._lock:
            now = self.clock()
            for item in self._inputs:
                if item.device is not None:  # self-heal a missed edge from the real level
                    kinds = item.debouncer.edge(bool(item.device.is_active), now)
                else:
                    kinds = item.debouncer.poll(now)
                self._dispatch(item, kinds)
            if self._feedback_until is not None and now >= self._feedback_until:
                self._feedback_until = None
                self._set_feedback(False)

    @property
    def feedback_on(self) -> bool:
        return self._feedback_until is not None

    # ------------------------------------------------------------------ internals

    def _edge_handler(self, item: _Input, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                self._dispatch(item, item.debouncer.edge(pressed, self.clock()))
            self._activity.set()

        return handler

    def _dispatch(self, item: _Input, kinds: list[PressKind]) -> None:
        for kind in kinds:
            if item.roll:
                self._feedback_until = self.clock() + self.settings.feedback_s
                self._set_feedback(True)
                self.post(RollButtonPressed(item.name))
                continue
            button: TableButton = _as_table_button(item.name)
            held = kind == "hold"
            action: ButtonAction = HOLD_ACTIONS[button] if held else button
            self.post(ButtonPressed(button, action, held))

    def _set_feedback(self, on: bool) -> None:
        for device in (self._led, self._buzzer):
            if device is not None:
                device.value = on

    def _busy(self) -> bool:
        """Whether a timer is running: a bounce settling, a hold pending, the feedback on."""
        with self._lock:
            return self._feedback_until is not None or any(
                d.raw != d.stable or (d.stable and d.hold_s is not None and not d.hold_fired)
                for d in (item.debouncer for item in self._inputs)
            )

    def _run(self) -> None:
        run_restarting(
            "The table buttons",
            self._poll_until_stopped,
            wait=self._stop.wait,
            report=self.on_error,
        )

    def _poll_until_stopped(self) -> None:
        while not self._stop.is_set():
            self._activity.wait(self.settings.poll_s if self._busy() else IDLE_POLL_S)
            self._activity.clear()
            if not self._stop.is_set():
                self.poll()

    def _close_devices(self) -> None:
        for item in self._inputs:
            if item.device is not None:
                item.device.close()
                item.device = None
        self._inputs.clear()
        for device in (self._led, self._buzzer):
            if device is not None:
                device.close()
        self._led = self._buzzer = None


def _as_table_button(name: str) -> TableButton:
    for button in ("confirm", "undo", "end_turn", "menu"):
        if name == button:
            return button
    raise ValueError(f"not a table button: {name}")
