"""The Builders of the Colossus phrasebook: each action as the rule book (seed 004) says it.

Players by name, Runes and Parts cards counted by :func:`companion.words.count`,
Blueprints by name or slot, the Rune stockpile and the Parts deck by their names.
``BuildersRules.describe`` and ``value_words`` read it; the family and field titles sit on
the action models.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.builders.blueprints import face_up_card
from companion.games.builders.content import (
    REVEAL_CARDS,
    REVEAL_RUNES,
    parts_words,
)
from companion.games.builders.model import (
    Build,
    BuildersAction,
    BuildersState,
    CorrectBuilt,
    CorrectHand,
    CorrectRunes,
    Curse,
    Draw,
    EndTurn,
    PickWinner,
    Reveal,
    Trade,
)
from companion.words import and_list, count

#: What a boolean field's two values mean, by the field's name.
_YES_NO: dict[str, tuple[str, str]] = {
    "take": ("take 1 card", "take none"),
    "no_build_possible": ("confirmed", "not confirmed"),
}

#: Fields that hold one seat, shown as the player's name.
_SEAT_FIELDS = ("partner", "target", "player")


def seat_name(state: BuildersState, seat: int) -> str:
    """A player's name; a seat the table does not have as "player N" (counted from 1),
    so the words of a malformed action still say something."""
    return state.players[seat] if 0 <= seat < len(state.players) else f"player {seat + 1}"


def _curse(state: BuildersState, action: Curse) -> str:
    """BC-R09: 1–4 Runes from the stockpile, at most 1 kept."""
    me = state.current
    head = f"Curse with {count(sum(action.runes), 'Rune')}"
    if len(action.runes) != len(state.players):
        return head
    given = [
        f"{amount} to {seat_name(state, seat)}"
        for seat, amount in enumerate(action.runes)
        if amount and seat != me
    ]
    said = []
    if action.runes[me]:
        said.append(f"keep {action.runes[me]}")
    if given:
        said.append("give " + and_list(given))
    return f"{head}: {', '.join(said)}" if said else head


def _goods(cards: int, runes: int) -> str:
    """What one side of a Trade hands over: "1 Parts card and 2 Runes", "nothing"."""
    goods = []
    if cards:
        goods.append(count(cards, "Parts card"))
    if runes:
        goods.append(count(runes, "Rune"))
    return and_list(goods) or "nothing"


def _trade(state: BuildersState, action: Trade) -> str:
    """BC-R08: the current player gets at least 1 Parts card."""
    return (
        f"Trade with {seat_name(state, action.partner)}: "
        f"get {_goods(action.cards_received, action.runes_received)}, "
        f"give {_goods(action.cards_given, action.runes_given)}"
    )


def reveal_runes(state: BuildersState, target: int) -> str:
    """Where a Reveal's 2 Runes come from (BC-R04 and its ``reveal_source`` option)."""
    name = seat_name(state, target)
    has = state.runes[target] if 0 <= target < len(state.runes) else 0
    taken = 0 if state.reveal_source == "stockpile" else min(REVEAL_RUNES, has)
    if taken == REVEAL_RUNES:
        return f"gain {count(REVEAL_RUNES, 'Rune')} from {name}"
    if taken == 0:
        return f"gain {count(REVEAL_RUNES, 'Rune')} from the stockpile"
    return f"gain {count(taken, 'Rune')} from {name} and {REVEAL_RUNES - taken} from the stockpile"


def _reveal(state: BuildersState, action: Reveal) -> str:
    """BC-R04, BC-R05: 2 Runes gained, 3 cards picked blind, 1 taken or none."""
    target = action.target
    hand = state.hands[target] if 0 <= target < len(state.hands) else 0
    shown = count(min(REVEAL_CARDS, hand), "Parts card")
    took = "take 1" if action.take else "take none"
    return (
        f"Reveal {seat_name(state, target)}'s hand: {reveal_runes(state, target)}, "
        f"see {shown}, {took}"
    )


def _build(state: BuildersState, action: Build) -> str:
    """BC-R15: the Blueprint by name (with a table) or by slot, the Runes sealed."""
    named = f" {action.colossus_name}" if action.colossus_name else ""
    slot = action.slot
    card = face_up_card(state, slot) if state.blueprint_table and 1 <= slot <= 3 else None
    if card is not None and action.parts is not None:
        total = card.rune_cost + action.parts.get("accessory", 0)
        return (
            f"Build{named} from {card.name} in slot {slot}: {parts_words(action.parts)}; "
            f"seal {count(total, 'Rune')}"
        )
    where = f"the Blueprint in slot {slot}"
    if action.blueprint:
        where = f"{action.blueprint} in slot {slot}"
    if action.rune_cost is None:
        laid = parts_words(action.parts) if action.parts is not None else "no Parts"
        return f"Build{named} from {where}: {laid}"
    accessories = action.accessories or 0
    cost = f"Rune Cost {action.rune_cost}"
    if accessories:
        cost += f" + {count(accessories, 'Accessory', 'Accessories')}"
    laid = (
        count(action.cards, "Parts card")
        if action.cards is not None
        else parts_words(action.parts or {})
    )
    sealed = count(action.rune_cost + accessories, "Rune")
    return f"Build{named} from {where}: {cost}, seal {sealed}, lay out {laid}"


def winners_words(state: BuildersState, seats: Sequence[int]) -> str:
    """The picked winners: "Ann wins", "Ann and Cleo share the victory" (BC-R12)."""
    names = and_list([seat_name(state, s) for s in seats]) or "nobody"
    return f"{names} share the victory" if len(seats) > 1 else f"{names} wins"


def describe(state: BuildersState, action: BuildersAction) -> str:
    """``action`` in the players' words (``Rules.describe``)."""
    match action:
        case Curse():
            return _curse(state, action)
        case Trade():
            return _trade(state, action)
        case Draw():
            return "Draw: take 1 Rune from the stockpile and 1 Parts card"
        case Reveal():
            return _reveal(state, action)
        case Build():
            return _build(state, action)
        case EndTurn():
            if action.no_build_possible:  # BC-R03 with forced_build
                return "End the turn: no Blueprint can be completed"
            return "End the turn"
        case PickWinner():
            return "Players decide: " + winners_words(state, action.seats)
        case CorrectRunes():
            return f"Set {seat_name(state, action.player)}'s Runes to {action.runes}"
        case CorrectHand():
            return (
                f"Set {seat_name(state, action.player)}'s hand to "
                f"{count(action.cards, 'Parts card')}"
            )
        case CorrectBuilt():
            return f"Set the Colossi built by {seat_name(state, action.player)} to {action.colossi}"
    return "Builders action"  # pragma: no cover - the union is exhaustive


def value_words(state: BuildersState, field: str, value: object) -> str:
    """One field's value as players say it (``Rules.value_words``): a seat as its
    player's name, Runes per player with the names, Parts by kind, a yes or no in the
    field's words."""
    if isinstance(value, bool):
        yes, no = _YES_NO.get(field, ("yes", "no"))
        return yes if value else no
    if value is None:
        return "not given"
    if field in _SEAT_FIELDS and isinstance(value, int):
        return seat_name(state, value)
    if field == "seats" and isinstance(value, tuple | list):
        return and_list([seat_name(state, int(s)) for s in value])
    if field == "runes" and isinstance(value, tuple | list):
        return ", ".join(f"{seat_name(state, s)} {n}" for s, n in enumerate(value))
    if field == "parts" and isinstance(value, Mapping):
        return parts_words({str(k): int(v) for k, v in value.items()})
    return str(value)
