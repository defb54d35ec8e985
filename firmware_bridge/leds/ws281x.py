"""WS2812 via rpi_ws281x: the LED driver for Raspberry Pi 1–4 and Zero (PWM, PCM or SPI).

Constructing ``rpi_ws281x.PixelStrip`` anywhere but on a supported Pi makes the Python
interpreter crash at exit (the library's exit hook frees memory it never set up), so
this class refuses to be built off a Pi, refuses the Pi 5 (whose RP1 chip the library
does not support: use the SPI driver there), imports the library only in ``begin()``,
and only then builds a ``PixelStrip``.

Defaults: GPIO18 (PWM channel 0) and DMA channel 10 (channel 5 can corrupt the SD card's
file system on a Pi 3B). PWM shares hardware with the onboard audio: switch audio off.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from firmware_bridge.leds.strip import Frame, HardwareUnavailable, LedStrip
from firmware_bridge.platform import Platform, detect_platform

#: GPIO → (method, PWM channel). rpi_ws281x can drive these pins; anything else is refused.
WS281X_PINS: dict[int, tuple[str, int]] = {
    12: ("PWM", 0),
    18: ("PWM", 0),
    13: ("PWM", 1),
    19: ("PWM", 1),
    21: ("PCM", 0),
    10: ("SPI", 0),
}
DEFAULT_PIN = 18
DEFAULT_DMA = 10
UNSAFE_DMA_CHANNELS = frozenset({5})
COLOUR_ORDERS = ("GRB", "RGB", "BRG", "BGR", "RBG", "GBR")


def check_ws281x_settings(gpio_pin: int, dma_channel: int) -> None:
    """Refuse pins the library cannot drive and DMA channels that are unsafe or invalid."""
    if gpio_pin not in WS281X_PINS:
        usable = ", ".join(f"GPIO{pin} ({WS281X_PINS[pin][0]})" for pin in sorted(WS281X_PINS))
        raise ValueError(f"rpi_ws281x cannot drive LEDs on GPIO{gpio_pin}; use one of {usable}.")
    if dma_channel in UNSAFE_DMA_CHANNELS:
        raise ValueError(
            f"DMA channel {dma_channel} can corrupt the SD card's file system; use channel 10."
        )
    if not 0 <= dma_channel <= 14:
        raise ValueError(f"DMA channel must be between 0 and 14 (10 is safe), not {dma_channel}.")


def check_platform(platform: Platform) -> None:
    """Raise :class:`HardwareUnavailable` unless rpi_ws281x can run on ``platform``."""
    if not platform.is_raspberry_pi:
        raise HardwareUnavailable(
            "The rpi_ws281x LED driver only runs on a Raspberry Pi 1–4 or Zero; this machine is "
            f'{platform.describe()}. Set [leds] driver = "sim" to use the simulated strip.'
        )
    if not platform.supports_ws281x:
        raise HardwareUnavailable(
            f"rpi_ws281x does not support the {platform.describe()}. "
            'Set [leds] driver = "spi" and wire the strip\'s data to GPIO10 (SPI MOSI).'
        )


class Ws281xStrip(LedStrip):
    """WS2812 LEDs driven by rpi_ws281x. Only constructible on a detected Pi 1–4 / Zero."""

    def __init__(
        self,
        count: int,
        *,
        gpio_pin: int = DEFAULT_PIN,
        dma_channel: int = DEFAULT_DMA,
        frequency_hz: int = 800_000,
        invert: bool = False,
        order: str = "GRB",
        platform: Platform | None = None,
        library: ModuleType | None = None,
    ) -> None:
        check_platform(platform or detect_platform())
        super().__init__(count)
        check_ws281x_settings(gpio_pin, dma_channel)
        if order not in COLOUR_ORDERS:
            raise ValueError(
                f"Colour order must be one of {', '.join(COLOUR_ORDERS)}, not {order!r}."
            )
        self.gpio_pin = gpio_pin
        self.dma_channel = dma_channel
        self.frequency_hz = frequency_hz
        self.invert = invert
        self.order = order
        self._library = library
        self._strip: Any = None

    @property
    def method(self) -> str:
        return WS281X_PINS[self.gpio_pin][0]

    @property
    def pwm_channel(self) -> int:
        return WS281X_PINS[self.gpio_pin][1]

    def _open(self) -> None:
        library = self._library
        if library is None:
            try:
                library = importlib.import_module("rpi_ws281x")
            except ImportError:
                raise HardwareUnavailable(
                    "The Python package rpi_ws281x is not installed: "
                    "pip install 'colossus-companion[pi]'."
                ) from None
        strip_type = getattr(library.ws, f"WS2811_STRIP_{self.order}")
        strip = library.PixelStrip(
            self.count,
            self.gpio_pin,
            self.frequency_hz,
            self.dma_channel,
            self.invert,
            255,
            self.pwm_channel,
            strip_type=strip_type,
        )
        try:
            strip.begin()
        except RuntimeError as error:
            raise HardwareUnavailable(
                f"rpi_ws281x could not start ({error}). PWM and PCM need root (run with sudo "
                "or as a service); SPI on GPIO10 needs the spi group and dtparam=spi=on."
            ) from None
        self._strip = strip

    def _ship(self, frame: Frame) -> None:
        strip = self._strip
        for index, (red, green, blue) in enumerate(frame):
            strip.setPixelColorRGB(index, red, green, blue)
        strip.show()

    def _release(self) -> None:
        # rpi_ws281x frees its DMA buffers in its own exit hook; dropping our reference is all.
        self._strip = None
