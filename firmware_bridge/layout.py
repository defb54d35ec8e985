"""Which LEDs light which board cell: layouts are data files, validated on load.

A layout maps every cell (a Kolossus square ``"r,c"`` or an island space ID) to the
indices of its LEDs on the strip, and gives each cell a drawing position (x east, y
south, in cell units) for the simulated strip and the calibration. Grids are generated
from a short description (rows, columns, serpentine or row-major wiring, LEDs per cell,
start corner, first index); anything else is listed cell by cell.

The Kolossus board is 11 × 11 = 121 squares, rows 0..10 north to south and columns
0..10 west to east (square ``"r,c"``); a Kolossus layout must light every one of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from companion.errors import InvalidContent

KOLOSSUS_SIZE = 11
LAYOUT_FORMAT: Literal["colossus-led-layout"] = "colossus-led-layout"

Position = tuple[float, float]


class Wiring(StrEnum):
    """How the strip returns at the end of a line of cells."""

    SERPENTINE = "serpentine"  # every other line runs backwards (zig-zag)
    ROW_MAJOR = "row_major"  # every line starts on the same side (a return wire)


class Corner(StrEnum):
    """The corner of the board where LED ``first_index`` sits (north is the top)."""

    TOP_LEFT = "top_left"
    TOP_RIGHT = "top_right"
    BOTTOM_LEFT = "bottom_left"
    BOTTOM_RIGHT = "bottom_right"


class LayoutError(InvalidContent):
    """A layout file or description that cannot be used; ``problems`` lists every fault."""

    code = "invalid_layout"

    def __init__(self, source: str, problems: Iterable[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        shown = "; ".join(self.problems[:12])
        more = len(self.problems) - 12
        if more > 0:
            shown += f"; and {more} more"
        super().__init__(f"{source}: {shown}")


@dataclass(frozen=True)
class LedLayout:
    """A validated board-to-LED mapping. Build it with the functions of this module."""

    name: str
    board: Literal["kolossus", "grid", "island"]
    led_count: int
    cells: Mapping[str, tuple[int, ...]]
    positions: Mapping[str, Position]
    shape: Literal["square", "circle"] = "square"

    def leds_of(self, cell: str) -> tuple[int, ...]:
        """The LED indices of ``cell``; an empty tuple for a cell this board does not light."""
        return self.cells.get(cell, ())

    def cells_in_strip_order(self) -> tuple[str, ...]:
        """Cells sorted by their first LED: the order a builder follows along the strip."""
        return tuple(sorted(self.cells, key=lambda cell: min(self.cells[cell])))

    @property
    def size(self) -> tuple[float, float]:
        """Drawing extent (width, height) in cell units."""
        if not self.positions:
            return (0.0, 0.0)
        return (
            max(x for x, _ in self.positions.values()) + 1.0,
            max(y for _, y in self.positions.values()) + 1.0,
        )


class GridSpec(BaseModel):
    """A compact description of a rectangular grid of cells on one strip."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rows: int = Field(ge=1, le=64)
    cols: int = Field(ge=1, le=64)
    wiring: Wiring = Wiring.SERPENTINE
    leds_per_cell: int = Field(default=1, ge=1, le=64)
    start_corner: Corner = Corner.TOP_LEFT
    runs: Literal["rows", "columns"] = Field(
        default="rows", description="Does the strip run along rows (east-west) or columns?"
    )
    first_index: int = Field(default=0, ge=0, description="LEDs before the board are skipped.")


