"""Queries on a Kolossus state shared by the rules and the highlights.

Everything here is a pure function of the state; the expensive parts (occupancy
tables, destinations) are memoised on hashable tuples so that a touch on the board,
the highlights and the following ``apply`` reuse one computation.
"""

from __future__ import annotations

from functools import lru_cache

from companion.games.kolossus.content import (
    CLASS_NAME,
    CLASS_SLOT,
    PIECE_CLASS,
    PIECE_COUNT,
    PIECES_PER_WARBAND,
    SQUARES,
    WARBAND_OF_COLOUR,
    ClassCode,
    alliance,
    cell,
    citadel_square,
    levels_of,
)
from companion.games.kolossus.model import WEAPON_CHARGE, WEAPONS, KolossusState, Weapon
from companion.games.kolossus.movement import EMPTY, FRIEND, Reach, Reachability, reach


def warband_of(piece: int) -> int:
    return piece // PIECES_PER_WARBAND


def class_of(piece: int) -> ClassCode:
    return PIECE_CLASS[piece % PIECES_PER_WARBAND]


def current_warband(state: KolossusState) -> int:
    return (state.first + state.turn) % 4


def warband_name(state: KolossusState, wb: int) -> str:
    return WARBAND_OF_COLOUR[state.warbands[wb].colour]


def piece_name(state: KolossusState, piece: int) -> str:
    return f"{warband_name(state, warband_of(piece))}'s {CLASS_NAME[class_of(piece)]}"


@lru_cache(maxsize=1024)
def occupants(minis: tuple[int, ...]) -> tuple[int, ...]:
    """Piece id on each square, -1 where none."""
    out = [-1] * SQUARES
    for piece, sq in enumerate(minis):
        if sq >= 0:
            out[sq] = piece
    return tuple(out)


def friendly(state: KolossusState, a: int, b: int) -> bool:
    """Own warband, or an ally while allies count as friendly (K-R11)."""
    return a == b or (state.options.allies_are_friendly and alliance(a) == alliance(b))


def piece_defences(state: KolossusState) -> tuple[int, ...]:
    """The Defence skill of every piece's class in its warband (0 in Chapter 1)."""
    return _defences(tuple(band.skills for band in state.warbands))


