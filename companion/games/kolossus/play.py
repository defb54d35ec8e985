"""Kolossus actions applied: each action goes to its handler, a function
``(state, action) -> (state, events)`` in the module of its concept:

- ``invasion.py``: placement (Swap, Ready) and the Great Quake's moves;
- ``turns.py``: the dice, classes, mana allocation, the end of a turn and of a round;
- ``battle.py``: the Move, Spear, Hammer and Finish of an activation;
- ``powers.py``: the Titan Powers Initiative, Earthquake and Rebirth;
- ``corrections.py``: the manual corrections (RULINGS 0.2.1) and their consequences.

What comes before any handler is here: the game over (K-R37), the roll the game waits
for (K-R07), and a correction set first and judged after.
"""

from __future__ import annotations

from companion.dice import Roll
from companion.games.corrections import Correction, corrected, game_over, impossible
from companion.games.kolossus import battle, invasion, powers, turns
from companion.games.kolossus.common import Handled
from companion.games.kolossus.corrections import (
    after_correction,
    correct_crystals,
    correct_landscape,
    correct_mana,
    correct_piece,
    correct_region,
)
from companion.games.kolossus.model import (
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
from companion.rules import refuse


def apply_action(state: KolossusState, action: KolossusAction) -> Handled:
    """The new state and the events of ``action``, or a RuleViolation naming the ruling."""
    if isinstance(action, Correction):
        return _correct(state, action)
    if state.phase == "over":
        raise refuse("The game is over.", "K-R37")
    if isinstance(action, Roll):
        return turns.roll(state, action)
    if state.dice is not None:
        raise refuse(f"Roll first: {state.dice.label}.", "K-R07")
    return _dispatch(state, action)


def _dispatch(state: KolossusState, action: KolossusAction) -> Handled:
    match action:
        case Swap():
            return invasion.swap(state, action)
        case Ready():
            return invasion.ready(state, action)
        case QuakeMove():
            return invasion.quake_move(state, action)
        case Allocate():
            return turns.allocate(state, action)
        case Initiative():
            return powers.initiative(state, action)
        case ChooseClass():
            return turns.choose_class(state, action)
        case Move():
            return battle.move(state, action)
        case Spear():
            return battle.spear(state, action)
        case Hammer():
            return battle.hammer(state, action)
        case Finish():
            return battle.finish(state, action)
        case Earthquake():
            return powers.earthquake(state, action)
        case Rebirth():
            return powers.rebirth(state, action)
        case EndTurn():
            return turns.end_turn(state, action)
    raise refuse("Unknown action.")  # pragma: no cover - the union is exhaustive


def _correct(state: KolossusState, action: Correction) -> Handled:
    """Set what the table shows, then let the rules judge the consequences."""
    if state.phase == "over":
        raise game_over()
    match action:
        case CorrectPiece():
            new, text = correct_piece(state, action)
        case CorrectMana():
            new, text = correct_mana(state, action)
        case CorrectCrystals():
            new, text = correct_crystals(state, action)
        case CorrectLandscape():
            new, text = correct_landscape(state, action)
        case CorrectRegion():
            new, text = correct_region(state, action)
        case _:
            raise impossible("Kolossus has no such correction.")
    new, more = after_correction(new)
    return new, (corrected(action.type, text), *more)
