"""A roll from the simulated tray, over a real pty, through the session to the LED strip.

Runs the chain of ``bench/bench_dice_latency.py`` (:class:`DiceToLeds`): simulated tray
→ real ``SerialDiceTray`` thread → queue → main loop → ``DiceCollector`` → ``Session``
→ ``highlights`` → ``render`` → ``SimStrip``. No timing is asserted here; the bench
prints the figures.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from companion.dice import Roll
from companion.session import Session
from firmware_bridge.config import LedsConfig
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.factory import power_budget_of
from firmware_bridge.leds.palette import palette_for_board
from firmware_bridge.leds.render import render
from firmware_bridge.leds.strip import Frame

BENCH_FILE = Path(__file__).resolve().parents[2] / "bench" / "bench_dice_latency.py"
DEVICE = "test-tray"
FAST_RECONNECT = {"backoff_initial_s": 0.05, "backoff_max_s": 0.2}


def load_bench() -> ModuleType:
    """The bench script as a module, so the test runs exactly the chain it measures."""
    name = "bench_dice_latency"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


BENCH = load_bench()


class HighlightsSpy:
    """The game's rules, noting every state whose highlights were asked for."""

    def __init__(self, rules: Any) -> None:
        self._rules = rules
        self.asked: list[Any] = []

    def highlights(self, state: Any, focus: Any = None) -> Any:
        self.asked.append(state)
        return self._rules.highlights(state, focus)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def expected_frame(session: Session) -> Frame:
    """The frame for the session's state, computed here independently of the chain."""
    leds = LedsConfig()
    rules = session.rules
    return render(
        rules.highlights(session.state),
        kolossus_layout(led_count=leds.count),
        palette_for_board(rules.board_kind),
        leds.brightness,
        power_budget_of(leds),
    )


@pytest.mark.parametrize("on_disk", [False, True], ids=["memory-journal", "disk-journal"])
def test_each_roll_reaches_the_session_once_and_lights_its_highlights(on_disk: bool) -> None:
    with BENCH.running_chain(on_disk=on_disk, device_id=DEVICE) as chain:
        session: Session = chain.session
        assert session.rules.name == "kolossus"
        request = session.rules.dice_request(session.state)
        assert request is not None and (request.count, request.sides) == (1, 4)
        pending = session.state
        spy = HighlightsSpy(chain.rules)
        chain.rules = spy
        faces = (3, 1, 4, 2)
        for number, face in enumerate(faces, start=1):
            acted = len(session.actions)
            chain.sim.roll(1, face)  # the tray's own path: ROLLING, then ROLL_RESULT
            chain.pump_until_shown()
            assert session.actions[acted:] == (
                Roll(values=(face,), source="electronic", device=DEVICE),
            )
            assert session.state != pending
            # the frame shown is the one for the new state's highlights
            assert spy.asked[-1] is session.state
            assert chain.strip.last_frame == expected_frame(session)
            assert chain.strip.shown == number
            assert chain.pump_idle(0.05) == 0  # nothing else arrives for this roll
            chain.undo()
            assert session.state == pending
        assert [result.face for result in chain.results] == list(faces)
        assert [roll.values for roll in chain.submitted] == [(face,) for face in faces]
        journal = session.journal
        assert journal is not None and session.game_id is not None
        entries, damage = journal.entries(session.game_id)
        assert damage is None
        rolls = [e for e in entries if e.kind == "act" and '"type":"roll"' in e.payload]
        parsed = [session.rules.parse_action(e.payload) for e in rolls]
        assert all(isinstance(roll, Roll) for roll in parsed)
        assert [roll.values for roll in parsed if isinstance(roll, Roll)] == [
            (face,) for face in faces
        ]
        assert sum(e.kind == "undo" for e in entries) == len(faces)
        resumed, _ = Session.resume(journal, session.game_id)
        assert resumed.state == session.state


def test_a_result_resent_after_a_replug_is_not_applied_twice() -> None:
    settings: dict[str, Any] = dict(FAST_RECONNECT)
    with BENCH.running_chain(on_disk=False, device_id=DEVICE, settings=settings) as chain:
        session: Session = chain.session
        chain.sim.ignore_acks = True  # the tray keeps the result and sends it again
        chain.sim.roll(1, 2)
        chain.pump_until_shown()
        chain.undo()  # the same request is pending: a duplicate would be applied again
        chain.sim.unplug()
        chain.sim.ignore_acks = False
        chain.sim.replug()
        assert chain.sim.wait_until("all_acked", 5.0)
        assert chain.pump_idle(0.2) == 0
        assert chain.reader.duplicates >= 1
        assert [result.face for result in chain.results] == [2]
        assert not any(isinstance(action, Roll) for action in session.actions)
        assert len(chain.submitted) == 1 and chain.strip.shown == 1
