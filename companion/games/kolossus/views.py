"""Kolossus as the typed views see it (companion.views): panel, board, cells, generation.

One generation of the actions that happen on the board serves three readers:
:meth:`KolossusRules.legal_actions`, :func:`legal_actions_at` (which generates only the
piece asked about, after python-chess's ``generate_legal_moves(from_mask, to_mask)``)
and the highlights (``highlights.py``). A lit cell is therefore a cell a legal action
touches, by construction:

- :func:`moves_from` lists a piece's moves from :func:`~.position.all_destinations`,
  the same ends the highlights light ``reachable``/``capturable`` from that piece;
- :func:`strike_squares` gives the Spear and Hammer targets that :func:`strikes` turns
  into actions and the highlights light ``target``;
- :func:`quake_moves` lists the Great Quake's moves, and :func:`quake_regions` (the
  regions with at least one of them) is what lights ``quake_region`` once the die is read.

Cells are ``"r,c"`` keys (row 0 north, column 0 west), as in the highlights.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

from companion.games.kolossus.content import (
    ALL_REGIONS,
    CENTRAL_REGIONS,
    PIECE_COUNT,
    SIZE,
    SQUARE_OF_KEY,
    RegionDirection,
    cell,
    levels_of,
    parse_cell,
    parse_region,
    region_directions,
    region_sign,
    region_squares,
    square,
)
from companion.games.kolossus.corrections import piece_id
from companion.games.kolossus.model import (
    ROUNDS,
    CorrectCrystals,
    CorrectLandscape,
    CorrectPiece,
    CorrectRegion,
    Earthquake,
    Hammer,
    KolossusAction,
    KolossusState,
    Move,
    QuakeMove,
    Rebirth,
    Spear,
    Swap,
)
from companion.games.kolossus.movement import hammer_subsets, spear_targets
from companion.games.kolossus.position import (
    all_destinations,
    canonical_way,
    charged,
    citadel,
    class_of,
    current_warband,
    movable_pieces,
    occupancy,
    occupants,
    usable_configs,
    warband_name,
    warband_of,
    weapon_configs,
)
from companion.games.kolossus.quake import citadel_falls
from companion.views import (
    NO_CELLS,
    ActionCells,
    BoardView,
    CellView,
    PanelRow,
    PanelView,
    Piece,
    PieceKind,
    Terrain,
)

# --- the one generation of board actions ---------------------------------------------


def quake_candidates(state: KolossusState) -> tuple[str, ...]:
    """Regions this Great Quake may still move (K-R03: central or all; K-R06: once each)."""
    pool = CENTRAL_REGIONS if state.options.quake_candidates == "central10" else ALL_REGIONS
    return tuple(r for r in pool if r not in state.quake_moved)


def _distances(state: KolossusState) -> Sequence[int]:
    """How far the Great Quake may move a region by the roll (K-R05)."""
    rolled = state.roll[0]
    return [rolled] if state.options.quake_distance == "exact" else range(1, rolled + 1)


def _region_moves(
    state: KolossusState, region: str, at: int
) -> Iterator[tuple[RegionDirection, int]]:
    """One candidate region's legal Great Quake moves as (direction, distance): both
    ways, by the roll (K-R05), never pushing the Citadel (on ``at``) off the board (K-R41)."""
    distances = _distances(state)
    # Only the row and the column the Citadel stands in can push it off.
    holds_citadel = at in region_squares(region)
    for direction in region_directions(region):
        sign = region_sign(region[:3], direction)
        assert sign is not None  # region_directions names the region's own axis
        for dist in distances:
            if not (holds_citadel and _citadel_falls(state, region, sign, dist)):
                yield direction, dist


def _citadel_falls(state: KolossusState, region: str, sign: int, dist: int) -> bool:
    model = state.options.region_move_model
    return citadel_falls(state.terrain, state.minis, region, sign, dist, model)


def quake_moves(state: KolossusState) -> Iterator[QuakeMove]:
    """The Great Quake's legal moves once its die is read, region by region."""
    exact = state.options.quake_distance == "exact"
    at = citadel(state)
    for region in quake_candidates(state):
        for direction, dist in _region_moves(state, region, at):
            yield QuakeMove(region=region, direction=direction, distance=None if exact else dist)