@lru_cache(maxsize=256)
def _defences(skills: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """Memoised per skill board: every touch, move and cell query asks it again."""
    return tuple(skills[warband_of(p)][2 * CLASS_SLOT[class_of(p)] + 1] for p in range(PIECE_COUNT))


@lru_cache(maxsize=1024)
def _occ(
    minis: tuple[int, ...],
    friends: tuple[bool, bool, bool, bool],
    defences: tuple[int, ...],
    whip: bool,
    vacated: int,
) -> tuple[int, ...]:
    out = [EMPTY] * SQUARES
    for piece, sq in enumerate(minis):
        if sq < 0 or sq == vacated:
            continue
        if friends[piece // PIECES_PER_WARBAND]:
            out[sq] = FRIEND
        else:
            out[sq] = 0 if whip else defences[piece]
    return tuple(out)


def occupancy(
    state: KolossusState, mover_wb: int, *, whip: bool = False, vacated: int = -1
) -> tuple[int, ...]:
    """The generator's view: EMPTY, FRIEND or an enemy's Defence (0 under the Whip)."""
    friends = (
        friendly(state, mover_wb, 0),
        friendly(state, mover_wb, 1),
        friendly(state, mover_wb, 2),
        friendly(state, mover_wb, 3),
    )
    return _occ(state.minis, friends, piece_defences(state), whip, vacated)


def charged(state: KolossusState, wb: int, weapon: Weapon) -> bool:
    """Whether ``wb`` holds ``weapon`` charged (Chapter 3 only, K-R26)."""
    if state.options.chapter < 3:
        return False
    band = state.warbands[wb]
    if state.options.titan_weapons == "one_per_warband" and band.weapon != weapon:
        return False
    return band.charges[WEAPONS.index(weapon)] >= WEAPON_CHARGE


def movement_points(state: KolossusState, wb: int, cls: ClassCode, dice: tuple[int, ...]) -> int:
    """Dice sum plus the class's Attack skill (Chapter 2+)."""
    return sum(dice) + state.warbands[wb].attack(cls)


ReachQuery = tuple[tuple[int, ...], tuple[int, ...], int, bool, bool, int, bool, bool]
"""The arguments of :func:`reach`, in its order."""


def reach_query(
    state: KolossusState, piece: int, mp: int, *, sword: bool, whip: bool
) -> ReachQuery:
    """What :func:`destinations` asks :func:`reach` for ``piece`` (also a test's way to
    ask another generator the same)."""
    origin = state.minis[piece]
    cls = class_of(piece)
    return (
        levels_of(state.terrain),
        occupancy(state, warband_of(piece), whip=whip, vacated=origin),
        origin,
        cls != "W",
        cls == "C",
        mp,
        sword,
        state.options.defence_consumed,
    )


def destinations(
    state: KolossusState, piece: int, mp: int, *, sword: bool, whip: bool
) -> Reachability:
    """Legal ends for ``piece`` with ``mp`` under the given weapon use (memoised)."""
    return reach(*reach_query(state, piece, mp, sword=sword, whip=whip))


def weapon_configs(state: KolossusState, piece: int) -> tuple[tuple[bool, bool], ...]:
    """(sword, whip) combinations to try, cheapest first (no weapon before a weapon)."""
    wb = warband_of(piece)
    if class_of(piece) != "C":
        return ((False, False),)
    swords = (False, True) if charged(state, wb, "sword") else (False,)
    whips = (False, True) if charged(state, wb, "whip") else (False,)
    return tuple((s, w) for w in whips for s in swords)


def usable_configs(
    state: KolossusState, piece: int, *, sword: bool | None, whip: bool | None
) -> tuple[tuple[bool, bool], ...]:
    """The weapon combinations a move may use, cheapest first: a weapon ``False`` is
    never used, the Whip ``True`` is invoked, ``None`` uses a weapon only if needed (K-R42)."""
    return tuple(
        (s, w)
        for s, w in weapon_configs(state, piece)
        if not (s and sword is False) and not (w and whip is False) and not (whip is True and not w)
    )


def canonical_way(
    state: KolossusState, piece: int, to: int, configs: tuple[tuple[bool, bool], ...]
) -> tuple[Reach, bool] | None:
    """How ``piece`` reaches ``to`` with the first of ``configs`` that reaches it: the
    canonical way and whether that combination holds the Whip (None: unreachable)."""
    for sword, whip in configs:
        way = destinations(state, piece, state.mp, sword=sword, whip=whip).ends.get(to)
        if way is not None:
            return way, whip
    return None


def all_destinations(state: KolossusState, piece: int, mp: int) -> dict[int, bool]:
    """Every legal end over all usable weapons -> whether its canonical way beats someone.

    The most permissive weapon combination reaches a superset of the others (the Whip
    only lowers Defence, the Sword only lets a move continue), so one search suffices.
    """
    sword, whip = weapon_configs(state, piece)[-1]
    return destinations(state, piece, mp, sword=sword, whip=whip).ends.beating()


def blocked_squares(state: KolossusState, piece: int, mp: int) -> frozenset[int]:
    """Enemies the piece cannot enter even with every usable weapon."""
    sword, whip = weapon_configs(state, piece)[-1]
    return destinations(state, piece, mp, sword=sword, whip=whip).blocked


def movable_pieces(state: KolossusState) -> tuple[int, ...]:
    """Pieces of the active class that may still be activated this turn."""
    if state.active_class is None:
        return ()
    wb = current_warband(state)
    base = wb * PIECES_PER_WARBAND
    return tuple(
        p
        for p in range(base, base + PIECES_PER_WARBAND)
        if class_of(p) == state.active_class and state.minis[p] >= 0 and p not in state.activated
    )


def can_activate(state: KolossusState, cls: ClassCode) -> bool:
    wb = current_warband(state)
    base = wb * PIECES_PER_WARBAND
    return any(
        class_of(p) == cls and state.minis[p] >= 0 and p not in state.activated
        for p in range(base, base + PIECES_PER_WARBAND)
    )


def citadel(state: KolossusState) -> int:
    return citadel_square(state.terrain)


def free_start_squares(state: KolossusState, wb: int) -> tuple[int, ...]:
    occ = occupants(state.minis)
    return tuple(sq for sq in state.warbands[wb].zone if occ[sq] < 0)


def cells(squares: tuple[int, ...] | list[int]) -> tuple[str, ...]:
    return tuple(cell(sq) for sq in squares)
