"""The Pico firmware's logic on the host: CPython, a fake ``machine``, the host codec.

``firmware/pico_dice_tray`` is MicroPython; its protocol and state machine are plain
Python, and ``main.py`` only needs ``machine`` and ``micropython`` faked. The firmware's
bytes are decoded by the host codec (and the other way round), and the firmware runs
against the real host reader over a pty.
"""

from __future__ import annotations

import io
import os
import queue
import threading
import time
import tty
import types
from pathlib import Path
from typing import Any

from hypothesis import given

from firmware_bridge.dice.messages import DiceMessage, TrayState
from firmware_bridge.dice.serial_tray import SerialDiceTray
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
    cobs_encode,
    crc16_ccitt,
    encode_frame,
    encode_payload,
)
from tests.helpers.dice_serial import drain_until, fast_settings, has_state, n_results, results
from tests.helpers.firmware import PROTOCOL, UNIQUE_ID, FakePin, HostSide
from tests.helpers.frame_strategies import messages

# ---------------------------------------------------------------- the codec, both ways


@given(messages)
def test_firmware_frames_equal_host_frames(message: Message) -> None:
    kind, payload = encode_payload(message)
    assert PROTOCOL.encode_frame(kind, payload) == encode_frame(message)


@given(messages)
def test_firmware_decodes_what_the_host_encodes(message: Message) -> None:
    kind, payload = encode_payload(message)
    decoder = PROTOCOL.Decoder()
    assert decoder.feed(encode_frame(message)) == [(kind, payload)]


def test_firmware_crc_and_cobs_match_the_host() -> None:
    data = bytes(range(256)) * 3
    assert PROTOCOL.crc16(b"123456789") == crc16_ccitt(b"123456789") == 0x29B1
    assert PROTOCOL.cobs_encode(data) == cobs_encode(data)
    assert PROTOCOL.cobs_decode(cobs_encode(data)) == data


def test_firmware_decoder_counts_garbage_and_keeps_frames() -> None:
    decoder = PROTOCOL.Decoder()
    corrupt = bytearray(encode_frame(Ack(3)))
    corrupt[2] ^= 0x40  # the type byte 0x82 becomes 0xc2: CRC mismatch
    stream = b"\x01\x02junk" + encode_frame(Ping(9)) + bytes(corrupt) + bytes(range(1, 256)) * 2
    stream += encode_frame(HelloRequest(1))
    frames = decoder.feed(stream)
    assert [kind for kind, _ in frames] == [PROTOCOL.T_PING, PROTOCOL.T_HELLO_REQUEST]
    assert decoder.errors == 3


def test_random_face_rejects_biased_bytes_and_is_uniform() -> None:
    source = iter([bytes([255]), bytes([252]), bytes([5])])
    assert PROTOCOL.random_face(6, lambda n: next(source)) == 6  # 255 and 252 rejected
    counts = {face: 0 for face in range(1, 7)}
    for value in range(252):
        counts[PROTOCOL.random_face(6, lambda n, v=value: bytes([v]))] += 1
    assert set(counts.values()) == {42}


# ---------------------------------------------------------------- the state machine


def make_tray(fw: types.SimpleNamespace, host: HostSide, faces: list[int]) -> Any:
    entropy = iter(bytes([face - 1]) for face in faces)  # byte b -> face b % 4 + 1
    return fw.logic.DiceTray(
        "tray-x", [(1, 4), (2, 4)], host.write, lambda n: next(entropy), boot_id=77
    )


def press_and_release(tray: Any, index: int, start: int, bounce: bool = True) -> int:
    """Drive die ``index``'s input like a bouncing button; returns the time after."""
    now = start
    levels = [0, 1, 0, 1, 0] if bounce else [0]
    for level in levels:  # press, with contact bounce every 2 ms
        tray.sample(index, level, now)
        tray.tick(now)
        now += 2
    for _ in range(50):  # held 100 ms
        tray.tick(now)
        now += 2
    tray.sample(index, 1, now)  # release
    for _ in range(200):  # 400 ms: debounce + settle
        tray.tick(now)
        now += 2
    return now


def hello_request(tray: Any, now: int) -> None:
    tray.feed(encode_frame(HelloRequest(PROTOCOL_VERSION)), now)


