"""The island board as players see it: each space's terrain, what lies face up on it,
who stands there and its label, as marks the board widget draws (kiosk/widgets/island.py).

Every kind of thing has a shape of its own and a letter or number on it, so nothing is
told apart by colour alone (red/green and blue/purple colour blindness): a Colossus is a
square with its player's letter, Acolytes a disc with their count and letter, a Beast an
orange six-pointed star, a Banner a flag with its owner's letter, Gold cubes a diamond
with their count; a Loot token a coin "L", an Environment a hexagon "E", a Lair a
pentagon "Lr", a Grass tile an octagon "G"; an unexplored space is dark with "?", Water
blue with "≈". Every
Colossus is drawn, however many share a space; past :data:`MAX_MARKS` pieces a "+n"
mark counts the rest. :data:`LEGEND` names each mark in words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Literal

from companion import views
from kiosk.presenters.board import Decoration, board_dressing
from kiosk.presenters.common import RGB
from kiosk.presenters.looks import TERRAIN_SHADES, lighter

#: A mark: a piece's shape (:data:`companion.views.PIECE_LOOKS`), what lies face up, a
#: space's label, or the "+n" that counts the pieces left out.
MarkKind = Literal[
    views.MarkShape,
    "label",
    "unexplored",
    "loot",
    "environment",
    "grass",
    "lair",
    "water",
    "more",
]
#: What lies face up (the board view's feature kinds, and Water) → its mark.
FEATURE_MARKS: Mapping[str, MarkKind] = MappingProxyType(
    {
        "unexplored": "unexplored",
        "loot": "loot",
        "environment": "environment",
        "grass": "grass",
        "lair": "lair",
    }
)
#: The letter each feature's mark carries (its shape and colour say it too).
FEATURE_TEXT: Mapping[MarkKind, str] = MappingProxyType(
    {
        "unexplored": "?",
        "loot": "L",
        "environment": "E",
        "grass": "G",
        "lair": "Lr",
        "water": "≈",
    }
)
#: The fill of the marks that are nobody's (a piece's mark that carries no owner: by its
#: shape).
MARK_COLOURS: Mapping[MarkKind, RGB] = MappingProxyType(
    {
        "loot": (235, 190, 60),
        "environment": (70, 175, 95),
        "grass": (150, 200, 110),
        "lair": (190, 60, 70),
        "star": (255, 160, 70),
        "diamond": (250, 210, 60),
        "more": (200, 200, 200),
        "unexplored": (150, 155, 165),
        "water": (150, 200, 255),
        "label": (200, 205, 215),
    }
)
#: The unlit colour of a space: unexplored land darker than explored land, Water blue.
UNEXPLORED_SHADE: RGB = (46, 52, 62)
EXPLORED_SHADE: RGB = (92, 98, 76)
#: Pieces drawn on a space before a "+n" mark counts the rest (two rows of three).
MAX_MARKS = 6

#: Each mark in words, in the order the legend lists them.
LEGEND: tuple[tuple[MarkKind, str], ...] = (
    *((look.mark, look.words) for look in views.PIECE_LOOKS.values()),
    ("loot", "Loot"),
    ("environment", "Environment"),
    ("lair", "Lair"),
    ("grass", "Grass"),
    ("unexplored", "Unexplored"),
    ("water", "Water"),
)


def seat_letters(players: Sequence[str], seats: int) -> tuple[str, ...]:
    """The letter each seat's pieces carry: its player's initial, two letters where
    initials repeat, the seat's number where those repeat too (or names are unknown)."""
    names = [players[i] if i < len(players) else "" for i in range(seats)]
    for length in (1, 2):
        marks = [name.strip()[:length].title() for name in names]
        if all(marks) and len(set(marks)) == len(marks):
            return tuple(marks)
    return tuple(str(seat + 1) for seat in range(seats))


