"""An activation on the board: the Move (its way found or its explicit path checked),
beats, the Titan Weapons Sword and Whip during the move and Spear and Hammer after it,
and the end of the activation with its crystal capture (K-R16)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from companion import words
from companion.errors import RuleViolation
from companion.events import Event, TableChanges
from companion.games.kolossus.common import (
    NO_ACTIVATION,
    Handled,
    KolossusEvent,
    cell_arg,
    need_phase,
    set_band,
)
from companion.games.kolossus.content import CLASS_NAME, cell, levels_of, square_text
from companion.games.kolossus.model import (
    WEAPON_NAME,
    WEAPONS,
    BeatCause,
    BeatRecord,
    CrystalCapture,
    Finish,
    Hammer,
    KolossusState,
    Move,
    Spear,
    WarbandState,
    Weapon,
)
from companion.games.kolossus.movement import (
    Reach,
    check_path,
    hammer_costs,
    hammer_subsets,
    spear_targets,
)
from companion.games.kolossus.position import (
    canonical_way,
    charged,
    citadel,
    class_of,
    current_warband,
    destinations,
    friendly,
    occupancy,
    occupants,
    piece_name,
    usable_configs,
    warband_name,
    warband_of,
)
from companion.games.kolossus.scoring import check_elimination
from companion.highlights import TableChange
from companion.rules import refuse

Configs = tuple[tuple[bool, bool], ...]
"""The (sword, whip) combinations a move may use, cheapest first."""

# --- the Move -------------------------------------------------------------------------


def move(state: KolossusState, action: Move) -> Handled:
    need_phase(state, "move", what="Moving")
    origin = cell_arg(action.from_, "Start square")
    to = cell_arg(action.to, "Destination")
    wb = current_warband(state)
    piece = occupants(state.minis)[origin]
    if piece < 0 or warband_of(piece) != wb:
        raise refuse(f"No miniature of yours stands on {square_text(origin)}.", "K-R08")
    cls = state.active_class
    assert cls is not None  # the move phase always follows the choice of a class
    if class_of(piece) != cls:
        raise refuse(
            f"You activated a {CLASS_NAME[cls]}; that is a {CLASS_NAME[class_of(piece)]}.",
            "K-R08",
        )
    if piece in state.activated:
        raise refuse("Every miniature can be activated only once per turn.", "K-R08")
    way, sword_used, whip_used = find_way(state, piece, origin, to, action)
    return perform_move(state, piece, origin, way, sword_used, whip_used)


def find_way(
    state: KolossusState, piece: int, origin: int, to: int, action: Move
) -> tuple[Reach, bool, bool]:
    """The way of a move, whether it used the Sword and whether it used the Whip."""
    wb = warband_of(piece)
    configs = usable_configs(state, piece, sword=action.sword, whip=action.whip)
    if action.whip is True and not configs:
        raise refuse("Your Whip of Wrath is not charged.", "K-R42")
    if action.sword is True and not charged(state, wb, "sword"):
        raise refuse("Your Sword of Storm is not charged.", "K-R42")
    if action.path is not None:
        return _way_along(state, piece, origin, to, action.path, configs)
    canonical = canonical_way(state, piece, to, configs)
    if canonical is not None:
        way, whip = canonical
        return way, way.sword_used, whip and bool(way.beaten)
    raise _unreachable(state, piece, origin, to, configs)


def _way_along(
    state: KolossusState,
    piece: int,
    origin: int,
    to: int,
    cells: tuple[str, ...],
    configs: Configs,
) -> tuple[Reach, bool, bool]:
    """An explicit path, checked with each usable weapon combination in turn; the
    refusal of the last one if none allows it."""
    wb = warband_of(piece)
    cls = class_of(piece)
    path = tuple(cell_arg(c, "Path square") for c in cells)
    if (path[-1] if path else origin) != to:
        raise refuse("The path must end on the destination.", "1.6.2")
    error: RuleViolation | None = None
    for sword, whip in configs:
        try:
            occ = occupancy(state, wb, whip=whip, vacated=origin)
            way = check_path(
                levels_of(state.terrain),
                occ,
                origin,
                path,
                cls != "W",
                cls == "C",
                state.mp,
                sword,
                state.options.defence_consumed,
            )
        except RuleViolation as exc:
            error = exc
            continue
        return way, way.sword_used, whip and bool(way.beaten)
    assert error is not None
    raise error


def _unreachable(
    state: KolossusState, piece: int, origin: int, to: int, configs: Configs
) -> RuleViolation:
    """Why ``to`` is not a legal end of the move (K-R11, K-R13, else K-R10)."""
    wb = warband_of(piece)
    cls = class_of(piece)
    mp = state.mp
    there = occupants(state.minis)[to]
    if there >= 0 and friendly(state, wb, warband_of(there)):
        return refuse(
            f"You may pass {square_text(to)} but not end on a friendly miniature.", "K-R11"
        )
    last = destinations(state, piece, mp, sword=configs[-1][0], whip=configs[-1][1])
    if to in last.blocked:
        return refuse(
            f"Too few movement points left to beat the enemy on {square_text(to)} (Defence).",
            "K-R13",
        )
    return refuse(
        f"{CLASS_NAME[cls]} on {square_text(origin)} cannot reach {square_text(to)} "
        f"with {words.count(mp, 'movement point')} "
        "(straight lines, "
        + ("one change of direction" if cls != "W" else "no change of direction")
        + (", levels ignored)." if cls == "C" else ", at most one level per step)."),
        "K-R10",
    )


def perform_move(
    state: KolossusState,
    piece: int,
    origin: int,
    way: Reach,
    sword_used: bool,
    whip_used: bool,
) -> Handled:
    """The move made: beats, the weapons used up, then a waiting Colossus or the end."""
    wb = warband_of(piece)
    to = way.path[-1] if way.path else origin
    # The first enemy is beaten by the move itself, any further one by the Sword.
    victims: list[tuple[int, BeatCause]] = [
        (sq, "sword" if n else "move") for n, sq in enumerate(way.beaten)
    ]
    minis, beats, steps = beat(state, wb, victims)
    minis[piece] = to
    if to != origin:
        instruction = (
            f"Move {piece_name(state, piece)} from {square_text(origin)} to {square_text(to)}"
        )
        steps.append(TableChange(step=len(steps) + 1, cell=cell(to), instruction=instruction))
    moved_with: tuple[tuple[Weapon, bool], ...] = (("sword", sword_used), ("whip", whip_used))
    band = discharged(state.warbands[wb], [w for w, used in moved_with if used])
    new = set_band(state, wb, band).evolve(
        {
            "minis": tuple(minis),
            "beats": state.beats + tuple(beats),
            "activated": (*state.activated, piece),
            "mp": way.left,
            "whip_active": state.whip_active or whip_used,
            "entered": bool(way.path),
        }
    )
    text = _move_text(state, piece, origin, way, sword_used, whip_used)
    events: list[Event] = []
    if steps:
        events.append(TableChanges(text=text, changes=tuple(steps)))
    else:
        events.append(KolossusEvent(text=text))
    if beats:
        new, ended = check_elimination(new)
        events.extend(ended)
        if new.phase == "over":
            return new, tuple(events)
    if class_of(piece) == "C" and post_move_targets(new, piece):
        return new.evolve({"phase": "after_move", "active_piece": piece}), tuple(events)
    new, more = end_activation(new, piece)
    return new, (*events, *more)


def _move_text(
    state: KolossusState, piece: int, origin: int, way: Reach, sword_used: bool, whip_used: bool
) -> str:
    to = way.path[-1] if way.path else origin
    return (
        f"{piece_name(state, piece)} moves from {square_text(origin)} to {square_text(to)}"
        + (f", beating {words.count(len(way.beaten), 'miniature')}" if way.beaten else "")
        + (" (Sword of Storm)" if sword_used else "")
        + (" (Whip of Wrath)" if whip_used else "")
        + (f" by {' → '.join(square_text(sq) for sq in way.path)}" if len(way.path) > 1 else "")
        + f"; {words.count(way.left, 'movement point')} left."
    )


def post_move_targets(state: KolossusState, piece: int) -> bool:
    """Whether the Colossus may still use Spear or Hammer: they act after its move
    has ended, a move ended by a beat included; Sword and Whip act during it (K-R28)."""
    wb = warband_of(piece)
    at = state.minis[piece]
    occ = occupancy(state, wb, whip=state.whip_active)
    if charged(state, wb, "spear") and spear_targets(occ, at, state.mp):
        return True
    return charged(state, wb, "hammer") and bool(hammer_subsets(occ, at, state.mp))


def end_activation(state: KolossusState, piece: int) -> Handled:
    """Crystal capture check (K-R16), then back to choosing."""
    events: list[Event] = []
    wb = warband_of(piece)
    at = state.minis[piece]
    sq = citadel(state)
    captures = state.captures
    crystals = state.crystals
    if at == sq and crystals > 0 and (state.entered or not state.options.capture_requires_entry):
        captures = (*captures, CrystalCapture(round=state.round, warband=wb, count=crystals))
        text = f"{warband_name(state, wb)} captures {words.count(crystals, 'Crystal')} of Time"
        instruction = f"Give the crystals on {square_text(sq)} to {warband_name(state, wb)}"
        events.append(
            TableChanges(
                text=text + ".",
                changes=(TableChange(step=1, cell=cell(sq), instruction=instruction),),
            )
        )
        crystals = 0
    new = state.evolve(
        {"phase": "turn", "captures": captures, "crystals": crystals, **NO_ACTIVATION}
    )
    return new, tuple(events)


# --- Spear and Hammer -----------------------------------------------------------------


def _armed_colossus(state: KolossusState, weapon: Weapon) -> tuple[int, int]:
    """The current warband and its Colossus, waiting to strike with a charged ``weapon``."""
    need_phase(state, "after_move", what=f"The {WEAPON_NAME[weapon]}")
    wb = current_warband(state)
    if not charged(state, wb, weapon):
        raise refuse(f"Your {WEAPON_NAME[weapon]} is not charged.", "K-R42")
    piece = state.active_piece
    assert piece is not None
    return wb, piece


def spear(state: KolossusState, action: Spear) -> Handled:
    wb, piece = _armed_colossus(state, "spear")
    target = cell_arg(action.target, "Target")
    occ = occupancy(state, wb, whip=state.whip_active)
    costs = dict(spear_targets(occ, state.minis[piece], state.mp))
    if target not in costs:
        raise refuse(
            "The Spear needs an enemy on a free straight line whose distance + Defence is "
            f"at most {words.count(state.mp, 'movement point')}; {square_text(target)} is not.",
            "K-R29",
        )
    return _weapon_beats(state, piece, "spear", (target,), state.mp - costs[target])


def hammer(state: KolossusState, action: Hammer) -> Handled:
    wb, piece = _armed_colossus(state, "hammer")
    targets = tuple(cell_arg(c, "Target") for c in action.targets)
    if not targets or len(set(targets)) != len(targets):
        raise refuse("Choose one or more different adjacent enemies.", "K-R30")
    occ = occupancy(state, wb, whip=state.whip_active)
    costs = dict(hammer_costs(occ, state.minis[piece]))
    for t in targets:
        if t not in costs:
            raise refuse(f"{square_text(t)} holds no enemy next to your Colossus.", "K-R30")
    total = sum(costs[t] for t in targets)
    if total > state.mp:
        raise refuse(
            f"Those targets cost {words.count(total, 'movement point')} (1 + Defence each); "
            f"you have {state.mp}.",
            "K-R30",
        )
    return _weapon_beats(state, piece, "hammer", targets, state.mp - total)


def _weapon_beats(
    state: KolossusState,
    piece: int,
    weapon: Literal["spear", "hammer"],
    targets: tuple[int, ...],
    left: int,
) -> Handled:
    wb = warband_of(piece)
    minis, beats, steps = beat(state, wb, [(sq, weapon) for sq in targets])
    band = discharged(state.warbands[wb], [weapon])
    new = set_band(state, wb, band).evolve(
        {"minis": tuple(minis), "beats": state.beats + tuple(beats), "mp": left}
    )
    beaten = words.count(len(targets), "miniature")
    text = f"{WEAPON_NAME[weapon]}: {warband_name(state, wb)} beats {beaten}."
    events: list[Event] = [TableChanges(text=text, changes=tuple(steps))]
    new, ended = check_elimination(new)
    events.extend(ended)
    if new.phase == "over":
        return new, tuple(events)
    new, more = end_activation(new, piece)
    return new, (*events, *more)


def finish(state: KolossusState, action: Finish) -> Handled:
    need_phase(state, "after_move", what="Finishing the activation")
    piece = state.active_piece
    assert piece is not None
    return end_activation(state, piece)


# --- beats and spent weapons ----------------------------------------------------------


def beat(
    state: KolossusState, wb: int, victims: Sequence[tuple[int, BeatCause]]
) -> tuple[list[int], list[BeatRecord], list[TableChange]]:
    """Warband ``wb`` beats the miniatures on the given squares: the new miniature squares,
    the beat records and the numbered removal steps for the table."""
    occ = occupants(state.minis)
    minis = list(state.minis)
    beats: list[BeatRecord] = []
    steps: list[TableChange] = []
    for sq, cause in victims:
        victim = occ[sq]
        minis[victim] = -1
        beats.append(BeatRecord(round=state.round, piece=victim, by=wb, cause=cause))
        steps.append(
            TableChange(
                step=len(steps) + 1,
                cell=cell(sq),
                instruction=f"Remove {piece_name(state, victim)} from {square_text(sq)} (beaten)",
            )
        )
    return minis, beats, steps


def discharged(band: WarbandState, weapons: Sequence[Weapon]) -> WarbandState:
    """The Titan Weapons used up: their 2 mana each go back to the supply."""
    charges = list(band.charges)
    for weapon in weapons:
        charges[WEAPONS.index(weapon)] = 0
    return band.evolve({"charges": tuple(charges), "supply": band.supply + 2 * len(weapons)})
