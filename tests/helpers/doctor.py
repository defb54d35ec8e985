"""A healthy Raspberry Pi as ``companion doctor`` sees it: the facts its checks read."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kiosk.doctor_facts import (
    INSTALLED_CONFIG,
    SERVICE_GROUPS,
    JournalHealth,
    KioskFacts,
    Mount,
    parse_input_devices,
)
from kiosk.storage import JOURNAL_FILE

GIB = 1024**3


# /proc/bus/input/devices of a Pi 4 with the official 7" panel (64-bit kernel) and a keyboard.
PI_INPUT_DEVICES = """\
I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="generic ft5x06 (79)"
P: Phys=
S: Sysfs=/devices/platform/i2c@0/i2c-10/10-0038/input/input4
U: Uniq=
H: Handlers=event4
B: PROP=2
B: EV=b
B: KEY=400 0 0 0 0 0
B: ABS=260800000000003

I: Bus=0003 Vendor=046d Product=c31c Version=0110
N: Name="Logitech USB Keyboard"
P: Phys=usb-0000:01:00.0-1.3/input0
H: Handlers=sysrq kbd leds event0
B: PROP=0
B: EV=120013
B: KEY=1000000000007 ff800000000007ff febeffdfffefffff fffffffffffffffe
"""


def facts(tmp_path: Path, **changes: object) -> KioskFacts:
    """A healthy installed Pi 4 kiosk; tests change one thing."""
    base = KioskFacts(
        data_dir=tmp_path,
        data_dir_exists=True,
        data_dir_is_dir=True,
        journal=JournalHealth(tmp_path / JOURNAL_FILE, True, 32768, True, ("ok",), 3),
        mount=Mount("/", "ext4", "/dev/mmcblk0p2"),
        free_bytes=20 * GIB,
        is_pi=True,
        dri_nodes=("/dev/dri/card0", "/dev/dri/card1"),
        input_devices=parse_input_devices(PI_INPUT_DEVICES, 64),
        service_user_groups=frozenset({"companion", *SERVICE_GROUPS}),
        system_groups=frozenset({"companion", *SERVICE_GROUPS}),
        config_path=INSTALLED_CONFIG,
        installed_config_exists=True,
    )
    return replace(base, **changes)  # type: ignore[arg-type]
