"""Island boards as data (BM-R01): the rules code sees a graph, never coordinates.

Only Kolossus has a board geometry fixed by its rules; an island's comes from its board
file, for the screen and for the LEDs alike (RULINGS 0.2.5).

The real island of Beast Master and Colossi is only printed on the physical board, so a
table describes its own board in a board file (JSON) that the kiosk reads and hands to
:func:`parse_board`. :func:`placeholder_board` is a development layout only: offset-hex
rows of 5-6-5-6-5 cells with the centre in the middle of row 3. **It is not the real
island**; a table must describe its own board.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cached_property
from string import ascii_uppercase
from typing import Any

from pydantic import ConfigDict, Field, ValidationError, model_validator

from companion.errors import InvalidContent
from companion.model import Frozen
from companion.rules import describe_validation_error

#: The longest label a space may have: it is drawn inside the space at 800×480.
LABEL_LENGTH = 8


class SpaceDef(Frozen):
    """One space of the island: its ID, neighbours, edge/Water flags, LEDs, drawing spot,
    and the short label people read (drawn on the space, used in every text the kiosk
    shows); the ID stays what the protocol, the journal and the LEDs use."""

    id: str = Field(min_length=1, max_length=32)
    label: str | None = Field(default=None, min_length=1, max_length=LABEL_LENGTH)
    adjacent: tuple[str, ...] = ()
    edge: bool = False
    water: bool = False
    leds: tuple[int, ...] = ()
    x: float | None = None
    y: float | None = None


class BoardGraph:
    """Derived lookups of a board (index by ID, neighbour tuples); built once per board."""

    def __init__(self, spaces: tuple[SpaceDef, ...]) -> None:
        self.spaces = spaces
        self.ids: tuple[str, ...] = tuple(s.id for s in spaces)
        self.index: dict[str, int] = {sid: i for i, sid in enumerate(self.ids)}
        self.adjacent: dict[str, tuple[str, ...]] = {s.id: s.adjacent for s in spaces}
        self.edge: frozenset[str] = frozenset(s.id for s in spaces if s.edge)
        self.labels: dict[str, str] = {s.id: space_label(s) for s in spaces}


class IslandBoard(Frozen):
    """A validated island: use :func:`parse_board` to build one from a board file."""

    model_config = ConfigDict(frozen=True, extra="forbid", ignored_types=(cached_property,))

    name: str = "island"
    centre: str
    spaces: tuple[SpaceDef, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _usable(self) -> IslandBoard:
        problems = board_problems(self)
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @cached_property
    def graph(self) -> BoardGraph:
        return BoardGraph(self.spaces)

    def adjacent(self, space: str) -> tuple[str, ...]:
        return self.graph.adjacent[space]

    def has(self, space: str) -> bool:
        return space in self.graph.index

    def is_edge(self, space: str) -> bool:
        return space in self.graph.edge

    @property
    def ids(self) -> tuple[str, ...]:
        return self.graph.ids

    def label(self, space: str) -> str:
        """The short name people read for ``space`` (:func:`space_label`); an unknown ID
        as it is."""
        return self.graph.labels.get(space, space)


_GRID_ID = re.compile(r"r([1-9][0-9]?)c([1-9][0-9]?)")


def space_label(space: SpaceDef) -> str:
    """A space's label: the board file's, else, for a development grid ID ``r<row>c<col>``
    (the placeholder board, a game saved before boards had labels), the row's letter and
    the column's number as the board draws them (``r3c3`` → ``C3``), else the ID."""
    if space.label is not None:
        return space.label
    found = _GRID_ID.fullmatch(space.id)
    if found is None or int(found[1]) > len(ascii_uppercase):
        return space.id
    return f"{ascii_uppercase[int(found[1]) - 1]}{found[2]}"


def board_problems(board: IslandBoard) -> list[str]:
    """Everything wrong with a board, as sentences (empty when it is usable)."""
    problems: list[str] = []
    ids = [s.id for s in board.spaces]
    seen: set[str] = set()
    for sid in ids:
        if sid in seen:
            problems.append(f"space {sid!r} is listed twice")
        seen.add(sid)
    if board.centre not in seen:
        problems.append(f"the centre {board.centre!r} is not one of the spaces")
    neighbours = {s.id: s.adjacent for s in board.spaces}
    for space in board.spaces:
        for other in space.adjacent:
            if other == space.id:
                problems.append(f"space {space.id!r} is adjacent to itself")
            elif other not in neighbours:
                problems.append(f"space {space.id!r} lists an unknown neighbour {other!r}")
            elif space.id not in neighbours[other]:
                problems.append(
                    f"adjacency is not symmetric: {space.id!r} lists {other!r} "
                    f"but {other!r} does not list {space.id!r}"
                )
        if len(set(space.adjacent)) != len(space.adjacent):
            problems.append(f"space {space.id!r} lists a neighbour twice")
    named: dict[str, str] = {}
    for space in board.spaces:
        label = space_label(space)
        if label in named and named[label] != space.id:
            problems.append(
                f"spaces {named[label]!r} and {space.id!r} have the same label {label!r}"
            )
        named.setdefault(label, space.id)
    led_owner: dict[int, str] = {}
    for space in board.spaces:
        for led in space.leds:
            if led < 0:
                problems.append(f"space {space.id!r} has a negative LED index {led}")
            elif led in led_owner and led_owner[led] != space.id:
                problems.append(f"LED {led} is used by both {led_owner[led]!r} and {space.id!r}")
            led_owner.setdefault(led, space.id)
    if not problems:
        start = ids[0]
        reached = {start}
        frontier = [start]
        while frontier:
            here = frontier.pop()
            for nxt in neighbours[here]:
                if nxt not in reached:
                    reached.add(nxt)
                    frontier.append(nxt)
        missing = [sid for sid in ids if sid not in reached]
        if missing:
            problems.append(
                "the board is not connected: "
                f"{', '.join(repr(m) for m in missing[:5])} cannot be reached from {start!r}"
            )
    return problems


