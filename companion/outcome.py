"""The end of a game as a value (after python-chess's ``Outcome``)."""

from __future__ import annotations

from companion.model import Frozen


class Outcome(Frozen):
    """Who won and why.

    ``winners`` are seat indices; empty means nobody won (a draw, or a lost solo game).
    Several winners mean a shared victory. ``reason`` is a stable code
    (e.g. ``"crystal_majority"``, ``"final_blow"``); ``text`` is the sentence to show.
    """

    winners: tuple[int, ...]
    reason: str
    text: str

    @property
    def is_draw(self) -> bool:
        return not self.winners


class ScoreRow(Frozen):
    """One line of the score history: a label (round, turn, Age) and a value per player."""

    label: str
    values: tuple[int, ...]


class ScoreSheet(Frozen):
    """Per-round scores for the export and the end-of-game chart."""

    measure: str  # what the numbers are: "runes", "gold", "crystals", "weakness/grip"
    columns: tuple[str, ...]
    rows: tuple[ScoreRow, ...] = ()
