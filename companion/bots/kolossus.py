"""What the bots know of Kolossus (all three Chapters): the evaluation, its reasons, the
seat's view.

The one place the bots import Kolossus (so a move of its modules is fixed here).

**The evaluation** (docs/bots.md has the table), from the side of the seat's alliance
(NW+SE or NE+SW, RULINGS 1.4: a player runs one or two warbands), every term "ours
minus theirs":

* *crystals*: 25 per Crystal of Time captured (the game is won on them, K-R18);
* *material*: miniatures on the board, Warrior 3, Guardian 6, Colossus 10, and
  4 × (4 − miniatures left)² for a warband with fewer than 4 (a wiped-out warband loses
  its alliance the game, K-R20);
* *Citadel*: the crystals waiting on it, times 0.3 × 25, times the difference between
  the two alliances' best chances of standing on it after one activation (1 for a
  miniature already there; else the chance its class's dice make the distance, halved
  for Warriors and Guardians, who need a Mountain beside it), and 0.1 per square a
  miniature is nearer than 8 squares to it;
* *threats*: each miniature's value times the chance that the enemy most likely to
  reach it does (its class's movement dice, 1d4/2d4/3d4, making the distance): half of
  that against us for ours (the enemy strikes next when our turn ends), a tenth for us
  for theirs;
* *mana* (Chapter 2+): 0.5 per mana on the skills, 0.3 in the pool, 1 per charged
  Titan Weapon;
* *tempo*: 0.1 per movement point the acting warband has yet to use (so a class with
  more dice is activated first; activation points themselves are worth nothing: kept
  in hand they would make a turn end early).

**Hidden information:** Kolossus has none on the table; the only thing a seat may not
know is the referee's random stream (its next software rolls), which the view replaces.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Any, get_args

from companion.bots.search import WIN, Terms
from companion.dice import Roll
from companion.games.kolossus.content import (
    CLASS_DICE,
    CLASS_NAME,
    PIECE_CLASS,
    PIECES_PER_WARBAND,
    SIZE,
    citadel_square,
    parse_cell,
)
from companion.games.kolossus.model import (
    Allocate,
    ChooseClass,
    Earthquake,
    EndTurn,
    Finish,
    Initiative,
    KolossusState,
    Phase,
    QuakeMove,
    Ready,
    Rebirth,
    Swap,
)
from companion.rng import Rng
from companion.words import count

VALUE = {"W": 3.0, "G": 6.0, "C": 10.0}
CRYSTAL = 25.0
SHORT = 4.0
ON_CITADEL = 0.3
CLIMB = 0.5
NEAR_CITADEL = 0.1
THREAT, DANGER = 0.1, 0.5
SKILL_MANA, POOL_MANA, CHARGED = 0.5, 0.3, 1.0
MP = 0.1
PROGRESS = 0.01
PHASES: tuple[str, ...] = get_args(Phase)
UNQUIET = frozenset({"move_roll", "move", "after_move"})
"""Phases in the middle of an activation, which the Hard search looks through."""
HIDDEN_RNG = Rng(seed=0)
"""What the seat's view holds instead of the referee's stream (its future rolls)."""


def alliance_of_seat(state: KolossusState, seat: int) -> int:
    """The alliance (0 = NW+SE, 1 = NE+SW) of the warbands ``seat`` runs."""
    for index, band in enumerate(state.warbands):
        if band.player == seat:
            return index % 2
    raise ValueError(f"seat {seat} runs no warband")


def _distance(a: int, b: int) -> int:
    return max(abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE))


def _at_least(dice: int, distance: int) -> float:
    """The chance that ``dice`` d4 add up to ``distance`` or more."""
    outcomes = [sum(faces) for faces in product(range(1, 5), repeat=dice)]
    return sum(1 for total in outcomes if total >= distance) / len(outcomes)


REACH: dict[str, tuple[float, ...]] = {
    cls: tuple(_at_least(CLASS_DICE[cls], d) for d in range(SIZE)) for cls in CLASS_DICE
}
"""The chance a class's movement dice carry it ``d`` squares (0 = already there)."""


