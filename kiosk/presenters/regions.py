"""Region moves chosen on the board: an arrow at the end of each line, and a preview.

A region move is a listed action whose role is ``ActionRole.REGION_MOVE`` (the Kolossus
Great Quake and Earthquake, K-R04/K-R34), with a ``region`` and a ``direction``: it
shifts a whole row or column. Instead of
a list of "region row3, direction east" rows, the board draws an arrow on the edge
cell each move pushes towards (:func:`edge_arrows`); a touch on an arrow shows the
move's preview (:func:`region_preview`: the line as it will lie, what leaves the
board, the Citadel's new square, lit on the board and the LEDs alike), a second touch
on the same arrow plays it. The preview is worth its touch: a quake is undone in the
app in one tap, but on the table only by moving every tile of the line back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from companion import views
from companion.highlights import Highlight, Role
from companion.rules import ActionRole, AnyRules, GameState
from companion.views import ActionCells
from kiosk.presenters.board import BoardGeometry, Decoration
from kiosk.presenters.common import ARROWS, RGB
from kiosk.presenters.payloads import Payload

#: The accent of the screen (what to press), for the arrows.
ARROW_COLOUR: RGB = (240, 160, 48)

Arrows = Mapping[str, tuple[Payload, ...]]


#: The rules' role of a listed action (the play presenter's ``role``).
RoleOf = Callable[[Mapping[str, object]], ActionRole | None]


def is_region_move(payload: Mapping[str, object], role: RoleOf) -> bool:
    """A region move the board can draw: its role says so (``Rules.action_role``), and it
    names its line and a direction an arrow can show."""
    return role(payload) is ActionRole.REGION_MOVE and _direction(payload) in ARROWS


def _direction(payload: Mapping[str, object]) -> str:
    """The way a region move shifts its line ("east"; "" for a payload without one)."""
    direction = payload.get("direction")
    return direction if isinstance(direction, str) else ""


def edge_arrows(
    payloads: Iterable[Payload],
    cells: Iterable[ActionCells],
    geometry: BoardGeometry,
    role: RoleOf,
) -> dict[str, tuple[Payload, ...]]:
    """The region moves among the listed actions, by the cell their arrow is drawn on:
    the end of the moved line in the move's direction (in listing order)."""
    where = {c.cell: (c.x, c.y) for c in geometry.cells}
    found: dict[str, list[Payload]] = {}
    for payload, at in zip(payloads, cells, strict=True):
        if not is_region_move(payload, role):  # most listed actions: asked first
            continue
        line = [c for c in at.touched if c in where]
        if not line:
            continue
        direction = _direction(payload)
        axis = 0 if direction in ("east", "west") else 1
        sign = 1 if direction in ("east", "south") else -1
        end = max(line, key=lambda c: sign * where[c][axis])
        found.setdefault(end, []).append(payload)
    return {cell: tuple(moves) for cell, moves in found.items()}


def arrow_decorations(arrows: Arrows) -> tuple[Decoration, ...]:
    """One arrow per edge cell (the first move's direction: a corner may end two lines)."""
    return tuple(
        Decoration(cell=cell, text=ARROWS[_direction(moves[0])], colour=ARROW_COLOUR)
        for cell, moves in arrows.items()
    )


@dataclass(frozen=True)
class Preview:
    """A region move shown before it is played (see the module's docstring)."""

    arrow: str  # the edge cell touched
    payload: Payload
    board: views.BoardView  # the board as the move leaves it
    highlights: tuple[Highlight, ...]
    text: str


def _piece_name(piece: views.Piece, players: tuple[str, ...]) -> str:
    owner = piece.colour or (
        players[piece.player] if piece.player is not None and piece.player < len(players) else ""
    )
    return f"{piece.label} ({owner})" if owner else piece.label


def _leaving(
    before: views.BoardView, after: views.BoardView, line: frozenset[str], players: tuple[str, ...]
) -> list[str]:
    """What the move takes off the board: pieces no longer anywhere on it, landscapes
    of the line no longer on it (pieces and landscapes moved along are not listed)."""
    pieces_before = Counter(p for c in before.cells for p in c.pieces)
    pieces_after = Counter(p for c in after.cells for p in c.pieces)
    land_before = Counter(c.terrain for c in before.cells if c.cell in line)
    land_after = Counter(c.terrain for c in after.cells if c.cell in line)
    gone = [_piece_name(p, players) for p in (pieces_before - pieces_after).elements()]
    gone += [str(t).capitalize() for t in (land_before - land_after).elements()]
    return gone


def region_preview(
    rules: AnyRules,
    state: GameState,
    arrow: str,
    payload: Payload,
    line: ActionCells,
    players: tuple[str, ...],
) -> Preview:
    """The region move ``payload`` applied to a copy of ``state`` (rules are pure): the
    board it leaves, the line lit, what leaves the board and where the Citadel goes."""
    action = rules.action_adapter.validate_python(payload)
    after_state, _events = rules.apply(state, action)
    before, after = rules.board(state), rules.board(after_state)
    if before is None or after is None:
        raise ValueError(f"{rules.name}: a region move's preview needs a board")
    touched = frozenset(line.touched)
    citadel_before = {h.cell for h in rules.highlights(state, None) if h.role is Role.CITADEL}
    citadel_after = tuple(h for h in rules.highlights(after_state, None) if h.role is Role.CITADEL)
    lights = [Highlight(cell=c, role=Role.QUAKE_REGION) for c in sorted(touched)]
    lights += citadel_after
    lights.append(Highlight(cell=arrow, role=Role.SELECTED))
    arrow_text = ARROWS[_direction(payload)]
    parts = [rules.describe(state, action)]
    gone = _leaving(before, after, touched, players)
    parts.append("leaves the board: " + ", ".join(gone) if gone else "nothing leaves the board")
    moved = [h.cell for h in citadel_after if h.cell not in citadel_before]
    if moved:
        parts.append(f"the Citadel goes to {rules.cell_words(state, moved[0])}")
    text = "; ".join(parts) + f". Touch {arrow_text} again to play it."
    return Preview(arrow, payload, after, tuple(lights), text[:1].upper() + text[1:])
