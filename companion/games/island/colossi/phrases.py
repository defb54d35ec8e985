"""Colossi's own actions in the players' words (the shared ones are in
:mod:`companion.games.island.phrases`): spaces by their board labels, counts spelled."""

from __future__ import annotations

from companion import words
from companion.dice import Roll
from companion.games.island.colossi.content import MOVEMENT_UNIT
from companion.games.island.colossi.model import (
    AgeScoring,
    ColossiAction,
    ColossiState,
    DiscardTrait,
    DrawTile,
    EndActionPhase,
    EndTurn,
    Harvest,
    PassHarvest,
    PickWinners,
    PlaceLair,
    RevealAge,
    TakeTrait,
    age_label,
)
from companion.games.island.model import (
    PendingExplore,
    PendingLair,
    PendingRollOff,
)
from companion.games.island.phrases import (
    LOOT_WORDS,
    effects_words,
    grass_words,
    player_name,
    space_name,
    spaces_words,
    winners_words,
)

#: A drawn tile's kind as players call it.
TILE_WORDS = {"grass": "Grass", "lair": "Lair", "environment": "Environment", "bare": "nothing"}
#: What a roll-off decides.
ROLL_OFF_WORDS = {"mantle": "the Mantle", "least_gold": "least Gold", "age1_lairs": "the Lairs"}


def trait_words(name: str) -> str:
    """A Trait by its name: "Trait 2" as it is, "the Trait Swift"."""
    return name if name.startswith("Trait") else f"the Trait {name}"


def ca_words(state: ColossiState, action: ColossiAction) -> str:
    """One of Colossi's own actions as players say it."""
    board = state.board
    head = state.pending[0] if state.pending else None
    match action:
        case Roll():
            what = ROLL_OFF_WORDS[head.purpose] if isinstance(head, PendingRollOff) else "it"
            if action.values is None or not isinstance(head, PendingRollOff):
                return f"Roll off for {what}"
            rolls = zip(head.contenders, action.values, strict=False)
            faces = ", ".join(f"{player_name(state, p)} {v}" for p, v in rolls)
            return f"Roll-off for {what}: {faces}"
        case RevealAge():
            return age_card_words(state, action)
        case DrawTile():
            space = space_name(board, head.space) if isinstance(head, PendingExplore) else None
            for_space = f" for {space}" if space else ""
            if action.kind is None:
                if_grass = f" (Grass gives {LOOT_WORDS[action.loot]})" if action.loot else ""
                return f"Draw a tile{for_space}{if_grass}"
            return f"Drew {drawn_words(state, action)}{for_space}"
        case PlaceLair():
            beast = head.beast if isinstance(head, PendingLair) else "a Beast"
            return f"Place the Lair of {beast} on {space_name(board, action.space)}"
        case TakeTrait():
            if action.row is not None and action.row < len(state.trait_row):
                return f"Take {trait_words(state.trait_row[action.row])} from the face-up row"
            if action.name:
                return f"Take {trait_words(action.name)} from the deck"
            return "Take the top Trait of the deck"
        case DiscardTrait():
            return f"Discard {trait_words(action.name)}"
        case EndTurn():
            return "End the turn and draw 1 card"
        case EndActionPhase():
            return "End the Action Phase now"
        case AgeScoring():
            gains = [
                f"{player_name(state, p)} {'gains' if g > 0 else 'loses'} {abs(g)} Gold"
                for p, g in enumerate(action.gold)
                if g
            ]
            return f"{age_label(state.age)} scoring: {words.and_list(gains) or 'nobody scores'}"
        case Harvest():
            text = f"Harvest {space_name(board, action.space)}"
            if not action.effects:
                return text
            effects = effects_words(state, action.effects, state.active, MOVEMENT_UNIT)
            return f"{text}: {effects}"
        case PassHarvest():
            return "Pass: no more harvesting this Age"
        case PickWinners():
            return winners_words(state, action.seats)
    return "That action"  # pragma: no cover - the shared actions are said before


def age_card_words(state: ColossiState, action: RevealAge) -> str:
    """ "Reveal Age I: Beast I and Beast I b, 3 rounds, Water on A1"; a card of the
    content file by its name; nothing entered with a content file: a drawn card."""
    age = age_label(state.age)
    content = state.options.content
    if action.card is not None:
        card = content.age(action.card) if content is not None else None
        return f"Reveal the Age card {card.name or card.id if card else action.card}"
    if not action.beasts and content is not None and content.ages:
        return f"Draw the Age card of {age}"
    named = f" ({action.name})" if action.name and action.name != age else ""
    rounds = action.rounds or state.options.rounds_per_age
    parts = [words.and_list(list(action.beasts)) or "no Beast", words.count(rounds, "round")]
    if state.age == 1 and state.options.centre_setup == "age1_lair" and action.beasts:
        centre = space_name(state.board, state.board.centre)
        parts.append(f"the Lair of {action.beasts[0]} on {centre}")  # CA-R01
    if action.water:
        parts.append(f"Water on {spaces_words(state.board, action.water)}")
    return f"Reveal {age}{named}: {', '.join(parts)}"


def drawn_words(state: ColossiState, action: DrawTile) -> str:
    """The tile players drew: "Grass with Gold", "the Lair of Beast II", "nothing"."""
    match action.kind:
        case "grass":
            return grass_words(action.loot)
        case "lair":
            beast = action.beast or (state.deck_lairs[0] if state.deck_lairs else "a Beast")
            return f"the Lair of {beast}"
        case "environment":
            return f"the Environment {action.name}" if action.name else "an Environment"
    return "nothing"


def ca_value_words(state: ColossiState, action_type: str, field: str, value: object) -> str | None:
    """Colossi's own coded values: a drawn tile's kind and Loot, a face-up Trait's row."""
    if action_type == "draw_tile" and field == "kind":
        return TILE_WORDS.get(value, "") if isinstance(value, str) else "the referee draws it"
    if field == "loot" and isinstance(value, str):
        return next((w for loot, w in LOOT_WORDS.items() if loot == value), None)
    if action_type == "take_trait" and field == "row":
        if isinstance(value, int) and 0 <= value < len(state.trait_row):
            return state.trait_row[value]
        return "the deck's top card" if value is None else None
    return None
