"""The hardware hub: device threads post, the main thread drains (no Kivy needed).

Dice come from the rig's simulated tray: a pty pair whose far end speaks the tray
protocol, read by the real serial reader — the same path as a Pico on USB.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.dice import Roll
from companion.events import DiceRolled
from companion.session import Session
from firmware_bridge.buttons import ButtonPressed
from firmware_bridge.config import ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.dice.messages import DieResult, TrayState, TrayStatus
from firmware_bridge.platform import Platform
from firmware_bridge.rig import DeviceNote, LedFrameShown, Rig, build_rig
from kiosk.hardware import MAX_PER_PUMP, HardwareHub, HubHandlers, RollTarget
from kiosk.presenters.play import PlayPresenter
from kiosk.settings import CompanionConfig
from tests.helpers.toy_rules import TwoDicePig
from tests.kiosk.helpers import assert_imports_without_kivy

WAIT_S = 5.0


def test_hub_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.hardware", "tests.kiosk.test_hardware_hub")


@pytest.fixture
def sim_rig(tmp_path: Path) -> Iterator[Rig]:
    """Simulated dice only (no buttons, no LEDs), not started."""
    config = CompanionConfig(
        dice=DiceConfig(source="sim"),
        buttons=ButtonsConfig(source="none"),
        leds=LedsConfig(driver="none"),
    )
    rig = build_rig(config, Platform(None), sim_dir=tmp_path)
    yield rig
    rig.stop()


def sim_tray(rig: Rig) -> Any:
    assert rig.sim is not None and rig.sim.tray is not None
    return rig.sim


def pump_until(
    hub: HardwareHub, target: RollTarget | None, done: Callable[[], bool], timeout: float = WAIT_S
) -> None:
    """Drain the hub (as the main loop does when woken) until ``done`` or the timeout."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the hub never got there"
        hub.pump(target)
        time.sleep(0.01)


def test_rolls_on_the_sim_tray_reach_the_game_on_the_main_thread(sim_rig: Rig) -> None:
    woken = threading.Event()
    hub = HardwareHub(wake=woken.set)
    sim_rig.start(hub.post)
    presenter = PlayPresenter(Session.new("toy_pig", ["Ann", "Bob"], seed=1))
    pump_until(hub, presenter.dice, lambda: presenter.view().devices == ("Dice on 87%",))
    assert woken.is_set()  # the reader's thread woke the main loop, nobody polled
    assert sim_tray(sim_rig).roll_dice(6, 1, faces=[4]) == (4,)
    deadline = time.monotonic() + WAIT_S
    while hub.queue.qsize() < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not presenter.session.actions  # nothing happens until the main thread drains
    pump_until(hub, presenter.dice, lambda: bool(presenter.session.actions))
    [events] = presenter.session.events
    assert isinstance(events[0], DiceRolled)
    assert events[0].values == (4,) and events[0].source == "electronic"
    assert presenter.session.actions[0] == Roll(values=(4,), source="electronic", device="sim-tray")


def test_single_dice_are_collected_until_the_request_is_complete() -> None:
    hub = HardwareHub()
    presenter = PlayPresenter(Session.new(TwoDicePig(), ["Ann", "Bob"], seed=3))
    request = presenter.queries.dice_request()
    assert request is not None and request.count == 2
    hub.post(DieResult(device="d", die_id=1, face=5, faces=6, seq=1))
    hub.pump(presenter.dice)
    assert hub.collector.faces == (5,)
    assert "1 of 2 dice in" in presenter.view().notice
    assert not presenter.session.actions
    hub.post(DieResult(device="d", die_id=2, face=2, faces=6, seq=2))
    hub.pump(presenter.dice)
    assert not hub.collector.faces
    rolled = [e for e in presenter.session.events[-1] if isinstance(e, DiceRolled)]
    assert rolled and rolled[0].values == (5, 2)


