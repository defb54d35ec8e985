"""Manual corrections, the one way every game lets the table overrule the referee.

RULINGS 0.2.1: the physical table is the truth and every automatic computation needs a
manual override. Each game therefore has ``correct_*`` actions that *set* what its
bookkeeping tracks (a player's Runes, a tracker, where a miniature stands, a space's
Acolytes ...) to what the table shows. They follow one pattern in every game:

* A correction is an ordinary action of the game's action union: journaled, undoable,
  replayed like any other. Its model subclasses :class:`Correction` and its ``type``
  starts with ``correct_``.
* It is never listed by ``legal_actions``, so random play (property tests, the shop
  demo) never picks one. ``Rules.corrections(state)`` lists templates instead: one per
  thing that can be corrected, prefilled with the current values, for a form to edit.
* It is validated: a correction cannot make an impossible position (negative counts,
  more pieces than the box holds, two miniatures on one square, mana that does not add
  up ...). A refusal cites 0.2.1 or the game ruling the position would break. Setting a
  value to what it already is is refused too ("nothing to correct"), so an unchanged
  template never clutters the journal.
* Its log line starts with "Manual correction:" (:func:`corrected`).
* Afterwards the game's own rules still apply to the consequences (an end condition
  reached, an elimination, a hand limit, a refill), exactly as after a normal action.

A correction is not an effect editor (principle 0.2.2): effects enter unknown card or
tile texts and have the consequences those texts describe; corrections only restate
what already lies on the table.
"""

from __future__ import annotations

from typing import Literal

from companion.errors import RuleViolation
from companion.events import Event
from companion.model import Frozen
from companion.rules import refuse

#: The principle every correction rests on (RULINGS 0.2.1).
CORRECTION_RULING = "0.2.1"
#: The ``type`` prefix of every correction action.
CORRECTION_PREFIX = "correct_"
#: How every correction's log line starts.
CORRECTION_TEXT = "Manual correction: "


class Correction(Frozen):
    """Base of every correction action (each game's subclasses add ``type`` and fields)."""


class Corrected(Event):
    """The log line of an accepted correction; ``correction`` is the action's ``type``."""

    type: Literal["corrected"] = "corrected"
    correction: str


def corrected(correction: str, text: str) -> Corrected:
    """The event of an accepted correction: "Manual correction: <text>"."""
    return Corrected(correction=correction, text=CORRECTION_TEXT + text)


def is_correction(action: object) -> bool:
    """True for a correction action (model) or a dumped one (dict)."""
    if isinstance(action, Correction):
        return True
    if isinstance(action, dict):
        kind = action.get("type")
        return isinstance(kind, str) and kind.startswith(CORRECTION_PREFIX)
    return False


def nothing_to_correct(what: str) -> RuleViolation:
    """The refusal of a correction that changes nothing."""
    return refuse(f"Nothing to correct: {what}.", ruling=CORRECTION_RULING)


def impossible(message: str, ruling: str = CORRECTION_RULING) -> RuleViolation:
    """The refusal of a correction that would make an impossible position."""
    return refuse(message, ruling=ruling)


def game_over() -> RuleViolation:
    """Corrections stop with the game; undo reopens a game that ended wrongly."""
    return refuse(
        "The game has ended; take actions back with undo to correct it.",
        ruling=CORRECTION_RULING,
    )


def check_count(value: int, what: str, *, low: int = 0, high: int | None = None) -> None:
    """Refuse a count outside ``low``..``high`` (a negative count is never possible)."""
    if value < low:
        raise impossible(f"{what} cannot be less than {low}; {value} is not possible.")
    if high is not None and value > high:
        raise impossible(f"{what} cannot be more than {high}; {value} is not possible.")


def change_text(before: int, after: int) -> str:
    """``"5 → 3"``: how a corrected number changed."""
    return f"{before} → {after}"


__all__ = [
    "CORRECTION_PREFIX",
    "CORRECTION_RULING",
    "CORRECTION_TEXT",
    "Corrected",
    "Correction",
    "change_text",
    "check_count",
    "corrected",
    "game_over",
    "impossible",
    "is_correction",
    "nothing_to_correct",
]
