"""Turn single-die results into the ``Roll`` that answers the pending ``DiceRequest``.

Pure: no I/O, no clock, no threads. The owner of the session keeps one collector on the
main loop, tells it what the game is waiting for (:meth:`DiceCollector.expect`) and feeds
it every :class:`~firmware_bridge.dice.messages.DieResult` it drains from the queue.
Once ``count`` dice of the right kind have landed it hands back a complete
``Roll(values=..., source="electronic", device=...)`` (K-R07: faces are used unchanged).

A request is answered by the next ``count`` results of dice with ``sides`` faces, from
any die or device: three d4 dice rolled together, or one d4 rolled three times.
Dice of another kind are ignored with a sentence saying why.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice import DiceRequest, Roll
from firmware_bridge.dice.messages import DieResult


@dataclass(frozen=True, slots=True)
class CollectStep:
    """What one result did: the finished roll (if any) and a note for the status bar."""

    roll: Roll | None = None
    accepted: bool = False
    note: str = ""


class DiceCollector:
    """Collects faces for one :class:`~companion.dice.DiceRequest` at a time."""

    def __init__(self) -> None:
        self._request: DiceRequest | None = None
        self._faces: list[int] = []
        self._devices: list[str] = []

    @property
    def request(self) -> DiceRequest | None:
        return self._request

    @property
    def faces(self) -> tuple[int, ...]:
        """Faces collected so far for the current request."""
        return tuple(self._faces)

    def expect(self, request: DiceRequest | None) -> None:
        """Set what the game waits for now; a changed request drops partial results."""
        if request != self._request:
            self._faces.clear()
            self._devices.clear()
        self._request = request

    def clear(self) -> None:
        """Drop partial results (e.g. after an undo) but keep waiting for the request."""
        self._faces.clear()
        self._devices.clear()

    def add(self, result: DieResult) -> CollectStep:
        """Take one die's face; returns the complete roll once ``count`` faces are in."""
        request = self._request
        if request is None:
            return CollectStep(
                note=f"Ignored a {result.face} from {result.device}: no dice are wanted right now."
            )
        if result.faces != request.sides:
            return CollectStep(
                note=f"Ignored a d{result.faces} from {result.device}: "
                f"{request.label} needs d{request.sides} dice."
            )
        if not 1 <= result.face <= result.faces:
            return CollectStep(
                note=f"Ignored {result.face} from {result.device}: not a face of a d{result.faces}."
            )
        self._faces.append(result.face)
        if result.device not in self._devices:
            self._devices.append(result.device)
        if len(self._faces) < request.count:
            return CollectStep(
                accepted=True,
                note=f"{request.label}: {len(self._faces)} of {request.count} dice in.",
            )
        roll = Roll(values=tuple(self._faces), source="electronic", device="+".join(self._devices))
        self._faces.clear()
        self._devices.clear()
        self._request = None
        return CollectStep(roll=roll, accepted=True, note=f"{request.label}: {roll.values}.")
