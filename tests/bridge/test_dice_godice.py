"""GoDiceSource against a fake BleakClient: real ``godice`` decoding, fake radio.

The fake plays the die's side of the GATT link: the test sends it ``R`` (rolling) and
``S`` + x, y, z (stable) notifications, drops the link, makes ``connect`` hang or fail,
and leaves battery/colour questions unanswered. ``godice.Dice`` runs unchanged on top of
it, so the face really is computed by the library from the xyz vector for the shell.
Every wait is bounded and every source is stopped (and its thread checked) in teardown.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import queue
import struct
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import ValidationError

from firmware_bridge.dice.base import DiceSource
from firmware_bridge.dice.collector import DiceCollector
from firmware_bridge.dice.godice_source import (
    FoundDevice,
    GoDiceSettings,
    GoDiceShell,
    GoDiceSource,
    GoDieSettings,
    Target,
)
from firmware_bridge.dice.messages import DiceMessage, DieResult, DieRolling, TrayState, TrayStatus
from tests.helpers.dice_serial import drain_until, has_state, n_results, results, states

pytest.importorskip("godice")  # the optional ``ble`` extra; the source imports it lazily

pytestmark = pytest.mark.timeout(30)

Seen = list[DiceMessage]
WAIT_S = 5.0

# Accelerometer vectors (x, y, z) a GoDice reports lying on each face, restated from
# the GoDice protocol documentation: a cube's six axes for D6, and for D4 (which is
# read through the 24-vector table) one vector per face.
D6_VECTORS = {
    1: (-64, 0, 0),
    2: (0, 0, 64),
    3: (0, 64, 0),
    4: (0, -64, 0),
    5: (0, 0, -64),
    6: (64, 0, 0),
}
D4_VECTORS = {1: (20, 0, 60), 2: (-40, 40, 40), 3: (20, -60, -20), 4: (-40, -40, 40)}
D10_ZERO_VECTOR = (64, 0, -22)
"""The D20 face that a D10 shell reads as 0 (shown as 10)."""


def stable(xyz: tuple[int, int, int], prefix: bytes = b"S") -> bytes:
    """A 'stable' notification: the prefix then x, y, z as signed bytes."""
    return prefix + struct.pack(">bbb", *xyz)


def nudged(xyz: tuple[int, int, int]) -> tuple[int, int, int]:
    """The vector a real die sends: never exactly the table's."""
    x, y, z = xyz
    return (x + 5, y - 4, z + 3)


# ---------------------------------------------------------------------------- the fake


@dataclass(frozen=True)
class Advert:
    """What the fake scanner reports (fits ``FoundDevice``)."""

    address: str
    name: str | None


@dataclass
class FakeDie:
    """The die's behaviour, shared by every client the source builds for it."""

    address: str
    name: str = "GoDice_000000_K_v04"
    battery: int = 80
    colour: int = 1  # red
    advertising: bool = True
    connect_hangs: bool = False
    connect_failures: int = 0
    battery_silent: bool = False
    colour_silent: bool = False
    disconnect_hangs: bool = False
    attempts: list[float] = field(default_factory=list)
    """``time.monotonic()`` of every connect attempt."""
    commands: list[bytes] = field(default_factory=list)
    cancelled_connects: int = 0
    client: FakeBleakClient | None = None

    def send(self, data: bytes, timeout: float = WAIT_S) -> None:
        """Notify from the die (test thread) once a client is connected."""
        client = self.client
        assert client is not None and client.is_connected, "die is not connected"
        client.notify(data)

    def drop(self) -> None:
        """The radio link is lost (die out of range, battery pulled)."""
        client = self.client
        assert client is not None
        client.drop()


class FakeServices:
    def get_characteristic(self, uuid: str) -> str:
        return uuid


