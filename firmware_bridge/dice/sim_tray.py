"""A simulated dice tray: the device side of the protocol, spoken into a pty.

The host reader opens the pty's slave path (through a symlink that plays the udev
``/dev/dice-tray`` link) exactly as it would open the real tray, so tests, the shop demo
and the latency bench run the real reader unchanged. Controls: :meth:`roll`,
:meth:`unplug` (closes the master: the host sees the device vanish), :meth:`replug`
(a fresh pty behind the same symlink) and :meth:`send_raw` for line noise.
"""

from __future__ import annotations

import os
import random
import select
import threading
import tty
from collections.abc import Sequence
from dataclasses import dataclass

from firmware_bridge.frames import (
    PROTOCOL_VERSION,
    Ack,
    DieSpec,
    FrameDecoder,
    Hello,
    HelloRequest,
    Message,
    Ping,
    Pong,
    Rolling,
    RollResult,
    Status,
    encode_frame,
)

DEFAULT_DICE = (DieSpec(1, 4), DieSpec(2, 4), DieSpec(3, 4))
STOP_POLL_S = 0.25
"""How often the serving thread looks for an unplug while the host is silent: bytes end
its wait at once, so this only bounds how long :meth:`SimDiceTray.unplug` waits (four
wake-ups a second; the kiosk runs this twin all day in simulated mode)."""


@dataclass
class _Plug:
    """One pty pair and the thread that answers the host on it."""

    master: int
    slave: int
    stop: threading.Event
    thread: threading.Thread | None = None
    connected: bool = False