def quake_regions(state: KolossusState) -> tuple[str, ...]:
    """The candidate regions with at least one legal Great Quake move (what is lit):
    every move of a region without the Citadel is legal, so only the Citadel's row and
    column are asked whether one of theirs keeps it on the board."""
    at = citadel(state)
    any_distance = bool(_distances(state))
    return tuple(
        r
        for r in quake_candidates(state)
        if (
            any_distance
            if at not in region_squares(r)
            else next(_region_moves(state, r, at), None) is not None
        )
    )


@lru_cache(maxsize=4096)
def _move(origin: int, to: int) -> Move:
    """The canonical move between two squares, made once (actions are immutable: every
    enumeration, tap and highlight of a position lists the same moves again)."""
    return Move.model_validate({"from": cell(origin), "to": cell(to)})


def moves_from(state: KolossusState, piece: int) -> Iterator[Move]:
    """Every legal move of ``piece`` (one of :func:`movable_pieces`), one per end square,
    its own square included (a 0-square move), without a path: the canonical one."""
    origin = state.minis[piece]
    for sq in all_destinations(state, piece, state.mp):
        yield _move(origin, sq)


def strike_squares(state: KolossusState) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The waiting Colossus's Spear targets (K-R29) and affordable Hammer target sets
    (K-R30), each with its weapon charged (K-R42); nothing outside ``after_move``."""
    piece = state.active_piece
    if state.phase != "after_move" or piece is None or state.minis[piece] < 0:
        return (), ()
    wb = current_warband(state)
    at = state.minis[piece]
    occ = occupancy(state, wb, whip=state.whip_active)
    spear: tuple[int, ...] = ()
    hammer: tuple[tuple[int, ...], ...] = ()
    if charged(state, wb, "spear"):
        spear = tuple(sq for sq, _ in spear_targets(occ, at, state.mp))
    if charged(state, wb, "hammer"):
        hammer = hammer_subsets(occ, at, state.mp)
    return spear, hammer


def strikes(state: KolossusState) -> Iterator[Spear | Hammer]:
    """The Spear and Hammer actions of the Colossus waiting after its move."""
    spear, hammer = strike_squares(state)
    for sq in spear:
        yield Spear(target=cell(sq))
    for subset in hammer:
        yield Hammer(targets=tuple(cell(sq) for sq in subset))


# --- where an action happens ------------------------------------------------------------


def _key(text: str) -> str | None:
    """The canonical key of a square named ``text`` ("r,c"), or None if it is not one."""
    if text in SQUARE_OF_KEY:  # already canonical: the usual case
        return text
    sq = parse_cell(text)
    return None if sq is None else cell(sq)


def _square(key: str) -> int:
    return SQUARE_OF_KEY[key]  # only called on keys made by _key


def _keys(*texts: str) -> tuple[str, ...]:
    return tuple(k for k in map(_key, texts) if k is not None)


#: The cells of every region (what a Quake, an Earthquake or a region correction touches).
_REGION_CELLS: dict[str, ActionCells] = {
    region: ActionCells.area(tuple(cell(sq) for sq in region_squares(region)))
    for region in ALL_REGIONS
}


def _region_cells(region: str) -> ActionCells:
    found = _REGION_CELLS.get(region)
    if found is not None:
        return found
    if parse_region(region) is None:
        return NO_CELLS
    return ActionCells.area(tuple(cell(sq) for sq in region_squares(region)))


def _beaten_on_the_way(state: KolossusState, origin: int, to: int, action: Move) -> list[int]:
    """Enemies a move beats before its last square. Only the Sword of Storm carries a
    move on after a beat (K-R31); those squares change too, so the move touches them."""
    piece = occupants(state.minis)[origin]
    if piece < 0:
        return []
    if action.path is not None:  # a legal path beats every enemy it enters (K-R12, K-R13)
        occ = occupancy(state, warband_of(piece), vacated=origin)
        path = (parse_cell(c) for c in action.path)
        return [sq for sq in path if sq is not None and sq != to and occ[sq] >= 0]
    if not any(sword for sword, _ in weapon_configs(state, piece)):
        return []
    configs = usable_configs(state, piece, sword=action.sword, whip=action.whip)
    found = canonical_way(state, piece, to, configs)
    return [] if found is None else [sq for sq in found[0].beaten if sq != to]


def _move_ends(action: Move) -> tuple[str, str] | None:
    """A move's origin and target keys (None unless both name squares): what
    :func:`action_cells` says of it without looking for squares beaten on the way."""
    origin, to = _key(action.from_), _key(action.to)
    return None if origin is None or to is None else (origin, to)


def _move_cells(state: KolossusState, action: Move) -> ActionCells:
    ends = _move_ends(action)
    if ends is None:
        return ActionCells(touched=frozenset(_keys(action.from_, action.to)))
    origin, to = ends
    beaten = _beaten_on_the_way(state, _square(origin), _square(to), action)
    return ActionCells.move(origin, to, *(cell(sq) for sq in beaten))


def _strike_cells(state: KolossusState, targets: tuple[str, ...]) -> ActionCells:
    """Spear and Hammer start on the waiting Colossus; one target is the action's target."""
    keys = _keys(*targets)
    piece = state.active_piece
    at = -1 if piece is None else state.minis[piece]
    origin = cell(at) if at >= 0 else None
    target = keys[0] if len(targets) == 1 and keys else None
    touched = frozenset(keys) | ({origin} if origin is not None else set())
    return ActionCells(origin=origin, target=target, touched=touched)


