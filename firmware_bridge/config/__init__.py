"""The table's devices in one TOML file; what is wrong with it, in words a builder acts on.

Where the file is: ``COMPANION_CONFIG`` (a path) if set, else ``companion.toml`` in the
user's config directory (platformdirs). Every setting has a default, so no file is
needed. ``"auto"`` (the default) for a driver or source means: the real hardware on a
detected Raspberry Pi, the simulated twin anywhere else. ``COMPANION_HARDWARE=sim``
forces every device to its simulated twin.

One way to configure each device: ``[dice.serial]``, ``[dice.gpio]`` and ``[buttons]``
*are* the drivers' own settings models (:class:`SerialDiceSettings`,
:class:`GpioDiceSettings`, :class:`ButtonSettings`), so a key means exactly what the
driver does with it. Which device runs is chosen only by ``source`` (``[dice] source``,
``[buttons] source``); the drivers' ``enabled`` flags follow from it when the
configuration is resolved and may not be set in the file. No GPIO may have two users:
the check asks every device in use for its ``used_pins()`` and adds the LED strip's
data pin (and its SPI bus).

:class:`HardwareConfig` is this layer's settings base (its sections in
:mod:`firmware_bridge.config.sections`, problems in :mod:`firmware_bridge.config.problems`);
the app extends it with its own settings and reads the file (:mod:`kiosk.settings`).
"""

from __future__ import annotations

from firmware_bridge.buttons import ButtonSettings
from firmware_bridge.config.problems import (
    ConfigProblem,
    find_key_line,
    source_switch_problems,
    toml_problem,
    validation_problem,
)
from firmware_bridge.config.sections import (
    APP_NAME,
    BOARD_PORT,
    CONFIG_KEY,
    ENV_CONFIG,
    ENV_HARDWARE,
    BoardConfig,
    ButtonsConfig,
    DiceConfig,
    HardwareConfig,
    LedsConfig,
    Section,
    default_config_path,
    pin_claims,
)
from firmware_bridge.dice.godice_source import GoDiceSettings
from firmware_bridge.dice.gpio_die import GpioDiceSettings
from firmware_bridge.dice.serial_tray import (
    PICO_MICROPYTHON_PID,
    PICO_USB_VID,
    SerialDiceSettings,
)

__all__ = [
    "APP_NAME",
    "BOARD_PORT",
    "CONFIG_KEY",
    "ENV_CONFIG",
    "ENV_HARDWARE",
    "PICO_MICROPYTHON_PID",
    "PICO_USB_VID",
    "BoardConfig",
    "ButtonSettings",
    "ButtonsConfig",
    "ConfigProblem",
    "DiceConfig",
    "GoDiceSettings",
    "GpioDiceSettings",
    "HardwareConfig",
    "LedsConfig",
    "Section",
    "SerialDiceSettings",
    "default_config_path",
    "find_key_line",
    "pin_claims",
    "source_switch_problems",
    "toml_problem",
    "validation_problem",
]