def test_a_die_of_the_wrong_kind_is_ignored_with_a_note(sim_rig: Rig) -> None:
    hub = HardwareHub()
    sim_rig.start(hub.post)
    presenter = PlayPresenter(Session.new("toy_pig", ["Ann", "Bob"], seed=1))  # wants a d6
    sim_tray(sim_rig).roll_dice(4, 1, faces=[3])  # the tray's d4
    pump_until(hub, presenter.dice, lambda: "needs d6" in presenter.view().notice)
    assert not presenter.session.actions
    sim_tray(sim_rig).roll_dice(6, 1, faces=[2])
    pump_until(hub, presenter.dice, lambda: bool(presenter.session.actions))
    assert presenter.session.actions[0] == Roll(values=(2,), source="electronic", device="sim-tray")


def test_unplugging_the_sim_tray_shows_reconnecting_and_a_stray_die_is_refused(
    sim_rig: Rig,
) -> None:
    hub = HardwareHub()
    sim_rig.start(hub.post)
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=3))  # no dice
    pump_until(hub, presenter.dice, lambda: presenter.view().devices == ("Dice on 87%",))
    sim_tray(sim_rig).unplug()
    pump_until(hub, presenter.dice, lambda: presenter.view().devices == ("Dice reconnecting… 87%",))
    sim_tray(sim_rig).replug()  # the reader finds the port again after its 1 s back-off
    pump_until(hub, presenter.dice, lambda: presenter.view().devices == ("Dice on 87%",))
    sim_tray(sim_rig).roll_dice(6, 1, faces=[3])
    pump_until(hub, presenter.dice, lambda: presenter.view().banner is not None)
    banner = presenter.view().banner
    assert banner is not None and "no dice are wanted" in banner.message
    assert not presenter.session.actions
    sim_rig.stop()
    hub.pump(presenter.dice)
    assert hub.statuses["sim-tray"].state == "disconnected"


def test_only_the_newest_led_frame_is_handed_on() -> None:
    shown: list[LedFrameShown] = []
    hub = HardwareHub(handlers=HubHandlers(frame=shown.append))
    for seq in (1, 2, 3):
        hub.post(LedFrameShown(seq, (((seq, 0, 0),))))
    assert hub.queue.empty()  # frames never queue up behind each other
    hub.pump(None)
    hub.pump(None)
    assert [f.seq for f in shown] == [3]


def test_buttons_and_notes_go_to_their_handlers() -> None:
    pressed: list[object] = []
    notes: list[DeviceNote] = []
    hub = HardwareHub(handlers=HubHandlers(button=pressed.append, note=notes.append))
    hub.post(ButtonPressed("undo", "redo", held=True))
    hub.post(DeviceNote("leds", "The LED strip is not available."))
    assert hub.pump(None) == 2
    assert pressed == [ButtonPressed("undo", "redo", held=True)]
    assert notes == hub.notes == [DeviceNote("leds", "The LED strip is not available.")]


def test_a_long_backlog_rearms_the_wake_up() -> None:
    wakes: list[int] = []
    hub = HardwareHub(wake=lambda: wakes.append(1))
    for seq in range(MAX_PER_PUMP + 6):
        hub.post(TrayStatus(device=f"tray-{seq}", state=TrayState.CONNECTED))
    posted = len(wakes)
    assert posted == MAX_PER_PUMP + 6
    assert hub.pump(None) == MAX_PER_PUMP
    assert len(wakes) == posted + 1  # the rest is handled on the next frame
    assert hub.pump(None) == 6
    assert len(wakes) == posted + 1


# --------------------------------------------------------------------------- in the kiosk
# (Kivy offscreen; imported inside the tests so that this module stays Kivy-free)


