"""Board-to-LED layouts: generated grids, files, validation errors, calibration."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.calibrate import calibration_steps, run_calibration
from firmware_bridge.layout import (
    Corner,
    GridSpec,
    LayoutError,
    Wiring,
    build_layout,
    grid_cells,
    grid_layout,
    kolossus_cells,
    kolossus_layout,
    layout_from_data,
    layout_to_json,
    load_layout,
    parse_layout,
)
from firmware_bridge.leds.render import PowerBudget, estimate_current_ma
from firmware_bridge.leds.sim import SimStrip

EXAMPLE = Path(__file__).resolve().parents[2] / "examples/layouts/kolossus-11x11-serpentine.json"


def first(cells: dict[str, tuple[int, ...]], cell: str) -> int:
    return cells[cell][0]


def test_kolossus_board_has_121_squares() -> None:
    squares = kolossus_cells()
    assert len(squares) == 121 == len(set(squares))
    assert squares[0] == "0,0" and squares[-1] == "10,10" and "5,5" in squares


def test_serpentine_from_the_nw_corner_zigzags_along_rows() -> None:
    cells = grid_cells(GridSpec(rows=11, cols=11))
    assert [first(cells, f"0,{c}") for c in range(11)] == list(range(11))
    assert [first(cells, f"1,{c}") for c in range(11)] == list(range(21, 10, -1))
    assert first(cells, "2,0") == 22
    assert first(cells, "10,0") == 110  # row 10 runs forwards again (even)
    assert first(cells, "5,5") == 60


def test_row_major_starts_every_row_on_the_same_side() -> None:
    cells = grid_cells(GridSpec(rows=11, cols=11, wiring=Wiring.ROW_MAJOR))
    assert [first(cells, f"1,{c}") for c in range(11)] == list(range(11, 22))


@pytest.mark.parametrize(
    ("corner", "cell_at_zero", "second"),
    [
        (Corner.TOP_LEFT, "0,0", "0,1"),
        (Corner.TOP_RIGHT, "0,10", "0,9"),
        (Corner.BOTTOM_LEFT, "10,0", "10,1"),
        (Corner.BOTTOM_RIGHT, "10,10", "10,9"),
    ],
)
def test_start_corner_decides_where_led_0_sits(
    corner: Corner, cell_at_zero: str, second: str
) -> None:
    cells = grid_cells(GridSpec(rows=11, cols=11, start_corner=corner))
    assert cells[cell_at_zero] == (0,)
    assert cells[second] == (1,)


def test_strip_running_along_columns() -> None:
    cells = grid_cells(GridSpec(rows=3, cols=2, runs="columns"))
    assert {cell: leds[0] for cell, leds in cells.items()} == {
        "0,0": 0, "1,0": 1, "2,0": 2, "2,1": 3, "1,1": 4, "0,1": 5,
    }  # fmt: skip


def test_leds_per_cell_and_first_index() -> None:
    layout = grid_layout(GridSpec(rows=2, cols=2, leds_per_cell=3, first_index=5))
    assert layout.cells["0,0"] == (5, 6, 7)
    assert layout.cells["1,1"] == (11, 12, 13)  # serpentine: row 1 backwards
    assert layout.led_count == 5 + 12


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(1, 12),
    cols=st.integers(1, 12),
    wiring=st.sampled_from(list(Wiring)),
    corner=st.sampled_from(list(Corner)),
    runs=st.sampled_from(["rows", "columns"]),
    per_cell=st.integers(1, 4),
    offset=st.integers(0, 30),
)
def test_generated_grids_use_every_led_once(
    rows: int, cols: int, wiring: Wiring, corner: Corner, runs: str, per_cell: int, offset: int
) -> None:
    spec = GridSpec(
        rows=rows,
        cols=cols,
        wiring=wiring,
        start_corner=corner,
        runs=runs,
        leds_per_cell=per_cell,
        first_index=offset,
    )
    layout = grid_layout(spec)  # validates: no duplicate, none beyond the strip
    used = sorted(i for leds in layout.cells.values() for i in leds)
    assert used == list(range(offset, offset + rows * cols * per_cell))
    if wiring is Wiring.SERPENTINE:  # consecutive cells along the strip are neighbours
        order = layout.cells_in_strip_order()
        for a, b in itertools.pairwise(order):
            (ra, ca), (rb, cb) = (tuple(map(int, c.split(","))) for c in (a, b))
            assert abs(ra - rb) + abs(ca - cb) == 1


def test_positions_follow_row_and_column() -> None:
    layout = kolossus_layout()
    assert layout.positions["3,7"] == (7.0, 3.0)
    assert layout.size == (11.0, 11.0)


def test_duplicate_led_is_refused_with_both_cells_named() -> None:
    with pytest.raises(LayoutError, match='LED 4 is used by both "a" and "b"'):
        build_layout(
            name="x",
            board="island",
            led_count=10,
            cells={"a": [4], "b": [4]},
            positions={"a": (0, 0), "b": (1, 0)},
        )


def test_index_beyond_the_strip_and_negative_index_are_refused() -> None:
    with pytest.raises(LayoutError) as caught:
        build_layout(name="x", board="grid", led_count=4, cells={"0,0": [4], "0,1": [-1]})
    text = str(caught.value)
    assert "LED 4, beyond the strip of 4 LEDs" in text
    assert "LED -1; LED numbers start at 0" in text
    assert caught.value.code == "invalid_layout"


def test_kolossus_layout_must_cover_every_square() -> None:
    cells = {cell: [i] for i, cell in enumerate(kolossus_cells()) if cell != "5,5"}
    with pytest.raises(LayoutError, match="1 of the 121 Kolossus squares have no LEDs \\(5,5\\)"):
        build_layout(name="x", board="kolossus", led_count=121, cells=cells)


def test_unknown_kolossus_cell_is_refused() -> None:
    cells: dict[str, list[int]] = {cell: [i] for i, cell in enumerate(kolossus_cells())}
    cells["11,0"] = [121]
    cells["citadel"] = [122]
    with pytest.raises(LayoutError) as caught:
        build_layout(name="x", board="kolossus", led_count=200, cells=cells)
    assert 'unknown cell "11,0"' in str(caught.value)
    assert '"citadel" is not a Kolossus square' in str(caught.value)


def test_BM_R01_island_spaces_need_positions_from_the_board_file() -> None:
    data = {
        "board": "island",
        "cells": {"centre": [0], "bay": [1, 2]},
        "positions": {"centre": [1, 1]},
    }
    with pytest.raises(LayoutError, match='space "bay" has no drawing position'):
        layout_from_data(data, "island.json")
    data["positions"] = {"centre": [1, 1], "bay": [0, 2.5]}
    layout = layout_from_data(data, "island.json")
    assert layout.shape == "circle" and layout.led_count == 3
    assert layout.leds_of("bay") == (1, 2) and layout.positions["bay"] == (0.0, 2.5)


def test_file_with_a_grid_description() -> None:
    text = json.dumps(
        {
            "format": "colossus-led-layout",
            "board": "kolossus",
            "grid": {"rows": 11, "cols": 11, "wiring": "row_major", "start_corner": "top_right"},
        }
    )
    layout = parse_layout(text)
    assert layout.cells["0,10"] == (0,) and layout.cells["1,10"] == (11,)


def test_file_errors_name_the_file_and_place(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "board": "kolossus",\n  "cells": {"0,0": [0],}\n}\n')
    with pytest.raises(LayoutError, match=r"broken.json: line 3, column \d+: not valid JSON"):
        load_layout(broken)
    with pytest.raises(LayoutError, match="cannot read the file"):
        load_layout(tmp_path / "missing.json")
    with pytest.raises(
        LayoutError, match=r"grid\.rows: Input should be greater than or equal to 1"
    ):
        layout_from_data({"grid": {"rows": 0, "cols": 3}}, "x.json")
    with pytest.raises(LayoutError, match="not both and not neither"):
        layout_from_data({"board": "grid"}, "x.json")
    with pytest.raises(LayoutError, match="gird: Extra inputs"):
        layout_from_data({"gird": {}, "cells": {"0,0": [0]}}, "x.json")


def test_example_file_is_the_generated_serpentine_kolossus_layout() -> None:
    example = load_layout(EXAMPLE)
    generated = kolossus_layout()
    assert example.board == "kolossus"
    assert dict(example.cells) == dict(generated.cells)
    assert dict(example.positions) == dict(generated.positions)


def test_json_round_trip() -> None:
    layout = kolossus_layout(leds_per_cell=2, start_corner=Corner.BOTTOM_RIGHT)
    again = parse_layout(layout_to_json(layout))
    assert dict(again.cells) == dict(layout.cells) and again.led_count == layout.led_count


# --- calibration ---------------------------------------------------------------------------


def test_calibration_lights_each_cell_in_strip_order() -> None:
    layout = kolossus_layout()
    steps = list(calibration_steps(layout))
    assert len(steps) == 121
    assert [s.cell for s in steps[:13]] == [f"0,{c}" for c in range(11)] + ["1,10", "1,9"]
    for step in steps:
        lit = [i for i, pixel in enumerate(step.frame) if pixel != (0, 0, 0)]
        assert lit == list(step.leds)
    assert steps[11].text == "12/121: cell 1,10 = LED 11"


def test_calibration_on_a_strip_prints_every_cell_and_ends_dark() -> None:
    layout = grid_layout(GridSpec(rows=2, cols=2, leds_per_cell=2))
    strip = SimStrip(10)
    printed: list[str] = []
    seen: list[int] = []
    shown = run_calibration(
        strip, layout, report=printed.append, wait=lambda s: seen.append(s.number)
    )
    assert shown == 4 and seen == [1, 2, 3, 4]
    assert printed[0] == "1/4: cell 0,0 = LEDs 0, 1"
    assert printed[2] == "3/4: cell 1,1 = LEDs 4, 5"
    assert strip.last_frame == ((0, 0, 0),) * 10
    assert len(strip.frames) == 5


def test_calibration_respects_the_power_budget() -> None:
    layout = kolossus_layout(leds_per_cell=3)
    power = PowerBudget(budget_ma=400)
    for step in calibration_steps(layout, brightness=1.0, power_budget=power):
        assert estimate_current_ma(step.frame, power) <= 400
