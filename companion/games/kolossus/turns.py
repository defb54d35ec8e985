"""Whose turn it is and what it asks: the Invasion's quake turns, the battle rounds'
turns (Die of Destiny, classes, movement dice), mana allocation, the end of a turn and
of a round (the first warband K-R17, a new crystal K-R15, the end after round 12)."""

from __future__ import annotations

from companion import words
from companion.dice import Roll, resolve_roll
from companion.events import DiceRolled, Event, GameEnded, TableChanges
from companion.games.kolossus.common import (
    NO_ACTIVATION,
    Handled,
    KolossusEvent,
    d4_request,
    need_phase,
    set_band,
)
from companion.games.kolossus.content import CLASS_COST, CLASS_DICE, CLASS_NAME, cell, square_text
from companion.games.kolossus.mana import (
    apply_allocation,
    apply_initial_skills,
    chargeable,
    new_income,
)
from companion.games.kolossus.model import ROUNDS, Allocate, ChooseClass, EndTurn, KolossusState
from companion.games.kolossus.position import (
    can_activate,
    citadel,
    current_warband,
    movement_points,
    warband_name,
)
from companion.games.kolossus.scoring import final_result
from companion.highlights import TableChange
from companion.rules import refuse

# --- the Invasion's turns -------------------------------------------------------------


def start_quake_turn(state: KolossusState) -> KolossusState:
    request = d4_request(state, "quake", "Great Quake", 1)
    return state.evolve({"phase": "quake", "dice": request, "roll": ()})


def after_quake_turn(state: KolossusState) -> Handled:
    if state.turn < 3:
        return start_quake_turn(state.evolve({"turn": state.turn + 1})), ()
    start = state.evolve({"round": 1, "turn": 0})
    return start_turn(start), (KolossusEvent(text="The Invasion is over. Round 1 begins."),)


# --- a battle round's turns -----------------------------------------------------------


def start_turn(state: KolossusState) -> KolossusState:
    return state.evolve(
        {
            "phase": "destiny",
            "dice": d4_request(state, "destiny", "Die of Destiny", 1),
            "roll": (),
            "ap": 0,
            "initiatives": 0,
            "initiative_open": False,
            "activated": (),
            **NO_ACTIVATION,
        }
    )


def roll(state: KolossusState, action: Roll) -> Handled:
    """The pending dice: the Great Quake's, the Die of Destiny or the movement dice."""
    request = state.dice
    values, rng = resolve_roll(request, action, state.rng, ruling="K-R07")
    assert request is not None
    rolled = DiceRolled(
        text=f"{request.label}: {', '.join(map(str, values))}.",
        request=request,
        values=values,
        source=action.source,
    )
    state = state.evolve({"rng": rng, "dice": None, "roll": values})
    wb = current_warband(state)
    band = state.warbands[wb]
    if request.purpose == "quake":
        if state.options.invasion_grants_mana:
            state = set_band(state, wb, new_income(state.options, band, values[0]))
        return state, (rolled,)
    if request.purpose == "destiny":
        ap = values[0]
        state = set_band(state, wb, new_income(state.options, band, ap))
        new = state.evolve({"phase": "turn", "ap": ap, "initiative_open": True})
        return new, (rolled,)
    # movement dice
    cls = state.active_class
    assert cls is not None
    mp = movement_points(state, wb, cls, values)
    return state.evolve({"phase": "move", "mp": mp}), (rolled,)


def choose_class(state: KolossusState, action: ChooseClass) -> Handled:
    need_phase(state, "turn", what="Choosing a class")
    cls = action.cls
    if CLASS_COST[cls] > state.ap:
        raise refuse(
            f"A {CLASS_NAME[cls]} costs {words.count(CLASS_COST[cls], 'activation point')}; "
            f"you have {state.ap} left.",
            "K-R08",
        )
    if not can_activate(state, cls):
        raise refuse(f"You have no {CLASS_NAME[cls]} left to activate this turn.", "K-R08")
    wb = current_warband(state)
    request = d4_request(state, "movement", f"{CLASS_NAME[cls]} movement", CLASS_DICE[cls])
    new = state.evolve(
        {
            "phase": "move_roll",
            "dice": request,
            "active_class": cls,
            "ap": state.ap - CLASS_COST[cls],
            "initiative_open": False,
        }
    )
    return new, (KolossusEvent(text=f"{warband_name(state, wb)} activates a {CLASS_NAME[cls]}."),)


def end_turn(state: KolossusState, action: EndTurn) -> Handled:
    need_phase(state, "turn", what="Ending the turn")
    wb = current_warband(state)
    band = state.warbands[wb]
    event = KolossusEvent(text=f"{warband_name(state, wb)} ends its turn.")
    state = state.evolve({"initiative_open": False})
    if band.income > 0 or (
        state.options.charge_from_pool and band.pool >= 2 and chargeable(state.options, band)
    ):
        return state.evolve({"phase": "allocate"}), (event,)
    new, more = next_turn(state)
    return new, (event, *more)


# --- mana -----------------------------------------------------------------------------


def allocate(state: KolossusState, action: Allocate) -> Handled:
    """The starting skills (Ch.2+), the Great Quake's income or a turn's income."""
    need_phase(state, "skills", "quake_allocate", "allocate", what="Allocating mana")
    wb = current_warband(state)
    band = state.warbands[wb]
    if state.phase == "skills":
        new_band = apply_initial_skills(band, action)
        new = set_band(state, wb, new_band)
        event = KolossusEvent(text=f"{warband_name(state, wb)} sets its starting skills.")
        if state.turn < 3:
            return new.evolve({"turn": state.turn + 1}), (event,)
        return start_quake_turn(new.evolve({"turn": 0})), (event,)
    new_band = apply_allocation(state.options, band, action)
    new = set_band(state, wb, new_band)
    event = KolossusEvent(text=f"{warband_name(state, wb)} allocates its mana.")
    if state.phase == "quake_allocate":
        new, more = after_quake_turn(new)
        return new, (event, *more)
    new, more = next_turn(new)
    return new, (event, *more)


# --- the end of a turn and of a round -------------------------------------------------


def next_turn(state: KolossusState) -> Handled:
    if state.turn < 3:
        return start_turn(state.evolve({"turn": state.turn + 1})), ()
    events: list[Event] = []
    first = state.first
    this_round = [c for c in state.captures if c.round == state.round]
    if this_round:
        first = this_round[-1].warband  # K-R17
        events.append(KolossusEvent(text=f"{warband_name(state, first)} is the first warband now."))
    if state.round >= ROUNDS:
        result = final_result(state)
        over = state.evolve({"phase": "over", "result": result, "first": first})
        events.append(GameEnded(text=result.text))
        return over, tuple(events)
    state = state.evolve({"round": state.round + 1, "turn": 0, "first": first})
    state = _place_crystal(state, events)
    return start_turn(state), tuple(events)


def _place_crystal(state: KolossusState, events: list[Event]) -> KolossusState:
    """A new round's Crystal of Time on the Citadel (K-R15), if the option places one."""
    place = state.crystal_supply > 0 and (
        state.options.crystal_placement == "one_per_round_accumulate" or state.crystals == 0
    )
    if not place:
        return state
    sq = citadel(state)
    text = f"Round {state.round}: put a Crystal of Time on the Citadel at {square_text(sq)}"
    events.append(
        TableChanges(
            text=text + ".", changes=(TableChange(step=1, cell=cell(sq), instruction=text),)
        )
    )
    return state.evolve(
        {"crystals": state.crystals + 1, "crystal_supply": state.crystal_supply - 1}
    )
