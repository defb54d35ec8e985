"""The health message's machine facts say what the machine gives, and None where it
gives nothing (no thermal zone off a Pi, no journal yet): never an error."""

from __future__ import annotations

from pathlib import Path

from kiosk.fleet.machine_facts import cpu_temp_c, disk_free_mb, load_1m


def test_the_cpu_temperature_is_read_in_degrees_from_the_thermal_zone(tmp_path: Path) -> None:
    zone = tmp_path / "temp"
    zone.write_text("48312\n")
    assert cpu_temp_c(zone) == 48.3


def test_a_missing_or_garbled_thermal_zone_gives_no_temperature(tmp_path: Path) -> None:
    assert cpu_temp_c(tmp_path / "absent") is None
    garbled = tmp_path / "temp"
    garbled.write_text("warm\n")
    assert cpu_temp_c(garbled) is None


def test_disk_space_is_measured_beside_the_journal(tmp_path: Path) -> None:
    free = disk_free_mb(tmp_path / "companion.sqlite3")
    assert free is not None and free >= 0
    assert disk_free_mb(None) is None
    assert disk_free_mb(tmp_path / "no" / "such" / "dir" / "journal") is None


def test_the_load_average_is_a_number_or_none() -> None:
    load = load_1m()
    assert load is None or load >= 0
