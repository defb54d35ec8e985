"""The TOML configuration: defaults per platform, overrides, and clear errors (never a crash)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from annotated_types import Ge, Gt, Le, Lt

from firmware_bridge.config import (
    ENV_CONFIG,
    ENV_HARDWARE,
    ButtonsConfig,
    ButtonSettings,
    DiceConfig,
    GoDiceSettings,
    GpioDiceSettings,
    LedsConfig,
    SerialDiceSettings,
    default_config_path,
    find_key_line,
    pin_claims,
)
from firmware_bridge.frames import FrameDecoder, Hello, cobs_encode, encode_frame
from firmware_bridge.platform import Platform
from kiosk.settings import CompanionConfig, load_config, parse_config_text
from tests.helpers.config_fields import numeric_fields as _numeric_fields

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
        "kiosk.settings.loading.default_config_path", lambda: tmp_path / "none.toml"
    )
    loaded = load_config(environ=NO_ENV, platform=LAPTOP)
    assert loaded.ok and loaded.path is None
    assert loaded.config.leds.driver == "sim"


def test_real_drivers_by_default_on_a_pi(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(
        "kiosk.settings.loading.default_config_path", lambda: tmp_path / "none.toml"
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


def test_the_sensing_board_example_the_readme_starts_with_is_valid() -> None:
    loaded = load_config(EXAMPLES / "sensing-board.toml", environ=NO_ENV, platform=LAPTOP)
    assert loaded.ok, loaded.problems
    assert loaded.config.board.source == "sim"


def test_example_file_is_valid_and_anchors_the_layout_path() -> None:
    loaded = load_config(EXAMPLES / "companion.toml", environ=NO_ENV, platform=LAPTOP)
    assert loaded.ok, loaded.problems
    config = loaded.config
    assert config.leds.layout == EXAMPLES / "layouts/kolossus-11x11-serpentine.json"
    assert config.leds.layout.is_file()
    assert config.dice.serial.usb_vid == 0x2E8A
    # the example spells out exactly the defaults of the drivers' own settings models
    for section, default in (
        (config.buttons, ButtonSettings()),
        (config.dice.serial, SerialDiceSettings()),
        (config.dice.gpio, GpioDiceSettings()),
        (config.dice.godice, GoDiceSettings()),
    ):
        for name in type(default).model_fields:
            if name != "enabled":
                assert getattr(section, name) == getattr(default, name), name


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


def default_pin_map() -> list[tuple[int, str]]:
    """Every pin a default device may take: LEDs on PWM *and* SPI, buttons, GPIO die."""
    config = CompanionConfig()
    spi = LedsConfig(driver="spi").used_pins_named()
    return (
        config.leds.used_pins_named()
        + spi
        + pin_claims("buttons", config.buttons)
        + pin_claims("dice.gpio", config.dice.gpio)
    )


def test_default_pin_map_uses_no_pin_twice() -> None:
    claims = default_pin_map()
    pins = [pin for pin, _ in claims]
    # the LED strip lists GPIO10 under both drivers; every other pin has one user
    shared = {pin for pin in pins if pins.count(pin) > 1}
    assert shared <= {10, 11, 9, 8, 7}, claims
    users_of_shared = {user for pin, user in claims if pin in shared}
    assert all(user.startswith("[leds]") for user in users_of_shared)
    assert all(0 <= pin <= 27 for pin in pins)
    # the map of hardware.md and the example file
    by_user = {user: pin for pin, user in claims}
    assert by_user["[leds] gpio_pin (the LED strip's data)"] == 18
    assert {k.split()[1]: v for k, v in by_user.items() if k.startswith("[buttons]")} == {
        "confirm_pin": 5,
        "undo_pin": 6,
        "end_turn_pin": 13,
        "menu_pin": 19,
        "roll_pins": 26,
        "feedback_led_pin": 16,
        "buzzer_pin": 20,
    }
    die = sorted(pin for pin, user in claims if user.startswith("[dice.gpio]"))
    assert die == [17, 22, 23, 27]
    # and every combination of sources is a valid configuration
    for driver in ("auto", "ws281x", "spi"):
        for dice in ("auto", "serial", "gpio"):
            config = CompanionConfig(
                leds=LedsConfig(driver=driver),
                dice=DiceConfig(source=dice),
                buttons=ButtonsConfig(source="gpio"),
            )
            assert config.pin_users()


def test_default_pin_map_is_the_one_in_hardware_md() -> None:
    text = (EXAMPLES.parent / "hardware.md").read_text(encoding="utf-8")
    table = text[text.index("## GPIO pin table") :]
    table = table[: table.index("\n## ", 5)]
    rows: dict[str, str] = {}  # config key -> GPIO cell of its first row
    for line in table.splitlines():
        if line.startswith("| "):
            gpio, _, _, key = line.strip("|").split("|")[:4]
            rows.setdefault(key.strip("` "), gpio.strip())
    config = CompanionConfig()
    buttons = config.buttons
    expected = {
        "[leds] gpio_pin": config.leds.gpio_pin,
        "[buttons] confirm_pin": buttons.confirm_pin,
        "[buttons] undo_pin": buttons.undo_pin,
        "[buttons] end_turn_pin": buttons.end_turn_pin,
        "[buttons] menu_pin": buttons.menu_pin,
        "[buttons] roll_pins": buttons.roll_pins[0],
        "[buttons] feedback_led_pin": buttons.feedback_led_pin,
        "[buttons] buzzer_pin": buttons.buzzer_pin,
        "[dice.gpio] strobe_pin": config.dice.gpio.strobe_pin,
    }
    for key, pin in expected.items():
        assert rows.get(key) == str(pin), (key, rows)
    assert rows["[dice.gpio] data_pins"] == ", ".join(map(str, config.dice.gpio.data_pins))


def test_a_pin_shared_between_devices_is_refused_naming_both_users() -> None:
    text = '[leds]\ndriver = "ws281x"\n[buttons]\nsource = "gpio"\nconfirm_pin = 18\n'
    config, problems = parse_config_text(text, "c.toml")
    assert config is None
    assert str(problems[0]) == (
        "c.toml, line 5, buttons.confirm_pin: GPIO18 is used twice: by [leds] gpio_pin "
        "(the LED strip's data) and by [buttons] confirm_pin"
    )
    text = '[dice]\nsource = "gpio"\n[dice.gpio]\nstrobe_pin = 16\n'
    (problem,) = parse_config_text(text, "c.toml")[1]
    assert problem.where == "line 4, dice.gpio.strobe_pin"
    assert "GPIO16 is used twice: by [buttons] feedback_led_pin and by [dice.gpio] strobe_pin" in (
        problem.message
    )


def test_a_pin_shared_inside_the_buttons_names_both_and_points_at_the_line_set() -> None:
    (problem,) = parse_config_text("[buttons]\n\nend_turn_pin = 26\n", "c.toml")[1]
    assert problem.where == "line 3, buttons.end_turn_pin"
    assert "GPIO26 is used twice: by [buttons] end_turn_pin and by [buttons] roll_pins" in (
        problem.message
    )
    (problem,) = parse_config_text("[buttons]\nroll_pins = [26, 40]\n", "c.toml")[1]
    assert "GPIO40 is not on the 40-pin header" in str(problem)
    (problem,) = parse_config_text("[buttons]\nmenu_pin = 40\n", "c.toml")[1]
    assert problem.where == "line 2, buttons.menu_pin" and "40" in problem.message


def test_the_gpio_die_claims_its_pins_only_when_it_is_the_source() -> None:
    text = "[dice.gpio]\nstrobe_pin = 5\n"  # the confirm button's pin, but the tray is used
    assert parse_config_text(text)[1] == []
    _, problems = parse_config_text('[dice]\nsource = "gpio"\n' + text, "c.toml")
    assert "GPIO5 is used twice: by [buttons] confirm_pin and by [dice.gpio] strobe_pin" in str(
        problems[0]
    )
    _, problems = parse_config_text('[dice]\nsource = "gpio"\n[dice.gpio]\ndata_pins = [17]\n')
    assert "1 data lines cannot carry faces up to 4" in str(problems[0])


def test_led_pin_moved_onto_a_button_is_refused() -> None:
    (problem,) = parse_config_text('[leds]\ndriver = "ws281x"\ngpio_pin = 19\n', "c.toml")[1]
    assert problem.where == "line 3, leds.gpio_pin"
    assert "by [leds] gpio_pin (the LED strip's data) and by [buttons] menu_pin" in problem.message


def test_spi_driver_claims_its_bus() -> None:
    text = '[leds]\ndriver = "spi"\n[buttons]\nsource = "gpio"\nconfirm_pin = 10\n'
    _, problems = parse_config_text(text, "c.toml")
    assert "GPIO10 is used twice: by [leds] spi_bus (SPI0 MOSI" in str(problems[0])
    _, problems = parse_config_text('[leds]\ndriver = "spi"\n[buttons]\nconfirm_pin = 8\n')
    assert "GPIO8 is used twice: by [leds] spi_bus (SPI0 CE0" in str(problems[0])
    # rpi_ws281x on GPIO18 leaves SPI0 free
    assert parse_config_text('[leds]\ndriver = "ws281x"\n[buttons]\nconfirm_pin = 8\n')[1] == []
    assert parse_config_text('[leds]\ndriver = "sim"\n[buttons]\nconfirm_pin = 18\n')[1] == []


def test_source_is_the_one_switch_enabled_is_refused_in_the_file() -> None:
    text = "[dice.serial]\nenabled = false\n[buttons]\nenabled = true\n"
    config, problems = parse_config_text(text, "c.toml")
    assert config is None
    assert [p.where for p in problems] == ["line 2, dice.serial.enabled", "line 4, buttons.enabled"]
    assert '[dice] source = "serial"' in problems[0].message


def test_resolving_sets_the_drivers_enabled_flags_from_the_source() -> None:
    pi = CompanionConfig().resolved(PI4)
    assert (pi.dice.serial.enabled, pi.dice.gpio.enabled, pi.buttons.enabled) == (True, False, True)
    gpio = CompanionConfig(dice=DiceConfig(source="gpio")).resolved(PI4)
    assert (gpio.dice.serial.enabled, gpio.dice.gpio.enabled) == (False, True)
    sim = CompanionConfig().resolved(LAPTOP)
    assert (sim.dice.serial.enabled, sim.dice.gpio.enabled, sim.buttons.enabled) == (False,) * 3
    assert isinstance(sim.buttons, ButtonSettings)  # what ButtonPanel takes


def test_false_means_a_part_is_not_fitted() -> None:
    config, problems = parse_config_text("[buttons]\nbuzzer_pin = false\nmenu_pin = false\n")
    assert not problems and config is not None
    assert config.buttons.buzzer_pin is None and config.buttons.menu_pin is None
    assert 20 not in config.buttons.used_pins()
    (problem,) = parse_config_text("[buttons]\nundo_pin = true\n", "c.toml")[1]
    assert problem.where == "line 2, buttons.undo_pin" and "false if it is not fitted" in str(
        problem
    )


def test_old_button_table_is_an_unknown_setting() -> None:
    (problem,) = parse_config_text("[buttons.pins]\nconfirm = 5\n", "c.toml")[1]
    assert problem.where == "line 1, buttons.pins" and "unknown setting" in problem.message


def test_unreadable_file_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_bytes(b"\xff\xfe[leds]")
    loaded = load_config(path, environ=NO_ENV, platform=LAPTOP)
    assert "not UTF-8" in str(loaded.problems[0])


def test_a_misspelt_kiosk_key_is_refused_with_its_line() -> None:
    config, problems = parse_config_text("[kiosk]\nrotation = 180\nlockd = true\n")
    assert config is None
    assert [(p.where, p.message) for p in problems] == [
        ("line 3, kiosk.lockd", "unknown setting (misspelt?)")
    ]


def test_a_broken_file_keeps_its_valid_sections(tmp_path: Path) -> None:
    text = (
        'data_dir = "games"\n[leds]\ncount = "many"\n[kiosk]\nlocked = true\nidle_timeout_s = 60\n'
    )
    loaded = load_config(write(tmp_path, text), environ=NO_ENV, platform=LAPTOP)
    assert [p.where for p in loaded.problems] == ["line 3, leds.count"]
    assert (loaded.config.kiosk.locked, loaded.config.kiosk.idle_timeout_s) == (True, 60)
    assert loaded.config.data_dir == tmp_path / "games"
    assert loaded.config.leds.count == LedsConfig().count


def test_a_broken_kiosk_section_still_stays_locked(tmp_path: Path) -> None:
    text = "[kiosk]\nlocked = true\nlockd = false\n"
    loaded = load_config(write(tmp_path, text), environ=NO_ENV, platform=LAPTOP)
    assert loaded.problems
    assert loaded.config.kiosk.locked is True


def test_find_key_line_handles_tables_and_dotted_keys() -> None:
    text = 'leds.count = 3\n[dice.serial]\nport = "x"\n[leds]\n'
    assert find_key_line(text, ("leds", "count")) == 1
    assert find_key_line(text, ("dice", "serial", "port")) == 3
    assert find_key_line(text, ("dice", "serial", "baudrate")) == 2  # its table
    assert find_key_line(text, ("buttons", "pins")) is None


def test_data_dir_is_relative_to_the_file(tmp_path: Path) -> None:
    loaded = load_config(write(tmp_path, 'data_dir = "games"\n'), environ=NO_ENV, platform=LAPTOP)
    assert loaded.config.data_dir == tmp_path / "games"


def test_hardware_md_example_frames_decode_to_the_message_named() -> None:
    """hardware.md restates the wire protocol; its example frames must be the codec's."""
    text = (EXAMPLES.parent / "hardware.md").read_text(encoding="utf-8")
    dice = text[text.index("## Electronic dice") :]
    rows = re.findall(r"^\| ([A-Z_]+)\(.*?\) \| `([0-9a-f ]+)` \| `([0-9a-f ]+)` \|$", dice, re.M)
    assert len(rows) == 8
    for name, body, wire in rows:
        (message,) = FrameDecoder().feed(bytes.fromhex(wire))
        assert type(message).__name__ == name.title().replace("_", ""), name
        assert encode_frame(message).hex(" ") == wire
        assert encode_frame(message)[1:-1] == cobs_encode(bytes.fromhex(body))
    hello = re.search(r"wire: ((?:[0-9a-f]{2}[ \n]+)+)", dice)
    assert hello is not None
    (message,) = FrameDecoder().feed(bytes.fromhex(" ".join(hello.group(1).split())))
    assert isinstance(message, Hello) and message.device_id == "pico-tray-e6605838"
    assert message.boot_id == 0x12345678 and len(message.dice) == 3


