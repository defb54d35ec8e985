"""The configuration's sections: one pydantic model per table of ``companion.toml``.

Each device's section *is* its driver's settings model (see the package's docstring);
what may not be combined (two users of one GPIO, a source and a driver's own switch) is
checked here, where the settings are validated. Reading the file, and turning what is
wrong with it into problems a person can act on, is :mod:`firmware_bridge.config.problems`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, Self

import platformdirs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from firmware_bridge.buttons import ButtonSettings
from firmware_bridge.dice.godice_source import GoDiceSettings
from firmware_bridge.dice.gpio_die import GpioDiceSettings
from firmware_bridge.dice.serial_tray import (
    SerialDiceSettings,
)
from firmware_bridge.platform import Platform

APP_NAME = "colossus-companion"
CONFIG_FILE_NAME = "companion.toml"
ENV_CONFIG = "COMPANION_CONFIG"
ENV_HARDWARE = "COMPANION_HARDWARE"

DiceSource = Literal["auto", "sim", "serial", "gpio", "godice", "none"]
ButtonSource = Literal["auto", "sim", "gpio", "none"]
LedDriver = Literal["auto", "sim", "ws281x", "spi", "none"]
ColourOrder = Literal["GRB", "RGB", "BRG", "BGR", "RBG", "GBR"]

GPIO_MAX = 27  # the 40-pin header exposes GPIO0..GPIO27

#: The header pins an SPI bus takes once it is switched on (MOSI carries the LED data).
#: SPI0 (``dtparam=spi=on``) claims both chip selects; SPI1 (``dtoverlay=spi1-1cs``) one.
#: Pins of the Pi 4's extra buses (3–6) are not checked.
SPI_BUS_PINS: dict[int, tuple[tuple[int, str], ...]] = {
    0: ((10, "MOSI"), (11, "SCLK"), (9, "MISO"), (8, "CE0"), (7, "CE1")),
    1: ((20, "MOSI"), (21, "SCLK"), (19, "MISO"), (18, "CE0")),
}
#: rpi_ws281x on GPIO10 drives the strip through SPI0.
WS281X_SPI_PIN = 10

#: Error ``ctx`` key: the settings involved (space-separated, relative to the error's location);
#: the problem points at the first one the file sets.
CONFIG_KEY = "config_key"


def default_config_path() -> Path:
    return platformdirs.user_config_path(APP_NAME) / CONFIG_FILE_NAME


class Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _check_pin(pin: int) -> int:
    if not 0 <= pin <= GPIO_MAX:
        raise ValueError(f"GPIO{pin} is not on the 40-pin header (GPIO0..GPIO{GPIO_MAX})")
    return pin


def _pin_conflict(message: str, *keys: str) -> PydanticCustomError:
    """A refusal that points at one of ``keys`` (the first one the file sets), not its table."""
    return PydanticCustomError("pin_conflict", message, {CONFIG_KEY: " ".join(keys)})


def pin_claims(section: str, settings: ButtonSettings | GpioDiceSettings) -> list[tuple[int, str]]:
    """``(pin, user)`` for every pin in ``settings.used_pins()``, the user named by its key.

    ``used_pins()`` decides which pins count (a ``None`` pin is not fitted); each is
    named after the ``*_pin``/``*_pins`` setting that holds it, e.g. ``[buttons]
    menu_pin``, so a refusal says which line of the file to change.
    """
    remaining = list(settings.used_pins())
    claims: list[tuple[int, str]] = []
    for field in type(settings).model_fields:
        value = getattr(settings, field)
        if field.endswith("_pin") and isinstance(value, int):
            held: tuple[int, ...] = (value,)
        elif field.endswith("_pins") and isinstance(value, tuple):
            held = tuple(pin for pin in value if isinstance(pin, int))
        else:
            continue
        for pin in held:
            if pin in remaining:
                remaining.remove(pin)
                claims.append((pin, f"[{section}] {field}"))
    claims.extend((pin, f"[{section}]") for pin in remaining)
    return claims


def _first_shared_pin(claims: list[tuple[int, str]]) -> tuple[int, str, str] | None:
    """The first pin claimed twice: ``(pin, first user, second user)``."""
    users: dict[int, str] = {}
    for pin, user in claims:
        if pin in users:
            return pin, users[pin], user
        users[pin] = user
    return None


def _config_key(user: str) -> str:
    """``"[dice.gpio] strobe_pin"`` → ``"dice.gpio.strobe_pin"`` (for the line lookup)."""
    found = re.fullmatch(r"\[([^\]]+)\](?: (\w+))?.*", user)
    if not found:
        return ""
    return found.group(1) + (f".{found.group(2)}" if found.group(2) else "")


class DiceConfig(Section):
    """Which dice source runs, and the settings of each (the drivers' own models)."""

    source: DiceSource = Field(
        default="auto", description="auto = the serial tray on a Pi, simulated elsewhere"
    )
    serial: SerialDiceSettings = SerialDiceSettings()
    gpio: GpioDiceSettings = GpioDiceSettings()
    godice: GoDiceSettings = GoDiceSettings()

    @model_validator(mode="after")
    def _godice_are_listed(self) -> DiceConfig:
        """Bluetooth dice cannot be found without an address or a name to look for."""
        if self.source == "godice" and not self.godice.dice:
            raise PydanticCustomError(
                "no_godice",
                'source = "godice" needs at least one [[dice.godice.dice]] entry '
                "(an address or a name)",
                {CONFIG_KEY: "source"},
            )
        return self


class ButtonsConfig(ButtonSettings):
    """The buttons driver's :class:`ButtonSettings` plus which source runs."""

    source: ButtonSource = Field(
        default="auto", description="auto = GPIO buttons on a Pi, simulated elsewhere"
    )

    @model_validator(mode="before")
    @classmethod
    def _false_means_not_fitted(cls, data: Any) -> Any:
        """TOML has no null: ``buzzer_pin = false`` says the part is not fitted (None)."""
        if isinstance(data, Mapping):
            for key, value in data.items():
                if key.endswith("_pin") and value is True:
                    raise PydanticCustomError(
                        "not_a_pin",
                        "true is not a pin: give a GPIO number, or false if it is not fitted",
                        {CONFIG_KEY: key},
                    )
            return {
                key: None if key.endswith("_pin") and value is False else value
                for key, value in data.items()
            }
        return data

    # Replaces ButtonSettings' own check of the same name (same rules), so that two
    # buttons on one pin are refused with both names and the line to change.
    @model_validator(mode="after")
    def _pins_are_distinct(self) -> ButtonsConfig:
        for pin in self.roll_pins:
            if not 0 <= pin <= GPIO_MAX:
                raise _pin_conflict(
                    f"GPIO{pin} is not on the 40-pin header (GPIO0..GPIO{GPIO_MAX})", "roll_pins"
                )
        shared = _first_shared_pin(pin_claims("buttons", self))
        if shared is not None:
            pin, first, second = shared
            raise _pin_conflict(
                f"GPIO{pin} is used twice: by {first} and by {second}",
                _config_key(second).removeprefix("buttons."),
                _config_key(first).removeprefix("buttons."),
            )
        return self


class LedsConfig(Section):
    """The LED strip under the board and how hard it may be driven."""

    driver: LedDriver = "auto"
    count: int = Field(default=121, ge=1, le=4096, description="LEDs on the strip")
    gpio_pin: int = Field(
        default=18, ge=0, le=GPIO_MAX, description="ws281x data pin (PWM GPIO18 by default)"
    )
    dma_channel: int = Field(default=10, ge=0, le=14)
    spi_bus: int = Field(default=0, ge=0, le=6)
    spi_device: int = Field(default=0, ge=0, le=3)
    spi_hz: int = Field(default=6_400_000, ge=2_400_000, le=8_000_000)
    colour_order: ColourOrder = "GRB"
    layout: Path | None = Field(
        default=None, description="layout JSON; relative to this file; none = Kolossus 11×11"
    )
    brightness: float = Field(default=0.5, ge=0, le=1)
    power_budget_ma: int = Field(
        default=2000, ge=0, le=100_000, description="0 switches the limiter off"
    )
    ma_per_led: float = Field(default=55.0, gt=0, le=200, description="at full white")
    idle_ma_per_led: float = Field(default=1.0, ge=0, le=10)
    frame_rate: float = Field(default=42.0, ge=1, le=120)
    gamma: float = Field(default=2.6, ge=1, le=4)

    @field_validator("dma_channel")
    @classmethod
    def _safe_dma(cls, channel: int) -> int:
        if channel == 5:
            raise ValueError("DMA channel 5 can corrupt the SD card's file system; use 10")
        return channel

    @field_validator("gpio_pin")
    @classmethod
    def _pin_on_header(cls, pin: int) -> int:
        return _check_pin(pin)

    def used_pins_named(self) -> list[tuple[int, str]]:
        """The header pins the strip takes, each with its user (for the shared-pin check).

        ``"auto"`` is rpi_ws281x on ``gpio_pin`` on a Pi 1–4 but SPI on a Pi 5, so it
        claims both: a default that works on either board. SPI takes its whole bus.
        """
        claims: dict[int, str] = {}
        buses: list[int] = []
        if self.driver in ("ws281x", "auto"):
            claims[self.gpio_pin] = "[leds] gpio_pin (the LED strip's data)"
            if self.gpio_pin == WS281X_SPI_PIN:
                buses.append(0)
        if self.driver in ("spi", "auto"):
            buses.append(self.spi_bus)
        for bus in buses:
            for pin, role in SPI_BUS_PINS.get(bus, ()):
                what = "the LED strip's data" if role == "MOSI" else "taken with the LED's SPI bus"
                claims.setdefault(pin, f"[leds] spi_bus (SPI{bus} {role}, {what})")
        return list(claims.items())


BoardSource = Literal["none", "auto", "sim", "serial", "tray"]

BOARD_PORT = "/dev/sensing-board"
"""The sensing board's stable name (its own udev rule, by the Pico's serial number)."""


def _board_serial_defaults() -> SerialDiceSettings:
    """A Pico of its own for the board: its udev link only, never the USB scan (the
    dice tray's Pico has the same USB ids and would be taken instead)."""
    return SerialDiceSettings(port=BOARD_PORT, usb_vid=0, usb_pid=0)


class BoardConfig(Section):
    """A sensing board under the squares (hardware.md "Sensing board"): moves enter
    themselves. Only for a grid game (Kolossus); any other game is played by touch."""

    source: BoardSource = Field(
        default="none",
        description=(
            "none = no sensing board; sim = the simulated board (lift and place on the"
            " screen); serial = a Pico of its own ([board.serial]); tray = the dice tray's"
            " Pico reads the squares too; auto = serial on a Pi, simulated elsewhere"
        ),
    )
    serial: SerialDiceSettings = Field(default_factory=_board_serial_defaults)
    settle_s: float = Field(
        default=0.3,
        ge=0.05,
        le=2.0,
        description="the board must be still this long before it is read as a position",
    )

    @field_validator("serial", mode="before")
    @classmethod
    def _never_scans_usb(cls, data: Any) -> Any:
        """``[board.serial]`` names the board's port; the USB ids it leaves out are not
        the dice tray's (the driver's defaults) but none: no scan, so a missing board
        never takes the dice tray's Pico, which has the same USB ids."""
        if isinstance(data, Mapping):
            return {"port": BOARD_PORT, "usb_vid": 0, "usb_pid": 0, **data}
        return data


class HardwareConfig(Section):
    """The devices of one table: dice, buttons, LED strip and sensing board, the GPIO
    pins they take and which runs (the real device or its simulated twin). The app's
    own settings (screen, fleet, data folder) extend it in :mod:`kiosk.settings`."""

    dice: DiceConfig = DiceConfig()
    buttons: ButtonsConfig = ButtonsConfig()
    leds: LedsConfig = LedsConfig()
    board: BoardConfig = BoardConfig()

    def pin_users(self) -> list[tuple[int, str]]:
        """Every GPIO the devices in use take, with its user, in the order they are checked.

        A source that may run (``"auto"`` included) claims its pins; the GPIO die only
        when ``[dice] source = "gpio"`` (``"auto"`` means the serial tray).
        """
        claims = self.leds.used_pins_named()
        if self.buttons.source in ("gpio", "auto"):
            claims.extend(pin_claims("buttons", self.buttons))
        if self.dice.source == "gpio":
            claims.extend(pin_claims("dice.gpio", self.dice.gpio))
        return claims

    @model_validator(mode="after")
    def _tray_reads_the_board(self) -> Self:
        """``[board] source = "tray"``: the dice tray's Pico reads the squares, so the
        dice must come from that tray (or its simulation)."""
        if self.board.source == "tray" and self.dice.source not in ("auto", "serial", "sim"):
            raise PydanticCustomError(
                "tray_without_tray",
                'source = "tray" reads the board through the dice tray, but [dice] source'
                ' is "{dice}": use [board] source = "serial" for a Pico of its own',
                {CONFIG_KEY: "board.source", "dice": self.dice.source},
            )
        return self

    @model_validator(mode="after")
    def _no_shared_pins(self) -> Self:
        shared = _first_shared_pin(self.pin_users())
        if shared is not None:
            pin, first, second = shared
            raise _pin_conflict(
                f"GPIO{pin} is used twice: by {first} and by {second}",
                _config_key(second),
                _config_key(first),
            )
        return self

    def resolved(self, platform: Platform) -> Self:
        """Replace every ``"auto"`` by the real device on a Pi and the simulation elsewhere.
        An explicit source is obeyed on any machine (a board or a tray plugged into a
        laptop, a test harness on a pty)."""
        on_pi = platform.is_raspberry_pi
        led_driver = self.leds.driver
        if led_driver == "auto":
            led_driver = ("ws281x" if platform.supports_ws281x else "spi") if on_pi else "sim"
        dice_source = self.dice.source
        if dice_source == "auto":
            dice_source = "serial" if on_pi else "sim"
        button_source = self.buttons.source
        if button_source == "auto":
            button_source = "gpio" if on_pi else "sim"
        board_source = self.board.source
        if board_source == "auto":
            board_source = "serial" if on_pi else "sim"
        elif board_source == "tray" and dice_source == "sim":
            board_source = "sim"  # the tray is simulated, and the board it reads with it
        return self._with_sources(led_driver, dice_source, button_source, board_source)

    def simulated(self) -> Self:
        """The same settings with every device replaced by its simulated twin."""
        return self._with_sources(
            "sim", "sim", "sim", "none" if self.board.source == "none" else "sim"
        )

    def _with_sources(
        self,
        led_driver: LedDriver,
        dice_source: DiceSource,
        button_source: ButtonSource,
        board_source: BoardSource,
    ) -> Self:
        """Set the sources and make the drivers' ``enabled`` flags agree with them."""
        dice = self.dice.model_copy(
            update={
                "source": dice_source,
                "serial": self.dice.serial.model_copy(update={"enabled": dice_source == "serial"}),
                "gpio": self.dice.gpio.model_copy(update={"enabled": dice_source == "gpio"}),
                "godice": self.dice.godice.model_copy(update={"enabled": dice_source == "godice"}),
            }
        )
        buttons = self.buttons.model_copy(
            update={"source": button_source, "enabled": button_source == "gpio"}
        )
        board = self.board.model_copy(update={"source": board_source})
        return self.model_copy(
            update={
                "leds": self.leds.model_copy(update={"driver": led_driver}),
                "dice": dice,
                "buttons": buttons,
                "board": board,
            }
        )
