"""The sensing board's firmware on the host: compiled by mpy-cross, run under CPython.

``board_scan.py`` debounces the matrix and numbers the changes; ``main.py`` reads the
74HC165 chain over a faked SPI. Every byte goes through the host codec, and the
firmware runs against the real host reader over a pty.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
import tty
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.board.messages import BoardOccupancy
from firmware_bridge.dice.messages import DiceMessage, TrayState
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.frames import (
    PROTOCOL_VERSION,
    HelloRequest,
    Occupancy,
    OccupancyChange,
    OccupancyRequest,
    encode_frame,
    encode_payload,
)
from tests.helpers.dice_serial import drain_until, fast_settings, has_state
from tests.helpers.firmware import FIRMWARE_DIR, PROTOCOL, HostSide
from tests.helpers.frame_strategies import occupancies


def test_every_firmware_module_compiles_with_mpy_cross(tmp_path: Path) -> None:
    """What runs on the Pico must be MicroPython, not only CPython (mpy-cross is a dev
    dependency; a missing one fails here rather than skipping)."""
    compiler = Path(sys.executable).with_name("mpy-cross")
    assert compiler.exists(), "install the dev extras: mpy-cross compiles the firmware"
    modules = sorted(FIRMWARE_DIR.glob("*.py"))
    assert {m.name for m in modules} >= {"board_scan.py", "tray_logic.py", "main.py"}
    for module in modules:
        out = tmp_path / module.with_suffix(".mpy").name
        done = subprocess.run(
            [str(compiler), "-o", str(out), str(module)], capture_output=True, text=True
        )
        assert done.returncode == 0, f"{module.name}: {done.stderr}"
        assert out.read_bytes()[:1] == b"M", "an .mpy file starts with 'M'"


@given(occupancies())
def test_firmware_bitmap_frames_equal_host_frames(bitmap: Occupancy) -> None:
    raw = bytearray((bitmap.rows * bitmap.cols * bitmap.layers + 7) // 8)
    for index in bitmap.occupied:
        raw[index >> 3] |= 0x80 >> (index & 7)
    payload = PROTOCOL.occupancy_payload(bitmap.seq, bitmap.rows, bitmap.cols, raw, bitmap.layers)
    assert PROTOCOL.encode_frame(PROTOCOL.T_OCCUPANCY, payload) == encode_frame(bitmap)


@given(st.integers(0, 0xFFFFFFFF), st.integers(0, 0xFFFF), st.booleans())
def test_firmware_change_frames_equal_host_frames(seq: int, cell: int, occupied: bool) -> None:
    change = OccupancyChange(seq, cell, occupied)
    kind, payload = encode_payload(change)
    assert kind == PROTOCOL.T_OCCUPANCY_CHANGE
    assert PROTOCOL.change_payload(seq, cell, occupied) == payload


# ---------------------------------------------------------------- board_scan


def make_board(fw: types.SimpleNamespace, host: HostSide) -> tuple[Any, Any]:
    """A tray with no dice that reads an 11x11 board, connected to ``host``."""
    tray = fw.logic.DiceTray("board-x", [], host.write, lambda n: b"\x00", boot_id=9)
    board = tray.add_board(11, 11)
    tray.feed(encode_frame(HelloRequest(PROTOCOL_VERSION)), 0)
    return tray, board


def raw_of(cells: set[int]) -> bytearray:
    raw = bytearray(16)
    for cell in cells:
        raw[cell >> 3] |= 0x80 >> (cell & 7)
    return raw


def test_hello_is_answered_with_the_whole_bitmap(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    tray, board = make_board(fw, host)
    assert host.take()[-1] == Occupancy(11, 11, 0, frozenset())
    for _ in range(fw.board.DEBOUNCE_SCANS):
        board.sample(raw_of({0, 120}))
    assert host.take() == [OccupancyChange(1, 0, True), OccupancyChange(2, 120, True)]
    tray.feed(encode_frame(OccupancyRequest()), 10)
    assert host.take() == [Occupancy(11, 11, 2, frozenset({0, 120}))]


def test_a_flicker_shorter_than_the_debounce_sends_nothing(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    _, board = make_board(fw, host)
    host.take()
    for _ in range(10):  # a magnet passing over square 60: two scans on, one off
        board.sample(raw_of({60}))
        board.sample(raw_of({60}))
        board.sample(raw_of(set()))
    assert host.take() == []
    for _ in range(fw.board.DEBOUNCE_SCANS):
        board.sample(raw_of({60}))
    assert host.take() == [OccupancyChange(1, 60, True)]
    assert board.occupied(60) and not board.occupied(59)


def test_changes_are_not_sent_while_nobody_listens_but_still_counted(
    fw: types.SimpleNamespace,
) -> None:
    host = HostSide()
    tray = fw.logic.DiceTray("board-x", [], host.write, lambda n: b"\x00", boot_id=9)
    board = tray.add_board(11, 11)
    for _ in range(fw.board.DEBOUNCE_SCANS):
        board.sample(raw_of({7}))
    assert host.take() == [] and board.seq == 1
    tray.feed(encode_frame(HelloRequest(PROTOCOL_VERSION)), 0)
    assert host.take()[-1] == Occupancy(11, 11, 1, frozenset({7})), "the bitmap catches up"


class FakeSpi:
    """``machine.SPI`` reading the 74HC165 chain: the squares' levels, active low."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        FakeSpi.last = self
        self.occupied: set[int] = set()

    last: FakeSpi

    def readinto(self, buf: bytearray, write: int = 0) -> None:
        raw = raw_of(self.occupied)
        for index in range(len(buf)):
            buf[index] = raw[index] ^ 0xFF  # a magnet pulls its input low


