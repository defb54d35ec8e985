"""The pure dice-tray codec: CRC, COBS, every message, splits, garbage, fuzz."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.frames import (
    MAX_ENCODED,
    Ack,
    DieSpec,
    FrameDecoder,
    Hello,
    HelloRequest,
    Message,
    Occupancy,
    OccupancyChange,
    OccupancyRequest,
    PayloadError,
    Ping,
    Pong,
    Rolling,
    RollResult,
    Status,
    UnknownVersion,
    cobs_decode,
    cobs_encode,
    crc16_ccitt,
    decode_payload,
    encode_frame,
)
from tests.helpers.frame_strategies import messages

SAMPLE: list[Message] = [
    HelloRequest(1),
    Hello("tray-7", (1, 2, 3), 1, 0xDEADBEEF, (DieSpec(1, 4), DieSpec(2, 4), DieSpec(3, 6))),
    Rolling(2),
    RollResult(2, 3, 1),
    Ack(1),
    Status(87, charging=True),
    Ping(0x0100),
    Pong(0x0100),
    RollResult(1, 4, 0x01000000),  # zero bytes inside the payload are stuffed away
]


def test_crc16_ccitt_false_check_value() -> None:
    assert crc16_ccitt(b"123456789") == 0x29B1


DOC_EXAMPLES: list[tuple[Message, str]] = [  # docs/dice-protocol.md, section 1.6
    (HelloRequest(1), "00 05 81 01 25 87 00"),
    (Rolling(2), "00 05 02 02 5b 2f 00"),
    (RollResult(1, 3, 7), "00 04 03 01 03 01 01 04 07 f2 d9 00"),
    (Ack(7), "00 02 82 01 01 04 07 07 b8 00"),
    (Status(87, charging=True), "00 06 04 57 01 97 55 00"),
    (Status(None), "00 03 04 ff 03 13 a3 00"),
    (Ping(0x0102), "00 06 83 01 02 bd e5 00"),
    (Pong(0x0102), "00 06 05 01 02 34 1f 00"),
    (OccupancyRequest(), "00 05 84 01 da 72 00"),
    (OccupancyChange(5, 60, True), "00 03 07 01 01 01 02 05 05 3c 01 02 96 00"),
    (OccupancyChange(6, 60, False), "00 03 07 01 01 01 02 06 02 3c 03 89 6b 00"),
    (Occupancy(2, 3, 6, frozenset({0, 4})), "00 03 06 01 01 01 08 06 02 03 01 88 23 a9 00"),
    (
        Occupancy(2, 3, 6, frozenset({0, 4, 7}), layers=2),
        "00 03 06 01 01 01 06 06 02 03 02 89 03 d7 60 00",
    ),
    (
        Hello(
            "pico-tray-e6605838",
            (1, 0, 0),
            1,
            0x12345678,
            (DieSpec(1, 4), DieSpec(2, 4), DieSpec(3, 4)),
        ),
        "00 04 01 01 01 01 21 12 34 56 78 12 70 69 63 6f 2d 74 72 61 79 2d "
        "65 36 36 30 35 38 33 38 03 01 04 02 04 03 04 b0 3d 00",
    ),
]


@pytest.mark.parametrize(("message", "wire"), DOC_EXAMPLES)
def test_example_frames_from_the_protocol_doc(message: Message, wire: str) -> None:
    assert encode_frame(message).hex(" ") == wire
    assert FrameDecoder().feed(bytes.fromhex(wire)) == [message]


@given(st.binary(max_size=700))
def test_cobs_round_trip_and_no_zero_inside(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@given(messages)
def test_every_message_round_trips(message: Message) -> None:
    frame = encode_frame(message)
    assert frame[0] == 0 and frame[-1] == 0 and 0 not in frame[1:-1]
    decoder = FrameDecoder()
    assert decoder.feed(frame) == [message]
    assert decoder.stats.errors == 0


def test_frames_split_at_every_byte_boundary() -> None:
    stream = b"".join(encode_frame(message) for message in SAMPLE)
    for cut in range(len(stream) + 1):
        decoder = FrameDecoder()
        out = decoder.feed(stream[:cut]) + decoder.feed(stream[cut:])
        assert out == SAMPLE, cut
        assert decoder.stats.errors == 0


def test_frames_fed_one_byte_at_a_time() -> None:
    stream = b"".join(encode_frame(message) for message in SAMPLE)
    decoder = FrameDecoder()
    out: list[Message] = []
    for byte in stream:
        out += decoder.feed(bytes([byte]))
    assert out == SAMPLE


@given(messages, st.data())
@settings(max_examples=200)
def test_any_frame_split_into_random_pieces(message: Message, data: st.DataObject) -> None:
    frame = encode_frame(message)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(frame)), max_size=6)))
    decoder = FrameDecoder()
    out: list[Message] = []
    for start, end in zip([0, *cuts], [*cuts, len(frame)], strict=True):
        out += decoder.feed(frame[start:end])
    assert out == [message]


def _bad_chunks(noise: bytes) -> int:
    """How many non-empty pieces a stretch of noise between delimiters makes."""
    return sum(1 for piece in noise.split(b"\x00") if piece)


def test_garbage_and_corrupt_checksums_interleaved_with_valid_frames() -> None:
    rng = random.Random(20240611)
    stream = bytearray()
    valid: list[Message] = []
    expected_errors = 0
    for index in range(2000):
        message = RollResult(rng.randint(1, 3), rng.randint(1, 4), index)
        valid.append(message)
        stream += encode_frame(message)
        kind = rng.randrange(4)
        if kind == 0:  # line noise, zeros included
            noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
            expected_errors += _bad_chunks(noise)
            stream += noise
        elif kind == 1:  # a frame with one flipped bit (CRC-16 catches every 1-bit error)
            frame = bytearray(encode_frame(Rolling(rng.randint(1, 3))))
            position = rng.randrange(1, len(frame) - 1)
            frame[position] ^= 1 << rng.randrange(8)
            expected_errors += _bad_chunks(bytes(frame[1:-1]))
            stream += frame
        elif kind == 2:  # a frame cut short by a reset: its tail never arrives
            cut_short = encode_frame(Status(50))
            stream += cut_short[: rng.randint(2, len(cut_short) - 2)]
            expected_errors += 1
    valid.append(Pong(1))  # a last frame closes whatever noise came before it
    stream += encode_frame(valid[-1])
    decoder = FrameDecoder()
    out: list[Message] = []
    position = 0
    while position < len(stream):  # arbitrary read sizes, as from a serial port
        size = rng.randint(1, 64)
        out += decoder.feed(stream[position : position + size])
        position += size
    assert out == valid
    assert decoder.stats.frames == len(valid)
    assert decoder.stats.errors == expected_errors
    assert decoder.stats.bad_crc > 0 and decoder.stats.bad_cobs > 0


def test_valid_checksum_with_unknown_type_or_bad_payload_is_counted() -> None:
    def raw_frame(body: bytes) -> bytes:
        crc = crc16_ccitt(body)
        return b"\x00" + cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"

    decoder = FrameDecoder()
    stream = (
        raw_frame(b"\x42\x01")  # unknown type
        + raw_frame(b"\x03\x01\x02")  # roll result payload too short
        + raw_frame(b"\x04\x99\x00")  # battery 153 %
        + encode_frame(Ping(7))
    )
    assert decoder.feed(stream) == [Ping(7)]
    assert decoder.stats.bad_payload == 3


def test_oversize_garbage_without_delimiter_is_dropped_then_resyncs() -> None:
    decoder = FrameDecoder()
    noise = bytes(range(1, 256)) * 8  # no zero, far longer than any frame
    assert decoder.feed(noise) == []
    assert decoder.feed(encode_frame(Ack(5))) == [Ack(5)]
    assert decoder.stats.oversize == 1
    assert len(noise) > MAX_ENCODED


@pytest.mark.slow
def test_fuzz_a_million_random_bytes_never_raises() -> None:
    rng = random.Random(1)
    noise = rng.randbytes(1_000_000)
    decoder = FrameDecoder()
    position = 0
    decoded = 0
    while position < len(noise):
        size = rng.choice((1, 7, 64, 4096))
        decoded += len(decoder.feed(noise[position : position + size]))
        position += size
    stats = decoder.stats
    assert stats.frames == decoded
    # Every closed, non-empty chunk is accounted for exactly once; the last is pending.
    closed_chunks = [piece for piece in noise.split(b"\x00")[:-1] if piece]
    assert stats.frames + stats.errors == len(closed_chunks)
    # After all that noise the decoder still works.
    assert decoder.feed(b"\x00" + encode_frame(Ping(1))) == [Ping(1)]


@pytest.mark.slow
def test_fuzz_random_bytes_mixed_with_frames_keeps_every_frame() -> None:
    rng = random.Random(2)
    decoder = FrameDecoder()
    sent: list[Message] = []
    out: list[Message] = []
    for index in range(3000):
        noise = rng.randbytes(rng.randint(0, 300))
        message = RollResult(1, 1 + index % 4, index)
        sent.append(message)
        out += decoder.feed(noise + encode_frame(message))
    # A noise chunk may (rarely) decode by chance; every real frame must still be there.
    assert [m for m in out if isinstance(m, RollResult) and m.die_id == 1 and m in sent] == sent


@given(
    st.sampled_from([0x01, 0x02, 0x03, 0x04, 0x05, 0x81, 0x82, 0x83, 0x00, 0x7F]),
    st.binary(max_size=60),
)
def test_a_payload_that_passed_its_crc_parses_or_is_refused_never_crashes(
    kind: int, payload: bytes
) -> None:
    try:
        message = decode_payload(kind, payload)
    except PayloadError:
        return
    assert encode_frame(message)  # whatever parsed can be encoded again


@pytest.mark.slow
def test_fuzz_a_million_bytes_of_short_chunks_and_mutated_frames() -> None:
    """Noise shaped to reach every decoder stage: COBS, CRC and payload parsing."""
    rng = random.Random(3)
    templates = [encode_frame(message) for message in SAMPLE]
    parts: list[bytes] = []
    size = 0
    while size < 1_000_000:
        frame = bytearray(rng.choice(templates))
        for _ in range(rng.randint(0, 3)):  # flip, insert or delete bytes
            position = rng.randrange(len(frame))
            action = rng.randrange(3)
            if action == 0:
                frame[position] = rng.randrange(256)
            elif action == 1:
                frame.insert(position, rng.randrange(256))
            elif len(frame) > 1:
                del frame[position]
        if rng.random() < 0.3:  # a short chunk with a forged, valid CRC
            body = bytes([rng.choice([1, 2, 3, 4, 5, 0x81, 0x82, 0x83])]) + rng.randbytes(
                rng.randint(0, 12)
            )
            crc = crc16_ccitt(body)
            frame += b"\x00" + cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"
        parts.append(bytes(frame))
        size += len(frame)
    stream = b"".join(parts)
    decoder = FrameDecoder()
    for start in range(0, len(stream), 997):
        decoder.feed(stream[start : start + 997])
    stats = decoder.stats
    assert stats.frames > 0 and stats.bad_crc > 0 and stats.bad_payload > 0 and stats.bad_cobs > 0


def test_occupancy_payloads_that_do_not_fit_are_counted_not_raised() -> None:
    def raw_frame(body: bytes) -> bytes:
        crc = crc16_ccitt(body)
        return b"\x00" + cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"

    decoder = FrameDecoder()
    stream = (
        raw_frame(b"\x06\x01\x00\x00\x00\x01\x02\x03\x01")  # 2x3 with no bitmap byte
        + raw_frame(b"\x06\x01\x00\x00\x00\x01\x02\x03\x01\x88\x00")  # a byte too many
        + raw_frame(b"\x06\x01\x00\x00\x00\x01\x02\x03\x01\x89")  # a bit past cell 6
        + raw_frame(b"\x06\x01\x00\x00\x00\x01\x00\x03\x01")  # no cells at all
        + raw_frame(b"\x07\x01\x00\x00\x00\x01\x00\x05\x02")  # state 2
        + raw_frame(b"\x07\x01\x00\x00\x00\x01\x00\x05")  # cut short
        + raw_frame(b"\x07\x02\xff")  # a newer layout: reported, not parsed
    )
    assert decoder.feed(stream) == [UnknownVersion(0x07, 2)]
    assert decoder.stats.bad_payload == 6


def test_an_occupancy_must_fit_its_grid() -> None:
    with pytest.raises(ValueError, match="inside the grid"):
        encode_frame(Occupancy(2, 2, 1, frozenset({4})))
