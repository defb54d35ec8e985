"""A new Kolossus game and round 0, the Invasion: the options checked, the miniatures
arranged in the start zones (Swap, Ready) and the Great Quake's moves (the skills and
the Quake's mana are allocated in ``turns.py``)."""

from __future__ import annotations

from companion import words
from companion.errors import InvalidOptions
from companion.events import TableChanges
from companion.games.kolossus.common import (
    Handled,
    KolossusEvent,
    cell_arg,
    need_phase,
)
from companion.games.kolossus.content import (
    CORNERS,
    DEFAULT_START_ZONES,
    INITIAL_TERRAIN,
    PIECES_PER_WARBAND,
    alliance,
    cell,
    citadel_square,
    default_arrangement,
    parse_cell,
    region_text,
    square_text,
)
from companion.games.kolossus.model import (
    DEFAULT_WEAPON_OF_COLOUR,
    MANA_PER_WARBAND,
    KolossusOptions,
    KolossusState,
    QuakeMove,
    Ready,
    StartZones,
    Swap,
    WarbandState,
    Weapon,
)
from companion.games.kolossus.position import (
    current_warband,
    occupants,
    piece_name,
    warband_name,
    warband_of,
)
from companion.games.kolossus.quake import apply_shift, region_shift
from companion.games.kolossus.turns import after_quake_turn, start_quake_turn
from companion.games.kolossus.views import quake_candidates
from companion.highlights import TableChange
from companion.rng import Rng
from companion.rules import refuse

# --- setup ----------------------------------------------------------------------------


def new_game(names: tuple[str, ...], options: KolossusOptions, seed: int) -> KolossusState:
    """The state before the placement: the options checked, each warband in its zone."""
    if any(not 0 <= v <= 6 for v in options.mana_table):
        raise InvalidOptions("Each mana_table entry must be between 0 and 6.", ruling="K-R22")
    if len(set(options.colours)) != 4:
        raise InvalidOptions("Each corner needs a different colour.")
    weapons: tuple[Weapon, ...] = options.weapons or tuple(
        DEFAULT_WEAPON_OF_COLOUR[c] for c in options.colours
    )
    if options.titan_weapons == "one_per_warband" and len(set(weapons)) != 4:
        raise InvalidOptions("Each warband needs a different Titan Weapon.", ruling="K-R26")
    ctrl = _controllers(len(names), options)
    zones = _zones(options)
    supply = MANA_PER_WARBAND if options.chapter >= 2 else 0
    bands = tuple(
        WarbandState(
            corner=CORNERS[i],
            colour=options.colours[i],
            player=ctrl[i],
            zone=zones[i],
            weapon=weapons[i] if options.chapter >= 3 else None,
            supply=supply,
        )
        for i in range(4)
    )
    minis: list[int] = []
    for i in range(4):
        minis.extend(default_arrangement(zones[i], i))
    return KolossusState(
        players=names,
        rng=Rng(seed=seed),
        options=options,
        warbands=(bands[0], bands[1], bands[2], bands[3]),
        terrain=INITIAL_TERRAIN,
        minis=tuple(minis),
        phase="placement",
        first=CORNERS.index(options.first_corner),
    )


def _controllers(count: int, options: KolossusOptions) -> tuple[int, int, int, int]:
    if options.controllers is not None:
        ctrl = options.controllers
        if sorted(set(ctrl)) != list(range(count)):
            raise InvalidOptions("Every player must control at least one warband.", ruling="K-R21")
        for a in range(4):
            for b in range(4):
                if ctrl[a] == ctrl[b] and a != b and alliance(a) != alliance(b):
                    raise InvalidOptions(
                        "A player's two warbands must be a diagonal (allied) pair.", ruling="K-R21"
                    )
        return ctrl
    return {4: (0, 1, 2, 3), 3: (0, 1, 0, 2), 2: (0, 1, 0, 1)}[count]