class FakeBleakClient:
    """connect / disconnect / start_notify / write_gatt_char / is_connected, as bleak has."""

    def __init__(self, die: FakeDie, on_disconnect: Callable[[Any], None]) -> None:
        self.die = die
        self._on_disconnect = on_disconnect
        self._connected = False
        self._callback: Callable[[Any, bytearray], Awaitable[None]] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.services = FakeServices()

    @property
    def is_connected(self) -> bool:
        return self._connected

    async def connect(self) -> None:
        die = self.die
        die.attempts.append(time.monotonic())
        self._loop = asyncio.get_running_loop()
        if die.connect_hangs:
            try:
                await asyncio.Event().wait()  # BlueZ never answers
            except asyncio.CancelledError:
                die.cancelled_connects += 1
                raise
        if die.connect_failures > 0:
            die.connect_failures -= 1
            raise OSError("le-connection-abort-by-local")
        self._connected = True
        die.client = self

    async def disconnect(self) -> None:
        if self.die.disconnect_hangs:
            await asyncio.Event().wait()
        self._connected = False

    async def start_notify(
        self, char: Any, callback: Callable[[Any, bytearray], Awaitable[None]]
    ) -> None:
        self._callback = callback

    async def write_gatt_char(self, char: Any, data: bytearray) -> None:
        die = self.die
        die.commands.append(bytes(data))
        if data[0] == 3 and not die.battery_silent:
            self._deliver(bytearray(b"Bat" + bytes([die.battery])))
        elif data[0] == 23 and not die.colour_silent:
            self._deliver(bytearray(b"Col" + bytes([die.colour])))

    # -- driven from the test thread ------------------------------------------------

    def notify(self, data: bytes) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._deliver, bytearray(data))

    def drop(self) -> None:
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._drop)

    # -- loop thread --------------------------------------------------------------

    def _deliver(self, data: bytearray) -> None:
        """As bleak does: an async callback runs as a task of its own."""
        assert self._callback is not None
        task = asyncio.ensure_future(self._callback("rx", data))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _drop(self) -> None:
        self._connected = False
        self._on_disconnect(self)


class FakeRadio:
    """Client factory and scanner over a set of fake dice."""

    def __init__(self, *dice: FakeDie) -> None:
        self.dice = {die.address: die for die in dice}
        self.scans = 0
        self.scan_hangs = False

    def client(
        self, target: Target, on_disconnect: Callable[[Any], None], timeout: float
    ) -> FakeBleakClient:
        address = target if isinstance(target, str) else target.address
        die = self.dice.get(address) or FakeDie(address, connect_failures=10**6)
        return FakeBleakClient(die, on_disconnect)

    async def discover(self, timeout: float) -> Sequence[FoundDevice]:
        self.scans += 1
        if self.scan_hangs:
            await asyncio.Event().wait()
        return [Advert(die.address, die.name) for die in self.dice.values() if die.advertising]


def fast(*dice: GoDieSettings, **overrides: Any) -> GoDiceSettings:
    values: dict[str, Any] = {
        "enabled": True,
        "dice": dice,
        "connect_timeout_s": 1.0,
        "scan_timeout_s": 0.05,
        "query_timeout_s": 0.3,
        "disconnect_timeout_s": 0.2,
        "backoff_initial_s": 0.05,
        "backoff_max_s": 0.2,
        "link_check_s": 0.05,
        "battery_interval_s": 60.0,
    }
    values.update(overrides)
    return GoDiceSettings(**values)


def die_at(address: str, shell: GoDiceShell = GoDiceShell.D4, die_id: int = 1) -> GoDieSettings:
    return GoDieSettings(address=address, shell=shell, die_id=die_id)


ADDRESS = "AA:BB:CC:00:00:01"
ADDRESS_2 = "AA:BB:CC:00:00:02"


class Rig:
    """A started source, its inbox and everything it posted so far."""

    def __init__(self, source: GoDiceSource) -> None:
        self.source = source
        self.inbox: queue.Queue[DiceMessage] = queue.Queue()
        self.seen: Seen = []

    def start(self) -> Rig:
        self.source.start(self.inbox.put)
        return self

    def until(self, done: Callable[[Seen], bool], timeout: float = WAIT_S) -> bool:
        return drain_until(self.inbox, done, self.seen, timeout)

    def thread_alive(self) -> bool:
        return any(
            t.name == f"dice-{self.source.name}" and t.is_alive() for t in threading.enumerate()
        )


@pytest.fixture
def rigs() -> Iterator[Callable[[GoDiceSource], Rig]]:
    made: list[Rig] = []

    def make(source: GoDiceSource) -> Rig:
        rig = Rig(source)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        rig.source.stop(timeout=2.0)
        assert not rig.thread_alive()


