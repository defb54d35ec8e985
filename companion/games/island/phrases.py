"""The island games' phrasebook: what both Beast Master and Colossi say of an action, an
effect, a space or a piece, in the words players use at the table.

A space is named by the short label its board file gives it (:meth:`IslandBoard.label`,
the label the board draws: ``C3``), never by its ID (``r3c3``), which stays what the
protocol, the journal and the LEDs use. Counts are spelled by
:func:`companion.words.count`. The referee's :meth:`~.referee.IslandRules.describe`
answers the actions both games share here and hands the others to each game's own
phrasebook (``beast_master/phrases.py``, ``colossi/phrases.py``); event texts and
refusals name spaces and pieces with the same helpers.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import TypeAdapter, ValidationError

from companion import words

from .board import IslandBoard
from .content import Content
from .model import (
    OFF_BOARD,
    ApplyEffect,
    CardKind,
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    DrawCards,
    Effect,
    ExtraMovements,
    GainGold,
    GoldSource,
    GrassLoot,
    IslandState,
    KillAcolyte,
    Move,
    MoveBeast,
    MovePiece,
    PendingDiscard,
    PendingDisplace,
    PieceKind,
    PlaceCubes,
    PlaceWater,
    PlayCard,
    SeatRef,
    SetPerk,
    Spawn,
)

#: A piece kind as players say it.
PIECE_WORDS: dict[PieceKind, str] = {"colossus": "Colossus", "acolyte": "Acolyte"}
#: One piece of a kind, as the object of a sentence ("move the Colossus", "an Acolyte").
ONE_PIECE: dict[PieceKind, str] = {"colossus": "the Colossus", "acolyte": "an Acolyte"}
#: A card kind as printed on the cards (CA-R14).
CARD_KIND_WORDS: dict[CardKind, str] = {
    "action": "Action",
    "perk": "Perk",
    "divine_gift": "Divine Gift",
    "beast_master": "Beast Master",
    "beast": "Beast",
    "other": "other",
}
#: Where a change of Gold came from, as the log says it.
GOLD_SOURCE_WORDS: dict[GoldSource, str] = {
    "banner": "Banner",
    "kill": "kill",
    "gift": "Divine Gift",
    "harvest": "harvest",
    "age_scoring": "Age scoring",
    "effect": "effect",
    "correction": "correction",
}
#: What a Colossi Grass tile gives when harvested (its Loot), as the tile shows it.
LOOT_WORDS: dict[GrassLoot, str] = {
    "gold": "Gold",
    "cards": "a card",
    "trait": "a Trait",
    "none": "nothing",
}


def grass_words(loot: GrassLoot | None) -> str:
    """A Grass tile by its Loot: "Grass with Gold", "Grass" (no Loot)."""
    if loot is None or loot == "none":
        return "Grass"
    return f"Grass with {LOOT_WORDS[loot]}"


#: A seat reference of an effect that is not one seat.
SEAT_REF_WORDS = {"each": "each player", "others": "each other player"}


def capital(text: str) -> str:
    """``text`` with its first letter upper case (a clause made a sentence)."""
    return text[:1].upper() + text[1:]


def sentence(state: IslandState, clause: str) -> str:
    """A clause made a sentence: its first letter upper case, unless it starts with a
    player's name, which stays as the player wrote it ("ann gains 1 Gold")."""
    if any(clause.startswith(name) for name in state.players):
        return clause
    return capital(clause)


def space_name(board: IslandBoard, space: str) -> str:
    """A space as players read it: its board label; the edge's "off" is off the island."""
    return "off the island" if space == OFF_BOARD else board.label(space)


def spaces_words(board: IslandBoard, spaces: Sequence[str]) -> str:
    """Several spaces by their labels: ``A1, B2 and C3``."""
    return words.and_list([space_name(board, s) for s in spaces])


def way_words(board: IslandBoard, origin: str, to: str, path: Sequence[str] | None) -> str:
    """Where a move goes, from its start: "from C3 to B3", "from C3 to B4 via B3", a
    chain back to its start (BM-R17) "from C3 to C4 and back" (named by the space it
    passes through), "from C3 via C4 and D4 back to C3"; a chain back the referee
    picks, "from C3 and back"."""
    start, end = space_name(board, origin), space_name(board, to)
    if to != origin:
        if path is None or len(path) < 2:
            return f"from {start} to {end}"
        return f"from {start} to {end} via {spaces_words(board, path[:-1])}"
    if not path:
        return f"from {start} and back"
    via = path[:-1]
    if len(via) == 1:
        return f"from {start} to {space_name(board, via[0])} and back"
    return f"from {start} via {spaces_words(board, via)} back to {end}"


