# The sensing board's logic: debounced occupancy of a sensor matrix, change events with
# sequence numbers, the whole bitmap on connect and on request.
#
# Plain Python with no hardware import (MicroPython and CPython), like tray_logic.py:
# main.py reads the shift-register chain and hands each scan's raw bytes to sample().
# A cell counts as changed only after its raw level has differed from the debounced one
# for DEBOUNCE_SCANS scans in a row (a magnet passing over, a switch bouncing), so at
# SCAN_HZ = 100 a change is reported 30 ms after it settles.
#
# Changes get the next sequence number (1, 2, 3 ... per boot). Nothing is stored for a
# re-send: the host that misses one (a gap in the numbers) asks for the whole bitmap,
# which carries the number of the last change it contains. See docs/dice-protocol.md.

import tray_protocol as p

DEBOUNCE_SCANS = 3
SCAN_HZ = 100


class SensingBoard:
    def __init__(self, rows, cols, send, debounce_scans=DEBOUNCE_SCANS, layers=1):
        self.rows = rows
        self.cols = cols
        self.layers = layers  # 2: a second sensor per square sees the landscapes
        self.cells = rows * cols * layers
        self.size = (self.cells + 7) // 8
        self.send = send  # send(kind, payload): DiceTray._send (only while connected)
        self.debounce = debounce_scans
        self.stable = bytearray(self.size)
        self.counts = bytearray(self.cells)
        self.pending = 0  # cells whose raw level differs from the stable one
        self.seq = 0
        self.scans = 0

    def sample(self, raw):
        """One scan's raw bits (same layout as the bitmap; 1 = a piece is sensed)."""
        self.scans += 1
        stable = self.stable
        counts = self.counts
        if self.pending == 0 and raw[: self.size] == stable:
            return
        pending = 0
        for index in range(self.size):
            differ = raw[index] ^ stable[index]
            base = index << 3
            for bit in range(8):
                cell = base + bit
                if cell >= self.cells:
                    break
                mask = 0x80 >> bit
                if differ & mask:
                    counts[cell] += 1
                    if counts[cell] >= self.debounce:
                        counts[cell] = 0
                        stable[index] ^= mask
                        self._changed(cell, bool(stable[index] & mask))
                    else:
                        pending += 1
                else:
                    counts[cell] = 0
        self.pending = pending

    def occupied(self, cell):
        return bool(self.stable[cell >> 3] & (0x80 >> (cell & 7)))

    def send_bitmap(self):
        """The whole matrix: after each HELLO_REQUEST and each OCCUPANCY_REQUEST."""
        payload = p.occupancy_payload(self.seq, self.rows, self.cols, self.stable, self.layers)
        self.send(p.T_OCCUPANCY, payload)

    def handle(self, kind, payload):
        """A host frame this module answers; True when it was one."""
        if kind == p.T_OCCUPANCY_REQUEST:
            self.send_bitmap()
            return True
        return False

    def _changed(self, cell, occupied):
        self.seq += 1
        self.send(p.T_OCCUPANCY_CHANGE, p.change_payload(self.seq, cell, occupied))