def source_for(radio: FakeRadio, settings: GoDiceSettings) -> GoDiceSource:
    return GoDiceSource(settings, client_factory=radio.client, discover=radio.discover)


def statuses(seen: Seen) -> list[TrayStatus]:
    return [message for message in seen if isinstance(message, TrayStatus)]


def entries(seen: Seen, state: TrayState) -> list[TrayStatus]:
    """Statuses where a die entered ``state`` (battery updates repeat the state)."""
    last: dict[str, TrayState] = {}
    found = []
    for status in statuses(seen):
        if status.state is state and last.get(status.device) is not state:
            found.append(status)
        last[status.device] = status.state
    return found


def entered(state: TrayState, times: int = 1) -> Callable[[Seen], bool]:
    return lambda seen: len(entries(seen, state)) >= times


# ---------------------------------------------------------------------------- rolls


@pytest.mark.parametrize(
    ("shell", "vectors"), [(GoDiceShell.D4, D4_VECTORS), (GoDiceShell.D6, D6_VECTORS)]
)
def test_every_face_of_the_shell_reaches_the_callback(
    rigs: Callable[[GoDiceSource], Rig],
    shell: GoDiceShell,
    vectors: dict[int, tuple[int, int, int]],
) -> None:
    die = FakeDie(ADDRESS)
    rig = rigs(source_for(FakeRadio(die), fast(die_at(ADDRESS, shell, die_id=7)))).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    for face, xyz in vectors.items():
        die.send(b"R")
        die.send(stable(nudged(xyz)))
        assert rig.until(n_results(face)), f"no result for face {face}"
    got = results(rig.seen)
    assert [r.face for r in got] == list(vectors)
    assert {(r.device, r.die_id, r.faces) for r in got} == {("godice-7", 7, shell.faces)}
    assert [r.seq for r in got] == list(range(1, len(vectors) + 1))


def test_rolling_is_posted_before_the_result(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS)
    rig = rigs(source_for(FakeRadio(die), fast(die_at(ADDRESS)))).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    die.send(b"R")
    assert rig.until(lambda seen: any(isinstance(m, DieRolling) for m in seen))
    die.send(stable(D4_VECTORS[3]))
    assert rig.until(n_results(1))
    dice = [m for m in rig.seen if isinstance(m, DieRolling | DieResult)]
    assert dice == [DieRolling("godice-1", 1), DieResult("godice-1", 1, 3, 4, 1)]


def test_tilted_slid_or_set_down_dice_are_not_rolls(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS)))
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    for prefix in (b"TS", b"FS", b"MS"):
        die.send(stable(D4_VECTORS[2], prefix))
    die.send(stable(D4_VECTORS[4]))
    assert rig.until(n_results(1))
    assert [(r.face, r.seq) for r in results(rig.seen)] == [(4, 1)]


def test_d10_zero_is_posted_as_ten(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS)
    rig = rigs(source_for(FakeRadio(die), fast(die_at(ADDRESS, GoDiceShell.D10)))).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    die.send(stable(D10_ZERO_VECTOR))
    assert rig.until(n_results(1))
    assert (results(rig.seen)[0].face, results(rig.seen)[0].faces) == (10, 10)


def test_set_shell_switches_a_connected_die_from_d6_to_d4(
    rigs: Callable[[GoDiceSource], Rig],
) -> None:
    die = FakeDie(ADDRESS)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS, GoDiceShell.D6)))
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    die.send(stable(D6_VECTORS[6]))
    assert rig.until(n_results(1))
    source.set_shell(GoDiceShell.D4, "godice-1")
    die.send(stable(D4_VECTORS[2]))
    assert rig.until(n_results(2))
    assert [(r.face, r.faces) for r in results(rig.seen)] == [(6, 6), (2, 4)]


