"""Beast Master's own actions in the players' words (the shared ones are in
:mod:`companion.games.island.phrases`): spaces by their board labels, counts spelled."""

from __future__ import annotations

from companion import words
from companion.dice import Roll
from companion.games.island.beast_master.content import BANNERS, MOVEMENTS
from companion.games.island.beast_master.model import (
    BeastMasterAction,
    BeastMasterState,
    CollectReward,
    EndActions,
    EndTurn,
    EnterLoot,
    NameTile,
    PickWinners,
    PlaceBanner,
    PlaceColossus,
    Rest,
    TakeActions,
)
from companion.games.island.model import PendingExplore, PendingLoot
from companion.games.island.phrases import reward_words, space_name, winners_words


def bm_words(state: BeastMasterState, action: BeastMasterAction) -> str:
    """One of Beast Master's own actions as players say it."""
    board = state.board
    head = state.pending[0] if state.pending else None
    match action:
        case Roll():
            space = space_name(board, head.space) if isinstance(head, PendingExplore) else None
            if action.values is None:
                return f"Roll the d6 to explore {space}" if space else "Roll the d6"
            rolled = ", ".join(map(str, action.values))
            return f"Rolled {rolled} to explore {space}" if space else f"Rolled {rolled}"
        case TakeActions():
            return f"Take Actions: draw 1 card, then up to {words.count(MOVEMENTS, 'Movement')}"
        case Rest():
            out = BANNERS - state.banners_in_hand[state.active]
            if out <= 0:
                return "Rest (no Banner to collect)"
            return f"Rest and collect {words.count(out, 'Banner')}"
        case EndActions():
            return "End the Actions"
        case PlaceBanner():
            return f"Raise a Banner on {space_name(board, action.space)}"
        case EndTurn():
            return "End the turn"
        case CollectReward():
            space = space_name(board, action.space)
            return f"Collect the Banner on {space}: {collected(state, action)}"
        case EnterLoot():
            text = reward_words(action.gold, action.cards)
            named = f" ({action.name})" if action.name else ""
            if isinstance(head, PendingLoot):
                return f"The Loot on {space_name(board, head.space)} gives {text}{named}"
            return f"The Loot gives {text}{named}"
        case NameTile():
            return f"Name the tile on {space_name(board, action.space)} “{action.name}”"
        case PlaceColossus():
            return f"Place the Colossus on {space_name(board, action.space)}"
        case PickWinners():
            return winners_words(state, action.seats)
    return "That action"  # pragma: no cover - the shared actions are said before


def collected(state: BeastMasterState, action: CollectReward) -> str:
    """What collecting a Banner gives: as entered, else a Loot's printed reward (an
    Environment gives nothing unless entered; a space without a tile nothing)."""
    tile = state.space(action.space).tile if state.board.has(action.space) else None
    kind = tile.kind if tile is not None else None
    if kind not in ("loot", "environment"):
        return "nothing"
    assert tile is not None
    gold, cards = (tile.gold, tile.cards) if kind == "loot" else (0, 0)
    gold = gold if action.gold is None else action.gold
    cards = cards if action.cards is None else action.cards
    return reward_words(gold, cards)