def onward_words(board: IslandBoard, path: Sequence[str]) -> str:
    """Where a spawned Acolyte steps on: "to C4", "to B4 via C4"."""
    text = f"to {space_name(board, path[-1])}"
    return f"{text} via {spaces_words(board, path[:-1])}" if len(path) > 1 else text


def card_words(kind: CardKind | None, name: str | None = None) -> str:
    """A card by its kind and name: "a Divine Gift card", "the Perk card Eagle Eye"."""
    if kind is None:
        return f"the card {name}" if name else "a card"
    printed = CARD_KIND_WORDS[kind]
    if name and name != printed:
        return f"the {printed} card {name}"
    if kind == "other":
        return "another card"  # a card of no printed kind: not "a other card"
    article = "an" if printed[0] in "AEIOU" else "a"
    return f"{article} {printed} card"


def reward_words(gold: int, cards: int) -> str:
    """A reward: "2 Gold and 1 card", "1 card", "nothing"."""
    parts = [f"{gold} Gold"] if gold else []
    parts += [words.count(cards, "card")] if cards else []
    return words.and_list(parts) or "nothing"


def player_name(state: IslandState, seat: int) -> str:
    """A seat as its player's name (a seat nobody holds as "player N")."""
    return state.players[seat] if 0 <= seat < len(state.players) else f"player {seat + 1}"


def seat_words(state: IslandState, who: SeatRef, actor: int) -> str:
    """An effect's seat: "self" is the acting player's name; "each player", "each other
    player"; a seat its player's name."""
    if who == "self":
        return player_name(state, actor)
    if isinstance(who, int):
        return player_name(state, who)
    return SEAT_REF_WORDS[who]


def _owner(state: IslandState, who: SeatRef, actor: int) -> str:
    """Whose piece: "Ann's", "each player's"."""
    return seat_words(state, who, actor) + "'s"


def effect_words(state: IslandState, effect: Effect, actor: int, unit: str) -> str:
    """One effect as a clause ("each player gains 1 Gold", "move the Beast to C4");
    ``actor`` is who "self" means, ``unit`` what a paid move is called."""
    board = state.board
    match effect:
        case MovePiece():
            verb = "push" if effect.push else "move"
            piece = f"{_owner(state, effect.who, actor)} {PIECE_WORDS[effect.piece]}"
            start = space_name(board, effect.origin)
            if effect.to == OFF_BOARD:
                return f"{verb} {piece} from {start} off the island"
            return f"{verb} {piece} from {start} to {space_name(board, effect.to)}"
        case MoveBeast():
            name = beast_name(state, effect.beast)
            at = next((b.space for b in state.beasts if b.name == name), None)
            start = f" from {space_name(board, at)}" if at is not None else ""
            return f"move {name}{start} to {space_name(board, effect.to)}"
        case KillAcolyte():
            whose = seat_words(state, effect.who, actor)
            acolytes = words.count(effect.count, "Acolyte")
            return f"kill {acolytes} of {whose} on {space_name(board, effect.space)}"
        case GainGold():
            who = seat_words(state, effect.who, actor)
            verb = "gains" if effect.amount >= 0 else "loses"
            return f"{who} {verb} {abs(effect.amount)} Gold"
        case DrawCards():
            who = seat_words(state, effect.who, actor)
            verb = "draws" if effect.amount >= 0 else "discards"
            return f"{who} {verb} {words.count(abs(effect.amount), 'card')}"
        case ExtraMovements():
            more = "more" if effect.amount >= 0 else "fewer"
            return f"{words.count(abs(effect.amount), f'{more} {unit}')} this turn"
        case SetPerk():
            whose = _owner(state, effect.who, actor)
            if effect.name is None:
                return f"remove {whose} Perk"
            return f"{whose} Perk becomes {effect.name}"
        case PlaceWater():
            if effect.on:
                return f"put Water on {space_name(board, effect.space)}"
            return f"take the Water off {space_name(board, effect.space)}"
        case PlaceCubes():
            cubes = words.count(abs(effect.amount), "Gold cube")
            if effect.amount >= 0:
                return f"put {cubes} on {space_name(board, effect.space)}"
            return f"take {cubes} off {space_name(board, effect.space)}"
    return "an effect"  # pragma: no cover - every effect is matched above


