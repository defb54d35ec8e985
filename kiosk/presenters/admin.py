"""The shop's admin side without Kivy: the hidden gesture, the PIN pad, the admin page.

* :class:`LongPress` tells a 3-second press on a screen's title (the hidden way in)
  from a tap or a swipe; it is fed positions and timestamps.
* :class:`PinPad` is the pad's logic: unlock (check the PIN against
  :class:`kiosk.admin.PinStore`, lock-out included; the staff recovery code is taken
  even while the pad is locked) or change (the current PIN, then the new one twice).
* :class:`AdminPresenter` is the admin page: hardware findings from
  ``firmware_bridge.doctor``, the ``[kiosk]`` settings, LED brightness and a
  calibration walk (one cell after the other, in strip order, through the kiosk's LED
  feed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from companion.games import get_rules
from companion.highlights import Highlight, Role
from firmware_bridge.doctor import Finding
from firmware_bridge.rig import Rig
from kiosk.admin import (
    PIN_MAX_DIGITS,
    PIN_MIN_DIGITS,
    RECOVERY_DIGITS,
    PinCheck,
    PinError,
    PinStore,
    check_pin_strength,
)
from kiosk.presenters.common import Observable
from kiosk.settings import KioskConfig

CALIBRATION_STEP_S = 1.0
BRIGHTNESS_STEP = 0.1

PadMode = Literal["unlock", "old", "new", "confirm", "no_pin"]
PadResult = Literal["unlocked", "changed"]


@dataclass(frozen=True)
class PinPadView:
    title: str
    prompt: str
    dots: str  # one ● per digit typed
    message: str
    error: bool  # the message is a refusal (shown in red)
    digits_enabled: bool
    ok_enabled: bool
    mode: PadMode


class PinPad:
    """The PIN pad: ``press`` digits, ``submit``; the result says what was achieved."""

    def __init__(self, store: PinStore, purpose: Literal["unlock", "change"] = "unlock") -> None:
        self.store = store
        self.purpose = purpose
        self.entered = ""
        self.first = ""  # the new PIN, waiting for its confirmation
        self.message = ""
        self.error = False
        if purpose == "change":  # the current PIN first, when there is one
            self.mode: PadMode = "old" if store.has_pin else "new"
        else:
            self.mode = "unlock" if store.has_pin else "no_pin"

    @property
    def _checking(self) -> bool:
        """The pad checks a PIN (or the recovery code) against the store."""
        return self.mode in ("unlock", "old")

    def _max_digits(self) -> int:
        return RECOVERY_DIGITS if self._checking else PIN_MAX_DIGITS

    def press(self, digit: int) -> None:
        if self.mode != "no_pin" and len(self.entered) < self._max_digits() and 0 <= digit <= 9:
            self.entered += str(digit)

    def erase(self) -> None:
        self.entered = self.entered[:-1]

    def submit(self) -> PadResult | None:
        """Check (unlock) or record (change) what was typed; clears the typed digits."""
        typed, self.entered = self.entered, ""
        if self.mode == "no_pin":
            return None
        if self._checking:
            check = self.store.verify(typed)
            if check.ok and self.mode == "old":  # Change PIN: the current one was right
                self.mode = "new"
                self.message, self.error = "", False
                return None
            if check.ok:
                self.message, self.error = "", False
                return "unlocked"
            if check.status == "no_pin":
                self.mode = "no_pin"
            self.message, self.error = check.message, True
            return None
        if self.mode == "new":
            try:
                self.first = check_pin_strength(typed)
            except PinError as error:
                self.message, self.error = str(error), True
                return None
            self.mode = "confirm"
            self.message, self.error = "", False
            return None
        if typed != self.first:  # confirm
            self.mode, self.first = "new", ""
            self.message, self.error = "The two PINs differ: enter the new PIN again.", True
            return None
        self.store.set_pin(typed, keep_recovery=True)
        self.first = ""
        self.message, self.error = "The admin PIN was changed.", False
        return "changed"

    def view(self) -> PinPadView:
        locked_for = self.store.locked_for() if self._checking else 0.0
        message, error = self.message, self.error
        if locked_for > 0:
            message = PinCheck("locked", locked_for_s=locked_for).message
            message += f"\nStaff: the {RECOVERY_DIGITS}-digit recovery code opens it now."
            error = True
        elif self.mode == "no_pin":
            message = self.store.problem or ""
            message = f"{message}\n" if message else ""
            message += "The admin screen stays closed until a PIN is set."
            error = True
        title = {
            "unlock": "Admin PIN",
            "old": "Change the admin PIN",
            "new": "New admin PIN",
            "confirm": "New admin PIN again",
            "no_pin": "No admin PIN set",
        }[self.mode]
        prompt = {
            "unlock": "Enter the admin PIN.",
            "old": "Enter the current PIN first.",
            "new": f"Choose {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits (not 1234, 0000 ...).",
            "confirm": "Type the same PIN once more.",
            "no_pin": "On the Pi's shell, as the kiosk's user, run:  companion admin-pin",
        }[self.mode]
        typing = self.mode != "no_pin"
        # While locked only the recovery code can be tried: OK waits for all its digits.
        least = RECOVERY_DIGITS if locked_for > 0 else (1 if self._checking else PIN_MIN_DIGITS)
        return PinPadView(
            title=title,
            prompt=prompt,
            dots=" ".join("●" for _ in self.entered),
            message=message,
            error=error,
            digits_enabled=typing and len(self.entered) < self._max_digits(),
            ok_enabled=typing and len(self.entered) >= least,
            mode=self.mode,
        )


class LedControls(Protocol):
    """What the admin page may do with the LED strip (the kiosk's rig provides it)."""

    def brightness(self) -> float: ...

    def set_brightness(self, value: float) -> None: ...

    def cells_in_strip_order(self) -> Sequence[tuple[str, tuple[int, ...]]]: ...

    def light_cell(self, cell: str | None) -> None: ...


class RigLeds:
    """:class:`LedControls` over the kiosk's running :class:`~firmware_bridge.rig.Rig`.

    The animator has no brightness getter, so the value set last is kept here (it
    starts at ``[leds] brightness``); it lasts until the app restarts.
    """

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self._brightness = rig.config.leds.brightness

    def brightness(self) -> float:
        return self._brightness

    def set_brightness(self, value: float) -> None:
        if self.rig.animator is not None:
            self.rig.animator.set_brightness(value)
        self._brightness = value

    def cells_in_strip_order(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        layout = self.rig.layout
        if layout is None:
            return ()
        return tuple((cell, layout.leds_of(cell)) for cell in layout.cells_in_strip_order())

    def light_cell(self, cell: str | None) -> None:
        lit = () if cell is None else (Highlight(cell=cell, role=Role.SELECTED),)
        self.rig.show_highlights(lit)


@dataclass(frozen=True)
class FindingLine:
    severity: str  # "ok", "warning", "problem"
    text: str


@dataclass(frozen=True)
class AdminView:
    findings: tuple[FindingLine, ...]
    settings: tuple[str, ...]
    brightness: int | None  # percent; None = no LED strip to dim
    calibration: str | None  # the cell lit now, while the walk runs
    can_calibrate: bool
    notice: str


def _duration(seconds: float) -> str:
    if seconds % 60 == 0 and seconds >= 60:
        minutes = int(seconds // 60)
        return f"{minutes} min"
    return f"{seconds:g} s"


def _title(game: str) -> str:
    try:
        return get_rules(game).title
    except Exception:  # a game module that fails to import is listed by Home, not here
        return game


def settings_lines(config: KioskConfig, games: Sequence[str]) -> tuple[str, ...]:
    """The ``[kiosk]`` settings in words (read-only here: they live in companion.toml)."""
    idle = (
        "off (idle_timeout_s = 0)"
        if config.idle_timeout_s <= 0
        else f"after {_duration(config.idle_timeout_s)} without a touch"
    )
    boot = {
        "resume": "resume the last unfinished game",
        "demo": "start the demo",
        "home": "show Home",
    }[config.on_boot]
    return (
        f"Locked (shop mode): {'yes' if config.locked else 'no'}",
        f"Demo: {idle}",
        f"Demo pace: a move every {config.demo_step_s:g} s, results shown "
        f"{config.demo_outcome_s:g} s",
        f"Demo games: {', '.join(_title(g) for g in games) if games else 'none'}",
        f"On start: {boot}",
        "Change these in companion.toml, section [kiosk], then restart the app.",
    )


class AdminPresenter(Observable):
    """The admin page. ``diagnose`` runs the doctor; ``leds`` is None without a strip."""

    def __init__(
        self,
        config: KioskConfig,
        *,
        demo_games: Sequence[str],
        diagnose: Callable[[], Sequence[Finding]],
        leds: LedControls | None = None,
    ) -> None:
        super().__init__()
        self.config = config
        self.demo_games = tuple(demo_games)
        self._diagnose = diagnose
        self.leds = leds
        self.notice = ""
        self.findings: tuple[FindingLine, ...] = ()
        self._walk: tuple[tuple[str, tuple[int, ...]], ...] = ()
        self._walk_index = 0
        self._walk_next = 0.0
        self.check_hardware()

    def check_hardware(self) -> None:
        try:
            found = self._diagnose()
        except Exception as error:  # the doctor must never take the admin page down
            self.findings = (FindingLine("problem", f"The hardware check failed: {error}"),)
        else:
            self.findings = tuple(
                FindingLine(str(f.severity.value), f"{f.topic}: {f.text}") for f in found
            )
        self.changed()

    def view(self) -> AdminView:
        brightness = None if self.leds is None else round(self.leds.brightness() * 100)
        calibration = None
        if self.calibrating:
            cell, leds = self._walk[self._walk_index]
            numbers = ", ".join(str(i) for i in leds)
            calibration = f"{self._walk_index + 1}/{len(self._walk)}: cell {cell} = LED {numbers}"
        return AdminView(
            findings=self.findings,
            settings=settings_lines(self.config, self.demo_games),
            brightness=brightness,
            calibration=calibration,
            can_calibrate=self.leds is not None,
            notice=self.notice,
        )

    # --- LEDs -------------------------------------------------------------------------

    def step_brightness(self, direction: int) -> None:
        """One step brighter (+1) or dimmer (-1), until the app restarts."""
        if self.leds is None:
            return
        value = round(self.leds.brightness() + direction * BRIGHTNESS_STEP, 2)
        self.leds.set_brightness(min(1.0, max(0.0, value)))
        self.notice = "Brightness applies until the app restarts ([leds] brightness keeps it)."
        self.changed()

    @property
    def calibrating(self) -> bool:
        return self._walk_index < len(self._walk)

    def start_calibration(self, now: float) -> None:
        """Light each cell in strip order, one a second: the lit square must be the one named."""
        if self.leds is None:
            return
        self._walk = tuple(self.leds.cells_in_strip_order())
        self._walk_index = 0
        self._walk_next = now + CALIBRATION_STEP_S
        if self._walk:
            self.leds.light_cell(self._walk[0][0])
        self.changed()

    def stop_calibration(self) -> None:
        if self.calibrating and self.leds is not None:
            self.leds.light_cell(None)
        self._walk, self._walk_index = (), 0
        self.changed()

    def tick(self, now: float) -> None:
        """Advance the calibration walk (called a few times a second)."""
        if not self.calibrating or now < self._walk_next or self.leds is None:
            return
        self._walk_index += 1
        self._walk_next = now + CALIBRATION_STEP_S
        if self.calibrating:
            self.leds.light_cell(self._walk[self._walk_index][0])
        else:
            self.leds.light_cell(None)
            self.notice = "Calibration finished."
        self.changed()
