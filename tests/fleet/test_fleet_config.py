"""``[fleet]`` in companion.toml: a mistake names the key and costs only the fleet (the
devices still start as configured); the password never shows, in a problem or a bundle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.platform import Platform, PlatformFacts
from kiosk.fleet.report import make_publisher
from kiosk.settings import FleetConfig, LoadedConfig, load_config, parse_config_text
from kiosk.settings.findings import diagnose
from kiosk.support import config_texts

PI4 = Platform("Raspberry Pi 4 Model B Rev 1.4")
GOOD = '[fleet]\nenabled = true\nhost = "broker.lan"\ndevice_id = "table-3"\n'


def _load(tmp_path: Path, text: str) -> tuple[Path, LoadedConfig]:
    file = tmp_path / "companion.toml"
    file.write_text(text, encoding="utf-8")
    return file, load_config(file, environ={}, platform=PI4)


def test_the_default_is_off_and_a_good_section_is_read(tmp_path: Path) -> None:
    assert FleetConfig().enabled is False
    config, problems = parse_config_text(
        GOOD + 'tls = true\nca_file = "ca.pem"\n', base_dir=tmp_path
    )
    assert problems == [] and config is not None
    assert config.fleet.enabled and config.fleet.host == "broker.lan"
    assert config.fleet.ca_file == tmp_path / "ca.pem"  # relative to the file, like layouts


@pytest.mark.parametrize(
    ("lines", "key", "says"),
    [
        ("enabled = true\n", "fleet.enabled", "needs the broker's host"),
        ('host = "b"\nport = 0\n', "fleet.port", "greater than or equal to 1"),
        ('host = "b"\ndevice_id = "table/1"\n', "fleet.device_id", "one level of the topics"),
        # Home Assistant's discovery node id allows letters, digits, '_' and '-' only.
        ('host = "b"\ndevice_id = "table.1"\n', "fleet.device_id", "discovery node id"),
        ('topic_prefix = "shop/#"\n', "fleet.topic_prefix", "no '+', '#'"),
        ('ca_file = "ca.pem"\n', "fleet.ca_file", "only used with tls = true"),
        ("hots = 1\n", "fleet.hots", "unknown setting"),
        ("outbox_limit = 5\n", "fleet.outbox_limit", "greater than or equal to 10"),
    ],
)
def test_a_broken_fleet_section_names_the_key_and_keeps_the_devices(
    tmp_path: Path, lines: str, key: str, says: str
) -> None:
    file, loaded = _load(tmp_path, "[leds]\ncount = 60\n\n[fleet]\n" + lines)
    (problem,) = loaded.problems
    assert f", {key}:" in str(problem) and says in str(problem) and str(file) in str(problem)
    assert problem.hardware is False
    config = loaded.config
    assert config.fleet == FleetConfig()  # off: the table plays on without the fleet
    assert config.leds.count == 60  # the rest of the file is used
    assert config.dice.source == "serial" and config.leds.driver == "ws281x"  # not simulated


def test_a_hardware_mistake_still_simulates_the_devices_but_keeps_the_fleet(
    tmp_path: Path,
) -> None:
    _, loaded = _load(tmp_path, "[leds]\ncount = 0\n\n" + GOOD)
    config = loaded.config
    assert config.dice.source == "sim" and config.fleet.host == "broker.lan"


def test_a_password_of_the_wrong_type_is_refused_without_showing_it(tmp_path: Path) -> None:
    _, loaded = _load(tmp_path, GOOD + "password = 918273\n")
    (problem,) = loaded.problems
    assert "fleet.password" in str(problem) and "918273" not in str(problem)


def test_the_support_bundle_redacts_the_password(tmp_path: Path) -> None:
    _, loaded = _load(tmp_path, GOOD + 'username = "table-3"\npassword = "s3cret-pw"\n')
    texts = config_texts(loaded)
    assert all("s3cret-pw" not in text for text in texts.values())
    effective = json.loads(texts["config-effective.json"])
    assert effective["fleet"]["password"] == "<redacted>"
    assert effective["fleet"]["username"] == "table-3"  # a name, not a secret


def test_the_doctor_says_only_the_fleet_is_off(tmp_path: Path) -> None:
    _, broken = _load(tmp_path, "[fleet]\nenabled = true\n")
    said = [f.text for f in diagnose(broken, PlatformFacts(platform=PI4))]
    assert any("fleet.enabled" in m for m in said)
    assert any("fleet reporting is off" in m for m in said)
    assert not any("every device is simulated" in m for m in said)
    _, good = _load(tmp_path, GOOD)
    assert any("broker.lan:1883" in f.text for f in diagnose(good, PlatformFacts(platform=PI4)))


def test_a_ca_file_that_cannot_be_read_leaves_the_fleet_off_with_a_reason(
    tmp_path: Path,
) -> None:
    _, loaded = _load(tmp_path, GOOD + 'tls = true\nca_file = "missing-ca.pem"\n')
    assert loaded.problems == ()
    publisher, problem = make_publisher(loaded)
    assert publisher is None and problem is not None
    assert problem.startswith("Fleet reporting is off: [fleet] ca_file cannot be used")
    _, off = _load(tmp_path, "")
    assert make_publisher(off) == (None, None)