def test_results_feed_the_collector_into_a_kolossus_d4_roll(
    rigs: Callable[[GoDiceSource], Rig],
) -> None:
    from companion.dice import DiceRequest

    die = FakeDie(ADDRESS)
    rig = rigs(source_for(FakeRadio(die), fast(die_at(ADDRESS)))).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    collector = DiceCollector()
    collector.expect(DiceRequest(purpose="movement", label="Movement", count=2, sides=4))
    for face in (4, 1):
        die.send(stable(nudged(D4_VECTORS[face])))
    assert rig.until(n_results(2))
    steps = [collector.add(result) for result in results(rig.seen)]
    roll = steps[-1].roll
    assert roll is not None and roll.values == (4, 1) and roll.device == "godice-1"


# ---------------------------------------------------------------------------- status


def test_connected_status_carries_address_and_battery(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS, battery=12)
    rig = rigs(source_for(FakeRadio(die), fast(die_at(ADDRESS)))).start()
    assert rig.until(lambda seen: any(s.battery is not None for s in statuses(seen)))
    status = next(s for s in statuses(rig.seen) if s.battery is not None)
    assert (status.device, status.device_id, status.state) == (
        "godice-1",
        ADDRESS,
        TrayState.CONNECTED,
    )
    assert (status.battery, status.low_battery) == (12, True)
    assert "red" in status.detail
    assert states(rig.seen)[:3] == [TrayState.ABSENT, TrayState.CONNECTING, TrayState.CONNECTED]


def test_disconnect_reconnects_with_backoff_and_status(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS)
    rig = rigs(source_for(FakeRadio(die), fast(die_at(ADDRESS)))).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    die.send(stable(D4_VECTORS[1]))
    assert rig.until(n_results(1))
    die.connect_failures = 4
    attempts_before = len(die.attempts)
    die.drop()
    assert rig.until(entered(TrayState.CONNECTED, times=2))
    lost = [s for s in statuses(rig.seen) if s.state is TrayState.RECONNECTING]
    assert len(lost) == 5  # the drop, then four refused connects
    assert "the link dropped" in lost[0].detail
    delays = [float(s.detail.rsplit("retrying in ", 1)[1].split(" s")[0]) for s in lost]
    assert delays == [0.05, 0.1, 0.2, 0.2, 0.2]
    attempts = die.attempts[attempts_before:]
    assert len(attempts) == 5
    gaps = [b - a for a, b in itertools.pairwise(attempts)]
    assert all(gap >= delay * 0.9 for gap, delay in zip(gaps, delays[1:], strict=False))
    # rolls after the reconnect continue the die's sequence
    die.send(stable(D4_VECTORS[2]))
    assert rig.until(n_results(2))
    assert [r.seq for r in results(rig.seen)] == [1, 2]


def test_backoff_restarts_after_a_successful_reconnect(
    rigs: Callable[[GoDiceSource], Rig],
) -> None:
    die = FakeDie(ADDRESS, connect_failures=3)
    rig = rigs(source_for(FakeRadio(die), fast(die_at(ADDRESS)))).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    assert [s.state for s in statuses(rig.seen)].count(TrayState.ABSENT) == 4  # start + 3
    die.drop()
    assert rig.until(entered(TrayState.CONNECTED, times=2))
    lost = [s for s in statuses(rig.seen) if s.state is TrayState.RECONNECTING]
    assert lost[0].detail.endswith("retrying in 0.05 s.")


def test_hung_connect_times_out_and_is_retried(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS, connect_hangs=True)
    settings = fast(die_at(ADDRESS), connect_timeout_s=0.1)
    rig = rigs(source_for(FakeRadio(die), settings)).start()
    assert rig.until(lambda seen: len(die.attempts) >= 2 and has_state(TrayState.ABSENT, 3)(seen))
    failed = [s for s in statuses(rig.seen) if s.state is TrayState.ABSENT][1]
    assert "connecting took longer than 0.1 s" in failed.detail
    assert die.cancelled_connects >= 1
    die.connect_hangs = False
    assert rig.until(has_state(TrayState.CONNECTED))


def test_stop_during_a_connect_that_never_returns(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS, connect_hangs=True)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS), connect_timeout_s=60.0))
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.CONNECTING))
    source.stop(timeout=1.0)
    assert not rig.thread_alive()
    assert rig.until(has_state(TrayState.STOPPED))
    assert die.cancelled_connects == 1
    assert source.state is TrayState.STOPPED


