"""LEDs under the board: strips (simulated, rpi_ws281x, SPI), the pure renderer, the animator.

Real drivers live in :mod:`.ws281x` and :mod:`.spi` and import their hardware library
only when started; import them explicitly (or use :func:`make_strip`).
"""

from __future__ import annotations

from firmware_bridge.leds.animation import Animator
from firmware_bridge.leds.palette import ISLAND_PALETTE, KOLOSSUS_PALETTE, Palette
from firmware_bridge.leds.render import PowerBudget, estimate_current_ma, render
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.leds.strip import (
    RGB,
    Frame,
    HardwareUnavailable,
    LedStrip,
    StripError,
    black_frame,
)

__all__ = [
    "ISLAND_PALETTE",
    "KOLOSSUS_PALETTE",
    "RGB",
    "Animator",
    "Frame",
    "HardwareUnavailable",
    "LedStrip",
    "Palette",
    "PowerBudget",
    "SimStrip",
    "StripError",
    "black_frame",
    "estimate_current_ma",
    "render",
]
