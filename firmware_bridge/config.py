"""One TOML file configures the hardware side; a broken file never stops the app.

Where the file is: ``COMPANION_CONFIG`` (a path) if set, else ``companion.toml`` in the
user's config directory (platformdirs). Every setting has a default, so no file is
needed. ``"auto"`` (the default) for a driver or source means: the real hardware on a
detected Raspberry Pi, the simulated twin anywhere else. ``COMPANION_HARDWARE=sim``
forces every device to its simulated twin.

:func:`load_config` never raises for a bad file: it returns simulated defaults plus a
list of problems, each naming the file, the line and key, and what is wrong, so the
kiosk can start and show the problem on screen.

The dice and buttons sections are plain fields here; the drivers in
``firmware_bridge.dice`` and ``firmware_bridge.buttons`` read them.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from firmware_bridge.platform import Platform, detect_platform

APP_NAME = "colossus-companion"
CONFIG_FILE_NAME = "companion.toml"
ENV_CONFIG = "COMPANION_CONFIG"
ENV_HARDWARE = "COMPANION_HARDWARE"

#: Raspberry Pi Foundation's USB vendor ID: a Pico running the dice-tray firmware.
PICO_USB_VID = 0x2E8A
#: The product ID MicroPython's USB serial reports on an RP2040.
PICO_MICROPYTHON_PID = 0x0005

DiceSource = Literal["auto", "sim", "serial", "gpio", "none"]
ButtonSource = Literal["auto", "sim", "gpio", "none"]
LedDriver = Literal["auto", "sim", "ws281x", "spi", "none"]
ColourOrder = Literal["GRB", "RGB", "BRG", "BGR", "RBG", "GBR"]

GPIO_MAX = 27  # the 40-pin header exposes GPIO0..GPIO27


def default_config_path() -> Path:
    return platformdirs.user_config_path(APP_NAME) / CONFIG_FILE_NAME


def default_data_dir() -> Path:
    return platformdirs.user_data_path(APP_NAME)


class Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _check_pin(pin: int) -> int:
    if not 0 <= pin <= GPIO_MAX:
        raise ValueError(f"GPIO{pin} is not on the 40-pin header (GPIO0..GPIO{GPIO_MAX})")
    return pin


class SerialDiceConfig(Section):
    """A dice tray (a Pico) on USB serial; field names follow the dice driver's settings.

    An empty ``port`` means: find the tray by its USB vendor/product ID.
    """

    port: str = Field(default="", description="e.g. /dev/ttyACM0; empty = find by USB IDs")
    baudrate: int = Field(default=115200, gt=0)
    usb_vid: int = Field(default=PICO_USB_VID, ge=0, le=0xFFFF)
    usb_pid: int = Field(default=PICO_MICROPYTHON_PID, ge=0, le=0xFFFF)
    serial_number: str = Field(default="", description="only this tray (several trays)")


class GpioDiceConfig(Section):
    """Dice read through GPIO inputs (one pin per signal, as the dice driver defines)."""

    pins: tuple[int, ...] = ()
    pull_up: bool = True
    settle_s: float = Field(default=0.25, ge=0, le=5)

    @field_validator("pins")
    @classmethod
    def _pins_on_header(cls, pins: tuple[int, ...]) -> tuple[int, ...]:
        for pin in pins:
            _check_pin(pin)
        if len(set(pins)) != len(pins):
            raise ValueError("a GPIO pin is listed twice")
        return pins


class DiceConfig(Section):
    source: DiceSource = "auto"
    serial: SerialDiceConfig = SerialDiceConfig()
    gpio: GpioDiceConfig = GpioDiceConfig()


class ButtonsConfig(Section):
    """Physical buttons (name → GPIO, wired to ground) and an optional buzzer."""

    source: ButtonSource = "auto"
    pins: dict[str, int] = Field(default_factory=lambda: {"confirm": 5, "undo": 6, "next": 16})
    hold_s: float = Field(default=1.0, gt=0, le=10, description="a long press after this")
    bounce_s: float = Field(default=0.05, ge=0, le=1)
    buzzer_pin: int | None = 26

    @field_validator("pins")
    @classmethod
    def _pins_on_header(cls, pins: dict[str, int]) -> dict[str, int]:
        seen: dict[int, str] = {}
        for name, pin in pins.items():
            _check_pin(pin)
            if pin in seen:
                raise ValueError(f'buttons "{seen[pin]}" and "{name}" share GPIO{pin}')
            seen[pin] = name
        return pins

    @field_validator("buzzer_pin")
    @classmethod
    def _buzzer_on_header(cls, pin: int | None) -> int | None:
        return None if pin is None else _check_pin(pin)


class LedsConfig(Section):
    """The LED strip under the board and how hard it may be driven."""

    driver: LedDriver = "auto"
    count: int = Field(default=121, ge=1, le=4096, description="LEDs on the strip")
    gpio_pin: int = Field(default=18, description="ws281x data pin (PWM GPIO18 by default)")
    dma_channel: int = Field(default=10, ge=0, le=14)
    spi_bus: int = Field(default=0, ge=0, le=6)
    spi_device: int = Field(default=0, ge=0, le=3)
    spi_hz: int = Field(default=6_400_000, ge=2_400_000, le=8_000_000)
    colour_order: ColourOrder = "GRB"
    layout: Path | None = Field(
        default=None, description="layout JSON; relative to this file; none = Kolossus 11×11"
    )
    brightness: float = Field(default=0.5, ge=0, le=1)
    power_budget_ma: int = Field(default=2000, ge=0, description="0 switches the limiter off")
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


class KioskConfig(BaseModel):
    """The screen side (placeholder: the kiosk defines its settings; unknown keys are kept)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    fullscreen: bool = True
    rotation: Literal[0, 90, 180, 270] = 0


