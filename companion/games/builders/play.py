"""The working copy a turn changes: Runes, hands, the deck, and the refills (BC-R06)."""

from __future__ import annotations

from typing import Any

from companion import words
from companion.events import Event, TableChanges
from companion.games.builders.content import (
    HAND_MINIMUM,
)
from companion.games.builders.model import (
    BuildersState,
    PartsMoved,
    RunesMoved,
)
from companion.highlights import TableChange

# --- the referee --------------------------------------------------------------------


class _Turn:
    """A mutable scratch copy of the state used while one action is applied."""

    def __init__(self, state: BuildersState) -> None:
        self.state = state
        self.runes = list(state.runes)
        self.hands = list(state.hands)
        self.deck = state.deck
        self.from_stockpile = list(state.from_stockpile)
        self.sealed = list(state.sealed)
        self.events: list[Event] = []

    def name(self, seat: int) -> str:
        return self.state.players[seat]

    def move_runes(self, giver: int | None, receiver: int | None, amount: int) -> None:
        if amount <= 0:
            return
        if giver is None:
            assert receiver is not None
            self.from_stockpile[receiver] += amount
            text = f"{self.name(receiver)} takes {words.count(amount, 'Rune')} from the stockpile."
        else:
            self.runes[giver] -= amount
        if receiver is None:
            assert giver is not None
            self.sealed[giver] += amount
            text = f"{self.name(giver)} seals {words.count(amount, 'Rune')} into the stockpile."
        else:
            self.runes[receiver] += amount
            if giver is not None:
                runes = words.count(amount, "Rune")
                text = f"{self.name(giver)} gives {runes} to {self.name(receiver)}."
        self.events.append(RunesMoved(text=text, giver=giver, receiver=receiver, amount=amount))

    def move_parts(self, giver: int | None, receiver: int | None, count: int) -> None:
        if count <= 0:
            return
        if giver is None:
            self.deck -= count
        else:
            self.hands[giver] -= count
        if receiver is None:
            self.deck += count
        else:
            self.hands[receiver] += count
        cards = words.count(count, "Parts card")
        if giver is None:
            assert receiver is not None
            text = f"{self.name(receiver)} takes {cards} from the Parts deck."
        elif receiver is None:
            text = f"{self.name(giver)} puts {cards} at the bottom of the Parts deck."
        else:
            text = f"{self.name(giver)} gives {cards} to {self.name(receiver)}."
        self.events.append(PartsMoved(text=text, giver=giver, receiver=receiver, count=count))

    def refill(self) -> None:
        """BC-R06/BC-R14: every short hand draws up to 10, current player first."""
        n = len(self.hands)
        changes: list[TableChange] = []
        for offset in range(n):
            seat = (self.state.current + offset) % n
            short = HAND_MINIMUM - self.hands[seat]
            count = min(short, self.deck)
            if count <= 0:
                continue
            self.deck -= count
            self.hands[seat] += count
            self.events.append(
                PartsMoved(
                    text=f"{self.name(seat)} refills: draws {words.count(count, 'Parts card')}.",
                    giver=None,
                    receiver=seat,
                    count=count,
                    refill=True,
                )
            )
            changes.append(
                TableChange(
                    step=len(changes) + 1,
                    cell=f"hand:{seat}",
                    instruction=f"{self.name(seat)} draws {words.count(count, 'Parts card')} "
                    f"to hold {HAND_MINIMUM}.",
                )
            )
        if changes:
            self.events.append(
                TableChanges(
                    text=f"Refill hands to {HAND_MINIMUM} Parts cards.", changes=tuple(changes)
                )
            )

    def update(self) -> dict[str, Any]:
        return {
            "runes": tuple(self.runes),
            "hands": tuple(self.hands),
            "deck": self.deck,
            "from_stockpile": tuple(self.from_stockpile),
            "sealed": tuple(self.sealed),
        }
