"""What the LEDs and the screen show for a Kolossus state (cells are ``"r,c"``).

``focus`` is what the player touched: a square (``"3,4"``), a move preview
``"9,9>6,6"`` (PATH steps) or, during the Great Quake and for the Earthquake, a region
preview ``"row3:east"`` (``"row3"`` alone lights the region). See
docs/games/kolossus.md for the roles per phase.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from companion.games.kolossus.content import (
    ALL_REGIONS,
    CLASS_COST,
    CLASSES,
    SQUARES,
    cell,
    parse_cell,
    parse_region,
    region_sign,
    region_squares,
)
from companion.games.kolossus.model import KolossusState
from companion.games.kolossus.position import (
    all_destinations,
    blocked_squares,
    can_activate,
    canonical_way,
    citadel,
    class_of,
    current_warband,
    free_start_squares,
    movable_pieces,
    occupants,
    warband_of,
    weapon_configs,
)
from companion.games.kolossus.quake import shift_region
from companion.games.kolossus.views import quake_candidates, quake_regions, strike_squares
from companion.highlights import Highlight, Role


@lru_cache(maxsize=4096)
def _light(**fields: Any) -> Highlight:
    """A highlight, made once per value: highlights are immutable, and every state lights
    mostly the same few (the pieces that may act, their ends, who controls what)."""
    return Highlight(**fields)


def _region_preview(
    state: KolossusState, focus: str, candidates: tuple[str, ...], distance: int | None
) -> list[Highlight]:
    out: list[Highlight] = []
    region, _, direction = focus.partition(":")
    parsed = parse_region(region)
    if parsed is None or region not in candidates:
        return out
    for sq in region_squares(region):
        out.append(_light(cell=cell(sq), role=Role.QUAKE_REGION))
    sign = region_sign(parsed[0], direction) if direction else None
    if sign is not None and distance is not None:
        shift = shift_region(
            state.terrain, state.minis, region, sign, distance, state.options.region_move_model
        )
        for sq in shift.fallen:
            out.append(_light(cell=cell(sq), role=Role.FALLS_OFF))
    return out


def board_highlights(state: KolossusState, focus: str | None) -> tuple[Highlight, ...]:
    """The Citadel while crystals lie on it, then what the phase lights (``_BY_PHASE``)."""
    out: list[Highlight] = []
    if state.crystals > 0:
        out.append(_light(cell=cell(citadel(state)), role=Role.CITADEL))
    if state.phase == "over":
        return tuple(out)
    lights = _BY_PHASE.get(state.phase)
    if lights is not None:
        out.extend(lights(state, focus))
    return tuple(out)


def _placement(state: KolossusState, focus: str | None) -> list[Highlight]:
    """Every miniature in a start zone: it may swap."""
    out: list[Highlight] = []
    occ = occupants(state.minis)
    for band in state.warbands:
        for sq in band.zone:
            if occ[sq] >= 0:
                out.append(_light(cell=cell(sq), role=Role.SELECTABLE, player=band.player))
    return out


def _move_roll(state: KolossusState, focus: str | None) -> list[Highlight]:
    """The miniatures of the chosen class still to activate, while its dice are rolled."""
    wb = current_warband(state)
    out: list[Highlight] = []
    for p in range(wb * 8, wb * 8 + 8):
        if class_of(p) == state.active_class and state.minis[p] >= 0 and p not in state.activated:
            out.append(_light(cell=cell(state.minis[p]), role=Role.SELECTABLE))
    return out


def _quake(state: KolossusState, focus: str | None) -> list[Highlight]:
    """Before the roll: every region still to move; once the die is read, the regions
    with a legal move, from the generation legal_actions lists them from."""
    distance = state.roll[0] if state.roll and state.dice is None else None
    candidates = quake_candidates(state) if distance is None else quake_regions(state)
    if focus and parse_cell(focus) is None:
        return _region_preview(state, focus, candidates, distance)
    return list(_regions_lit(candidates))


#: The ``quake_region`` highlight of each square, made once (highlights are immutable
#: values): a Great Quake lights up to every square of the board.
_QUAKE_LIGHTS: tuple[Highlight, ...] = tuple(
    Highlight(cell=cell(sq), role=Role.QUAKE_REGION) for sq in range(SQUARES)
)


@lru_cache(maxsize=256)
def _regions_lit(regions: tuple[str, ...]) -> tuple[Highlight, ...]:
    """Every square of ``regions`` once, region by region (the same few candidate sets
    come back at every Great Quake)."""
    out: list[Highlight] = []
    seen: set[int] = set()
    for region in regions:
        for sq in region_squares(region):
            if sq not in seen:
                seen.add(sq)
                out.append(_QUAKE_LIGHTS[sq])
    return tuple(out)


def _turn(state: KolossusState, focus: str | None) -> list[Highlight]:
    """The miniatures of the classes that can be chosen, the free start squares for a
    Rebirth and the touched miniature; a region focus previews the Earthquake."""
    wb = current_warband(state)
    if focus and parse_cell(focus) is None:
        if state.options.chapter >= 3 and state.warbands[wb].pool >= 3:
            return _region_preview(state, focus, ALL_REGIONS, 1)
        return []
    band = state.warbands[wb]
    occ = occupants(state.minis)
    out: list[Highlight] = []
    for cls in CLASSES:
        if CLASS_COST[cls] <= state.ap and can_activate(state, cls):
            for p in range(wb * 8, wb * 8 + 8):
                if class_of(p) == cls and state.minis[p] >= 0 and p not in state.activated:
                    out.append(
                        _light(cell=cell(state.minis[p]), role=Role.SELECTABLE, player=band.player)
                    )
    if state.options.chapter >= 3 and _may_rebirth(state, wb):
        for sq in free_start_squares(state, wb):
            out.append(_light(cell=cell(sq), role=Role.REBIRTH, player=band.player))
    focus_sq = parse_cell(focus) if focus else None
    if focus_sq is not None and occ[focus_sq] >= 0:
        out.append(_light(cell=cell(focus_sq), role=Role.SELECTED))
    return out


def _may_rebirth(state: KolossusState, wb: int) -> bool:
    """Whether warband ``wb`` can pay the Rebirth of one of its beaten miniatures."""
    band = state.warbands[wb]
    return any(
        CLASS_COST[cls] <= band.pool
        and any(class_of(p) == cls and state.minis[p] < 0 for p in range(wb * 8, wb * 8 + 8))
        for cls in CLASSES
    )


def _move(state: KolossusState, focus: str | None) -> list[Highlight]:
    """A move's path preview (focus ``"from>to"``), the touched piece's ends, or the
    pieces that may move."""
    out: list[Highlight] = []
    if focus and ">" in focus:  # "from>to": the path preview of that move
        origin, _, to = focus.partition(">")
        steps = path_preview(state, origin, to)
        if steps:
            out.append(_light(cell=origin.strip(), role=Role.SELECTED))
        out.extend(steps)
        return out
    pieces = movable_pieces(state)
    focus_sq = parse_cell(focus) if focus else None
    piece = occupants(state.minis)[focus_sq] if focus_sq is not None else -1
    if piece < 0 or piece not in pieces:
        for p in pieces:
            out.append(_light(cell=cell(state.minis[p]), role=Role.SELECTABLE))
        return out
    out.append(_light(cell=cell(state.minis[piece]), role=Role.SELECTED))
    out.extend(_ends(state, piece))
    return out


def _square_lights(role: Role) -> Callable[[int], Highlight]:
    """``role``'s highlight of a square by its index, made once when first lit: a touch
    lights a hundred ends, found faster by one int than by ``_light``'s keywords."""

    @lru_cache(maxsize=SQUARES)
    def light(sq: int) -> Highlight:
        return _light(cell=cell(sq), role=role)

    return light


