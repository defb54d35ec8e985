"""``companion doctor``'s hardware part: look at the Pi and its devices, say what is wrong.

:func:`diagnose` is pure given its inputs (the devices' configuration and
:class:`~firmware_bridge.platform.PlatformFacts`), so every finding is tested with
invented machines. Each finding is ok, a warning (works, but not as well as it could)
or a problem (this part will not work), in plain words with what to do.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from firmware_bridge.config import ButtonSettings, HardwareConfig, SerialDiceSettings
from firmware_bridge.layout import LayoutError, LedLayout, load_layout
from firmware_bridge.leds.factory import layout_of
from firmware_bridge.leds.spi import DEFAULT_SPIDEV_BUFSIZ, encode_frame
from firmware_bridge.leds.ws281x import WS281X_PINS
from firmware_bridge.platform import PlatformFacts

#: WS2812: 30 µs per LED at 800 kHz, plus the latch (300 µs covers every WS2812 variant).
US_PER_LED = 30.0
LATCH_US = 300.0


class Severity(StrEnum):
    OK = "ok"
    WARNING = "warning"
    PROBLEM = "problem"


@dataclass(frozen=True)
class Finding:
    severity: Severity
    topic: str
    text: str

    def __str__(self) -> str:
        return f"[{self.severity.value}] {self.topic}: {self.text}"


def worst(findings: list[Finding]) -> Severity:
    """The most serious severity (for the exit code of the CLI)."""
    for severity in (Severity.PROBLEM, Severity.WARNING):
        if any(f.severity is severity for f in findings):
            return severity
    return Severity.OK


def diagnose(
    config: HardwareConfig,
    facts: PlatformFacts,
    *,
    layout_loader: Callable[[Path], LedLayout] = load_layout,
) -> list[Finding]:
    """Every finding about this machine and its devices, most basic first."""
    out: list[Finding] = []
    out.extend(_platform_findings(facts))
    out.extend(_led_findings(config, facts))
    out.extend(_layout_findings(config, layout_loader))
    out.extend(_power_findings(config))
    out.extend(_button_findings(config, facts))
    out.extend(_dice_findings(config, facts))
    out.extend(_board_findings(config, facts))
    return out


def _platform_findings(facts: PlatformFacts) -> list[Finding]:
    platform = facts.platform
    if not platform.is_raspberry_pi:
        return [
            Finding(
                Severity.OK,
                "machine",
                "Not a Raspberry Pi: dice, buttons and LEDs can only be simulated here.",
            )
        ]
    return [Finding(Severity.OK, "machine", f"{platform.describe()}.")]


def _in_group(facts: PlatformFacts, group: str) -> bool:
    return facts.is_root or group in facts.groups


def _led_findings(config: HardwareConfig, facts: PlatformFacts) -> list[Finding]:
    leds = config.leds
    platform = facts.platform
    topic = "LEDs"
    if leds.driver == "none":
        return [Finding(Severity.OK, topic, "The LED strip is switched off in the configuration.")]
    if leds.driver == "sim":
        if platform.is_raspberry_pi:
            return [
                Finding(
                    Severity.WARNING,
                    topic,
                    'This is a Raspberry Pi but the LEDs are simulated; set [leds] driver = "auto" '
                    "to light the real strip.",
                )
            ]
        return [Finding(Severity.OK, topic, f"{leds.count} LEDs are simulated.")]
    if not platform.is_raspberry_pi:
        return [
            Finding(
                Severity.PROBLEM,
                topic,
                f'The "{leds.driver}" driver needs a Raspberry Pi; set [leds] driver = "sim".',
            )
        ]
    if leds.driver == "ws281x":
        return _ws281x_findings(config, facts)
    return _spi_findings(config, facts)


def _ws281x_findings(config: HardwareConfig, facts: PlatformFacts) -> list[Finding]:
    leds = config.leds
    topic = "LEDs"
    platform = facts.platform
    if not platform.supports_ws281x:
        return [
            Finding(
                Severity.PROBLEM,
                topic,
                f"rpi_ws281x does not support the {platform.describe()}: set [leds] driver = "
                '"spi" and connect the data line to GPIO10 (SPI MOSI, header pin 19).',
            )
        ]
    out: list[Finding] = []
    if "rpi_ws281x" not in facts.installed:
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                "The rpi_ws281x package is missing: pip install 'colossus-companion[pi]'.",
            )
        )
    if leds.gpio_pin not in WS281X_PINS:
        usable = ", ".join(f"GPIO{pin}" for pin in sorted(WS281X_PINS))
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                f"rpi_ws281x cannot drive GPIO{leds.gpio_pin}; use one of {usable}.",
            )
        )
        return out
    method = WS281X_PINS[leds.gpio_pin][0]
    if method in ("PWM", "PCM") and not facts.is_root:
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                f"rpi_ws281x needs root for {method} on GPIO{leds.gpio_pin}: run the companion "
                "service as root, or use GPIO10 (SPI), which only needs the spi group.",
            )
        )
    if method == "PWM":
        audio = facts.boot_setting("audio")
        if audio is None or audio.lower() != "off":
            out.append(
                Finding(
                    Severity.WARNING,
                    topic,
                    "The onboard audio shares the PWM hardware with the LEDs and makes them "
                    f"flicker: put dtparam=audio=off in {facts.boot_config_path or 'config.txt'}.",
                )
            )
    if method == "SPI":
        out.extend(_spi_device_findings(config, facts, bus=0, device=0))
    out.append(
        Finding(
            Severity.OK,
            topic,
            f"rpi_ws281x on GPIO{leds.gpio_pin} ({method}), DMA channel {leds.dma_channel}, "
            f"{leds.count} LEDs.",
        )
    )
    return out


def _spi_device_findings(
    config: HardwareConfig, facts: PlatformFacts, *, bus: int, device: int
) -> list[Finding]:
    topic = "LEDs"
    out: list[Finding] = []
    node = f"/dev/spidev{bus}.{device}"
    if not facts.has_device(node):
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                f"{node} is missing: put dtparam=spi=on in "
                f"{facts.boot_config_path or '/boot/firmware/config.txt'} and reboot.",
            )
        )
    if not _in_group(facts, "spi"):
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                "This user may not use SPI: sudo adduser $USER spi, then log in again.",
            )
        )
    if facts.platform.generation in (3, 4):
        wanted = "500" if facts.platform.generation == 4 else "250"
        key = "core_freq_min" if facts.platform.generation == 4 else "core_freq"
        if facts.boot_setting(key) != wanted:
            out.append(
                Finding(
                    Severity.WARNING,
                    topic,
                    f"The SPI clock follows the core clock, which changes under load: put "
                    f"{key}={wanted} in {facts.boot_config_path or 'config.txt'} "
                    "so the LED timing stays right.",
                )
            )
    frame_bytes = len(encode_frame((), config.leds.colour_order)) + 24 * config.leds.count
    bufsiz = _spidev_bufsiz(facts)
    if frame_bytes > bufsiz:
        out.append(
            Finding(
                Severity.WARNING,
                topic,
                f"A frame is {frame_bytes} SPI bytes but the kernel sends at most {bufsiz} at "
                f"once; add spidev.bufsiz=65536 to cmdline.txt to avoid glitches.",
            )
        )
    return out


def _spidev_bufsiz(facts: PlatformFacts) -> int:
    for word in (facts.boot_cmdline or "").split():
        if word.startswith("spidev.bufsiz="):
            try:
                return int(word.split("=", 1)[1])
            except ValueError:
                break
    return DEFAULT_SPIDEV_BUFSIZ


def _spi_findings(config: HardwareConfig, facts: PlatformFacts) -> list[Finding]:
    leds = config.leds
    out: list[Finding] = []
    if "spidev" not in facts.installed:
        out.append(
            Finding(
                Severity.PROBLEM,
                "LEDs",
                "The spidev package is missing: pip install 'colossus-companion[pi]'.",
            )
        )
    out.extend(_spi_device_findings(config, facts, bus=leds.spi_bus, device=leds.spi_device))
    out.append(
        Finding(
            Severity.OK,
            "LEDs",
            f"SPI driver on /dev/spidev{leds.spi_bus}.{leds.spi_device} at "
            f"{leds.spi_hz / 1e6:.1f} MHz, {leds.count} LEDs.",
        )
    )
    return out


def _layout_findings(config: HardwareConfig, loader: Callable[[Path], LedLayout]) -> list[Finding]:
    leds = config.leds
    if leds.driver == "none":
        return []
    try:
        layout = loader(leds.layout) if leds.layout is not None else layout_of(leds)
    except LayoutError as error:
        return [Finding(Severity.PROBLEM, "layout", str(error))]
    out: list[Finding] = []
    if layout.led_count > leds.count:
        out.append(
            Finding(
                Severity.PROBLEM,
                "layout",
                f"The layout uses {layout.led_count} LEDs but [leds] count is {leds.count}: "
                "raise the count or fix the layout.",
            )
        )
    elif leds.count > layout.led_count:
        out.append(
            Finding(
                Severity.WARNING,
                "layout",
                f"The strip has {leds.count} LEDs but the layout only uses {layout.led_count}; "
                "the others stay dark.",
            )
        )
    source = str(leds.layout) if leds.layout is not None else "built in"
    out.append(
        Finding(
            Severity.OK,
            "layout",
            f"{layout.name} ({source}): {len(layout.cells)} cells on {layout.led_count} LEDs.",
        )
    )
    return out


def _power_findings(config: HardwareConfig) -> list[Finding]:
    leds = config.leds
    if leds.driver == "none":
        return []
    out: list[Finding] = []
    full_white_ma = leds.count * leds.ma_per_led
    idle_ma = leds.count * leds.idle_ma_per_led
    if leds.power_budget_ma == 0:
        out.append(
            Finding(
                Severity.WARNING,
                "power",
                f"The power limiter is off: {leds.count} LEDs at full white draw about "
                f"{full_white_ma / 1000:.1f} A. Set power_budget_ma to what your 5 V supply "
                "can give the LEDs.",
            )
        )
    elif leds.power_budget_ma <= idle_ma:
        out.append(
            Finding(
                Severity.PROBLEM,
                "power",
                f"A budget of {leds.power_budget_ma} mA is below the {idle_ma:.0f} mA the "
                f"{leds.count} LEDs draw while dark: every frame would be black.",
            )
        )
    else:
        share = min(1.0, (leds.power_budget_ma - idle_ma) / (full_white_ma))
        out.append(
            Finding(
                Severity.OK,
                "power",
                f"Budget {leds.power_budget_ma} mA: up to {share:.0%} of full white on all "
                f"{leds.count} LEDs (full white would need {full_white_ma / 1000:.1f} A); "
                f"brighter frames are dimmed. The LED supply should give at least "
                f"{leds.power_budget_ma * 1.2 / 1000:.1f} A.",
            )
        )
    max_fps = 1e6 / (leds.count * US_PER_LED + LATCH_US)
    if leds.frame_rate > max_fps:
        out.append(
            Finding(
                Severity.WARNING,
                "LEDs",
                f"{leds.count} LEDs take {1000 / max_fps:.1f} ms per frame, so at most "
                f"{max_fps:.0f} frames a second; frame_rate {leds.frame_rate:g} is too high.",
            )
        )
    return out


def _button_findings(config: HardwareConfig, facts: PlatformFacts) -> list[Finding]:
    buttons = config.buttons
    if buttons.source in ("sim", "none"):
        return [Finding(Severity.OK, "buttons", f"Buttons: {buttons.source}.")]
    out = _gpio_findings(facts, "buttons")
    out.append(Finding(Severity.OK, "buttons", f"Button pins: {describe_button_pins(buttons)}."))
    return out


def describe_button_pins(buttons: ButtonSettings) -> str:
    """The fitted buttons and roll feedback with their GPIOs, as the builder wired them."""
    parts = [
        f"{name} GPIO{pin}"
        for name, pin in (
            ("confirm", buttons.confirm_pin),
            ("undo (hold = redo)", buttons.undo_pin),
            ("end turn", buttons.end_turn_pin),
            ("menu (hold = admin)", buttons.menu_pin),
        )
        if pin is not None
    ]
    parts.extend(f"roll GPIO{pin}" for pin in buttons.roll_pins)
    if buttons.feedback_led_pin is not None:
        parts.append(f"roll LED GPIO{buttons.feedback_led_pin}")
    if buttons.buzzer_pin is not None:
        parts.append(f"buzzer GPIO{buttons.buzzer_pin}")
    return ", ".join(parts) if parts else "none fitted"


def _gpio_findings(facts: PlatformFacts, topic: str) -> list[Finding]:
    if not facts.platform.is_raspberry_pi:
        return [Finding(Severity.PROBLEM, topic, 'GPIO needs a Raspberry Pi; use source = "sim".')]
    out: list[Finding] = []
    if not facts.devices_like("gpiochip"):
        out.append(Finding(Severity.PROBLEM, topic, "No /dev/gpiochip* device: GPIO is unusable."))
    if not _in_group(facts, "gpio"):
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                "This user may not use GPIO: sudo adduser $USER gpio, then log in again.",
            )
        )
    if facts.platform.generation == 5 and "lgpio" not in facts.installed:
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                "The Pi 5 needs the lgpio package for gpiozero: pip install "
                "'colossus-companion[pi]'.",
            )
        )
    if not out:
        out.append(Finding(Severity.OK, topic, "GPIO is available."))
    return out


def _dice_findings(config: HardwareConfig, facts: PlatformFacts) -> list[Finding]:
    dice = config.dice
    topic = "dice"
    if dice.source in ("sim", "none"):
        return [Finding(Severity.OK, topic, f"Dice: {dice.source} (rolls on the screen).")]
    if dice.source == "gpio":
        die = dice.gpio
        out = _gpio_findings(facts, topic)
        data = ", ".join(f"GPIO{pin}" for pin in die.data_pins)
        out.append(
            Finding(
                Severity.OK,
                topic,
                f'GPIO die "{die.device}" (d{die.faces}): face bits on {data} (LSB first), '
                f"strobe on GPIO{die.strobe_pin}.",
            )
        )
        return out
    return _serial_tray_findings(dice.serial, facts) + _dialout_findings(facts)


def _board_findings(config: HardwareConfig, facts: PlatformFacts) -> list[Finding]:
    """The sensing board (hardware.md "Sensing board"): nothing to say without one."""
    board = config.board
    topic = "board"
    if board.source == "none":
        return []
    if board.source == "sim":
        return [
            Finding(
                Severity.OK,
                topic,
                "Sensing board: simulated (on the board view a long press lifts a"
                " miniature, a tap puts it down).",
            )
        ]
    if board.source == "tray":
        return [
            Finding(
                Severity.OK,
                topic,
                "Sensing board: read by the dice tray's Pico (BOARD_SIZE set in its main.py).",
            )
        ]
    port = board.serial.port
    if port and facts.has_device(port):
        found = Finding(Severity.OK, topic, f"Sensing board port {port} is present.")
    else:
        found = Finding(
            Severity.WARNING,
            topic,
            f"{port or 'The sensing board port'} is not present: plug the board's Pico in"
            ' and install its udev rule (hardware.md, "Sensing board"). Moves are entered'
            " by touch meanwhile.",
        )
    if config.dice.source == "serial":
        return [found]  # the dice already said whether serial ports may be opened
    return [found, *_dialout_findings(facts, topic)]


def _serial_tray_findings(serial: SerialDiceSettings, facts: PlatformFacts) -> list[Finding]:
    """Where the reader will find the tray: the stable path first, then the USB IDs."""
    topic = "dice"
    ids = f"USB {serial.usb_vid:04x}:{serial.usb_pid:04x}"
    if serial.serial_number:
        ids += f", serial number {serial.serial_number}"
    ports = {port.device for port in facts.serial_ports}
    if serial.port and (serial.port in ports or facts.has_device(serial.port)):
        return [Finding(Severity.OK, topic, f"Dice tray port {serial.port} is present.")]
    matching = [
        p.device for p in facts.serial_ports if p.vid == serial.usb_vid and p.pid == serial.usb_pid
    ]
    if matching:
        text = f"Dice tray ({ids}) found on {', '.join(matching)}."
        if serial.serial_number:
            text += " Its serial number is checked when the companion connects."
        if serial.port:
            text += (
                f" {serial.port} does not exist: install the udev rule from hardware.md "
                "for a stable name."
            )
        return [Finding(Severity.OK, topic, text)]
    seen = ", ".join(sorted(ports)) or "none"
    where = f"{serial.port} is not present and no" if serial.port else "No"
    return [
        Finding(
            Severity.WARNING,
            topic,
            f"{where} dice tray ({ids}) is plugged in; serial ports seen: {seen}. "
            "Rolls can still be entered on the screen.",
        )
    ]


def _dialout_findings(facts: PlatformFacts, topic: str = "dice") -> list[Finding]:
    if _in_group(facts, "dialout"):
        return []
    return [
        Finding(
            Severity.PROBLEM,
            topic,
            "This user may not open serial ports: sudo adduser $USER dialout, then log in again.",
        )
    ]


def with_configured_port(facts: PlatformFacts, config: HardwareConfig) -> PlatformFacts:
    """Add the tray's configured path (e.g. the udev link) if it exists on this machine.

    ``gather_facts`` only lists the usual device names; a udev symlink such as
    ``/dev/dice-tray`` or a ``/dev/serial/by-id/...`` path is looked up here.
    """
    ports = {
        port
        for port, used in (
            (config.dice.serial.port, config.dice.source == "serial"),
            (config.board.serial.port, config.board.source == "serial"),
        )
        if used and port and os.path.exists(port)
    }
    if not ports:
        return facts
    return replace(facts, devices=facts.devices | ports)
