"""The USB-serial dice tray reader: one thread, survives unplug and replug.

The thread finds the tray (stable udev path first, then a USB VID/PID scan), does the
hello handshake, acks every roll result and posts new ones exactly once: a result the
device re-sends after a reconnect is recognised by (device id, boot id, seq) and only
acked again. When the port vanishes it backs off 1 s, 2 s, 4 s ... up to 10 s and tries
again; the back-off restarts after every successful handshake.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import serial
import serial.tools.list_ports
from pydantic import Field, model_validator

from companion.model import Frozen
from firmware_bridge.board.messages import BoardOccupancy
from firmware_bridge.board.tracker import OccupancyTracker
from firmware_bridge.dice.base import DiceSource
from firmware_bridge.dice.messages import (
    DiceMessage,
    DieResult,
    DieRolling,
    PostDice,
    TrayState,
    TrayStatus,
)
from firmware_bridge.frames import (
    PROTOCOL_VERSION,
    DecoderStats,
    FrameDecoder,
    Hello,
    HelloRequest,
    Message,
    Occupancy,
    OccupancyChange,
    OccupancyRequest,
    Ping,
    Rolling,
    RollResult,
    Status,
    UnknownVersion,
    encode_frame,
)
from firmware_bridge.frames import Ack as AckMessage
from firmware_bridge.supervise import backoff_delays, run_restarting

log = logging.getLogger(__name__)

PICO_USB_VID = 0x2E8A
"""Raspberry Pi's USB vendor id."""
PICO_MICROPYTHON_PID = 0x0005
"""The product id MicroPython's USB CDC reports on an RP2040."""
DEVICE_LINK_TIMEOUT_S = 3.5
"""The tray counts the link as lost after this long without a byte from the host."""
SEEN_RESULTS_KEPT = 4096


class SerialDiceSettings(Frozen):
    """Where and how to find the tray; ``[dice.serial]`` of the configuration
    (:mod:`firmware_bridge.config`) embeds this model."""

    enabled: bool = Field(default=True, description="Look for a USB dice tray at all.")
    port: str | None = Field(
        default="/dev/dice-tray",
        description="Stable device path (udev rule); tried before the USB scan; empty = scan only.",
    )
    usb_vid: int = Field(default=PICO_USB_VID, ge=0, le=0xFFFF, description="USB vendor id.")
    usb_pid: int = Field(
        default=PICO_MICROPYTHON_PID, ge=0, le=0xFFFF, description="USB product id."
    )
    serial_number: str | None = Field(
        default=None, description="Only accept this USB serial number (several trays); empty = any."
    )
    baudrate: int = Field(default=115200, ge=1200, le=4_000_000)
    backoff_initial_s: float = Field(default=1.0, gt=0, le=60, description="First reconnect delay.")
    backoff_max_s: float = Field(default=10.0, gt=0, le=300, description="Longest reconnect delay.")
    hello_retry_s: float = Field(default=2.0, gt=0, le=30, description="Re-ask hello this often.")
    ping_interval_s: float = Field(
        default=1.0,
        gt=0,
        le=3.0,
        description=f"Keep-alive period (the tray drops a host silent {DEVICE_LINK_TIMEOUT_S} s).",
    )
    silence_timeout_s: float = Field(
        default=3.5, gt=0, le=60, description="No byte for this long = the device is gone."
    )
    poll_s: float = Field(
        default=0.25,
        gt=0,
        le=1.0,
        description=(
            "Serial read timeout (loop tick). A byte ends the wait at once, so this only "
            "bounds how late a ping or a stop is noticed; longer = fewer idle wake-ups."
        ),
    )

    gap_wait_s: float = Field(
        default=2.5,
        gt=0,
        le=10,
        description=(
            "How long a roll waits for an earlier one lost on the wire (the tray re-sends"
            " it every second) before it is posted anyway."
        ),
    )

    @model_validator(mode="after")
    def _keeps_the_link_alive(self) -> SerialDiceSettings:
        """A ping can be up to ``poll_s`` late, and the tray counts
        the host as gone after DEVICE_LINK_TIMEOUT_S without a byte."""
        if self.ping_interval_s + self.poll_s >= DEVICE_LINK_TIMEOUT_S:
            raise ValueError(
                f"ping_interval_s + poll_s must stay under {DEVICE_LINK_TIMEOUT_S} s (the"
                " tray drops a host it has not heard from for that long)"
            )
        if self.silence_timeout_s <= self.ping_interval_s + self.poll_s:
            raise ValueError(
                "silence_timeout_s must be longer than ping_interval_s + poll_s (the tray"
                " answers each ping)"
            )
        if self.backoff_max_s < self.backoff_initial_s:
            raise ValueError("backoff_max_s must be at least backoff_initial_s")
        return self


