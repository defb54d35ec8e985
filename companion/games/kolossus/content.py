"""Kolossus board geometry: squares, directions, rays, the pyramid, start zones, regions.

Squares are ints ``11*r + c`` internally (fast tables) and ``"r,c"`` strings outside
(highlights, actions, table instructions). The landscape map is eleven row strings,
one character per square: ``.`` bare board (level 1), ``W`` Woods (2), ``H`` Hills (3),
``M`` Mountains (4), ``C`` the Citadel of Time (5). Landscapes are pieces: a region
shift moves the characters and drops those pushed past the edge (K-R01, K-R04).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

SIZE = 11
SQUARES = SIZE * SIZE
CENTRE = 5 * SIZE + 5

Corner = Literal["NW", "NE", "SE", "SW"]
CORNERS: tuple[Corner, ...] = ("NW", "NE", "SE", "SW")  # clockwise seat order

Colour = Literal["blue", "yellow", "green", "red"]
WARBAND_OF_COLOUR: dict[str, str] = {
    "blue": "Tua'tha",
    "yellow": "Krell",
    "green": "Ishtari",
    "red": "Firbolg",
}

ClassCode = Literal["W", "G", "C"]
CLASSES: tuple[ClassCode, ...] = ("W", "G", "C")
CLASS_NAME: dict[str, str] = {"W": "Warrior", "G": "Guardian", "C": "Colossus"}
CLASS_COST: dict[str, int] = {"W": 1, "G": 2, "C": 3}
CLASS_DICE: dict[str, int] = {"W": 1, "G": 2, "C": 3}
CLASS_SLOT: dict[str, int] = {"W": 0, "G": 1, "C": 2}

# A warband's 8 miniatures: slot 0 the Colossus, 1-2 the Guardians, 3-7 the Warriors.
PIECES_PER_WARBAND = 8
PIECE_CLASS: tuple[ClassCode, ...] = ("C", "G", "G", "W", "W", "W", "W", "W")
PIECE_COUNT = 4 * PIECES_PER_WARBAND

LANDSCAPE_LEVEL: dict[str, int] = {".": 1, "W": 2, "H": 3, "M": 4, "C": 5}
LANDSCAPE_NAME: dict[str, str] = {
    "W": "Woods",
    "H": "Hills",
    "M": "Mountains",
    "C": "Citadel of Time",
}

# The 8 directions as (dr, dc); index order is fixed (used for canonical tie-breaks).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
)


def square(r: int, c: int) -> int:
    return r * SIZE + c


def row_col(sq: int) -> tuple[int, int]:
    return divmod(sq, SIZE)


#: The canonical key of every square (``CELL_KEYS[sq]``) and its inverse: a touch, a
#: highlight and every action's cells go through these many times per position, so
#: they are looked up rather than formatted or matched against a pattern.
CELL_KEYS: tuple[str, ...] = tuple(f"{r},{c}" for r in range(SIZE) for c in range(SIZE))
SQUARE_OF_KEY: dict[str, int] = {key: sq for sq, key in enumerate(CELL_KEYS)}


def cell(sq: int) -> str:
    """The outside name of a square, e.g. ``"5,5"``."""
    if 0 <= sq < SQUARES:
        return CELL_KEYS[sq]
    r, c = divmod(sq, SIZE)
    return f"{r},{c}"


def square_text(sq: int) -> str:
    """A square as texts name it, in the rule book's notation (RULINGS 2.3): ``"(5, 5)"``,
    row 0..10 north to south, column 0..10 west to east; the key stays ``"5,5"``."""
    r, c = divmod(sq, SIZE)
    return f"({r}, {c})"


_CELL = re.compile(r"^\s*(\d{1,2})\s*,\s*(\d{1,2})\s*$")


def parse_cell(text: str) -> int | None:
    """``"r,c"`` to a square index, or None if it is not a square of the board."""
    found = SQUARE_OF_KEY.get(text)
    if found is not None:
        return found
    m = _CELL.match(text)
    if m is None:
        return None
    r, c = int(m.group(1)), int(m.group(2))
    if 0 <= r < SIZE and 0 <= c < SIZE:
        return square(r, c)
    return None


def _build_rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for sq in range(SQUARES):
        r0, c0 = divmod(sq, SIZE)
        per_dir = []
        for dr, dc in DIRECTIONS:
            line = []
            r, c = r0 + dr, c0 + dc
            while 0 <= r < SIZE and 0 <= c < SIZE:
                line.append(r * SIZE + c)
                r, c = r + dr, c + dc
            per_dir.append(tuple(line))
        rays.append(tuple(per_dir))
    return tuple(rays)


# RAYS[sq][d] = the squares from sq (exclusive) to the edge in direction d.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = _build_rays()
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in RAYS[sq] if ray) for sq in range(SQUARES)
)


def _initial_terrain() -> tuple[str, ...]:
    rows = []
    for r in range(SIZE):
        chars = []
        for c in range(SIZE):
            d = max(abs(r - 5), abs(c - 5))
            chars.append({0: "C", 1: "M", 2: "H", 3: "W"}.get(d, "."))
        rows.append("".join(chars))
    return tuple(rows)


INITIAL_TERRAIN: tuple[str, ...] = _initial_terrain()
LANDSCAPE_TOTALS: dict[str, int] = {"W": 24, "H": 16, "M": 8, "C": 1}


@lru_cache(maxsize=4096)
def levels_of(terrain: tuple[str, ...]) -> tuple[int, ...]:
    """The level of every square (1 where no landscape lies), cached per landscape map."""
    return tuple(LANDSCAPE_LEVEL[ch] for row in terrain for ch in row)


def landscape_at(terrain: tuple[str, ...], sq: int) -> str:
    r, c = divmod(sq, SIZE)
    return terrain[r][c]


def citadel_square(terrain: tuple[str, ...]) -> int:
    """Where the Citadel stands now (it can never leave the board: K-R34, K-R41)."""
    for r, row in enumerate(terrain):
        c = row.find("C")
        if c >= 0:
            return r * SIZE + c
    raise ValueError("the Citadel is missing from the landscape map")


# Start zones (K-R02): the 3x3 corner block minus its innermost square.
def _corner_zone(rows: range, cols: range, inner: tuple[int, int]) -> tuple[int, ...]:
    return tuple(square(r, c) for r in rows for c in cols if (r, c) != inner)


DEFAULT_START_ZONES: tuple[tuple[int, ...], ...] = (
    _corner_zone(range(0, 3), range(0, 3), (2, 2)),
    _corner_zone(range(0, 3), range(8, 11), (2, 8)),
    _corner_zone(range(8, 11), range(8, 11), (8, 8)),
    _corner_zone(range(8, 11), range(0, 3), (8, 2)),
)
BOARD_CORNER: tuple[int, ...] = (square(0, 0), square(0, 10), square(10, 10), square(10, 0))


def default_arrangement(zone: tuple[int, ...], corner: int) -> tuple[int, ...]:
    """Squares for slots 0..7: the Colossus nearest the board corner, Warriors in front."""
    cr, cc = row_col(BOARD_CORNER[corner])

    def key(sq: int) -> tuple[int, int]:
        r, c = row_col(sq)
        return ((r - cr) ** 2 + (c - cc) ** 2, sq)

    return tuple(sorted(zone, key=key))


# Regions: "row0".."row10" move east/west, "col0".."col10" move north/south.
_REGION = re.compile(r"^(row|col)(\d{1,2})$")
ALL_REGIONS: tuple[str, ...] = tuple(f"row{i}" for i in range(SIZE)) + tuple(
    f"col{i}" for i in range(SIZE)
)
CENTRAL_REGIONS: tuple[str, ...] = tuple(f"row{i}" for i in range(3, 8)) + tuple(
    f"col{i}" for i in range(3, 8)
)
RegionDirection = Literal["north", "south", "east", "west"]


def _parse_region(name: str) -> tuple[str, int] | None:
    m = _REGION.match(name)
    if m is None or not 0 <= int(m.group(2)) < SIZE:
        return None
    return m.group(1), int(m.group(2))


def _squares_of(axis: str, index: int) -> tuple[int, ...]:
    if axis == "row":
        return tuple(square(index, c) for c in range(SIZE))
    return tuple(square(r, index) for r in range(SIZE))


#: Every canonical region name → (axis, index) and → its squares, looked up by the
#: Quake's generation and highlights instead of parsed each time.
_REGIONS: dict[str, tuple[str, int]] = {
    name: parsed for name in ALL_REGIONS if (parsed := _parse_region(name)) is not None
}
_REGION_SQUARES: dict[str, tuple[int, ...]] = {
    name: _squares_of(*parsed) for name, parsed in _REGIONS.items()
}


def parse_region(name: str) -> tuple[str, int] | None:
    found = _REGIONS.get(name)
    return found if found is not None else _parse_region(name)


def region_text(name: str) -> str:
    """A region as texts name it, numbered as the board is: ``"row 3"``, ``"column 7"``
    (the key stays ``"row3"``/``"col7"``)."""
    parsed = parse_region(name)
    if parsed is None:
        return name
    axis, index = parsed
    return f"{'row' if axis == 'row' else 'column'} {index}"


def region_squares(name: str) -> tuple[int, ...]:
    """The 11 squares of a region, west to east or north to south."""
    found = _REGION_SQUARES.get(name)
    if found is not None:
        return found
    parsed = _parse_region(name)
    if parsed is None:
        raise ValueError(f"not a region: {name}")
    return _squares_of(*parsed)


def region_sign(axis: str, direction: str) -> int | None:
    """+1 for east/south, -1 for west/north; None if the direction is off the axis."""
    if axis == "row":
        return {"east": 1, "west": -1}.get(direction)
    return {"south": 1, "north": -1}.get(direction)


def region_directions(name: str) -> tuple[RegionDirection, RegionDirection]:
    return ("east", "west") if name.startswith("row") else ("north", "south")


def alliance(warband: int) -> int:
    """0 for NW+SE, 1 for NE+SW (diagonal partners are allies)."""
    return warband % 2
