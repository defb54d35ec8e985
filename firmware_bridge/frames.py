"""The dice-tray wire codec: COBS-framed messages with a CRC-16, pure and incremental.

Why COBS rather than a start byte plus length: COBS guarantees that ``0x00`` never occurs
inside a frame, so ``0x00`` is an unambiguous delimiter. A receiver that joins mid-stream,
or sees garbage or a corrupt frame, is back in sync at the very next ``0x00``: a bogus
length byte can never make it swallow the valid frames that follow, no timer is needed,
and every bad frame costs exactly one counted error. The full layout is in
``docs/dice-protocol.md``; the Pico firmware's ``firmware/pico_dice_tray/tray_protocol.py``
speaks the same bytes.

Frame on the wire: ``00 | COBS(type, payload..., crc_hi, crc_lo) | 00``.
The CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over type and payload.
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass, field

PROTOCOL_VERSION = 1
MAX_BODY = 250
"""Largest decoded body (type + payload + CRC); longer chunks are counted and dropped."""
MAX_ENCODED = MAX_BODY + 2
MAX_DEVICE_ID = 32
MAX_DICE = 32

# Device -> host message types (high bit clear).
T_HELLO = 0x01
T_ROLLING = 0x02
T_ROLL_RESULT = 0x03
T_STATUS = 0x04
T_PONG = 0x05
T_OCCUPANCY = 0x06
T_OCCUPANCY_CHANGE = 0x07
# Host -> device message types (high bit set).
T_HELLO_REQUEST = 0x81
T_ACK = 0x82
T_PING = 0x83
T_OCCUPANCY_REQUEST = 0x84

OCCUPANCY_VERSION = 1
"""Layout version of the sensing board's messages (their first payload byte): a board can
gain or change them without touching the dice protocol's version."""
MAX_CELLS = 8 * (MAX_BODY - 3 - 8)
"""Most cells (all layers) an occupancy bitmap can carry in one frame (1,912)."""

BATTERY_UNKNOWN = 0xFF
FLAG_CHARGING = 0x01
FLAG_LOW_BATTERY = 0x02


