"""Kolossus's board geometry (``content.py``) against values worked out by hand from the
rule book (RULINGS 1.3): the 11 by 11 board (K-R01), the pyramid, the start zones
(K-R02), the rays of the eight directions, the regions and their directions (K-R04).

The tables are built once when the module is imported; the builders are called here
again so that a wrong builder is noticed, not only a wrong table."""

from __future__ import annotations

import pytest

from companion.games.kolossus import content
from companion.games.kolossus.content import (
    BOARD_CORNER,
    DEFAULT_START_ZONES,
    INITIAL_TERRAIN,
    NEIGHBOURS,
    RAYS,
    alliance,
    citadel_square,
    default_arrangement,
    landscape_at,
    levels_of,
    parse_region,
    region_directions,
    region_sign,
    region_squares,
    region_text,
    row_col,
    square,
    square_text,
)

PYRAMID = (
    "...........",
    "...........",
    "..WWWWWWW..",
    "..WHHHHHW..",
    "..WHMMMHW..",
    "..WHMCMHW..",
    "..WHMMMHW..",
    "..WHHHHHW..",
    "..WWWWWWW..",
    "...........",
    "...........",
)


def sq(r: int, c: int) -> int:
    return 11 * r + c


def test_K_R01_squares_are_numbered_row_by_row() -> None:
    assert square(0, 0) == 0 and square(3, 7) == 40 and square(10, 10) == 120
    assert row_col(40) == (3, 7) and row_col(120) == (10, 10) and row_col(10) == (0, 10)
    assert square_text(40) == "(3, 7)" and square_text(0) == "(0, 0)"
    assert content.cell(40) == "3,7" and content.cell(120) == "10,10"
    assert content.cell(121) == "11,0" and content.cell(-1) == "-1,10"  # off the board


def test_K_R01_the_pyramid_is_built_level_by_level_round_the_citadel() -> None:
    assert content._initial_terrain() == PYRAMID == INITIAL_TERRAIN
    levels = levels_of(PYRAMID)
    assert [levels[sq(r, r)] for r in range(6)] == [1, 1, 2, 3, 4, 5]
    assert [levels[sq(5, c)] for c in range(11)] == [1, 1, 2, 3, 4, 5, 4, 3, 2, 1, 1]
    assert sum(levels) == 121 + 24 * 1 + 16 * 2 + 8 * 3 + 4
    assert landscape_at(PYRAMID, sq(3, 5)) == "H" and landscape_at(PYRAMID, sq(6, 4)) == "M"
    assert citadel_square(PYRAMID) == sq(5, 5)
    moved = (*PYRAMID[:5], "..WHM.MHW.C", *PYRAMID[6:])
    assert citadel_square(moved) == sq(5, 10)
    top = ("C" + "." * 10, *PYRAMID[1:5], "..WHM.MHW..", *PYRAMID[6:])
    assert citadel_square(top) == 0
    with pytest.raises(ValueError, match=r"^the Citadel is missing from the landscape map$"):
        citadel_square((*PYRAMID[:5], "..WHM.MHW..", *PYRAMID[6:]))


