"""The sensing board in the configuration and the rig: sources, defaults, the twin."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest
import serial.tools.list_ports
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge.board.messages import BOARD_READER, BoardOccupancy
from firmware_bridge.config import BOARD_PORT, BoardConfig, ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.dice.serial_tray import SerialDiceSettings, find_port
from firmware_bridge.platform import Platform, PlatformFacts
from firmware_bridge.rig import RigMessage, build_rig
from kiosk.settings import CompanionConfig, LoadedConfig, load_config, parse_config_text
from kiosk.settings.findings import diagnose

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "companion.toml"


def test_no_board_unless_configured_and_the_example_spells_the_defaults() -> None:
    assert CompanionConfig().board.source == "none"
    loaded = load_config(EXAMPLE, environ={}, platform=Platform(None))
    assert loaded.ok, loaded.problems
    assert loaded.config.board == BoardConfig()
    serial = BoardConfig().serial
    assert (serial.port, serial.usb_vid, serial.usb_pid) == (BOARD_PORT, 0, 0)


PI4 = Platform("Raspberry Pi 4 Model B Rev 1.4")


def test_only_auto_simulates_the_board_off_a_pi_and_everything_simulated_does() -> None:
    auto = CompanionConfig(board=BoardConfig(source="auto"))
    assert auto.resolved(Platform(None)).board.source == "sim"
    assert auto.resolved(PI4).board.source == "serial"
    assert auto.simulated().board.source == "sim"
    assert CompanionConfig().simulated().board.source == "none", "no board stays no board"


def test_an_explicit_board_source_is_obeyed_on_any_machine() -> None:
    """A board plugged into a laptop, or a test harness on a pty, is read as configured."""
    for platform in (Platform(None), PI4):
        serial = CompanionConfig(board=BoardConfig(source="serial"))
        assert serial.resolved(platform).board.source == "serial", platform
        tray = CompanionConfig(dice=DiceConfig(source="serial"), board=BoardConfig(source="tray"))
        assert tray.resolved(platform).board.source == "tray", platform
        assert serial.simulated().board.source == "sim", "everything simulated: the board too"


def test_the_board_read_by_a_simulated_tray_is_simulated_with_it() -> None:
    tray = CompanionConfig(board=BoardConfig(source="tray"))  # [dice] source = "auto"
    assert tray.resolved(Platform(None)).board.source == "sim"
    assert tray.resolved(PI4).board.source == "tray"
    _, problems = parse_config_text(
        '[dice]\nsource = "none"\n\n[board]\nsource = "tray"\n', "companion.toml"
    )
    assert len(problems) == 1
    assert problems[0].where == "line 5, board.source", problems[0]
    assert "dice tray" in problems[0].message and '"none"' in problems[0].message


def test_a_board_serial_section_with_only_a_port_never_scans_usb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dice tray's Pico has the board's USB ids: while the board's own port is
    absent, its reader must find nothing rather than take the tray's port."""
    config, problems = parse_config_text(
        f'[board]\nsource = "serial"\n\n[board.serial]\nport = "{tmp_path / "board"}"\n',
        "companion.toml",
    )
    assert config is not None and not problems
    settings = config.board.serial
    assert (settings.usb_vid, settings.usb_pid) == (0, 0)
    tray = ListPortInfo("/dev/ttyACM0", skip_link_detection=True)
    tray.vid, tray.pid = SerialDiceSettings().usb_vid, SerialDiceSettings().usb_pid
    listed: list[int] = []

    def comports() -> list[ListPortInfo]:
        listed.append(1)
        return [tray]

    monkeypatch.setattr(serial.tools.list_ports, "comports", comports)
    assert find_port(settings) is None
    assert listed == [], "no USB scan at all"
    assert find_port(SerialDiceSettings(port=str(tmp_path / "tray"))) == "/dev/ttyACM0"
    (tmp_path / "board").touch()
    assert find_port(settings) == str(tmp_path / "board")


def test_board_settings_are_checked() -> None:
    _, problems = parse_config_text('[board]\nsource = "magic"\nsettle_s = 9\n', "companion.toml")
    assert len(problems) == 2
    assert all("board" in problem.where for problem in problems)


def test_the_rig_runs_the_simulated_board_through_the_real_reader(tmp_path: Path) -> None:
    config = CompanionConfig(
        dice=DiceConfig(source="none"),
        buttons=ButtonsConfig(source="none"),
        leds=LedsConfig(driver="none"),
        board=BoardConfig(source="sim"),
    )
    rig = build_rig(config, Platform(None), sim_dir=tmp_path)
    assert rig.sim is not None and rig.sim.board is not None
    assert [reader.name for reader in rig.dice] == [BOARD_READER]
    inbox: queue.Queue[RigMessage] = queue.Queue()
    rig.sim.board.set_occupied({"0,0", "10,10"})
    rig.start(inbox.put)
    try:
        rig.sim.board.place("5,5")
        deadline = time.monotonic() + 5
        seen: frozenset[str] | None = None
        while seen != frozenset({"0,0", "5,5", "10,10"}):
            assert time.monotonic() < deadline, "the board's snapshot never came"
            try:
                message = inbox.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(message, BoardOccupancy):
                seen = message.occupied
    finally:
        rig.stop()
    assert not (tmp_path / "sensing-board").exists()


def test_doctor_says_where_the_board_is_expected() -> None:
    def board_texts(config: CompanionConfig, facts: PlatformFacts) -> list[str]:
        found = diagnose(LoadedConfig(config, None), facts, writable=lambda path: True)
        return [f"{f.severity.value}: {f.text}" for f in found if f.topic == "board"]

    assert board_texts(CompanionConfig(), PlatformFacts()) == []
    serial = CompanionConfig(board=BoardConfig(source="serial"))
    missing = board_texts(serial, PlatformFacts(groups=frozenset({"dialout"})))
    assert len(missing) == 1 and missing[0].startswith("warning: /dev/sensing-board")
    assert "touch" in missing[0]
    present = PlatformFacts(devices=frozenset({BOARD_PORT}))
    found = board_texts(serial, present)
    assert found[0] == f"ok: Sensing board port {BOARD_PORT} is present."
    assert any("dialout" in text for text in found[1:]), "the user may not open it"
    sim = board_texts(CompanionConfig(board=BoardConfig(source="sim")), PlatformFacts())
    assert sim and sim[0].startswith("ok: Sensing board: simulated")