def _piece_cells(state: KolossusState, action: CorrectPiece) -> ActionCells:
    """A corrected miniature leaves its square (if on the board) for the one named."""
    piece = next((p for p in range(PIECE_COUNT) if piece_id(state, p) == action.piece.strip()), -1)
    at = state.minis[piece] if piece >= 0 else -1
    origin = cell(at) if at >= 0 else None
    target = None
    if action.row is not None and action.col is not None:
        target = cell(square(action.row, action.col))
    touched = frozenset(k for k in (origin, target) if k is not None)
    return ActionCells(origin=origin, target=target, touched=touched)


def action_cells(state: KolossusState, action: KolossusAction) -> ActionCells:
    """Where ``action`` happens on the board (see :class:`companion.views.ActionCells`).

    A move starts on its square and ends on its destination (K-R09); Spear and Hammer
    start on the waiting Colossus (K-R29, K-R30); a Quake, an Earthquake or a region
    correction touches its whole row or column (K-R04); a Rebirth acts on its square
    (K-R35); a swap touches its two squares with no origin, so either may be tapped
    first (K-R02). Rolls, mana, classes, turns and the other corrections are off the
    board, except a crystal correction that changes the Citadel's count.
    """
    match action:
        case Move():
            return _move_cells(state, action)
        case Spear():
            return _strike_cells(state, (action.target,))
        case Hammer():
            return _strike_cells(state, action.targets)
        case QuakeMove() | Earthquake() | CorrectRegion():
            return _region_cells(action.region)
        case Rebirth():
            keys = _keys(action.to)
            return ActionCells.at(keys[0]) if keys else NO_CELLS
        case Swap():
            return ActionCells.area(_keys(action.a, action.b))
        case CorrectPiece():
            return _piece_cells(state, action)
        case CorrectLandscape():
            return ActionCells.at(cell(square(action.row, action.col)))
        case CorrectCrystals() if action.citadel != state.crystals:
            return ActionCells.at(cell(citadel(state)))
    return NO_CELLS


