"""``doctor`` findings for invented machines (injected platform facts, no real hardware)."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge.config import (
    ButtonsConfig,
    ConfigProblem,
    DiceConfig,
    LedsConfig,
    SerialDiceSettings,
)
from firmware_bridge.doctor import Finding, Severity, with_configured_port, worst
from firmware_bridge.layout import LayoutError, LedLayout
from firmware_bridge.platform import (
    Platform,
    PlatformFacts,
    SerialPort,
    gather_facts,
    pi_generation,
)
from kiosk.settings import CompanionConfig, LoadedConfig
from kiosk.settings.findings import diagnose, doctor

PI4 = Platform("Raspberry Pi 4 Model B Rev 1.4")
PI5 = Platform("Raspberry Pi 5 Model B Rev 1.0")
GOOD_BOOT = "dtparam=spi=on\ndtparam=audio=off\ncore_freq_min=500\n"


def pi_facts(platform: Platform = PI4, **changes: object) -> PlatformFacts:
    base: dict[str, object] = {
        "platform": platform,
        "devices": frozenset({"/dev/spidev0.0", "/dev/gpiochip0", "/dev/ttyACM0"}),
        "serial_ports": (SerialPort("/dev/ttyACM0", 0x2E8A, 0x0005, "Pico"),),
        "groups": frozenset({"gpio", "spi", "dialout"}),
        "is_root": True,
        "boot_config": GOOD_BOOT,
        "boot_config_path": "/boot/firmware/config.txt",
        "installed": frozenset({"rpi_ws281x", "spidev", "lgpio", "serial", "gpiozero"}),
    }
    base.update(changes)
    return PlatformFacts(**base)  # type: ignore[arg-type]


def run(config: CompanionConfig, facts: PlatformFacts, **kw: object) -> list[Finding]:
    loaded = LoadedConfig(config.resolved(facts.platform), Path("/etc/companion.toml"))
    return diagnose(loaded, facts, writable=lambda _p: True, **kw)  # type: ignore[arg-type]


def texts(findings: list[Finding], severity: Severity) -> str:
    return "\n".join(f.text for f in findings if f.severity is severity)


def test_a_well_set_up_pi_4_has_no_problems() -> None:
    findings = run(CompanionConfig(), pi_facts())
    assert worst(findings) is Severity.OK, [str(f) for f in findings]
    ok = texts(findings, Severity.OK)
    assert "Raspberry Pi 4" in ok and "GPIO18 (PWM), DMA channel 10" in ok
    assert "Dice tray (USB 2e8a:0005) found on /dev/ttyACM0" in ok
    assert "/dev/dice-tray does not exist: install the udev rule" in ok
    assert "confirm GPIO5" in ok and "roll LED GPIO16, buzzer GPIO20" in ok


def test_pi_model_parsing() -> None:
    assert pi_generation("Raspberry Pi Zero W Rev 1.1") == 1
    assert pi_generation("Raspberry Pi Zero 2 W Rev 1.0") == 3
    assert pi_generation("Raspberry Pi 3 Model B Plus Rev 1.3") == 3
    assert pi_generation("Raspberry Pi 400 Rev 1.0") == 4
    assert pi_generation("Raspberry Pi Compute Module 4 Rev 1.0") == 4
    assert pi_generation("Raspberry Pi 5 Model B Rev 1.0") == 5
    assert pi_generation("Raspberry Pi Model B Rev 2") == 1
    assert pi_generation("Generic x86 PC") is None


def test_gather_facts_reads_a_fake_root(tmp_path: Path) -> None:
    (tmp_path / "proc/device-tree").mkdir(parents=True)
    (tmp_path / "proc/device-tree/model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    (tmp_path / "dev").mkdir()
    for name in ("spidev0.0", "gpiochip4", "ttyACM0", "null"):
        (tmp_path / "dev" / name).touch()
    (tmp_path / "boot/firmware").mkdir(parents=True)
    (tmp_path / "boot/firmware/config.txt").write_text("dtparam=spi=on\n")
    facts = gather_facts(tmp_path)
    assert facts.platform.generation == 5
    assert facts.devices == frozenset({"/dev/spidev0.0", "/dev/gpiochip4", "/dev/ttyACM0"})
    assert facts.boot_setting("spi") == "on"
    assert facts.boot_config_path == "/boot/firmware/config.txt"
    assert [p.device for p in facts.serial_ports] == ["/dev/ttyACM0"]


def test_ws281x_on_a_pi_5_is_a_problem_pointing_to_spi() -> None:
    config = CompanionConfig(leds=LedsConfig(driver="ws281x"))
    findings = run(config, pi_facts(PI5))
    assert 'driver = "spi"' in texts(findings, Severity.PROBLEM)


def test_pi_5_defaults_to_spi_and_checks_the_device() -> None:
    findings = run(CompanionConfig(), pi_facts(PI5, devices=frozenset({"/dev/gpiochip4"})))
    problems = texts(findings, Severity.PROBLEM)
    assert "/dev/spidev0.0 is missing: put dtparam=spi=on" in problems


def test_pwm_needs_root_and_audio_off() -> None:
    facts = pi_facts(is_root=False, boot_config="dtparam=audio=on\n")
    findings = run(CompanionConfig(), facts)
    assert "needs root for PWM on GPIO18" in texts(findings, Severity.PROBLEM)
    assert "dtparam=audio=off" in texts(findings, Severity.WARNING)


def test_spi_on_a_pi_4_wants_a_fixed_core_clock_and_the_spi_group() -> None:
    config = CompanionConfig(leds=LedsConfig(driver="spi"))
    facts = pi_facts(is_root=False, groups=frozenset({"gpio", "dialout"}), boot_config="")
    findings = run(config, facts)
    assert "core_freq_min=500" in texts(findings, Severity.WARNING)
    assert "adduser $USER spi" in texts(findings, Severity.PROBLEM)


def test_long_strips_on_spi_warn_about_the_kernel_buffer() -> None:
    config = CompanionConfig(leds=LedsConfig(driver="spi", count=300, layout=None))
    assert "spidev.bufsiz=65536" in texts(run(config, pi_facts(PI5)), Severity.WARNING)
    fixed = pi_facts(PI5, boot_cmdline="console=tty1 spidev.bufsiz=65536")
    assert "bufsiz" not in texts(run(config, fixed), Severity.WARNING)


def test_missing_libraries_are_named_with_the_install_command() -> None:
    findings = run(CompanionConfig(), pi_facts(installed=frozenset()))
    assert "rpi_ws281x package is missing" in texts(findings, Severity.PROBLEM)
    findings = run(CompanionConfig(), pi_facts(PI5, installed=frozenset()))
    problems = texts(findings, Severity.PROBLEM)
    assert "spidev package is missing" in problems and "lgpio" in problems


def test_real_drivers_off_a_pi_are_problems() -> None:
    config = CompanionConfig(leds=LedsConfig(driver="spi"))
    findings = run(config, PlatformFacts())
    assert 'set [leds] driver = "sim"' in texts(findings, Severity.PROBLEM)


def test_simulated_leds_on_a_pi_are_a_warning() -> None:
    config = CompanionConfig(leds=LedsConfig(driver="sim"))
    assert "LEDs are simulated" in texts(run(config, pi_facts()), Severity.WARNING)


def test_power_budget_findings() -> None:
    below_idle = CompanionConfig(leds=LedsConfig(driver="sim", power_budget_ma=100))
    assert "every frame would be black" in texts(run(below_idle, PlatformFacts()), Severity.PROBLEM)
    off = CompanionConfig(leds=LedsConfig(driver="sim", power_budget_ma=0))
    assert "limiter is off" in texts(run(off, PlatformFacts()), Severity.WARNING)
    normal = texts(run(CompanionConfig(), PlatformFacts()), Severity.OK)
    assert "Budget 2000 mA" in normal and "6.7 A" in normal  # 121 × 55 mA


def test_frame_rate_beyond_what_the_strip_can_carry() -> None:
    config = CompanionConfig(leds=LedsConfig(driver="sim", count=1000, frame_rate=60))
    assert "frame_rate 60 is too high" in texts(run(config, PlatformFacts()), Severity.WARNING)


def test_layout_findings(tmp_path: Path) -> None:
    def broken(path: Path) -> LedLayout:
        raise LayoutError(str(path), ['LED 3 is used by both "0,0" and "0,1"'])

    config = CompanionConfig(leds=LedsConfig(driver="sim", layout=tmp_path / "l.json"))
    findings = run(config, PlatformFacts(), layout_loader=broken)
    assert "LED 3 is used by both" in texts(findings, Severity.PROBLEM)
    short = CompanionConfig(leds=LedsConfig(driver="sim", count=100))
    assert "[leds] count is 100" in texts(run(short, PlatformFacts()), Severity.PROBLEM)


def test_dice_tray_missing_and_groups() -> None:
    facts = pi_facts(serial_ports=(), groups=frozenset({"gpio", "spi"}), is_root=False)
    findings = run(CompanionConfig(), facts)
    warnings = texts(findings, Severity.WARNING)
    assert "/dev/dice-tray is not present and no dice tray (USB 2e8a:0005)" in warnings
    assert "adduser $USER dialout" in texts(findings, Severity.PROBLEM)
    scan_only = CompanionConfig(dice=DiceConfig(serial=SerialDiceSettings(port="")))
    assert "No dice tray (USB 2e8a:0005)" in texts(run(scan_only, facts), Severity.WARNING)


def test_dice_tray_at_its_stable_udev_path() -> None:
    facts = pi_facts(devices=frozenset({"/dev/gpiochip0", "/dev/spidev0.0", "/dev/dice-tray"}))
    ok = texts(run(CompanionConfig(), facts), Severity.OK)
    assert "Dice tray port /dev/dice-tray is present." in ok and "udev" not in ok


def test_dice_tray_search_reports_the_configured_ids_and_serial_number() -> None:
    serial = SerialDiceSettings(port="", usb_vid=0x1234, usb_pid=0x5678, serial_number="E66")
    config = CompanionConfig(dice=DiceConfig(source="serial", serial=serial))
    facts = pi_facts(serial_ports=(SerialPort("/dev/ttyACM1", 0x1234, 0x5678),))
    ok = texts(run(config, facts), Severity.OK)
    assert "Dice tray (USB 1234:5678, serial number E66) found on /dev/ttyACM1" in ok
    assert "serial number is checked when the companion connects" in ok
    missing = texts(run(config, pi_facts()), Severity.WARNING)
    assert "No dice tray (USB 1234:5678, serial number E66)" in missing


def test_doctor_looks_up_the_configured_tray_path(tmp_path: Path) -> None:
    link = tmp_path / "dice-tray"
    serial = SerialDiceSettings(port=str(link))
    config = CompanionConfig(dice=DiceConfig(source="serial", serial=serial))
    facts = pi_facts(serial_ports=())
    assert with_configured_port(facts, config) == facts  # absent: nothing added
    link.touch()
    found = with_configured_port(facts, config)
    assert str(link) in found.devices
    ok = texts(diagnose(LoadedConfig(config, None), found, writable=lambda _p: True), Severity.OK)
    assert f"Dice tray port {link} is present." in ok


def test_gpio_die_reports_its_pins() -> None:
    config = CompanionConfig(dice=DiceConfig(source="gpio"))
    ok = texts(run(config, pi_facts()), Severity.OK)
    assert 'GPIO die "gpio-die" (d4): face bits on GPIO17, GPIO27, GPIO22' in ok
    assert "strobe on GPIO23" in ok
    off_pi = texts(run(config, PlatformFacts()), Severity.PROBLEM)
    assert "GPIO needs a Raspberry Pi" in off_pi


def test_button_pins_follow_the_settings() -> None:
    buttons = ButtonsConfig(menu_pin=None, buzzer_pin=None, roll_pins=(26, 24))
    ok = texts(run(CompanionConfig(buttons=buttons), pi_facts()), Severity.OK)
    assert "menu" not in ok.split("Button pins:")[1].split("\n")[0]
    assert "roll GPIO26, roll GPIO24, roll LED GPIO16." in ok
    assert "Buttons: sim." in texts(run(CompanionConfig(), PlatformFacts()), Severity.OK)


def test_buttons_need_gpio_access() -> None:
    facts = pi_facts(devices=frozenset({"/dev/spidev0.0"}), groups=frozenset(), is_root=False)
    problems = texts(run(CompanionConfig(), facts), Severity.PROBLEM)
    assert "No /dev/gpiochip*" in problems and "adduser $USER gpio" in problems


def test_config_problems_come_first_and_explain_the_fallback() -> None:
    loaded = LoadedConfig(
        CompanionConfig().simulated(),
        Path("/x.toml"),
        (ConfigProblem("/x.toml", "line 3, leds.brightness", "too bright"),),
    )
    findings = diagnose(loaded, PlatformFacts(), writable=lambda _p: False)
    assert (
        str(findings[0]) == "[problem] configuration: /x.toml, line 3, leds.brightness: too bright"
    )
    assert "simulated until the file is fixed" in findings[1].text
    assert "not a folder this user can write" in texts(findings, Severity.PROBLEM)


def test_doctor_runs_on_this_machine() -> None:
    findings = doctor()
    assert findings and all(isinstance(f, Finding) for f in findings)