def find_port(settings: SerialDiceSettings) -> str | None:
    """The tray's device path: the stable udev path if it exists, else a VID/PID match
    (USB ids of 0 and 0: no scan, the stable path only)."""
    if settings.port and os.path.exists(settings.port):
        return settings.port
    if not settings.usb_vid and not settings.usb_pid:
        return None
    for info in serial.tools.list_ports.comports():
        if info.vid != settings.usb_vid or info.pid != settings.usb_pid:
            continue
        if settings.serial_number and info.serial_number != settings.serial_number:
            continue
        return str(info.device)
    return None


class _DeviceSilent(Exception):
    """No byte arrived within the silence timeout: treat the device as lost."""


@dataclass
class _Session:
    """What one open connection knows; discarded when the port closes."""

    port: serial.Serial
    decoder: FrameDecoder
    hello: Hello | None = None
    incompatible: bool = False
    held: dict[int, RollResult] = field(default_factory=dict)
    """Results that came before an earlier one lost on the wire; not acked yet."""
    gap_since: float | None = None
    board: OccupancyTracker | None = None
    """The sensing board's matrix, once the device has sent any of it."""
    board_asked: float | None = None
    """When the whole bitmap was last asked for (None: not on this connection)."""


class SerialDiceTray(DiceSource):
    """Reads a dice tray on its own thread and posts :mod:`messages` through ``post``."""

    def __init__(
        self,
        settings: SerialDiceSettings | None = None,
        *,
        name: str = "serial-tray",
        wait: Callable[[float], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.settings = settings or SerialDiceSettings()
        self._stop = threading.Event()
        self._wait = wait or self._stop.wait
        self._clock = clock
        self._thread: threading.Thread | None = None
        self._post: PostDice | None = None
        self._lock = threading.Lock()
        self._state = TrayState.ABSENT
        self._battery: int | None = None
        self._low_battery = False
        self._hello: Hello | None = None
        self._seen: dict[tuple[str, int, int], None] = {}
        self._last_seq: dict[tuple[str, int], int] = {}
        """Per device and boot: the highest sequence number handled (posted or refused)."""
        self._ping_token = 0
        self.stats = DecoderStats()
        """Decoder errors summed over every connection (for diagnostics)."""
        self.connections = 0
        """How many handshakes succeeded."""
        self.duplicates = 0
        """Re-sent results that were acked again but not posted."""

    # ------------------------------------------------------------------ public

    def start(self, post: PostDice) -> None:
        if self._thread is not None:
            raise RuntimeError("SerialDiceTray already started")
        self._post = post
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"dice-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                raise RuntimeError(f"{self.name}: reader thread did not stop in {timeout} s")
        self._thread = None

    @property
    def state(self) -> TrayState:
        with self._lock:
            return self._state

    @property
    def battery(self) -> int | None:
        with self._lock:
            return self._battery

    @property
    def hello(self) -> Hello | None:
        """The connected device's identity, or ``None``."""
        with self._lock:
            return self._hello

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        self._post_status("Looking for a dice tray.")
        try:
            run_restarting(
                "The dice tray reader",
                self._connect_until_stopped,
                wait=self._wait,
                report=lambda text: self._set_state(TrayState.RECONNECTING, text),
            )
        finally:
            self._set_state(TrayState.STOPPED, "Dice tray reader stopped.")

    def _connect_until_stopped(self) -> None:
        """Find, serve and re-find the tray until stopped; a lost port is expected here,
        anything else ends this call and :func:`run_restarting` starts it again."""
        delays = self._delays()
        while not self._stop.is_set():
            port = find_port(self.settings)
            problem = "no dice tray found"
            if port is not None:
                connected_before = self.connections
                try:
                    self._serve(port)
                except (OSError, serial.SerialException, _DeviceSilent) as exc:
                    log.info("%s: lost %s (%s)", self.name, port, exc)
                    problem = f"{port}: {exc}"
                if self._stop.is_set():
                    break
                if self.connections > connected_before:
                    delays = self._delays()
            if self.connections:
                self._set_state(TrayState.RECONNECTING, f"Dice tray lost ({problem}).")
            else:
                self._set_state(TrayState.ABSENT, f"No dice tray yet ({problem}).")
            if self._wait(next(delays)):
                break

    def _delays(self) -> Iterator[float]:
        return backoff_delays(self.settings.backoff_initial_s, self.settings.backoff_max_s)

    def _serve(self, path: str) -> None:
        """Talk to one open port until it fails (raises) or the reader is stopped."""
        settings = self.settings
        port = serial.Serial(
            path, settings.baudrate, timeout=settings.poll_s, write_timeout=1.0, exclusive=True
        )
        session = _Session(port, FrameDecoder())
        try:
            self._set_state(TrayState.CONNECTING, f"Dice tray found at {path}.")
            now = self._clock()
            last_rx = last_ping = last_hello = now
            self._send(session, HelloRequest(PROTOCOL_VERSION))
            while not self._stop.is_set():
                data = port.read(max(1, port.in_waiting))
                now = self._clock()
                if data:
                    last_rx = now
                    for message in session.decoder.feed(data):
                        self._handle(session, message)
                if (
                    session.hello is None
                    and not session.incompatible
                    and now - last_hello >= settings.hello_retry_s
                ):
                    self._send(session, HelloRequest(PROTOCOL_VERSION))
                    last_hello = now
                if now - last_ping >= settings.ping_interval_s:
                    self._ping_token = (self._ping_token + 1) & 0xFFFF
                    self._send(session, Ping(self._ping_token))
                    last_ping = now
                if session.gap_since is not None and now - session.gap_since >= settings.gap_wait_s:
                    self._release_held(session)
                board = session.board
                if (
                    board is not None
                    and board.wants_bitmap
                    and (
                        session.board_asked is None
                        or now - session.board_asked >= settings.hello_retry_s
                    )
                ):
                    self._ask_bitmap(session)
                if now - last_rx >= settings.silence_timeout_s:
                    raise _DeviceSilent(f"no data for {settings.silence_timeout_s} s")
        finally:
            self._merge_stats(session.decoder.stats)
            if session.board is not None and session.hello is not None:
                # The board is out of sight: its squares are unknown until the next bitmap.
                self._emit(BoardOccupancy(session.hello.device_id, None))
            with self._lock:
                self._hello = None
            port.close()

    def _send(self, session: _Session, message: Message) -> None:
        session.port.write(encode_frame(message))

    def _handle(self, session: _Session, message: Message) -> None:
        if isinstance(message, Hello):
            self._on_hello(session, message)
        elif session.hello is None:
            return  # nothing counts before the handshake; the device re-sends results
        elif isinstance(message, RollResult):
            self._on_result(session, session.hello, message)
        elif isinstance(message, Rolling):
            self._emit(DieRolling(session.hello.device_id, message.die_id))
        elif isinstance(message, Occupancy | OccupancyChange):
            self._on_board(session, session.hello, message)
        elif isinstance(message, UnknownVersion):
            log.warning("%s: ignored %s", session.hello.device_id, message)
            self._post_status(
                f"{session.hello.device_id} sends sensing-board messages of version"
                f" {message.version}; this companion reads version 1: update one of them."
            )
        elif isinstance(message, Status):
            with self._lock:
                changed = (self._battery, self._low_battery) != (
                    message.battery,
                    message.low_battery,
                )
                self._battery = message.battery
                self._low_battery = message.low_battery
            if changed:
                self._post_status("Battery status changed.")
        # Pong only refreshes the silence timer; host-bound types from a device are ignored.

    def _on_hello(self, session: _Session, hello: Hello) -> None:
        if hello.protocol != PROTOCOL_VERSION:
            session.incompatible = True
            self._set_state(
                TrayState.INCOMPATIBLE,
                f"Dice tray {hello.device_id} speaks protocol {hello.protocol}, this "
                f"companion speaks {PROTOCOL_VERSION}: update the tray's firmware.",
            )
            return
        first = session.hello is None
        session.hello = hello
        with self._lock:
            self._hello = hello
        if first:
            self.connections += 1
            self._set_state(TrayState.CONNECTED, f"Dice tray {hello.device_id} connected.")

    def _on_result(self, session: _Session, hello: Hello, result: RollResult) -> None:
        """Post results in the tray's sequence order (re-sent rolls
        were once posted after later ones). A result that comes after a gap — an earlier
        frame lost on the wire — waits, unacked, for the tray to re-send the missing one
        (it does every second), at most ``gap_wait_s``."""
        stream = (hello.device_id, hello.boot_id)
        last = self._last_seq.get(stream)
        new = (hello.device_id, hello.boot_id, result.seq) not in self._seen
        if new and last is not None and result.seq > last + 1:
            session.held.setdefault(result.seq, result)
            if session.gap_since is None:
                session.gap_since = self._clock()
            return
        self._accept(session, hello, result)
        while (follower := session.held.pop(self._last_seq[stream] + 1, None)) is not None:
            self._accept(session, hello, follower)
        if not session.held:
            session.gap_since = None

    def _on_board(
        self, session: _Session, hello: Hello, message: Occupancy | OccupancyChange
    ) -> None:
        """Keep the sensing board's matrix in step (:class:`OccupancyTracker`) and post
        each new occupancy; on a gap post "unknown" and ask for the whole bitmap."""
        board = session.board
        if board is None:
            board = session.board = OccupancyTracker()
        if isinstance(message, Occupancy):
            occupied = board.on_bitmap(message)
            landscapes = board.snapshot(1)
            self._emit(BoardOccupancy(hello.device_id, occupied, board.seq, True, landscapes))
            return
        known = board.known
        occupied_now = board.on_change(message)
        if occupied_now is not None:
            landscapes = board.snapshot(1)
            self._emit(BoardOccupancy(hello.device_id, occupied_now, board.seq, False, landscapes))
        elif board.wants_bitmap and (known or session.board_asked is None):
            if known:
                self._emit(BoardOccupancy(hello.device_id, None, board.seq))
            self._ask_bitmap(session)

    def _ask_bitmap(self, session: _Session) -> None:
        session.board_asked = self._clock()
        self._send(session, OccupancyRequest())

    def _release_held(self, session: _Session) -> None:
        """The missing result never came (the tray dropped it): post the rest in order."""
        hello = session.hello
        if hello is None:
            return
        log.warning(
            "%s: gave up waiting for a result before seq %d", hello.device_id, min(session.held)
        )
        for seq in sorted(session.held):
            self._accept(session, hello, session.held.pop(seq))
        session.gap_since = None

    def _accept(self, session: _Session, hello: Hello, result: RollResult) -> None:
        key = (hello.device_id, hello.boot_id, result.seq)
        faces = {die.die_id: die.faces for die in hello.dice}.get(result.die_id)
        if key in self._seen:
            self.duplicates += 1
        elif faces is None or not 1 <= result.face <= faces:
            log.warning("%s: ignored impossible result %s", hello.device_id, result)
        else:
            self._seen[key] = None
            if len(self._seen) > SEEN_RESULTS_KEPT:
                del self._seen[next(iter(self._seen))]
            self._emit(DieResult(hello.device_id, result.die_id, result.face, faces, result.seq))
        stream = (hello.device_id, hello.boot_id)
        self._last_seq[stream] = max(result.seq, self._last_seq.get(stream, result.seq))
        # Ack after posting: a result is acked only once it is in the owner's hands.
        self._send(session, AckMessage(result.seq))

    # ------------------------------------------------------------------ state

    def _merge_stats(self, stats: DecoderStats) -> None:
        for name in ("frames", "bad_cobs", "bad_crc", "bad_payload", "oversize"):
            setattr(self.stats, name, getattr(self.stats, name) + getattr(stats, name))

    def _set_state(self, state: TrayState, detail: str) -> None:
        with self._lock:
            if self._state == state:
                return
            self._state = state
        self._post_status(detail)

    def _post_status(self, detail: str) -> None:
        with self._lock:
            hello = self._hello
            status = TrayStatus(
                device=self.name,
                device_id=hello.device_id if hello else None,
                state=self._state,
                battery=self._battery,
                low_battery=self._low_battery,
                firmware=".".join(map(str, hello.firmware)) if hello else None,
                detail=detail,
            )
        self._emit(status)

    def _emit(self, message: DiceMessage) -> None:
        if self._post is not None:
            self._post(message)