class CompanionConfig(Section):
    data_dir: Path = Field(default_factory=default_data_dir)
    dice: DiceConfig = DiceConfig()
    buttons: ButtonsConfig = ButtonsConfig()
    leds: LedsConfig = LedsConfig()
    kiosk: KioskConfig = KioskConfig()

    @model_validator(mode="after")
    def _no_shared_pins(self) -> CompanionConfig:
        used: dict[int, str] = {}

        def claim(pin: int, user: str) -> None:
            if pin in used:
                raise ValueError(f"GPIO{pin} is used twice: by {used[pin]} and by {user}")
            used[pin] = user

        if self.leds.driver in ("ws281x", "auto"):
            claim(self.leds.gpio_pin, "the LED strip")
        elif self.leds.driver == "spi" and self.leds.spi_bus == 0:
            claim(10, "the LED strip (SPI MOSI)")
        if self.buttons.source in ("gpio", "auto"):
            for name, pin in self.buttons.pins.items():
                claim(pin, f'button "{name}"')
            if self.buttons.buzzer_pin is not None:
                claim(self.buttons.buzzer_pin, "the buzzer")
        if self.dice.source in ("gpio", "auto"):
            for pin in self.dice.gpio.pins:
                claim(pin, "the GPIO dice")
        return self

    def resolved(self, platform: Platform) -> CompanionConfig:
        """Replace every ``"auto"`` by the real device on a Pi and the simulation elsewhere."""
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
        return self.model_copy(
            update={
                "leds": self.leds.model_copy(update={"driver": led_driver}),
                "dice": self.dice.model_copy(update={"source": dice_source}),
                "buttons": self.buttons.model_copy(update={"source": button_source}),
            }
        )

    def simulated(self) -> CompanionConfig:
        """The same settings with every device replaced by its simulated twin."""
        return self.model_copy(
            update={
                "leds": self.leds.model_copy(update={"driver": "sim"}),
                "dice": self.dice.model_copy(update={"source": "sim"}),
                "buttons": self.buttons.model_copy(update={"source": "sim"}),
            }
        )


@dataclass(frozen=True)
class ConfigProblem:
    """One thing wrong with the configuration, in words a builder can act on."""

    file: str
    where: str
    message: str

    def __str__(self) -> str:
        return (
            f"{self.file}, {self.where}: {self.message}"
            if self.where
            else f"{self.file}: {self.message}"
        )


