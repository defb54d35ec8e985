"""Kolossus in the players' words: every action as a verb and its objects.

The phrasebook behind :meth:`KolossusRules.describe`, ``value_words``, ``cell_words``
and ``stays`` (the words contract of ``companion.rules.Rules``). One coordinate style:
a square is ``"(row, column)"`` numbered as the board's edges number it (row 0 north,
column 0 west, RULINGS 2.3), a region is ``"row 3"`` or ``"column 7"``. Miniatures are
named by their warband (the seed's names for the colours: "Tua'tha's Warrior"), the
player's name added where the piece is not the acting warband's; counts go through
:func:`companion.words.count`. The event texts of the log use the same words
(``content.square_text``, ``content.region_text``, ``position.piece_name``).
"""

from __future__ import annotations

from companion import words
from companion.dice import Roll
from companion.errors import RuleViolation
from companion.games.kolossus.battle import find_way
from companion.games.kolossus.content import (
    CLASS_COST,
    CLASS_DICE,
    CLASS_NAME,
    LANDSCAPE_NAME,
    WARBAND_OF_COLOUR,
    parse_cell,
    region_text,
    square_text,
)
from companion.games.kolossus.corrections import LANDSCAPE_CHAR, piece_id_words
from companion.games.kolossus.model import (
    SKILL_NAMES,
    SKILL_SLOTS,
    WEAPON_NAME,
    Allocate,
    ChooseClass,
    CorrectCrystals,
    CorrectLandscape,
    CorrectMana,
    CorrectPiece,
    CorrectRegion,
    Earthquake,
    EndTurn,
    Finish,
    Hammer,
    Initiative,
    KolossusAction,
    KolossusState,
    Move,
    QuakeMove,
    Ready,
    Rebirth,
    Spear,
    Swap,
)
from companion.games.kolossus.position import (
    citadel,
    class_of,
    current_warband,
    friendly,
    occupants,
    piece_name,
    warband_name,
    warband_of,
)

#: Fields whose value is one square (``"r,c"``) or several.
CELL_FIELDS = frozenset({"from", "from_", "to", "a", "b", "target"})
CELLS_FIELDS = frozenset({"targets", "path"})


def cell_words(key: str) -> str:
    """A square key ``"r,c"`` as texts say it, ``"(r, c)"``; anything else unchanged."""
    sq = parse_cell(key)
    return key if sq is None else square_text(sq)


def cells_words(keys: tuple[str, ...] | list[str]) -> str:
    """Several squares: ``"(1, 2), (1, 3) and (2, 3)"``."""
    return words.and_list([cell_words(k) for k in keys]) if keys else ""


def colour_words(colour: str) -> str:
    """A warband by its name and colour: ``"Tua'tha (blue)"``."""
    return f"{WARBAND_OF_COLOUR.get(colour, colour)} ({colour})"


def stays(action: KolossusAction) -> bool:
    """A move of 0 squares: the miniature stays where it stands (RULINGS 1.5: stopping
    early is always allowed, 0 squares included)."""
    return (
        isinstance(action, Move)
        and parse_cell(action.from_) is not None
        and parse_cell(action.from_) == parse_cell(action.to)
    )


def describe(state: KolossusState, action: KolossusAction) -> str:
    """``action`` in the players' words (see the module's docstring)."""
    match action:
        case Roll():
            return _roll(state, action)
        case Swap():
            return _swap(state, action)
        case Ready():
            return "Ready: the miniatures stand as shown"
        case QuakeMove():
            return _quake_move(state, action)
        case Allocate():
            return _allocate(state, action)
        case Initiative():
            return "Initiative: 1 pool mana for 1 more activation point"
        case ChooseClass():
            return _choose_class(action)
        case Move():
            return _move(state, action)
        case Spear():
            return _spear(state, action)
        case Hammer():
            return _hammer(state, action)
        case Finish():
            return "Finish: the Colossus uses no Spear or Hammer"
        case Earthquake():
            return f"Earthquake: move {_region_move(action.region, action.direction, 1)}"
        case Rebirth():
            return _rebirth(state, action)
        case EndTurn():
            return _end_turn(state)
        case CorrectPiece():
            return _correct_piece(action)
        case CorrectMana():
            return _correct_mana(action)
        case CorrectCrystals():
            return _correct_crystals(action)
        case CorrectLandscape():
            return _correct_landscape(action)
        case CorrectRegion():
            by = words.count(action.distance, "square")
            return f"Correct: {region_text(action.region)} shifted {action.direction} by {by}"