class LayoutFile(BaseModel):
    """The JSON file: either ``grid`` (generated) or ``cells`` (listed one by one)."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["colossus-led-layout"] = LAYOUT_FORMAT
    version: Literal[1] = 1
    name: str = ""
    board: Literal["kolossus", "grid", "island"] = "grid"
    led_count: int | None = Field(default=None, description="LEDs on the strip, if longer.")
    shape: Literal["square", "circle"] | None = Field(
        default=None, description="how cells are drawn; default: circles for islands"
    )
    grid: GridSpec | None = None
    cells: dict[str, list[int]] | None = None
    positions: dict[str, tuple[float, float]] | None = None

    @model_validator(mode="after")
    def _grid_or_cells(self) -> LayoutFile:
        if (self.grid is None) == (self.cells is None):
            raise ValueError('give either "grid" or "cells", not both and not neither')
        return self


def kolossus_cells() -> tuple[str, ...]:
    """The 121 squares of the Kolossus board, row by row."""
    return tuple(f"{r},{c}" for r in range(KOLOSSUS_SIZE) for c in range(KOLOSSUS_SIZE))


def parse_square(cell: str) -> tuple[int, int] | None:
    """``"r,c"`` → (r, c), or None when the ID is not a grid square."""
    parts = cell.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def grid_cells(spec: GridSpec) -> dict[str, tuple[int, ...]]:
    """Cell ``"r,c"`` → LED indices for a grid wired as ``spec`` says."""
    along_rows = spec.runs == "rows"
    lines, per_line = (spec.rows, spec.cols) if along_rows else (spec.cols, spec.rows)
    flip_rows = spec.start_corner in (Corner.BOTTOM_LEFT, Corner.BOTTOM_RIGHT)
    flip_cols = spec.start_corner in (Corner.TOP_RIGHT, Corner.BOTTOM_RIGHT)
    cells: dict[str, tuple[int, ...]] = {}
    for line in range(lines):
        backwards = spec.wiring is Wiring.SERPENTINE and line % 2 == 1
        for step in range(per_line):
            along = per_line - 1 - step if backwards else step
            row, col = (line, along) if along_rows else (along, line)
            if flip_rows:
                row = spec.rows - 1 - row
            if flip_cols:
                col = spec.cols - 1 - col
            first = spec.first_index + (line * per_line + step) * spec.leds_per_cell
            cells[f"{row},{col}"] = tuple(range(first, first + spec.leds_per_cell))
    return cells


def grid_layout(
    spec: GridSpec,
    *,
    name: str = "",
    board: Literal["kolossus", "grid"] = "grid",
    led_count: int | None = None,
) -> LedLayout:
    """A validated layout for a rectangular grid."""
    cells = grid_cells(spec)
    needed = spec.first_index + spec.rows * spec.cols * spec.leds_per_cell
    title = name or (
        f"{spec.rows}x{spec.cols} {spec.wiring.value}, {spec.leds_per_cell} LED(s) per cell, "
        f"from {spec.start_corner.value.replace('_', ' ')}"
    )
    return build_layout(
        name=title,
        board=board,
        led_count=needed if led_count is None else led_count,
        cells=cells,
        source=title,
    )


def kolossus_layout(
    *,
    wiring: Wiring = Wiring.SERPENTINE,
    leds_per_cell: int = 1,
    start_corner: Corner = Corner.TOP_LEFT,
    runs: Literal["rows", "columns"] = "rows",
    first_index: int = 0,
    led_count: int | None = None,
) -> LedLayout:
    """The 11 × 11 Kolossus board on one strip (default: serpentine from the NW corner)."""
    spec = GridSpec(
        rows=KOLOSSUS_SIZE,
        cols=KOLOSSUS_SIZE,
        wiring=wiring,
        leds_per_cell=leds_per_cell,
        start_corner=start_corner,
        runs=runs,
        first_index=first_index,
    )
    return grid_layout(spec, board="kolossus", led_count=led_count)


def build_layout(
    *,
    name: str,
    board: Literal["kolossus", "grid", "island"],
    led_count: int,
    cells: Mapping[str, Iterable[int]],
    positions: Mapping[str, Position] | None = None,
    shape: Literal["square", "circle"] | None = None,
    source: str = "layout",
) -> LedLayout:
    """Check a mapping and return it as a layout, or raise :class:`LayoutError` (all faults)."""
    problems: list[str] = []
    if led_count < 1:
        problems.append(f"the strip length must be at least 1 LED, not {led_count}")
    frozen_cells = {cell: tuple(indices) for cell, indices in cells.items()}
    owner: dict[int, str] = {}
    for cell, indices in frozen_cells.items():
        if not indices:
            problems.append(f'cell "{cell}" has no LEDs')
        for index in indices:
            if index < 0:
                problems.append(f'cell "{cell}" uses LED {index}; LED numbers start at 0')
            elif index >= led_count:
                problems.append(
                    f'cell "{cell}" uses LED {index}, beyond the strip of {led_count} LEDs '
                    f"(the last is {led_count - 1})"
                )
            if owner.get(index) == cell:
                problems.append(f'cell "{cell}" lists LED {index} twice')
            elif index in owner:
                problems.append(f'LED {index} is used by both "{owner[index]}" and "{cell}"')
            else:
                owner[index] = cell
    if board == "kolossus":
        problems.extend(_kolossus_problems(frozen_cells))
    elif board == "grid":
        problems.extend(
            f'"{cell}" is not a grid square "row,column"'
            for cell in frozen_cells
            if parse_square(cell) is None
        )
    resolved: dict[str, Position] = {}
    for cell in frozen_cells:
        if positions is not None and cell in positions:
            resolved[cell] = (float(positions[cell][0]), float(positions[cell][1]))
            continue
        square = parse_square(cell)
        if square is None:
            problems.append(f'space "{cell}" has no drawing position')
        else:
            resolved[cell] = (float(square[1]), float(square[0]))
    if positions is not None:
        problems.extend(
            f'a position is given for "{cell}", which has no LEDs'
            for cell in positions
            if cell not in frozen_cells
        )
    if problems:
        raise LayoutError(source, problems)
    return LedLayout(
        name=name,
        board=board,
        led_count=led_count,
        cells=frozen_cells,
        positions=resolved,
        shape=shape or ("circle" if board == "island" else "square"),
    )


def _kolossus_problems(cells: Mapping[str, tuple[int, ...]]) -> list[str]:
    problems: list[str] = []
    expected = set(kolossus_cells())
    for cell in cells:
        if cell in expected:
            continue
        square = parse_square(cell)
        if square is None:
            problems.append(f'"{cell}" is not a Kolossus square "row,column"')
        else:
            problems.append(f'unknown cell "{cell}": Kolossus rows and columns run from 0 to 10')
    missing = [cell for cell in kolossus_cells() if cell not in cells]
    if missing:
        listed = ", ".join(missing[:8]) + (" …" if len(missing) > 8 else "")
        problems.append(
            f"{len(missing)} of the 121 Kolossus squares have no LEDs ({listed}); "
            "every square of the 11 × 11 board must be lit"
        )
    return problems


def layout_from_data(data: object, source: str = "layout") -> LedLayout:
    """Validate already-parsed JSON data (a dict) as a layout."""
    try:
        parsed = LayoutFile.model_validate(data)
    except ValidationError as error:
        raise LayoutError(source, _pydantic_problems(error)) from None
    if parsed.grid is not None:
        if parsed.board == "island":
            raise LayoutError(source, ['an island board lists its spaces in "cells", not "grid"'])
        board: Literal["kolossus", "grid"] = "kolossus" if parsed.board == "kolossus" else "grid"
        needed = parsed.grid.first_index + (
            parsed.grid.rows * parsed.grid.cols * parsed.grid.leds_per_cell
        )
        return build_layout(
            name=parsed.name or source,
            board=board,
            led_count=parsed.led_count if parsed.led_count is not None else needed,
            cells=grid_cells(parsed.grid),
            positions=parsed.positions,
            shape=parsed.shape,
            source=source,
        )
    assert parsed.cells is not None  # guaranteed by LayoutFile's validator
    highest = max((max(v) for v in parsed.cells.values() if v), default=-1)
    return build_layout(
        name=parsed.name or source,
        board=parsed.board,
        led_count=parsed.led_count if parsed.led_count is not None else highest + 1,
        cells=parsed.cells,
        positions=parsed.positions,
        shape=parsed.shape,
        source=source,
    )


def parse_layout(text: str, source: str = "layout") -> LedLayout:
    """Parse the JSON text of a layout file; errors name the line and column."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LayoutError(
            source, [f"line {error.lineno}, column {error.colno}: not valid JSON ({error.msg})"]
        ) from None
    return layout_from_data(data, source)


