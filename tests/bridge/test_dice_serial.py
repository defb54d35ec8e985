"""The serial tray reader against the simulated tray, over a REAL pty pair.

No mock serial object: :class:`SimDiceTray` opens ``os.openpty()``, points a symlink
(the stand-in for the udev ``/dev/dice-tray`` link) at the slave, and speaks the
protocol from the device side; :class:`SerialDiceTray` opens it with pyserial.
Every wait is bounded and every thread is stopped in teardown.
"""

from __future__ import annotations

import array
import fcntl
import os
import queue
import termios
import threading
import time
from pathlib import Path

import pytest
import serial
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge.dice.messages import (
    DiceMessage,
    DieRolling,
    TrayState,
    TrayStatus,
)
from firmware_bridge.dice.serial_tray import SerialDiceSettings, SerialDiceTray, find_port
from firmware_bridge.dice.sim_tray import SimDiceTray
from firmware_bridge.frames import DieSpec, RollResult, encode_frame
from firmware_bridge.supervise import backoff_delays
from tests.helpers.dice_serial import (
    WAIT_S,
    Seen,
    drain_until,
    fast_settings,
    has_state,
    n_results,
    results,
    start_reader,
    states,
)

LOADED_WAIT_S = 60.0
"""A bound that only a hung reader reaches, even on a machine loaded many times over."""


# ---------------------------------------------------------------- helpers (also used by
# test_firmware_tray.py)


# ---------------------------------------------------------------- fixtures


def connect(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    seen: Seen,
    tray_path: Path,
) -> SerialDiceTray:
    sim.start()
    reader = start_reader(readers, inbox, fast_settings(tray_path))
    assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
    assert sim.wait_until("connected", WAIT_S)
    return reader


# ---------------------------------------------------------------- tests


