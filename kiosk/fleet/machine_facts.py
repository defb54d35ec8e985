"""Facts about the machine the health message carries: disk, load, temperature.

Each is ``None`` where the machine cannot tell (no journal, no load average, no thermal
zone): a health message says what it knows and never fails for a fact it lacks.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path


def disk_free_mb(path: Path | None) -> float | None:
    """Megabytes free beside the journal (none without a journal or when unreadable)."""
    if path is None:
        return None
    try:
        return round(shutil.disk_usage(path.parent).free / 1e6, 1)
    except OSError:
        return None


def load_1m() -> float | None:
    """The one-minute load average (none where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def cpu_temp_c(zone: Path = Path("/sys/class/thermal/thermal_zone0/temp")) -> float | None:
    """The CPU temperature in °C from the kernel's thermal zone (none off a Pi)."""
    try:
        return round(int(zone.read_text().strip()) / 1000, 1)
    except (OSError, ValueError):
        return None