# --- the phrases, one per family ---------------------------------------------------------


def _piece_on(state: KolossusState, key: str) -> int:
    sq = parse_cell(key)
    return -1 if sq is None else occupants(state.minis)[sq]


def _whose(state: KolossusState, piece: int) -> str:
    """A miniature by its warband and class; another player's gets that player's name:
    ``"Krell's Guardian (Bob)"``."""
    name = piece_name(state, piece)
    player = state.warbands[warband_of(piece)].player
    mover = state.warbands[current_warband(state)].player
    return name if player == mover else f"{name} ({state.players[player]})"


def _roll(state: KolossusState, action: Roll) -> str:
    """The pending dice by what they decide: the Great Quake, the Die of Destiny or the
    chosen class's movement."""
    request = state.dice
    if request is None:
        what = "the dice"
    elif request.purpose == "movement":
        what = f"the {CLASS_NAME[state.active_class or 'W']} movement"
    else:
        what = {"quake": "the Great Quake", "destiny": "the Die of Destiny"}.get(
            request.purpose, "the dice"
        )
    if not action.values:
        return f"Roll for {what}" if request is not None else "Roll the dice"
    said = words.and_list([str(v) for v in action.values])
    return f"Roll {said} for {what}" if request is not None else f"Roll {said}"


def _swap(state: KolossusState, action: Swap) -> str:
    a, b = _piece_on(state, action.a), _piece_on(state, action.b)
    if a < 0 or b < 0:
        return f"Swap the miniatures on {cell_words(action.a)} and {cell_words(action.b)}"
    other = CLASS_NAME[class_of(b)]
    return (
        f"Swap {piece_name(state, a)} on {cell_words(action.a)} "
        f"with the {other} on {cell_words(action.b)}"
    )


def _region_move(region: str, direction: str, distance: int) -> str:
    return f"{region_text(region)} {direction} by {words.count(distance, 'square')}"


def _quake_move(state: KolossusState, action: QuakeMove) -> str:
    rolled = state.roll[0] if state.roll else 1
    distance = action.distance if action.distance is not None else rolled
    return f"Great Quake: move {_region_move(action.region, action.direction, distance)}"


def _allocate(state: KolossusState, action: Allocate) -> str:
    parts = [
        f"{n} on {SKILL_NAMES[slot]}"
        for slot, n in zip(SKILL_SLOTS, action.skills(), strict=True)
        if n
    ]
    if action.pool:
        parts.append(f"{action.pool} in the pool")
    if action.charge is not None:
        charge = f"charge the {WEAPON_NAME[action.charge]}"
        if action.charge_from_pool:
            charge += f" ({action.charge_from_pool} from the pool)"
        parts.append(charge)
    if not parts:
        income = state.warbands[current_warband(state)].income
        return f"Put no mana: {words.count(income, 'mana', 'mana')} back to the supply"
    return "Put mana: " + ", ".join(parts)


def _choose_class(action: ChooseClass) -> str:
    cls = action.cls
    return (
        f"Activate a {CLASS_NAME[cls]}: "
        f"{words.count(CLASS_COST[cls], 'activation point')}, "
        f"roll {words.count(CLASS_DICE[cls], 'die', 'dice')}"
    )


def _move(state: KolossusState, action: Move) -> str:
    piece = _piece_on(state, action.from_)
    who = piece_name(state, piece) if piece >= 0 else "the miniature"
    if stays(action):
        text = f"Stay on {cell_words(action.to)} with {who}"
        sq = parse_cell(action.to)
        if sq == citadel(state) and state.crystals > 0:  # K-R16: it captures all there
            text += f", taking {words.count(state.crystals, 'Crystal')} of Time"
        return text
    text = f"Move {who} from {cell_words(action.from_)} to {cell_words(action.to)}"
    beaten, sword, whip = _what_the_move_does(state, piece, action)
    if len(beaten) == 1:
        text += f", beating {_whose(state, beaten[0])}"
    elif beaten:
        text += f", beating {words.count(len(beaten), 'miniature')}"
    weapons = [WEAPON_NAME[w] for w, used in (("sword", sword), ("whip", whip)) if used]
    if weapons:
        text += " with the " + " and the ".join(weapons)
    return text