def test_handshake_then_rolls_are_posted_once_and_acked(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    seen: Seen = []
    reader = connect(sim, readers, inbox, seen, tray_path)
    assert reader.state is TrayState.CONNECTED
    hello = reader.hello
    assert hello is not None and hello.device_id == "sim-1"
    assert hello.dice == (DieSpec(1, 4), DieSpec(2, 4), DieSpec(3, 4))
    rolled = [sim.roll(die) for die in (1, 2, 3)]
    assert drain_until(inbox, n_results(3), seen)
    assert [(r.die_id, r.face, r.seq) for r in results(seen)] == [
        (r.die_id, r.face, r.seq) for r in rolled
    ]
    assert all(r.device == "sim-1" and r.faces == 4 for r in results(seen))
    assert any(isinstance(m, DieRolling) for m in seen)
    assert sim.wait_until("all_acked", WAIT_S)


def test_frames_split_at_every_byte_boundary_over_the_pty(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    """Load-independent: the reader's clock stands still, so no keep-alive or silence
    timer can drop the link between the two parts, and the second part is written only
    once the reader has taken the first from the port."""
    seen: Seen = []
    sim.start()
    start_reader(readers, inbox, fast_settings(tray_path), clock=lambda: 0.0)
    assert drain_until(inbox, has_state(TrayState.CONNECTED), seen, timeout=LOADED_WAIT_S)
    port = os.open(tray_path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)  # to see its queue
    try:
        frame = encode_frame(RollResult(2, 3, 1000))
        for cut in range(1, len(frame)):
            frame = encode_frame(RollResult(2, 1 + cut % 4, 1000 + cut))
            sim.send_raw(frame[:cut])
            assert _wait_read(port), f"the reader never took the first {cut} bytes"
            sim.send_raw(frame[cut:])
            assert drain_until(inbox, n_results(cut), seen, timeout=LOADED_WAIT_S), cut
    finally:
        os.close(port)
    assert [r.seq for r in results(seen)] == [1000 + cut for cut in range(1, len(frame))]


def _wait_read(port: int) -> bool:
    """Wait (bounded) until nothing waits to be read on the tray's port."""
    deadline = time.monotonic() + LOADED_WAIT_S
    while _unread(port):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def _unread(port: int) -> int:
    count = array.array("i", [0])
    fcntl.ioctl(port, termios.FIONREAD, count)
    return count[0]


def test_garbage_and_corrupt_frames_between_rolls_over_the_pty(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    seen: Seen = []
    reader = connect(sim, readers, inbox, seen, tray_path)
    corrupt = bytearray(encode_frame(RollResult(1, 2, 9999)))
    corrupt[5] ^= 0x10  # one flipped bit inside the frame
    bad_chunks = 0
    for index in range(50):
        sim.send_raw(b"\x13\x37garbage\xff" if index % 2 else bytes(corrupt))
        bad_chunks += 1
        sim.send_raw(encode_frame(RollResult(1 + index % 3, 1 + index % 4, 500 + index)))
    assert drain_until(inbox, n_results(50), seen)
    assert [r.seq for r in results(seen)] == list(range(500, 550))
    reader.stop()
    assert reader.stats.bad_crc + reader.stats.bad_cobs == bad_chunks
    assert reader.stats.bad_payload == 0


def test_unplug_and_replug_while_rolling_loses_and_duplicates_nothing(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    seen: Seen = []
    reader = connect(sim, readers, inbox, seen, tray_path)
    sim.ignore_acks = True  # the acks "get lost": every result will be re-sent
    rolled = [sim.roll(1 + i % 3) for i in range(5)]
    assert drain_until(inbox, n_results(5), seen)
    rolled.append(sim.roll(2))  # rolled just as the cable comes out
    sim.unplug()
    assert drain_until(inbox, has_state(TrayState.RECONNECTING), seen)
    rolled += [sim.roll(3), sim.roll(1)]  # rolled while unplugged
    sim.ignore_acks = False
    sim.replug()
    assert drain_until(inbox, has_state(TrayState.CONNECTED, 2), seen)
    assert sim.wait_until("all_acked", WAIT_S)
    rolled += [sim.roll(1), sim.roll(2)]
    assert drain_until(inbox, n_results(len(rolled)), seen)
    assert sim.wait_until("all_acked", WAIT_S)
    # One more roll behind everything sent: a wrongly duplicated result, sent before
    # it down the same ordered line, shows up before it (no wait on the clock).
    rolled.append(sim.roll(3))
    assert drain_until(inbox, lambda seen: results(seen)[-1].seq == rolled[-1].seq, seen)
    posted = [(r.die_id, r.face, r.seq) for r in results(seen)]
    assert posted == [(r.die_id, r.face, r.seq) for r in rolled]
    assert sim.resent >= 5, "the device did re-send the unacked results"
    assert reader.duplicates >= 5, "and the host recognised them"


def test_device_reboot_starts_a_new_boot_id_so_seq_1_is_new_again(
    tray_path: Path, readers: list[SerialDiceTray], inbox: queue.Queue[DiceMessage]
) -> None:
    seen: Seen = []
    first = SimDiceTray(str(tray_path), device_id="sim-1", boot_id=1)
    try:
        first.start()
        start_reader(readers, inbox, fast_settings(tray_path))
        assert first.wait_until("connected", WAIT_S)
        first.roll(1, face=2)
        assert drain_until(inbox, n_results(1), seen)
    finally:
        first.stop()
    second = SimDiceTray(str(tray_path), device_id="sim-1", boot_id=2)
    try:
        second.start()
        assert second.wait_until("connected", WAIT_S)
        second.roll(1, face=3)
        assert drain_until(inbox, n_results(2), seen)
    finally:
        second.stop()
    assert [(r.seq, r.face) for r in results(seen)] == [(1, 2), (1, 3)]


def test_reconnect_back_off_doubles_to_the_cap_and_restarts_after_success(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    assert list(zip(range(7), backoff_delays(1.0, 10.0), strict=False)) == [
        (0, 1.0),
        (1, 2.0),
        (2, 4.0),
        (3, 8.0),
        (4, 10.0),
        (5, 10.0),
        (6, 10.0),
    ]
    delays: list[float] = []
    stop = threading.Event()

    def recording_wait(delay: float) -> bool:
        """Record the requested delay, sleep only briefly; plug the tray in on the 5th."""
        delays.append(delay)
        if len(delays) == 5:
            sim.start()
        return stop.wait(0.01)

    settings = fast_settings(tray_path, backoff_initial_s=1.0, backoff_max_s=10.0)
    reader = start_reader(readers, inbox, settings, wait=recording_wait)
    seen: Seen = []
    assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
    assert states(seen)[0] is TrayState.ABSENT
    assert delays == [1.0, 2.0, 4.0, 8.0, 10.0]
    sim.unplug()
    assert drain_until(inbox, lambda _: len(delays) >= 8, seen)
    stop.set()
    reader.stop()
    assert drain_until(inbox, has_state(TrayState.STOPPED), seen)
    assert delays[5:8] == [1.0, 2.0, 4.0]
    assert TrayState.RECONNECTING in states(seen)


def _port_info(device: str, vid: int, pid: int, serial_number: str) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid, info.serial_number = vid, pid, serial_number
    return info


def test_scan_by_usb_vid_pid_when_the_stable_path_is_missing(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sim.start()
    real_device = os.path.realpath(tray_path)
    ports = [
        _port_info("/dev/ttyACM7", 0x2E8A, 0x0003, "OTHER"),  # a Pico in BOOTSEL mode
        _port_info("/dev/ttyUSB0", 0x0403, 0x6001, "FTDI"),
        _port_info(real_device, 0x2E8A, 0x0005, "E660583883"),
    ]
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: ports)
    missing = tray_path.parent / "no-such-link"
    settings = SerialDiceSettings(port=str(missing))
    assert find_port(settings) == real_device
    assert find_port(settings.model_copy(update={"serial_number": "NOPE"})) is None
    assert find_port(settings.model_copy(update={"usb_pid": 0x000A})) is None
    assert find_port(settings.model_copy(update={"port": str(tray_path)})) == str(tray_path)

    seen: Seen = []
    start_reader(readers, inbox, fast_settings(missing, usb_vid=0x2E8A, usb_pid=0x0005))
    assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
    sim.roll(3, face=4)
    assert drain_until(inbox, n_results(1), seen)
    assert results(seen)[0].face == 4


def test_no_device_at_all_is_reported_absent(
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    reader = start_reader(readers, inbox, fast_settings(tray_path))
    seen: Seen = []
    assert drain_until(inbox, has_state(TrayState.ABSENT), seen)
    assert reader.state is TrayState.ABSENT
    reader.stop()
    assert reader.state.value == "stopped"


def test_incompatible_protocol_version_is_reported_and_its_rolls_ignored(
    tray_path: Path, readers: list[SerialDiceTray], inbox: queue.Queue[DiceMessage]
) -> None:
    future = SimDiceTray(str(tray_path), device_id="sim-9", protocol=2)
    try:
        future.start()
        start_reader(readers, inbox, fast_settings(tray_path))
        seen: Seen = []
        assert drain_until(inbox, has_state(TrayState.INCOMPATIBLE), seen)
        future.roll(1, face=1)
        drain_until(inbox, lambda _: False, seen, timeout=0.3)
        assert results(seen) == []
        status = [m for m in seen if isinstance(m, TrayStatus)][-1]
        assert "protocol 2" in status.detail and "update" in status.detail
    finally:
        future.stop()


def test_battery_status_is_exposed_and_posted(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    seen: Seen = []
    reader = connect(sim, readers, inbox, seen, tray_path)
    sim.send_status(12, low_battery=True)

    def low_battery_posted(seen: Seen) -> bool:
        return any(isinstance(m, TrayStatus) and m.battery == 12 for m in seen)

    assert drain_until(inbox, low_battery_posted, seen)
    assert reader.battery == 12
    status = next(m for m in seen if isinstance(m, TrayStatus) and m.battery == 12)
    assert status.low_battery and status.state is TrayState.CONNECTED
    assert status.firmware == "1.0.0"
    assert (status.device, status.device_id) == ("serial-tray", "sim-1")
    assert {m.device for m in seen if isinstance(m, TrayStatus)} == {"serial-tray"}


def test_a_silent_device_is_dropped_and_retried(
    tray_path: Path, readers: list[SerialDiceTray], inbox: queue.Queue[DiceMessage]
) -> None:
    master, slave = os.openpty()  # a port that never answers
    try:
        os.symlink(os.ttyname(slave), tray_path)
        settings = fast_settings(tray_path, silence_timeout_s=0.2, ping_interval_s=0.05)
        start_reader(readers, inbox, settings)
        seen: Seen = []
        assert drain_until(inbox, has_state(TrayState.CONNECTING, 2), seen)
        assert TrayState.ABSENT in states(seen)
        assert TrayState.CONNECTED not in states(seen)
    finally:
        for reader in readers:
            reader.stop()
        os.close(master)
        os.close(slave)


def test_stop_is_prompt_and_idempotent(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    seen: Seen = []
    reader = connect(sim, readers, inbox, seen, tray_path)
    started = time.monotonic()
    reader.stop()
    reader.stop()
    assert time.monotonic() - started < 1.0
    assert not any(t.name.startswith("dice-") and t.is_alive() for t in threading.enumerate())
    # The port was released: an exclusive open succeeds now.
    with serial.Serial(str(tray_path), exclusive=True, timeout=0) as port:
        assert port.is_open


def test_impossible_results_are_acked_but_not_posted(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    seen: Seen = []
    connect(sim, readers, inbox, seen, tray_path)
    sim.send_raw(encode_frame(RollResult(9, 1, 7000)))  # no die 9 in the hello
    sim.send_raw(encode_frame(RollResult(1, 5, 7001)))  # face 5 on a d4
    sim.send_raw(encode_frame(RollResult(1, 0, 7002)))  # face 0
    sim.roll(1, face=2)
    assert drain_until(inbox, n_results(1), seen)
    drain_until(inbox, lambda _: False, seen, timeout=0.1)
    assert [(r.die_id, r.face) for r in results(seen)] == [(1, 2)]


def test_an_unexpected_error_restarts_the_reader_and_is_shown(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An error nobody planned for (``OverflowError`` from a huge
    ``poll_s``) ended the reader thread for good, silently."""
    import firmware_bridge.dice.serial_tray as serial_tray

    real_find_port = serial_tray.find_port
    calls = []

    def failing_once(settings: SerialDiceSettings) -> str | None:
        calls.append(1)
        if len(calls) == 1:
            raise OverflowError("timestamp too large to convert to C _PyTime_t")
        return real_find_port(settings)

    monkeypatch.setattr(serial_tray, "find_port", failing_once)
    sim.start()
    reader = start_reader(readers, inbox, fast_settings(tray_path))
    seen: Seen = []
    assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
    restart = next(
        m for m in seen if isinstance(m, TrayStatus) and m.state is TrayState.RECONNECTING
    )
    assert "The dice tray reader failed (OverflowError: timestamp too large" in restart.detail
    assert "restarting in 0.5 s (attempt 1)" in restart.detail
    sim.roll(1)
    assert drain_until(inbox, n_results(1), seen)  # and it reads rolls again
    assert reader.state is TrayState.CONNECTED


def test_rolls_are_posted_in_the_trays_order_after_a_lost_frame(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    """A result re-sent after a reconnect was posted after rolls made
    later (71 of 2,550 in a long run); the host now posts by the tray's sequence."""
    seen: Seen = []
    connect(sim, readers, inbox, seen, tray_path)
    rolled = [sim.roll(1)]
    assert drain_until(inbox, n_results(1), seen)
    rolled.append(sim.roll(2, lost=True))
    rolled.append(sim.roll(3))  # arrives; must wait for the one before it
    assert not drain_until(inbox, n_results(2), seen, timeout=0.3)
    sim.unplug()
    sim.replug()  # the tray re-sends every unacked result, oldest first
    assert drain_until(inbox, n_results(3), seen)
    assert [r.seq for r in results(seen)] == [r.seq for r in rolled]
    assert sim.wait_until("all_acked", WAIT_S)


def test_a_result_the_tray_dropped_holds_the_next_ones_only_briefly(
    sim: SimDiceTray,
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    tray_path: Path,
) -> None:
    sim.start()
    start_reader(readers, inbox, fast_settings(tray_path, gap_wait_s=0.3))
    seen: Seen = []
    assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
    sim.roll(1)
    lost = sim.roll(2, lost=True)
    sim.forget(lost.seq)  # its store overflowed: it will never come
    later = [sim.roll(3), sim.roll(1)]
    assert drain_until(inbox, n_results(3), seen)
    assert [r.seq for r in results(seen)] == [1, *(r.seq for r in later)]
