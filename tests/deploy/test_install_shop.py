"""deploy/install-pi for a shop kiosk: locked with an admin PIN, no console way out, the
dice tray pinned, the fleet's network allowed only with [fleet] on, Kivy's config read-only.

Staged into a temporary root (``--root``) as in test_install_pi.py.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from kiosk.admin import PinStore
from kiosk.settings import parse_config_file
from tests.helpers.install_pi import PI4, install, make_pi_root, make_source, stage

ETC = "etc/colossus-companion"
DATA = "var/lib/colossus-companion"
DROPINS = "etc/systemd/system/colossus-companion.service.d"


def test_demo_locks_the_kiosk_and_sets_the_pin(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    result = stage(source, root, "--demo", "--pin", "2468")
    config, problems = parse_config_file(root / ETC / "companion.toml")
    assert problems == [] and config is not None and config.kiosk.locked is True
    admin = root / DATA / "admin.json"
    assert stat.S_IMODE(admin.stat().st_mode) == 0o600
    assert PinStore(root / DATA).verify("2468").ok
    assert "2468" not in admin.read_text(encoding="utf-8")
    assert "Staff recovery code: " in result.stdout


def test_demo_turns_off_the_console_login_switching_and_sysrq(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    result = stage(source, root, "--demo", "--pin", "2468")
    logind = (root / "etc/systemd/logind.conf.d/50-colossus-kiosk.conf").read_text("utf-8")
    assert "NAutoVTs=0" in logind and "ReserveVT=0" in logind
    sysctl = (root / "etc/sysctl.d/50-colossus-kiosk.conf").read_text("utf-8")
    assert "kernel.sysrq = 0" in sysctl
    assert "systemctl mask --now getty@tty1.service" in result.stdout
    stage(source, root, "--no-demo")  # a kiosk at home gets its console back
    assert not (root / "etc/systemd/logind.conf.d/50-colossus-kiosk.conf").exists()
    assert not (root / "etc/sysctl.d/50-colossus-kiosk.conf").exists()
    config, _ = parse_config_file(root / ETC / "companion.toml")
    assert config is not None and config.kiosk.locked is False


@pytest.mark.parametrize("pin", ["1234", "0000", "1111", "1212"])
def test_an_easy_pin_is_refused(tmp_path: Path, pin: str) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    result = install(
        "--source",
        str(source),
        "--root",
        str(root),
        "--python",
        _python(),
        "--demo",
        "--pin",
        pin,
    )
    assert result.returncode != 0
    assert "the admin PIN was refused" in result.stderr
    assert not (root / DATA / "admin.json").exists()


def test_a_pin_that_is_not_4_to_8_digits_is_refused_before_anything(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    result = install("--source", str(source), "--root", str(root), "--pin", "12a")
    assert result.returncode != 0 and "--pin takes 4 to 8 digits" in result.stderr
    assert not (root / "etc").exists()


def _python() -> str:
    import sys

    return sys.executable


def _pico(root: Path, name: str, serial: str, product: str = "0005") -> None:
    device = root / "sys/bus/usb/devices" / name
    device.mkdir(parents=True)
    (device / "idVendor").write_text("2e8a\n", encoding="utf-8")
    (device / "idProduct").write_text(f"{product}\n", encoding="utf-8")
    (device / "serial").write_text(f"{serial}\n", encoding="utf-8")


def test_the_dice_tray_plugged_in_is_pinned_by_its_serial(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path, PI4)
    _pico(root, "1-1.2", "E6605838831B2A2F")
    _pico(root, "1-1.3", "OTHERBOARD", product="000a")  # another Pico, not MicroPython's
    stage(source, root)
    rule = (root / "etc/udev/rules.d/99-colossus-dice.rules").read_text(encoding="utf-8")
    assert 'ATTRS{serial}=="E6605838831B2A2F", SYMLINK+="dice-tray"' in rule
    config, _ = parse_config_file(root / ETC / "companion.toml")
    assert config is not None and config.dice.serial.serial_number == "E6605838831B2A2F"
    options = (root / ETC / "install-options").read_text(encoding="utf-8")
    assert "dice_serial=E6605838831B2A2F" in options


def test_two_picos_are_not_guessed_between(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path, PI4)
    _pico(root, "1-1.2", "AAAA1111")
    _pico(root, "1-1.3", "BBBB2222")
    result = stage(source, root)
    assert "2 Picos are plugged in" in result.stdout
    rule = (root / "etc/udev/rules.d/99-colossus-dice.rules").read_text(encoding="utf-8")
    assert "ATTRS{serial}==" not in rule
    stage(source, root, "--dice-serial", "BBBB2222")
    rule = (root / "etc/udev/rules.d/99-colossus-dice.rules").read_text(encoding="utf-8")
    assert 'ATTRS{serial}=="BBBB2222"' in rule


def test_the_fleet_dropin_follows_the_config(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root)
    dropin = root / DROPINS / "20-fleet-network.conf"
    assert not dropin.exists()
    config = root / ETC / "companion.toml"
    text = config.read_text(encoding="utf-8")
    on = text.replace("enabled = false              # a mistake", "enabled = true # a mistake", 1)
    on = on.replace('host = ""                    # the broker', 'host = "127.0.0.1" # the', 1)
    config.write_text(on, encoding="utf-8")
    loaded, problems = parse_config_file(config)
    assert problems == [] and loaded is not None and loaded.fleet.enabled
    stage(source, root)
    assert "IPAddressAllow=127.0.0.1" in dropin.read_text(encoding="utf-8")
    assert "AF_INET AF_INET6" in dropin.read_text(encoding="utf-8")
    config.write_text(text, encoding="utf-8")
    stage(source, root)
    assert not dropin.exists()


def test_kivys_config_is_not_the_services_to_write(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root)
    kivy = root / DATA / "kivy"
    assert stat.S_IMODE((kivy / "config.ini").stat().st_mode) == 0o640
    assert (kivy / "mods").is_dir() and (kivy / "icon").is_dir()  # Kivy creates none
    unit = (root / "etc/systemd/system/colossus-companion.service").read_text(encoding="utf-8")
    assert "ReadOnlyPaths=-/var/lib/colossus-companion/kivy" in unit


def test_the_admin_file_is_valid_json_the_app_reads(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root, "--demo", "--pin", "40719")
    data = json.loads((root / DATA / "admin.json").read_text(encoding="utf-8"))
    assert data["kdf"] == "scrypt" and data["recovery"] and data["recovery_salt"]
