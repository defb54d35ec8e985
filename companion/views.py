"""Typed views of a game for whoever shows it: the facts panel, the board, the cells.

The rules know their state; nothing outside a game's package should dig through it.
Every game therefore answers three questions in these shapes (see :class:`Rules`):

- :meth:`~companion.rules.Rules.panel` → :class:`PanelView`: per-player rows, shared
  facts, whose turn and the phase, in words a player reads;
- :meth:`~companion.rules.Rules.board` → :class:`BoardView` (None for card games): every
  cell with its terrain, level, pieces and controller, and where to draw it;
- :meth:`~companion.rules.Rules.action_cells` → :class:`ActionCells`: the cells an
  action starts on, ends on and touches, from which
  :meth:`~companion.rules.Rules.legal_actions_at` answers "what can start, end or happen
  on this cell" (python-chess's ``generate_legal_moves(from_mask, to_mask)``).

Cells travel as their text key — ``"r,c"`` on the Kolossus grid (:class:`Square`), a
space ID on the island (:class:`Space`) — because that is how the protocol, the journal,
the highlights and the LED layouts name them; :data:`Cell` is what a key parses to.
Views are plain frozen dataclasses (no validation): they are outputs, made on every
change of state, and a touch on a Pi must stay cheap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Literal

# --- cells ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Square:
    """A square of a grid board, row 0 at the top (north), column 0 on the left (west)."""

    row: int
    col: int

    @property
    def key(self) -> str:
        return f"{self.row},{self.col}"

    @classmethod
    def parse(cls, key: str, size: int) -> Square | None:
        """The square ``"r,c"`` names on a ``size``×``size`` grid, or None."""
        row, sep, col = key.partition(",")
        if not sep:
            return None
        try:
            r, c = int(row), int(col)
        except ValueError:
            return None
        return cls(r, c) if 0 <= r < size and 0 <= c < size else None


@dataclass(frozen=True, slots=True, order=True)
class Space:
    """A space of an island board, by its ID in the board file (``"A3"``, ``"centre"``)."""

    id: str

    @property
    def key(self) -> str:
        return self.id


Cell = Square | Space
BoardKind = Literal["grid", "island"]


@dataclass(frozen=True, slots=True)
class ActionCells:
    """Where an action happens on the board (cell keys).

    ``origin``: the cell the acting piece starts on (a move's from, a quake region's
    first square is *not* an origin: regions only touch). ``target``: the cell it ends
    on or acts upon (a move's to, a weapon's target, a spawn, a harvest). ``touched``:
    every cell the action names or changes, origin and target included (a quake's whole
    line, a hammer's targets, a path). Actions off the board have no cells.
    """

    origin: str | None = None
    target: str | None = None
    touched: frozenset[str] = frozenset()

    @classmethod
    def move(cls, origin: str, target: str, *others: str) -> ActionCells:
        return cls(origin=origin, target=target, touched=frozenset((origin, target, *others)))

    @classmethod
    def at(cls, target: str, *others: str) -> ActionCells:
        """An action on one cell (a spawn, a harvest, a weapon's target)."""
        return cls(target=target, touched=frozenset((target, *others)))

    @classmethod
    def area(cls, cells: tuple[str, ...] | frozenset[str]) -> ActionCells:
        """An action on many cells at once with no single origin or target (a region)."""
        return cls(touched=frozenset(cells))


NO_CELLS = ActionCells()
#: :meth:`ActionCells.at`, made once per cell: a card game's actions name the same few
#: cards over and over, every state.
cells_at = lru_cache(maxsize=256)(ActionCells.at)


# --- the facts panel ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PanelRow:
    """One line of the per-player table: a label and one value per column."""

    label: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PanelView:
    """What the facts panel shows, in words; the kiosk only lays it out.

    ``columns`` are the player names (one empty column for a solo game), ``turn`` the
    column whose turn it is (None when nobody's or the game is over), ``phase`` the step
    the game waits in ("Great Quake", "Harvest", "Round 3: draw"), ``facts`` the shared
    lines. ``turn_colour`` names the colour of the side to move when that is not the
    seat's own colour (a Kolossus warband: ``"blue"``).
    """

    columns: tuple[str, ...]
    rows: tuple[PanelRow, ...] = ()
    facts: tuple[str, ...] = ()
    turn: int | None = None
    phase: str = ""
    turn_colour: str | None = None


# --- the cards of a card game ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardView:
    """One card, pile or tracker a card game lays on the table, as a screen draws it.

    ``key`` names it ("slot:2", "seat:1", "weakness"): the tile a player touches to
    choose what the card is about (the kiosk maps each action to the keys it names).
    ``title`` and ``lines`` say what lies there in words; ``seat`` the player it belongs
    to, if any; ``hidden`` how many cards lie there face down (a hand: their number is
    public, their faces are not), None for a card or pile shown face up.
    """

    key: str
    title: str
    lines: tuple[str, ...] = ()
    seat: int | None = None
    hidden: int | None = None


# --- the board ----------------------------------------------------------------------------

PieceKind = Literal[
    "colossus", "guardian", "warrior", "acolyte", "crystal", "beast", "token", "banner", "gold"
]
#: The pieces with a magnet in their base (:attr:`Piece.sensed`).
SENSED_KINDS: frozenset[PieceKind] = frozenset(
    {"colossus", "guardian", "warrior", "acolyte", "beast"}
)


#: The shape a piece's mark has on a board (each kind that has one, a shape of its own).
MarkShape = Literal["square", "disc", "star", "flag", "diamond"]
#: What a piece's mark carries: its owner's letter, a count and the owner's letter, a
#: count, or the piece's label.
MarkText = Literal["owner", "count_owner", "count", "label"]


@dataclass(frozen=True, slots=True)
class PieceLook:
    """How a kind of piece is shown on a board: its mark's shape, what the mark carries,
    and the legend's words for it (so a screen tells the kinds apart by shape and text,
    never by colour alone)."""

    mark: MarkShape
    carries: MarkText
    words: str


#: The look of each kind drawn as a mark of its own (the island's pieces), in the order a
#: legend lists them; the other kinds are drawn as their label.
PIECE_LOOKS: Mapping[PieceKind, PieceLook] = MappingProxyType(
    {
        "colossus": PieceLook("square", "owner", "Colossus"),
        "acolyte": PieceLook("disc", "count_owner", "Acolytes"),
        "beast": PieceLook("star", "label", "Beast"),
        "banner": PieceLook("flag", "owner", "Banner"),
        "gold": PieceLook("diamond", "count", "Gold cubes"),
    }
)


@dataclass(frozen=True, slots=True)
class Piece:
    """Something standing on a cell: a miniature, a stack of Acolytes, crystals.

    ``label`` is the short text a small screen draws ("C", "G", "W", "3", "K", "×4");
    ``player`` the owning seat (a ``banner``'s owner; ``gold`` cubes have none, their
    ``count`` is how many); ``colour`` a colour name when the piece's colour is not
    its seat's (Kolossus warbands: ``"blue"``, ``"yellow"``, ``"green"``, ``"red"``).
    """

    kind: PieceKind
    label: str
    player: int | None = None
    colour: str | None = None
    count: int = 1

    @property
    def sensed(self) -> bool:
        """Whether a sensing board sees this piece: a miniature, a magnet in its base
        (crystals and tokens are not sensed). A property, not a field: the protocol's
        board view is unchanged."""
        return self.kind in SENSED_KINDS

    @property
    def counters(self) -> bool:
        """A heap of counters (crystals) rather than a miniature: drawn in their colour."""
        return self.kind == "crystal"

    @property
    def look(self) -> PieceLook | None:
        """How this piece is shown on a board (:data:`PIECE_LOOKS`), None where it is
        drawn as its label. A property, not a field: the protocol's board view is
        unchanged."""
        return PIECE_LOOKS.get(self.kind)


Terrain = Literal["bare", "woods", "hills", "mountains", "citadel", "land", "water"]

FeatureKind = Literal["unexplored", "bare", "loot", "environment", "grass", "lair"]


@dataclass(frozen=True, slots=True)
class Feature:
    """What lies face up on an island space: nothing yet (``unexplored``: entering it
    explores it), nothing found (``bare``), a Loot token, an Environment, a Grass tile or
    a Beast's Lair; ``name`` says which in words ("2 Gold", "Volcano", "Lair of the Wyrm")."""

    kind: FeatureKind
    name: str = ""


@dataclass(frozen=True, slots=True)
class CellView:
    """One cell of the board: where to draw it, what it is, what stands on it.

    ``x``/``y`` are drawing positions in cell units (a grid's column and row; an island
    space's position from its board file), ``level`` a height where the board has them
    (Kolossus 1 bare … 5 the Citadel), ``control`` the seat controlling it. ``label`` is
    the short name people read for it where the key is not one (an island space's label
    from its board file: ``"C3"`` for ``"r3c3"``; empty: the key is its name);
    ``feature`` what lies face up on an island space (None on a grid).
    """

    cell: str
    x: float
    y: float
    terrain: Terrain
    level: int | None = None
    pieces: tuple[Piece, ...] = ()
    control: int | None = None
    label: str = ""
    feature: Feature | None = None


@dataclass(frozen=True, slots=True)
class BoardView:
    """The whole board as the rules see it now; the kiosk draws it and the LEDs light it."""

    kind: BoardKind
    cells: tuple[CellView, ...]

    def cell(self, key: str) -> CellView | None:
        return next((c for c in self.cells if c.cell == key), None)


# --- the names people read for cells -----------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class CellNames:
    """The names of the cells whose key is not a name (island spaces: ``r3c3`` is read
    ``C3``): :meth:`text` writes them in place of the keys standing as words in a text.
    The protocol, the journal and the LEDs keep the keys; names are for people. Made
    once per set of names (:func:`cell_names`), so compared and hashed as itself."""

    names: Mapping[str, str]
    pattern: re.Pattern[str] | None

    def text(self, text: str) -> str:
        """``text`` with every key standing as a word replaced by its name."""
        if self.pattern is None or not text:
            return text
        return self.pattern.sub(lambda found: self.names[found[0]], text)


NO_NAMES = CellNames({}, None)


def cell_names(board: BoardView | None) -> CellNames:
    """The names of ``board``'s cells that have one (made once per set of names)."""
    if board is None:
        return NO_NAMES
    return _cell_names(tuple((c.cell, c.label) for c in board.cells if c.label not in ("", c.cell)))


@lru_cache(maxsize=16)
def _cell_names(pairs: tuple[tuple[str, str], ...]) -> CellNames:
    if not pairs:
        return NO_NAMES
    keys = sorted((key for key, _ in pairs), key=len, reverse=True)  # "r1c10" before "r1c1"
    words = "|".join(re.escape(key) for key in keys)
    return CellNames(dict(pairs), re.compile(rf"(?<![\w-])(?:{words})(?![\w-])"))


__all__ = [
    "NO_CELLS",
    "NO_NAMES",
    "PIECE_LOOKS",
    "ActionCells",
    "BoardKind",
    "BoardView",
    "CardView",
    "Cell",
    "CellNames",
    "CellView",
    "Feature",
    "FeatureKind",
    "MarkShape",
    "MarkText",
    "PanelRow",
    "PanelView",
    "Piece",
    "PieceKind",
    "PieceLook",
    "Space",
    "Square",
    "Terrain",
    "cell_names",
]
