"""``companion doctor``'s kiosk checks: storage, journal, display, touch, the service user."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.journal import Journal
from companion.session import Session
from firmware_bridge.doctor import Finding, Severity
from firmware_bridge.platform import Platform
from kiosk.cli import main
from kiosk.doctor_checks import diagnose_kiosk
from kiosk.doctor_facts import (
    InputDevice,
    Mount,
    gather_kiosk_facts,
    inspect_journal,
    mount_of,
    parse_bitmap,
    parse_input_devices,
    parse_mountinfo,
)
from kiosk.settings import CompanionConfig, LoadedConfig
from kiosk.storage import JOURNAL_FILE
from tests.helpers.doctor import GIB, PI_INPUT_DEVICES, facts

PI4 = Platform("Raspberry Pi 4 Model B Rev 1.4")


SINGLE_TOUCH = """\
N: Name="ADS7846 Touchscreen"
H: Handlers=mouse0 event1
B: KEY=400 0 0 0 0 0
B: ABS=1000003
"""

MOUNTINFO = """\
22 1 179:2 / / rw,noatime shared:1 - ext4 /dev/mmcblk0p2 rw
25 22 0:23 / /run rw,nosuid shared:5 - tmpfs tmpfs rw,size=388092k
30 22 179:3 / /var/lib/colossus\\040data rw,noatime shared:9 - ext4 /dev/sda1 rw
31 22 0:40 / /tmp rw,nosuid shared:10 - tmpfs tmpfs rw
"""


def by_topic(findings: list[Finding], topic: str) -> list[Finding]:
    return [finding for finding in findings if finding.topic == topic]


def problems(findings: list[Finding]) -> str:
    return "\n".join(f.text for f in findings if f.severity is Severity.PROBLEM)


def test_a_healthy_kiosk_has_no_problem_or_warning(tmp_path: Path) -> None:
    findings = diagnose_kiosk(facts(tmp_path))
    assert all(f.severity is Severity.OK for f in findings), findings
    assert {f.topic for f in findings} == {
        "storage", "journal", "display", "touch", "service",
    }  # fmt: skip
    text = "\n".join(f.text for f in findings)
    assert 'Touchscreen "generic ft5x06 (79)" on /dev/input/event4' in text
    assert "3 games" in text and "integrity ok" in text and "WAL" in text


# --- storage ---------------------------------------------------------------------------


@pytest.mark.parametrize("fstype", ["tmpfs", "ramfs"])
def test_a_data_dir_in_ram_is_a_problem(tmp_path: Path, fstype: str) -> None:
    findings = diagnose_kiosk(facts(tmp_path, mount=Mount("/tmp", fstype, fstype)))
    assert "lost at power-off" in problems(by_topic(findings, "storage"))


def test_the_overlay_root_is_a_problem_on_a_pi_only(tmp_path: Path) -> None:
    overlay = Mount("/", "overlay", "overlayroot")
    assert "read-mostly" in problems(diagnose_kiosk(facts(tmp_path, mount=overlay)))
    elsewhere = diagnose_kiosk(facts(tmp_path, mount=overlay, is_pi=False))
    assert problems(by_topic(elsewhere, "storage")) == ""


@pytest.mark.parametrize(
    ("free", "severity"),
    [(10 * 1024**2, Severity.PROBLEM), (200 * 1024**2, Severity.WARNING), (GIB, Severity.OK)],
)
def test_free_space(tmp_path: Path, free: int, severity: Severity) -> None:
    findings = by_topic(diagnose_kiosk(facts(tmp_path, free_bytes=free)), "storage")
    assert any(f.severity is severity and "free" in f.text for f in findings), findings


def test_a_missing_data_dir_is_a_warning_on_a_pi_and_a_file_is_a_problem(tmp_path: Path) -> None:
    missing = diagnose_kiosk(facts(tmp_path, data_dir_exists=False, data_dir_is_dir=False))
    assert any(
        f.severity is Severity.WARNING and "does not exist yet" in f.text
        for f in by_topic(missing, "storage")
    )
    a_file = diagnose_kiosk(facts(tmp_path, data_dir_is_dir=False))
    assert "is a file, not a directory" in problems(a_file)


def test_mountinfo_finds_the_longest_mount_and_unescapes_spaces() -> None:
    mounts = parse_mountinfo(MOUNTINFO)
    assert mounts[2] == Mount("/var/lib/colossus data", "ext4", "/dev/sda1")
    assert mount_of(Path("/var/lib/colossus data/kivy"), mounts) == mounts[2]
    assert mount_of(Path("/var/lib/colossus"), mounts) == mounts[0]
    assert mount_of(Path("/tmp/x"), mounts) == mounts[3]
    assert mount_of(Path("/"), mounts) == mounts[0]


# --- journal ---------------------------------------------------------------------------


def _journal_with_a_game(path: Path) -> None:
    with Journal(path) as journal:
        session = Session.new("builders", ["Ann", "Bob"], seed=3, journal=journal)
        session.submit({"type": "draw"})


def test_a_sound_journal_passes_and_no_file_is_created_next_to_it(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    _journal_with_a_game(path)
    before = sorted(p.name for p in tmp_path.iterdir())
    health = inspect_journal(path)
    assert health.sound and health.wal is True and health.games == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no -wal/-shm left behind


def test_a_journal_that_is_not_sqlite_is_a_problem(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    path.write_bytes(b"this is not a database\n" * 100)
    health = inspect_journal(path)
    assert not health.sound and health.error == "not an SQLite database"
    assert "cannot be read as a journal" in problems(
        diagnose_kiosk(facts(tmp_path, journal=health))
    )


def test_a_scrambled_page_makes_the_journal_unreadable(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        for seed in range(40):  # enough rows for several b-tree pages
            session = Session.new("builders", ["Ann", "Bob"], seed=seed, journal=journal)
            session.submit({"type": "draw"})
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    for offset in range(2 * page, 3 * page, 7):  # scramble one page in the middle
        data[offset] = (data[offset] + 101) % 256
    path.write_bytes(bytes(data))
    health = inspect_journal(path)
    assert not health.sound and health.error is not None and "malformed" in health.error
    assert "cannot be read as a journal" in problems(
        diagnose_kiosk(facts(tmp_path, journal=health))
    )


def test_an_index_that_disagrees_with_its_table_fails_the_integrity_check(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    _journal_with_a_game(path)
    db = sqlite3.connect(path)  # an index whose definition no longer matches its rows
    db.execute("CREATE INDEX damage_probe ON entries(kind)")
    db.commit()
    db.execute("PRAGMA writable_schema=ON")
    db.execute(
        "UPDATE sqlite_master SET sql = 'CREATE INDEX damage_probe ON entries(payload)' "
        "WHERE name = 'damage_probe'"
    )
    db.commit()
    db.close()
    health = inspect_journal(path)
    assert health.error is None and not health.sound
    assert health.integrity[0] == "row 1 missing from index damage_probe"
    text = problems(diagnose_kiosk(facts(tmp_path, journal=health)))
    assert "fails SQLite's integrity check: row 1 missing from index damage_probe" in text
    assert "companion salvage --replace" in text


@pytest.mark.parametrize(
    ("damage", "reported"),
    [
        ("UPDATE games SET players = CAST(x'ff' AS TEXT)", "header is damaged"),
        ("DELETE FROM entries", "header counts 1 entries but 0 are present"),
    ],
)
def test_damage_sqlite_cannot_see_is_reported(tmp_path: Path, damage: str, reported: str) -> None:
    """An unreadable header or vanished rows passed SQLite's page
    check, and the doctor said "integrity ok"."""
    path = tmp_path / JOURNAL_FILE
    _journal_with_a_game(path)
    with sqlite3.connect(path) as db:
        db.execute(damage)
    health = inspect_journal(path)
    assert health.integrity == ("ok",) and not health.sound
    found = by_topic(diagnose_kiosk(facts(tmp_path, journal=health)), "journal")
    assert found[0].severity is Severity.PROBLEM and reported in found[0].text, found
    assert "integrity ok" not in " ".join(f.text for f in found)


def test_a_missing_journal_is_fine_and_a_rollback_journal_is_a_warning(tmp_path: Path) -> None:
    assert not inspect_journal(tmp_path / JOURNAL_FILE).exists
    missing = diagnose_kiosk(facts(tmp_path, journal=inspect_journal(tmp_path / JOURNAL_FILE)))
    assert by_topic(missing, "journal")[0].severity is Severity.OK
    path = tmp_path / "old.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")  # as a journal copied by hand may be
    db.close()
    health = inspect_journal(path)
    assert health.wal is False and health.integrity == ("ok",)
    found = by_topic(diagnose_kiosk(facts(tmp_path, journal=health)), "journal")
    assert [f.severity for f in found] == [Severity.WARNING] and "WAL" in found[0].text


def test_an_unreadable_journal_asks_for_the_service_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / JOURNAL_FILE
    _journal_with_a_game(path)
    real_open = Path.open

    def guarded_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == path:  # as a user outside the companion group would see it
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", guarded_open)
    health = inspect_journal(path)
    assert health.permission_denied
    found = by_topic(diagnose_kiosk(facts(tmp_path, journal=health)), "journal")
    assert found[0].severity is Severity.WARNING and "sudo -u companion" in found[0].text


# --- display, touch, service, configuration --------------------------------------------------


def test_display(tmp_path: Path) -> None:
    none_on_pi = diagnose_kiosk(facts(tmp_path, dri_nodes=()))
    assert "vc4-kms-v3d" in problems(none_on_pi)
    none_elsewhere = by_topic(diagnose_kiosk(facts(tmp_path, dri_nodes=(), is_pi=False)), "display")
    assert none_elsewhere[0].severity is Severity.WARNING
    desktop = by_topic(diagnose_kiosk(facts(tmp_path, display_env="DISPLAY=:0")), "display")
    assert desktop[0].severity is Severity.OK and "DISPLAY=:0" in desktop[0].text
    blocked = diagnose_kiosk(facts(tmp_path, inaccessible=frozenset({"/dev/dri/card1"})))
    assert "video and render groups" in problems(blocked)


def test_touch(tmp_path: Path) -> None:
    unreadable = diagnose_kiosk(facts(tmp_path, inaccessible=frozenset({"/dev/input/event4"})))
    assert "input group" in problems(unreadable)
    single = parse_input_devices(SINGLE_TOUCH, 64)
    assert single[0].single_touch and not single[0].multitouch
    found = by_topic(diagnose_kiosk(facts(tmp_path, input_devices=single)), "touch")
    assert found[0].severity is Severity.WARNING and "hidinput" in found[0].text
    nothing = by_topic(diagnose_kiosk(facts(tmp_path, input_devices=())), "touch")
    assert nothing[0].severity is Severity.WARNING and "ribbon" in nothing[0].text


def test_input_bitmaps_of_32_and_64_bit_kernels() -> None:
    assert parse_bitmap("260800000000003", 64) == parse_bitmap("2608000 3", 32)
    assert {0, 1, 0x2F, 0x35, 0x36, 0x39} == parse_bitmap("2608000 3", 32)
    devices = parse_input_devices(PI_INPUT_DEVICES, 64)
    assert [d.multitouch for d in devices] == [True, False]
    assert devices[0].event_node == "/dev/input/event4"
    assert InputDevice("x", ("kbd",)).event_node is None


def test_service_user_groups(tmp_path: Path) -> None:
    lacking = frozenset({"companion", "video", "render", "dialout"})
    text = problems(diagnose_kiosk(facts(tmp_path, service_user_groups=lacking)))
    assert "not in gpio, spi, i2c, input" in text
    assert "sudo usermod -aG gpio,spi,i2c,input companion" in text
    # groups this system does not have are not asked for
    few = facts(tmp_path, service_user_groups=lacking, system_groups=lacking)
    assert problems(diagnose_kiosk(few)) == ""
    not_installed = by_topic(diagnose_kiosk(facts(tmp_path, service_user_groups=None)), "service")
    assert not_installed[0].severity is Severity.OK and "install-pi" in not_installed[0].text


def test_reading_another_config_than_the_service_is_a_warning(tmp_path: Path) -> None:
    other = diagnose_kiosk(facts(tmp_path, config_path=Path("/home/pi/companion.toml")))
    found = by_topic(other, "configuration")
    assert found[0].severity is Severity.WARNING and "COMPANION_CONFIG=" in found[0].text
    assert (
        by_topic(diagnose_kiosk(facts(tmp_path, installed_config_exists=False)), "configuration")
        == []
    )


def test_gather_reads_an_invented_pi_below_a_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "proc/bus/input").mkdir(parents=True)
    (root / "proc/bus/input/devices").write_text(PI_INPUT_DEVICES, encoding="utf-8")
    (root / "proc/self").mkdir(parents=True)
    (root / "proc/self/mountinfo").write_text(MOUNTINFO, encoding="utf-8")
    (root / "dev/dri").mkdir(parents=True)
    (root / "dev/dri/card1").write_text("", encoding="utf-8")
    (root / "dev/input").mkdir(parents=True)
    (root / "dev/input/event4").write_text("", encoding="utf-8")
    data = tmp_path / "data"
    loaded = LoadedConfig(CompanionConfig(data_dir=data), None)
    found = gather_kiosk_facts(loaded, root=root, environ={}, platform=PI4)
    assert found.is_pi and found.dri_nodes == ("/dev/dri/card1",)
    assert found.input_devices[0].name == "generic ft5x06 (79)"
    assert found.inaccessible == frozenset()
    assert found.mount is not None and found.free_bytes is not None
    assert not found.data_dir_exists and not found.journal.exists
    assert found.service_user_groups is None  # only the real root asks for users


def test_companion_doctor_prints_the_kiosk_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    (tmp_path / JOURNAL_FILE).write_bytes(b"garbage" * 100)
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "[problem] journal:" in out and "not an SQLite database" in out
    assert "[ok] storage:" in out