def _zones(options: KolossusOptions) -> tuple[tuple[int, ...], ...]:
    layout = options.start_zone_layout
    if not isinstance(layout, StartZones):
        return DEFAULT_START_ZONES
    zones: list[tuple[int, ...]] = []
    for corner in CORNERS:
        squares = []
        for text in getattr(layout, corner):
            sq = parse_cell(text)
            if sq is None:
                raise InvalidOptions(f"Start square {text!r} of {corner} is off the board.")
            squares.append(sq)
        if len(set(squares)) != PIECES_PER_WARBAND:
            raise InvalidOptions(
                f"The {corner} start zone needs 8 different squares.", ruling="K-R02"
            )
        zones.append(tuple(squares))
    flat = [sq for zone in zones for sq in zone]
    if len(set(flat)) != len(flat):
        raise InvalidOptions("Two start zones share a square.", ruling="K-R02")
    if citadel_square(INITIAL_TERRAIN) in flat:
        raise InvalidOptions("A start zone cannot include the Citadel.", ruling="K-R02")
    return tuple(zones)


# --- placement ------------------------------------------------------------------------


def swap(state: KolossusState, action: Swap) -> Handled:
    need_phase(state, "placement", what="Arranging miniatures")
    a, b = cell_arg(action.a, "Square"), cell_arg(action.b, "Square")
    occ = occupants(state.minis)
    pa, pb = occ[a], occ[b]
    if pa < 0 or pb < 0 or a == b:
        raise refuse("Swap two different squares that both hold a miniature.", "K-R02")
    if warband_of(pa) != warband_of(pb):
        raise refuse("Only miniatures of one warband can swap, inside its start zone.", "K-R02")
    minis = list(state.minis)
    minis[pa], minis[pb] = b, a
    first, second = piece_name(state, pa), piece_name(state, pb)
    text = f"Swap {first} on {square_text(a)} and {second} on {square_text(b)}."
    change = TableChanges(text=text, changes=(TableChange(step=1, cell=cell(a), instruction=text),))
    return state.evolve({"minis": tuple(minis)}), (change,)


def ready(state: KolossusState, action: Ready) -> Handled:
    need_phase(state, "placement", what="Ready")
    if state.options.chapter >= 2:
        new = state.evolve({"phase": "skills", "turn": 0})
        return new, (KolossusEvent(text="Each warband now puts 4 mana on its skills."),)
    return start_quake_turn(state.evolve({"turn": 0})), (
        KolossusEvent(text="The Invasion begins: the Great Quake."),
    )


# --- the Great Quake ------------------------------------------------------------------


def quake_move(state: KolossusState, action: QuakeMove) -> Handled:
    need_phase(state, "quake", what="A Great Quake move")
    rolled = state.roll[0]
    if action.region not in quake_candidates(state):
        if action.region in state.quake_moved:
            where = region_text(action.region).capitalize()
            raise refuse(f"{where} already moved in this Great Quake.", "K-R06")
        where = region_text(action.region).capitalize()
        raise refuse(f"{where} is not a central region (rows and columns 3-7).", "K-R03")
    dist = rolled if action.distance is None else action.distance
    if state.options.quake_distance == "exact" and dist != rolled:
        raise refuse(f"The region moves exactly {words.count(rolled, 'square')}.", "K-R05")
    if not 1 <= dist <= rolled:
        raise refuse(f"The region moves 1 to {words.count(rolled, 'square')}.", "K-R05")
    shift = region_shift(state, action.region, action.direction, dist)
    if shift.citadel_falls:
        raise refuse(
            "That would push the Citadel of Time off the board; choose another region "
            "or direction.",
            "K-R41",
        )
    wb = current_warband(state)
    label = (
        f"Great Quake: {warband_name(state, wb)} moves {region_text(action.region)} "
        f"{action.direction} by {words.count(dist, 'square')}."
    )
    new, events = apply_shift(state, shift, "quake", label)
    new = new.evolve({"quake_moved": (*state.quake_moved, action.region)})
    if new.phase == "over":
        return new, tuple(events)
    if new.warbands[wb].income > 0:
        return new.evolve({"phase": "quake_allocate"}), tuple(events)
    new, more = after_quake_turn(new)
    return new, (*events, *more)
