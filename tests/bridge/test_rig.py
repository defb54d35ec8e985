"""The rig: config → running devices, simulated twins on the real code paths.

Dice from the simulated tray cross a pty to the real serial reader; buttons are
gpiozero ``MockFactory`` pins read by the real ``ButtonPanel``; LEDs are rendered by the
real animator onto the simulated strip, and every shipped frame comes back to the owner.
The button → game action mapping is driven through the kiosk's hub and the play
presenter (no Kivy: the presenter is what the screen calls).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.dice import Roll
from companion.events import DiceRolled
from companion.highlights import Highlight, Role
from companion.journal import Journal
from companion.session import Session
from firmware_bridge.buttons import ButtonPressed, RollButtonPressed
from firmware_bridge.config import ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.dice.godice_source import GoDiceSource
from firmware_bridge.dice.gpio_die import GpioDie
from firmware_bridge.dice.messages import TrayState, TrayStatus
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.leds.palette import ISLAND_PALETTE
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.platform import Platform
from firmware_bridge.rig import (
    SIM_TRAY_BATTERY,
    DeviceNote,
    LedFrameShown,
    Rig,
    RigMessage,
    build_rig,
    frame_crc,
    lit_leds,
)
from kiosk.hardware import HardwareHub, HubHandlers, RollTarget, press_on_game
from kiosk.presenters.play import PlayPresenter
from kiosk.settings import CompanionConfig, LoadedConfig, load_config, parse_config_text

LAPTOP = Platform(None)
WAIT_S = 5.0


def loaded(text: str) -> LoadedConfig:
    config, problems = parse_config_text(text, "test.toml")
    assert config is not None and not problems, problems
    return LoadedConfig(config, None)


def only(
    dice: str = "none", buttons: str = "none", leds: str = "none", **dice_settings: Any
) -> LoadedConfig:
    config = CompanionConfig(
        dice=DiceConfig.model_validate({"source": dice, **dice_settings}),
        buttons=ButtonsConfig.model_validate({"source": buttons}),
        leds=LedsConfig.model_validate({"driver": leds}),
    )
    return LoadedConfig(config, None)


class Posted:
    """What a started rig posted, thread-safe, with a bounded wait."""

    def __init__(self) -> None:
        self.messages: list[RigMessage] = []
        self._changed = threading.Condition()

    def __call__(self, message: RigMessage) -> None:
        with self._changed:
            self.messages.append(message)
            self._changed.notify_all()

    def wait_for(self, found: Callable[[RigMessage], bool], timeout: float = WAIT_S) -> RigMessage:
        with self._changed:
            hit: list[RigMessage] = []

            def seen() -> bool:
                hit[:] = [m for m in self.messages if found(m)]
                return bool(hit)

            assert self._changed.wait_for(seen, timeout), self.messages[-5:]
            return hit[0]

    def notes(self) -> list[DeviceNote]:
        return [m for m in self.messages if isinstance(m, DeviceNote)]


@pytest.fixture
def rigs() -> Iterator[list[Rig]]:
    """Rigs made by a test are stopped after it, whatever happened."""
    made: list[Rig] = []
    yield made
    for rig in made:
        rig.stop()


def start(rigs: list[Rig], rig: Rig, post: Callable[[RigMessage], None]) -> Rig:
    rigs.append(rig)
    rig.start(post)
    return rig


def pump_until(hub: HardwareHub, target: RollTarget | None, done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, "never happened"
        hub.pump(target)
        time.sleep(0.01)


# --------------------------------------------------------------------------- building


def test_each_dice_source_is_built_from_the_config(tmp_path: Path) -> None:
    serial = build_rig(loaded('[dice]\nsource = "serial"\n[dice.serial]\nport = "/dev/x"\n').config)
    [tray] = serial.dice
    assert isinstance(tray, SerialDiceTray) and tray.settings.port == "/dev/x"
    assert tray.settings.enabled
    assert serial.sim is None or serial.sim.tray is None  # no simulated tray

    gpio = build_rig(loaded('[dice]\nsource = "gpio"\n[dice.gpio]\nfaces = 6\n').config, LAPTOP)
    [die] = gpio.dice
    assert isinstance(die, GpioDie) and die.settings.faces == 6

    text = '[dice]\nsource = "godice"\n[[dice.godice.dice]]\nname = "GoDice"\nshell = "D4"\n'
    godice = build_rig(loaded(text).config, LAPTOP)
    [ble] = godice.dice
    assert isinstance(ble, GoDiceSource) and ble.settings.dice[0].shell.faces == 4

    sim = build_rig(only(dice="sim").config, LAPTOP, sim_dir=tmp_path)
    [reader] = sim.dice
    assert isinstance(reader, SerialDiceTray)  # the real reader ...
    assert sim.sim is not None and sim.sim.tray is not None
    assert (
        reader.settings.port == sim.sim.tray.path == str(tmp_path / "dice-tray")
    )  # ... on the pty
    assert sim.sim.pins is None and sim.strip is None  # buttons and LEDs are "none"

    assert build_rig(only().config, LAPTOP).dice == []


def test_auto_means_simulated_off_a_pi_and_real_on_a_pi(rigs: list[Rig]) -> None:
    laptop = build_rig(load_config(None, environ={}, platform=LAPTOP).config, LAPTOP)
    rigs.append(laptop)  # stopped afterwards: removes the simulated port's folder
    assert laptop.sim is not None and laptop.sim.tray is not None and laptop.sim.pins is not None
    assert isinstance(laptop.sim.strip, SimStrip)
    config = CompanionConfig(leds=LedsConfig(driver="none"))
    pi = build_rig(config, Platform("Raspberry Pi 4 Model B Rev 1.4"))
    assert [type(source) for source in pi.dice] == [SerialDiceTray]
    assert pi.sim is None and pi.buttons is not None  # the board's own GPIO buttons


def test_buttons_and_leds_follow_their_settings(tmp_path: Path) -> None:
    rig = build_rig(
        loaded('[buttons]\nsource = "sim"\nundo_pin = 12\n[leds]\ndriver = "sim"\n').config
    )
    assert rig.buttons is not None and rig.buttons.undo_pin == 12
    assert rig.sim is not None and rig.sim.pins is not None
    assert rig.layout is not None and rig.layout.led_count == 121
    assert rig.strip is not None and isinstance(rig.strip.inner, SimStrip)
    assert rig.animator is not None and rig.animator.fps == 42.0
    off = build_rig(only(buttons="none", leds="none").config)
    assert off.buttons is None and off.animator is None and off.layout is None


# --------------------------------------------------------------------------- dice, real path


def test_sim_tray_roll_crosses_the_pty_to_a_journaled_game_roll(
    tmp_path: Path, rigs: list[Rig]
) -> None:
    hub = HardwareHub()
    rig = start(
        rigs, build_rig(only(dice="sim").config, LAPTOP, sim_dir=tmp_path / "sim"), hub.post
    )
    with Journal(tmp_path / "journal.sqlite3") as journal:
        session = Session.new("kolossus", ["Ann", "Bob"], seed=5, journal=journal)
        play = PlayPresenter(session)
        play.submit({"type": "ready"})  # placement done: the Great Quake wants 1d4
        request = play.queries.dice_request()
        assert request is not None and (request.count, request.sides) == (1, 4)
        pump_until(hub, play.dice, lambda: play.view().devices == (f"Dice on {SIM_TRAY_BATTERY}%",))
        assert rig.sim is not None
        rig.sim.roll_dice(4, 1, faces=[3])
        pump_until(hub, play.dice, lambda: len(session.actions) == 2)
        assert session.actions[1] == Roll(values=(3,), source="electronic", device="sim-tray")
        rolled = [e for e in session.events[-1] if isinstance(e, DiceRolled)]
        assert rolled and rolled[0].values == (3,)
        game_id = session.game_id
        assert game_id is not None
    with Journal(tmp_path / "journal.sqlite3") as journal:  # durable, as the referee saw it
        resumed, damage = Session.resume(journal, game_id)
        assert damage is None and resumed.actions == session.actions


def test_a_roll_made_while_unplugged_arrives_after_the_replug(
    tmp_path: Path, rigs: list[Rig]
) -> None:
    posted = Posted()
    rig = start(rigs, build_rig(only(dice="sim").config, LAPTOP, sim_dir=tmp_path), posted)
    assert rig.sim is not None and rig.sim.tray is not None
    assert rig.sim.tray.wait_until("connected", WAIT_S)
    rig.sim.unplug()
    posted.wait_for(lambda m: isinstance(m, TrayStatus) and m.state is TrayState.RECONNECTING)
    rig.sim.roll(2, face=4)  # the tray keeps it until the host acks it
    rig.sim.replug()
    result = posted.wait_for(lambda m: getattr(m, "face", None) == 4)
    assert getattr(result, "die_id", None) == 2


# --------------------------------------------------------------------------- failures


@pytest.fixture
def no_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    """Off a Pi with no pin factory chosen: gpiozero cannot open any pin."""
    from gpiozero import Device

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)


@pytest.mark.filterwarnings("ignore::Warning")
def test_devices_that_cannot_open_are_reported_not_raised(
    tmp_path: Path, rigs: list[Rig], no_gpio: None
) -> None:
    text = f"""
