"""What the bots know of Builders of the Colossus: the evaluation, its reasons, the
seat's view.

The one place the bots import Builders (so a move of its modules is fixed here).

**The evaluation** (docs/bots.md has the table), for one seat; Builders is won by
getting rid of Runes (fewest when the 10th Colossus is built, or none at the start of
one's own turn):

* *Runes*: 2 per Rune the most dangerous rival (the one with the fewest) holds more
  than the seat, and 0.5 per Rune of the average rival's lead;
* *zero*: 30 for sitting at 0 Runes with the check pending (a win at the start of the
  next turn unless someone hands over a Rune), −30 per rival in that spot;
* *points*: 1 per Colossus the seat built (the tie-break, BC-R11/BC-R12);
* *hand*: 0.2 per Parts card held, and 1 per face-up Blueprint whose Parts the hand
  could cover by count (hand quality: the referee counts cards, never their faces).

**Deals:** a Trade is concluded by both players (BC-R07), so a bot offers only the
Trades its partner is not worse off by on the partner's own evaluation.

**Hidden information:** the referee never knows which Parts a hand holds (it counts
them), so no hand is there to hide; what a seat may not see is the Blueprint deck's
order and the referee's random stream. The view sorts the deck (its contents are public:
the table minus what was dealt) and replaces the stream; the Hard level samples orders.
"""

from __future__ import annotations

from typing import Any

from companion.bots.search import WIN, Terms, value_of
from companion.games.builders.model import (
    Build,
    BuildersState,
    Curse,
    Draw,
    EndTurn,
    PickWinner,
    Reveal,
    Trade,
)
from companion.rng import Rng
from companion.words import count

RIVAL = 2.0
AVERAGE_RIVAL = 0.5
ZERO = 30.0
BUILT = 1.0
CARD = 0.2
BUILDABLE = 1.0
HIDDEN_RNG = Rng(seed=0)
"""What the seat's view holds instead of the referee's stream."""


def _buildable(state: BuildersState, seat: int) -> int:
    """Face-up Blueprints whose Parts ``seat``'s hand could cover by count (the Runes
    are left out: keeping Runes to build with is never the goal)."""
    hand = state.hands[seat]
    if not state.blueprint_table:
        return sum(1 for _ in state.face_up) if hand >= 5 else 0
    return sum(
        1
        for index in state.face_up
        if index is not None and sum(state.blueprint_table[index].parts.values()) <= hand
    )


def _terms(state: BuildersState, seat: int) -> Terms:
    result = state.result
    if result is not None:
        if seat in result.winners:
            return {"result": WIN / len(result.winners)}
        return {"result": -WIN}
    rivals = [r for s, r in enumerate(state.runes) if s != seat]
    mine = state.runes[seat]
    zero = 0.0
    for s, due in enumerate(state.zero_checks):
        if due is not None and state.runes[s] == 0:
            zero += ZERO if s == seat else -ZERO
    return {
        "runes": RIVAL * (min(rivals) - mine) + AVERAGE_RIVAL * (sum(rivals) / len(rivals) - mine),
        "zero": zero,
        "points": BUILT * state.builds_by(seat),
        "hand": CARD * state.hands[seat] + BUILDABLE * _buildable(state, seat),
    }


