"""Events: what an accepted action did, as typed values.

Each game subclasses :class:`Event` with a ``type`` literal; ``text`` is the sentence
for the game log. Consumers (the kiosk's presenters, the LED walk-through) match on the
class, never on strings.
"""

from __future__ import annotations

from typing import Literal

from companion.dice import DiceRequest
from companion.highlights import TableChange
from companion.model import Frozen


class Event(Frozen):
    """Base of every event. ``text`` is a sentence for the log."""

    type: str
    text: str


class DiceRolled(Event):
    type: Literal["dice_rolled"] = "dice_rolled"
    request: DiceRequest
    values: tuple[int, ...]
    source: str


class TableChanges(Event):
    """The physical table no longer matches the state; ``changes`` say how to fix it."""

    type: Literal["table_changes"] = "table_changes"
    changes: tuple[TableChange, ...]


class GameEnded(Event):
    type: Literal["game_ended"] = "game_ended"
