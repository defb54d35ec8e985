"""Dice as requests that any source can answer.

A game that needs dice puts a :class:`DiceRequest` in its state ("roll 2d4 for Guardian
movement"). Whoever has the dice answers with a :class:`Roll` action: an electronic die
over serial or GPIO, a player tapping the faces in, or nobody (``values=None``), in
which case the state's own seeded generator rolls, so a journal replays exactly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from companion import words
from companion.errors import RuleViolation
from companion.model import Frozen
from companion.rng import Rng

DiceSourceKind = Literal["software", "manual", "electronic"]


class DiceRequest(Frozen):
    """What the game is waiting for. ``purpose`` is a stable code, ``label`` a sentence."""

    purpose: str
    label: str
    count: int = Field(ge=1, le=12)
    sides: int = Field(ge=2, le=100)
    player: int | None = None


class Roll(Frozen):
    """The answer to the pending :class:`DiceRequest`.

    ``values`` are the faces as the dice show them (K-R07: an electronic die's value is
    used unchanged); ``None`` asks for a software roll from the state's generator.
    ``source`` says who rolled, for the log; ``device`` names the die or tray. Left
    out, it is ``software`` when the referee rolls and ``manual`` when faces are given:
    the referee never claims a roll it did not make (RULINGS 0.2.3).
    """

    type: Literal["roll"] = "roll"
    values: tuple[int, ...] | None = None
    source: DiceSourceKind = "software"
    device: str | None = None

    @model_validator(mode="after")
    def _default_source(self) -> Roll:
        if self.values is not None and "source" not in self.model_fields_set:
            # Frozen: set once, while the value is still being built.
            object.__setattr__(self, "source", "manual")
            self.model_fields_set.add("source")
        return self


def resolve_roll(
    request: DiceRequest | None, roll: Roll, rng: Rng, *, ruling: str | None = None
) -> tuple[tuple[int, ...], Rng]:
    """Check ``roll`` against ``request`` and return the faces and the advanced generator.

    Refuses a roll nobody asked for, a wrong number of dice and faces off the die.
    """
    if request is None:
        raise RuleViolation("No dice are wanted right now.", ruling=ruling)
    if roll.values is None:
        return rng.roll(request.count, request.sides)
    if len(roll.values) != request.count:
        raise RuleViolation(
            f"{request.label}: expected {words.count(request.count, 'die', 'dice')}, "
            f"got {len(roll.values)}.",
            ruling=ruling,
        )
    for face in roll.values:
        if not 1 <= face <= request.sides:
            raise RuleViolation(
                f"{request.label}: {face} is not a face of a d{request.sides}.", ruling=ruling
            )
    return roll.values, rng