def test_the_rays_run_to_the_board_edge_in_the_eight_directions() -> None:
    for rays in (content._build_rays(), RAYS):
        assert len(rays) == 121 and all(len(r) == 8 for r in rays)
        # From (0, 0): north and west nothing, east the whole row, south-east the diagonal.
        assert rays[0] == (
            (),
            (),
            tuple(range(1, 11)),
            tuple(sq(k, k) for k in range(1, 11)),
            tuple(sq(k, 0) for k in range(1, 11)),
            (),
            (),
            (),
        )
        centre = rays[sq(5, 5)]
        assert centre[0] == (sq(4, 5), sq(3, 5), sq(2, 5), sq(1, 5), sq(0, 5))
        assert centre[1] == (sq(4, 6), sq(3, 7), sq(2, 8), sq(1, 9), sq(0, 10))
        assert centre[5] == (sq(6, 4), sq(7, 3), sq(8, 2), sq(9, 1), sq(10, 0))
        assert centre[7] == (sq(4, 4), sq(3, 3), sq(2, 2), sq(1, 1), sq(0, 0))
        corner = rays[sq(10, 10)]
        assert corner[6] == tuple(sq(10, c) for c in range(9, -1, -1))
        assert corner[2] == corner[3] == corner[4] == ()
        assert rays[sq(3, 10)][1] == () and rays[sq(3, 10)][0] == (sq(2, 10), sq(1, 10), sq(0, 10))
    assert NEIGHBOURS[0] == (1, sq(1, 1), sq(1, 0))
    assert len(NEIGHBOURS[sq(5, 5)]) == 8 and len(NEIGHBOURS[sq(0, 5)]) == 5


def test_K_R02_start_zones_are_the_corner_blocks_without_their_inner_square() -> None:
    nw = content._corner_zone(range(0, 3), range(0, 3), (2, 2))
    assert nw == (0, 1, 2, 11, 12, 13, 22, 23) == DEFAULT_START_ZONES[0]
    assert DEFAULT_START_ZONES[1] == (8, 9, 10, 19, 20, 21, 31, 32)
    assert DEFAULT_START_ZONES[2] == tuple(
        sq(r, c) for r in range(8, 11) for c in range(8, 11) if (r, c) != (8, 8)
    )
    assert sq(8, 2) not in DEFAULT_START_ZONES[3] and len(DEFAULT_START_ZONES[3]) == 8
    assert BOARD_CORNER == (0, 10, 120, 110)


def test_K_R02_the_colossus_stands_nearest_its_corner_the_warriors_in_front() -> None:
    assert default_arrangement(DEFAULT_START_ZONES[0], 0) == (0, 1, 11, 12, 2, 22, 13, 23)
    assert default_arrangement(DEFAULT_START_ZONES[2], 2) == (
        sq(10, 10),
        sq(9, 10),
        sq(10, 9),
        sq(9, 9),
        sq(8, 10),
        sq(10, 8),
        sq(8, 9),
        sq(9, 8),
    )
    # Equal distances keep the lower square first: (0, 9) before (1, 10).
    assert default_arrangement(DEFAULT_START_ZONES[1], 1)[:3] == (10, 9, 21)


def test_K_R04_regions_are_named_parsed_and_laid_out_along_their_axis() -> None:
    assert content._parse_region("row10") == ("row", 10)
    assert content._parse_region("col0") == ("col", 0)
    for bad in ("row11", "col99", "rowx", "line3", "row-1"):
        assert content._parse_region(bad) is None and parse_region(bad) is None
    assert parse_region("row07") == ("row", 7)  # not a key, still a region
    assert content._squares_of("row", 2) == tuple(range(22, 33))
    assert content._squares_of("col", 2) == tuple(sq(r, 2) for r in range(11))
    assert region_squares("row07") == tuple(range(77, 88))
    with pytest.raises(ValueError, match="not a region: row11"):
        region_squares("row11")
    assert region_text("row3") == "row 3" and region_text("col7") == "column 7"
    assert region_text("col07") == "column 7" and region_text("diagonal") == "diagonal"


def test_K_R04_a_row_moves_east_or_west_a_column_north_or_south() -> None:
    assert [region_sign("row", d) for d in ("east", "west", "north", "south")] == [
        1,
        -1,
        None,
        None,
    ]
    assert [region_sign("col", d) for d in ("east", "west", "north", "south")] == [
        None,
        None,
        -1,
        1,
    ]
    assert region_directions("row4") == ("east", "west")
    assert region_directions("col4") == ("north", "south")


def test_K_R21_diagonal_warbands_are_allies() -> None:
    assert [alliance(wb) for wb in range(4)] == [0, 1, 0, 1]
