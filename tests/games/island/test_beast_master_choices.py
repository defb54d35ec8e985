"""What Beast Master offers at each moment, exactly: the answers to the explore roll and
a Loot token, the Colossus placements, the table's picks on a tie, the sampled card plays
and Banner rewards, the bot's preferences, the dice request and the buttons' roles."""

from __future__ import annotations

from typing import Any

from companion.dice import Roll
from companion.games.island import beast_master as bm
from companion.games.island.beast_master import model as bmm
from companion.games.island.model import (
    GainGold,
    Move,
    MoveBeast,
    PendingExplore,
    PendingLoot,
    PlayCard,
    Spawn,
    Tile,
)
from companion.rules import ActionRole

from .helpers import beast_master, explored, place

R = bm.RULES


def legal(state: bm.BeastMasterState, kind: type[Any] | None = None) -> list[Any]:
    return [a for a in R.legal_actions(state) if kind is None or isinstance(a, kind)]


def test_2_6_2_an_explore_roll_is_a_software_roll_or_any_face_entered() -> None:
    state = beast_master(2).model_copy(
        update={"pending": (PendingExplore(space="r2c2", player=1),)}
    )
    assert legal(state) == [Roll()] + [
        Roll(values=(face,), source="manual") for face in range(1, 7)
    ]


def test_BM_R15_a_loot_reward_is_offered_as_0_to_3_gold_and_0_to_2_cards() -> None:
    state = beast_master(2).model_copy(update={"pending": (PendingLoot(space="r2c2", player=0),)})
    assert legal(state) == [
        bmm.EnterLoot(gold=gold, cards=cards) for gold in range(4) for cards in range(3)
    ]


def test_BM_R03_player_choice_offers_every_space_but_water() -> None:
    state = place(beast_master(2, colossus_start="player_choice"), water=["r1c1", "r5c5"])
    spaces = [a.space for a in legal(state)]
    assert spaces == [s for s in state.board.ids if s not in ("r1c1", "r5c5")]


def test_BM_R12_manual_tie_offers_the_shared_win_then_each_tied_player() -> None:
    state = beast_master(3, tie_policy="manual").model_copy(
        update={"phase": "tie", "gold": (4, 2, 4)}
    )
    assert legal(state) == [
        bmm.PickWinners(seats=(0, 2)),
        bmm.PickWinners(seats=(0,)),
        bmm.PickWinners(seats=(2,)),
    ]


def actions_turn(movements: int = 4, cards: int = 3) -> bm.BeastMasterState:
    state = explored(beast_master(2)).model_copy(
        update={"phase": "actions", "movements_left": movements, "cards_in_hand": (cards, 3)}
    )
    return place(state, water=["r2c3"])


def test_the_last_movement_and_the_last_card_can_still_be_used() -> None:
    one_each = actions_turn(movements=1, cards=1)
    assert legal(one_each, Move) and legal(one_each, Spawn)
    assert legal(one_each, PlayCard)
    spent = actions_turn(movements=0, cards=0)
    assert legal(spent) == [bmm.EndActions()]


def test_the_sampled_card_plays_move_the_beast_only_onto_land() -> None:
    """Card texts are unknown, so a few representative plays are listed: an Action, a
    Perk, a Divine Gift (each player gains 1 Gold) and the Beast to each land neighbour."""
    state = actions_turn()
    beast = state.beasts[0].space
    land = [s for s in state.board.adjacent(beast) if not state.space(s).water]
    assert "r2c3" in state.board.adjacent(beast) and "r2c3" not in land
    assert legal(state, PlayCard) == [
        PlayCard(kind="action"),
        PlayCard(kind="perk", name="Perk"),
        PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=1),)),
        *(PlayCard(kind="beast_master", effects=(MoveBeast(to=s),)) for s in land),
    ]
    no_beast = state.model_copy(update={"beasts": ()})
    assert all(p.kind != "beast_master" for p in legal(no_beast, PlayCard))


def test_BM_R14_rest_offers_a_loot_as_printed_and_an_environment_as_entered() -> None:
    tiles = {
        "r1c1": Tile(kind="loot", gold=2),
        "r1c2": Tile(kind="environment"),
        "r1c3": None,
    }
    state = place(beast_master(2), tiles=tiles).model_copy(
        update={"phase": "resting", "rest_left": ("r1c1", "r1c2", "r1c3")}
    )
    assert legal(state) == [
        bmm.CollectReward(space="r1c1"),
        bmm.CollectReward(space="r1c2"),
        bmm.CollectReward(space="r1c2", gold=2, cards=0),
        bmm.CollectReward(space="r1c2", gold=0, cards=1),
        bmm.CollectReward(space="r1c3"),
    ]


def test_a_bot_prefers_banners_then_ending_spent_actions_then_rest_by_banners_out() -> None:
    """The weights random play (the demo, the property tests) picks actions by."""
    state = beast_master(2)
    weight = R.interest
    assert weight(state, bmm.PlaceBanner(space="r1c1")) == 30
    assert weight(state, bmm.Rest()) == 1  # no Banner out
    two_out = state.model_copy(update={"banners_in_hand": (3, 5)})
    assert weight(two_out, bmm.Rest()) == 9
    assert weight(state, Move(piece="colossus", origin="r3c3", to="r2c3")) == 3
    assert weight(state, Spawn()) == 3
    assert weight(state, PlayCard(kind="action")) == 4
    moving = state.model_copy(update={"phase": "actions", "movements_left": 1})
    assert weight(moving, bmm.EndActions()) == 1
    assert weight(moving.model_copy(update={"movements_left": 0}), bmm.EndActions()) == 20
    assert weight(state, bmm.TakeActions()) == 1
    assert weight(state, bmm.EndTurn()) == 1


def test_2_6_2_the_explore_roll_is_asked_of_the_explorer() -> None:
    state = beast_master(2).model_copy(
        update={"pending": (PendingExplore(space="r2c4", player=1),)}
    )
    request = R.dice_request(state)
    assert request is not None
    assert (request.purpose, request.count, request.sides, request.player) == ("explore", 1, 6, 1)
    assert R.dice_request(beast_master(2)) is None


def test_the_table_buttons_find_beast_masters_actions_by_role() -> None:
    assert R.action_role("end_turn") == ActionRole.END_TURN
    assert R.action_role("end_actions") == ActionRole.END_PHASE
    assert R.action_role("enter_loot") == ActionRole.ENTRY
    assert R.action_role("spawn") == ActionRole.PLACE
    assert R.action_role("roll") == ActionRole.ROLL
    assert R.action_role("take_actions") is None


def test_gold_is_booked_under_the_turn_it_was_won_in() -> None:
    state = beast_master(2).model_copy(update={"turns_played": 4})
    loot = place(state, tiles={"r1c1": Tile(kind="loot", gold=2)})
    resting = loot.model_copy(
        update={"phase": "resting", "rest_left": ("r1c1",), "banners_in_hand": (4, 5)}
    )
    gained, _ = R.apply(resting, bmm.CollectReward(space="r1c1"))
    assert [(e.player, e.amount, e.label) for e in gained.ledger] == [(0, 2, "Turn 5")]
