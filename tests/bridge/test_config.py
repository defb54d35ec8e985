"""The TOML configuration: defaults per platform, overrides, and clear errors (never a crash)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.config import (
    ENV_CONFIG,
    ENV_HARDWARE,
    CompanionConfig,
    default_config_path,
    find_key_line,
    load_config,
    parse_config_text,
)
from firmware_bridge.platform import Platform

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PI4 = Platform("Raspberry Pi 4 Model B Rev 1.4")
PI5 = Platform("Raspberry Pi 5 Model B Rev 1.0")
LAPTOP = Platform(None)
NO_ENV: dict[str, str] = {}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_are_simulated_off_a_pi(tmp_path: Path) -> None:
    loaded = load_config(tmp_path / "absent.toml", environ={ENV_CONFIG: ""}, platform=LAPTOP)
    # an explicit path that does not exist is a problem; the app still starts simulated
    assert not loaded.ok
    assert "does not exist" in str(loaded.problems[0])
    config = loaded.config
    assert (config.leds.driver, config.dice.source, config.buttons.source) == ("sim",) * 3


def test_no_file_at_the_default_place_is_fine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(
        "firmware_bridge.config.default_config_path", lambda: tmp_path / "none.toml"
    )
    loaded = load_config(environ=NO_ENV, platform=LAPTOP)
    assert loaded.ok and loaded.path is None
    assert loaded.config.leds.driver == "sim"


def test_real_drivers_by_default_on_a_pi(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(
        "firmware_bridge.config.default_config_path", lambda: tmp_path / "none.toml"
    )
    pi4 = load_config(environ=NO_ENV, platform=PI4).config
    assert (pi4.leds.driver, pi4.dice.source, pi4.buttons.source) == ("ws281x", "serial", "gpio")
    assert (pi4.leds.gpio_pin, pi4.leds.dma_channel) == (18, 10)
    pi5 = load_config(environ=NO_ENV, platform=PI5).config
    assert pi5.leds.driver == "spi"


def test_default_path_is_in_the_user_config_dir() -> None:
    path = default_config_path()
    assert path.name == "companion.toml" and "colossus-companion" in str(path)


def test_environment_names_the_file_and_can_force_simulation(tmp_path: Path) -> None:
    path = write(tmp_path, '[leds]\ndriver = "ws281x"\ncount = 50\n')
    loaded = load_config(environ={ENV_CONFIG: str(path)}, platform=PI4)
    assert loaded.ok and loaded.path == path
    assert loaded.config.leds.driver == "ws281x" and loaded.config.leds.count == 50
    forced = load_config(environ={ENV_CONFIG: str(path), ENV_HARDWARE: "sim"}, platform=PI4)
    assert forced.forced_simulation and forced.ok
    assert forced.config.leds.driver == "sim" and forced.config.leds.count == 50
    assert forced.config.dice.source == "sim" and forced.config.buttons.source == "sim"


def test_unknown_hardware_override_is_reported(tmp_path: Path) -> None:
    loaded = load_config(write(tmp_path, ""), environ={ENV_HARDWARE: "real"}, platform=PI4)
    assert ENV_HARDWARE in str(loaded.problems[0])
    assert loaded.config.leds.driver == "sim"


def test_example_file_is_valid_and_anchors_the_layout_path() -> None:
    loaded = load_config(EXAMPLES / "companion.toml", environ=NO_ENV, platform=LAPTOP)
    assert loaded.ok, loaded.problems
    config = loaded.config
    assert config.leds.layout == EXAMPLES / "layouts/kolossus-11x11-serpentine.json"
    assert config.leds.layout.is_file()
    assert config.buttons.pins == {"confirm": 5, "undo": 6, "next": 16}
    assert config.dice.serial.usb_vid == 0x2E8A


def test_broken_toml_names_file_and_line_and_falls_back_to_simulation(tmp_path: Path) -> None:
    path = write(tmp_path, "[leds]\ncount = 121\nbrightness = = 0.5\n")
    loaded = load_config(path, environ=NO_ENV, platform=PI4)
    assert len(loaded.problems) == 1
    message = str(loaded.problems[0])
    assert message.startswith(f"{path}, line 3, column ")
    assert "not valid TOML" in message and "(at line" not in message
    assert loaded.config == CompanionConfig().simulated()


def test_wrong_value_names_the_key_and_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "# hi\n[leds]\ncount = 121\nbrightness = 1.5\n")
    loaded = load_config(path, environ=NO_ENV, platform=LAPTOP)
    (problem,) = loaded.problems
    assert problem.file == str(path)
    assert problem.where == "line 4, leds.brightness"
    assert "less than or equal to 1" in problem.message and "1.5" in problem.message


def test_misspelt_key_and_unknown_driver(tmp_path: Path) -> None:
    path = write(tmp_path, '[leds]\ndriver = "neopixel"\nbrigthness = 0.2\n')
    problems = load_config(path, environ=NO_ENV, platform=LAPTOP).problems
    texts = sorted(str(p) for p in problems)
    assert any("line 2, leds.driver" in t and "'neopixel'" in t for t in texts)
    assert any("line 3, leds.brigthness: unknown setting" in t for t in texts)


def test_dma_channel_5_is_refused_with_the_reason() -> None:
    config, problems = parse_config_text("[leds]\ndma_channel = 5\n", "c.toml")
    assert config is None
    assert "corrupt" in str(problems[0]) and "line 2, leds.dma_channel" in str(problems[0])


def test_shared_gpio_pins_are_refused() -> None:
    text = '[leds]\ndriver = "ws281x"\n[buttons]\nsource = "gpio"\n[buttons.pins]\nconfirm = 18\n'
    _, problems = parse_config_text(text, "c.toml")
    assert "GPIO18 is used twice" in str(problems[0])
    _, problems = parse_config_text("[buttons.pins]\na = 5\nb = 5\n", "c.toml")
    assert 'buttons "a" and "b" share GPIO5' in str(problems[0])
    _, problems = parse_config_text("[buttons.pins]\na = 40\n", "c.toml")
    assert "not on the 40-pin header" in str(problems[0])


def test_spi_driver_claims_gpio10() -> None:
    text = '[leds]\ndriver = "spi"\n[buttons]\nsource = "gpio"\n[buttons.pins]\nconfirm = 10\n'
    _, problems = parse_config_text(text, "c.toml")
    assert "GPIO10 is used twice" in str(problems[0])


def test_unreadable_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_bytes(b"\xff\xfe[leds]")
    loaded = load_config(path, environ=NO_ENV, platform=LAPTOP)
    assert "not UTF-8" in str(loaded.problems[0])


def test_kiosk_section_is_a_placeholder_that_keeps_unknown_keys() -> None:
    config, problems = parse_config_text('[kiosk]\nrotation = 180\nlanguage = "de"\n')
    assert not problems and config is not None
    assert config.kiosk.rotation == 180
    assert config.kiosk.model_extra == {"language": "de"}


def test_find_key_line_handles_tables_and_dotted_keys() -> None:
    text = 'leds.count = 3\n[dice.serial]\nport = "x"\n[leds]\n'
    assert find_key_line(text, ("leds", "count")) == 1
    assert find_key_line(text, ("dice", "serial", "port")) == 3
    assert find_key_line(text, ("dice", "serial", "baudrate")) == 2  # its table
    assert find_key_line(text, ("buttons", "pins")) is None


def test_data_dir_is_relative_to_the_file(tmp_path: Path) -> None:
    loaded = load_config(write(tmp_path, 'data_dir = "games"\n'), environ=NO_ENV, platform=LAPTOP)
    assert loaded.config.data_dir == tmp_path / "games"
