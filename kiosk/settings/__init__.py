"""The app's settings: the table's devices (:mod:`firmware_bridge.config`) plus the
screen, the shop's broker and the data folder, read from one ``companion.toml``.

:func:`load_config` never raises for a bad file: it returns simulated defaults plus a
list of problems, each naming the file, the line and key, and what is wrong, so the
kiosk can start and show the problem on screen.
"""

from __future__ import annotations

from kiosk.settings.loading import (
    LoadedConfig,
    load_config,
    parse_config_file,
    parse_config_text,
    salvage_config,
)
from kiosk.settings.sections import (
    DEVICE_ID,
    CompanionConfig,
    FleetConfig,
    KioskBoot,
    KioskConfig,
    default_data_dir,
)

__all__ = [
    "DEVICE_ID",
    "CompanionConfig",
    "FleetConfig",
    "KioskBoot",
    "KioskConfig",
    "LoadedConfig",
    "default_data_dir",
    "load_config",
    "parse_config_file",
    "parse_config_text",
    "salvage_config",
]
