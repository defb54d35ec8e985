"""Fixtures of the bridge tests: a simulated tray on a real pty, its readers, and the
tray firmware imported under CPython with fake hardware."""

from __future__ import annotations

import importlib
import queue
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.dice.messages import DiceMessage
from firmware_bridge.dice.serial_tray import SerialDiceTray
from firmware_bridge.dice.sim_tray import SimDiceTray
from tests.helpers.firmware import FIRMWARE_DIR, UNIQUE_ID, FakePin


@pytest.fixture
def tray_path(tmp_path: Path) -> Path:
    return tmp_path / "dice-tray"


@pytest.fixture
def sim(tray_path: Path) -> Iterator[SimDiceTray]:
    device = SimDiceTray(str(tray_path), device_id="sim-1", seed=7, boot_id=0x1234)
    yield device
    device.stop()


@pytest.fixture
def inbox() -> queue.Queue[DiceMessage]:
    return queue.Queue()


@pytest.fixture
def readers() -> Iterator[list[SerialDiceTray]]:
    started: list[SerialDiceTray] = []
    yield started
    for reader in started:
        reader.stop()


@pytest.fixture
def fw(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.SimpleNamespace]:
    """The firmware modules, imported under CPython with fake hardware modules."""
    machine = types.ModuleType("machine")
    machine.Pin = FakePin  # type: ignore[attr-defined]
    machine.unique_id = lambda: UNIQUE_ID  # type: ignore[attr-defined]
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = lambda char: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.syspath_prepend(str(FIRMWARE_DIR))
    FakePin.board = {}
    FakePin.held_low = set()
    names = ("tray_protocol", "board_scan", "tray_logic", "main")
    loaded = {name: importlib.import_module(name) for name in names}
    yield types.SimpleNamespace(
        protocol=loaded["tray_protocol"],
        board=loaded["board_scan"],
        logic=loaded["tray_logic"],
        main=loaded["main"],
    )
    for name in names:
        sys.modules.pop(name, None)