def test_main_reads_the_shift_registers_and_reports_changes(
    fw: types.SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    sys.modules["machine"].SPI = FakeSpi  # type: ignore[attr-defined]
    monkeypatch.setattr(fw.main, "BOARD_SIZE", (11, 11))
    read_fd, write_fd = os.pipe()
    stdin = os.fdopen(read_fd, "rb", buffering=0)
    out: list[bytes] = []
    stdout = types.SimpleNamespace(write=out.append)
    clock = [0]
    try:
        firmware = fw.main.Firmware(stdin, stdout, lambda: clock[0], lambda a, b: a - b)
        host = HostSide()
        os.write(write_fd, encode_frame(HelloRequest(PROTOCOL_VERSION)))
        firmware.step()
        FakeSpi.last.occupied = {5, 60}
        for clock[0] in range(1, 200):
            firmware.step()
        for frame in out:
            host.write(frame)
        seen = host.take()
        assert Occupancy(11, 11, 0, frozenset()) in seen
        assert [m for m in seen if isinstance(m, OccupancyChange)] == [
            OccupancyChange(1, 5, True),
            OccupancyChange(2, 60, True),
        ]
        assert 15 <= firmware.board.scans <= 21, "one scan every 10 ms"
    finally:
        stdin.close()
        os.close(write_fd)


def test_board_firmware_against_the_real_host_reader_over_a_pty(
    fw: types.SimpleNamespace, tmp_path: Path
) -> None:
    master, slave = os.openpty()
    tty.setraw(master)
    link = tmp_path / "sensing-board"
    os.symlink(os.ttyname(slave), link)
    stdin = os.fdopen(os.dup(master), "rb", buffering=0)
    stdout = os.fdopen(os.dup(master), "wb", buffering=0)
    tray = fw.logic.DiceTray(
        "pico-board", [], stdout.write, lambda n: b"\x00", boot_id=3, ticks_diff=lambda a, b: a - b
    )
    board = tray.add_board(11, 11)
    decoder_lock = threading.Lock()
    stop = threading.Event()
    squares: set[int] = set()

    def device_loop() -> None:
        while not stop.is_set():
            now = int(time.monotonic() * 1000)
            with decoder_lock:
                board.sample(raw_of(squares))
            try:
                os.set_blocking(stdin.fileno(), False)
                data = stdin.read(256)
            except BlockingIOError:
                data = None
            if data:
                tray.feed(data, now)
            tray.tick(now)
            time.sleep(0.002)

    device = threading.Thread(target=device_loop, daemon=True)
    device.start()
    inbox: queue.Queue[DiceMessage] = queue.Queue()
    reader = SerialDiceTray(fast_settings(link), name="sensing-board")
    reader.start(inbox.put)
    seen: list[DiceMessage] = []

    def occupancy(wanted: frozenset[str]) -> Any:
        return lambda seen: any(
            isinstance(m, BoardOccupancy) and m.occupied == wanted for m in seen
        )

    try:
        assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
        assert drain_until(inbox, occupancy(frozenset()), seen)
        with decoder_lock:
            squares.update({0, 12})
        assert drain_until(inbox, occupancy(frozenset({"0,0", "1,1"})), seen)
        with decoder_lock:
            squares.discard(0)
        assert drain_until(inbox, occupancy(frozenset({"1,1"})), seen)
    finally:
        reader.stop()
        stop.set()
        device.join(2)
        stdin.close()
        stdout.close()
        os.close(master)
        os.close(slave)


@given(st.lists(st.sets(st.integers(0, 9)), min_size=1, max_size=60))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # modules only
def test_every_reported_change_was_held_for_the_debounce_and_the_board_settles(
    fw: types.SimpleNamespace, scans: list[set[int]]
) -> None:
    """Raw scans of a 2 × 5 board, flickering at random: a change is reported only for
    a level its square held for the last DEBOUNCE_SCANS scans, the numbers run 1, 2, 3 …
    and once the squares are still the board reports exactly what they show."""
    host = HostSide()
    tray = fw.logic.DiceTray("board-x", [], host.write, lambda n: b"\x00", boot_id=9)
    board = tray.add_board(2, 5)
    tray.feed(encode_frame(HelloRequest(PROTOCOL_VERSION)), 0)
    host.take()
    debounce = fw.board.DEBOUNCE_SCANS
    history: list[set[int]] = []
    sensed: set[int] = set()
    seq = 0
    for raw in [*scans, *[scans[-1]] * debounce]:
        history.append(raw)
        board.sample(raw_of(raw)[:2])
        for change in host.take():
            assert isinstance(change, OccupancyChange)
            seq += 1
            assert change.seq == seq
            held = history[-debounce:]
            assert len(held) == debounce
            assert all((change.cell in scan) == change.occupied for scan in held)
            if change.occupied:
                sensed.add(change.cell)
            else:
                sensed.discard(change.cell)
    assert sensed == scans[-1]
    tray.feed(encode_frame(OccupancyRequest()), 1)
    assert host.take() == [Occupancy(2, 5, seq, frozenset(scans[-1]))]


def test_a_landscape_layer_numbers_its_cells_after_the_squares(
    fw: types.SimpleNamespace,
) -> None:
    host = HostSide()
    tray = fw.logic.DiceTray("board-x", [], host.write, lambda n: b"\x00", boot_id=9)
    board = tray.add_board(11, 11, 2)
    tray.feed(encode_frame(HelloRequest(PROTOCOL_VERSION)), 0)
    assert host.take()[-1] == Occupancy(11, 11, 0, frozenset(), layers=2)
    raw = bytearray(31)
    for cell in (60, 121 + 60):  # a miniature on a landscape on square 5,5
        raw[cell >> 3] |= 0x80 >> (cell & 7)
    for _ in range(fw.board.DEBOUNCE_SCANS):
        board.sample(raw)
    assert host.take() == [OccupancyChange(1, 60, True), OccupancyChange(2, 181, True)]