class BuildersKnowledge:
    """The :class:`~companion.bots.search.Knowledge` of Builders."""

    def evaluate(self, state: Any, seat: int) -> Terms:
        return _terms(state, seat)

    def redact(self, state: Any, seat: int) -> Any:
        return state.evolve(
            {"rng": HIDDEN_RNG, "blueprint_deck": tuple(sorted(state.blueprint_deck))}
        )

    def determinise(self, view: Any, seat: int, rng: Rng) -> tuple[Any, Rng]:
        if len(view.blueprint_deck) < 2:
            return view, rng
        order, rng = rng.shuffle(view.blueprint_deck)
        return view.evolve({"blueprint_deck": order}), rng

    def quiet(self, state: Any) -> bool:
        return True  # every position between two actions is a resting one

    def shortlist(self, state: Any, actions: list[Any], limit: int) -> list[Any]:
        """The dearest builds and the fullest Curses (a quarter of ``limit`` each, at
        least 2), and every other action (Trades, Draw, Reveals, ending the turn)."""
        keep = max(2, limit // 4)
        builds = sorted((a for a in actions if isinstance(a, Build)), key=_promise)
        curses = sorted(
            (a for a in actions if isinstance(a, Curse)), key=lambda a: _curse_promise(state, a)
        )
        rest = [a for a in actions if not isinstance(a, Build | Curse)]
        return [*builds[:keep], *curses[:keep], *rest]

    def offers(self, state: Any, actions: list[Any]) -> list[Any]:
        """Every action but the Trades the partner would refuse (BC-R07: a Trade is a
        deal both conclude): one that leaves the partner worse off on its own evaluation
        — a Parts card for nothing, Runes handed to a rival waiting on its zero-Rune
        check. (Two bots that took such deals from each other turn after turn, a card or
        two Runes each way, never ended a game.)"""
        return [a for a in actions if not isinstance(a, Trade) or _accepted(state, a)]

    def reason(self, before: Any, action: Any, after: Any, horizon: Any, seat: int) -> str:
        """What the action itself does (a Builders plan is a list of such actions)."""
        return reason_text(before, action, after, seat)


def _accepted(state: BuildersState, trade: Trade) -> bool:
    """Whether ``trade``'s partner is not worse off by it, on its own evaluation."""
    partner = trade.partner
    hands, runes = list(state.hands), list(state.runes)
    hands[partner] += trade.cards_given - trade.cards_received
    runes[partner] += trade.runes_given - trade.runes_received
    me = state.current
    hands[me] += trade.cards_received - trade.cards_given
    runes[me] += trade.runes_received - trade.runes_given
    after = state.evolve({"hands": tuple(hands), "runes": tuple(runes)})
    return value_of(_terms(after, partner)) >= value_of(_terms(state, partner))


def _promise(action: Build) -> int:
    """Dearest first: a build seals its cost and Accessories."""
    return -(action.rune_cost or 0) - (action.accessories or 0) - len(action.parts or ())


def _curse_promise(state: BuildersState, action: Curse) -> tuple[int, int]:
    """Fewest Runes kept and most given first, the poorest rival's share breaking ties."""
    me = state.current
    poorest = min((s for s in range(len(state.runes)) if s != me), key=lambda s: state.runes[s])
    given = sum(action.runes) - action.runes[me]
    return (action.runes[me] - given, -action.runes[poorest])


def reason_text(before: BuildersState, action: Any, after: BuildersState, seat: int) -> str:
    """What the action does for the seat, in players' words."""
    names = before.players
    match action:
        case Build():
            sealed = after.sealed[seat] - before.sealed[seat]
            if after.result is not None and seat in after.result.winners:
                return f"builds the last Colossus and wins, sealing {count(sealed, 'Rune')}"
            return f"scores {count(sealed, 'point')}: seals {count(sealed, 'Rune')}"
        case Curse():
            given = [
                f"{names[s]} {count(amount, 'Rune')}"
                for s, amount in enumerate(action.runes)
                if s != seat and amount
            ]
            if not given:
                return "takes a Rune in a Curse to keep the turn short"
            return "curses: gives " + ", ".join(given)
        case Draw():
            return "draws a Parts card for the Blueprints"
        case Reveal():
            taken = before.runes[action.target] - after.runes[action.target]
            return f"takes {count(taken, 'Rune')} from {names[action.target]} in a Reveal"
        case Trade():
            return f"trades with {names[action.partner]} for a Parts card"
        case EndTurn():
            return "ends the turn: nothing more gains"
        case PickWinner():
            return "names the winner as the players agreed"
    return "keeps its position"  # pragma: no cover - every action is matched above