@lru_cache(maxsize=4096)
def _board_terms(
    minis: tuple[int, ...], citadel: int, crystals: int, side: int
) -> tuple[float, float, float]:
    """Material, Citadel and threats, ours minus theirs: what the miniatures' places
    decide (shared by every state with the same places)."""
    sign = (1.0, -1.0) if side == 0 else (-1.0, 1.0)
    team = [-1] * (SIZE * SIZE)
    enemy_classes: tuple[list[tuple[int, str]], list[tuple[int, str]]] = ([], [])
    for piece, square in enumerate(minis):
        if square >= 0:
            team[square] = (piece // PIECES_PER_WARBAND) % 2
            enemy_classes[team[square]].append((square, PIECE_CLASS[piece % PIECES_PER_WARBAND]))
    material = near = threats = 0.0
    on_board = [0, 0, 0, 0]
    reach = [0.0, 0.0]  # per alliance: the best chance of standing on the Citadel next
    for piece, square in enumerate(minis):
        if square < 0:
            continue
        band = piece // PIECES_PER_WARBAND
        on_board[band] += 1
        worth = VALUE[PIECE_CLASS[piece % PIECES_PER_WARBAND]]
        mine = team[square]
        material += sign[mine] * worth
        cls = PIECE_CLASS[piece % PIECES_PER_WARBAND]
        away = _distance(square, citadel)
        near += sign[mine] * NEAR_CITADEL * max(0, 8 - away)
        chance = 1.0 if away == 0 else REACH[cls][away] * (1.0 if cls == "C" else CLIMB)
        reach[mine] = max(reach[mine], chance)
        enemies = enemy_classes[1 - mine]
        if enemies:  # the piece is threatened by the enemy most likely to reach it
            odds = max(REACH[cls][_distance(square, at)] for at, cls in enemies)
            threats -= sign[mine] * (DANGER if mine == side else THREAT) * worth * odds
    for band, pieces in enumerate(on_board):
        material -= sign[band % 2] * SHORT * max(0, 4 - pieces) ** 2
    potential = CRYSTAL * ON_CITADEL * crystals * (reach[side] - reach[1 - side])
    return material, potential + near, threats


def _terms(state: KolossusState, side: int) -> Terms:
    """Each term as ours minus theirs."""
    if state.result is not None:
        won = state.result.alliance
        return {"result": 0.0 if won is None else (WIN if won == side else -WIN)}
    sign = (1.0, -1.0) if side == 0 else (-1.0, 1.0)
    crystals = [0, 0]
    for capture in state.captures:
        crystals[capture.warband % 2] += capture.count
    material, citadel, threats = _board_terms(
        state.minis,
        citadel_square(state.terrain),
        state.crystals,
        side,
    )
    mana = 0.0
    if state.options.chapter >= 2:
        for index, band_state in enumerate(state.warbands):
            mana += sign[index % 2] * (
                SKILL_MANA * sum(band_state.skills)
                + POOL_MANA * band_state.pool
                + CHARGED * sum(1 for c in band_state.charges if c)
            )
    tempo = 0.0
    if state.phase in ("turn", "move", "after_move", "move_roll"):
        acting = (state.first + state.turn) % 4
        tempo = sign[acting % 2] * MP * state.mp
    return {
        "crystals": CRYSTAL * (crystals[side] - crystals[1 - side]),
        "material": material,
        "citadel": citadel,
        "threats": threats,
        "mana": mana,
        "tempo": tempo,
        "progress": PROGRESS * PHASES.index(state.phase),
    }


class KolossusKnowledge:
    """The :class:`~companion.bots.search.Knowledge` of Kolossus."""

    def evaluate(self, state: Any, seat: int) -> Terms:
        return _terms(state, alliance_of_seat(state, seat))

    def redact(self, state: Any, seat: int) -> Any:
        return state.evolve({"rng": HIDDEN_RNG})

    def determinise(self, view: Any, seat: int, rng: Rng) -> tuple[Any, Rng]:
        return view, rng  # nothing hidden but the dice, which the search averages out

    def quiet(self, state: Any) -> bool:
        """Between activations: no miniature half-way through its move."""
        return state.phase not in UNQUIET

    def offers(self, state: Any, actions: list[Any]) -> list[Any]:
        return actions  # Kolossus has no deals: every legal action is the seat's own

    def shortlist(self, state: Any, actions: list[Any], limit: int) -> list[Any]:
        """Moves by what their destination promises: the Citadel, the dearest enemy
        beaten, then nearness to the Citadel; other actions all kept."""
        if state.phase != "move":
            return actions
        citadel = citadel_square(state.terrain)
        holder = {sq: p for p, sq in enumerate(state.minis) if sq >= 0}
        side = (state.first + state.turn) % 2

        def promise(move: Any) -> float:
            to = parse_cell(move.to)
            if to is None:
                return 0.0
            score = -float(_distance(to, citadel))
            if to == citadel:
                score += 100.0
            beaten = holder.get(to)
            if beaten is not None and (beaten // PIECES_PER_WARBAND) % 2 != side:
                score += 10.0 * VALUE[PIECE_CLASS[beaten % PIECES_PER_WARBAND]]
            return score

        return sorted(actions, key=promise, reverse=True)[:limit]

    def reason(self, before: Any, action: Any, after: Any, horizon: Any, seat: int) -> str:
        """What the plan gains by its horizon (a class chosen: what its move will do)."""
        return reason_text(before, action, horizon, alliance_of_seat(before, seat))


def _beaten(before: KolossusState, after: KolossusState, side: int) -> list[str]:
    """Class names of the enemy miniatures beaten between the two positions."""
    return [
        CLASS_NAME[PIECE_CLASS[p % PIECES_PER_WARBAND]]
        for p, (was, now) in enumerate(zip(before.minis, after.minis, strict=True))
        if was >= 0 > now and (p // PIECES_PER_WARBAND) % 2 != side
    ]


def _threatened(state: KolossusState, side: int) -> list[int]:
    """The enemy miniatures one of ours reaches at least every other roll."""
    ours = [
        (sq, PIECE_CLASS[p % PIECES_PER_WARBAND])
        for p, sq in enumerate(state.minis)
        if sq >= 0 and (p // PIECES_PER_WARBAND) % 2 == side
    ]
    return [
        p
        for p, sq in enumerate(state.minis)
        if sq >= 0
        and (p // PIECES_PER_WARBAND) % 2 != side
        and any(REACH[cls][_distance(sq, at)] >= 0.5 for at, cls in ours)
    ]


def reason_text(before: KolossusState, action: Any, after: KolossusState, side: int) -> str:
    """The main term the action (and the plan after it) gains, in players' words."""
    if isinstance(action, Roll):
        return "rolls the dice the game asks for"
    if after.result is not None and after.result.alliance == side:
        return "wins the game"
    gained = sum(c.count for c in after.captures[len(before.captures) :] if c.warband % 2 == side)
    if gained:
        return f"takes {count(gained, 'crystal')}"
    beaten = _beaten(before, after, side)
    if beaten:
        if len(beaten) == 1:
            return f"beats a {beaten[0]}"
        return f"beats {count(len(beaten), 'miniature')}"
    new_threats = set(_threatened(after, side)) - set(_threatened(before, side))
    if new_threats:
        worst = max(new_threats, key=lambda p: VALUE[PIECE_CLASS[p % PIECES_PER_WARBAND]])
        return f"threatens the {CLASS_NAME[PIECE_CLASS[worst % PIECES_PER_WARBAND]]}"
    b_terms, a_terms = _terms(before, side), _terms(after, side)
    if a_terms.get("citadel", 0.0) > b_terms.get("citadel", 0.0):
        return "moves toward the Citadel"
    if a_terms.get("threats", 0.0) > b_terms.get("threats", 0.0):
        return "moves out of danger"
    if a_terms.get("mana", 0.0) > b_terms.get("mana", 0.0) or isinstance(action, Allocate):
        return "strengthens its skills with mana"
    return _fallback(action)


def _fallback(action: Any) -> str:
    match action:
        case Ready() | Swap():
            return "sets up its miniatures"
        case QuakeMove() | Earthquake():
            return "shifts a region to its advantage"
        case ChooseClass():
            return f"activates a {CLASS_NAME[action.cls]}"
        case Initiative():
            return "buys an activation point"
        case Rebirth():
            return f"brings back its {CLASS_NAME[action.cls]}"
        case EndTurn() | Finish():
            return "nothing better to do: ends here"
    return "keeps its position"
