"""Colossi as a screen reads it: the phase names, the status line, the Age and Mantle
facts and the cells of its own actions (the island's panel and board are in
:mod:`companion.games.island.views`)."""

from __future__ import annotations

from companion import words
from companion.games.island.colossi.content import AGE_NAMES
from companion.games.island.colossi.model import (
    ColossiAction,
    ColossiState,
    DrawTile,
    Harvest,
    PlaceLair,
    RevealAge,
    age_label,
)
from companion.games.island.views import combined, effect_cells, exploring_space
from companion.views import NO_CELLS, ActionCells

PHASE_NAMES: dict[str, str] = {
    "age_reveal": "Age card",
    "actions": "Action Phase",
    "age_scoring": "Harvest Phase: Age scoring",
    "harvest": "Harvest Phase",
    "transition": "Age transition",
    "tie": "Tie",
    "over": "Game over",
}


def status_line(state: ColossiState, seat: int | None) -> str:
    """The status line of a game that goes on: the Age, who, and what is asked."""
    who = state.players[seat if seat is not None else state.mantle]
    head = state.pending[0] if state.pending else None
    if head is not None:
        ask = {
            "explore": "draw a tile to explore",
            "roll_off": "roll off",
            "lair": "place the new Lair",
            "trait": "take a Trait",
            "trait_discard": "discard one of 3 Traits",
            "displace": "move your Colossus away",
            "discard": "discard down to 6 cards",
        }.get(head.kind, "resolve")
    else:
        n = len(state.players)
        ask = {
            "age_reveal": "reveal the Age card",
            "actions": f"round {state.age_turns // n + 1}/{state.rounds}, "
            f"{words.count(state.movements_left, 'Action')} left",
            "age_scoring": "enter the Age card's scoring",
            "harvest": "harvest a space or pass",
            "tie": "pick the winner of the tie",
            "transition": "Age transition",
        }.get(state.phase, "")
    return f"{age_label(state.age)} — {who}: {ask}"


def age_facts(state: ColossiState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The panel's Colossi facts: the Age (with the round of its Action Phase once the
    Age card is revealed) before the Beasts, the Mantle holder after them."""
    age = AGE_NAMES[state.age - 1]
    if state.phase == "age_reveal":  # the Age card of this Age is not known yet
        line = f"Age: {age}, card not revealed"
    else:
        named = (
            f" ({state.age_name})"
            if state.age_name and state.age_name != age_label(state.age)
            else ""
        )
        current = min(state.age_turns // len(state.players) + 1, state.rounds)
        line = f"Age: {age}{named}, round {current}/{state.rounds}"
    return (line,), (f"Mantle: {state.players[state.mantle]}",)


def colossi_action_cells(state: ColossiState, action: ColossiAction) -> ActionCells:
    """Drawing a tile explores the waiting space; a Lair and a Harvest act on their
    space (a Harvest also where its Environment's effects act); an Age card touches the
    spaces it floods and, in Age I with the Lair in the centre (CA-R01), the centre."""
    match action:
        case DrawTile():
            space = exploring_space(state)
            return NO_CELLS if space is None else ActionCells.at(space)
        case PlaceLair():
            return ActionCells.at(action.space)
        case Harvest():
            extra = combined(effect_cells(state, e) for e in action.effects).touched
            return ActionCells.at(action.space, *sorted(extra))
        case RevealAge():
            water = action.water
            if action.card is not None and state.options.content is not None:
                card = state.options.content.age(action.card)
                water = card.water if card is not None else water
            centre = (
                (state.board.centre,)
                if state.age == 1 and state.options.centre_setup == "age1_lair"
                else ()
            )
            return ActionCells.area(frozenset((*water, *centre)))
        case _:
            return NO_CELLS
