"""The app side of the hardware: one thread-safe queue, drained on the main thread.

Device threads (serial dice tray, GPIO die, Bluetooth) only ever call
:meth:`HardwareHub.post` — ``queue.Queue.put`` — with a dice message. The main thread
calls :meth:`HardwareHub.pump` from ``Clock.schedule_interval`` (see
:func:`schedule_pump`): status messages update the header badges, single die results
are collected until the pending dice request has all its faces, then submitted as one
electronic ``Roll`` through the play presenter — the same path as a tap. Nothing here
imports Kivy at module level, so the hub is tested without a display.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from firmware_bridge.dice.base import DiceSource
from firmware_bridge.dice.messages import (
    DiceMessage,
    DieResult,
    DieRolling,
    PostDice,
    TrayState,
    TrayStatus,
)
from kiosk.presenters.devices import DeviceState, DeviceStatus

MAX_PER_PUMP = 64  # messages handled per main-loop tick; the rest wait for the next one
PUMP_INTERVAL_S = 1 / 20

_STATE: dict[TrayState, DeviceState] = {
    TrayState.CONNECTED: "connected",
    TrayState.CONNECTING: "reconnecting",
    TrayState.RECONNECTING: "reconnecting",
    TrayState.ABSENT: "disconnected",
    TrayState.INCOMPATIBLE: "disconnected",
    TrayState.STOPPED: "disconnected",
}


class RollTarget(Protocol):
    """What the hub hands rolls to: the play presenter of the game on screen."""

    def dice_request(self) -> Any: ...

    def electronic_roll(self, values: tuple[int, ...], device: str | None = None) -> bool: ...

    def set_devices(self, statuses: tuple[DeviceStatus, ...]) -> None: ...


class HardwareHub:
    """Owns the queue and the dice sources; ``pump`` runs on the main thread only."""

    def __init__(self) -> None:
        self.queue: queue.Queue[DiceMessage] = queue.Queue()
        self.sources: list[DiceSource] = []
        self.statuses: dict[str, DeviceStatus] = {}
        self.pending: list[int] = []
        self.pending_device: str | None = None
        self._request_key: object = None
        self.rolling = False
        self.handled = 0

    # --- any thread -------------------------------------------------------------------

    def post(self, message: DiceMessage) -> None:
        """Thread-safe: what device threads call (it is ``queue.Queue.put``)."""
        self.queue.put(message)

    # --- main thread ------------------------------------------------------------------

    def start(self, sources: Iterable[DiceSource]) -> None:
        for source in sources:
            self.sources.append(source)
            source.start(self.post)

    def stop(self) -> None:
        for source in self.sources:
            source.stop()
        self.sources.clear()

    def device_statuses(self) -> tuple[DeviceStatus, ...]:
        return tuple(self.statuses[k] for k in sorted(self.statuses))

    def pump(self, target: RollTarget | None) -> int:
        """Handle waiting messages (at most MAX_PER_PUMP). Returns how many."""
        handled = 0
        statuses_changed = False
        while handled < MAX_PER_PUMP:
            try:
                message = self.queue.get_nowait()
            except queue.Empty:
                break
            handled += 1
            if isinstance(message, TrayStatus):
                self.statuses[message.device] = DeviceStatus(
                    device="dice",
                    state=_STATE.get(message.state, "disconnected"),
                    battery=message.battery,
                    detail=message.detail,
                )
                statuses_changed = True
            elif isinstance(message, DieRolling):
                self.rolling = True
            elif isinstance(message, DieResult) and target is not None:
                self.rolling = False
                self._collect(message, target)
        if statuses_changed and target is not None:
            target.set_devices(self.device_statuses())
        self.handled += handled
        return handled

    def _collect(self, result: DieResult, target: RollTarget) -> None:
        """Gather single dice until the request has its count; then submit them as one."""
        request = target.dice_request()
        if request is None:
            self.pending.clear()
            target.electronic_roll((result.face,), result.device)  # refused with a banner
            return
        key = (request.purpose, request.label, request.count, request.sides, request.player)
        if key != self._request_key:
            self._request_key = key
            self.pending.clear()
        self.pending.append(result.face)
        self.pending_device = result.device
        if len(self.pending) >= request.count:
            values = tuple(self.pending[: request.count])
            self.pending.clear()
            self._request_key = None
            target.electronic_roll(values, result.device)


def schedule_pump(hub: HardwareHub, target: Callable[[], RollTarget | None]) -> Any:
    """Drain the hub from Kivy's clock on the main thread; returns the clock event."""
    from kivy.clock import Clock

    return Clock.schedule_interval(lambda _dt: hub.pump(target()), PUMP_INTERVAL_S)


class SimulatedDice(DiceSource):
    """A die you drive from code or a test, from any thread, through the real queue path."""

    name = "simulated dice"

    def __init__(self, device: str = "sim-die", battery: int | None = 87) -> None:
        self.device = device
        self.battery = battery
        self._post: PostDice | None = None
        self._state = TrayState.ABSENT
        self._seq = 0
        self._lock = threading.Lock()

    def start(self, post: PostDice) -> None:
        self._post = post
        self._set(TrayState.CONNECTED)

    def stop(self, timeout: float = 2.0) -> None:
        if self._post is not None:
            self._set(TrayState.STOPPED)
        self._post = None

    @property
    def state(self) -> TrayState:
        return self._state

    def _set(self, state: TrayState) -> None:
        self._state = state
        if self._post is not None:
            self._post(TrayStatus(device=self.device, state=state, battery=self.battery))

    def disconnect(self) -> None:
        """As if the cable was pulled: the header says "reconnecting"."""
        self._set(TrayState.RECONNECTING)

    def reconnect(self) -> None:
        self._set(TrayState.CONNECTED)

    def roll(self, *faces: int, sides: int = 6) -> None:
        """Post one result per die, as a tray does when each die comes to rest."""
        if self._post is None:
            raise RuntimeError("The simulated dice are not started.")
        for face in faces:
            with self._lock:
                self._seq += 1
                seq = self._seq
            self._post(DieRolling(device=self.device, die_id=0))
            self._post(DieResult(device=self.device, die_id=0, face=face, faces=sides, seq=seq))
