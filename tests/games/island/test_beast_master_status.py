"""Beast Master as the screen says it: the status line of every phase and every pending
answer, the cells a Loot's reward lights, and the words of the rolls, Rests, Loot and
Banner rewards that the other tests leave out."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import Roll
from companion.games.island import beast_master as bm
from companion.games.island.beast_master import model as bmm
from companion.games.island.model import (
    PendingDiscard,
    PendingDisplace,
    PendingExplore,
    PendingLair,
    PendingLoot,
    Tile,
)
from companion.views import NO_CELLS, ActionCells

from .helpers import beast_master, place

R = bm.RULES


@pytest.mark.parametrize(
    ("update", "line"),
    [
        ({"phase": "place_colossus"}, "Turn 1/30 — Ann: place your Colossus"),
        ({"phase": "choose", "active": 1}, "Turn 1/30 — Bob: take Actions or Rest"),
        ({"phase": "actions", "movements_left": 3}, "Turn 1/30 — Ann: 3 Movements left"),
        ({"phase": "actions", "movements_left": 1}, "Turn 1/30 — Ann: 1 Movement left"),
        ({"phase": "banners"}, "Turn 1/30 — Ann: place Banners or end the turn"),
        ({"phase": "resting"}, "Turn 1/30 — Ann: collect your Banners' rewards"),
        ({"phase": "tie"}, "Turn 30/30 — Ann: pick the winner of the tie"),
        (
            {"pending": (PendingExplore(space="r2c2", player=1),)},
            "Turn 1/30 — Bob: roll the d6 to explore",
        ),
        (
            {"pending": (PendingLoot(space="r2c2", player=0),)},
            "Turn 1/30 — Ann: enter the Loot token's reward",
        ),
        (
            {"pending": (PendingDisplace(space="r3c3", player=1, reason="the Beast"),)},
            "Turn 1/30 — Bob: move your Colossus away from the Beast",
        ),
        (
            {"pending": (PendingDiscard(player=0),)},
            "Turn 1/30 — Ann: discard down to 6 cards",
        ),
        (
            {"pending": (PendingLair(beast="Wyrm", player=1),)},
            "Turn 1/30 — Bob: resolve",
        ),
        ({"turns_played": 10}, "Turn 11/30 — Ann: take Actions or Rest"),
    ],
)
def test_the_status_line_says_the_turn_who_and_what_is_asked(
    update: dict[str, Any], line: str
) -> None:
    if update.get("phase") == "tie":
        update = {**update, "turns_played": 30}
    state = beast_master(2).model_copy(update=update)
    assert R.status(state) == line


def test_BM_R16_the_turn_count_stops_at_the_last_turn() -> None:
    state = beast_master(3, turns_per_player=2).model_copy(
        update={"turns_played": 6, "phase": "tie"}
    )
    assert R.status(state) == "Turn 6/6 — Ann: pick the winner of the tie"


def test_BM_R15_a_loot_reward_lights_the_space_it_lies_on() -> None:
    state = beast_master(2).model_copy(update={"pending": (PendingLoot(space="r2c2", player=0),)})
    assert R.action_cells(state, bmm.EnterLoot(gold=1)) == ActionCells.at("r2c2")
    exploring = beast_master(2).model_copy(
        update={"pending": (PendingExplore(space="r2c2", player=0),)}
    )
    assert R.action_cells(exploring, bmm.EnterLoot(gold=1)) == NO_CELLS
    assert R.action_cells(beast_master(2), bmm.EnterLoot(gold=1)) == NO_CELLS


def test_a_roll_without_an_exploring_space_is_said_plainly() -> None:
    state = beast_master(2)
    assert R.describe(state, Roll()) == "Roll the d6"
    assert R.describe(state, Roll(values=(3,))) == "Rolled 3"
    loot = state.model_copy(update={"pending": (PendingLoot(space="r2c2", player=0),)})
    assert R.describe(loot, Roll()) == "Roll the d6"
    assert R.describe(loot, Roll(values=(3, 4))) == "Rolled 3, 4"


def test_resting_with_one_banner_out_collects_one() -> None:
    state = beast_master(2).model_copy(update={"banners_in_hand": (4, 5)})
    assert R.describe(state, bmm.Rest()) == "Rest and collect 1 Banner"


def test_BM_R15_a_loot_with_printed_text_is_said_with_it() -> None:
    state = beast_master(2).model_copy(update={"pending": (PendingLoot(space="r2c2", player=0),)})
    action = bmm.EnterLoot(gold=1, name="Ancient Coin")
    assert R.describe(state, action) == "The Loot on B2 gives 1 Gold (Ancient Coin)"


def resting(tiles: dict[str, Tile | None]) -> bm.BeastMasterState:
    return place(beast_master(2), tiles=tiles).model_copy(
        update={"phase": "resting", "rest_left": tuple(tiles)}
    )


def test_BM_R14_collecting_says_what_the_banner_gives() -> None:
    state = resting(
        {
            "r1c1": None,
            "r1c2": Tile(kind="environment"),
            "r1c3": Tile(kind="environment", gold=3, cards=2),
            "r1c4": Tile(kind="bare"),
        }
    )

    def said(space: str, **amounts: int) -> str:
        return R.describe(state, bmm.CollectReward(space=space, **amounts))

    assert said("r1c1") == "Collect the Banner on A1: nothing"
    assert said("r1c4") == "Collect the Banner on A4: nothing"
    assert said("r1c2") == "Collect the Banner on A2: nothing"
    # an Environment's reward is entered, never taken from the tile
    assert said("r1c3") == "Collect the Banner on A3: nothing"
    assert said("r1c2", gold=2) == "Collect the Banner on A2: 2 Gold"
    assert said("r1c2", cards=1) == "Collect the Banner on A2: 1 card"
    assert R.describe(state, bmm.CollectReward(space="nowhere")).endswith(": nothing")
