# The dice tray's state machine: debounced dice inputs, results, acks, re-sends.
#
# Plain Python with no hardware import, so the host's tests run it under CPython
# against the host codec. main.py feeds it pin levels, host bytes and the time.
#
# A die's input is a button or a tilt switch. Any level change that lasts DEBOUNCE_MS
# is "activity": the first one sends ROLLING; when there has been no activity for
# SETTLE_MS the die has landed and gets a face from the hardware random source.
# A button ("button" input) must also be released: it rolls while pressed, however
# long, and lands SETTLE_MS after the release. A tilt switch ("tilt") may come to rest
# open or closed.
#
# Every result gets the next sequence number and stays in `unacked` until the host
# acks it. Results are re-sent every RESEND_MS while connected, and all of them right
# after the host's HELLO_REQUEST (a reconnect). The host de-duplicates by
# (device id, boot id, seq).

import board_scan
import tray_protocol as p

DEBOUNCE_MS = 20
SETTLE_MS = 300
RESEND_MS = 1000
LINK_TIMEOUT_MS = 3500
STATUS_MS = 30000
MAX_UNACKED = 64


def _plain_diff(a, b):
    return a - b


class Die:
    def __init__(self, die_id, faces, level):
        self.die_id = die_id
        self.faces = faces
        self.idle = level
        self.raw = level
        self.raw_since = 0
        self.stable = level
        self.rolling = False
        self.last_activity = 0


class DiceTray:
    def __init__(
        self,
        device_id,
        dice,
        write,
        random_bytes,
        boot_id,
        firmware=(1, 0, 0),
        battery=None,
        ticks_diff=_plain_diff,
        initial_level=1,
        inputs="button",
    ):
        self.device_id = device_id
        self.dice = [Die(die_id, faces, initial_level) for die_id, faces in dice]
        self.write = write
        self.random_bytes = random_bytes
        self.boot_id = boot_id
        self.firmware = firmware
        self.battery = battery  # callable -> percent or None (USB powered)
        self.diff = ticks_diff
        self.buttons = inputs == "button"
        self.decoder = p.Decoder()
        self.connected = False
        self.last_host_rx = 0
        self.last_status = 0
        self.next_seq = 1
        self.unacked = []  # [seq, die_id, face, last_sent_ms]
        self.dropped = 0
        self.board = None  # a board_scan.SensingBoard when this Pico also reads the squares

    def add_board(self, rows, cols, layers=1):
        """Also read a sensing board (a sensor per square, layers=2: and per landscape)."""
        self.board = board_scan.SensingBoard(rows, cols, self._send, layers=layers)
        return self.board

    # ---- inputs

    def sample(self, index, level, now):
        """The current level of die `index`'s input (call every millisecond or two)."""
        die = self.dice[index]
        if level != die.raw:
            die.raw = level
            die.raw_since = now

    def feed(self, data, now):
        """Bytes from the host."""
        for kind, payload in self.decoder.feed(data):
            self.last_host_rx = now
            if kind == p.T_HELLO_REQUEST:
                self._on_hello_request(now)
            elif kind == p.T_ACK:
                seq = p.parse_u32(payload)
                self.unacked = [entry for entry in self.unacked if entry[0] != seq]
            elif kind == p.T_PING:
                token = p.parse_u16(payload)
                if token is not None:
                    self._send(p.T_PONG, payload)
            elif self.board is not None:
                self.board.handle(kind, payload)

    def tick(self, now):
        """Debounce, finish settled rolls, re-send, watch the link."""
        for die in self.dice:
            if die.raw != die.stable:
                if self.diff(now, die.raw_since) >= DEBOUNCE_MS:
                    die.stable = die.raw
                    die.last_activity = now
                    if not die.rolling:
                        die.rolling = True
                        self._send(p.T_ROLLING, bytes([die.die_id]))
            elif (
                die.rolling
                and self.diff(now, die.last_activity) >= SETTLE_MS
                and not (self.buttons and die.stable != die.idle)
            ):
                die.rolling = False
                self._land(die, now)
        if self.connected and self.diff(now, self.last_host_rx) > LINK_TIMEOUT_MS:
            self.connected = False
        if self.connected:
            for entry in self.unacked:
                if self.diff(now, entry[3]) >= RESEND_MS:
                    self._send_result(entry, now)
                    break  # at most one re-send per tick keeps the loop responsive
            if self.battery is not None and self.diff(now, self.last_status) >= STATUS_MS:
                self._send_status(now)

    # ---- internals

    def _land(self, die, now):
        face = p.random_face(die.faces, self.random_bytes)
        entry = [self.next_seq, die.die_id, face, now]
        self.next_seq += 1
        if len(self.unacked) >= MAX_UNACKED:
            self.unacked.pop(0)
            self.dropped += 1
        self.unacked.append(entry)
        self._send_result(entry, now)

    def _on_hello_request(self, now):
        dice = [(die.die_id, die.faces) for die in self.dice]
        self.connected = True
        self._send(p.T_HELLO, p.hello_payload(self.device_id, self.firmware, self.boot_id, dice))
        self._send_status(now)
        for entry in self.unacked:
            self._send_result(entry, now)
        if self.board is not None:
            self.board.send_bitmap()  # a (re)connected host starts from the whole matrix

    def _send_status(self, now):
        self.last_status = now
        level = self.battery() if self.battery is not None else None
        low = level is not None and level < 15
        self._send(p.T_STATUS, p.status_payload(level, False, low))

    def _send_result(self, entry, now):
        entry[3] = now
        self._send(p.T_ROLL_RESULT, p.result_payload(entry[1], entry[2], entry[0]))

    def _send(self, kind, payload):
        if self.connected:
            self.write(p.encode_frame(kind, payload))
