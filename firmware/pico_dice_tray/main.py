# Reference dice-tray firmware for a Raspberry Pi Pico (MicroPython).
#
# One button or tilt switch per die (to ground, internal pull-up), faces from the
# RP2040's ring-oscillator random bit (os.urandom on the rp2 port), and the dice-tray
# protocol over the USB serial port. Copy main.py, tray_logic.py and tray_protocol.py
# to the board (see README.md). Only this file touches the hardware; the host tests
# import it with a fake `machine` module.

import os
import select
import sys
import time

import board_scan
import machine
import micropython
import tray_logic

DEVICE_PREFIX = "pico-tray-"
FIRMWARE = (1, 0, 0)
DIE_PINS = (2, 3, 4)  # GP2..GP4: one input per die
DIE_FACES = (4, 4, 4)  # three d4 (Colossus movement rolls at most 3d4)
DIE_INPUTS = "button"  # or "tilt" for ball tilt switches
LED_PIN = 25  # on-board LED (Pico; "LED" on a Pico W)
# The sensing board (hardware.md, "Sensing board"): a chain of 74HC165 shift registers,
# one input per square, read over SPI0. None = no board on this Pico. A Pico that only
# reads the board sets DIE_PINS = () and DIE_FACES = ().
BOARD_SIZE = None  # (11, 11) for Kolossus
BOARD_LAYERS = 1  # 2 with a second chain of sensors for the landscapes (cells 121..241)
BOARD_SCK_PIN = 18  # SPI0 SCK -> CP (clock) of every 74HC165
BOARD_MISO_PIN = 16  # SPI0 RX <- Q7 of the first 74HC165 in the chain
BOARD_LOAD_PIN = 17  # -> PL (parallel load, active low) of every 74HC165
BOARD_SPI_HZ = 1_000_000
BOARD_ACTIVE_LOW = True  # reed switch or hall sensor pulls its input low over a magnet


def device_id():
    return DEVICE_PREFIX + "".join(f"{b:02x}" for b in machine.unique_id())


def boot_id():
    value = 0
    for byte in os.urandom(4):
        value = (value << 8) | byte
    return value


class Firmware:
    """The tray wired to real pins and a byte stream (USB CDC on the Pico)."""

    def __init__(self, stdin, stdout, ticks_ms, ticks_diff):
        self.stdin = stdin
        self.stdout = stdout
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.pins = [machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP) for pin in DIE_PINS]
        self.led = machine.Pin(LED_PIN, machine.Pin.OUT)
        dice = [(index + 1, faces) for index, faces in enumerate(DIE_FACES)]
        self.tray = tray_logic.DiceTray(
            device_id(),
            dice,
            self.write,
            os.urandom,
            boot_id(),
            firmware=FIRMWARE,
            ticks_diff=ticks_diff,
            inputs=DIE_INPUTS,
        )
        self.poller = select.poll()
        self.poller.register(stdin, select.POLLIN)
        self.board = None
        if BOARD_SIZE is not None:
            rows, cols = BOARD_SIZE
            self.board = self.tray.add_board(rows, cols, BOARD_LAYERS)
            self.load = machine.Pin(BOARD_LOAD_PIN, machine.Pin.OUT)
            self.load.value(1)
            self.spi = machine.SPI(
                0,
                baudrate=BOARD_SPI_HZ,
                polarity=0,
                phase=0,
                sck=machine.Pin(BOARD_SCK_PIN),
                miso=machine.Pin(BOARD_MISO_PIN),
            )
            self.raw = bytearray(self.board.size)
            self.period_ms = 1000 // board_scan.SCAN_HZ
            self.last_scan = ticks_ms()

    def scan_board(self, now):
        """Latch every square (PL low), shift the chain in, hand the bits on."""
        self.last_scan = now
        self.load.value(0)
        self.load.value(1)
        self.spi.readinto(self.raw, 0)
        if BOARD_ACTIVE_LOW:
            for index in range(len(self.raw)):
                self.raw[index] ^= 0xFF
        self.board.sample(self.raw)

    def write(self, frame):
        self.stdout.write(frame)

    def step(self):
        now = self.ticks_ms()
        while self.poller.poll(0):
            data = self.stdin.read(1)
            if not data:
                break
            self.tray.feed(data, now)
        for index, pin in enumerate(self.pins):
            self.tray.sample(index, pin.value(), now)
        self.tray.tick(now)
        if self.board is not None and self.ticks_diff(now, self.last_scan) >= self.period_ms:
            self.scan_board(now)
        self.led.value(1 if self.tray.connected else 0)


def safe_mode():
    """Die 1's button held at power-up: skip the firmware and keep the REPL usable."""
    pin = DIE_PINS[0] if DIE_PINS else BOARD_LOAD_PIN + 5  # GP22 on a board-only Pico
    return machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def run():
    if safe_mode():
        return
    # Binary frames may contain 0x03: stop Ctrl-C on the USB port from interrupting us.
    micropython.kbd_intr(-1)
    firmware = Firmware(sys.stdin.buffer, sys.stdout.buffer, time.ticks_ms, time.ticks_diff)
    while True:
        firmware.step()
        time.sleep_ms(1)


if __name__ == "__main__":
    run()
