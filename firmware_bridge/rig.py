"""The rig: the one place that turns a :class:`HardwareConfig` into running devices.

:func:`build_rig` reads the resolved configuration and builds, for each device, either
the real driver or its simulated twin — and the twins run the real code path:

* **dice** by ``[dice] source``: ``serial`` → :class:`SerialDiceTray`; ``gpio`` → the
  :class:`GpioDie`; ``godice`` → :class:`GoDiceSource`; ``sim`` → a
  :class:`SimDiceTray` (the device side of the tray protocol) on a pty pair, read by the
  *real* :class:`SerialDiceTray` on the pty's path, exactly as it reads a Pico on USB.
* **buttons** by ``[buttons] source``: ``gpio`` → :class:`ButtonPanel` on the board's
  pins; ``sim`` → the same panel on gpiozero ``MockFactory`` pins that
  :class:`SimControls` "presses".
* **LEDs** by ``[leds] driver`` through :func:`make_strip`, :func:`layout_of` and
  :func:`power_budget_of`, rendered by the :class:`Animator` thread. The strip is
  wrapped in a :class:`TappedStrip` that reports every frame it actually shipped, so the
  kiosk's LED mirror shows the very frame the strip got.

:meth:`Rig.start` takes one thread-safe ``post`` callback (the kiosk's hub): dice
messages, button presses, shipped LED frames and :class:`DeviceNote` sentences all go
there. A device that cannot be built or opened becomes a :class:`DeviceNote` (and, for
LEDs, a fallback to the simulated strip), never an exception: the table must come up
and say what is wrong. No Kivy here; ``kiosk`` is the only user.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import os
import shutil
import tempfile
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from companion.highlights import Highlight
from firmware_bridge.board.messages import BOARD_READER
from firmware_bridge.buttons import ButtonMessage, ButtonPanel, ButtonSettings, TableButton
from firmware_bridge.config import HardwareConfig, LedsConfig
from firmware_bridge.dice.base import DiceSource
from firmware_bridge.dice.messages import DiceMessage
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.dice.sim_board import SimSensingBoard
from firmware_bridge.dice.sim_tray import SimDiceTray
from firmware_bridge.frames import DieSpec
from firmware_bridge.layout import LayoutError, LedLayout, kolossus_layout
from firmware_bridge.leds.animation import Animator
from firmware_bridge.leds.factory import layout_of, make_strip, power_budget_of
from firmware_bridge.leds.palette import Palette
from firmware_bridge.leds.render import gamma_table
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.leds.strip import Frame, LedStrip
from firmware_bridge.platform import Platform, detect_platform

log = logging.getLogger(__name__)

#: The simulated tray holds three d4 (Kolossus) and three d6 (the island games).
SIM_TRAY_DICE = (
    DieSpec(1, 4),
    DieSpec(2, 4),
    DieSpec(3, 4),
    DieSpec(4, 6),
    DieSpec(5, 6),
    DieSpec(6, 6),
)
SIM_TRAY_ID = "sim-tray"
SIM_BOARD_ID = "sim-board"
SIM_TRAY_BATTERY = 87  # percent: the badge shows a battery like a cordless tray's
SIM_PORT_NAME = "dice-tray"  # the symlink that plays udev's /dev/dice-tray
SIM_BOARD_PORT_NAME = "sensing-board"  # and the one that plays /dev/sensing-board
FRAME_HISTORY = 128  # shipped frames whose checksums the frame file keeps
#: How long :meth:`Rig.show_highlights` waits for the animator's frame: the LEDs first,
#: then the caller's redraw (a frame renders in about a millisecond here, five on a Pi).
SHOW_WAIT_S = 0.02

DeviceKind = Literal["dice", "buttons", "leds", "board"]


@dataclass(frozen=True, slots=True)
class DeviceNote:
    """A device could not start, or runs in a fallback: one sentence for the screen."""

    device: DeviceKind
    text: str


@dataclass(frozen=True, slots=True)
class LedFrameShown:
    """The strip shipped this frame (``seq`` counts shipped frames from 1)."""

    seq: int
    frame: Frame


RigMessage = DiceMessage | ButtonMessage | LedFrameShown | DeviceNote
PostRig = Callable[[RigMessage], None]
FrameListener = Callable[[int, Frame], None]


# ---------------------------------------------------------------------------- LEDs


class TappedStrip(LedStrip):
    """Wraps a strip; after each frame the inner strip accepted, tells the listeners.

    The listeners run on the animator's thread: they must be quick and thread-safe
    (the kiosk's hub keeps only the newest frame).
    """

    def __init__(self, inner: LedStrip, listeners: Iterable[FrameListener] = ()) -> None:
        super().__init__(inner.count)
        self.inner = inner
        self.listeners = list(listeners)
        self.shipped = 0

    def _open(self) -> None:
        self.inner.begin()

    def _ship(self, frame: Frame) -> None:
        self.inner.show(frame)
        self.shipped += 1
        for listener in self.listeners:
            try:
                listener(self.shipped, frame)
            except Exception:  # a mirror must never stop the LEDs
                log.exception("An LED frame listener failed.")

    def _release(self) -> None:
        self.inner.close()


class FrameFile:
    """Writes the newest shipped frame and the checksums of recent ones to a JSON file.

    A test hook (``COMPANION_SIM_LEDS`` in the kiosk): another process can check that
    the frame the LED mirror shows is one the strip really shipped, by ``seq`` and
    CRC-32, without the app writing every whole frame it ever sent. ``shipped`` says
    when each recent frame was shipped (``time.monotonic()``, the same clock in every
    process of the machine), which LEDs it lit (:func:`lit_leds`) and from which
    highlights handed to the animator (:attr:`Animator.rendered`, counted from 1):
    what the end-to-end benches time.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.animator: Animator | None = None
        """The animator whose frames these are (the rig sets it)."""
        self._recent: OrderedDict[int, tuple[int, float, str, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, seq: int, frame: Frame) -> None:
        at = time.monotonic()
        lit = format(sum(1 << i for i, pixel in enumerate(frame) if any(pixel)), "x")
        handed = 0 if self.animator is None else self.animator.rendered
        with self._lock:
            self._recent[seq] = (frame_crc(frame), at, lit, handed)
            while len(self._recent) > FRAME_HISTORY:
                self._recent.popitem(last=False)
            data = {
                "seq": seq,
                "frame": [list(pixel) for pixel in frame],
                "recent": {str(k): v[0] for k, v in self._recent.items()},
                "shipped": {str(k): [v[1], v[2], v[3]] for k, v in self._recent.items()},
            }
            temp = self.path.with_name(self.path.name + ".tmp")
            temp.write_text(json.dumps(data), encoding="utf-8")
            os.replace(temp, self.path)


def lit_leds(mask: str) -> set[int]:
    """The LEDs a frame file's ``shipped`` entry says were lit (bit i: LED i)."""
    bits = int(mask, 16)
    return {i for i in range(bits.bit_length()) if bits >> i & 1}


def frame_crc(frame: Sequence[Sequence[int]]) -> int:
    """CRC-32 of a frame's bytes (R, G, B per LED): how the frame file names a frame."""
    return zlib.crc32(bytes(channel for pixel in frame for channel in pixel))


# ---------------------------------------------------------------------------- sim controls


@dataclass
class SimControls:
    """Hands on the simulated devices: roll the tray's dice, unplug it, press buttons.

    Present on a :class:`Rig` only when something is simulated; ``tray`` is None unless
    the dice are simulated, ``pins`` None unless the buttons are.
    """

    tray: SimDiceTray | None = None
    pins: Any = None  # gpiozero MockFactory
    button_settings: ButtonSettings = field(default_factory=ButtonSettings)
    strip: SimStrip | None = None
    board: SimSensingBoard | None = None
    """The simulated sensing board (``[board] source = "sim"``): lift and place."""

    @property
    def dice_simulated(self) -> bool:
        return self.tray is not None

    def _tray(self) -> SimDiceTray:
        if self.tray is None:
            raise RuntimeError("The dice are not simulated.")
        return self.tray

    def roll(self, die_id: int, face: int | None = None) -> int:
        """Roll one die of the simulated tray (a random face unless ``face`` is given)."""
        return self._tray().roll(die_id, face).face

    def roll_dice(
        self, sides: int, count: int, faces: Sequence[int] | None = None
    ) -> tuple[int, ...]:
        """Roll ``count`` dice with ``sides`` faces (the tray's own random faces by default).

        Raises ValueError when the tray has no die of that kind.
        """
        tray = self._tray()
        ids = [die.die_id for die in tray.dice if die.faces == sides]
        if not ids:
            raise ValueError(f"The simulated tray has no d{sides}.")
        if faces is not None and len(faces) != count:
            raise ValueError(f"{count} faces wanted, {len(faces)} given.")
        return tuple(
            tray.roll(ids[i % len(ids)], None if faces is None else faces[i]).face
            for i in range(count)
        )

    def unplug(self) -> None:
        """Pull the tray's cable: the reader loses the port and reconnects later."""
        self._tray().unplug()

    def replug(self) -> None:
        self._tray().replug()

    def press(
        self, button: TableButton | Literal["roll"], *, hold: bool = False
    ) -> threading.Timer:
        """Press a simulated button (``hold``: as long as its hold meaning needs).

        The pin goes low now and back high from a timer, so the caller is not blocked;
        join the returned timer to wait for the release.
        """
        if self.pins is None:
            raise RuntimeError("The buttons are not simulated.")
        settings = self.button_settings
        pins: dict[str, int | None] = {
            "confirm": settings.confirm_pin,
            "undo": settings.undo_pin,
            "end_turn": settings.end_turn_pin,
            "menu": settings.menu_pin,
            "roll": settings.roll_pins[0] if settings.roll_pins else None,
        }
        pin_number = pins[button]
        if pin_number is None:
            raise ValueError(f"No {button} button is fitted.")
        duration = settings.debounce_s + max(0.05, 4 * settings.poll_s)
        if hold:
            held_for = {"undo": settings.undo_hold_s, "menu": settings.menu_hold_s}
            duration += held_for.get(button, 0.0) + 0.1
        pin = self.pins.pin(pin_number)
        # Buttons switch to ground with the pull-up: pressed = low.
        press, release = (
            (pin.drive_low, pin.drive_high) if settings.pull_up else (pin.drive_high, pin.drive_low)
        )
        settle_s = settings.debounce_s + max(0.05, 4 * settings.poll_s)

        def release_and_settle() -> None:
            release()
            time.sleep(settle_s)  # joined, the release has counted: the next press is new

        press()
        timer = threading.Timer(duration, release_and_settle)
        timer.daemon = True
        timer.start()
        return timer


# ---------------------------------------------------------------------------- the rig


@dataclass
class Rig:
    """The configured devices; :meth:`start` runs them, :meth:`stop` releases them."""

    config: HardwareConfig
    dice: list[DiceSource] = field(default_factory=list)
    buttons: ButtonSettings | None = None
    layout: LedLayout | None = None
    strip: TappedStrip | None = None
    animator: Animator | None = None
    sim: SimControls | None = None
    notes: list[DeviceNote] = field(default_factory=list)
    """Problems found so far (building and starting), also posted once started."""
    frame_listeners: list[FrameListener] = field(default_factory=list)
    panel: ButtonPanel | None = None
    board_reader: str | None = None
    """The name of the reader that reads the sensing board (its ``TrayStatus.device``):
    its own, or the dice tray's with ``[board] source = "tray"``; None: no board."""
    clock: Callable[[], float] = time.monotonic
    """The LED animator's clock (a test injects its own: the frames are then its)."""
    _sim_dir: Path | None = None
    _post: PostRig | None = None
    _started_dice: list[DiceSource] = field(default_factory=list)

    # --- life cycle (main thread) -----------------------------------------------------

    def start(self, post: PostRig) -> None:
        """Open every device; failures become :class:`DeviceNote` messages on ``post``."""
        self._post = post
        for note in self.notes:
            post(note)
        if self.sim is not None and self.sim.tray is not None:
            try:
                self.sim.tray.start()
            except OSError as error:
                self._note("dice", f"The simulated dice tray could not open a pty ({error}).")
        if self.sim is not None and self.sim.board is not None:
            try:
                self.sim.board.start()
            except OSError as error:
                self._note("board", f"The simulated sensing board could not open a pty ({error}).")
        for source in self.dice:
            try:
                source.start(post)
            except Exception as error:
                self._note("dice", f"Dice ({source.name}) could not start: {_why(error)}")
            else:
                self._started_dice.append(source)
        if self.buttons is not None:
            self._start_buttons(self.buttons, post)
        self._start_leds(post)

    def stop(self) -> None:
        """Stop every thread and release the devices (LEDs dark); safe to call twice."""
        if self.animator is not None:
            self.animator.stop()
        if self.strip is not None:
            with contextlib.suppress(Exception):
                self.strip.close()
        if self.panel is not None:
            with contextlib.suppress(Exception):
                self.panel.stop()
            self.panel = None
        for source in self._started_dice:
            try:
                source.stop()
            except Exception:
                log.exception("Dice source %s did not stop cleanly.", source.name)
        self._started_dice.clear()
        if self.sim is not None and self.sim.tray is not None:
            self.sim.tray.stop()
        if self.sim is not None and self.sim.board is not None:
            self.sim.board.stop()
        if self.sim is not None and self.sim.pins is not None:
            with contextlib.suppress(Exception):
                self.sim.pins.close()
        if self._sim_dir is not None:
            shutil.rmtree(self._sim_dir, ignore_errors=True)
            self._sim_dir = None
        self._post = None

    # --- what the LEDs show (any thread) ----------------------------------------------

    def show_highlights(
        self,
        highlights: Iterable[Highlight],
        palette: Palette | None = None,
    ) -> None:
        """Light exactly ``highlights`` on the strip, in ``palette`` when given.

        During a fix-the-table walk-through the play presenter hands only the current
        step's FIX highlights; the strip needs no notion of steps.
        """
        animator = self.animator
        if animator is None:
            return
        if palette is not None:
            animator.palette = palette
        animator.show(highlights, wait_s=SHOW_WAIT_S)

    def set_calm(self, calm: bool) -> None:
        """The kiosk is idle (True) or busy again (False): moving LED roles are held
        still while idle (:meth:`Animator.set_calm`)."""
        animator = self.animator
        if animator is not None:
            animator.set_calm(calm)

    # --- internals --------------------------------------------------------------------

    def _note(self, device: DeviceKind, text: str) -> None:
        note = DeviceNote(device, text)
        self.notes.append(note)
        log.warning("%s", text)
        if self._post is not None:
            self._post(note)

    def _start_buttons(self, settings: ButtonSettings, post: PostRig) -> None:
        panel = ButtonPanel(settings, post)
        panel.on_error = lambda text: self._note("buttons", text)
        panel.pin_factory = self.sim.pins if self.sim is not None else None
        try:
            panel.start()
        except Exception as error:
            self._note("buttons", f"The table buttons could not start: {_why(error)}")
            return
        self.panel = panel

    def _start_leds(self, post: PostRig) -> None:
        if self.animator is None:
            return
        try:
            self.animator.start()
        except Exception as error:
            self._note(
                "leds",
                f"The LED strip could not start ({_why(error)}); the LED view shows "
                "a simulated strip instead.",
            )
            assert self.layout is not None
            if self.strip is not None:
                with contextlib.suppress(Exception):
                    self.strip.close()  # give back whatever the failed driver holds
            self.animator = None
            self._use_sim_strip(self.config.leds, self.layout)
            assert self.animator is not None
            self.animator.start()

    def _use_sim_strip(self, leds: LedsConfig, layout: LedLayout) -> SimStrip:
        strip = SimStrip(max(leds.count, layout.led_count))
        self._attach_strip(strip, leds, layout)
        if self.sim is None:
            self.sim = SimControls()
        self.sim.strip = strip
        return strip

    def _attach_strip(self, inner: LedStrip, leds: LedsConfig, layout: LedLayout) -> None:
        self.strip = TappedStrip(inner, [self._frame_shipped, *self.frame_listeners])
        self.layout = layout
        self.animator = Animator(
            self.strip,
            layout,
            brightness=leds.brightness,
            power_budget=power_budget_of(leds),
            fps=leds.frame_rate,
            gamma=gamma_table(leds.gamma),
            clock=self.clock,
        )
        for listener in self.frame_listeners:
            if isinstance(listener, FrameFile):
                listener.animator = self.animator

    def _frame_shipped(self, seq: int, frame: Frame) -> None:
        post = self._post
        if post is not None:
            post(LedFrameShown(seq, frame))


def _why(error: BaseException) -> str:
    text = str(error).strip()
    return text if text else type(error).__name__


# ---------------------------------------------------------------------------- building


def build_rig(
    config: HardwareConfig,
    platform: Platform | None = None,
    *,
    sim_dir: Path | None = None,
    frame_file: Path | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Rig:
    """Build the devices ``config`` configures (nothing runs until :meth:`Rig.start`).

    ``sim_dir`` is where the simulated tray's port link goes (a fresh temporary folder
    by default); ``frame_file`` makes the LED strip record what it ships (test hook);
    ``clock`` is the LED animator's (a test's own makes its frames exact).
    ``"auto"`` settings are expected resolved already (:func:`load_config` does that).
    """
    found = platform if platform is not None else detect_platform()
    config = config.resolved(found)
    rig = Rig(config, clock=clock)
    if frame_file is not None:
        rig.frame_listeners.append(FrameFile(frame_file))
    _build_dice(rig, config, sim_dir)
    _build_board(rig, config, sim_dir)
    _build_buttons(rig, config)
    _build_leds(rig, config.leds, found)
    return rig


def _build_dice(rig: Rig, config: HardwareConfig, sim_dir: Path | None) -> None:
    dice = config.dice
    if dice.source == "serial":
        rig.dice.append(SerialDiceTray(dice.serial.model_copy(update={"enabled": True})))
    elif dice.source == "gpio":
        from firmware_bridge.dice.gpio_die import GpioDie

        rig.dice.append(GpioDie(dice.gpio.model_copy(update={"enabled": True})))
    elif dice.source == "godice":
        missing = [m for m in ("godice", "bleak") if importlib.util.find_spec(m) is None]
        if missing:
            rig.notes.append(
                DeviceNote(
                    "dice",
                    "GoDice need the Bluetooth packages ("
                    + ", ".join(missing)
                    + "): pip install 'colossus-companion[ble]'.",
                )
            )
            return
        from firmware_bridge.dice.godice_source import GoDiceSource

        rig.dice.append(GoDiceSource(dice.godice.model_copy(update={"enabled": True})))
    elif dice.source == "sim":
        path = _sim_folder(rig, sim_dir) / SIM_PORT_NAME
        tray = SimDiceTray(str(path), device_id=SIM_TRAY_ID, dice=SIM_TRAY_DICE)
        tray.battery = SIM_TRAY_BATTERY
        # The real reader on the pty's path; the USB scan is pointed at no device, so a
        # real tray plugged into a development machine is never taken instead.
        settings = dice.serial.model_copy(
            update={"enabled": True, "port": str(path), "usb_vid": 0, "usb_pid": 0}
        )
        rig.dice.append(SerialDiceTray(settings, name="sim-tray"))
        rig.sim = rig.sim or SimControls()
        rig.sim.tray = tray


def _sim_folder(rig: Rig, sim_dir: Path | None) -> Path:
    """Where simulated ports' links go: ``sim_dir``, or one temporary folder of the rig."""
    folder = sim_dir if sim_dir is not None else rig._sim_dir
    if folder is None:
        folder = rig._sim_dir = Path(tempfile.mkdtemp(prefix="companion-sim-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _build_board(rig: Rig, config: HardwareConfig, sim_dir: Path | None) -> None:
    """The sensing board's reader: the dice tray's own reader (``tray``: nothing to
    add), a reader of its own on the board's Pico, or that reader on the simulated
    board's pty (the kiosk sets its miniatures to the game's when a game starts)."""
    board = config.board
    settings = board.serial.model_copy(update={"enabled": True})
    if board.source == "tray":
        trays = [reader.name for reader in rig.dice if isinstance(reader, SerialDiceTray)]
        rig.board_reader = trays[0] if trays else None
    elif board.source != "none":
        rig.board_reader = BOARD_READER
    if board.source == "serial":
        rig.dice.append(SerialDiceTray(settings, name=BOARD_READER))
    elif board.source == "sim":
        path = _sim_folder(rig, sim_dir) / SIM_BOARD_PORT_NAME
        sim_board = SimSensingBoard(str(path), device_id=SIM_BOARD_ID)
        rig.dice.append(
            SerialDiceTray(
                settings.model_copy(update={"port": str(path), "usb_vid": 0, "usb_pid": 0}),
                name=BOARD_READER,
            )
        )
        rig.sim = rig.sim or SimControls()
        rig.sim.board = sim_board


def _build_buttons(rig: Rig, config: HardwareConfig) -> None:
    buttons = config.buttons
    if buttons.source == "none":
        return
    settings = ButtonSettings.model_validate(
        {name: getattr(buttons, name) for name in ButtonSettings.model_fields if name != "enabled"}
    )
    rig.buttons = settings
    if buttons.source == "sim":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        rig.sim = rig.sim or SimControls()
        rig.sim.pins = MockFactory(pin_class=MockPWMPin)
        rig.sim.button_settings = settings


def _build_leds(rig: Rig, leds: LedsConfig, platform: Platform) -> None:
    if leds.driver == "none":
        return
    try:
        layout = layout_of(leds)
    except (LayoutError, OSError) as error:
        rig.notes.append(
            DeviceNote(
                "leds",
                f"The LED layout could not be read ({_why(error)}); "
                "using the 11×11 Kolossus board.",
            )
        )
        layout = kolossus_layout(led_count=max(leds.count, 121))
    if leds.driver == "sim":
        rig._use_sim_strip(leds, layout)
        return
    try:
        strip = make_strip(leds, platform)
    except Exception as error:  # HardwareUnavailable, a missing library, a bad setting
        rig.notes.append(
            DeviceNote(
                "leds",
                f"The LED strip ({leds.driver}) is not available: {_why(error)} "
                "The LED view shows a simulated strip instead.",
            )
        )
        rig._use_sim_strip(leds, layout)
        return
    if strip is None:
        return
    if layout.led_count > strip.count:
        rig.notes.append(
            DeviceNote(
                "leds",
                f"The layout needs {layout.led_count} LEDs but [leds] count is {strip.count}; "
                "the LEDs stay off.",
            )
        )
        strip.close()
        return
    rig._attach_strip(strip, leds, layout)
