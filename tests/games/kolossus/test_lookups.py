"""Kolossus's precomputed lookups answer exactly what the computations they replace did:
square keys, regions, whether a Quake pushes the Citadel off, the lit Quake regions."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.kolossus import views
from companion.games.kolossus.content import (
    ALL_REGIONS,
    SIZE,
    SQUARES,
    cell,
    parse_cell,
    parse_region,
    region_squares,
    square,
)
from companion.games.kolossus.highlights import board_highlights
from companion.games.kolossus.model import KolossusState
from companion.games.kolossus.quake import citadel_falls, shift_region
from companion.highlights import Highlight, Role
from tests.games.kolossus.helpers import new_game, roll

_CELL = re.compile(r"^\s*(\d{1,2})\s*,\s*(\d{1,2})\s*$")
_REGION = re.compile(r"^(row|col)(\d{1,2})$")


def parsed_cell(text: str) -> int | None:
    """``parse_cell`` as it was: the pattern alone."""
    m = _CELL.match(text)
    if m is None:
        return None
    r, c = int(m.group(1)), int(m.group(2))
    return square(r, c) if 0 <= r < SIZE and 0 <= c < SIZE else None


def test_every_square_key_is_looked_up_as_it_was_parsed() -> None:
    for sq in range(SQUARES):
        r, c = divmod(sq, SIZE)
        assert cell(sq) == f"{r},{c}"
        for text in (f"{r},{c}", f" {r} , {c} ", f"{r},{c}\n"):
            assert parse_cell(text) == parsed_cell(text) == sq
        assert parse_cell(f"0{r},{c}") == parsed_cell(f"0{r},{c}")  # "010,0" is not one
    for text in ("11,0", "0,11", "-1,0", "a,b", "", "5", "5,5,5", "05,005"):
        assert parse_cell(text) == parsed_cell(text)
    assert cell(-1) == "-1,10" and cell(SQUARES) == "11,0"  # off the board: as before


@given(st.text(alphabet="0123456789, \n-ab", max_size=8))
@settings(max_examples=300)
def test_any_text_parses_as_the_pattern_says(text: str) -> None:
    assert parse_cell(text) == parsed_cell(text)


def test_every_region_is_looked_up_as_it_was_parsed() -> None:
    for name in (*ALL_REGIONS, "row03", "row11", "col", "rows3", "row3\n"):
        m = _REGION.match(name)
        expected = None if m is None or not 0 <= int(m.group(2)) < SIZE else (m[1], int(m[2]))
        assert parse_region(name) == expected
        if expected is not None:
            axis, index = expected
            squares = tuple(
                square(index, k) if axis == "row" else square(k, index) for k in range(SIZE)
            )
            assert region_squares(name) == squares


def test_whether_the_citadel_falls_is_what_the_whole_shift_says() -> None:
    """Random boards (landscapes and miniatures anywhere): every region, both ways,
    every distance, both models."""
    rng = random.Random(7)
    for _ in range(60):
        chars = [rng.choice(".....WHM") for _ in range(SQUARES)]
        chars[rng.randrange(SQUARES)] = "C"
        terrain = tuple("".join(chars[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))
        minis = tuple(rng.choice([-1, rng.randrange(SQUARES)]) for _ in range(32))
        for region in ALL_REGIONS:
            for sign in (1, -1):
                for distance in range(0, 6):
                    for model in ("rigid", "push_compress"):
                        whole = shift_region(terrain, minis, region, sign, distance, model)
                        falls = citadel_falls(terrain, minis, region, sign, distance, model)
                        assert falls == whole.citadel_falls


def _regions_as_before(state: object) -> tuple[str, ...]:
    """The candidate regions with at least one move, asked move by move."""
    return tuple(r for r in views.quake_candidates(state) if any(True for _ in _moves(state, r)))  # type: ignore[arg-type]


def _moves(state: object, region: str) -> list[object]:
    return [m for m in views.quake_moves(state) if m.region == region]  # type: ignore[arg-type]


def test_the_lit_quake_regions_are_the_regions_with_a_move() -> None:
    for candidates in ("central10", "all22"):
        for model in ("rigid", "push_compress"):
            for distance in ("exact", "up_to_roll"):
                for rolled in (1, 2, 3, 4):
                    state = new_game(
                        quake_candidates=candidates,
                        region_move_model=model,
                        quake_distance=distance,
                    )
                    while state.phase != "quake":  # placement, skills: the defaults
                        state = _past_setup(state)
                    state = roll(state, rolled)
                    regions = views.quake_regions(state)
                    assert regions == _regions_as_before(state)
                    lit: list[Highlight] = []
                    seen: set[str] = set()
                    for region in regions:
                        for sq in region_squares(region):
                            if cell(sq) not in seen:
                                seen.add(cell(sq))
                                lit.append(Highlight(cell=cell(sq), role=Role.QUAKE_REGION))
                    assert [
                        h for h in board_highlights(state, None) if h.role is Role.QUAKE_REGION
                    ] == lit


def _past_setup(state: KolossusState) -> KolossusState:
    from companion.games.kolossus import RULES

    action = next(iter(RULES.legal_actions(state)))
    return RULES.apply(state, action)[0]
