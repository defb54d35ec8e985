"""Waiting on a serial tray reader's messages, and the test timings of its settings."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.dice.messages import (
    DiceMessage,
    DieResult,
    TrayState,
    TrayStatus,
)
from firmware_bridge.dice.serial_tray import SerialDiceSettings, SerialDiceTray

WAIT_S = 5.0


Seen = list[DiceMessage]


def drain_until(
    inbox: queue.Queue[DiceMessage],
    done: Callable[[Seen], bool],
    seen: Seen,
    timeout: float = WAIT_S,
) -> bool:
    """Move messages from ``inbox`` to ``seen`` until ``done(seen)`` or the timeout."""
    deadline = time.monotonic() + timeout
    while not done(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        try:
            seen.append(inbox.get(timeout=min(left, 0.05)))
        except queue.Empty:
            continue
    return True


def results(seen: Seen) -> list[DieResult]:
    return [message for message in seen if isinstance(message, DieResult)]


def states(seen: Seen) -> list[TrayState]:
    return [message.state for message in seen if isinstance(message, TrayStatus)]


def has_state(state: TrayState, times: int = 1) -> Callable[[Seen], bool]:
    return lambda seen: states(seen).count(state) >= times


def n_results(n: int) -> Callable[[Seen], bool]:
    return lambda seen: len(results(seen)) >= n


def fast_settings(path: Path, **changes: object) -> SerialDiceSettings:
    """Test timings: quick back-off, no USB scan match unless asked for."""
    values: dict[str, object] = {
        "port": str(path),
        "usb_vid": 0xFFFF,
        "usb_pid": 0xFFFF,
        "backoff_initial_s": 0.02,
        "backoff_max_s": 0.1,
        "hello_retry_s": 0.2,
        "ping_interval_s": 0.2,
        "poll_s": 0.05,
    }
    values.update(changes)
    return SerialDiceSettings.model_validate(values)


def start_reader(
    readers: list[SerialDiceTray],
    inbox: queue.Queue[DiceMessage],
    settings: SerialDiceSettings,
    **kwargs: object,
) -> SerialDiceTray:
    reader = SerialDiceTray(settings, **kwargs)  # type: ignore[arg-type]
    readers.append(reader)
    reader.start(inbox.put)
    return reader
