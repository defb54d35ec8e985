"""Region shifts for the Great Quake and the Earthquake power (RULINGS Appendix B.2).

A region is a whole row or column. ``rigid`` (K-R04) translates all 11 squares'
contents by the distance; ``push_compress`` pushes from the rear-most object (landscape
or miniature), which moves the full distance and shoves whatever it meets, closing
gaps. Whatever passes the edge leaves the game: landscapes for good, miniatures beaten.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from companion.games.kolossus.board import SIZE, region_squares

MoveModel = Literal["rigid", "push_compress"]


class RegionShift(NamedTuple):
    """The result of one shift; ``moves`` are (from, to) in a safe physical order."""

    terrain: tuple[str, ...]
    minis: tuple[int, ...]
    moves: tuple[tuple[int, int], ...]
    fallen: tuple[int, ...]  # squares whose contents left the board
    fallen_landscapes: tuple[tuple[int, str], ...]  # (square, landscape char)
    fallen_pieces: tuple[int, ...]  # piece ids
    citadel_falls: bool


def _targets(occupied: list[bool], distance: int, model: MoveModel) -> list[int | None]:
    """New index (or None = off the board) for each index of a line moving towards +."""
    out: list[int | None] = [None] * SIZE
    if model == "rigid":
        for i in range(SIZE):
            if occupied[i]:
                j = i + distance
                out[i] = j if j < SIZE else None
        return out
    front = -1  # the pushed position of the previous object (rear to front)
    first = True
    for i in range(SIZE):
        if not occupied[i]:
            continue
        j = i + distance if first else max(i, front + 1)
        first = False
        front = j
        out[i] = j if j < SIZE else None
    return out


def shift_region(
    terrain: tuple[str, ...],
    minis: tuple[int, ...],
    region: str,
    sign: int,
    distance: int,
    model: MoveModel = "rigid",
) -> RegionShift:
    """Shift ``region`` by ``distance`` squares towards ``sign`` (+1 east/south)."""
    line = list(region_squares(region))
    if sign < 0:
        line.reverse()  # index 0 is now the rear, moving towards higher indices
    grid = [list(row) for row in terrain]
    piece_at: dict[int, int] = {sq: p for p, sq in enumerate(minis) if sq >= 0}
    land = [grid[sq // SIZE][sq % SIZE] for sq in line]
    pieces = [piece_at.get(sq) for sq in line]
    occupied = [land[i] != "." or pieces[i] is not None for i in range(SIZE)]
    targets = _targets(occupied, distance, model)

    new_minis = list(minis)
    for sq in line:
        grid[sq // SIZE][sq % SIZE] = "."
    fallen: list[int] = []
    fallen_land: list[tuple[int, str]] = []
    fallen_pieces: list[int] = []
    moves: list[tuple[int, int]] = []
    for i in range(SIZE - 1, -1, -1):  # front first: destinations are free in this order
        if not occupied[i]:
            continue
        j = targets[i]
        piece = pieces[i]
        if j is None:
            fallen.append(line[i])
            if land[i] != ".":
                fallen_land.append((line[i], land[i]))
            if piece is not None:
                fallen_pieces.append(piece)
                new_minis[piece] = -1
            continue
        dest = line[j]
        grid[dest // SIZE][dest % SIZE] = land[i]
        if piece is not None:
            new_minis[piece] = dest
        if dest != line[i]:
            moves.append((line[i], dest))
    return RegionShift(
        terrain=tuple("".join(row) for row in grid),
        minis=tuple(new_minis),
        moves=tuple(moves),
        fallen=tuple(fallen),
        fallen_landscapes=tuple(fallen_land),
        fallen_pieces=tuple(fallen_pieces),
        citadel_falls=any(ch == "C" for _, ch in fallen_land),
    )