def effects_words(state: IslandState, effects: Sequence[Effect], actor: int, unit: str) -> str:
    """Several effects, in order: "each player gains 1 Gold; move the Beast to C4"."""
    return "; ".join(effect_words(state, e, actor, unit) for e in effects)


def beast_name(state: IslandState, name: str | None) -> str:
    """A Beast by its name; None is the island's only (or first) Beast."""
    if name is not None:
        return name
    return state.beasts[0].name if state.beasts else "the Beast"


def play_card_words(state: IslandState, action: PlayCard, actor: int, unit: str) -> str:
    """ "Play a Divine Gift card: each player gains 1 Gold"; a known card by its name."""
    kind, name, effects = action.kind, action.name, action.effects
    content: Content | None = getattr(getattr(state, "options", None), "content", None)
    known = content.card(action.card) if content is not None and action.card else None
    if known is not None:
        kind, name, effects = known.kind, known.name or known.id, known.effects
    elif action.card:
        name = action.card
    text = f"Play {card_words(kind, name)}"
    return f"{text}: {effects_words(state, effects, actor, unit)}" if effects else text


def move_words(state: IslandState, action: Move) -> str:
    """A paid move: "Move the Colossus from C3 to B3"; a chain back (BM-R17) by the
    space it passes through."""
    way = way_words(state.board, action.origin, action.to, action.path)
    return f"Move {ONE_PIECE[action.piece]} {way}"


def spawn_words(state: IslandState, action: Spawn) -> str:
    """ "Spawn an Acolyte on C3", "Spawn an Acolyte on C3 and move it to C4"."""
    col = state.colossi[state.active] if 0 <= state.active < len(state.colossi) else None
    if col is None:
        return "Spawn an Acolyte on your Colossus's space"
    board = state.board
    to = col if action.to is None else action.to
    text = f"Spawn an Acolyte on {space_name(board, col)}"
    if to == col and not action.path:
        return text
    return f"{text} and move it {onward_words(board, action.path or (to,))}"


def contents_words(state: IslandState, action: CorrectSpace) -> str:
    """What a corrected space holds: "Ann's Colossus and 2 Acolytes, 3 Gold cubes"."""
    parts = []
    for seat in range(len(state.players)):
        things = []
        if seat < len(action.colossi) and action.colossi[seat]:
            things.append("Colossus")
        if seat < len(action.acolytes) and action.acolytes[seat]:
            things.append(words.count(action.acolytes[seat], "Acolyte"))
        if things:
            parts.append(f"{player_name(state, seat)}'s {words.and_list(things)}")
    if action.cubes:
        parts.append(words.count(action.cubes, "Gold cube"))
    return ", ".join(parts) or "nobody and nothing"


def shared_words(state: IslandState, action: object, actor: int, unit: str) -> str | None:
    """The actions both island games share, in words (None: one of the game's own);
    ``actor`` is who an applied effect's "self" is (a card's is the active player)."""
    board = state.board
    head = state.pending[0] if state.pending else None
    match action:
        case Move():
            return move_words(state, action)
        case Spawn():
            return spawn_words(state, action)
        case DisplaceColossus():
            if isinstance(head, PendingDisplace):
                way = way_words(board, head.space, action.to, None)
                return f"Move {player_name(state, head.player)}'s Colossus {way}"
            return f"Move the Colossus to {space_name(board, action.to)}"
        case DiscardToLimit():
            if isinstance(head, PendingDiscard):
                extra = state.cards_in_hand[head.player] - 6
                if extra > 0:
                    return f"Discard {words.count(extra, 'card')} down to 6"
            return "Discard down to 6 cards"
        case ApplyEffect():
            text = sentence(state, effect_words(state, action.effect, actor, unit))
            if action.card_kind is None:
                return text
            return f"{text} (part of {card_words(action.card_kind)})"
        case PlayCard():
            return play_card_words(state, action, state.active, unit)
        case CorrectPlayer():
            name = player_name(state, action.player)
            cards = words.count(action.cards, "card")
            return f"Correct {name}: {action.gold} Gold, {cards} in hand"
        case CorrectSpace():
            return f"Correct {space_name(board, action.space)}: {contents_words(state, action)}"
        case CorrectMovements():
            return f"Correct: {words.count(action.movements, unit)} left this turn"
    return None