_REACHABLE_AT = _square_lights(Role.REACHABLE)
_CAPTURABLE_AT = _square_lights(Role.CAPTURABLE)
_BLOCKED_AT = _square_lights(Role.BLOCKED)


def _ends(state: KolossusState, piece: int) -> list[Highlight]:
    """The ends views.moves_from makes this piece's legal moves of (a square beaten on
    the way by the Sword of Storm is an end too), then the enemies it cannot enter."""
    out: list[Highlight] = []
    ends = all_destinations(state, piece, state.mp)
    occ = occupants(state.minis)
    for sq in sorted(ends):
        if sq == state.minis[piece]:
            continue
        out.append(_CAPTURABLE_AT(sq) if occ[sq] >= 0 else _REACHABLE_AT(sq))
    for sq in sorted(blocked_squares(state, piece, state.mp)):
        out.append(_BLOCKED_AT(sq))
    return out


def _after_move(state: KolossusState, focus: str | None) -> list[Highlight]:
    """The waiting Colossus and the targets of its Spear and Hammer."""
    if state.active_piece is None:
        return []
    at = state.minis[state.active_piece]
    out = [_light(cell=cell(at), role=Role.SELECTED)]
    spear, hammer = strike_squares(state)  # what the Spear and Hammer actions name
    targets = set(spear).union(*hammer)
    for sq in sorted(targets):
        out.append(_light(cell=cell(sq), role=Role.TARGET))
    return out


_BY_PHASE: dict[str, Callable[[KolossusState, str | None], list[Highlight]]] = {
    "placement": _placement,
    "move_roll": _move_roll,
    "quake": _quake,
    "turn": _turn,
    "move": _move,
    "after_move": _after_move,
}
"""What each phase lights besides the Citadel; the other phases light nothing more."""


def path_preview(state: KolossusState, origin: str, to: str) -> tuple[Highlight, ...]:
    """PATH highlights for the canonical way from ``origin`` to ``to`` (empty if illegal)."""
    a, b = parse_cell(origin), parse_cell(to)
    if a is None or b is None or state.phase != "move":
        return ()
    piece = occupants(state.minis)[a]
    if piece < 0 or warband_of(piece) != current_warband(state):
        return ()
    found = canonical_way(state, piece, b, weapon_configs(state, piece))
    if found is None:
        return ()
    return tuple(
        _light(cell=cell(sq), role=Role.PATH, step=i + 1) for i, sq in enumerate(found[0].path)
    )