def test_kiosk_table_buttons_and_leds_through_the_rig(tmp_path: Path) -> None:
    from kivy.base import EventLoop

    from tests.kiosk.ui import close_kiosk, frames, open_kiosk

    config = CompanionConfig(
        dice=DiceConfig(source="none"),
        buttons=ButtonsConfig(source="sim"),
        leds=LedsConfig(driver="sim"),
    )
    rig = build_rig(config, Platform(None))
    kiosk = open_kiosk(tmp_path)
    try:
        kiosk.attach_rig(rig)
        assert kiosk.play_screen.mirror is not None  # set_led_layout with the rig's layout
        kiosk.open_setup("kolossus")
        kiosk.start_game()
        play = kiosk.play
        assert play is not None and rig.sim is not None
        play.submit({"type": "ready"})
        play.submit(Roll(values=(2,)))
        quake = next(p for p in play.queries.legal_payloads() if p["type"] == "quake_move")
        play.submit(quake)
        assert play.fix.step is not None

        def drain_until(done: Callable[[], bool]) -> None:
            deadline = time.monotonic() + WAIT_S
            while not done():
                assert time.monotonic() < deadline
                kiosk.pump()
                EventLoop.idle()

        # The strip lights the first fix step; its shipped frame reaches the kiosk.
        layout = rig.layout
        assert layout is not None
        cell = play.fix.steps[0].cells[0]
        drain_until(
            lambda: (
                kiosk.mirror.frame is not None
                and any(any(kiosk.mirror.frame[i]) for i in layout.leds_of(cell))
            )
        )
        rig.sim.press("confirm").join()
        drain_until(lambda: play.fix.index == 1)  # the table's confirm = "Done"
        kiosk.play_screen.next_mode()  # board → table
        kiosk.play_screen.next_mode()  # table → LEDs: the mirror shows the newest frame
        frames(2)
        drain_until(lambda: kiosk.mirror.drawn_seq > 0)
        assert kiosk.mirror.drawn in rig.sim.strip.frames  # type: ignore[union-attr]
        rig.sim.press("menu").join()
        drain_until(lambda: kiosk.manager.current == "home")
    finally:
        close_kiosk(kiosk)
    assert rig.strip is not None and rig.strip.closed  # closing the kiosk stops the rig


def test_home_banner_lists_config_problems_and_device_notes(tmp_path: Path) -> None:
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from kiosk.app import Kiosk

    EventLoop.ensure_window()
    problem = "companion.toml, line 3, leds.brightness: Input should be less than 1"
    kiosk = Kiosk(tmp_path, problems=[problem])
    Window.add_widget(kiosk.manager)
    try:
        assert problem in kiosk.home_banner.text and kiosk.home_banner.opacity == 1
        kiosk.hub.post(DeviceNote("buttons", "The table buttons could not start: no GPIO"))
        kiosk.pump()
        assert "table buttons could not start" in kiosk.home_banner.text
        for n in range(3):
            kiosk.hub.post(DeviceNote("leds", f"LED problem {n}"))
        kiosk.pump()
        assert kiosk.home_banner.text.endswith("… and 2 more (run companion doctor).")
    finally:
        Window.remove_widget(kiosk.manager)
        kiosk.close()
    quiet = Kiosk(tmp_path / "quiet")
    assert quiet.home_banner.text == "" and quiet.home_banner.opacity == 0
    quiet.close()


def test_0_2_3_a_die_rolled_with_no_game_on_screen_is_not_saved_into_the_last_game(
    tmp_path: Path,
) -> None:
    """RULINGS 0.2.3 (the journal says who rolled what): a die read while Home is shown
    must not be played into the game last on screen, where it would be saved unseen;
    Home says it was not used, and back in the game the next die is played."""
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from kiosk.app import Kiosk

    EventLoop.ensure_window()
    kiosk = Kiosk(tmp_path)
    Window.add_widget(kiosk.manager)
    try:
        session = Session.new("kolossus", ["Ann", "Bob"], seed=4, journal=kiosk.journal)
        kiosk.show_game(session)
        play = kiosk.play
        assert play is not None and play.submit({"type": "ready"})
        request = play.queries.dice_request()
        assert request is not None  # the Great Quake's die is wanted
        played = len(session.actions)
        kiosk.go_home()
        kiosk.hub.post(DieResult(device="tray", die_id=1, face=2, faces=request.sides, seq=1))
        kiosk.pump()
        assert len(session.actions) == played
        assert "A die showed 2: not used. No game is on screen" in kiosk.home_banner.text
        assert kiosk.home_banner.opacity == 1
        assert session.game_id is not None and kiosk.resume(session.game_id)
        resumed = kiosk.play
        assert resumed is not None and resumed.queries.dice_request() is not None
        kiosk.hub.post(DieResult(device="tray", die_id=1, face=3, faces=request.sides, seq=2))
        kiosk.pump()
        assert len(resumed.session.actions) == played + 1  # on the play screen it counts
        kiosk.go_home()
        assert "not used" not in kiosk.home_banner.text
    finally:
        Window.remove_widget(kiosk.manager)
        kiosk.close()
