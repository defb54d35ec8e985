"""What the facts panel shows of a Builders of the Colossus game (companion.views).

One column per player (Runes, Parts cards in hand, Colossi built), then the shared facts:
the Colossi counter (BC-R01), the Parts deck, the turn and what was done in it, the
zero-Rune checks that may still end the game (BC-R10, BC-R11; none once it is over or
tied), a tie the players decide (BC-R12) and the last build.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion import words
from companion.games.builders.content import (
    BLUEPRINT_SLOTS,
    COLOSSI_TO_BUILD,
    CURSE_MAX,
    CURSE_MIN,
    parts_words,
)
from companion.games.builders.model import BuildersState, TurnMode
from companion.views import NO_CELLS, ActionCells, CardView, PanelRow, PanelView, cells_at

#: The phase of a turn in play, by its mode: nothing done yet, cursed (BC-R02), or
#: Trade/Draw/Reveal taken.
MODE_PHASES: dict[TurnMode, str] = {
    "open": "Curse, or gain cards",
    "curse": "cursed",
    "actions": "actions",
}
TIE_PHASE = "players decide the winner"  # BC-R12
OVER_PHASE = "over"


def builders_phase(state: BuildersState) -> str:
    """The step the game waits in, in words: the turn's mode, a tie to decide, or over."""
    if state.result is not None:
        return OVER_PHASE
    if state.tied:
        return TIE_PHASE
    return MODE_PHASES[state.mode]


def _turn_fact(state: BuildersState) -> str:
    if state.mode == "open":
        doing = MODE_PHASES["open"]
    elif state.mode == "curse":
        doing = "cursed this turn"
    else:
        used = ", ".join(a.capitalize() for a in state.actions_used) or "none yet"
        doing = f"actions used: {used}"
    return f"Turn {state.turn}: {doing}"


def builders_panel(state: BuildersState, turn: int | None) -> PanelView:
    """Runes, hand sizes and builds per player; the counter, the deck, the turn, the
    zero-Rune checks, a tie and the last build. ``turn`` is the rules' current player."""
    players = state.players
    rows = (
        PanelRow("Runes", tuple(str(r) for r in state.runes)),
        PanelRow("Hand", tuple(str(h) for h in state.hands)),
        PanelRow("Built", tuple(str(state.builds_by(seat)) for seat in range(len(players)))),
    )
    facts = [
        f"Colossi built: {state.built}/{COLOSSI_TO_BUILD}",  # BC-R01
        f"Parts deck: {words.count(state.deck, 'card')}",
        _turn_fact(state),
    ]
    if state.result is None and not state.tied:  # once the 10th is built, no check is due
        for seat, due in enumerate(state.zero_checks):
            if due is not None:  # BC-R10/BC-R11: a player at 0 Runes may win
                facts.append(f"{players[seat]} at 0 Runes: wins on turn {due} if still at 0")
    if state.tied:  # BC-R12
        facts.append("Tie: " + " or ".join(players[s] for s in state.tied) + " — you decide")
    if state.builds:
        last = state.builds[-1]
        if last.corrected:
            facts.append(f"Last build: {players[last.player]}, set by a correction")
        else:
            facts.append(
                f"Last build: {players[last.player]}, slot {last.slot}, "
                f"{words.count(last.rune_cost, 'Rune')}"
            )
    return PanelView(
        columns=players,
        rows=rows,
        facts=tuple(facts),
        turn=turn,
        phase=builders_phase(state),
    )


#: The keys of the cards laid out (:func:`builders_cards`): what a touch names.
STOCKPILE = "stockpile"
PARTS_DECK = "deck"


def slot_key(slot: int) -> str:
    """The key of Blueprint slot ``slot`` (1..3)."""
    return f"slot:{slot}"


def seat_key(seat: int) -> str:
    """The key of a player's place at the table: their Runes and Parts cards."""
    return f"seat:{seat}"


def _blueprint_lines(state: BuildersState, slot: int) -> tuple[str, ...]:
    """A face-up Blueprint as the table shows it (its name, cost and Parts with a
    Blueprint table, BC-R15; without one the referee only knows the cost's range)."""
    index = state.face_up[slot - 1] if state.blueprint_table else None
    if not state.blueprint_table:
        return ("face up", "cost 3–6 Runes")
    if index is None:
        return ("empty",)
    card = state.blueprint_table[index]
    return (card.name, words.count(card.rune_cost, "Rune"), parts_words(card.parts))


def builders_cards(state: BuildersState) -> tuple[CardView, ...]:
    """The table as it lies: the three face-up Blueprints, each player's Runes and Parts
    cards, the Rune stockpile (a Curse hands 1–4 out, BC-R09) and the Parts deck. The
    Colossi counter (BC-R01) is in the status line."""
    slots = tuple(
        CardView(slot_key(s), f"Blueprint {s}", _blueprint_lines(state, s))
        for s in range(1, BLUEPRINT_SLOTS + 1)
    )
    seats = tuple(
        CardView(
            seat_key(seat),
            name,
            (
                words.count(state.runes[seat], "Rune"),
                f"{words.count(state.hands[seat], 'card')} · built {state.builds_by(seat)}",
            ),
            seat=seat,
            hidden=state.hands[seat],  # a hand of Parts cards: counted, never seen
        )
        for seat, name in enumerate(state.players)
    )
    shared = (
        CardView(
            STOCKPILE, "Rune stockpile", ("Curse: hand out", f"{CURSE_MIN}–{CURSE_MAX} Runes")
        ),
        CardView(PARTS_DECK, "Parts deck", (words.count(state.deck, "card"),)),
    )
    return (*slots, *seats, *shared)


def builders_card_cells(payload: Mapping[str, Any]) -> ActionCells:
    """The cards a dumped action is about, as cells of the card layout (its first is
    where one touch plays it): a Curse the stockpile's (BC-R09), a Draw the deck's, a
    Trade or a Reveal the other player's, a Build its Blueprint's slot, a single
    winner the winner's place (BC-R12; a shared victory names none)."""
    kind = payload.get("type")
    if kind == "curse":
        return cells_at(STOCKPILE)
    if kind == "draw":
        return cells_at(PARTS_DECK)
    if kind == "trade":
        return cells_at(seat_key(int(payload["partner"])))
    if kind == "reveal":
        return cells_at(seat_key(int(payload["target"])))
    if kind == "build":
        return cells_at(slot_key(int(payload["slot"])))
    if kind == "pick_winner" and len(payload["seats"]) == 1:
        return cells_at(seat_key(int(payload["seats"][0])))
    return NO_CELLS


__all__ = [
    "MODE_PHASES",
    "OVER_PHASE",
    "PARTS_DECK",
    "STOCKPILE",
    "TIE_PHASE",
    "builders_card_cells",
    "builders_cards",
    "builders_panel",
    "builders_phase",
    "seat_key",
    "slot_key",
]
