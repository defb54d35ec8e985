"""The hardware hub: device threads post, the main thread drains (no Kivy needed)."""

from __future__ import annotations

import threading
from typing import Any

from companion.dice import DiceRequest, Roll, resolve_roll
from companion.events import DiceRolled
from companion.session import Session
from firmware_bridge.dice.messages import DieResult, TrayState, TrayStatus
from kiosk.hardware import HardwareHub, SimulatedDice
from kiosk.presenters.play import PlayPresenter
from tests.kiosk.helpers import assert_imports_without_kivy
from tests.toy_game import PigRules, PigState


def test_hub_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.hardware", "tests.kiosk.test_hardware_hub")


def test_rolls_from_a_device_thread_arrive_on_the_main_thread() -> None:
    hub = HardwareHub()
    die = SimulatedDice(device="tray-1", battery=80)
    hub.start([die])
    presenter = PlayPresenter(Session.new("toy_pig", ["Ann", "Bob"], seed=1))
    thread = threading.Thread(target=lambda: die.roll(4))
    thread.start()
    thread.join()
    assert presenter.session.actions == ()  # nothing happens until the main thread drains
    assert hub.pump(presenter) == 3  # status, rolling, result
    [events] = presenter.session.events
    assert isinstance(events[0], DiceRolled)
    assert events[0].values == (4,) and events[0].source == "electronic"
    assert presenter.view().devices == ("Dice on 80%",)


class TwoDicePig(PigRules):
    """The toy game rolling 2d6 at once, as a roll-off or movement dice do."""

    name = "toy_two_dice"

    def dice_request(self, state: PigState) -> DiceRequest | None:
        request = super().dice_request(state)
        return None if request is None else request.model_copy(update={"count": 2})

    def apply(self, state: PigState, action: Any) -> Any:
        if isinstance(action, Roll):
            request = self.dice_request(state)
            values, rng = resolve_roll(request, action, state.rng)
            assert request is not None
            rolled = DiceRolled(
                text=f"rolled {values}", request=request, values=values, source=action.source
            )
            return state.model_copy(update={"rng": rng, "rolled": True}), (rolled,)
        return super().apply(state, action)


def test_single_dice_are_collected_until_the_request_is_complete() -> None:
    hub = HardwareHub()
    presenter = PlayPresenter(Session.new(TwoDicePig(), ["Ann", "Bob"], seed=3))
    request = presenter.dice_request()
    assert request is not None and request.count == 2
    hub.post(DieResult(device="d", die_id=1, face=5, faces=6, seq=1))
    hub.pump(presenter)
    assert hub.pending == [5]
    hub.post(DieResult(device="d", die_id=2, face=2, faces=6, seq=2))
    hub.pump(presenter)
    assert hub.pending == []
    rolled = [e for e in presenter.session.events[-1] if isinstance(e, DiceRolled)]
    assert rolled and rolled[0].values == (5, 2)


def test_disconnect_shows_reconnecting_and_a_stray_die_is_refused() -> None:
    hub = HardwareHub()
    die = SimulatedDice(device="tray", battery=None)
    hub.start([die])
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=3))
    die.disconnect()
    hub.pump(presenter)
    assert presenter.view().devices == ("Dice reconnecting…",)
    hub.post(TrayStatus(device="tray", state=TrayState.CONNECTED))
    hub.post(DieResult(device="tray", die_id=0, face=3, faces=6, seq=9))
    hub.pump(presenter)
    assert presenter.view().devices == ("Dice on",)
    banner = presenter.view().banner
    assert banner is not None and "no dice are wanted" in banner.message
    assert presenter.session.actions == ()
    hub.stop()
    assert die.state is TrayState.STOPPED
