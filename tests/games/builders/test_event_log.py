"""Every event of a Build, a Trade with Runes both ways, a Reveal of a player short of
Runes and the end of a turn, in order, word for word: what the log, the export and the
fix-the-table steps are made of (BC-R04, BC-R06, BC-R10, BC-R13, BC-R15)."""

from __future__ import annotations

from companion.events import TableChanges
from companion.games.builders import RULES
from companion.games.builders.model import (
    ActionTaken,
    Build,
    BuildRecord,
    ColossusBuilt,
    Draw,
    EndTurn,
    PartsMoved,
    Reveal,
    RunesMoved,
    Trade,
    TurnStarted,
    ZeroCheck,
)
from companion.highlights import TableChange
from tests.helpers.builders import act, new_game, with_runes


def refill(seat: int, name: str, count: int) -> tuple[PartsMoved, TableChanges]:
    cards = f"{count} Parts card" + ("s" if count > 1 else "")
    return (
        PartsMoved(
            text=f"{name} refills: draws {cards}.",
            giver=None,
            receiver=seat,
            count=count,
            refill=True,
        ),
        TableChanges(
            text="Refill hands to 10 Parts cards.",
            changes=(
                TableChange(
                    step=1, cell=f"hand:{seat}", instruction=f"{name} draws {cards} to hold 10."
                ),
            ),
        ),
    )


def test_BC_R15_a_build_seals_its_runes_and_returns_its_cards() -> None:
    _, events = RULES.apply(new_game(), Build(slot=1, rune_cost=4, accessories=1, cards=6))
    record = BuildRecord(
        player=0, turn=1, slot=1, blueprint=None, rune_cost=4, accessories=1, cards=6
    )
    assert events == (
        ColossusBuilt(
            text="Ann builds a Colossus from the Blueprint in slot 1: 1/10 built.",
            record=record,
            built=1,
        ),
        RunesMoved(text="Ann seals 5 Runes into the stockpile.", giver=0, receiver=None, amount=5),
        PartsMoved(
            text="Ann puts 6 Parts cards at the bottom of the Parts deck.",
            giver=0,
            receiver=None,
            count=6,
        ),
        TableChanges(
            text="Replace the Blueprint in slot 1.",
            changes=(
                TableChange(
                    step=1, cell="parts_deck", instruction="Laid-out Parts go to the bottom."
                ),
                TableChange(step=2, cell="blueprint:1", instruction="Reveal a new Blueprint here."),
            ),
        ),
        *refill(0, "Ann", 6),
    )


def test_BC_R13_a_trade_moves_cards_and_runes_both_ways() -> None:
    trade = Trade(partner=1, cards_received=1, runes_given=2, runes_received=1)
    after, events = RULES.apply(new_game(), trade)
    assert events == (
        ActionTaken(text="Ann trades with Bob.", player=0, action="trade"),
        PartsMoved(text="Bob gives 1 Parts card to Ann.", giver=1, receiver=0, count=1),
        RunesMoved(text="Bob gives 1 Rune to Ann.", giver=1, receiver=0, amount=1),
        RunesMoved(text="Ann gives 2 Runes to Bob.", giver=0, receiver=1, amount=2),
        *refill(1, "Bob", 1),
    )
    assert (after.runes, after.hands, after.deck) == ((9, 11, 10), (11, 10, 10), 104)
    assert (after.from_stockpile, after.sealed) == ((0, 0, 0), (0, 0, 0))


def test_BC_R04_BC_R10_a_reveal_takes_the_last_rune_and_sets_a_zero_check() -> None:
    state = with_runes(new_game(), 10, 1, 10)
    after, events = RULES.apply(state, Reveal(target=1, take=True))
    assert events == (
        ActionTaken(
            text="Ann reveals 3 Parts cards from Bob's hand and takes one.",
            player=0,
            action="reveal",
        ),
        RunesMoved(text="Bob gives 1 Rune to Ann.", giver=1, receiver=0, amount=1),
        RunesMoved(text="Ann takes 1 Rune from the stockpile.", giver=None, receiver=0, amount=1),
        PartsMoved(text="Bob gives 1 Parts card to Ann.", giver=1, receiver=0, count=1),
        *refill(1, "Bob", 1),
        ZeroCheck(
            text="Bob has 0 Runes: they win if they still have 0 at the start of turn 2.",
            player=1,
            result="set",
            due_turn=2,
        ),
    )
    assert (after.runes, after.from_stockpile, after.sealed) == (
        (12, 0, 10),
        (1, 0, 0),
        (0, 9, 0),
    )
    assert after.zero_checks == (None, 2, None)


def test_the_end_of_a_turn_starts_the_next_player_s() -> None:
    after, events = RULES.apply(act(new_game(), Draw()), EndTurn())
    assert events == (TurnStarted(text="Turn 2: Bob to play.", player=1, turn=2),)
    assert (after.current, after.turn, after.mode, after.actions_used) == (1, 2, "open", ())