GODICE_TOML = """
[dice]
source = "godice"

[dice.godice]
connect_timeout_s = 8.0

[[dice.godice.dice]]
address = "F4:12:FA:3C:5B:01"
shell = "D4"
die_id = 1
label = "red"

[[dice.godice.dice]]
name = "GoDice"
shell = "D6"
die_id = 2
"""


def test_godice_section_configures_bluetooth_dice() -> None:
    config, problems = parse_config_text(GODICE_TOML, "c.toml")
    assert not problems and config is not None
    godice = config.dice.godice
    assert godice.connect_timeout_s == 8.0
    assert [(d.device, d.shell.faces) for d in godice.dice] == [("red", 4), ("godice-2", 6)]
    resolved = config.resolved(LAPTOP)  # an explicit source is kept off a Pi
    assert resolved.dice.source == "godice"
    assert (resolved.dice.godice.enabled, resolved.dice.serial.enabled) == (True, False)
    assert not CompanionConfig().resolved(PI4).dice.godice.enabled  # auto = the serial tray


def test_godice_source_without_dice_names_the_line_to_change() -> None:
    config, problems = parse_config_text('[dice]\nsource = "godice"\n', "c.toml")
    assert config is None
    (problem,) = problems
    assert problem.where == "line 2, dice.source"
    assert "[[dice.godice.dice]]" in problem.message


