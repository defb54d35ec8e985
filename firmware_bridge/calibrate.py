"""Check the wiring: light each cell in strip order and say which cell and LEDs it is.

A builder watches the board while the steps run: if the lit square is not the one
named, the layout's start corner, wiring or LED count is wrong.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from companion.highlights import Highlight, Role
from firmware_bridge.layout import LedLayout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE
from firmware_bridge.leds.render import PowerBudget, render
from firmware_bridge.leds.strip import Frame, LedStrip


@dataclass(frozen=True)
class CalibrationStep:
    number: int  # 1-based
    total: int
    cell: str
    leds: tuple[int, ...]
    frame: Frame

    @property
    def text(self) -> str:
        numbers = ", ".join(str(index) for index in self.leds)
        plural = "s" if len(self.leds) > 1 else ""
        return f"{self.number}/{self.total}: cell {self.cell} = LED{plural} {numbers}"


def calibration_steps(
    layout: LedLayout,
    *,
    strip_count: int | None = None,
    brightness: float = 0.3,
    power_budget: PowerBudget | None = None,
) -> Iterator[CalibrationStep]:
    """One step per cell, in the order of the strip: that cell's LEDs lit white, all else off."""
    count = strip_count if strip_count is not None else layout.led_count
    if count < layout.led_count:
        raise ValueError(f"The layout needs {layout.led_count} LEDs, the strip has {count}.")
    order = layout.cells_in_strip_order()
    for number, cell in enumerate(order, start=1):
        frame = render(
            (Highlight(cell=cell, role=Role.SELECTED),),
            layout,
            KOLOSSUS_PALETTE,
            brightness,
            power_budget or PowerBudget(),
        )
        frame += ((0, 0, 0),) * (count - len(frame))
        yield CalibrationStep(number, len(order), cell, layout.leds_of(cell), frame)


def run_calibration(
    strip: LedStrip,
    layout: LedLayout,
    *,
    delay_s: float = 1.0,
    wait: Callable[[CalibrationStep], None] | None = None,
    report: Callable[[str], None] = print,
    brightness: float = 0.3,
    power_budget: PowerBudget | None = None,
) -> int:
    """Show every step on ``strip`` (begun here if needed); ``wait`` paces it (default: sleep).

    Returns the number of cells shown. The strip is left dark, and open for its owner.
    """
    pause = wait or (lambda _step: time.sleep(delay_s))
    strip.begin()
    shown = 0
    try:
        for step in calibration_steps(
            layout, strip_count=strip.count, brightness=brightness, power_budget=power_budget
        ):
            strip.show(step.frame)
            report(step.text)
            shown += 1
            pause(step)
    finally:
        strip.show(((0, 0, 0),) * strip.count)
    return shown
