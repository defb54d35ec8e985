"""The sensing board in the configuration and the rig: sources, defaults, the twin."""

from __future__ import annotations

import queue
import time
from pathlib import Path

from firmware_bridge.board.messages import BOARD_READER, BoardOccupancy
from firmware_bridge.config import (
    BOARD_PORT,
    BoardConfig,
    ButtonsConfig,
    CompanionConfig,
    DiceConfig,
    LedsConfig,
    LoadedConfig,
    load_config,
    parse_config_text,
)
from firmware_bridge.doctor import diagnose
from firmware_bridge.platform import Platform, PlatformFacts
from firmware_bridge.rig import RigMessage, build_rig

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "companion.toml"


def test_no_board_unless_configured_and_the_example_spells_the_defaults() -> None:
    assert CompanionConfig().board.source == "none"
    loaded = load_config(EXAMPLE, environ={}, platform=Platform(None))
    assert loaded.ok, loaded.problems
    assert loaded.config.board == BoardConfig()
    serial = BoardConfig().serial
    assert (serial.port, serial.usb_vid, serial.usb_pid) == (BOARD_PORT, 0, 0)


def test_a_board_is_simulated_off_a_pi_and_when_everything_is() -> None:
    config = CompanionConfig(board=BoardConfig(source="serial"))
    assert config.resolved(Platform(None)).board.source == "sim"
    assert config.simulated().board.source == "sim"
    assert CompanionConfig().simulated().board.source == "none", "no board stays no board"


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
    rig = build_rig(LoadedConfig(config, None), Platform(None), sim_dir=tmp_path)
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
