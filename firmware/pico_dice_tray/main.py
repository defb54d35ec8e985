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

import machine
import micropython
import tray_logic

DEVICE_PREFIX = "pico-tray-"
FIRMWARE = (1, 0, 0)
DIE_PINS = (2, 3, 4)  # GP2..GP4: one input per die
DIE_FACES = (4, 4, 4)  # three d4 (Colossus movement rolls at most 3d4)
DIE_INPUTS = "button"  # or "tilt" for ball tilt switches
LED_PIN = 25  # on-board LED (Pico; "LED" on a Pico W)


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
        self.led.value(1 if self.tray.connected else 0)


def safe_mode():
    """Die 1's button held at power-up: skip the firmware and keep the REPL usable."""
    return machine.Pin(DIE_PINS[0], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


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
