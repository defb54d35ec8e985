"""WS2812 over SPI: the LED driver for the Raspberry Pi 5 (and any Pi with /dev/spidev).

The Pi 5's RP1 chip is not supported by rpi_ws281x, but its SPI controller can make the
WS2812 waveform: at 6.4 MHz one SPI byte lasts 1.25 µs, exactly one WS2812 bit. A 0 bit
is sent as ``0xC0`` (≈0.31 µs high), a 1 bit as ``0xF8`` (≈0.78 µs high); the rest of the
byte is low, so any pause the controller inserts between bytes only stretches a low
phase. A leading zero byte makes sure MOSI starts low, and 300 µs of zeros at the end
latch the frame (new WS2812B need > 280 µs). Data leaves on MOSI (GPIO10, pin 19).

The encoder is pure and tested; ``spidev`` is imported only in ``begin()``.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from firmware_bridge.leds.strip import Frame, HardwareUnavailable, LedStrip
from firmware_bridge.platform import Platform, detect_platform

SPI_HZ = 6_400_000
ZERO_BYTE = 0xC0
ONE_BYTE = 0xF8
RESET_US = 300
COLOUR_ORDERS = ("GRB", "RGB", "BRG", "BGR", "RBG", "GBR")
#: The kernel's default spidev buffer; a longer frame is split into several transfers.
DEFAULT_SPIDEV_BUFSIZ = 4096


def _expand(value: int) -> bytes:
    return bytes(ONE_BYTE if value & (0x80 >> bit) else ZERO_BYTE for bit in range(8))


#: Channel value 0..255 → the 8 SPI bytes that send its bits, most significant first.
BYTE_TABLE: tuple[bytes, ...] = tuple(_expand(value) for value in range(256))


def reset_bytes(hz: int = SPI_HZ, reset_us: int = RESET_US) -> int:
    """Zero bytes needed to hold the line low for ``reset_us`` at ``hz``."""
    return math.ceil(reset_us * 1e-6 * hz / 8)


def encode_frame(
    frame: Frame, order: str = "GRB", hz: int = SPI_HZ, reset_us: int = RESET_US
) -> bytes:
    """The SPI bytes for one frame: a low lead-in, 24 bytes per LED, then the latch."""
    if order not in COLOUR_ORDERS:
        raise ValueError(f"Colour order must be one of {', '.join(COLOUR_ORDERS)}, not {order!r}.")
    pick = tuple("RGB".index(letter) for letter in order)
    body = b"".join(
        BYTE_TABLE[pixel[pick[0]]] + BYTE_TABLE[pixel[pick[1]]] + BYTE_TABLE[pixel[pick[2]]]
        for pixel in frame
    )
    return b"\x00" + body + bytes(reset_bytes(hz, reset_us))


def decode_frame(data: bytes, count: int, order: str = "GRB") -> Frame:
    """Read an encoded frame back (for tests and for checking captures from a logic analyser)."""
    body = data[1 : 1 + 24 * count]
    pixels = []
    for led in range(count):
        channels = []
        for channel in range(3):
            chunk = body[(led * 3 + channel) * 8 : (led * 3 + channel + 1) * 8]
            value = 0
            for byte in chunk:
                if byte not in (ZERO_BYTE, ONE_BYTE):
                    raise ValueError(f"Byte 0x{byte:02X} is neither a WS2812 0 nor a 1.")
                value = (value << 1) | (byte == ONE_BYTE)
            channels.append(value)
        by_letter = dict(zip(order, channels, strict=True))
        pixels.append((by_letter["R"], by_letter["G"], by_letter["B"]))
    return tuple(pixels)


class SpiDevice(Protocol):
    """The part of ``spidev.SpiDev`` this driver uses."""

    max_speed_hz: int
    mode: int

    def open(self, bus: int, device: int) -> None: ...

    def writebytes2(self, data: Any) -> None: ...

    def close(self) -> None: ...


class SpiStrip(LedStrip):
    """WS2812 LEDs on SPI MOSI. Refuses to run off a Pi unless a device factory is injected."""

    def __init__(
        self,
        count: int,
        *,
        bus: int = 0,
        device: int = 0,
        hz: int = SPI_HZ,
        order: str = "GRB",
        platform: Platform | None = None,
        device_factory: Callable[[], SpiDevice] | None = None,
    ) -> None:
        super().__init__(count)
        if order not in COLOUR_ORDERS:
            raise ValueError(
                f"Colour order must be one of {', '.join(COLOUR_ORDERS)}, not {order!r}."
            )
        if not 2_400_000 <= hz <= 8_000_000:
            raise ValueError(f"SPI clock {hz} Hz cannot make WS2812 timing; use about 6.4 MHz.")
        if device_factory is None:
            found = platform or detect_platform()
            if not found.is_raspberry_pi:
                raise HardwareUnavailable(
                    f"The SPI LED driver runs on a Raspberry Pi; this machine is "
                    f'{found.describe()}. Set [leds] driver = "sim" to use the simulated strip.'
                )
        self.bus = bus
        self.device = device
        self.hz = hz
        self.order = order
        self._factory = device_factory
        self._spi: SpiDevice | None = None

    @property
    def device_path(self) -> Path:
        return Path(f"/dev/spidev{self.bus}.{self.device}")

    @property
    def bytes_per_frame(self) -> int:
        return len(encode_frame((), self.order, self.hz)) + 24 * self.count

    def _open(self) -> None:
        factory = self._factory
        if factory is None:
            try:
                module = importlib.import_module("spidev")
            except ImportError:
                raise HardwareUnavailable(
                    "The Python package spidev is not installed: "
                    "pip install 'colossus-companion[pi]'."
                ) from None
            factory = module.SpiDev
        spi = factory()
        try:
            spi.open(self.bus, self.device)
        except FileNotFoundError:
            raise HardwareUnavailable(
                f"{self.device_path} does not exist: enable SPI with dtparam=spi=on in "
                "/boot/firmware/config.txt and reboot."
            ) from None
        except PermissionError:
            raise HardwareUnavailable(
                f"No permission to open {self.device_path}: add the user to the spi group "
                "(sudo adduser $USER spi) and log in again."
            ) from None
        spi.max_speed_hz = self.hz
        spi.mode = 0
        self._spi = spi

    def _ship(self, frame: Frame) -> None:
        assert self._spi is not None  # begin() succeeded, guaranteed by LedStrip.show
        self._spi.writebytes2(encode_frame(frame, self.order, self.hz))

    def _release(self) -> None:
        if self._spi is not None:
            self._spi.close()
            self._spi = None