def _what_the_move_does(
    state: KolossusState, piece: int, action: Move
) -> tuple[list[int], bool, bool]:
    """The miniatures a move beats and whether it uses the Sword and the Whip: the way
    the referee will take (``battle.find_way``), else what the action asks for."""
    origin, to = parse_cell(action.from_), parse_cell(action.to)
    if piece >= 0 and origin is not None and to is not None and state.phase == "move":
        try:
            way, sword, whip = find_way(state, piece, origin, to, action)
        except RuleViolation:
            pass
        else:
            occ = occupants(state.minis)
            return [occ[sq] for sq in way.beaten if occ[sq] >= 0], sword, whip
    victim = _piece_on(state, action.to)
    enemy = (
        victim >= 0 and piece >= 0 and not friendly(state, warband_of(piece), warband_of(victim))
    )
    return [victim] if enemy else [], bool(action.sword), bool(action.whip)


def _spear(state: KolossusState, action: Spear) -> str:
    victim = _piece_on(state, action.target)
    who = _whose(state, victim) if victim >= 0 else "the miniature"
    return f"Spear of Vengeance: beat {who} on {cell_words(action.target)}"


def _hammer(state: KolossusState, action: Hammer) -> str:
    if len(action.targets) == 1:
        victim = _piece_on(state, action.targets[0])
        who = _whose(state, victim) if victim >= 0 else "the miniature"
        return f"Hammer of Doom: beat {who} on {cell_words(action.targets[0])}"
    many = words.count(len(action.targets), "miniature")
    return f"Hammer of Doom: beat {many} on {cells_words(action.targets)}"


def _rebirth(state: KolossusState, action: Rebirth) -> str:
    wb = current_warband(state)
    cost = words.count(CLASS_COST[action.cls], "pool mana", "pool mana")
    return (
        f"Rebirth: {warband_name(state, wb)}'s {CLASS_NAME[action.cls]} "
        f"returns on {cell_words(action.to)} for {cost}"
    )


def _end_turn(state: KolossusState) -> str:
    if state.ap > 0:
        return f"End the turn: {words.count(state.ap, 'activation point')} unused"
    return "End the turn"


def _correct_piece(action: CorrectPiece) -> str:
    who = piece_id_words(action.piece)
    if action.row is None or action.col is None:
        return f"Correct: {who} is beaten"
    return f"Correct: {who} stands on ({action.row}, {action.col})"


def _correct_mana(action: CorrectMana) -> str:
    skills = sum(action.skills())
    charged = [WEAPON_NAME[w] for w, on in zip(WEAPON_NAME, action.charged(), strict=True) if on]
    text = (
        f"Correct {WARBAND_OF_COLOUR[action.warband]}'s mana: {action.supply} in the supply, "
        f"{skills} on the skills, {action.pool} in the pool, {action.income} income"
    )
    return text + (", charged: " + ", ".join(charged) if charged else "")


def _correct_crystals(action: CorrectCrystals) -> str:
    captured = action.blue + action.yellow + action.green + action.red
    return (
        f"Correct the crystals: {action.citadel} on the Citadel, "
        f"{action.supply} in the supply, {captured} captured"
    )


def _correct_landscape(action: CorrectLandscape) -> str:
    land = LANDSCAPE_NAME.get(LANDSCAPE_CHAR[action.landscape], "bare board")
    return f"Correct ({action.row}, {action.col}): {land}"


#: What an empty (None) field means, per field.
_NONE_WORDS: dict[str, str] = {
    "row": "beaten",
    "col": "beaten",
    "distance": "the number rolled",
    "path": "the referee chooses",
    "sword": "only if needed",
    "whip": "only if needed",
    "values": "the referee rolls",
}


def value_words(state: KolossusState, field: str, value: object) -> str | None:
    """One field's value as players say it, or None where the plain value is the word
    (a number): squares and regions in the board's numbering, class letters and
    weapons by name, a colour by its warband, a piece id by its miniature."""
    if value is None:
        return _NONE_WORDS.get(field, "none")
    if field in CELL_FIELDS and isinstance(value, str):
        return cell_words(value)
    if field in CELLS_FIELDS and isinstance(value, tuple | list):
        keys = [str(v) for v in value]
        return " → ".join(map(cell_words, keys)) if field == "path" else cells_words(keys)
    if isinstance(value, str):
        if field == "cls":
            return CLASS_NAME.get(value, value)
        if field in ("region", "regions"):
            return region_text(value)
        if field in ("charge", "weapon"):
            return WEAPON_NAME.get(value, value)
        if field == "warband":
            return colour_words(value)
        if field == "piece":
            return piece_id_words(value)
        if field == "landscape":
            return LANDSCAPE_NAME.get(LANDSCAPE_CHAR.get(value, ""), "bare board")
    if field == "values" and isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return None
