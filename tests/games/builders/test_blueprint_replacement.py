"""Step 6 of a build: the laid-out Parts go to the bottom of the deck and a new Blueprint
goes face up in the emptied slot, named when the game has a Blueprint table (BC-R15);
and how much random play wants each kind of action (builds first, so it ends)."""

from __future__ import annotations

from companion.events import TableChanges
from companion.games.builders import RULES
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
from companion.highlights import TableChange
from tests.helpers.builders import TABLE, new_game, with_builds

TO_BOTTOM = TableChange(step=1, cell="parts_deck", instruction="Laid-out Parts go to the bottom.")
FULL = {"head": 1, "leg": 2, "arm": 1}


def replacement(state: BuildersState, build: Build) -> tuple[BuildersState, TableChanges]:
    after, events = RULES.apply(state, build)
    tables = [e for e in events if isinstance(e, TableChanges)]
    assert [e.text for e in tables][1:] == ["Refill hands to 10 Parts cards."]  # BC-R06
    return after, tables[0]


def test_BC_R15_without_a_table_the_players_reveal_any_new_blueprint() -> None:
    _, changes = replacement(new_game(), Build(slot=2, rune_cost=3, cards=5))
    assert changes.text == "Replace the Blueprint in slot 2."
    assert changes.changes == (
        TO_BOTTOM,
        TableChange(step=2, cell="blueprint:2", instruction="Reveal a new Blueprint here."),
    )


def test_BC_R15_with_a_table_the_next_blueprint_of_the_deck_is_named_in_its_slot() -> None:
    state = new_game(blueprints=TABLE)
    for slot in (1, 2):
        after, changes = replacement(state, Build(slot=slot, parts=FULL))
        coming = state.blueprint_deck[0]
        assert after.face_up[slot - 1] == coming
        assert after.blueprint_deck == state.blueprint_deck[1:]
        assert changes.changes == (
            TO_BOTTOM,
            TableChange(
                step=2,
                cell=f"blueprint:{slot}",
                instruction=f"Reveal a new Blueprint here: {TABLE[coming]['name']}.",
            ),
        )


def test_BC_R15_when_the_blueprint_deck_has_run_out_the_slot_stays_empty() -> None:
    state = new_game(blueprints=TABLE).model_copy(update={"blueprint_deck": ()})
    after, changes = replacement(state, Build(slot=1, parts=FULL))
    assert after.face_up[0] is None and after.face_up[1:] == state.face_up[1:]
    assert changes.changes[-1] == TableChange(
        step=2, cell="blueprint:1", instruction="Reveal a new Blueprint here."
    )


def test_random_play_prefers_builds_then_ending_the_turn_then_draws() -> None:
    state = new_game()
    weights = {
        "build": RULES.interest(state, Build(slot=1, rune_cost=3, cards=5)),
        "end": RULES.interest(state, EndTurn()),
        "pick": RULES.interest(state, PickWinner(seats=(0,))),
        "draw": RULES.interest(state, Draw()),
        "reveal": RULES.interest(state, Reveal(target=1)),
        "trade": RULES.interest(state, Trade(partner=1, cards_received=1)),
        "curse": RULES.interest(state, Curse(runes=(0, 1, 0))),
    }
    assert weights == {
        "build": 400,
        "end": 20,
        "pick": 20,
        "draw": 10,
        "reveal": 3,
        "trade": 3,
        "curse": 1,
    }


def test_BC_R01_the_10th_colossus_replaces_no_blueprint() -> None:
    state = with_builds(new_game(blueprints=TABLE), *[1] * 9)
    after, events = RULES.apply(state, Build(slot=1, parts=FULL))
    assert RULES.outcome(after) is not None
    assert [e.text for e in events if isinstance(e, TableChanges)] == [
        "Refill hands to 10 Parts cards."
    ]
    assert (after.face_up, after.blueprint_deck) == (state.face_up, state.blueprint_deck)