@dataclass(frozen=True)
class LoadedConfig:
    """The configuration to run with, where it came from, and what was wrong with it."""

    config: CompanionConfig
    path: Path | None
    problems: tuple[ConfigProblem, ...] = ()
    forced_simulation: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def load_config(
    path: Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    platform: Platform | None = None,
) -> LoadedConfig:
    """Read, validate and resolve the configuration. Never raises for a bad file."""
    env = os.environ if environ is None else environ
    found_platform = platform if platform is not None else detect_platform()
    problems: list[ConfigProblem] = []
    explicit = path is not None or bool(env.get(ENV_CONFIG))
    chosen = path if path is not None else Path(env[ENV_CONFIG]) if env.get(ENV_CONFIG) else None
    chosen = (chosen or default_config_path()).expanduser()

    config: CompanionConfig | None = None
    used_path: Path | None = None
    if chosen.is_file():
        used_path = chosen
        config, file_problems = parse_config_file(chosen)
        problems.extend(file_problems)
    elif explicit:
        origin = f"(from {ENV_CONFIG})" if path is None else ""
        problems.append(
            ConfigProblem(
                str(chosen), "", f"the configuration file does not exist {origin}".strip()
            )
        )
    hardware = env.get(ENV_HARDWARE, "").strip().lower()
    if hardware not in ("", "sim", "auto"):
        problems.append(
            ConfigProblem(
                ENV_HARDWARE,
                "",
                f'"{hardware}" is not understood; use "sim" to simulate every device',
            )
        )
    if config is None:  # no file, or a broken one: the defaults
        config = CompanionConfig()
    # Any problem: start with simulated hardware so the app comes up and can show it.
    resolved = config.simulated() if problems else config.resolved(found_platform)
    forced = hardware == "sim"
    if forced:
        resolved = resolved.simulated()
    return LoadedConfig(resolved, used_path, tuple(problems), forced)


def parse_config_file(path: Path) -> tuple[CompanionConfig | None, list[ConfigProblem]]:
    """Parse and validate one file; relative paths in it are taken from its directory."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None, [ConfigProblem(str(path), "", "the file is not UTF-8 text")]
    except OSError as error:
        return None, [ConfigProblem(str(path), "", f"cannot read it ({error.strerror or error})")]
    return parse_config_text(text, source=str(path), base_dir=path.parent)


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def parse_config_text(
    text: str, source: str = "configuration", base_dir: Path | None = None
) -> tuple[CompanionConfig | None, list[ConfigProblem]]:
    """Validate TOML text. Returns the config (None if broken) and the problems found."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        position = _TOML_POSITION.search(message)
        where = f"line {position.group(1)}, column {position.group(2)}" if position else ""
        message = _TOML_POSITION.sub("", message)
        return None, [ConfigProblem(source, where, f"not valid TOML: {message}")]
    try:
        config = CompanionConfig.model_validate(data)
    except ValidationError as error:
        return None, [_validation_problem(source, text, item) for item in error.errors()]
    if base_dir is not None:
        config = _anchor_paths(config, base_dir)
    return config, []


def _anchor_paths(config: CompanionConfig, base_dir: Path) -> CompanionConfig:
    def anchor(path: Path) -> Path:
        path = path.expanduser()
        return path if path.is_absolute() else base_dir / path

    leds = config.leds
    if leds.layout is not None:
        leds = leds.model_copy(update={"layout": anchor(leds.layout)})
    return config.model_copy(update={"leds": leds, "data_dir": anchor(config.data_dir)})


def _validation_problem(source: str, text: str, item: Any) -> ConfigProblem:
    loc = tuple(str(part) for part in item["loc"])
    key = ".".join(loc) if loc else "the file"
    line = find_key_line(text, loc)
    where = f"line {line}, {key}" if line else key
    message = str(item["msg"]).removeprefix("Value error, ")
    if item["type"] == "extra_forbidden":
        message = "unknown setting (misspelt?)"
    elif item["type"] == "missing":
        message = "this setting is required"
    elif "input" in item and item["type"] not in ("model_type", "dict_type"):
        message = f"{message} (found {item['input']!r})"
    return ConfigProblem(source, where, message)


def find_key_line(text: str, loc: tuple[str, ...]) -> int | None:
    """The 1-based line where the TOML key at ``loc`` is set, or its table starts, if found."""
    table: tuple[str, ...] = ()
    table_line: dict[tuple[str, ...], int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        header = re.fullmatch(r"\[\s*([^\[\]]+?)\s*\]", line)
        if header:
            table = tuple(part.strip().strip('"') for part in header.group(1).split("."))
            table_line.setdefault(table, number)
            continue
        if "=" not in line:
            continue
        key = tuple(part.strip().strip('"') for part in line.split("=", 1)[0].split("."))
        full = table + key
        if full == loc[: len(full)] and full:
            return number
    for depth in range(len(loc), 0, -1):
        if loc[:depth] in table_line:
            return table_line[loc[:depth]]
    return None
