"""Beast Master as a screen reads it: the phase names, the status line and the cells of
its own actions (the island's panel and board are in :mod:`companion.games.island.views`)."""

from __future__ import annotations

from companion import words
from companion.dice import Roll
from companion.games.island.beast_master.model import (
    BeastMasterAction,
    BeastMasterState,
    CollectReward,
    EnterLoot,
    NameTile,
    PlaceBanner,
    PlaceColossus,
)
from companion.games.island.model import (
    PendingLoot,
)
from companion.games.island.views import exploring_space
from companion.views import NO_CELLS, ActionCells

PHASE_NAMES: dict[str, str] = {
    "place_colossus": "Placing the Colossi",
    "choose": "Actions or Rest",
    "actions": "Actions",
    "banners": "Banners",
    "resting": "Rest",
    "tie": "Tie",
    "over": "Game over",
}


def status_line(state: BeastMasterState, seat: int | None) -> str:
    """The status line of a game that goes on: the turn, who, and what is asked."""
    n = len(state.players)
    turn = min(state.turns_played + 1, state.options.turns_per_player * n)
    who = state.players[seat or 0]
    if state.pending:
        ask = {
            "explore": "roll the d6 to explore",
            "loot": "enter the Loot token's reward",
            "displace": "move your Colossus away from the Beast",
            "discard": "discard down to 6 cards",
        }.get(state.pending[0].kind, "resolve")
    else:
        ask = {
            "place_colossus": "place your Colossus",
            "choose": "take Actions or Rest",
            "actions": f"{words.count(state.movements_left, 'Movement')} left",
            "banners": "place Banners or end the turn",
            "resting": "collect your Banners' rewards",
            "tie": "pick the winner of the tie",
        }.get(state.phase, "")
    return f"Turn {turn}/{state.options.turns_per_player * n} — {who}: {ask}"


def action_cells(state: BeastMasterState, action: BeastMasterAction) -> ActionCells:
    """A roll explores the waiting space, a Loot's reward is written on it; placing
    a Colossus or a Banner, collecting a Banner and naming a tile act on their space."""
    match action:
        case Roll():
            space = exploring_space(state)
            return NO_CELLS if space is None else ActionCells.at(space)
        case EnterLoot():
            head = state.pending[0] if state.pending else None
            return ActionCells.at(head.space) if isinstance(head, PendingLoot) else NO_CELLS
        case PlaceColossus() | PlaceBanner() | CollectReward() | NameTile():
            return ActionCells.at(action.space)
        case _:
            return NO_CELLS