def test_handshake_answers_hello_with_identity_dice_and_status(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    tray = make_tray(fw, host, [])
    hello_request(tray, 0)
    hello, status = host.take()
    assert hello == Hello("tray-x", (1, 0, 0), PROTOCOL_VERSION, 77, (DieSpec(1, 4), DieSpec(2, 4)))
    assert status == Status(None)
    tray.feed(encode_frame(Ping(0xBEEF)), 5)
    assert host.take() == [Pong(0xBEEF)]


def test_a_bouncing_press_gives_one_rolling_and_one_result(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    tray = make_tray(fw, host, [3, 1])
    hello_request(tray, 0)
    host.take()
    now = press_and_release(tray, 0, 10)
    now = press_and_release(tray, 1, now)
    assert host.take() == [Rolling(1), RollResult(1, 3, 1), Rolling(2), RollResult(2, 1, 2)]


def test_a_glitch_shorter_than_the_debounce_rolls_nothing(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    tray = make_tray(fw, host, [2])
    hello_request(tray, 0)
    host.take()
    tray.sample(0, 0, 100)
    tray.tick(105)
    tray.sample(0, 1, 110)  # 10 ms < DEBOUNCE_MS
    for now in range(110, 1000, 5):
        tray.tick(now)
    assert host.take() == []
    assert tray.unacked == []


def test_unacked_results_are_kept_and_re_sent_after_reconnect(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    tray = make_tray(fw, host, [4, 2, 1])
    hello_request(tray, 0)
    host.take()
    now = press_and_release(tray, 0, 10)
    assert host.take() == [Rolling(1), RollResult(1, 4, 1)]
    # The cable comes out: no host byte for longer than the link timeout.
    for _ in range(fw.logic.LINK_TIMEOUT_MS // 100 + 2):
        now += 100
        tray.tick(now)
    assert not tray.connected
    host.take()  # re-sends made before the link timed out
    now = press_and_release(tray, 1, now)
    now = press_and_release(tray, 0, now)
    assert host.take() == [], "nothing is sent while nobody listens"
    assert [entry[0] for entry in tray.unacked] == [1, 2, 3]
    hello_request(tray, now)  # plugged back in
    out = host.take()
    assert [m for m in out if isinstance(m, RollResult)] == [
        RollResult(1, 4, 1),
        RollResult(2, 2, 2),
        RollResult(1, 1, 3),
    ]
    for seq in (1, 2, 3):
        tray.feed(encode_frame(Ack(seq)), now)
    assert tray.unacked == []
    for _ in range(30):
        now += 100
        tray.tick(now)
        tray.feed(encode_frame(Ping(1)), now)
    assert not any(isinstance(m, RollResult) for m in host.take()), "acked = forgotten"


def test_an_unacked_result_is_re_sent_every_resend_interval(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    tray = make_tray(fw, host, [2])
    hello_request(tray, 0)
    host.take()
    now = press_and_release(tray, 0, 10)
    host.take()
    for _ in range(25):  # 2.5 s with the host pinging but never acking
        now += 100
        tray.feed(encode_frame(Ping(2)), now)
        tray.tick(now)
    resent = [m for m in host.take() if isinstance(m, RollResult)]
    assert resent == [RollResult(1, 2, 1)] * 2


def test_the_unacked_store_is_bounded(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    limit = fw.logic.MAX_UNACKED
    tray = make_tray(fw, host, [1] * (limit + 5))
    now = 0
    for _ in range(limit + 5):
        now = press_and_release(tray, 0, now, bounce=False)
    assert len(tray.unacked) == limit and tray.dropped == 5
    assert tray.unacked[0][0] == 6, "the oldest results are the ones dropped"


# ---------------------------------------------------------------- main.py, fake machine


def test_safe_mode_when_die_1_is_held_at_power_up(fw: types.SimpleNamespace) -> None:
    assert not fw.main.safe_mode()
    FakePin.held_low = {fw.main.DIE_PINS[0]}
    assert fw.main.safe_mode()
    fw.main.run()  # returns at once instead of looping forever


def test_main_firmware_step_reads_usb_pins_and_writes_frames(fw: types.SimpleNamespace) -> None:
    read_fd, write_fd = os.pipe()
    stdin = os.fdopen(read_fd, "rb", buffering=0)
    stdout = io.BytesIO()
    clock = [0]
    try:
        firmware = fw.main.Firmware(stdin, stdout, lambda: clock[0], lambda a, b: a - b)
        os.write(write_fd, encode_frame(HelloRequest(PROTOCOL_VERSION)))
        firmware.step()
        decoder = FrameDecoder()
        hello = decoder.feed(stdout.getvalue())[0]
        assert isinstance(hello, Hello)
        assert hello.device_id == "pico-tray-" + UNIQUE_ID.hex()
        assert hello.dice == (DieSpec(1, 4), DieSpec(2, 4), DieSpec(3, 4))
        assert FakePin.board[fw.main.LED_PIN].level == 1, "LED on while connected"
        pin = FakePin.board[fw.main.DIE_PINS[2]]
        pin.level = 0
        for clock[0] in range(1, 100):
            firmware.step()
        pin.level = 1
        for clock[0] in range(100, 600):
            firmware.step()
        out = decoder.feed(stdout.getvalue()[len(encode_frame(hello)) :])
        result = [m for m in out if isinstance(m, RollResult)]
        assert len(result) == 1 and result[0].die_id == 3 and 1 <= result[0].face <= 4
    finally:
        stdin.close()
        os.close(write_fd)


def test_firmware_against_the_real_host_reader_over_a_pty(
    fw: types.SimpleNamespace, tmp_path: Path
) -> None:
    master, slave = os.openpty()
    tty.setraw(master)
    link = tmp_path / "dice-tray"
    os.symlink(os.ttyname(slave), link)
    stdin = os.fdopen(os.dup(master), "rb", buffering=0)
    stdout = os.fdopen(os.dup(master), "wb", buffering=0)
    firmware = fw.main.Firmware(
        stdin, stdout, lambda: int(time.monotonic() * 1000), lambda a, b: a - b
    )
    stop = threading.Event()

    def device_loop() -> None:
        while not stop.is_set():
            firmware.step()
            time.sleep(0.001)

    device = threading.Thread(target=device_loop, daemon=True)
    device.start()
    inbox: queue.Queue[DiceMessage] = queue.Queue()
    reader = SerialDiceTray(fast_settings(link))
    reader.start(inbox.put)
    seen: list[DiceMessage] = []
    try:
        assert drain_until(inbox, has_state(TrayState.CONNECTED), seen)
        pin = FakePin.board[fw.main.DIE_PINS[0]]
        pin.level = 0
        time.sleep(0.05)
        pin.level = 1
        assert drain_until(inbox, n_results(1), seen)
        result = results(seen)[0]
        assert result.device == "pico-tray-" + UNIQUE_ID.hex() and result.die_id == 1
        deadline = time.monotonic() + 5
        while firmware.tray.unacked and time.monotonic() < deadline:
            time.sleep(0.01)
        assert firmware.tray.unacked == [], "the host acked the result"
    finally:
        reader.stop()
        stop.set()
        device.join(2)
        stdin.close()
        stdout.close()
        os.close(master)
        os.close(slave)


def test_a_button_held_for_a_long_time_is_still_one_roll(fw: types.SimpleNamespace) -> None:
    host = HostSide()
    tray = make_tray(fw, host, [2, 4])
    hello_request(tray, 0)
    host.take()
    tray.sample(0, 0, 10)
    for now in range(10, 2000, 5):  # held for two seconds
        tray.tick(now)
        tray.feed(encode_frame(Ping(3)), now)
    assert [m for m in host.take() if not isinstance(m, Pong)] == [Rolling(1)]
    tray.sample(0, 1, 2000)
    for now in range(2000, 2315, 5):  # release debounced at 2020, + 300 ms settle
        tray.tick(now)
    assert host.take() == [], "lands SETTLE_MS after the release, not before"
    for now in range(2315, 2400, 5):
        tray.tick(now)
    assert host.take() == [RollResult(1, 2, 1)]


def test_a_tilt_switch_lands_when_the_shaking_stops_in_either_position(
    fw: types.SimpleNamespace,
) -> None:
    host = HostSide()
    entropy = iter([bytes([0]), bytes([3])])
    tray = fw.logic.DiceTray(
        "tilt", [(1, 4)], host.write, lambda n: next(entropy), boot_id=1, inputs="tilt"
    )
    hello_request(tray, 0)
    host.take()
    now = 0
    for level in (0, 1, 0, 1, 0):  # shaking: contact changes every 40 ms, rests closed
        tray.sample(0, level, now)
        for _ in range(8):
            now += 5
            tray.tick(now)
    for _ in range(80):
        now += 5
        tray.tick(now)
    assert host.take() == [Rolling(1), RollResult(1, 1, 1)]


def test_firmware_survives_random_bytes_from_the_host(fw: types.SimpleNamespace) -> None:
    import random

    rng = random.Random(5)
    host = HostSide()
    tray = make_tray(fw, host, [])
    noise = rng.randbytes(100_000)
    for start in range(0, len(noise), 101):
        tray.feed(noise[start : start + 101], start)
    tray.feed(encode_frame(HelloRequest(PROTOCOL_VERSION)), 200_000)
    assert isinstance(host.take()[-2], Hello), "still answers after the noise"