def _seat_colour(seat: int | None, seat_colours: tuple[RGB, ...]) -> RGB:
    if seat is None or not seat_colours:
        return MARK_COLOURS["more"]
    return lighter(seat_colours[seat % len(seat_colours)])


def _piece_mark(
    cell: str, piece: views.Piece, seat_colours: tuple[RGB, ...], letters: tuple[str, ...]
) -> Decoration:
    look = piece.look
    if look is None:
        return Decoration(cell, piece.label, _seat_colour(piece.player, seat_colours), "more")
    letter = (
        letters[piece.player] if piece.player is not None and piece.player < len(letters) else ""
    )
    owned = _seat_colour(piece.player, seat_colours)
    if look.carries == "owner":
        return Decoration(cell, letter or "?", owned, look.mark)
    if look.carries == "count_owner":
        # "2A": two of Ann's; a seat's number is set apart from the count ("2·3").
        text = f"{piece.count}{letter}" if letter[:1].isalpha() else f"{piece.count}·{letter}"
        return Decoration(cell, text, owned, look.mark)
    text = str(piece.count) if look.carries == "count" else piece.label
    return Decoration(cell, text, MARK_COLOURS.get(look.mark, owned), look.mark)


def island_dressing(
    board: views.BoardView, seat_colours: tuple[RGB, ...], players: Sequence[str] = ()
) -> tuple[dict[str, RGB], tuple[Decoration, ...]]:
    """The unlit colour of each space and its marks, in drawing order: what lies face up
    (or Water), the pieces (Beasts, Colossi, Acolytes, Banner, Gold cubes), the label."""
    seats = 1 + max(
        (p.player for c in board.cells for p in c.pieces if p.player is not None), default=-1
    )
    letters = seat_letters(players, max(seats, len(players)))
    base: dict[str, RGB] = {}
    marks: list[Decoration] = []
    for cell in board.cells:
        key = cell.cell
        found = cell.feature
        if cell.terrain == "water":
            base[key] = TERRAIN_SHADES["water"]
            marks.append(Decoration(key, FEATURE_TEXT["water"], MARK_COLOURS["water"], "water"))
        elif found is None or found.kind == "unexplored":
            base[key] = UNEXPLORED_SHADE if found is not None else TERRAIN_SHADES[cell.terrain]
            if found is not None:
                marks.append(Decoration(key, "?", MARK_COLOURS["unexplored"], "unexplored"))
        else:
            base[key] = EXPLORED_SHADE
            kind = FEATURE_MARKS.get(found.kind)
            if kind is not None:
                marks.append(Decoration(key, FEATURE_TEXT[kind], MARK_COLOURS[kind], kind))
        pieces = [_piece_mark(key, p, seat_colours, letters) for p in cell.pieces]
        if len(pieces) > MAX_MARKS:
            rest = len(pieces) - (MAX_MARKS - 1)
            pieces = [
                *pieces[: MAX_MARKS - 1],
                Decoration(key, f"+{rest}", MARK_COLOURS["more"], "more"),
            ]
        marks.extend(pieces)
        marks.append(Decoration(key, cell.label or key, MARK_COLOURS["label"], "label"))
    return base, tuple(marks)


def legend(decorations: Sequence[Decoration]) -> tuple[tuple[MarkKind, str], ...]:
    """The legend's entries for the marks on the board now, in :data:`LEGEND` order."""
    shown = {d.kind for d in decorations}
    return tuple((kind, words) for kind, words in LEGEND if kind in shown)


def dressing(
    board: views.BoardView, seat_colours: tuple[RGB, ...], players: Sequence[str] = ()
) -> tuple[dict[str, RGB], tuple[Decoration, ...]]:
    """A board's unlit colours and marks: :func:`island_dressing` for an island,
    :func:`~kiosk.presenters.board.board_dressing` for a grid."""
    if board.kind == "island":
        return island_dressing(board, seat_colours, players)
    return board_dressing(board, seat_colours)
