"""One TOML file configures the hardware side; a broken file never stops the app.

Where the file is: ``COMPANION_CONFIG`` (a path) if set, else ``companion.toml`` in the
user's config directory (platformdirs). Every setting has a default, so no file is
needed. ``"auto"`` (the default) for a driver or source means: the real hardware on a
detected Raspberry Pi, the simulated twin anywhere else. ``COMPANION_HARDWARE=sim``
forces every device to its simulated twin.

:func:`load_config` never raises for a bad file: it returns simulated defaults plus a
list of problems, each naming the file, the line and key, and what is wrong, so the
kiosk can start and show the problem on screen.

One way to configure each device: ``[dice.serial]``, ``[dice.gpio]`` and ``[buttons]``
*are* the drivers' own settings models (:class:`SerialDiceSettings`,
:class:`GpioDiceSettings`, :class:`ButtonSettings`), so a key means exactly what the
driver does with it. Which device runs is chosen only by ``source`` (``[dice] source``,
``[buttons] source``); the drivers' ``enabled`` flags follow from it when the
configuration is resolved and may not be set in the file. No GPIO may have two users:
the check asks every device in use for its ``used_pins()`` and adds the LED strip's
data pin (and its SPI bus).

The section models are in :mod:`firmware_bridge.config.sections`, reading the file in
:mod:`firmware_bridge.config.loading`; both are imported from here.
"""

from __future__ import annotations

from firmware_bridge.buttons import ButtonSettings
from firmware_bridge.config.loading import (
    ConfigProblem,
    LoadedConfig,
    find_key_line,
    load_config,
    parse_config_file,
    parse_config_text,
)
from firmware_bridge.config.sections import (
    BOARD_PORT,
    ENV_CONFIG,
    ENV_HARDWARE,
    BoardConfig,
    ButtonsConfig,
    CompanionConfig,
    DiceConfig,
    FleetConfig,
    KioskConfig,
    LedsConfig,
    default_config_path,
    default_data_dir,
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
    "BOARD_PORT",
    "ENV_CONFIG",
    "ENV_HARDWARE",
    "PICO_MICROPYTHON_PID",
    "PICO_USB_VID",
    "BoardConfig",
    "ButtonSettings",
    "ButtonsConfig",
    "CompanionConfig",
    "ConfigProblem",
    "DiceConfig",
    "FleetConfig",
    "GoDiceSettings",
    "GpioDiceSettings",
    "KioskConfig",
    "LedsConfig",
    "LoadedConfig",
    "SerialDiceSettings",
    "default_config_path",
    "default_data_dir",
    "find_key_line",
    "load_config",
    "parse_config_file",
    "parse_config_text",
    "pin_claims",
]
