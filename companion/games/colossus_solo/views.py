"""What the facts panel shows of a solo Colossus game (companion.views).

One column, the player's: the two trackers (CS-R01), the Colossus card being climbed
(k/11, never past 11), where the Action cards are, the Advanced deck. The shared facts:
the round and its step, the round's stats (CS-R02), the current Colossus card's values
(CS-R12), the Final Blow's numbers (CS-R05) and the cards destroyed (CS-R11).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import words
from companion.games.colossus_solo.content import COLOSSUS_CARDS, ColossusCard, Phase
from companion.games.colossus_solo.model import ColossusSoloState
from companion.views import NO_CELLS, ActionCells, CardView, PanelRow, PanelView, cells_at

#: Each step the game waits in, as a player reads it.
PHASES: dict[Phase, str] = {
    "colossus_card": "Colossus card values",
    "stats": "stats",
    "power": "Netophah's power",
    "power_card": "power card",
    "penalty": "deck penalty",
    "destroy": "destroy cards",
    "final_blow_values": "Final Blow values",
    "final_blow": "Final Blow",
    "over": "over",
}


def solo_phase(state: ColossusSoloState) -> str:
    """The step the game waits in, in words."""
    return PHASES[state.phase]


def card_text(card: ColossusCard) -> str:
    """A Colossus card's values, after its name when it has one."""
    described = card.describe()
    return f"{card.name}: {described}" if card.name else described


def colossus_solo_panel(state: ColossusSoloState, turn: int | None) -> PanelView:
    """Trackers, the card being climbed and the card counts; the round's step, stats,
    Colossus card, Final Blow and destroyed cards. ``turn`` is the rules' current player."""
    rows = (
        PanelRow("Weakness", (str(state.weakness),)),
        PanelRow("Grip", (str(state.grip),)),
        PanelRow("Card", (f"{state.card_number}/{COLOSSUS_CARDS}",)),
        PanelRow("Deck", (str(state.action_deck),)),
        PanelRow("Discard", (str(state.discard),)),
        PanelRow("In play", (str(state.playing_area),)),
        PanelRow("Hand", (str(state.hand),)),
        PanelRow("Advanced", (str(state.advanced_deck),)),
    )
    phase = solo_phase(state)
    facts = [f"Round {state.round}: {phase}"]
    if state.stats is not None:
        facts.append(f"Stats: {state.stats.describe()}")
    if state.current_card is not None:
        facts.append(f"Colossus card: {card_text(state.current_card)}")
    if state.final_blow is not None:
        fb = state.final_blow
        cards = words.count(fb.n_cards, "card")
        facts.append(f"Final Blow: {cards}, need Attack {fb.attack_req}, Grip {fb.grip_req}")
    if state.destroyed:
        facts.append(f"Cards destroyed: {state.destroyed}")
    return PanelView(
        columns=state.players,
        rows=rows,
        facts=tuple(facts),
        turn=turn,
        phase=phase,
    )


#: The keys of the cards laid out (:func:`colossus_solo_cards`): what a touch names.
COLOSSUS = "colossus"
WEAKNESS = "weakness"
GRIP = "grip"
HAND = "hand"
PLAYING_AREA = "playing_area"
ACTION_DECK = "deck"
FINAL_BLOW = "final_blow"


def colossus_solo_cards(state: ColossusSoloState) -> tuple[CardView, ...]:
    """The table as it lies: the Colossus card being climbed, the two trackers (CS-R01),
    the hand, the Playing Area whose medallions make the stats (CS-R02), the Action deck
    and discard, and the Final Blow (CS-R05)."""
    card = state.current_card
    climbed = f"Colossus {state.card_number}/{COLOSSUS_CARDS}"
    colossus = ("to reveal",) if card is None else _two_a_line(", ".join(card.printed()))
    if card is not None and card.name:
        colossus = (card.name, *colossus)
    blow = state.final_blow
    final = (
        ("at the top",)
        if blow is None
        else (words.count(blow.n_cards, "card"), f"Attack {blow.attack_req} · Grip {blow.grip_req}")
    )
    stats = ("no stats yet",) if state.stats is None else _two_a_line(state.stats.describe())
    return (
        CardView(COLOSSUS, climbed, colossus),
        CardView(WEAKNESS, "Weakness", (f"level {state.weakness}",)),
        CardView(GRIP, "Grip", (f"level {state.grip}",)),
        CardView(PLAYING_AREA, f"In play: {state.playing_area}", stats),
        CardView(HAND, "Hand", (words.count(state.hand, "card"),)),
        CardView(
            ACTION_DECK,
            "Action deck",
            (words.count(state.action_deck, "card"), f"{state.discard} discarded"),
        ),
        CardView(FINAL_BLOW, "Final Blow", final),
    )


def _two_a_line(described: str) -> tuple[str, ...]:
    """ "Attack 2, Grip 1, Bonus 0, Climb 3" as two lines of two, for a narrow card."""
    parts = described.split(", ")
    return tuple(" · ".join(parts[i : i + 2]) for i in range(0, len(parts), 2))


#: The solo game's actions by the card or tracker they are about (a power or a penalty
#: is paid on the tracker it costs, CS-R04).
_ACTION_CARDS: dict[str, str] = {
    "enter_colossus_card": COLOSSUS,
    "resolve_card": COLOSSUS,
    "enter_stats": PLAYING_AREA,
    "enter_medallions": PLAYING_AREA,
    "destroy_cards": PLAYING_AREA,
    "discard_power_card": HAND,
    "enter_final_blow": FINAL_BLOW,
}


def colossus_solo_card_cells(payload: Mapping[str, Any]) -> ActionCells:
    """The card or tracker a dumped action is about, as a cell of the card layout."""
    kind = str(payload.get("type"))
    if kind in ("use_power", "pay_penalty"):
        return cells_at(WEAKNESS if payload.get("pay") == "weakness" else GRIP)
    card = _ACTION_CARDS.get(kind)
    return NO_CELLS if card is None else cells_at(card)


__all__ = [
    "ACTION_DECK",
    "COLOSSUS",
    "FINAL_BLOW",
    "GRIP",
    "HAND",
    "PHASES",
    "PLAYING_AREA",
    "WEAKNESS",
    "card_text",
    "colossus_solo_card_cells",
    "colossus_solo_cards",
    "colossus_solo_panel",
    "solo_phase",
]
