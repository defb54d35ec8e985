"""A companion seat's answer to a deal a person proposes to it.

A Builders Trade is a deal both players conclude (BC-R07): when a person at the table
offers one to a seat the companion plays, the companion answers as its bots choose
their own deals (:meth:`companion.bots.search.Knowledge.offers`), judged on what that
seat may see. A deal the companion refuses is not concluded, so it is not the person's
Trade action (BC-R07): they still Draw or Reveal, or offer another.

Not part of the bots' own games (a bot never asks another bot here: its offers already
leave out the refused deals), so the strength bench does not run it.
"""

from __future__ import annotations

from typing import Any

from companion.bots import knowledge_of, seat_view
from companion.games.builders.model import Trade
from companion.rules import AnyRules


def partner_of(action: object) -> int | None:
    """The seat whose yes ``action`` needs: a Builders Trade's partner (BC-R07); None
    for every other action (nobody else has a say in it)."""
    return action.partner if isinstance(action, Trade) else None


def declines(rules: AnyRules, state: Any, action: object) -> int | None:
    """The seat whose yes ``action`` needs when that seat, played by the companion,
    would refuse it: a deal that leaves it worse off on its own evaluation (BC-R07).
    None when the action needs nobody's yes or the seat would conclude it. The caller
    knows which seats the companion plays; this judges only the deal."""
    seat = partner_of(action)
    if seat is None:
        return None
    view = seat_view(rules, state, seat)
    return None if knowledge_of(rules).offers(view, [action]) else seat
