"""The pure LED renderer: highlights + layout + palette + time → one frame.

No I/O, no clock, no threads: the same inputs always give the same frame, so the
animator, the calibration, the simulated strip and the tests all share it.

Order of the steps, each for a reason:

1. One role per cell (the palette's priority), its colour and level.
2. Animation intensity from ``t`` (pulse, sweep, flash), then global brightness: all in
   perceived units, so half brightness *looks* half as bright.
3. Gamma correction (a 256-entry table) turns perceived values into PWM duty.
4. The power limiter scales the whole frame down, as WLED does, so that the estimated
   current never exceeds the supply budget. It works on duty values because current is
   linear in duty.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.highlights import Highlight, Role, winning_highlights
from firmware_bridge.layout import LedLayout
from firmware_bridge.leds.palette import KOLOSSUS_PALETTE, Palette
from firmware_bridge.leds.strip import RGB, Frame

DEFAULT_GAMMA = 2.6
#: WLED's default: about 55 mA per LED at full white, 1 mA idle per LED.
DEFAULT_MA_PER_LED = 55.0
DEFAULT_IDLE_MA_PER_LED = 1.0

PULSE_PERIOD_S = 1.6
CITADEL_PERIOD_S = 2.4
SWEEP_PERIOD_S = 1.2
SWEEP_WAVELENGTH_CELLS = 5.0
FLASH_HZ = 2.5
FIX_PERIOD_S = 0.8
ROLL_PERIOD_S = 2.0  # a slow breath: whose die it is, not something to do at once


def gamma_table(gamma: float = DEFAULT_GAMMA) -> tuple[int, ...]:
    """Perceived level 0..255 → PWM duty 0..255 (0 stays 0, 255 stays 255, monotone)."""
    if gamma <= 0:
        raise ValueError(f"Gamma must be positive, got {gamma}.")
    return tuple(round(255 * (level / 255) ** gamma) for level in range(256))


DEFAULT_GAMMA_TABLE = gamma_table()


@dataclass(frozen=True)
class PowerBudget:
    """What the LED supply may deliver, and what the LEDs draw (WLED's model).

    Each channel at full duty draws a third of ``ma_per_led`` (55 mA → ≈ 18.3 mA per
    channel); every LED draws ``idle_ma_per_led`` even when dark. ``budget_ma = None``
    switches the limiter off.
    """

    budget_ma: int | None = 2000
    ma_per_led: float = DEFAULT_MA_PER_LED
    idle_ma_per_led: float = DEFAULT_IDLE_MA_PER_LED

    def __post_init__(self) -> None:
        if self.budget_ma is not None and self.budget_ma < 0:
            raise ValueError(f"A power budget cannot be negative, got {self.budget_ma} mA.")
        if self.ma_per_led <= 0 or self.idle_ma_per_led < 0:
            raise ValueError("Current per LED must be positive and idle current not negative.")

    @property
    def ma_per_step(self) -> float:
        """Current of one duty step (1/255) of one channel."""
        return self.ma_per_led / (3 * 255)

    def idle_ma(self, led_count: int) -> float:
        return self.idle_ma_per_led * led_count


def estimate_current_ma(frame: Frame, power: PowerBudget) -> float:
    """The current a frame draws on the model of :class:`PowerBudget`."""
    steps = sum(map(sum, frame))
    return power.idle_ma(len(frame)) + steps * power.ma_per_step


def limit_power(frame: Frame, power: PowerBudget) -> Frame:
    """Scale the whole frame down so that its estimated current fits the budget.

    Integer arithmetic (floor) guarantees the result never exceeds the budget; a budget
    below the idle current of the strip gives a dark frame.
    """
    if power.budget_ma is None:
        return frame
    steps = sum(map(sum, frame))
    if steps == 0:
        return frame
    spare_ma = power.budget_ma - power.idle_ma(len(frame))
    # The tiny margin keeps float rounding of ma_per_step on the safe side.
    allowed = math.floor(spare_ma / power.ma_per_step * (1 - 1e-9)) if spare_ma > 0 else 0
    if steps <= allowed:
        return frame
    return tuple(
        (r * allowed // steps, g * allowed // steps, b * allowed // steps) for r, g, b in frame
    )


# --- animations: pure functions of time (and position for the sweep) -------------------


def pulse(t: float, period: float = PULSE_PERIOD_S, low: float = 0.25) -> float:
    """A smooth breathing level between ``low`` and 1."""
    return low + (1 - low) * (0.5 - 0.5 * math.cos(2 * math.pi * t / period))


def sweep(
    t: float,
    x: float,
    y: float,
    period: float = SWEEP_PERIOD_S,
    wavelength: float = SWEEP_WAVELENGTH_CELLS,
    low: float = 0.2,
) -> float:
    """A bright band travelling along a row or column (diagonally over an area)."""
    phase = ((x + y) / wavelength - t / period) % 1.0
    band = 1.0 - abs(phase - 0.5) * 2.0
    return low + (1 - low) * band * band


def flash(t: float, hz: float = FLASH_HZ, low: float = 0.1) -> float:
    """Hard on/off blinking, for what can be captured or will fall off."""
    return 1.0 if (t * hz) % 1.0 < 0.5 else low


#: Roles whose brightness changes with time (see :func:`role_intensity`); a frame of
#: other roles only is the same at every tick, so nothing needs to render it again.
ANIMATED_ROLES: frozenset[Role] = frozenset(
    {
        Role.SELECTABLE,
        Role.CITADEL,
        Role.QUAKE_REGION,
        Role.CAPTURABLE,
        Role.FALLS_OFF,
        Role.FIX,
        Role.ROLL,
        Role.SETUP,
    }
)


def animated(highlights: Iterable[Highlight]) -> bool:
    """True when some highlight pulses, sweeps or flashes: frames change over time."""
    return any(h.role in ANIMATED_ROLES for h in highlights)


#: Roles whose brightness also depends on where the cell is (the sweep); every other
#: role lights all its cells of one player alike, so a frame computes that colour once.
POSITIONAL_ROLES: frozenset[Role] = frozenset({Role.QUAKE_REGION})


def role_intensity(role: Role, t: float, position: tuple[float, float]) -> float:
    """How bright ``role`` is at time ``t`` (1 = its full palette level)."""
    if role is Role.SELECTABLE:
        return pulse(t)
    if role is Role.CITADEL:
        return pulse(t, CITADEL_PERIOD_S, low=0.35)
    if role is Role.QUAKE_REGION:
        return sweep(t, position[0], position[1])
    if role in (Role.CAPTURABLE, Role.FALLS_OFF):
        return flash(t)
    if role in (Role.FIX, Role.SETUP):  # the table must change here: a calm breath
        return pulse(t, FIX_PERIOD_S, low=0.45)
    if role is Role.ROLL:
        return pulse(t, ROLL_PERIOD_S, low=0.3)
    return 1.0


# --- the renderer ---------------------------------------------------------------------


def _scale(colour: RGB, factor: float, table: Sequence[int]) -> RGB:
    r, g, b = colour
    return (
        table[min(255, round(r * factor))],
        table[min(255, round(g * factor))],
        table[min(255, round(b * factor))],
    )


def render(
    highlights: Iterable[Highlight],
    layout: LedLayout,
    palette: Palette = KOLOSSUS_PALETTE,
    brightness: float = 1.0,
    power_budget: PowerBudget | None = None,
    t: float = 0.0,
    *,
    gamma: Sequence[int] = DEFAULT_GAMMA_TABLE,
    still: bool = False,
) -> Frame:
    """The frame for ``highlights`` at time ``t`` (seconds); ``still``: every role at its
    full level, whatever ``t`` (an idle kiosk). Cells the layout lacks are skipped."""
    if not 0.0 <= brightness <= 1.0:
        raise ValueError(f"Brightness must be between 0 and 1, got {brightness}.")
    pixels: list[RGB] = [(0, 0, 0)] * layout.led_count
    # One colour per role and player (per cell only where the place matters): the
    # animator renders up to 42 frames a second on the Pi's CPU.
    colours: dict[tuple[Role, int | None], RGB] = {}
    for cell, highlight in winning_highlights(highlights, palette).items():
        leds = layout.leds_of(cell)
        if not leds:
            continue
        role = highlight.role
        positional = role in POSITIONAL_ROLES
        key = (role, highlight.player)
        colour = None if positional else colours.get(key)
        if colour is None:
            position = layout.positions.get(cell, (0.0, 0.0)) if positional else (0.0, 0.0)
            intensity = 1.0 if still else role_intensity(role, t, position)
            factor = palette.level(role) * brightness * intensity
            colour = _scale(palette.colour(role, highlight.player), factor, gamma)
            if not positional:
                colours[key] = colour
        for index in leds:
            pixels[index] = colour
    frame = tuple(pixels)
    return limit_power(frame, power_budget) if power_budget is not None else frame
