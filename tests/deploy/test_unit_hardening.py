"""The service unit allows what the config needs and no more (deploy/colossus-companion.service,
its drop-ins, deploy/unit_dropins.py).

The fleet case is checked on the unit's properties as systemd combines them (a unit file,
then its drop-ins in order; list settings add up, an empty assignment resets): with the
fleet drop-in the broker's address is allowed and AF_INET may be opened, without it no
Internet socket. ``systemd-analyze`` checks the same files where it is installed.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
UNIT = DEPLOY / "colossus-companion.service"
LIST_SETTINGS = {"RestrictAddressFamilies", "IPAddressAllow", "IPAddressDeny", "SystemCallFilter"}


def _dropins() -> ModuleType:
    spec = importlib.util.spec_from_file_location("unit_dropins", DEPLOY / "unit_dropins.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["unit_dropins"] = module
    spec.loader.exec_module(module)
    return module


unit_dropins = _dropins()


def properties(*texts: str) -> dict[str, list[str]]:
    """The [Service]/[Unit] settings of a unit and its drop-ins, combined as systemd does."""
    found: dict[str, list[str]] = {}
    for text in texts:
        for line in text.splitlines():
            line = line.strip()
            if not line or line.startswith(("#", ";", "[")):
                continue
            key, _, value = line.partition("=")
            key, value = key.strip(), value.strip()
            if key in LIST_SETTINGS:
                found[key] = [] if value == "" else [*found.get(key, []), *value.split()]
            else:
                found[key] = [value]
    return found


def families(props: dict[str, list[str]]) -> set[str]:
    return set(props.get("RestrictAddressFamilies", []))


def permits(props: dict[str, list[str]], address: str) -> bool:
    """systemd's IP rule: an address in IPAddressAllow passes, else one in IPAddressDeny
    is dropped ("any" = every address)."""
    ip = ipaddress.ip_address(address)

    def matches(entries: Sequence[str]) -> bool:
        for entry in entries:
            if entry == "any":
                return True
            if entry == "localhost":
                if ip.is_loopback:
                    return True
                continue
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        return False

    if matches(props.get("IPAddressAllow", [])):
        return True
    return not matches(props.get("IPAddressDeny", []))


FLEET_ON = {"fleet": {"enabled": True, "host": "broker.shop.lan", "port": 1883}}
RESOLV = "search shop.lan\nnameserver 192.168.1.1\nnameserver fe80::1%eth0\n"


def fake_resolver(host: str, port: int) -> list[str]:
    assert (host, port) == ("broker.shop.lan", 1883)
    return ["192.168.1.20", "fd00::20"]


def test_without_the_fleet_the_unit_opens_no_internet_socket() -> None:
    props = properties(UNIT.read_text(encoding="utf-8"))
    assert "AF_INET" not in families(props) and "AF_INET6" not in families(props)
    assert not permits(props, "192.168.1.20")
    assert unit_dropins.fleet_dropin({"fleet": {"enabled": False}}, RESOLV) == ""


def test_with_the_fleet_on_the_broker_and_dns_are_allowed_and_nothing_else() -> None:
    dropin = unit_dropins.fleet_dropin(FLEET_ON, RESOLV, fake_resolver)
    props = properties(UNIT.read_text(encoding="utf-8"), dropin)
    assert {"AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK"} <= families(props)
    assert permits(props, "192.168.1.20") and permits(props, "fd00::20")  # the broker
    assert permits(props, "192.168.1.1") and permits(props, "fe80::1")  # DNS
    assert not permits(props, "192.168.1.21") and not permits(props, "8.8.8.8")


def test_a_broker_on_this_machine_resolves_for_real() -> None:
    config = {"fleet": {"enabled": True, "host": "127.0.0.1", "port": 1883}}
    props = properties(UNIT.read_text(encoding="utf-8"), unit_dropins.fleet_dropin(config, ""))
    assert permits(props, "127.0.0.1") and "AF_INET" in families(props)


@pytest.mark.parametrize(
    ("fleet", "message"),
    [
        ({"enabled": True, "host": ""}, "host is empty"),
        ({"enabled": True, "host": "no-such-host.invalid"}, "does not resolve"),
        ({"enabled": True, "host": "x", "port": "1883"}, "port must be a number"),
    ],
)
def test_a_fleet_that_cannot_be_allowed_is_named(fleet: dict[str, object], message: str) -> None:
    with pytest.raises(unit_dropins.DropinError, match=message):
        unit_dropins.fleet_dropin({"fleet": fleet}, "")


def test_the_script_reads_an_installed_config(tmp_path: Path) -> None:
    config = tmp_path / "companion.toml"
    config.write_text('[fleet]\nenabled = true\nhost = "127.0.0.1"\n', encoding="utf-8")
    resolv = tmp_path / "resolv.conf"
    resolv.write_text("nameserver 10.0.0.1\n", encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            str(DEPLOY / "unit_dropins.py"),
            "fleet",
            "--config",
            str(config),
            "--resolv",
            str(resolv),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "IPAddressAllow=127.0.0.1\nIPAddressAllow=10.0.0.1\n" in result.stdout


def test_the_unit_has_the_kernel_and_process_protections() -> None:
    props = properties(UNIT.read_text(encoding="utf-8"))
    for key in (
        "ProtectKernelTunables",
        "ProtectKernelModules",
        "ProtectKernelLogs",
        "ProtectControlGroups",
        "ProtectHostname",
    ):
        assert props[key] == ["yes"], key
    assert props["ProtectProc"] == ["invisible"]
    assert props["CapabilityBoundingSet"] == [""]  # no capabilities as the companion user
    # ProtectClock's effect without its device allow-list (see the unit's comment).
    assert props["SystemCallFilter"][0] == "@system-service"
    assert "~@clock" in props["SystemCallFilter"]
    assert props["ReadOnlyPaths"] == ["-/var/lib/colossus-companion/kivy"]


def test_the_pwm_dropin_gives_root_raw_io_only() -> None:
    props = properties(
        UNIT.read_text(encoding="utf-8"), (DEPLOY / "10-ws281x-root.conf").read_text("utf-8")
    )
    assert props["User"] == ["root"]
    assert props["CapabilityBoundingSet"] == ["CAP_SYS_RAWIO"]
    assert props["NoNewPrivileges"] == ["yes"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is missing")
@pytest.mark.parametrize("extra", ["", "fleet", "pwm"])
def test_systemd_analyze_verifies_the_unit_with_its_dropins(tmp_path: Path, extra: str) -> None:
    text = UNIT.read_text(encoding="utf-8").replace(
        "ExecStart=/opt/colossus-companion/venv/bin/companion", f"ExecStart={shutil.which('true')}"
    )
    unit = tmp_path / UNIT.name
    unit.write_text(text, encoding="utf-8")
    dropins = tmp_path / f"{UNIT.name}.d"
    dropins.mkdir()
    if extra == "fleet":
        (dropins / "20-fleet-network.conf").write_text(
            unit_dropins.fleet_dropin(FLEET_ON, RESOLV, fake_resolver), encoding="utf-8"
        )
    elif extra == "pwm":
        shutil.copy2(DEPLOY / "10-ws281x-root.conf", dropins / "10-ws281x-root.conf")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr
