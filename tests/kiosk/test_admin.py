"""The admin PIN, its lock-out, the PIN pad, the hidden gesture and the admin page.

No Kivy: the store, the pad and the admin presenter are plain Python with an injected
clock, so a lock-out of an hour is tested in no time.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import pytest

from firmware_bridge.doctor import Finding, Severity
from firmware_bridge.rig import Rig
from kiosk import cli
from kiosk.admin import (
    ADMIN_FILE,
    FIRST_LOCK_S,
    FORGIVE_S,
    FREE_ATTEMPTS,
    MAX_LOCK_S,
    RECOVERY_DIGITS,
    SET_PIN_HELP,
    PinError,
    PinStore,
    check_pin_format,
    check_pin_strength,
    format_wait,
    lock_duration,
)
from kiosk.presenters.admin import (
    CALIBRATION_STEP_S,
    AdminPresenter,
    PinPad,
    RigLeds,
    settings_lines,
)
from kiosk.presenters.long_press import LongPress
from kiosk.settings import CompanionConfig, KioskConfig, load_config, parse_config_text
from tests.helpers.clock import FakeClock

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_700_000_000.0)


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> PinStore:
    pins = PinStore(tmp_path, clock)
    pins.set_pin("2468")
    return pins


# --- hashing and the file ---------------------------------------------------------------


def test_pin_is_stored_as_salted_scrypt_only_readable_by_its_owner(store: PinStore) -> None:
    data = json.loads(store.path.read_text())
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    # The PIN appears nowhere as a value (the hex hash may contain "2468" by chance).
    assert "2468" not in {str(value) for value in data.values()}
    assert not any(key in data for key in ("pin", "PIN", "plain"))
    assert (data["kdf"], data["n"], data["r"], data["p"]) == ("scrypt", 2**14, 8, 1)
    salt = bytes.fromhex(data["salt"])
    assert len(salt) == 16
    expected = hashlib.scrypt(b"2468", salt=salt, n=2**14, r=8, p=1, dklen=32)
    assert bytes.fromhex(data["hash"]) == expected
    assert not [p for p in store.path.parent.iterdir() if p.name != ADMIN_FILE]  # no temp left


def test_every_set_pin_draws_a_new_salt(store: PinStore) -> None:
    first = json.loads(store.path.read_text())
    store.set_pin("2468")
    second = json.loads(store.path.read_text())
    assert first["salt"] != second["salt"] and first["hash"] != second["hash"]
    assert store.verify("2468").ok


def test_verify_right_and_wrong_pin(store: PinStore) -> None:
    assert store.verify("2468").ok
    wrong = store.verify("1357")
    assert wrong.status == "wrong" and wrong.attempts_left == FREE_ATTEMPTS - 1
    assert "Wrong PIN" in wrong.message
    assert store.verify("24680").status == "wrong"  # a prefix is not enough
    assert store.verify("abcd").status == "wrong"


def test_a_failed_write_keeps_the_old_pin(store: PinStore, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_replace(*_args: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        store.set_pin("8091")
    monkeypatch.undo()
    assert store.verify("2468").ok
    assert [p.name for p in store.path.parent.iterdir()] == [ADMIN_FILE]


@pytest.mark.parametrize("pin", ["123", "123456789", "12a4", "", "１２３４"])
def test_pins_must_be_4_to_8_ascii_digits(pin: str, tmp_path: Path) -> None:
    with pytest.raises(PinError):
        check_pin_format(pin)
    with pytest.raises(PinError):
        PinStore(tmp_path).set_pin(pin)
    assert not (tmp_path / ADMIN_FILE).exists()


def test_no_file_or_a_damaged_one_means_no_pin_fail_closed(tmp_path: Path) -> None:
    pins = PinStore(tmp_path)
    assert not pins.has_pin
    assert pins.verify("1234").status == "no_pin"
    assert pins.verify("1234").message == SET_PIN_HELP
    (tmp_path / ADMIN_FILE).write_text("{not json")
    assert pins.verify("1234").status == "no_pin"
    assert "damaged" in pins.problem
    pad = PinPad(pins)
    assert pad.mode == "no_pin"
    view = pad.view()
    assert not view.digits_enabled and not view.ok_enabled
    assert "companion admin-pin" in view.prompt and "damaged" in view.message
    good = json.loads(json.dumps({"version": 1}))
    (tmp_path / ADMIN_FILE).write_text(json.dumps(good))
    assert not pins.has_pin


def test_a_file_with_weaker_hash_settings_is_refused(store: PinStore) -> None:
    data = json.loads(store.path.read_text())
    data["n"] = 2
    store.path.write_text(json.dumps(data))
    assert store.verify("2468").status == "no_pin"
    assert "other hash settings" in store.problem


# --- lock-out ----------------------------------------------------------------------------


def test_lock_duration_doubles_from_the_fifth_wrong_pin_up_to_five_minutes() -> None:
    """A visitor tapping at random locks staff out for minutes at most, not an hour."""
    assert [lock_duration(n) for n in range(FREE_ATTEMPTS)] == [0.0] * FREE_ATTEMPTS
    assert lock_duration(5) == FIRST_LOCK_S == 30
    assert lock_duration(6) == 60 and lock_duration(7) == 120
    assert lock_duration(9) == MAX_LOCK_S == lock_duration(500) == 300


def test_the_count_of_wrong_pins_decays(store: PinStore, clock: FakeClock) -> None:
    for _ in range(FREE_ATTEMPTS - 1):
        store.verify("1357")
    assert store.failures() == 4
    clock.now += FORGIVE_S * 2  # twenty quiet minutes forgive two
    assert store.failures() == 2
    assert store.verify("1357").attempts_left == 2  # counted from what is left
    clock.now += FORGIVE_S * 10
    assert store.failures() == 0


def test_a_long_lock_out_decays_too(store: PinStore, clock: FakeClock) -> None:
    for _ in range(FREE_ATTEMPTS + 20):  # a visitor at the pad for a long time
        store.verify("1357")
        clock.now += store.locked_for()
    assert store.locked_for() == 0 or store.locked_for() <= MAX_LOCK_S
    clock.now += FORGIVE_S * 30
    assert store.verify("2468").ok


def test_the_recovery_code_opens_a_locked_pad_and_clears_the_lock(tmp_path: Path) -> None:
    clock = FakeClock(1_700_000_000.0)
    store = PinStore(tmp_path, clock)
    code = store.set_pin("2468")
    assert code is not None and len(code) == RECOVERY_DIGITS and code.isdigit()
    for _ in range(FREE_ATTEMPTS + 3):
        store.verify("1357")
    assert store.locked_for() > 0
    assert store.verify("2468").status == "locked"  # the PIN waits for the lock ...
    assert store.verify(code).ok  # ... the staff recovery code does not
    assert store.locked_for() == 0 and store.failures() == 0
    assert code not in store.path.read_text()  # kept hashed only
    wrong = "0" * RECOVERY_DIGITS if code != "0" * RECOVERY_DIGITS else "1" * RECOVERY_DIGITS
    assert not store.verify(wrong).ok


def test_changing_the_pin_on_the_pad_keeps_the_recovery_code(tmp_path: Path) -> None:
    store = PinStore(tmp_path, FakeClock(1_700_000_000.0))
    code = store.set_pin("2468")
    assert store.set_pin("8091", keep_recovery=True) is None
    assert code is not None and store.verify(code).ok
    assert store.set_pin("8091") not in (None, code)  # the shell's reset makes a new one


@pytest.mark.parametrize(
    ("pin", "why"),
    [
        ("0000", "one digit repeated"),
        ("1111", "one digit repeated"),
        ("1234", "run of digits"),
        ("4321", "run of digits"),
        ("7890", "run of digits"),
        ("12345678", "run of digits"),
        ("1212", "repeats 12"),
        ("123123", "repeats 123"),
        ("2580", "most common"),
    ],
)
def test_easy_pins_are_refused(tmp_path: Path, pin: str, why: str) -> None:
    with pytest.raises(PinError, match=why):
        check_pin_strength(pin)
    with pytest.raises(PinError):
        PinStore(tmp_path).set_pin(pin)
    assert not (tmp_path / ADMIN_FILE).exists()


@pytest.mark.parametrize("pin", ["2468", "8091", "97531", "40719", "13572468"])
def test_other_pins_are_taken(pin: str) -> None:
    assert check_pin_strength(pin) == pin


def test_five_wrong_pins_lock_the_pad_even_for_the_right_one(
    store: PinStore, clock: FakeClock
) -> None:
    left = [store.verify("0000").attempts_left for _ in range(FREE_ATTEMPTS - 1)]
    assert left == [4, 3, 2, 1]
    fifth = store.verify("0000")
    assert fifth.status == "locked" and fifth.locked_for_s == 30
    assert "try again in 30 s" in fifth.message
    clock.now += 10
    locked = store.verify("2468")  # the right PIN is not even looked at
    assert locked.status == "locked" and locked.locked_for_s == 20
    clock.now += 20
    sixth = store.verify("0000")  # after the lock: one try, then a longer lock
    assert sixth.status == "locked" and sixth.locked_for_s == 60
    clock.now += 60
    assert store.verify("2468").ok
    assert store.verify("0000").attempts_left == 4  # the count starts again


def test_the_lock_out_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    PinStore(tmp_path, clock).set_pin("2468")
    first = PinStore(tmp_path, clock)
    for _ in range(FREE_ATTEMPTS):
        first.verify("1111")
    restarted = PinStore(tmp_path, clock)
    assert restarted.locked_for() == 30
    assert restarted.verify("2468").status == "locked"
    clock.now += 30
    assert PinStore(tmp_path, clock).verify("2468").ok


def test_a_clock_set_back_does_not_stretch_the_lock(store: PinStore, clock: FakeClock) -> None:
    for _ in range(FREE_ATTEMPTS):
        store.verify("1111")
    clock.now -= 10 * 365 * 24 * 3600  # a Pi without RTC booting in the past
    assert store.locked_for() == 30


def test_setting_the_pin_again_is_the_reset(store: PinStore) -> None:
    for _ in range(FREE_ATTEMPTS + 2):
        store.verify("1111")
    assert store.locked_for() > 0
    store.set_pin("97531")
    assert store.locked_for() == 0
    assert store.verify("97531").ok and not store.verify("2468").ok


def test_format_wait_rounds_up() -> None:
    assert format_wait(0.2) == "1 s"
    assert format_wait(60) == "1 min"
    assert format_wait(95) == "1 min 35 s"
    assert format_wait(3600) == "60 min"


# --- the PIN pad -------------------------------------------------------------------------


def type_pin(pad: PinPad, pin: str) -> None:
    for digit in pin:
        pad.press(int(digit))


def test_pad_unlocks_with_the_right_pin(store: PinStore) -> None:
    pad = PinPad(store)
    assert pad.mode == "unlock" and not pad.view().ok_enabled
    type_pin(pad, "2468")
    assert pad.view().dots == "● ● ● ●"
    assert pad.submit() == "unlocked"
    assert pad.entered == ""


def test_pad_wrong_pin_says_how_many_tries_are_left(store: PinStore) -> None:
    pad = PinPad(store)
    type_pin(pad, "1357")
    pad.erase()
    assert pad.entered == "135"
    assert pad.submit() is None
    view = pad.view()
    assert view.error and "4 tries" in view.message and view.dots == ""


def test_pad_shows_the_lock_out_and_waits_for_it(store: PinStore, clock: FakeClock) -> None:
    pad = PinPad(store)
    for _ in range(FREE_ATTEMPTS):
        type_pin(pad, "1111")
        pad.submit()
    view = pad.view()
    assert not view.ok_enabled  # only the recovery code's twelve digits could be tried
    assert "try again in 30 s" in view.message
    type_pin(pad, "2468")
    assert not pad.view().ok_enabled
    clock.now += 31
    assert pad.view().ok_enabled


def test_pad_offers_the_recovery_code_while_locked(tmp_path: Path, clock: FakeClock) -> None:
    store = PinStore(tmp_path, clock)
    code = store.set_pin("2468")
    assert code is not None
    pad = PinPad(store)
    for _ in range(FREE_ATTEMPTS):
        type_pin(pad, "1111")
        pad.submit()
    view = pad.view()
    assert "recovery code" in view.message and view.digits_enabled and not view.ok_enabled
    type_pin(pad, code)
    assert pad.view().ok_enabled
    assert pad.submit() == "unlocked"


def test_pad_takes_at_most_the_recovery_codes_digits(store: PinStore) -> None:
    pad = PinPad(store)
    type_pin(pad, "12345678901234")
    assert pad.entered == "123456789012"
    assert not pad.view().digits_enabled
    change = PinPad(store, "change")
    type_pin(change, "2468")
    change.submit()
    type_pin(change, "1234567890")
    assert change.entered == "12345678"  # a new PIN has at most eight


def test_pad_changes_the_pin_only_after_the_current_one(store: PinStore) -> None:
    """Change PIN asks for the current PIN first: a visitor who finds the admin page
    open cannot set a PIN that staff do not know."""
    pad = PinPad(store, "change")
    assert pad.mode == "old"
    type_pin(pad, "1357")
    assert pad.submit() is None and pad.view().mode == "old" and pad.view().error
    type_pin(pad, "2468")
    assert pad.submit() is None
    assert pad.view().mode == "new"
    type_pin(pad, "1234")
    assert pad.submit() is None and "run of digits" in pad.view().message
    type_pin(pad, "12")
    assert not pad.view().ok_enabled
    assert pad.submit() is None and pad.view().mode == "new" and pad.view().error
    type_pin(pad, "5927")
    assert pad.submit() is None
    assert pad.view().mode == "confirm"
    type_pin(pad, "5928")
    assert pad.submit() is None
    assert pad.view().mode == "new" and "differ" in pad.view().message
    assert store.verify("2468").ok  # nothing changed yet
    type_pin(pad, "5927")
    pad.submit()
    type_pin(pad, "5927")
    assert pad.submit() == "changed"
    assert store.verify("5927").ok and not store.verify("2468").ok


# --- the hidden gesture ------------------------------------------------------------------


def test_long_press_fires_once_after_three_seconds() -> None:
    press = LongPress()
    press.down(10, 20, now=100)
    assert not press.fired(102.9)
    press.move(20, 30)  # a wobbling finger is still holding
    assert press.fired(103.0)
    assert not press.fired(110)


def test_long_press_is_cancelled_by_lifting_or_swiping() -> None:
    press = LongPress()
    press.down(10, 20, now=0)
    press.up()
    assert not press.fired(5)
    press.down(10, 20, now=0)
    press.move(60, 20)
    assert not press.pressing and not press.fired(5)


# --- the admin page ----------------------------------------------------------------------


class FakeLeds:
    def __init__(self) -> None:
        self.level = 0.5
        self.lit: list[str | None] = []

    def brightness(self) -> float:
        return self.level

    def set_brightness(self, value: float) -> None:
        self.level = value

    def cells_in_strip_order(self) -> Sequence[tuple[str, tuple[int, ...]]]:
        return (("0,0", (0,)), ("0,1", (1,)), ("0,2", (2, 3)))

    def light_cell(self, cell: str | None) -> None:
        self.lit.append(cell)


def findings() -> list[Finding]:
    return [
        Finding(Severity.OK, "LEDs", "121 LEDs are simulated."),
        Finding(Severity.PROBLEM, "dice", "The tray is not plugged in."),
    ]


def test_admin_page_shows_the_doctor_and_the_settings() -> None:
    config = KioskConfig(locked=True, idle_timeout_s=120, on_boot="demo")
    admin = AdminPresenter(config, demo_games=("builders",), diagnose=findings)
    view = admin.view()
    assert [(f.severity, f.text) for f in view.findings] == [
        ("ok", "LEDs: 121 LEDs are simulated."),
        ("problem", "dice: The tray is not plugged in."),
    ]
    assert "Locked (shop mode): yes" in view.settings
    assert "Demo: after 2 min without a touch" in view.settings
    assert "On start: start the demo" in view.settings
    assert "Demo games: Builders of the Colossus" in view.settings
    assert view.brightness is None and not view.can_calibrate
    assert "off (idle_timeout_s = 0)" in settings_lines(KioskConfig(idle_timeout_s=0), ())[1]


def test_a_failing_doctor_is_a_finding_not_a_crash() -> None:
    def broken() -> list[Finding]:
        raise RuntimeError("no /proc")

    admin = AdminPresenter(KioskConfig(), demo_games=(), diagnose=broken)
    (line,) = admin.view().findings
    assert line.severity == "problem" and "no /proc" in line.text


def test_brightness_steps_stay_between_0_and_100_percent() -> None:
    leds = FakeLeds()
    admin = AdminPresenter(KioskConfig(), demo_games=(), diagnose=list, leds=leds)
    admin.step_brightness(+1)
    assert admin.view().brightness == 60
    for _ in range(10):
        admin.step_brightness(+1)
    assert leds.level == 1.0
    for _ in range(15):
        admin.step_brightness(-1)
    assert leds.level == 0.0 and admin.view().brightness == 0


def test_calibration_lights_each_cell_in_strip_order_then_goes_dark() -> None:
    leds = FakeLeds()
    admin = AdminPresenter(KioskConfig(), demo_games=(), diagnose=list, leds=leds)
    admin.start_calibration(now=0)
    assert admin.view().calibration == "1/3: cell 0,0 = LED 0"
    admin.tick(0.5)
    assert leds.lit == ["0,0"]
    admin.tick(CALIBRATION_STEP_S)
    admin.tick(2 * CALIBRATION_STEP_S)
    assert admin.view().calibration == "3/3: cell 0,2 = LED 2, 3"
    admin.tick(3 * CALIBRATION_STEP_S)
    assert leds.lit == ["0,0", "0,1", "0,2", None]
    assert not admin.calibrating and admin.view().notice == "Calibration finished."
    admin.start_calibration(now=10)
    admin.stop_calibration()
    assert leds.lit[-1] is None and admin.view().calibration is None


def test_rig_leds_dim_the_animator_and_light_one_cell() -> None:
    calls: list[Any] = []

    class Animator:
        def set_brightness(self, value: float) -> None:
            calls.append(("brightness", value))

    class Layout:
        def cells_in_strip_order(self) -> tuple[str, ...]:
            return ("5,5", "0,0")

        def leds_of(self, cell: str) -> tuple[int, ...]:
            return (60,) if cell == "5,5" else (0,)

    class FakeRig:
        config = CompanionConfig()
        animator = Animator()
        layout = Layout()

        def show_highlights(self, highlights: Any) -> None:
            calls.append(("show", tuple((h.cell, h.role.value) for h in highlights)))

    leds = RigLeds(cast(Rig, FakeRig()))
    assert leds.brightness() == CompanionConfig().leds.brightness
    leds.set_brightness(0.2)
    assert leds.brightness() == 0.2
    assert leds.cells_in_strip_order() == (("5,5", (60,)), ("0,0", (0,)))
    leds.light_cell("5,5")
    leds.light_cell(None)
    assert calls == [("brightness", 0.2), ("show", (("5,5", "selected"),)), ("show", ())]


# --- configuration and the CLI -----------------------------------------------------------


def test_kiosk_section_reads_every_shop_setting() -> None:
    text = (
        '[kiosk]\nlocked = true\nidle_timeout_s = 90\non_boot = "demo"\n'
        'demo_step_s = 1.0\ndemo_outcome_s = 5\ndemo_games = ["kolossus"]\n'
    )
    config, problems = parse_config_text(text, "c.toml")
    assert not problems and config is not None
    kiosk = config.kiosk
    assert kiosk.locked and kiosk.idle_timeout_s == 90 and kiosk.on_boot == "demo"
    assert kiosk.demo_step_s == 1.0 and kiosk.demo_outcome_s == 5
    assert kiosk.demo_games == ("kolossus",)
    defaults = KioskConfig()
    assert (defaults.locked, defaults.idle_timeout_s, defaults.on_boot) == (False, 0, "resume")


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ('on_boot = "sleep"', "kiosk.on_boot"),
        ("idle_timeout_s = -1", "kiosk.idle_timeout_s"),
        ("demo_step_s = 0", "kiosk.demo_step_s"),
        ('locked = "yes please"', "kiosk.locked"),
    ],
)
def test_bad_kiosk_settings_name_their_line(line: str, key: str) -> None:
    config, problems = parse_config_text(f"[kiosk]\n{line}\n", "c.toml")
    assert config is None
    assert problems[0].where == f"line 2, {key}"


def test_example_file_documents_every_kiosk_setting_at_its_default() -> None:
    loaded = load_config(EXAMPLES / "companion.toml", environ={})
    assert loaded.ok, loaded.problems
    assert loaded.config.kiosk == KioskConfig()
    text = (EXAMPLES / "companion.toml").read_text()
    kiosk_part = text[text.index("[kiosk]") :]
    for name in KioskConfig.model_fields:
        assert f"\n{name} =" in kiosk_part or f"\n# {name} =" in kiosk_part, name


def run_cli(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        code = cli.main(args)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_cli_admin_pin_from_stdin_sets_the_pin_and_clears_the_lock(tmp_path: Path) -> None:
    store = PinStore(tmp_path)
    store.set_pin("8091")
    for _ in range(FREE_ATTEMPTS):
        store.verify("0000")
    assert store.locked_for() > 0
    code, out, err = run_cli(["--data-dir", str(tmp_path), "admin-pin", "--stdin"], "8642\n")
    assert code == 0, err
    assert "lock-out cleared" in out and "Staff recovery code: " in out
    assert store.locked_for() == 0 and store.verify("8642").ok


def test_cli_admin_pin_refuses_a_bad_pin_and_changes_nothing(tmp_path: Path) -> None:
    code, _out, err = run_cli(["--data-dir", str(tmp_path), "admin-pin", "--stdin"], "12\n")
    assert code == 1 and "4 to 8 digits" in err
    assert not (tmp_path / ADMIN_FILE).exists()


def test_cli_admin_pin_prompts_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    answers = iter(["2590", "2591"])
    monkeypatch.setattr(getpass, "getpass", lambda prompt="": next(answers))
    code, _out, err = run_cli(["--data-dir", str(tmp_path), "admin-pin"])
    assert code == 1 and "differ" in err
    assert not (tmp_path / ADMIN_FILE).exists()
    answers = iter(["2590", "2590"])
    code, _out, err = run_cli(["--data-dir", str(tmp_path), "admin-pin"])
    assert code == 0, err
    assert PinStore(tmp_path).verify("2590").ok


def test_cli_admin_pin_refuses_an_easy_pin(tmp_path: Path) -> None:
    code, _out, err = run_cli(["--data-dir", str(tmp_path), "admin-pin", "--stdin"], "1234\n")
    assert code == 1 and "run of digits" in err
    assert not (tmp_path / ADMIN_FILE).exists()