def test_hung_battery_query_times_out_and_rolls_still_arrive(
    rigs: Callable[[GoDiceSource], Rig],
) -> None:
    die = FakeDie(ADDRESS, battery_silent=True)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS), query_timeout_s=60.0))
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    assert rig.until(lambda _seen: bytes([3]) in die.commands)  # the query is in flight
    die.send(stable(D4_VECTORS[4]))
    assert rig.until(n_results(1))
    source.stop(timeout=1.0)
    assert not rig.thread_alive()
    assert rig.until(has_state(TrayState.STOPPED))
    assert all(s.battery is None for s in statuses(rig.seen))


def test_unanswered_queries_leave_the_die_connected(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS, battery_silent=True, colour_silent=True)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS), query_timeout_s=0.05))
    rig = rigs(source).start()
    assert rig.until(lambda _seen: bytes([3]) in die.commands)
    time.sleep(0.2)  # both queries have timed out by now; the link must still be up
    die.send(stable(D4_VECTORS[1]))
    assert rig.until(n_results(1))
    assert source.state is TrayState.CONNECTED
    assert states(rig.seen).count(TrayState.CONNECTED) == 1


def test_hung_disconnect_does_not_block_stop(
    rigs: Callable[[GoDiceSource], Rig], caplog: pytest.LogCaptureFixture
) -> None:
    """A die whose disconnect hangs is let go after half the stop's grace, whichever way
    the stop finds it. A fault found once (1 run in 5): a die that saw the stop between
    two questions and had begun its disconnect was cancelled there by the stop, and left
    without saying so; stop() now leaves a die already disconnecting to its timeout."""
    caplog.set_level(logging.INFO, logger="firmware_bridge.dice.godice_source")
    die = FakeDie(ADDRESS, disconnect_hangs=True)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS), disconnect_timeout_s=30.0))
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    source.stop(timeout=1.0)
    assert not rig.thread_alive()
    assert rig.until(has_state(TrayState.STOPPED))
    assert "disconnect took longer than 0.375 s" in caplog.text  # half the stop grace
    assert "did not let go" not in caplog.text
    assert "destroyed" not in caplog.text


# ---------------------------------------------------------------------------- discovery


def test_dice_found_by_name_each_take_a_different_die(rigs: Callable[[GoDiceSource], Rig]) -> None:
    red = FakeDie(ADDRESS, name="GoDice_A1_K_v04")
    blue = FakeDie(ADDRESS_2, name="GoDice_B2_K_v04", colour=3)
    radio = FakeRadio(red, blue, FakeDie("11:22:33:44:55:66", name="Headphones"))
    settings = fast(
        GoDieSettings(name="GoDice", die_id=1, shell=GoDiceShell.D4),
        GoDieSettings(name="GoDice", die_id=2, shell=GoDiceShell.D4),
    )
    source = source_for(radio, settings)
    rig = rigs(source).start()
    assert rig.until(entered(TrayState.CONNECTED, times=2))
    connected = {(s.device, s.device_id) for s in entries(rig.seen, TrayState.CONNECTED)}
    assert {device for device, _ in connected} == {"godice-1", "godice-2"}
    assert {address for _, address in connected} == {ADDRESS, ADDRESS_2}
    assert source.state is TrayState.CONNECTED


def test_die_not_seen_in_a_scan_is_absent_until_it_advertises(
    rigs: Callable[[GoDiceSource], Rig],
) -> None:
    die = FakeDie(ADDRESS, name="GoDice_C3_K_v04", advertising=False)
    radio = FakeRadio(die)
    source = source_for(radio, fast(GoDieSettings(name="GoDice_C3", shell=GoDiceShell.D6)))
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.ABSENT, times=2))
    assert "no unused die named GoDice_C3*" in statuses(rig.seen)[1].detail
    assert source.state is TrayState.ABSENT
    die.advertising = True
    assert rig.until(has_state(TrayState.CONNECTED))
    die.send(stable(D6_VECTORS[5]))
    assert rig.until(n_results(1))
    assert results(rig.seen)[0].face == 5


def test_hung_scan_times_out(rigs: Callable[[GoDiceSource], Rig]) -> None:
    radio = FakeRadio(FakeDie(ADDRESS))
    radio.scan_hangs = True
    source = source_for(radio, fast(GoDieSettings(name="GoDice"), query_timeout_s=0.05))
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.ABSENT, times=3))
    assert "scanning took longer than" in statuses(rig.seen)[1].detail
    source.stop(timeout=1.0)
    assert not rig.thread_alive()