def _actions_from(state: KolossusState, origin: str) -> Iterator[KolossusAction]:
    """The legal actions that start on ``origin``: one piece's moves, or the strikes of
    the Colossus standing there. Nothing else in Kolossus has an origin."""
    sq = parse_cell(origin)
    if sq is None or cell(sq) != origin or state.dice is not None:
        return
    if state.phase == "move":
        piece = occupants(state.minis)[sq]
        if piece >= 0 and piece in movable_pieces(state):
            yield from moves_from(state, piece)
    elif (
        state.phase == "after_move"
        and state.active_piece is not None
        and state.minis[state.active_piece] == sq
    ):
        yield from strikes(state)


def _moves_to(state: KolossusState, target: str) -> Iterator[Move]:
    """The moves ending on ``target``: at most one per movable piece, in piece order."""
    sq = parse_cell(target)
    if sq is None or cell(sq) != target:
        return
    for piece in movable_pieces(state):
        if sq in all_destinations(state, piece, state.mp):
            yield _move(state.minis[piece], sq)


def legal_actions_at(
    state: KolossusState,
    listed: Callable[[], Iterable[KolossusAction]],
    *,
    origin: str | None = None,
    target: str | None = None,
    touching: str | None = None,
) -> Iterator[KolossusAction]:
    """:meth:`Rules.legal_actions_at` for Kolossus, in ``legal_actions`` order.

    An origin generates only the moves (or strikes) of the piece standing there and a
    move's target only each movable piece's answer for that square; anything else
    filters ``listed()`` (the legal actions) through :func:`action_cells`.
    """
    found: Iterable[KolossusAction]
    if origin is not None:
        found = _actions_from(state, origin)
    elif target is not None and state.phase == "move" and state.dice is None:
        found = _moves_to(state, target)
    else:
        found = listed()
    for action in found:
        if origin is None and target is None and touching is None:
            yield action
            continue
        start: str | None
        end: str | None
        if touching is None and isinstance(action, Move):  # no need for beaten squares
            start, end = _move_ends(action) or (None, None)
        else:
            cells = action_cells(state, action)
            if touching is not None and touching not in cells.touched:
                continue
            start, end = cells.origin, cells.target
        if (origin is None or start == origin) and (target is None or end == target):
            yield action


# --- the facts panel -----------------------------------------------------------------------

PHASE_NAME: dict[str, str] = {
    "placement": "Placement",
    "skills": "Starting skills",
    "quake": "Great Quake",
    "quake_allocate": "Great Quake mana",
    "destiny": "Destiny roll",
    "turn": "Activation",
    "move_roll": "Movement roll",
    "move": "Movement",
    "after_move": "Spear or Hammer",
    "allocate": "Mana allocation",
    "over": "Game over",
}


def panel(state: KolossusState, turn: int | None) -> PanelView:
    """Crystals captured, miniatures on the board and (Ch.2+) mana per player, summed
    over the warbands each controls (K-R21); the warbands by name, the round (K-R37),
    the crystals on the Citadel and in the supply (K-R15) and the step. ``turn`` is the
    rules' current player; ``turn_colour`` the colour of the warband to move."""
    players = state.players
    seats = range(len(players))
    mine = [[w for w, band in enumerate(state.warbands) if band.player == s] for s in seats]
    captured = [0, 0, 0, 0]
    for capture in state.captures:
        captured[capture.warband] += capture.count
    alive = [0, 0, 0, 0]
    for piece, sq in enumerate(state.minis):
        if sq >= 0:
            alive[warband_of(piece)] += 1

    def per_seat(values: list[int]) -> tuple[str, ...]:
        return tuple(str(sum(values[w] for w in mine[s])) for s in seats)

    rows = [PanelRow("Crystals", per_seat(captured)), PanelRow("Pieces", per_seat(alive))]
    if state.options.chapter >= 2:
        rows.append(PanelRow("Mana", per_seat([band.mana_total() for band in state.warbands])))
    bands = (
        f"{name}: " + " + ".join(warband_name(state, w) for w in mine[s])
        for s, name in enumerate(players)
    )
    phase = PHASE_NAME[state.phase]
    facts = (
        *bands,
        f"Round {state.round}/{ROUNDS}" if state.round else "Invasion",
        f"Crystals on the Citadel: {state.crystals} (supply {state.crystal_supply})",
        f"Step: {phase}",
    )
    over = state.phase == "over" or state.result is not None
    return PanelView(
        columns=tuple(players),
        rows=tuple(rows),
        facts=facts,
        turn=turn,
        phase=phase,
        turn_colour=None if over else state.warbands[current_warband(state)].colour,
    )


