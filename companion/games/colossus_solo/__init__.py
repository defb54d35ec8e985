"""Referee of *Colossus*, the solo card game (seed 003): Netophah climbs the Titan Og.

The app never sees the cards: their medallion layouts are only printed (CS-R12). It keeps
the bookkeeping the player would otherwise do by hand (the two trackers, how many Action
cards are where, the Colossus deck, the Final Blow) and resolves the Colossus card's four
lines from the stats the player reads off the Playing Area. Drawing is counted, not
simulated: the app says how many cards to draw and notices when the Action deck runs out,
because that costs a tracker level (CS-R03, CS-R04).

Colossus card values are entered when a card is revealed, or come from an optional
user-built card table (:func:`parse_card_table`); with a table the app keeps a virtual
Colossus deck and picks the Final Blow card with the state's own generator.

The "Colossus in Eden" mode and the video rules are not in the rule documents and are
not refereed (CS-R13).

Referee decision (no ruling covers it): when a card must be drawn and both the Action
deck and the discard pile are empty (only possible after many cards were destroyed),
nothing can be reshuffled, so the draw is skipped without a penalty.
"""

from __future__ import annotations

from companion.games.colossus_solo.model import (
    ColossusSoloAction,
    ColossusSoloOptions,
    ColossusSoloState,
)
from companion.games.colossus_solo.rules import RULES, ColossusSoloRules

__all__ = [
    "RULES",
    "ColossusSoloAction",
    "ColossusSoloOptions",
    "ColossusSoloRules",
    "ColossusSoloState",
]
