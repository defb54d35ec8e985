"""Beast Master's arithmetic that the ruling tests leave open: what a Banner gives at
Rest, the order of the answers a Road chain waits for, the supplies running out mid-roll,
the end of the game clearing what still waits, the turn order after placing Colossi and
a tipped Colossus's control."""

from __future__ import annotations

from typing import Any

from companion.dice import Roll
from companion.games.island import beast_master as bm
from companion.games.island.beast_master import model as bmm
from companion.games.island.model import Move, PendingExplore, PendingLoot, Tile

from .helpers import beast_master, place

R = bm.RULES


def act(state: bm.BeastMasterState, *steps: Any) -> bm.BeastMasterState:
    for step in steps:
        state, _ = R.apply(state, step)
    return state


def resting(tiles: dict[str, Tile | None]) -> bm.BeastMasterState:
    """Ann rests with a Banner on each of ``tiles``' spaces."""
    state = place(beast_master(2), tiles=tiles)
    spaces = tuple(
        sp.model_copy(update={"banner": 0}) if sid in tiles else sp
        for sid, sp in zip(state.board.ids, state.spaces, strict=True)
    )
    return state.model_copy(
        update={
            "spaces": spaces,
            "banners_in_hand": (5 - len(tiles), 5),
            "phase": "resting",
            "rest_left": tuple(tiles),
        }
    )


def test_BM_R14_a_banner_without_a_tile_gives_nothing_and_comes_home() -> None:
    state = resting({"r1c1": None})
    after = act(state, bmm.CollectReward(space="r1c1"))
    assert (after.gold, after.cards_in_hand) == ((0, 0), (3, 3))
    assert after.banners_in_hand == (5, 5) and after.space("r1c1").banner is None
    assert after.phase == "choose" and after.active == 1


def test_an_environment_gives_what_is_entered_and_nothing_by_itself() -> None:
    """An Environment's Rest reward is printed on it and entered: the referee assumes
    nothing, even if the tile carries numbers."""
    state = resting({"r1c1": Tile(kind="environment", gold=3, cards=2)})
    plain = act(state, bmm.CollectReward(space="r1c1"))
    assert (plain.gold, plain.cards_in_hand) == ((0, 0), (3, 3))
    entered = act(state, bmm.CollectReward(space="r1c1", gold=2, cards=1))
    assert (entered.gold, entered.cards_in_hand) == ((2, 0), (4, 3))


def test_BM_R09_rest_goes_on_until_every_banner_is_collected() -> None:
    state = resting({"r1c1": Tile(kind="loot", gold=1), "r1c2": Tile(kind="loot", cards=1)})
    half = act(state, bmm.CollectReward(space="r1c1"))
    assert half.phase == "resting" and half.rest_left == ("r1c2",) and half.active == 0
    assert half.gold == (1, 0)
    done = act(half, bmm.CollectReward(space="r1c2"))
    assert done.phase == "choose" and done.active == 1 and done.rest_left == ()
    assert done.cards_in_hand == (4, 3) and done.banners_in_hand == (5, 5)


def test_BM_R03_after_the_last_colossus_is_placed_the_first_player_begins() -> None:
    state = beast_master(3, colossus_start="player_choice")
    state = act(
        state,
        bmm.PlaceColossus(space="r1c1"),
        bmm.PlaceColossus(space="r1c2"),
        bmm.PlaceColossus(space="r1c3"),
    )
    assert state.phase == "choose" and state.active == 0 and R.current_player(state) == 0


def chain(**options: Any) -> bm.BeastMasterState:
    """Ann's Colossus on B3 moves by Road through B2 (her Acolyte) to B1: both unexplored."""
    state = place(beast_master(2, **options), colossi={0: "r2c3"}, acolytes={"r2c2": {0: 1}})
    state = place(state, tiles={"r2c3": Tile(kind="environment")})
    state = state.model_copy(update={"phase": "actions", "movements_left": 4})
    path = ("r2c2", "r2c1")
    return act(state, Move(piece="colossus", origin="r2c3", to="r2c1", path=path))


def test_2_6_2_a_loot_found_on_the_way_is_entered_before_the_next_space_is_explored() -> None:
    state = act(chain(), Roll(values=(1,), source="manual"))
    assert state.pending == (
        PendingLoot(space="r2c2", player=0),
        PendingExplore(space="r2c1", player=0),
    )


def test_BM_R06_the_last_loot_token_is_found_when_environments_are_gone() -> None:
    state = act(chain(loot_tokens=1, environment_tiles=0), Roll(values=(6,), source="manual"))
    assert state.space("r2c2").tile == Tile(kind="loot")
    assert state.loot_left == 0
    # nothing is left for B1: it stays bare at once, after the Loot's reward is asked for
    assert state.pending == (PendingLoot(space="r2c2", player=0),)
    assert state.space("r2c1").tile == Tile(kind="bare")


def test_BM_R06_a_roll_waiting_when_both_supplies_are_gone_leaves_the_space_bare() -> None:
    """A loaded position still waiting on a roll though Loot and Environments are gone."""
    state = beast_master(2, loot_tokens=0, environment_tiles=0).model_copy(
        update={"pending": (PendingExplore(space="r2c2", player=0),)}
    )
    for face in (1, 6):
        after, events = R.apply(state, Roll(values=(face,), source="manual"))
        assert after.space("r2c2").tile == Tile(kind="bare") and after.pending == ()
        assert events[-1].text == ("B2 is explored: nothing (both supplies are exhausted, BM-R06).")


def test_BM_R16_the_end_of_the_game_leaves_nothing_waiting() -> None:
    """With the hand limit checked at the end of the turn, the last turn's oversized hand
    asks for no discard: the game is over."""
    state = beast_master(2, turns_per_player=1, hand_limit_check="end_of_turn").model_copy(
        update={
            "turns_taken": (1, 0),
            "turns_played": 1,
            "active": 1,
            "phase": "banners",
            "cards_in_hand": (3, 8),
        }
    )
    over = act(state, bmm.EndTurn())
    assert over.phase == "over" and over.pending == ()


def test_a_tipped_colossus_still_controls_its_space() -> None:
    """Beast Master never takes control from a tipped Colossus (only Colossi has that
    option): Ann may raise a Banner where her tipped Colossus stands alone."""
    state = place(beast_master(2), colossi={0: "r1c1", 1: "r5c5"}).model_copy(
        update={"tipped": (True, False), "phase": "banners"}
    )
    raised = act(state, bmm.PlaceBanner(space="r1c1"))
    assert raised.space("r1c1").banner == 0
