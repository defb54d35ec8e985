"""What machine are we on? Raspberry Pi detection and the facts ``doctor`` inspects.

Everything reads below a ``root`` directory (``/`` in production, a temporary tree in
tests), so tests can pretend to be a Pi 4 or a Pi 5 without one. Nothing here imports a
hardware library; installed libraries are only looked up.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

MODEL_FILE = "proc/device-tree/model"
BOOT_CONFIG_FILES = ("boot/firmware/config.txt", "boot/config.txt")
BOOT_CMDLINE_FILES = ("boot/firmware/cmdline.txt", "boot/cmdline.txt")
DEVICE_PATTERNS = ("spidev*", "gpiochip*", "ttyACM*", "ttyUSB*", "serial0", "ttyAMA*")
HARDWARE_LIBRARIES = ("rpi_ws281x", "spidev", "lgpio", "serial", "gpiozero")


@dataclass(frozen=True)
class Platform:
    """The board model as the firmware reports it (``None`` off a Pi)."""

    model: str | None = None

    @property
    def is_raspberry_pi(self) -> bool:
        return self.model is not None and self.model.startswith("Raspberry Pi")

    @property
    def generation(self) -> int | None:
        """The SoC family: 1 (Pi 1, Zero), 2, 3 (also Zero 2), 4 (also 400, CM4), 5 (also 500)."""
        return pi_generation(self.model) if self.model else None

    @property
    def supports_ws281x(self) -> bool:
        """rpi_ws281x drives PWM/PCM/SPI on Pi 1–4 and Zero; the Pi 5's RP1 is not supported."""
        return self.generation is not None and self.generation <= 4

    def describe(self) -> str:
        return self.model if self.model else "not a Raspberry Pi"


def pi_generation(model: str) -> int | None:
    """Parse ``/proc/device-tree/model`` text into the SoC generation, or None."""
    text = model.strip().lower()
    if not text.startswith("raspberry pi"):
        return None
    if "zero 2" in text:
        return 3
    if "zero" in text:
        return 1
    found = re.match(r"raspberry pi (?:compute module )?(\d)", text)
    if found:
        return int(found.group(1))
    return 1  # "Raspberry Pi Model B", "Raspberry Pi Compute Module": the first generation


def read_model(root: Path = Path("/")) -> str | None:
    """The device-tree model string (it ends in a NUL byte), or None when absent."""
    try:
        raw = (root / MODEL_FILE).read_bytes()
    except OSError:
        return None
    text = raw.decode("utf-8", errors="replace").strip("\x00").strip()
    return text or None


def detect_platform(root: Path = Path("/")) -> Platform:
    return Platform(model=read_model(root))


@dataclass(frozen=True)
class SerialPort:
    """A serial device and, when known, its USB vendor and product IDs."""

    device: str
    vid: int | None = None
    pid: int | None = None
    description: str = ""


@dataclass(frozen=True)
class PlatformFacts:
    """Everything ``doctor`` needs to know about the machine, gathered in one place."""

    platform: Platform = field(default_factory=Platform)
    devices: frozenset[str] = frozenset()
    serial_ports: tuple[SerialPort, ...] = ()
    groups: frozenset[str] = frozenset()
    is_root: bool = False
    boot_config: str | None = None
    boot_config_path: str | None = None
    boot_cmdline: str | None = None
    installed: frozenset[str] = frozenset()

    def has_device(self, name: str) -> bool:
        return name in self.devices or f"/dev/{name}" in self.devices

    def devices_like(self, prefix: str) -> tuple[str, ...]:
        return tuple(sorted(d for d in self.devices if Path(d).name.startswith(prefix)))

    def boot_setting(self, key: str) -> str | None:
        """The last ``key=value`` (or ``dtparam=key=value``) in config.txt, or None."""
        if not self.boot_config:
            return None
        value: str | None = None
        for line in self.boot_config.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("dtparam="):
                for part in line[len("dtparam=") :].split(","):
                    name, _, setting = part.partition("=")
                    if name.strip() == key:
                        value = setting.strip() or "on"
            else:
                name, _, setting = line.partition("=")
                if name.strip() == key:
                    value = setting.strip()
        return value


def _first_text(root: Path, candidates: Iterable[str]) -> tuple[str | None, str | None]:
    for relative in candidates:
        path = root / relative
        try:
            return path.read_text(encoding="utf-8", errors="replace"), "/" + relative
        except OSError:
            continue
    return None, None


def _current_groups() -> frozenset[str]:
    try:
        import grp
    except ImportError:  # not on a Unix system
        return frozenset()
    names = set()
    for gid in os.getgroups():
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    return frozenset(names)


def _usb_serial_ports() -> tuple[SerialPort, ...]:
    try:
        from serial.tools import list_ports
    except ImportError:
        return ()
    return tuple(
        SerialPort(device=p.device, vid=p.vid, pid=p.pid, description=p.description or "")
        for p in list_ports.comports()
    )


def gather_facts(root: Path = Path("/")) -> PlatformFacts:
    """Look at the machine below ``root``. Only the real root asks the OS for groups and USB IDs."""
    dev = root / "dev"
    devices: set[str] = set()
    for pattern in DEVICE_PATTERNS:
        devices.update("/dev/" + p.name for p in dev.glob(pattern))
    boot_config, boot_config_path = _first_text(root, BOOT_CONFIG_FILES)
    boot_cmdline, _ = _first_text(root, BOOT_CMDLINE_FILES)
    real = root == Path("/")
    ports = _usb_serial_ports() if real else ()
    if not ports:
        ports = tuple(
            SerialPort(device=d) for d in sorted(devices) if "ttyACM" in d or "ttyUSB" in d
        )
    return PlatformFacts(
        platform=detect_platform(root),
        devices=frozenset(devices),
        serial_ports=ports,
        groups=_current_groups() if real else frozenset(),
        is_root=real and hasattr(os, "geteuid") and os.geteuid() == 0,
        boot_config=boot_config,
        boot_config_path=boot_config_path,
        boot_cmdline=boot_cmdline,
        installed=frozenset(
            name for name in HARDWARE_LIBRARIES if importlib.util.find_spec(name) is not None
        ),
    )