def load_layout(path: Path) -> LedLayout:
    """Read and validate a layout file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise LayoutError(
            str(path), [f"cannot read the file ({error.strerror or error})"]
        ) from None
    return parse_layout(text, str(path))


def layout_to_json(layout: LedLayout) -> str:
    """The layout as an explicit, hand-editable file: one line per cell, in strip order."""
    lines = [
        "{",
        f'  "format": "{LAYOUT_FORMAT}",',
        '  "version": 1,',
        f'  "name": {json.dumps(layout.name)},',
        f'  "board": "{layout.board}",',
        f'  "led_count": {layout.led_count},',
        f'  "shape": "{layout.shape}",',
        '  "cells": {',
    ]
    order = layout.cells_in_strip_order()
    for number, cell in enumerate(order):
        comma = "," if number < len(order) - 1 else ""
        lines.append(f"    {json.dumps(cell)}: {json.dumps(list(layout.cells[cell]))}{comma}")
    lines.append("  },")
    lines.append('  "positions": {')
    for number, cell in enumerate(order):
        comma = "," if number < len(order) - 1 else ""
        x, y = layout.positions[cell]
        lines.append(f"    {json.dumps(cell)}: [{x:g}, {y:g}]{comma}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _pydantic_problems(error: ValidationError) -> list[str]:
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "the file"
        problems.append(f"{where}: {item['msg']}")
    return problems
