"""Builders manual corrections (RULINGS 0.2.1): one function per correction.

Each function checks one correction against the state, writes the corrected counts into
the turn's working copy and returns the state update it needs besides the working copy's,
and its log text; :meth:`BuildersRules._correct` dispatches to them and then lets the
usual checks run (BC-R06 refills, BC-R10 zero-Rune checks, the 10th Colossus).
"""

from __future__ import annotations

from typing import Any

from companion import words
from companion.games.builders.content import COLOSSI_TO_BUILD
from companion.games.builders.model import (
    BuildersState,
    BuildRecord,
    CorrectBuilt,
    CorrectHand,
    CorrectRunes,
)
from companion.games.builders.play import _Turn
from companion.games.corrections import (
    change_text,
    check_count,
    impossible,
    nothing_to_correct,
)


def _seat_name(state: BuildersState, seat: int) -> str:
    """The name of the corrected player, or a refusal when there is no such seat."""
    if not 0 <= seat < len(state.players):
        players = words.count(len(state.players), "player")
        raise impossible(f"There is no player {seat + 1}: the table has {players}.")
    return state.players[seat]


def correct_runes(
    state: BuildersState, action: CorrectRunes, work: _Turn
) -> tuple[dict[str, Any], str]:
    """A player's Runes; the difference is booked against the stockpile."""
    seat = action.player
    name = _seat_name(state, seat)
    check_count(action.runes, f"{name}'s Runes")
    before = state.runes[seat]
    if action.runes == before:
        raise nothing_to_correct(f"{name} already has {words.count(before, 'Rune')}")
    work.runes[seat] = action.runes
    fixes = list(state.rune_corrections or (0,) * len(state.players))
    fixes[seat] += action.runes - before
    text = f"{name}'s Runes {change_text(before, action.runes)} (stockpile)."
    return {"rune_corrections": tuple(fixes)}, text


def correct_hand(
    state: BuildersState, action: CorrectHand, work: _Turn
) -> tuple[dict[str, Any], str]:
    """A player's Parts cards in hand; the difference comes from (or goes to) the deck."""
    seat = action.player
    name = _seat_name(state, seat)
    check_count(action.cards, f"{name}'s Parts cards")
    before = state.hands[seat]
    if action.cards == before:
        raise nothing_to_correct(f"{name} already holds {words.count(before, 'Parts card')}")
    delta = action.cards - before
    if delta > state.deck:
        raise impossible(
            f"The Parts deck holds only {words.count(state.deck, 'card')}, so {name} cannot hold "
            f"{action.cards} (there are 135 Parts cards)."
        )
    work.hands[seat] = action.cards
    work.deck -= delta
    return {}, f"{name}'s Parts cards {change_text(before, action.cards)} (Parts deck)."


def correct_built(
    state: BuildersState, action: CorrectBuilt, work: _Turn
) -> tuple[dict[str, Any], str]:
    """The Colossi a player has built; never more than 10 in all (BC-R01)."""
    seat = action.player
    name = _seat_name(state, seat)
    before = state.builds_by(seat)
    check_count(action.colossi, f"Colossi built by {name}")
    if action.colossi == before:
        raise nothing_to_correct(
            f"{name} has already built {words.count(before, 'Colossus', 'Colossi')}"
        )
    total = state.built - before + action.colossi
    if total > COLOSSI_TO_BUILD:
        raise impossible(
            f"Only {COLOSSI_TO_BUILD} Colossi can be built; that would make {total}.",
            "BC-R01",
        )
    text = (
        f"Colossi built by {name} {change_text(before, action.colossi)} "
        f"(built {total}/{COLOSSI_TO_BUILD})."
    )
    return {"builds": _corrected_builds(state, seat, action.colossi)}, text


def _corrected_builds(state: BuildersState, seat: int, count: int) -> tuple[BuildRecord, ...]:
    """The build records with ``seat``'s count set: its latest ones are dropped, or
    correction records (no Blueprint, no Runes) are added."""
    builds = list(state.builds)
    have = state.builds_by(seat)
    while have > count:
        last = max(i for i, b in enumerate(builds) if b.player == seat)
        del builds[last]
        have -= 1
    for _ in range(count - have):
        builds.append(
            BuildRecord(
                player=seat,
                turn=state.turn,
                slot=None,
                blueprint=None,
                rune_cost=0,
                accessories=0,
                cards=0,
                corrected=True,
            )
        )
    return tuple(builds)
