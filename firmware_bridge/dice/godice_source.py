"""Bluetooth LE smart dice (GoDice) through the ``godice`` package, made robust.

``godice`` decodes the dice's notifications (``R`` = rolling, ``S`` + x, y, z = at rest,
the face picked from the xyz vector for the shell the die wears), but it has no
timeouts (a colour or battery query waits forever for an answer that may never come)
and no reconnect. This source adds both: it runs its own asyncio loop on a background
thread, bounds every await that talks to the radio with ``asyncio.wait_for``, and
retries each die on its own with back-off 1 s, 2 s, 4 s ... 10 s.

Each configured die gets its own status badge (``TrayStatus.device`` = the die's label)
and its own result sequence numbers. Only a real roll (``S``, "stable") is posted as a
:class:`~firmware_bridge.dice.messages.DieResult`; "tilt", "fake" and "move" stable
(the die was nudged, slid or left leaning) are counted and ignored.

``godice`` and ``bleak`` are imported lazily, so the settings model can be embedded in
the config without the optional ``ble`` extra installed. Discovery and the BLE client
are injectable: scanning needs BlueZ and D-Bus, and tests drive a fake client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from pydantic import Field, model_validator

from companion.model import Frozen
from firmware_bridge.dice.base import DiceSource
from firmware_bridge.dice.messages import (
    DieResult,
    DieRolling,
    PostDice,
    TrayState,
    TrayStatus,
)
from firmware_bridge.supervise import backoff_delays

log = logging.getLogger(__name__)

T = TypeVar("T")


class GoDiceShell(StrEnum):
    """The shells a GoDice can wear that give a plain face value 1..N."""

    D4 = "D4"
    D6 = "D6"
    D8 = "D8"
    D10 = "D10"
    D12 = "D12"
    D20 = "D20"

    @property
    def faces(self) -> int:
        return int(self.value[1:])


# ---------------------------------------------------------------------------- settings


class GoDieSettings(Frozen):
    """One physical die: how to find it and which shell it wears."""

    address: str | None = Field(
        default=None,
        description="Bluetooth address (AA:BB:CC:DD:EE:FF); found without a scan when given.",
    )
    name: str | None = Field(
        default=None,
        description="Advertised name, or its start (e.g. 'GoDice_3F2A'); needs a scan. "
        "'GoDice' takes any GoDice not used by another entry.",
    )
    label: str | None = Field(
        default=None,
        description="Name in the status bar and the Roll; default 'godice-<die_id>'.",
    )
    die_id: int = Field(default=1, ge=0, le=255, description="Id in the posted results.")
    shell: GoDiceShell = Field(
        default=GoDiceShell.D6,
        description="Shell the die wears: D4 for Kolossus, D6 for the island games.",
    )

    @model_validator(mode="after")
    def _findable(self) -> GoDieSettings:
        if not self.address and not self.name:
            raise ValueError("a GoDice needs an address or a name to be found")
        return self

    @property
    def device(self) -> str:
        return self.label or f"godice-{self.die_id}"


class GoDiceSettings(Frozen):
    """Which GoDice to use and how patient to be with them. Embedded in the config."""

    enabled: bool = Field(default=False, description="Use Bluetooth GoDice at all.")
    dice: tuple[GoDieSettings, ...] = Field(default=(), description="The dice, one entry each.")
    connect_timeout_s: float = Field(
        default=15.0,
        gt=0,
        le=120,
        description="Longest wait for a connection (incl. service discovery).",
    )
    scan_timeout_s: float = Field(
        default=5.0, gt=0, le=120, description="How long one scan listens for dice found by name."
    )
    query_timeout_s: float = Field(
        default=3.0, gt=0, le=60, description="Longest wait for a colour or battery answer."
    )
    disconnect_timeout_s: float = Field(
        default=1.0, gt=0, le=30, description="Longest wait for a clean disconnect."
    )
    backoff_initial_s: float = Field(default=1.0, gt=0, le=60, description="First reconnect delay.")
    backoff_max_s: float = Field(default=10.0, gt=0, le=300, description="Longest reconnect delay.")
    link_check_s: float = Field(
        default=1.0, gt=0, le=60, description="How often a connected die's link is checked."
    )
    battery_interval_s: float = Field(
        default=60.0, gt=0, le=3600, description="How often a connected die's battery is read."
    )
    low_battery_percent: int = Field(
        default=15, ge=0, le=100, description="At or below this the badge warns."
    )

    @model_validator(mode="after")
    def _distinct_dice(self) -> GoDiceSettings:
        labels = [die.device for die in self.dice]
        if len(set(labels)) != len(labels):
            raise ValueError(f"GoDice labels must differ (set label or die_id): {labels}")
        addresses = [die.address.upper() for die in self.dice if die.address]
        if len(set(addresses)) != len(addresses):
            raise ValueError(f"a GoDice address is listed twice: {addresses}")
        return self


# ---------------------------------------------------------------------------- seams


class FoundDevice(Protocol):
    """What a scan reports (``bleak.BLEDevice`` fits)."""

    @property
    def address(self) -> str: ...

    @property
    def name(self) -> str | None: ...


class BleClient(Protocol):
    """The part of ``bleak.BleakClient`` that ``godice`` and this source use."""

    @property
    def is_connected(self) -> bool: ...

    @property
    def services(self) -> Any: ...

    async def connect(self) -> None: ...

    async def disconnect(self) -> None: ...

    async def start_notify(
        self, char_specifier: Any, callback: Callable[[Any, bytearray], Awaitable[None]]
    ) -> None: ...

    async def write_gatt_char(self, char_specifier: Any, data: bytearray) -> None: ...


Target = str | FoundDevice
Discover = Callable[[float], Awaitable[Sequence[FoundDevice]]]
"""Scan for ``timeout`` seconds; return what was seen."""
ClientFactory = Callable[[Target, Callable[[Any], None], float], BleClient]
"""Build a client for an address or a scanned device, with a disconnect callback."""


async def bleak_discover(timeout: float) -> Sequence[FoundDevice]:
    """Scan with bleak (BlueZ over D-Bus on the Pi)."""
    from bleak import BleakScanner

    return await BleakScanner.discover(timeout=timeout)


def bleak_client(target: Target, on_disconnect: Callable[[Any], None], timeout: float) -> Any:
    """A real ``BleakClient``; a scanned ``BLEDevice`` avoids a second scan on BlueZ."""
    from bleak import BleakClient
    from bleak.backends.device import BLEDevice

    where: str | BLEDevice = target if isinstance(target, str | BLEDevice) else target.address
    return BleakClient(where, disconnected_callback=on_disconnect, timeout=timeout)


class LinkTimeout(TimeoutError):
    """One step of talking to a die took longer than its timeout."""


class DieNotFound(LookupError):
    """A scan did not see the die."""


# ---------------------------------------------------------------------------- source


@dataclass
class _Link:
    """One configured die and what its connection knows (touched on the loop thread)."""

    settings: GoDieSettings
    shell: GoDiceShell
    state: TrayState = TrayState.ABSENT
    seq: int = 0
    connections: int = 0
    battery: int | None = None
    address: str | None = None
    colour: str | None = None
    ignored: int = 0
    dice: Any = None
    client: BleClient | None = None

    @property
    def device(self) -> str:
        return self.settings.device


_STATE_RANK = {
    TrayState.ABSENT: 0,
    TrayState.RECONNECTING: 1,
    TrayState.CONNECTING: 2,
    TrayState.CONNECTED: 3,
}


class GoDiceSource(DiceSource):
    """Connects the configured GoDice and posts rolling / result / status messages."""

    def __init__(
        self,
        settings: GoDiceSettings,
        *,
        name: str = "godice",
        client_factory: ClientFactory | None = None,
        discover: Discover | None = None,
    ) -> None:
        self.name = name
        self.settings = settings
        self._client_factory: ClientFactory = client_factory or bleak_client
        self._discover: Discover = discover or bleak_discover
        self._links = [_Link(die, die.shell) for die in settings.dice]
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._scan_lock: asyncio.Lock | None = None
        self._claimed: set[str] = set()
        #: Dice tasks already disconnecting because of stop(): not cancelled, so their
        #: disconnect ends (or times out, bounded by half the grace) and says so.
        self._leaving: set[asyncio.Task[None]] = set()
        self._grace_s = 1.5
        self._post: PostDice | None = None
        self._stopped = False

    # ------------------------------------------------------------------ public

    def start(self, post: PostDice) -> None:
        if self._thread is not None:
            raise RuntimeError("GoDiceSource already started")
        self._post = post
        self._stopping.clear()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name=f"dice-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Disconnect every die and end the thread; returns within about ``timeout``."""
        self._grace_s = max(0.1, timeout * 0.75)
        self._stopping.set()
        with self._lock:
            loop, wake = self._loop, self._wake
        if loop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop already ended
                loop.call_soon_threadsafe(wake.set)
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():  # pragma: no cover - only with a client that ignores cancel
                log.error("%s: BLE thread did not stop within %s s", self.name, timeout)
                return
        self._thread = None

    @property
    def state(self) -> TrayState:
        """The least connected die's state (connected = every die is connected)."""
        with self._lock:
            if self._stopped:
                return TrayState.STOPPED
            if not self._links:
                return TrayState.ABSENT
            return min((link.state for link in self._links), key=_STATE_RANK.__getitem__)

    def set_shell(self, shell: GoDiceShell, device: str | None = None) -> None:
        """Change the shell of one die (or all) from any thread, e.g. when a game starts."""
        targets = [link for link in self._links if device is None or link.device == device]
        if not targets:
            raise KeyError(f"no GoDice labelled {device!r}")

        def apply() -> None:
            for link in targets:
                link.shell = shell
                if link.dice is not None:
                    _set_godice_shell(link.dice, shell)

        with self._lock:
            loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(apply)
                return
            except RuntimeError:
                pass  # the loop has just closed: no die is connected any more
        apply()

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._main())
        except Exception:  # pragma: no cover - a bug; keep the owner informed
            log.exception("%s: BLE loop crashed", self.name)
        finally:
            leftovers = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in leftovers:  # pragma: no cover - a client that ignored cancellation
                task.cancel()
            if leftovers:  # pragma: no cover
                loop.run_until_complete(asyncio.wait(leftovers, timeout=0.1))
            with self._lock:
                self._loop = None
                self._wake = None
            loop.close()
            self._finish()

    def _finish(self) -> None:
        with self._lock:
            self._stopped = True
            links = list(self._links)
            for link in links:
                link.state = TrayState.STOPPED
        for link in links:
            self._post_status(link, "GoDice reader stopped.")
        if not links:
            self._emit(TrayStatus(self.name, TrayState.STOPPED, detail="GoDice reader stopped."))

    async def _main(self) -> None:
        wake = asyncio.Event()
        self._scan_lock = asyncio.Lock()
        self._leaving.clear()
        with self._lock:
            self._loop = asyncio.get_running_loop()
            self._wake = wake
        if self._stopping.is_set():
            return
        if not self._links:
            self._emit(TrayStatus(self.name, TrayState.ABSENT, detail="No GoDice configured."))
        tasks = [asyncio.create_task(self._run_die(link)) for link in self._links]
        await wake.wait()
        for task in tasks:
            if task not in self._leaving:
                task.cancel()
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=self._grace_s)
            if pending:  # pragma: no cover - a client that ignored cancellation
                log.warning("%s: %d dice did not let go in time", self.name, len(pending))

    def _delays(self) -> Iterator[float]:
        return backoff_delays(self.settings.backoff_initial_s, self.settings.backoff_max_s)

    async def _run_die(self, link: _Link) -> None:
        """Connect, serve until the link drops, back off, repeat; ends when cancelled."""
        delays = self._delays()
        what = f"GoDice {link.device}"
        self._set_state(link, TrayState.ABSENT, f"Looking for {what}.", force=True)
        while not self._halting:
            before = link.connections
            try:
                await self._serve(link)
                problem = "the link dropped"
            except LinkTimeout as exc:
                problem = str(exc)
            except DieNotFound as exc:
                problem = str(exc)
            except Exception as exc:  # a BLE stack raises many types; every one means retry
                log.info("%s: %s failed: %r", self.name, what, exc)
                problem = str(exc) or type(exc).__name__
            finally:
                await self._disconnect(link)
            if self._halting:
                return
            if link.connections > before:
                delays = self._delays()
            delay = next(delays)
            if link.connections:
                state, text = TrayState.RECONNECTING, f"{what} lost ({problem})"
            else:
                state, text = TrayState.ABSENT, f"No {what} yet ({problem})"
            self._set_state(link, state, f"{text}; retrying in {delay:g} s.", force=True)
            await self._pause(delay)

    async def _serve(self, link: _Link) -> None:
        """One connection: returns when the link drops; raises when a step fails."""
        settings = self.settings
        target = await self._find(link)
        address = target if isinstance(target, str) else target.address
        self._set_state(link, TrayState.CONNECTING, f"Connecting to GoDice {link.device}.")
        loop = asyncio.get_running_loop()
        lost = asyncio.Event()

        def on_disconnect(_client: Any) -> None:
            loop.call_soon_threadsafe(lost.set)  # bleak may call from another thread

        client = self._client_factory(target, on_disconnect, settings.connect_timeout_s)
        dice = _make_godice(client, link.shell)
        link.client, link.dice, link.address = client, dice, address
        self._claimed.add(address.upper())
        await dice.subscribe_number_notification(self._position_handler(link))
        await _bounded(dice.connect(), settings.connect_timeout_s, "connecting")
        link.connections += 1
        self._set_state(link, TrayState.CONNECTED, f"GoDice {link.device} connected.")
        colour = await self._query(dice.get_color(), "colour")
        if colour is not None:
            link.colour = str(getattr(colour, "name", colour)).lower()
        await self._read_battery(link)
        next_battery = loop.time() + settings.battery_interval_s
        while not lost.is_set() and client.is_connected and not self._halting:
            await self._pause(settings.link_check_s, lost)
            if loop.time() >= next_battery and not lost.is_set():
                await self._read_battery(link)
                next_battery = loop.time() + settings.battery_interval_s

    @property
    def _halting(self) -> bool:
        return self._stopping.is_set()

    async def _pause(self, seconds: float, lost: asyncio.Event | None = None) -> None:
        """Sleep, waking early on stop or on ``lost``.

        Stopping is checked explicitly, not only through task cancellation: Python
        3.11's ``asyncio.wait_for`` swallows a cancel that lands as its inner await
        finishes, which would leave a die's task running forever.
        """
        events = [event for event in (self._wake, lost) if event is not None]
        waiters = [asyncio.ensure_future(event.wait()) for event in events]
        try:
            await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()

    async def _find(self, link: _Link) -> Target:
        """The die's address, or the scanned device whose name matches (one scan at a time)."""
        die = link.settings
        if die.address:
            return die.address
        assert die.name is not None  # the settings validator guarantees one of the two
        assert self._scan_lock is not None
        timeout = self.settings.scan_timeout_s
        async with self._scan_lock:
            limit = timeout + self.settings.query_timeout_s
            found = await _bounded(self._discover(timeout), limit, "scanning")
        for device in found:
            name = device.name or ""
            if name.startswith(die.name) and device.address.upper() not in self._claimed:
                return device
        raise DieNotFound(f"no unused die named {die.name}* seen in a {timeout:g} s scan")

    async def _query(self, call: Coroutine[Any, Any, T], what: str) -> T | None:
        """A colour or battery question: ``None`` when the die does not answer in time."""
        try:
            return await _bounded(call, self.settings.query_timeout_s, f"{what} query")
        except LinkTimeout as exc:
            log.info("%s: %s", self.name, exc)
            return None

    async def _read_battery(self, link: _Link) -> None:
        level = await self._query(link.dice.get_battery_level(), "battery")
        if level is None:
            return
        battery = max(0, min(100, int(level)))
        if battery != link.battery:
            link.battery = battery
            colour = f" ({link.colour})" if link.colour else ""
            self._post_status(link, f"GoDice {link.device}{colour}: battery {battery} %.")

    async def _disconnect(self, link: _Link) -> None:
        client, link.client, link.dice = link.client, None, None
        if link.address:
            self._claimed.discard(link.address.upper())
            if link.state is not TrayState.CONNECTED:
                link.address = None  # never reached: do not show it as the die's id
        if client is None:
            return
        timeout = self.settings.disconnect_timeout_s
        if self._halting:  # stop() waits only so long: leave time to end the loop
            timeout = min(timeout, self._grace_s / 2)
            task = asyncio.current_task()
            if task is not None:
                self._leaving.add(task)  # stop() lets it finish, bounded by the timeout
        try:
            await _bounded(client.disconnect(), timeout, "disconnect")
        except Exception as exc:  # leaving anyway; BlueZ drops the link itself eventually
            log.info("%s: disconnecting %s: %r", self.name, link.device, exc)

    # ------------------------------------------------------------------ notifications

    def _position_handler(self, link: _Link) -> Callable[[int, Any], Awaitable[None]]:
        async def on_position(number: int, stability: Any) -> None:
            self._on_position(link, number, getattr(stability, "name", None))

        return on_position

    def _on_position(self, link: _Link, number: int, stability: str | None) -> None:
        die = link.settings
        if stability == "ROLLING":
            self._emit(DieRolling(link.device, die.die_id))
            return
        if stability != "STABLE":
            link.ignored += 1  # tilted, slid or set down: not a roll
            log.debug("%s: ignored %s position %s", link.device, stability, number)
            return
        faces = link.shell.faces
        face = faces if link.shell is GoDiceShell.D10 and number == 0 else number
        if not 1 <= face <= faces:
            link.ignored += 1
            log.warning("%s: ignored impossible face %s for %s", link.device, number, link.shell)
            return
        link.seq += 1
        self._emit(DieResult(link.device, die.die_id, face, faces, link.seq))

    # ------------------------------------------------------------------ state

    def _set_state(self, link: _Link, state: TrayState, detail: str, force: bool = False) -> None:
        with self._lock:
            if link.state == state and not force:
                return
            link.state = state
        self._post_status(link, detail)

    def _post_status(self, link: _Link, detail: str) -> None:
        low = self.settings.low_battery_percent
        with self._lock:
            status = TrayStatus(
                device=link.device,
                state=link.state,
                battery=link.battery,
                low_battery=link.battery is not None and link.battery <= low,
                device_id=link.address,
                detail=detail,
            )
        self._emit(status)

    def _emit(self, message: DieRolling | DieResult | TrayStatus) -> None:
        if self._post is None:
            return
        try:
            self._post(message)
        except Exception:  # the owner's queue failing must not kill the BLE loop
            log.exception("%s: posting %r failed", self.name, message)


async def _bounded(call: Awaitable[T], timeout: float, what: str) -> T:
    """``asyncio.wait_for`` with a message that says which step hung."""
    try:
        return await asyncio.wait_for(call, timeout)
    except TimeoutError:
        raise LinkTimeout(f"{what} took longer than {timeout:g} s") from None


def _godice() -> Any:
    """The ``godice`` module, imported on first use (optional ``ble`` extra, untyped)."""
    import godice

    return godice


def _make_godice(client: BleClient, shell: GoDiceShell) -> Any:
    """A ``godice.Dice`` on our client (``godice.create`` would build its own)."""
    dice = _godice().Dice(client)
    _set_godice_shell(dice, shell)
    return dice


def _set_godice_shell(dice: Any, shell: GoDiceShell) -> None:
    godice = _godice()
    godice.set_shell(dice, godice.Shell[shell.value])