class SimDiceTray:
    """Device-side twin of the Pico firmware (see ``firmware/pico_dice_tray``)."""

    def __init__(
        self,
        path: str,
        *,
        device_id: str = "sim-tray",
        dice: Sequence[DieSpec] = DEFAULT_DICE,
        firmware: tuple[int, int, int] = (1, 0, 0),
        protocol: int = PROTOCOL_VERSION,
        boot_id: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.path = path
        self.device_id = device_id
        self.dice = tuple(dice)
        self.firmware = firmware
        self.protocol = protocol
        self._random = random.Random(seed)
        self.boot_id = self._random.getrandbits(32) if boot_id is None else boot_id
        self.ignore_acks = False
        """When set, acks are dropped, so every result is re-sent after the next hello."""
        self.battery: int | None = None
        self._next_seq = 1
        self._unacked: dict[int, RollResult] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._plug: _Plug | None = None
        self._changed = threading.Condition(self._lock)
        self.handshakes = 0
        self.resent = 0
        self.pings = 0

    # ------------------------------------------------------------------ controls

    def start(self) -> None:
        """Plug the tray in."""
        self.replug()

    def replug(self) -> None:
        """A new pty pair behind the same path (what udev does on a real replug)."""
        if self._plug is not None:
            raise RuntimeError("already plugged in")
        master, slave = os.openpty()
        tty.setraw(master)  # no echo, no newline translation before the host configures it
        os.set_blocking(master, False)
        plug = _Plug(master, slave, threading.Event())
        temp = f"{self.path}.new"
        if os.path.lexists(temp):
            os.unlink(temp)
        os.symlink(os.ttyname(slave), temp)
        os.replace(temp, self.path)
        plug.thread = threading.Thread(
            target=self._serve, args=(plug,), name="sim-dice-tray", daemon=True
        )
        self._plug = plug
        plug.thread.start()

    def unplug(self) -> None:
        """Pull the cable: the path disappears and the host's port fails."""
        plug = self._plug
        if plug is None:
            return
        self._plug = None
        plug.stop.set()
        if plug.thread is not None:
            plug.thread.join(2.0)
        if os.path.lexists(self.path):
            os.unlink(self.path)
        os.close(plug.master)
        os.close(plug.slave)

    def stop(self) -> None:
        """Unplug and forget; idempotent."""
        self.unplug()

    @property
    def plugged(self) -> bool:
        return self._plug is not None

    @property
    def connected(self) -> bool:
        """Plugged in and the host has said hello on this plug."""
        plug = self._plug
        return plug is not None and plug.connected

    def roll(self, die_id: int, face: int | None = None, *, lost: bool = False) -> RollResult:
        """Roll one die; the result is sent now if connected, else after the next hello.

        ``lost``: its frames are lost on the wire (the host never sees them; the tray
        keeps the result unacked and re-sends it after the next hello)."""
        faces = {die.die_id: die.faces for die in self.dice}[die_id]
        with self._lock:
            value = self._random.randint(1, faces) if face is None else face
            result = RollResult(die_id, value, self._next_seq)
            self._next_seq += 1
            self._unacked[result.seq] = result
        plug = self._plug
        if plug is not None and plug.connected and not lost:
            self._send(plug, Rolling(die_id))
            self._send(plug, result)
        return result

    def send_status(self, battery: int | None, *, low_battery: bool = False) -> None:
        self.battery = battery
        plug = self._plug
        if plug is not None:
            self._send(plug, Status(battery, low_battery=low_battery))

    def send_raw(self, data: bytes) -> None:
        """Write arbitrary bytes (noise, hand-made frames) into the host's port."""
        plug = self._plug
        if plug is None:
            raise RuntimeError("unplugged")
        self._write(plug, data)

    def forget(self, seq: int) -> None:
        """The tray's store of unacked results overflowed: result ``seq`` is never sent
        again."""
        with self._changed:
            self._unacked.pop(seq, None)
            self._changed.notify_all()

    @property
    def unacked(self) -> tuple[RollResult, ...]:
        with self._lock:
            return tuple(self._unacked.values())

    def wait_until(self, predicate: str, timeout: float) -> bool:
        """Wait (bounded) until ``predicate`` holds: ``"connected"`` or ``"all_acked"``."""
        checks = {
            "connected": lambda: self.connected,
            "all_acked": lambda: not self._unacked,
        }
        check = checks[predicate]
        with self._changed:
            return self._changed.wait_for(check, timeout)

    # ------------------------------------------------------------------ device side

    def _serve(self, plug: _Plug) -> None:
        decoder = FrameDecoder()
        while not plug.stop.is_set():
            readable, _, _ = select.select([plug.master], [], [], STOP_POLL_S)
            if not readable:
                continue
            try:
                data = os.read(plug.master, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return  # the slave side went away (EIO); wait to be unplugged
            for message in decoder.feed(data):
                self._answer(plug, message)

    def _answer(self, plug: _Plug, message: Message) -> None:
        if isinstance(message, HelloRequest):
            hello = Hello(self.device_id, self.firmware, self.protocol, self.boot_id, self.dice)
            self._send(plug, hello)
            if self.battery is not None:
                self._send(plug, Status(self.battery))
            with self._changed:
                self.handshakes += 1
                plug.connected = True
                pending = sorted(self._unacked.values(), key=lambda result: result.seq)
                self._changed.notify_all()
            for result in pending:
                self.resent += 1
                self._send(plug, result)
            self._after_hello(plug)
        elif isinstance(message, Ack):
            if self.ignore_acks:
                return
            with self._changed:
                self._unacked.pop(message.seq, None)
                self._changed.notify_all()
        elif isinstance(message, Ping):
            self.pings += 1
            self._send(plug, Pong(message.token))
        else:
            self._answer_other(plug, message)

    def _after_hello(self, plug: _Plug) -> None:
        """What else a device sends after its hello (a sensing board: its bitmap)."""

    def _answer_other(self, plug: _Plug, message: Message) -> None:
        """A host message the tray itself does not answer (a sensing board's request)."""

    def _send(self, plug: _Plug, message: Message) -> None:
        self._write(plug, encode_frame(message))

    def _write(self, plug: _Plug, data: bytes) -> None:
        with self._write_lock:
            view = memoryview(data)
            while view and not plug.stop.is_set():
                try:
                    written = os.write(plug.master, view)
                except BlockingIOError:
                    select.select([], [plug.master], [], 0.02)
                    continue
                except OSError:
                    return
                view = view[written:]