# ---------------------------------------------------------------------------- contract


def test_godice_source_meets_the_dice_source_contract(
    rigs: Callable[[GoDiceSource], Rig],
) -> None:
    """The checks of test_dice_contract.py, for the Bluetooth source."""
    die = FakeDie(ADDRESS)
    godice_source = source_for(FakeRadio(die), fast(die_at(ADDRESS)))
    source: DiceSource = godice_source
    rig = rigs(godice_source).start()
    assert rig.until(has_state(TrayState.CONNECTED))
    assert source.state is TrayState.CONNECTED
    die.send(stable(D4_VECTORS[3]))
    assert rig.until(n_results(1))
    result = results(rig.seen)[0]
    assert (result.face, result.faces) == (3, 4)
    source.stop()
    source.stop()
    assert rig.until(has_state(TrayState.STOPPED))
    assert isinstance(rig.seen[-1], TrayStatus)
    assert not any(t.name.startswith("dice-") and t.is_alive() for t in threading.enumerate())
    assert not die.client or not die.client.is_connected  # released the die
    assert TrayState.RECONNECTING not in states(rig.seen)  # stopping is not a lost die


def test_start_twice_is_refused_and_restart_after_stop_works(
    rigs: Callable[[GoDiceSource], Rig],
) -> None:
    die = FakeDie(ADDRESS)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS)))
    rig = rigs(source).start()
    with pytest.raises(RuntimeError):
        source.start(rig.inbox.put)
    assert rig.until(has_state(TrayState.CONNECTED))
    source.stop(timeout=1.0)
    rig.start()
    assert rig.until(entered(TrayState.CONNECTED, times=2))


def test_a_failing_post_does_not_kill_the_reader(rigs: Callable[[GoDiceSource], Rig]) -> None:
    die = FakeDie(ADDRESS)
    source = source_for(FakeRadio(die), fast(die_at(ADDRESS)))
    inbox: queue.Queue[DiceMessage] = queue.Queue()
    fail_rolling = True

    def post(message: DiceMessage) -> None:
        if fail_rolling and isinstance(message, DieRolling):
            raise RuntimeError("queue full")
        inbox.put(message)

    rig = rigs(source)
    rig.inbox = inbox
    source.start(post)
    assert rig.until(has_state(TrayState.CONNECTED))
    die.send(b"R")
    die.send(stable(D4_VECTORS[2]))
    assert rig.until(n_results(1))


def test_no_dice_configured_is_absent_then_stopped(rigs: Callable[[GoDiceSource], Rig]) -> None:
    source = source_for(FakeRadio(), fast())
    rig = rigs(source).start()
    assert rig.until(has_state(TrayState.ABSENT))
    assert source.state is TrayState.ABSENT
    source.stop(timeout=1.0)
    assert rig.until(has_state(TrayState.STOPPED))


# ---------------------------------------------------------------------------- settings


def test_a_die_needs_an_address_or_a_name() -> None:
    with pytest.raises(ValidationError, match="address or a name"):
        GoDieSettings(shell=GoDiceShell.D4)


def test_dice_labels_and_addresses_must_differ() -> None:
    with pytest.raises(ValidationError, match="labels must differ"):
        GoDiceSettings(dice=(die_at(ADDRESS), die_at(ADDRESS_2)))
    with pytest.raises(ValidationError, match="listed twice"):
        GoDiceSettings(dice=(die_at(ADDRESS), die_at(ADDRESS.lower(), die_id=2)))


def test_settings_load_from_toml_shaped_data() -> None:
    settings = GoDiceSettings.model_validate(
        {
            "enabled": True,
            "dice": [
                {"address": ADDRESS, "shell": "D4", "label": "red"},
                {"name": "GoDice_B2", "shell": "D6", "die_id": 2},
            ],
        }
    )
    assert [(d.device, d.shell.faces) for d in settings.dice] == [("red", 4), ("godice-2", 6)]
    assert (settings.backoff_initial_s, settings.backoff_max_s) == (1.0, 10.0)