[dice]
source = "gpio"
[buttons]
source = "gpio"
[leds]
driver = "ws281x"
layout = "{tmp_path / "missing.json"}"
"""
    posted = Posted()
    rig = start(rigs, build_rig(loaded(text).config, LAPTOP), posted)
    notes = {note.device: note.text for note in posted.notes()}
    assert set(notes) == {"dice", "buttons", "leds"}
    assert "gpio-die" in notes["dice"] and "pin factory" in notes["dice"]
    assert "table buttons could not start" in notes["buttons"]
    assert "not a Raspberry Pi" in notes["leds"] or "not available" in notes["leds"]
    assert any("layout could not be read" in n.text for n in posted.notes())
    # The LEDs fell back to the simulated strip, so the mirror still works.
    assert rig.sim is not None and isinstance(rig.sim.strip, SimStrip)
    rig.show_highlights([Highlight(cell="5,5", role=Role.SELECTED)])
    posted.wait_for(lambda m: isinstance(m, LedFrameShown) and any(map(any, m.frame)))


def test_a_strip_that_fails_when_opened_falls_back_to_the_sim_strip(rigs: list[Rig]) -> None:
    """A Pi 5 config whose SPI strip cannot open here: a note, then the simulated strip."""
    config = CompanionConfig(
        dice=DiceConfig(source="none"),
        buttons=ButtonsConfig(source="none"),
        leds=LedsConfig(driver="spi"),
    )
    rig = build_rig(config, Platform("Raspberry Pi 5 Model B Rev 1.0"))
    assert rig.notes == [] and rig.strip is not None
    failed = rig.strip
    assert not isinstance(failed.inner, SimStrip)  # the SPI driver, built but not opened
    posted = Posted()
    start(rigs, rig, posted)
    [note] = posted.notes()
    assert note.device == "leds" and "simulated strip instead" in note.text
    assert failed.closed and rig.strip is not failed
    assert rig.sim is not None and isinstance(rig.sim.strip, SimStrip)
    assert rig.animator is not None and rig.animator.running


def test_a_missing_serial_tray_is_a_status_for_the_badge(rigs: list[Rig]) -> None:
    text = '[dice]\nsource = "serial"\n[dice.serial]\nport = "/nonexistent/tray"\n'
    hub = HardwareHub()
    rig = start(rigs, build_rig(loaded(text).config, LAPTOP), hub.post)
    pump_until(hub, None, lambda: "serial-tray" in hub.statuses)
    assert hub.statuses["serial-tray"].state == "disconnected"  # the badge says "Dice off"
    assert hub.notes == []  # not a failure: the reader keeps looking
    time.sleep(0.1)
    [reader] = rig.dice
    assert reader.state is TrayState.ABSENT


def test_godice_without_the_bluetooth_packages_is_a_note(
    monkeypatch: pytest.MonkeyPatch, rigs: list[Rig]
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "bleak" else real(name, *a)
    )
    text = '[dice]\nsource = "godice"\n[[dice.godice.dice]]\nname = "GoDice"\n'
    posted = Posted()
    rig = start(rigs, build_rig(loaded(text).config, LAPTOP), posted)
    assert rig.dice == []
    [note] = posted.notes()
    assert note.device == "dice" and "bleak" in note.text and "[ble]" in note.text


# --------------------------------------------------------------------------- buttons


@pytest.fixture
def table(tmp_path: Path, rigs: list[Rig]) -> Iterator[tuple[Rig, HardwareHub]]:
    """Simulated buttons whose presses reach the hub; the test wires the game."""
    hub = HardwareHub()
    rig = start(rigs, build_rig(only(buttons="sim").config, LAPTOP), hub.post)
    yield rig, hub


def press(rig: Rig, button: Any, hold: bool = False) -> None:
    assert rig.sim is not None
    rig.sim.press(button, hold=hold).join()


def test_undo_and_held_undo_redo_through_mock_pins(table: tuple[Rig, HardwareHub]) -> None:
    rig, hub = table
    play = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=3))
    pressed: list[object] = []

    def on_button(message: Any) -> None:
        pressed.append(message)
        press_on_game(play, message)

    hub.connect(HubHandlers(button=on_button))
    first = play.queries.legal_payloads()[0]
    play.submit(first)
    press(rig, "undo")
    pump_until(hub, play.dice, lambda: not play.session.actions)
    assert pressed == [ButtonPressed("undo", "undo")]
    press(rig, "undo", hold=True)  # held 1 s = redo
    pump_until(hub, play.dice, lambda: len(play.session.actions) == 1)
    assert pressed[-1] == ButtonPressed("undo", "redo", held=True)
    assert play.rules.dump_action(play.session.actions[0]) == first


def test_end_turn_button_plays_the_games_end_turn_when_legal(
    table: tuple[Rig, HardwareHub],
) -> None:
    rig, hub = table
    play = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=3))
    hub.connect(HubHandlers(button=lambda message: press_on_game(play, message)))
    assert all(p.get("type") != "end_turn" for p in play.queries.legal_payloads())
    press(rig, "end_turn")  # not legal yet: refused with a banner, nothing played
    pump_until(hub, play.dice, lambda: play.view().banner is not None)
    assert not play.session.actions
    bot = RandomBot(1)
    while all(p.get("type") != "end_turn" for p in play.queries.legal_payloads()):
        play.submit(bot.choose(play.rules, play.state))
    played = len(play.session.actions)
    seat = play.rules.current_player(play.state)
    press(rig, "end_turn")
    pump_until(hub, play.dice, lambda: len(play.session.actions) == played + 1)
    assert play.rules.dump_action(play.session.actions[-1])["type"] == "end_turn"
    assert play.rules.current_player(play.state) != seat


def test_confirm_walks_the_fix_the_table_steps(table: tuple[Rig, HardwareHub]) -> None:
    rig, hub = table
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=5))
    hub.connect(HubHandlers(button=lambda message: press_on_game(play, message)))
    play.submit({"type": "ready"})
    play.submit(Roll(values=(1,)))
    quake = next(p for p in play.queries.legal_payloads() if p["type"] == "quake_move")
    play.submit(quake)
    total = len(play.fix.steps)
    assert total >= 1 and play.fix.step is not None
    for done in range(1, total + 1):
        press(rig, "confirm")
        pump_until(hub, play.dice, lambda done=done: play.fix.index == done)  # type: ignore[misc]
    assert play.view().fix is None
    press(rig, "confirm")  # nothing left to confirm: a note, no action
    pump_until(hub, play.dice, lambda: "Nothing to confirm" in play.view().notice)
    assert len(play.session.actions) == 3


def test_roll_button_makes_the_pi_roll_with_feedback(table: tuple[Rig, HardwareHub]) -> None:
    rig, hub = table
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=5))
    seen: list[object] = []

    def on_button(message: Any) -> None:
        seen.append(message)
        press_on_game(play, message)

    hub.connect(HubHandlers(button=on_button))
    play.submit({"type": "ready"})
    assert rig.sim is not None and rig.panel is not None
    led = rig.sim.pins.pin(rig.sim.button_settings.feedback_led_pin)
    timer = rig.sim.press("roll")
    deadline = time.monotonic() + WAIT_S
    while not rig.panel.feedback_on and time.monotonic() < deadline:
        time.sleep(0.005)
    assert led.state  # the roll light is on while the Pi rolls
    timer.join()
    pump_until(hub, play.dice, lambda: len(play.session.actions) == 2)
    assert isinstance(seen[0], RollButtonPressed)
    assert play.session.actions[1] == Roll(source="software")  # the game's seeded generator
    rolled = [e for e in play.session.events[-1] if isinstance(e, DiceRolled)]
    assert rolled and 1 <= rolled[0].values[0] <= 4


# --------------------------------------------------------------------------- LEDs


def test_shipped_frames_come_back_and_match_the_strip(tmp_path: Path, rigs: list[Rig]) -> None:
    posted = Posted()
    frame_file = tmp_path / "leds.json"
    rig = start(rigs, build_rig(only(leds="sim").config, LAPTOP, frame_file=frame_file), posted)
    assert rig.sim is not None and rig.sim.strip is not None and rig.layout is not None
    rig.show_highlights([Highlight(cell="0,0", role=Role.SELECTED, player=1)])
    shown = posted.wait_for(lambda m: isinstance(m, LedFrameShown) and any(map(any, m.frame)))
    assert isinstance(shown, LedFrameShown)
    assert shown.frame in rig.sim.strip.frames  # exactly what the strip was handed
    lit = {i for i, pixel in enumerate(shown.frame) if any(pixel)}
    assert lit == set(rig.layout.leds_of("0,0"))
    rig.stop()
    record = json.loads(frame_file.read_text())
    assert record["seq"] >= shown.seq
    assert record["recent"][str(shown.seq)] == frame_crc(shown.frame)
    at, lit_mask, handed = record["shipped"][str(shown.seq)]
    assert at <= time.monotonic()  # when, on the machine's monotonic clock
    assert lit_leds(lit_mask) == lit
    assert handed == 1, "made from the first highlights handed over"
    assert not any(map(any, record["frame"]))  # stopping leaves the board dark


def test_the_strip_shows_only_the_current_fix_step_and_the_games_palette(
    rigs: list[Rig],
) -> None:
    """The play presenter owns the step and hands the rig only step 2's FIX light once
    step 1 is done; the rig lights exactly that, in the palette it is given."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=5))
    play.submit({"type": "ready"})
    play.submit(Roll(values=(1,)))
    game = tuple(h for h in play.highlights() if h.role is not Role.ROLL)  # the roll's cue
    assert game == play.rules.highlights(play.state, None)  # no walk-through
    play.submit(next(p for p in play.queries.legal_payloads() if p["type"] == "quake_move"))
    first, second = play.fix.steps[0], play.fix.steps[1]
    assert play.highlights() == first.highlights(1)
    play.fix.next()
    assert play.highlights() == second.highlights(2)
    first_cells, second_cells = set(first.cells) - set(second.cells), set(second.cells)
    posted = Posted()
    rig = start(rigs, build_rig(only(leds="sim").config, LAPTOP), posted)
    layout = rig.layout
    assert layout is not None and rig.animator is not None
    rig.show_highlights(play.highlights(), palette=ISLAND_PALETTE)
    assert rig.animator.palette is ISLAND_PALETTE
    frame = posted.wait_for(
        lambda m: (
            isinstance(m, LedFrameShown)
            and all(any(m.frame[i] != (0, 0, 0) for i in layout.leds_of(c)) for c in second_cells)
        )
    )
    assert isinstance(frame, LedFrameShown)
    assert all(frame.frame[i] == (0, 0, 0) for c in first_cells for i in layout.leds_of(c))


def test_stop_releases_every_thread_and_can_be_called_twice(
    tmp_path: Path, rigs: list[Rig]
) -> None:
    before = {t.name for t in threading.enumerate()}
    rig = start(
        rigs, build_rig(load_config(None, environ={}, platform=LAPTOP).config, LAPTOP), Posted()
    )
    assert rig.sim is not None and rig.sim.tray is not None
    assert rig.sim.tray.wait_until("connected", WAIT_S)
    path = Path(rig.sim.tray.path)
    rig.stop()
    rig.stop()
    time.sleep(0.05)
    left = {t.name for t in threading.enumerate()} - before
    assert not left, left
    assert not path.parent.exists()  # the simulated port's folder is removed
