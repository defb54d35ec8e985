"""What dice sources post to their owner's queue.

Small immutable values, safe to hand from a device thread to the main loop. They are
not referee actions: a :class:`~firmware_bridge.dice.collector.DiceCollector` on the
main loop turns :class:`DieResult` values into a ``companion.dice.Roll``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge.board.messages import BoardOccupancy


class TrayState(StrEnum):
    """Connection state of a dice source, as shown in the kiosk's status bar."""

    ABSENT = "absent"
    """No device found yet."""
    CONNECTING = "connecting"
    """Port open, waiting for the device's hello."""
    CONNECTED = "connected"
    """Handshake done; rolls are live."""
    RECONNECTING = "reconnecting"
    """The device was lost (unplugged, reset); retrying with back-off."""
    INCOMPATIBLE = "incompatible"
    """The device speaks another protocol version; its rolls are ignored."""
    STOPPED = "stopped"
    """The reader was stopped by its owner."""


@dataclass(frozen=True, slots=True)
class DieRolling:
    """A die started moving (show an animation, play a sound)."""

    device: str
    die_id: int


@dataclass(frozen=True, slots=True)
class DieResult:
    """A single die came to rest. ``faces`` is the kind of die (4 for a d4)."""

    device: str
    die_id: int
    face: int
    faces: int
    seq: int


@dataclass(frozen=True, slots=True)
class TrayStatus:
    """The source's state changed (connection, battery, identity).

    ``device`` is the source's own name and never changes (a stable key for a status
    badge); ``device_id`` is what the hardware calls itself once it has said hello.
    """

    device: str
    state: TrayState
    battery: int | None = None
    """Percent, ``None`` when on USB power or unknown."""
    low_battery: bool = False
    firmware: str | None = None
    device_id: str | None = None
    detail: str = ""
    """A sentence for the status bar or the log, e.g. why the device is incompatible."""


DiceMessage = DieRolling | DieResult | TrayStatus | BoardOccupancy
"""What a serial reader posts; a sensing board on the same link adds occupancy."""

PostDice = Callable[[DiceMessage], None]
"""How a dice source hands messages to its owner (typically ``queue.Queue.put``)."""
