"""Region shifts for the Great Quake and the Earthquake power (RULINGS Appendix B.2).

A region is a whole row or column. ``rigid`` (K-R04) translates all 11 squares'
contents by the distance; ``push_compress`` pushes from the rear-most object (landscape
or miniature), which moves the full distance and shoves whatever it meets, closing
gaps. Whatever passes the edge leaves the game: landscapes for good, miniatures beaten.

:func:`shift_region` works on plain tuples; :func:`region_shift` and :func:`apply_shift`
apply it to a game state for both Quakes (the refusals, the table's steps, the beats).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from companion.events import Event, TableChanges
from companion.games.kolossus.common import KolossusEvent
from companion.games.kolossus.content import (
    LANDSCAPE_NAME,
    SIZE,
    cell,
    landscape_at,
    parse_region,
    region_sign,
    region_squares,
    square_text,
)
from companion.games.kolossus.model import BeatRecord, KolossusState
from companion.games.kolossus.position import current_warband, occupants, piece_name
from companion.games.kolossus.scoring import check_elimination
from companion.highlights import TableChange
from companion.rules import refuse

MoveModel = Literal["rigid", "push_compress"]
QuakeCause = Literal["quake", "earthquake"]  # which Quake shifted a region (its beats say)


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
    front: int | None = None  # the pushed position of the previous object (rear to front)
    for i in range(SIZE):
        if not occupied[i]:
            continue
        j = i + distance if front is None else max(i, front + 1)
        front = j
        out[i] = j if j < SIZE else None
    return out


def shift_region(
    terrain: tuple[str, ...],
    minis: tuple[int, ...],
    region: str,
    sign: int,
    distance: int,
    model: MoveModel,
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


def citadel_falls(
    terrain: tuple[str, ...],
    minis: tuple[int, ...],
    region: str,
    sign: int,
    distance: int,
    model: MoveModel,
) -> bool:
    """``shift_region(...).citadel_falls`` without making the shifted board: whether the
    shift pushes the Citadel off the edge (K-R41). The Great Quake's generation asks it
    of every move of the Citadel's row and column."""
    line = list(region_squares(region))
    if sign < 0:
        line.reverse()
    occ = occupants(minis)
    land = [terrain[sq // SIZE][sq % SIZE] for sq in line]
    occupied = [land[i] != "." or occ[sq] >= 0 for i, sq in enumerate(line)]
    targets = _targets(occupied, distance, model)
    return any(land[i] == "C" and targets[i] is None for i in range(SIZE))


# --- on a game state: both Quakes ------------------------------------------------------


def region_shift(state: KolossusState, region: str, direction: str, dist: int) -> RegionShift:
    """The shift of ``region`` towards ``direction``, or the refusal of a bad region or
    direction (K-R03, K-R04)."""
    parsed = parse_region(region)
    if parsed is None:
        raise refuse(f"{region!r} is not a region (row0..row10, col0..col10).", "K-R03")
    sign = region_sign(parsed[0], direction)
    if sign is None:
        raise refuse(
            "A row moves east or west, a column north or south.",
            "K-R04",
        )
    return shift_region(
        state.terrain, state.minis, region, sign, dist, state.options.region_move_model
    )


def shift_changes(state: KolossusState, shift: RegionShift) -> tuple[TableChange, ...]:
    """The numbered steps that make the table show ``shift``: removals first."""
    occ = occupants(state.minis)
    steps: list[TableChange] = []

    def add(sq: int, text: str) -> None:
        steps.append(TableChange(step=len(steps) + 1, cell=cell(sq), instruction=text))

    for sq in shift.fallen:
        land = landscape_at(state.terrain, sq)
        if occ[sq] >= 0:
            add(sq, f"Remove {piece_name(state, occ[sq])} from {square_text(sq)} (beaten)")
        if land != ".":
            add(sq, f"Remove the {LANDSCAPE_NAME[land]} at {square_text(sq)} from the game")
    for src, dst in shift.moves:
        land = landscape_at(state.terrain, src)
        piece = occ[src]
        if land != "." and piece >= 0:
            what = f"the {LANDSCAPE_NAME[land]} with {piece_name(state, piece)}"
        elif land != ".":
            what = f"the {LANDSCAPE_NAME[land]}"
        else:
            what = piece_name(state, piece)
        add(src, f"Move {what} from {square_text(src)} to {square_text(dst)}")
    return tuple(steps)


def apply_shift(
    state: KolossusState, shift: RegionShift, cause: QuakeCause, label: str
) -> tuple[KolossusState, list[Event]]:
    """The shifted board, the beats it made and the end of the game it may bring."""
    changes = shift_changes(state, shift)
    wb = current_warband(state)
    beats = tuple(
        BeatRecord(
            round=state.round,
            piece=p,
            by=wb,
            cause=cause,
        )
        for p in shift.fallen_pieces
    )
    events: list[Event] = []
    if changes:
        events.append(TableChanges(text=label, changes=changes))
    else:
        events.append(KolossusEvent(text=f"{label.removesuffix('.')}: nothing on that line moves."))
    new = state.evolve(
        {"terrain": shift.terrain, "minis": shift.minis, "beats": state.beats + beats}
    )
    if shift.fallen_pieces:
        new, ended = check_elimination(new)
        events.extend(ended)
    return new, events
