"""The solo Colossus phrasebook: each action as the rule book (seed 003) says it.

Cards, trackers and levels by their names on the cards (Colossus card, Final Blow card,
Action card, Weakness and Grip), the stats by their medallions (Attack, Grip, Bonus,
Climb), counts spelled by :func:`companion.words.count`. ``ColossusSoloRules.describe``
and ``value_words`` read it; the family and field titles sit on the action models.
"""

from __future__ import annotations

from companion.games.colossus_solo.content import (
    LINES,
    TRACKER_MIN,
    ColossusCard,
    ColossusLine,
    Payment,
)
from companion.games.colossus_solo.model import (
    ColossusSoloAction,
    ColossusSoloState,
    CorrectCards,
    CorrectColossusCard,
    CorrectFinalBlow,
    CorrectPower,
    CorrectTrackers,
    DestroyCards,
    DiscardPowerCard,
    EnterColossusCard,
    EnterFinalBlow,
    EnterMedallions,
    EnterStats,
    PayPenalty,
    ResolveCard,
    Stats,
    UsePower,
)
from companion.words import count

#: What a boolean field's two values mean, by the field's name.
_YES_NO: dict[str, tuple[str, str]] = {
    "used": ("used", "not used"),
    "destroy": ("destroy icon", "no icon"),
}


def tracker_name(tracker: Payment) -> str:
    """ "Weakness" or "Grip", as the Tracker cards say."""
    return tracker.capitalize()


def level_lost(state: ColossusSoloState, tracker: Payment) -> str:
    """One level lost, with where the tracker goes: "lose 1 Weakness level (3 → 2)";
    Grip below 1 is the fall (CS-R01)."""
    level = state.weakness if tracker == "weakness" else state.grip
    lost = f"lose 1 {tracker_name(tracker)} level"
    if level <= TRACKER_MIN:
        return f"{lost} (Netophah falls)" if tracker == "grip" else lost
    return f"{lost} ({level} → {level - 1})"


def final_blow_words(n_cards: int, grip_req: int, attack_req: int) -> str:
    """The Final Blow card's three numbers (CS-R05)."""
    deck = count(n_cards, "Action card")
    return f"a deck of {deck}, Attack {attack_req} and Grip {grip_req} to reach"


def _medallions(positive: Stats, negative: Stats) -> str:
    """Positives less negatives per medallion, never below 0 (CS-R02)."""
    parts = []
    for name in LINES:
        plus, minus = positive.of(name), negative.of(name)
        label = name.capitalize()
        if minus:
            parts.append(f"{label} {plus} − {minus} = {max(0, plus - minus)}")
        else:
            parts.append(f"{label} {plus}")
    return ", ".join(parts)


def _stats(state: ColossusSoloState, action: EnterStats | EnterMedallions) -> str:
    """Stats entered: for the round, for the power's card, or a Final Blow card."""
    if isinstance(action, EnterStats):
        shown = Stats(
            attack=action.attack, grip=action.grip, bonus=action.bonus, climb=action.climb
        ).describe()
        head = "Visible stats"
    else:
        shown = _medallions(action.positive, action.negative)
        head = "Visible medallions"
    values = state.final_blow
    if state.phase == "final_blow" and values is not None and isinstance(action, EnterStats):
        # Bonus and Climb count for nothing in the Final Blow (seed 003).
        return (
            f"Place Final Blow card {state.playing_area + 1}: Attack {action.attack} of "
            f"{values.attack_req}, Grip {action.grip} of {values.grip_req}"
        )
    if state.phase == "final_blow":
        return f"Place Final Blow card {state.playing_area + 1}: {shown}"
    if state.phase == "power_card":
        return f"Place the power's card: {shown}"
    return f"{head}: {shown}"


def _card_counts(state: ColossusSoloState, action: CorrectCards) -> str:
    counts = [
        ("Action deck", action.action_deck),
        ("discard pile", action.discard),
        ("Playing Area", action.playing_area),
        ("cards in hand", action.hand),
        ("destroyed cards", action.destroyed),
    ]
    if action.final_blow_deck or state.phase == "final_blow":
        counts.append(("Final Blow deck", action.final_blow_deck))
    counts.append(("Advanced cards added", action.advanced_added))
    return ", ".join(f"{label} {value}" for label, value in counts)


def describe(state: ColossusSoloState, action: ColossusSoloAction) -> str:
    """``action`` in the player's words (``Rules.describe``)."""
    match action:
        case EnterColossusCard():
            return (
                f"Colossus card {state.card_number}{_named(action.card)}: {action.card.describe()}"
            )
        case EnterStats() | EnterMedallions():
            return _stats(state, action)
        case UsePower():
            return f"Use Netophah's power: {level_lost(state, action.pay)} and draw 1 Action card"
        case DiscardPowerCard():
            return "Discard the power's card unplayed"
        case ResolveCard():
            return f"Resolve Colossus card {state.card_number}"
        case PayPenalty():
            return f"Depleted deck: {level_lost(state, action.pay)}"
        case DestroyCards():
            if action.count == 0:
                return "Destroy no card"
            return f"Destroy {count(action.count, 'card')} of the Playing Area"
        case EnterFinalBlow():
            return "Final Blow card: " + final_blow_words(
                action.n_cards, action.grip_req, action.attack_req
            )
        case CorrectTrackers():
            return f"Set the trackers: Weakness {action.weakness}, Grip {action.grip}"
        case CorrectCards():
            return "Set the card counts: " + _card_counts(state, action)
        case CorrectPower():
            used = "used" if action.used else "unused"
            return f"Mark Netophah's power {used} this round"
        case CorrectColossusCard():
            return f"Set the Colossus card{_named(action.card)}: {action.card.describe()}"
        case CorrectFinalBlow():
            return "Set the Final Blow card: " + final_blow_words(
                action.n_cards, action.grip_req, action.attack_req
            )
    return "Colossus action"  # pragma: no cover - the union is exhaustive


def _named(card: ColossusCard) -> str:
    return f", {card.name}" if card.name else ""


def value_words(field: str, value: object) -> str:
    """One field's value as the player says it (``Rules.value_words``): a tracker by
    its name, an icon or the power in words, a blank line as blank, a card or stats by
    their lines. ``field`` may be a path into a card ("card.attack.destroy")."""
    name = field.rpartition(".")[2]
    if isinstance(value, bool):
        yes, no = _YES_NO.get(name, ("yes", "no"))
        return yes if value else no
    if value is None:
        return "blank"
    if name == "pay" and value in ("weakness", "grip"):
        return str(value).capitalize()
    if isinstance(value, ColossusCard):
        return value.describe()
    if isinstance(value, ColossusLine):
        return value.words()
    if isinstance(value, Stats):
        return value.describe()
    return str(value)