def crc16_ccitt(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE; ``crc16_ccitt(b"123456789") == 0x29B1``. The standard
    library's ``binascii.crc_hqx`` is this CRC (poly 0x1021, no reflection), in C."""
    return binascii.crc_hqx(data, crc)


def cobs_encode(data: bytes | bytearray) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no ``0x00``."""
    out = bytearray()
    start = 0
    length = len(data)
    while True:
        end = data.find(b"\x00", start, min(length, start + 254))
        if end == -1:
            end = min(length, start + 254)
            block = data[start:end]
            out.append(len(block) + 1)
            out += block
            if end == length:
                return bytes(out)
            start = end
        else:
            out.append(end - start + 1)
            out += data[start:end]
            start = end + 1
            if start == length:
                out.append(1)
                return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes | None:
    """Undo :func:`cobs_encode`; ``None`` if ``data`` is not a valid COBS block."""
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0:
            return None
        end = index + code
        if end > length:
            return None
        out += data[index + 1 : end]
        index = end
        if code != 0xFF and index < length:
            out.append(0)
    return bytes(out)


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True, slots=True)
class DieSpec:
    """One die a device owns: its id on that device and its number of faces."""

    die_id: int
    faces: int


@dataclass(frozen=True, slots=True)
class Hello:
    """Device -> host, the answer to :class:`HelloRequest` (and the handshake)."""

    device_id: str
    firmware: tuple[int, int, int]
    protocol: int
    boot_id: int
    dice: tuple[DieSpec, ...]


@dataclass(frozen=True, slots=True)
class Rolling:
    """Device -> host: a die started moving (for an animation or a sound)."""

    die_id: int


@dataclass(frozen=True, slots=True)
class RollResult:
    """Device -> host: a die came to rest on ``face``; ``seq`` counts results per boot."""

    die_id: int
    face: int
    seq: int


@dataclass(frozen=True, slots=True)
class Status:
    """Device -> host: battery in percent (``None`` = on USB power / unknown) and flags."""

    battery: int | None
    charging: bool = False
    low_battery: bool = False


@dataclass(frozen=True, slots=True)
class Pong:
    """Device -> host: the answer to :class:`Ping`, echoing its token."""

    token: int


@dataclass(frozen=True, slots=True)
class Occupancy:
    """Device -> host: the whole sensor matrix (on connect and on request).

    ``occupied`` holds the indices of the cells that sense something, row-major per
    layer (``layer * rows * cols + row * cols + col``; layer 0 = miniatures, layer 1 =
    landscapes on a board that senses them too); ``seq`` is the last change this bitmap
    already contains, so the host drops older changes still on the wire.
    """

    rows: int
    cols: int
    seq: int
    occupied: frozenset[int]
    layers: int = 1
    version: int = OCCUPANCY_VERSION


@dataclass(frozen=True, slots=True)
class OccupancyChange:
    """Device -> host: one debounced sensor changed (``cell`` numbered across the layers
    as in :class:`Occupancy`); ``seq`` counts changes per boot."""

    seq: int
    cell: int
    occupied: bool
    version: int = OCCUPANCY_VERSION


@dataclass(frozen=True, slots=True)
class OccupancyRequest:
    """Host -> device: "send the whole bitmap" (after a lost change or a reconnect)."""

    version: int = OCCUPANCY_VERSION


@dataclass(frozen=True, slots=True)
class UnknownVersion:
    """A sensing-board message in a layout version this host does not read; the reader
    reports it (update the firmware or the companion) instead of guessing."""

    kind: int
    version: int


@dataclass(frozen=True, slots=True)
class HelloRequest:
    """Host -> device: "who are you?"; also asks the device to re-send unacked results."""

    protocol: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Ack:
    """Host -> device: the result ``seq`` was received; the device may forget it."""

    seq: int


@dataclass(frozen=True, slots=True)
class Ping:
    """Host -> device keep-alive; the device answers with :class:`Pong`."""

    token: int


Message = (
    Hello
    | Rolling
    | RollResult
    | Status
    | Pong
    | Occupancy
    | OccupancyChange
    | UnknownVersion
    | HelloRequest
    | Ack
    | Ping
    | OccupancyRequest
)


class PayloadError(ValueError):
    """A frame passed its CRC but its payload does not fit its type."""


def encode_payload(message: Message) -> tuple[int, bytes]:
    """The message type byte and payload bytes (before CRC and framing)."""
    match message:
        case Hello():
            ident = message.device_id.encode("ascii")
            if not 1 <= len(ident) <= MAX_DEVICE_ID or len(message.dice) > MAX_DICE:
                raise ValueError("device id must be 1..32 ASCII characters, at most 32 dice")
            major, minor, patch = message.firmware
            body = struct.pack(
                ">BBBBIB", message.protocol, major, minor, patch, message.boot_id, len(ident)
            )
            body += ident + bytes([len(message.dice)])
            for die in message.dice:
                body += bytes([die.die_id, die.faces])
            return T_HELLO, body
        case Rolling():
            return T_ROLLING, bytes([message.die_id])
        case RollResult():
            return T_ROLL_RESULT, struct.pack(">BBI", message.die_id, message.face, message.seq)
        case Status():
            battery = BATTERY_UNKNOWN if message.battery is None else message.battery
            flags = (FLAG_CHARGING if message.charging else 0) | (
                FLAG_LOW_BATTERY if message.low_battery else 0
            )
            return T_STATUS, bytes([battery, flags])
        case Pong():
            return T_PONG, struct.pack(">H", message.token)
        case Occupancy():
            return T_OCCUPANCY, _occupancy_payload(message)
        case OccupancyChange():
            return T_OCCUPANCY_CHANGE, struct.pack(
                ">BIHB", message.version, message.seq, message.cell, int(message.occupied)
            )
        case UnknownVersion():
            return message.kind, bytes([message.version])
        case OccupancyRequest():
            return T_OCCUPANCY_REQUEST, bytes([message.version])
        case HelloRequest():
            return T_HELLO_REQUEST, bytes([message.protocol])
        case Ack():
            return T_ACK, struct.pack(">I", message.seq)
        case Ping():
            return T_PING, struct.pack(">H", message.token)


def bitmap_bytes(cells: int) -> int:
    """Bytes of a bitmap of ``cells`` bits (cell 0 is the high bit of the first byte)."""
    return (cells + 7) // 8


def _occupancy_payload(message: Occupancy) -> bytes:
    cells = message.rows * message.cols * message.layers
    if not 1 <= cells <= MAX_CELLS or any(not 0 <= i < cells for i in message.occupied):
        raise ValueError(f"an occupancy bitmap has 1..{MAX_CELLS} cells, each inside the grid")
    bitmap = bytearray(bitmap_bytes(cells))
    for index in message.occupied:
        bitmap[index >> 3] |= 0x80 >> (index & 7)
    head = struct.pack(
        ">BIBBB", message.version, message.seq, message.rows, message.cols, message.layers
    )
    return head + bytes(bitmap)


def _decode_occupancy(payload: bytes) -> Occupancy:
    version, seq, rows, cols, layers = struct.unpack_from(">BIBBB", payload)
    cells = rows * cols * layers
    bitmap = payload[8:]
    if cells == 0 or len(bitmap) != bitmap_bytes(cells):
        raise PayloadError(
            f"occupancy: {rows}x{cols}x{layers} needs {bitmap_bytes(cells)} bitmap bytes"
        )
    occupied = frozenset(i for i in range(cells) if bitmap[i >> 3] & (0x80 >> (i & 7)))
    if cells % 8 and bitmap[-1] & (0xFF >> (cells % 8)):
        raise PayloadError("occupancy: bits set past the last cell")
    return Occupancy(rows, cols, seq, occupied, layers, version)


def decode_payload(kind: int, payload: bytes) -> Message:
    """Parse one payload of type ``kind``; raise :class:`PayloadError` if it does not fit."""
    try:
        return _decode_payload(kind, payload)
    except (struct.error, UnicodeDecodeError, IndexError) as exc:
        raise PayloadError(f"type 0x{kind:02x}: {exc}") from exc


def _exact(payload: bytes, size: int, kind: int) -> None:
    if len(payload) != size:
        raise PayloadError(f"type 0x{kind:02x} needs {size} payload bytes, got {len(payload)}")


def _decode_payload(kind: int, payload: bytes) -> Message:
    if kind == T_HELLO:
        protocol, major, minor, patch, boot_id, id_len = struct.unpack_from(">BBBBIB", payload)
        ident = payload[9 : 9 + id_len].decode("ascii")
        if id_len == 0 or len(ident) != id_len:
            raise PayloadError("hello: bad device id length")
        count = payload[9 + id_len]
        rest = payload[10 + id_len :]
        if len(rest) != 2 * count:
            raise PayloadError("hello: dice list does not match its count")
        dice = tuple(DieSpec(rest[i], rest[i + 1]) for i in range(0, len(rest), 2))
        return Hello(ident, (major, minor, patch), protocol, boot_id, dice)
    if kind == T_ROLLING:
        _exact(payload, 1, kind)
        return Rolling(payload[0])
    if kind == T_ROLL_RESULT:
        _exact(payload, 6, kind)
        die_id, face, seq = struct.unpack(">BBI", payload)
        return RollResult(die_id, face, seq)
    if kind == T_STATUS:
        _exact(payload, 2, kind)
        battery = None if payload[0] == BATTERY_UNKNOWN else payload[0]
        if battery is not None and battery > 100:
            raise PayloadError(f"status: battery {battery}% is out of range")
        return Status(
            battery, bool(payload[1] & FLAG_CHARGING), bool(payload[1] & FLAG_LOW_BATTERY)
        )
    if kind == T_PONG:
        _exact(payload, 2, kind)
        return Pong(struct.unpack(">H", payload)[0])
    if kind in (T_OCCUPANCY, T_OCCUPANCY_CHANGE, T_OCCUPANCY_REQUEST):
        if payload and payload[0] != OCCUPANCY_VERSION:
            return UnknownVersion(kind, payload[0])
        if kind == T_OCCUPANCY:
            return _decode_occupancy(payload)
        if kind == T_OCCUPANCY_CHANGE:
            _exact(payload, 8, kind)
            version, seq, cell, occupied = struct.unpack(">BIHB", payload)
            if occupied > 1:
                raise PayloadError(f"occupancy change: state {occupied} is neither 0 nor 1")
            return OccupancyChange(seq, cell, bool(occupied), version)
        _exact(payload, 1, kind)
        return OccupancyRequest(payload[0])
    if kind == T_HELLO_REQUEST:
        _exact(payload, 1, kind)
        return HelloRequest(payload[0])
    if kind == T_ACK:
        _exact(payload, 4, kind)
        return Ack(struct.unpack(">I", payload)[0])
    if kind == T_PING:
        _exact(payload, 2, kind)
        return Ping(struct.unpack(">H", payload)[0])
    raise PayloadError(f"unknown message type 0x{kind:02x}")


def encode_frame(message: Message) -> bytes:
    """The complete bytes on the wire for one message, delimiters included."""
    kind, payload = encode_payload(message)
    body = bytes([kind]) + payload
    crc = crc16_ccitt(body)
    return b"\x00" + cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


# --------------------------------------------------------------------------- decoder


@dataclass
class DecoderStats:
    """What the decoder threw away, by cause. Each bad frame counts exactly once."""

    frames: int = 0
    """Valid messages decoded."""
    bad_cobs: int = 0
    """Chunks between delimiters that are not valid COBS (typically line noise)."""
    bad_crc: int = 0
    """Chunks whose checksum does not match (corrupted frames)."""
    bad_payload: int = 0
    """Frames with a good checksum but an unknown type or a payload that does not fit."""
    oversize: int = 0
    """Chunks longer than any frame (garbage without a delimiter)."""

    @property
    def errors(self) -> int:
        """All discarded chunks."""
        return self.bad_cobs + self.bad_crc + self.bad_payload + self.oversize


@dataclass
class FrameDecoder:
    """Incremental decoder: :meth:`feed` any bytes, get the complete messages back.

    Pure (no I/O, no clock): it keeps the bytes of the frame in progress, so a frame
    split at any byte boundary decodes the same. Garbage never raises; it is counted
    in :attr:`stats` and the decoder resynchronises at the next ``0x00``.
    """

    stats: DecoderStats = field(default_factory=DecoderStats)
    _chunk: bytearray = field(default_factory=bytearray)
    _overflowing: bool = False

    def feed(self, data: bytes | bytearray | memoryview) -> list[Message]:
        """Consume ``data`` and return every message it completed, in order."""
        out: list[Message] = []
        view = bytes(data)
        start = 0
        while True:
            end = view.find(b"\x00", start)
            if end == -1:
                self._append(view[start:])
                return out
            self._append(view[start:end])
            self._finish_chunk(out)
            start = end + 1

    def _append(self, part: bytes) -> None:
        if self._overflowing or not part:
            return
        self._chunk += part
        if len(self._chunk) > MAX_ENCODED:
            self._overflowing = True
            self._chunk.clear()

    def _finish_chunk(self, out: list[Message]) -> None:
        if self._overflowing:
            self._overflowing = False
            self.stats.oversize += 1
            return
        if not self._chunk:
            return  # back-to-back delimiters: an empty chunk is not an error
        chunk = bytes(self._chunk)
        self._chunk.clear()
        message = self._decode_chunk(chunk)
        if message is not None:
            self.stats.frames += 1
            out.append(message)

    def _decode_chunk(self, chunk: bytes) -> Message | None:
        body = cobs_decode(chunk)
        if body is None or len(body) < 3:
            self.stats.bad_cobs += 1
            return None
        if crc16_ccitt(body[:-2]) != (body[-2] << 8) | body[-1]:
            self.stats.bad_crc += 1
            return None
        try:
            return decode_payload(body[0], body[1:-2])
        except PayloadError:
            self.stats.bad_payload += 1
            return None
