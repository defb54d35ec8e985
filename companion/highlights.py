"""What a board should show now: the one thing both the LED strip and the screen render.

A highlight names a cell (a Kolossus square such as ``"5,5"`` or an island space ID),
a :class:`Role`, and optionally the player it belongs to and a step number (for the
"fix the table" walk-through). Rendering (colours, animation, brightness) is not decided
here: the LED renderer and the board widget map roles to looks.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Protocol

from companion.model import Frozen
from companion.views import ActionCells


class Role(StrEnum):
    """Why a cell is lit. Renderers give each role a colour and an animation."""

    SELECTABLE = "selectable"  # a piece that may act now
    SELECTED = "selected"  # the piece the player picked
    REACHABLE = "reachable"  # a legal destination of the selected piece
    PATH = "path"  # a square on the path preview
    CAPTURABLE = "capturable"  # an enemy that can be beaten / killed
    BLOCKED = "blocked"  # a square the selected piece cannot enter
    TARGET = "target"  # a weapon target (Spear, Hammer)
    REBIRTH = "rebirth"  # a free square a beaten piece may return to
    QUAKE_REGION = "quake_region"  # a region the Great Quake / Earthquake may move
    FALLS_OFF = "falls_off"  # something that would leave the board
    CITADEL = "citadel"  # the Citadel while crystals lie on it
    CONTROL = "control"  # a space controlled by ``player``
    BEAST = "beast"  # a Beast's space
    BANNER = "banner"  # a space holding ``player``'s banner
    HARVESTABLE = "harvestable"  # a space the current player may harvest
    FIX = "fix"  # the table must be changed here (``step`` orders the walk-through)
    REMOVE = "remove"  # a sensing board senses a piece the game does not have here
    PLACE = "place"  # the game has a piece here that a sensing board does not sense
    ROLL = "roll"  # a piece of the player whose die is awaited or was just read
    SETUP = "setup"  # guided setup: put this step's pieces here (``player``: whose)
    SUGGESTED = "suggested"  # a lesson's suggested action acts on this cell (not a rule)


class Highlight(Frozen):
    cell: str
    role: Role
    player: int | None = None
    step: int | None = None


class RoleRanking(Protocol):
    """Which role wins a cell lit for several (an LED palette's priority order)."""

    def rank(self, role: Role) -> int:
        """Lower rank wins when one cell has several roles."""
        ...


def winning_highlights(
    highlights: Iterable[Highlight], ranking: RoleRanking
) -> dict[str, Highlight]:
    """One highlight per cell: the highest-priority role (``ranking``, the game's LED
    palette). The LED renderer and the on-screen board both pick through it, so a table
    without LEDs sees exactly what the strip would show.

    A pure priority pick: what is lit is what the caller hands over. During a
    fix-the-table walk-through the play presenter hands only the current step's
    highlights (``companion.table_steps.HandStep.highlights``), so neither renderer
    needs a notion of steps.
    """
    winners: dict[str, Highlight] = {}
    for highlight in highlights:
        held = winners.get(highlight.cell)
        if held is None or ranking.rank(highlight.role) < ranking.rank(held.role):
            winners[highlight.cell] = highlight
    return winners


def suggestion_marks(cells: ActionCells) -> tuple[Highlight, ...]:
    """A suggested action on the board (a lesson's, the companion's move): its piece
    selected, where it ends reachable, anything else it acts upon (a quake's line)
    suggested — not a weapon's target, which teach mode would explain as one."""
    marks: list[Highlight] = []
    if cells.origin is not None:
        marks.append(Highlight(cell=cells.origin, role=Role.SELECTED))
    if cells.target is not None and cells.target != cells.origin:
        marks.append(Highlight(cell=cells.target, role=Role.REACHABLE))
    others = sorted(cells.touched - {cells.origin, cells.target})
    marks.extend(Highlight(cell=cell, role=Role.SUGGESTED) for cell in others)
    return tuple(marks)


class TableChange(Frozen):
    """One thing players must change on the physical table, in order."""

    step: int
    cell: str
    instruction: str
