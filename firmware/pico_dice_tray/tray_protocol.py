# The dice-tray wire protocol, device side (MicroPython and CPython).
#
# Same bytes as the host codec firmware_bridge/frames.py, written for MicroPython:
# no dataclasses, no typing, no match. Frame on the wire:
#     00 | COBS(type, payload..., crc_hi, crc_lo) | 00
# CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over type + payload.
# See docs/dice-protocol.md for the message table.

import struct

PROTOCOL_VERSION = 1
MAX_ENCODED = 252

T_HELLO = 0x01
T_ROLLING = 0x02
T_ROLL_RESULT = 0x03
T_STATUS = 0x04
T_PONG = 0x05
T_HELLO_REQUEST = 0x81
T_ACK = 0x82
T_PING = 0x83

BATTERY_UNKNOWN = 0xFF


def crc16(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = (((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)) & 0xFFFF
    return crc


def cobs_encode(data):
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0 or index + code > length:
            return None
        out.extend(data[index + 1 : index + code])
        index += code
        if code != 0xFF and index < length:
            out.append(0)
    return bytes(out)


def encode_frame(kind, payload=b""):
    body = bytes([kind]) + bytes(payload)
    crc = crc16(body)
    return b"\x00" + cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


class Decoder:
    """Feed bytes, get (kind, payload) pairs; bad chunks are counted in .errors."""

    def __init__(self):
        self.chunk = bytearray()
        self.overflow = False
        self.errors = 0

    def feed(self, data):
        frames = []
        for byte in data:
            if byte != 0:
                if not self.overflow:
                    self.chunk.append(byte)
                    if len(self.chunk) > MAX_ENCODED:
                        self.overflow = True
                        self.chunk = bytearray()
                continue
            if self.overflow:
                self.overflow = False
                self.errors += 1
                continue
            if not self.chunk:
                continue
            body = cobs_decode(self.chunk)
            self.chunk = bytearray()
            if body is None or len(body) < 3 or crc16(body[:-2]) != (body[-2] << 8) | body[-1]:
                self.errors += 1
            else:
                frames.append((body[0], body[1:-2]))
        return frames


# ---- payloads (device -> host)


def hello_payload(device_id, firmware, boot_id, dice):
    ident = device_id.encode()
    out = struct.pack(
        ">BBBBIB", PROTOCOL_VERSION, firmware[0], firmware[1], firmware[2], boot_id, len(ident)
    )
    out += ident + bytes([len(dice)])
    for die_id, faces in dice:
        out += bytes([die_id, faces])
    return out


def result_payload(die_id, face, seq):
    return struct.pack(">BBI", die_id, face, seq)


def status_payload(battery, charging=False, low=False):
    flags = (1 if charging else 0) | (2 if low else 0)
    return bytes([BATTERY_UNKNOWN if battery is None else battery, flags])


# ---- payloads (host -> device)


def parse_u32(payload):
    return struct.unpack(">I", payload)[0] if len(payload) == 4 else None


def parse_u16(payload):
    return struct.unpack(">H", payload)[0] if len(payload) == 2 else None


# ---- randomness


def random_face(faces, random_bytes):
    """A uniform face 1..faces from a hardware byte source, without modulo bias."""
    limit = 256 - (256 % faces)
    while True:
        value = random_bytes(1)[0]
        if value < limit:
            return value % faces + 1


# ---- the sensing board (a sensor under each square; docs/dice-protocol.md 1.10)

T_OCCUPANCY = 0x06
T_OCCUPANCY_CHANGE = 0x07
T_OCCUPANCY_REQUEST = 0x84
OCCUPANCY_VERSION = 1


def occupancy_payload(seq, rows, cols, bitmap, layers=1):
    """The whole matrix: `bitmap` has cell 0 (row-major, layer 0 first) in the high bit
    of byte 0; layer 1, when fitted, senses the landscapes."""
    return struct.pack(">BIBBB", OCCUPANCY_VERSION, seq, rows, cols, layers) + bytes(bitmap)


def change_payload(seq, cell, occupied):
    return struct.pack(">BIHB", OCCUPANCY_VERSION, seq, cell, 1 if occupied else 0)
