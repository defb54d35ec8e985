"""The Titan Powers of Chapter 3, paid from the mana pool: Initiative (K-R33), the
Earthquake (K-R34) and Rebirth (K-R35)."""

from __future__ import annotations

from companion import words
from companion.errors import RuleViolation
from companion.events import TableChanges
from companion.games.kolossus.common import (
    Handled,
    KolossusEvent,
    cell_arg,
    need_phase,
    set_band,
)
from companion.games.kolossus.content import (
    CLASS_COST,
    CLASS_NAME,
    PIECES_PER_WARBAND,
    ClassCode,
    cell,
    region_text,
    square_text,
)
from companion.games.kolossus.mana import income_for
from companion.games.kolossus.model import Earthquake, Initiative, KolossusState, Rebirth
from companion.games.kolossus.position import (
    class_of,
    current_warband,
    occupants,
    piece_name,
    warband_name,
)
from companion.games.kolossus.quake import apply_shift, region_shift
from companion.highlights import TableChange
from companion.rules import refuse

# --- Initiative -----------------------------------------------------------------------


def initiative_problem(state: KolossusState) -> RuleViolation | None:
    """Why Initiative cannot be used now, or None if it can."""
    band = state.warbands[current_warband(state)]
    if state.phase != "turn" or state.options.chapter < 3:
        return refuse("Initiative is a Chapter 3 Titan Power used in your turn.", "K-R33")
    if not state.initiative_open:
        return refuse("Use Initiative right after the Die of Destiny.", "K-R33")
    if state.options.initiative_once_per_turn and state.initiatives >= 1:
        return refuse("Initiative only once per turn (house rule).", "K-R33")
    if state.ap >= 4:
        return refuse("The Die of Destiny cannot go above 4.", "K-R33")
    if band.pool < 1:
        return refuse("Initiative costs 1 mana from your pool; it is empty.", "K-R36")
    return None


def initiative(state: KolossusState, action: Initiative) -> Handled:
    problem = initiative_problem(state)
    if problem is not None:
        raise problem
    wb = current_warband(state)
    band = state.warbands[wb]
    ap = state.ap + 1
    supply = band.supply + 1 + band.income  # the pool mana and the old income go back
    income = income_for(state.options, ap, supply)
    band = band.evolve({"pool": band.pool - 1, "supply": supply - income, "income": income})
    new = set_band(state, wb, band).evolve({"ap": ap, "initiatives": state.initiatives + 1})
    has = words.count(ap, "activation point")
    return new, (KolossusEvent(text=f"Initiative: {warband_name(state, wb)} now has {has}."),)


# --- the Earthquake -------------------------------------------------------------------


def earthquake(state: KolossusState, action: Earthquake) -> Handled:
    need_phase(state, "turn", what="The Earthquake")
    wb = current_warband(state)
    band = state.warbands[wb]
    if state.options.chapter < 3:
        raise refuse("Titan Powers are a Chapter 3 rule.", "K-R34")
    if band.pool < 3:
        raise refuse(f"The Earthquake costs 3 pool mana; you have {band.pool}.", "K-R34")
    shift = region_shift(state, action.region, action.direction, 1)
    if shift.citadel_falls:
        raise refuse("You must not move the Citadel of Time off the board.", "K-R34")
    band = band.evolve({"pool": band.pool - 3, "supply": band.supply + 3})
    state = set_band(state, wb, band).evolve({"initiative_open": False})
    label = (
        f"Earthquake: {warband_name(state, wb)} moves {region_text(action.region)} "
        f"{action.direction} by 1 square."
    )
    new, events = apply_shift(state, shift, "earthquake", label)
    return new, tuple(events)


# --- Rebirth --------------------------------------------------------------------------


def beaten_piece(state: KolossusState, wb: int, cls: ClassCode) -> int:
    """A beaten miniature of class ``cls`` of warband ``wb`` (-1 if none)."""
    base = wb * PIECES_PER_WARBAND
    for p in range(base, base + PIECES_PER_WARBAND):
        if class_of(p) == cls and state.minis[p] < 0:
            return p
    return -1


def rebirth(state: KolossusState, action: Rebirth) -> Handled:
    need_phase(state, "turn", what="Rebirth")
    if state.options.chapter < 3:
        raise refuse("Titan Powers are a Chapter 3 rule.", "K-R35")
    wb = current_warband(state)
    band = state.warbands[wb]
    cost = CLASS_COST[action.cls]
    if band.pool < cost:
        raise refuse(
            f"Rebirth of a {CLASS_NAME[action.cls]} costs {cost} pool mana; you have {band.pool}.",
            "K-R35",
        )
    piece = beaten_piece(state, wb, action.cls)
    if piece < 0:
        raise refuse(f"No {CLASS_NAME[action.cls]} of yours is beaten.", "K-R35")
    to = cell_arg(action.to, "Rebirth square")
    if to not in band.zone:
        raise refuse(f"{square_text(to)} is not in your start zone.", "K-R35")
    if occupants(state.minis)[to] >= 0:
        raise refuse(f"{square_text(to)} is not free.", "K-R35")
    minis = list(state.minis)
    minis[piece] = to
    band = band.evolve({"pool": band.pool - cost, "supply": band.supply + cost})
    new = set_band(state, wb, band).evolve({"minis": tuple(minis), "initiative_open": False})
    text = f"Place {piece_name(state, piece)} on {square_text(to)} (reborn)"
    return new, (
        TableChanges(
            text=text + ".", changes=(TableChange(step=1, cell=cell(to), instruction=text),)
        ),
    )