def parse_board(data: str | bytes | Mapping[str, Any] | IslandBoard) -> IslandBoard:
    """A board from board-file JSON text or a dict; InvalidContent says what is wrong (BM-R01)."""
    try:
        if isinstance(data, IslandBoard):
            board = data
        elif isinstance(data, str | bytes):
            board = IslandBoard.model_validate_json(data, strict=True)
        else:
            board = IslandBoard.model_validate_json(json.dumps(dict(data)), strict=True)
    except ValidationError as exc:
        problems = [
            str(err["ctx"]["error"]) for err in exc.errors() if "error" in err.get("ctx", {})
        ]
        reason = "; ".join(problems) if problems else describe_validation_error(exc)
        raise InvalidContent(f"Not a usable island board: {reason}.", ruling="BM-R01") from None
    except (TypeError, ValueError) as exc:
        raise InvalidContent(f"Not an island board file: {exc}", ruling="BM-R01") from None
    problems = board_problems(board)
    if problems:
        raise InvalidContent("Unusable island board: " + "; ".join(problems) + ".", ruling="BM-R01")
    return board


def hex_rows_board(row_lengths: tuple[int, ...], name: str = "hex rows") -> IslandBoard:
    """An offset-hex island with the given row lengths (rows alternate short/long).

    A long row sticks out half a cell on both sides of its short neighbours, so cell
    ``c`` of a short row touches cells ``c`` and ``c+1`` of a long row next to it.
    Cell IDs are ``"r<row>c<col>"`` (1-based), labelled by the row's letter and the
    cell's number (``"C3"``: row C, third from the west); the centre is the middle cell
    of the middle row; one LED per cell in reading order.
    """
    cells: dict[tuple[int, int], list[str]] = {}
    for r, length in enumerate(row_lengths):
        for c in range(length):
            cells[(r, c)] = []

    def cid(r: int, c: int) -> str:
        return f"r{r + 1}c{c + 1}"

    def link(a: tuple[int, int], b: tuple[int, int]) -> None:
        if b in cells and cid(*b) not in cells[a]:
            cells[a].append(cid(*b))
            cells[b].append(cid(*a))

    for r, length in enumerate(row_lengths):
        for c in range(length):
            link((r, c), (r, c + 1))
            if r + 1 < len(row_lengths):
                below = row_lengths[r + 1]
                if below > length:
                    link((r, c), (r + 1, c))
                    link((r, c), (r + 1, c + 1))
                elif below < length:
                    link((r, c), (r + 1, c - 1))
                    link((r, c), (r + 1, c))
                else:
                    link((r, c), (r + 1, c))
    widest = max(row_lengths)
    spaces = []
    led = 0
    for r, length in enumerate(row_lengths):
        for c in range(length):
            on_rim = (
                r in (0, len(row_lengths) - 1) or c in (0, length - 1) or len(cells[(r, c)]) < 6
            )
            spaces.append(
                SpaceDef(
                    id=cid(r, c),
                    label=f"{ascii_uppercase[r]}{c + 1}" if r < len(ascii_uppercase) else None,
                    adjacent=tuple(cells[(r, c)]),
                    edge=on_rim,
                    leds=(led,),
                    x=float(c) + (widest - length) / 2.0,
                    y=float(r) * 0.866,
                )
            )
            led += 1
    middle = len(row_lengths) // 2
    centre = cid(middle, row_lengths[middle] // 2)
    return IslandBoard(name=name, centre=centre, spaces=tuple(spaces))


def placeholder_board() -> IslandBoard:
    """The development layout of BM-R01: rows 5-6-5-6-5, 27 cells, centre ``r3c3``
    (labelled ``C3``; rows A to E north to south).

    NOT the real island. A table must describe its own board in a board file.
    """
    return hex_rows_board((5, 6, 5, 6, 5), name="placeholder 5-6-5-6-5 (not the real island)")


def board_json_schema() -> dict[str, Any]:
    """The JSON schema of a board file, for tools and the docs."""
    return IslandBoard.model_json_schema()