def test_godice_enabled_is_refused_source_chooses() -> None:
    config, problems = parse_config_text("[dice.godice]\nenabled = true\n", "c.toml")
    assert config is None
    assert [p.where for p in problems] == ["line 2, dice.godice.enabled"]
    assert '[dice] source = "godice"' in problems[0].message


def test_godice_dice_need_an_address_or_a_name() -> None:
    text = '[dice]\nsource = "godice"\n[[dice.godice.dice]]\nshell = "D4"\n'
    config, problems = parse_config_text(text, "c.toml")
    assert config is None and problems
    assert "address or a name" in problems[0].message


# --- settings that once broke a thread ---------------------------------------------


def test_every_numeric_setting_has_a_range() -> None:
    """``poll_s = 1e308`` was accepted and killed the tray's thread.
    A new number without both bounds fails here."""
    fields = dict(_numeric_fields(CompanionConfig))
    assert "dice.serial.poll_s" in fields and "leds.gpio_pin" in fields  # the walk works
    unbounded = [
        key
        for key, info in fields.items()
        if not any(isinstance(m, Ge | Gt) for m in info.metadata)
        or not any(isinstance(m, Le | Lt) for m in info.metadata)
    ]
    assert unbounded == []


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[dice.serial]\npoll_s = 1e308\n", "dice.serial.poll_s"),
        ("[dice.serial]\nsilence_timeout_s = 1e300\n", "dice.serial.silence_timeout_s"),
        ("[dice.serial]\npoll_s = 3.5\n", "dice.serial.poll_s"),
        ("[dice.serial]\nping_interval_s = 3.0\npoll_s = 0.6\n", "dice.serial"),
        ("[dice.serial]\nsilence_timeout_s = 0.5\nping_interval_s = 1.0\n", "dice.serial"),
        ("[buttons]\nposll_s = 0.1\n", "buttons.posll_s"),
        ("[buttons]\npoll_s = inf\n", "buttons.poll_s"),
        ("[leds]\npower_budget_ma = 1e12\n", "leds.power_budget_ma"),
    ],
)
def test_settings_that_would_break_a_device_are_refused_by_key(text: str, key: str) -> None:
    """Out-of-range numbers are a problem naming the key, and the
    companion starts (simulated) instead of a device thread dying later."""
    _, problems = parse_config_text(text, "companion.toml")
    assert problems and key in str(problems[0]), problems


@pytest.mark.parametrize("key", ["dice.gpio.data_pins", "buttons.roll_pins"])
def test_lists_of_pins_are_checked_pin_by_pin(key: str) -> None:
    table, name = key.rsplit(".", 1)
    text = f"[{table}]\n{name} = [5, 6, 99]\n"
    _, problems = parse_config_text(text, "companion.toml")
    assert any("99" in str(p) and key.startswith(p.where.split(", ")[-1]) for p in problems), (
        problems
    )


def test_a_config_path_that_cannot_be_checked_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Path.is_file()`` raised PermissionError (a folder this user
    may not enter, e.g. after ``su`` without ``-``)."""

    def denied(self: Path) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "is_file", denied)
    loaded = load_config(tmp_path / "secret" / "companion.toml", environ=NO_ENV, platform=LAPTOP)
    assert "cannot be checked (Permission denied)" in str(loaded.problems[0])
    assert loaded.config == CompanionConfig().simulated()


def test_a_folder_named_as_the_config_is_a_problem(tmp_path: Path) -> None:
    loaded = load_config(tmp_path, environ=NO_ENV, platform=LAPTOP)
    assert "not a file" in str(loaded.problems[0])