# --- the board ------------------------------------------------------------------------------

TERRAIN: dict[str, Terrain] = {
    ".": "bare",
    "W": "woods",
    "H": "hills",
    "M": "mountains",
    "C": "citadel",
}
PIECE_KIND: dict[str, PieceKind] = {"C": "colossus", "G": "guardian", "W": "warrior"}


def miniature(state: KolossusState, piece: int) -> Piece:
    """A miniature: its class letter, the seat controlling its warband, the warband's colour."""
    band = state.warbands[warband_of(piece)]
    return _miniature(class_of(piece), band.player, band.colour)


@lru_cache(maxsize=64)
def _miniature(cls: str, player: int, colour: str) -> Piece:
    """One immutable Piece per class, seat and colour (a board is made after every move)."""
    return Piece(kind=PIECE_KIND[cls], label=cls, player=player, colour=colour)


@lru_cache(maxsize=16)
def _bare_cells(terrain: tuple[str, ...]) -> tuple[CellView, ...]:
    """The 121 squares of a landscape map with nothing on them: made once per map (the
    map changes only with a quake), the squares with pieces are replaced per board."""
    levels = levels_of(terrain)
    return tuple(
        CellView(
            cell=cell(sq),
            x=float(sq % SIZE),
            y=float(sq // SIZE),
            terrain=TERRAIN[ch],
            level=levels[sq],
        )
        for sq, ch in enumerate("".join(terrain))
    )


def board(state: KolossusState) -> BoardView:
    """The 121 squares with their landscape and level (K-R01: bare 1 … Citadel 5), the
    miniatures on them and the crystals waiting on the Citadel (K-R15)."""
    pieces: dict[int, list[Piece]] = {}
    for piece, sq in enumerate(state.minis):
        if sq >= 0:
            pieces.setdefault(sq, []).append(miniature(state, piece))
    if state.crystals > 0:
        n = state.crystals
        pieces.setdefault(citadel(state), []).append(Piece("crystal", f"×{n}", count=n))
    bare = _bare_cells(state.terrain)
    cells = list(bare)
    for sq, here in pieces.items():
        cells[sq] = _occupied(bare[sq], tuple(here))
    return BoardView(kind="grid", cells=tuple(cells))


@lru_cache(maxsize=1024)
def _occupied(empty: CellView, here: tuple[Piece, ...]) -> CellView:
    """A square with ``here`` on it, made once for what it shows: a move changes one or
    two of the thirty-odd occupied squares, and a frozen CellView costs about three times
    more to make than to look up (the board is built again for every state, the roll's
    cue on the LEDs included)."""
    return CellView(
        cell=empty.cell,
        x=empty.x,
        y=empty.y,
        terrain=empty.terrain,
        level=empty.level,
        pieces=here,
    )


__all__ = [
    "PHASE_NAME",
    "action_cells",
    "board",
    "legal_actions_at",
    "miniature",
    "moves_from",
    "panel",
    "quake_candidates",
    "quake_moves",
    "quake_regions",
    "strike_squares",
    "strikes",
]
