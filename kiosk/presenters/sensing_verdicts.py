"""What a settled sensing board means, in the driver's terms (``kiosk/presenters/
sensing.py`` decides it): who stands where as far as the sensors tell, the verdicts,
their words on screen, and the one move a guide may ask the table for.

A guide on the play presenter (``PlayPresenter.follow_guide``: the lights of a move to
make) that is a :class:`TableGuide` also names the move it wants made by hand
(:class:`Wanted`: the companion's). While it wants one, the board plays that move and
no other: any other move made on the board is refused as a wrong placement is — red
squares to clear, green to fill — with the wanted move said in words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from companion.highlights import Highlight
from companion.model import Frozen
from companion.views import ActionCells, BoardView

Who = tuple[tuple[str, str, int | None, str | None], ...]
"""Who stands on a square, as far as a sensor's square can be told apart."""


def miniatures(view: BoardView | None) -> dict[str, Who]:
    """The squares the referee has a sensed piece on, with who stands there."""
    if view is None:
        return {}
    found: dict[str, Who] = {}
    for cell in view.cells:
        who = tuple((p.kind, p.label, p.player, p.colour) for p in cell.pieces if p.sensed)
        if who:
            found[cell.cell] = who
    return found


def replaced_squares(before: Mapping[str, Who], after: Mapping[str, Who]) -> set[str]:
    """Squares where a miniature was beaten and another stands now (a capture): only a
    lift seen there tells this apart from a miniature merely held in the air. A
    miniature that moved on (a Quake's line) is not beaten, so its square needs none."""
    lost = Counter(p for who in before.values() for p in who)
    lost.subtract(p for who in after.values() for p in who)
    return {
        c
        for c, who in after.items()
        if c in before and before[c] != who and any(lost[p] > 0 for p in before[c])
    }


# --- the move a guide asks the table for ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Wanted:
    """The one move the table is asked to make by hand now.

    ``action`` None: none yet (the companion is to move and has not said its move), so
    every move made on the board is refused. ``words`` say it on screen ("Companion
    (Hard) plays: …", "Companion (Hard) is thinking")."""

    action: Frozen | None
    cells: ActionCells | None
    words: str

    def lifts(self, square: str) -> bool:
        """A miniature lifted from ``square`` is part of the wanted move."""
        return self.cells is not None and square in self.cells.touched


@runtime_checkable
class TableGuide(Protocol):
    """A guide (the lights of a move, ``PlayPresenter.follow_guide``) that also names the
    move it wants the table to make (None: it wants none now)."""

    def __call__(self) -> tuple[Highlight, ...]: ...

    def wanted(self) -> Wanted | None: ...


# --- verdicts ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Agree:
    """The board shows the referee's position."""


@dataclass(frozen=True, slots=True)
class Play:
    """Exactly one legal action explains the board: play it."""

    action: Frozen
    cells: ActionCells


@dataclass(frozen=True, slots=True)
class Choose:
    """Several legal actions explain the board equally: the players pick one."""

    actions: tuple[Frozen, ...]
    cells: tuple[ActionCells, ...]


@dataclass(frozen=True, slots=True)
class InHand:
    """Miniatures lifted and none put down yet; ``origin``'s piece may move."""

    origin: str


@dataclass(frozen=True, slots=True)
class Relift:
    """``origin``'s miniature is gone, and changes were missed meanwhile: it may be in
    the hand or already stand on one of ``squares`` (a capture the sensor there cannot
    see). Lifting it and setting it down again shows which."""

    origin: str
    squares: frozenset[str]


@dataclass(frozen=True, slots=True)
class Differ:
    """No legal action explains the board, or not the one wanted: clear ``remove``,
    fill ``place``. ``wanted``: the words of the move the table was asked for (a move
    made instead was refused)."""

    remove: frozenset[str]
    place: frozenset[str]
    wanted: str = ""


@dataclass(frozen=True, slots=True)
class Unknown:
    """The board cannot be read now (disconnected, resynchronising): touch entry."""


Verdict = Agree | Play | Choose | InHand | Relift | Differ | Unknown


def held_to(wanted: Wanted | None, verdict: Verdict, refuse: Differ) -> Verdict:
    """``verdict`` while ``wanted`` is the one move the table may make: the wanted move
    played (also where several moves fit the board), its own miniature lifted left to
    the hand, and anything else refused as ``refuse`` (the board against the referee's
    position: red to clear, green to fill) with the wanted move said."""
    if wanted is None or isinstance(verdict, Agree | Unknown):
        return verdict
    action, cells = wanted.action, wanted.cells
    if isinstance(verdict, Play) and action is not None and verdict.action == action:
        return verdict
    chosen = isinstance(verdict, Choose) and action in verdict.actions
    if chosen and action is not None and cells is not None:
        return Play(action, cells)
    if isinstance(verdict, InHand | Relift) and wanted.lifts(verdict.origin):
        return verdict
    if isinstance(verdict, Differ):
        return Differ(verdict.remove, verdict.place, wanted.words)
    return Differ(refuse.remove, refuse.place, wanted.words)


def notice(verdict: Verdict, cell_words: Callable[[str], str]) -> str:
    """What the screen says of ``verdict`` ("" for nothing); ``cell_words`` names a
    square as the board does (``Rules.cell_words``: one coordinate style per board)."""
    if isinstance(verdict, Differ) and verdict.wanted:
        return (
            f"{verdict.wanted}. The board shows another move: take the pieces off the red"
            " squares and put them on the green ones."
        )
    if isinstance(verdict, Differ):
        return (
            "The board differs from the game: take the pieces off the red squares, put"
            " them on the green ones, or open \u201cCorrect the table\u201d if the table"
            " is right."
        )
    if isinstance(verdict, Choose):
        return "The board fits several moves: choose the one you made."
    if isinstance(verdict, Relift):
        return (
            "The board missed part of a move: lift the miniature from"
            f" {cell_words(verdict.origin)}"
            " and set it down again where it stands (on a white square, or back on its"
            " own), so the board sees where it went."
        )
    return ""