#: Fields naming one space, several spaces, one seat, and one number per seat.
SPACE_FIELDS = frozenset({"origin", "to", "space"})
SPACE_LIST_FIELDS = frozenset({"path", "water"})
SEAT_FIELDS = frozenset({"player", "who"})
PER_SEAT_FIELDS = frozenset({"acolytes", "colossi", "gold"})
#: What a field left out (None) means.
NONE_WORDS = {
    "path": "the safest way",
    "source": "as the card says",
    "cubes": "as they are",
    "gold": "as printed",
    "cards": "as printed",
    "kind": "not said",
    "rounds": "as the options say",
}
_EFFECT: TypeAdapter[Effect] = TypeAdapter(Effect)


def _effect(value: object) -> Effect | None:
    """An effect, or its JSON form (a form's payload), else None."""
    if isinstance(value, EFFECT_TYPES):
        return value
    try:
        return _EFFECT.validate_python(value) if isinstance(value, dict) else None
    except ValidationError:
        return None


def value_text(state: IslandState, field: str, value: object, unit: str) -> str | None:
    """A field's value in words where both games say it alike (None: no such field or
    value here): spaces by their labels, seats as names, pieces, card kinds, Gold's
    sources, effects; a number per seat as "Ann 2, Bob 0"; a field left out."""
    board = state.board
    if value is None:
        if field == "to":  # a spawn left on the Colossus's space
            col = state.colossi[state.active] if state.active < len(state.colossi) else None
            return space_name(board, col) if col is not None else "your Colossus's space"
        return beast_name(state, None) if field == "beast" else NONE_WORDS.get(field, "none")
    if isinstance(value, list | tuple):
        items = list(value)
        if field in SPACE_LIST_FIELDS:
            return spaces_words(board, [str(v) for v in items]) or "none"
        if field == "seats":
            return words.and_list([player_name(state, int(v)) for v in items]) or "nobody"
        if field in PER_SEAT_FIELDS:
            return ", ".join(f"{name} {v}" for name, v in zip(state.players, items, strict=False))
        if field == "effects":
            found = [e for e in map(_effect, items) if e is not None]
            return sentence(state, effects_words(state, found, state.active, unit)) or "none"
        return None
    if field == "effect":
        effect = _effect(value)
        return (
            None
            if effect is None
            else sentence(state, effect_words(state, effect, state.active, unit))
        )
    if isinstance(value, int) and not isinstance(value, bool) and field in SEAT_FIELDS:
        return player_name(state, value)
    if not isinstance(value, str):
        return None
    if not value.strip():
        return "none"
    if field in SPACE_FIELDS:
        return space_name(board, value)
    if field in SEAT_FIELDS and (value == "self" or value in SEAT_REF_WORDS):
        return seat_words(state, value, state.active)  # type: ignore[arg-type]
    named: dict[str, str] = {
        "piece": PIECE_WORDS.get(value, ""),  # type: ignore[call-overload]
        "kind": CARD_KIND_WORDS.get(value, ""),  # type: ignore[call-overload]
        "card_kind": CARD_KIND_WORDS.get(value, ""),  # type: ignore[call-overload]
        "source": GOLD_SOURCE_WORDS.get(value, ""),  # type: ignore[call-overload]
    }
    return named.get(field) or None


EFFECT_TYPES = (
    MovePiece,
    MoveBeast,
    KillAcolyte,
    GainGold,
    DrawCards,
    ExtraMovements,
    SetPerk,
    PlaceWater,
    PlaceCubes,
)


def winners_words(state: IslandState, seats: Sequence[int]) -> str:
    """The table's pick on a tie: "Ann wins", "Ann and Bob share the win"."""
    names = [player_name(state, s) for s in seats]
    if len(names) == 1:
        return f"{names[0]} wins"
    return f"{words.and_list(names)} share the win"


__all__ = [
    "CARD_KIND_WORDS",
    "GOLD_SOURCE_WORDS",
    "LOOT_WORDS",
    "ONE_PIECE",
    "PIECE_WORDS",
    "beast_name",
    "capital",
    "card_words",
    "effect_words",
    "effects_words",
    "grass_words",
    "move_words",
    "onward_words",
    "player_name",
    "reward_words",
    "seat_words",
    "sentence",
    "shared_words",
    "space_name",
    "spaces_words",
    "value_text",
    "way_words",
    "winners_words",
]
