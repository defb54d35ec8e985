"""Build the configured strip, layout and power budget (used by the composition root)."""

from __future__ import annotations

from firmware_bridge.config import LedsConfig
from firmware_bridge.layout import LedLayout, kolossus_layout, load_layout
from firmware_bridge.leds.render import PowerBudget
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.leds.strip import LedStrip
from firmware_bridge.platform import Platform, detect_platform


def make_strip(leds: LedsConfig, platform: Platform | None = None) -> LedStrip | None:
    """The strip ``leds.driver`` names (None for "none"). Real drivers are imported here only.

    Raises :class:`~firmware_bridge.leds.strip.HardwareUnavailable` when a real driver
    cannot run on this machine; the caller falls back to :class:`SimStrip` and shows why.
    """
    found = platform if platform is not None else detect_platform()
    driver = leds.driver
    if driver == "auto":
        if not found.is_raspberry_pi:
            driver = "sim"
        else:
            driver = "ws281x" if found.supports_ws281x else "spi"
    if driver == "none":
        return None
    if driver == "sim":
        return SimStrip(leds.count)
    if driver == "ws281x":
        from firmware_bridge.leds.ws281x import Ws281xStrip

        return Ws281xStrip(
            leds.count,
            gpio_pin=leds.gpio_pin,
            dma_channel=leds.dma_channel,
            order=leds.colour_order,
            platform=found,
        )
    from firmware_bridge.leds.spi import SpiStrip

    return SpiStrip(
        leds.count,
        bus=leds.spi_bus,
        device=leds.spi_device,
        hz=leds.spi_hz,
        order=leds.colour_order,
        platform=found,
    )


def power_budget_of(leds: LedsConfig) -> PowerBudget:
    """The limiter settings (a budget of 0 mA in the file means: no limit)."""
    return PowerBudget(
        budget_ma=leds.power_budget_ma or None,
        ma_per_led=leds.ma_per_led,
        idle_ma_per_led=leds.idle_ma_per_led,
    )


def layout_of(leds: LedsConfig) -> LedLayout:
    """The configured layout file, or the Kolossus 11×11 serpentine board on the whole strip.

    Raises :class:`~firmware_bridge.layout.LayoutError` for a broken file.
    """
    if leds.layout is not None:
        return load_layout(leds.layout)
    return kolossus_layout(led_count=max(leds.count, 121))
