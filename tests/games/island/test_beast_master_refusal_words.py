"""Beast Master's refusals and log lines, word for word: the sentence a player reads, the
space by its board label and the ruling cited. A refusal that lost its words, named the
wrong space or cited no ruling would leave the table guessing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import Roll
from companion.errors import InvalidOptions, RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island.beast_master import model as bmm
from companion.games.island.board import parse_board
from companion.games.island.model import (
    ApplyEffect,
    GainGold,
    PendingExplore,
    PendingLair,
    PlayCard,
    Tile,
)

from .helpers import beast_master, graph_board, place

R = bm.RULES


def refusal(state: bm.BeastMasterState, action: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        R.apply(state, action)
    return err.value


def texts(state: bm.BeastMasterState, action: Any) -> list[str]:
    return [e.text for e in R.apply(state, action)[1]]


def with_banners(state: bm.BeastMasterState, owners: dict[str, int]) -> bm.BeastMasterState:
    """``state`` with Banners standing on spaces (taken from their owners' hands)."""
    spaces = list(state.spaces)
    in_hand = list(state.banners_in_hand)
    for space, seat in owners.items():
        idx = state.board.graph.index[space]
        spaces[idx] = spaces[idx].model_copy(update={"banner": seat})
        in_hand[seat] -= 1
    return state.model_copy(update={"spaces": tuple(spaces), "banners_in_hand": tuple(in_hand)})


def banners_phase() -> bm.BeastMasterState:
    """Ann's Banners step: she controls A1 (two Acolytes), Bob's Banner stands on A2."""
    state = place(beast_master(2), acolytes={"r1c1": {0: 2}, "r1c2": {0: 1}})
    state = with_banners(state, {"r1c2": 1})
    return state.model_copy(update={"phase": "banners"})


def test_BM_R14_banner_refusals_name_the_space_word_for_word() -> None:
    state = banners_phase()
    empty = state.model_copy(update={"banners_in_hand": (0, 4)})
    assert refusal(empty, bmm.PlaceBanner(space="r1c1")).args[0] == (
        "You have no Banner left in hand."
    )
    foreign = refusal(state, bmm.PlaceBanner(space="r5c5"))
    assert (foreign.message, foreign.ruling) == ("You do not control E5 now.", "BM-R14")
    mine = with_banners(state, {"r1c1": 0})
    assert refusal(mine, bmm.PlaceBanner(space="r1c1")).message == (
        "Your Banner already stands on A1."
    )


def test_BM_R14_raising_a_banner_is_logged_and_a_replaced_one_goes_home() -> None:
    state = banners_phase()
    assert texts(state, bmm.PlaceBanner(space="r1c1")) == ["Ann raises a Banner on A1."]
    after, _ = R.apply(state, bmm.PlaceBanner(space="r1c2"))
    assert [e.text for e in R.apply(state, bmm.PlaceBanner(space="r1c2"))[1]] == [
        "Bob's Banner on A2 returns to their hand.",
        "Ann raises a Banner on A2.",
    ]
    assert after.banners_in_hand == (4, 5) and after.space("r1c2").banner == 0


def test_BM_R14_collecting_refusals_name_the_space() -> None:
    state = place(beast_master(2), tiles={"r1c1": None})
    resting = with_banners(state, {"r1c1": 0}).model_copy(
        update={"phase": "resting", "rest_left": ("r1c1",)}
    )
    assert refusal(resting, bmm.CollectReward(space="r1c2")).message == (
        "You have no unresolved Banner on A2."
    )
    err = refusal(resting, bmm.CollectReward(space="r1c1", gold=1))
    assert (err.message, err.ruling) == ("A1 has no tile, so its Banner gives nothing.", "BM-R14")


def test_BM_R03_placing_a_colossus_once_they_stand_is_refused_citing_the_ruling() -> None:
    err = refusal(beast_master(2), bmm.PlaceColossus(space="r1c1"))  # they start on the centre
    assert (err.message, err.ruling) == ("Colossi are already on the island.", "BM-R03")
    chosen = place(beast_master(2, colossus_start="player_choice"), water=["r1c1"])
    err = refusal(chosen, bmm.PlaceColossus(space="r1c1"))
    assert err.message == "A1 is not a space a Colossus can stand on."


def test_a_beast_card_is_refused_beast_master_has_beast_master_cards() -> None:
    state = beast_master(2).model_copy(update={"phase": "actions", "movements_left": 4})
    assert refusal(state, PlayCard(kind="beast")).message == (
        "Beast Master has no Beast cards; it has Beast Master cards."
    )


def test_effects_wait_until_the_colossi_stand_and_are_refused_on_a_tie() -> None:
    effect = ApplyEffect(effect=GainGold(who="self", amount=1))
    placing = beast_master(2, colossus_start="player_choice")
    tie = beast_master(2, tie_policy="manual").model_copy(update={"phase": "tie"})
    for state in (placing, tie):
        said = refusal(state, effect).message
        assert said == "Effects can be applied once the game is under way."
    playing, _ = R.apply(beast_master(2), effect)
    assert playing.gold == (1, 0)


def exploring(space: str = "r2c2", seat: int = 0) -> bm.BeastMasterState:
    return beast_master(2).model_copy(
        update={"pending": (PendingExplore(space=space, player=seat),), "active": seat}
    )


def test_the_explore_roll_is_asked_for_and_logged_by_the_space_rule_2_6_2() -> None:
    state = exploring()
    err = refusal(state, bmm.TakeActions())
    assert (err.message, err.ruling) == ("Roll the d6 to explore B2 first.", "2.6.2")
    bad = refusal(state, Roll(values=(7,), source="manual"))
    assert bad.ruling == "2.6.2"
    assert texts(state, Roll(values=(5,), source="manual")) == [
        "Explore roll for B2: 5.",
        "B2 is explored: an Environment.",
    ]
    assert texts(state, Roll(values=(2,), source="manual"))[1] == "B2 is explored: a Loot token."


def test_BM_R15_the_loot_reward_is_asked_for_and_logged_with_the_space() -> None:
    state, _ = R.apply(exploring(), Roll(values=(1,), source="manual"))
    err = refusal(state, bmm.TakeActions())
    assert (err.message, err.ruling) == (
        "Enter the reward of the Loot token on B2 first.",
        "BM-R15",
    )
    assert texts(state, bmm.EnterLoot(gold=2, cards=1)) == [
        "The Loot on B2 gives 2 Gold and 1 card."
    ]
    assert texts(state, bmm.EnterLoot(cards=2)) == ["The Loot on B2 gives 2 cards."]


def test_a_position_waiting_on_an_answer_beast_master_lacks_refuses_every_action() -> None:
    """A hand-made position may hold a pending answer of the sister game (a Lair): the
    referee refuses clearly instead of failing."""
    state = beast_master(2).model_copy(update={"pending": (PendingLair(beast="Wyrm", player=0),)})
    assert refusal(state, bmm.TakeActions()).message == "Something else must be resolved first."


def test_BM_R06_setup_refusals_say_what_is_wrong() -> None:
    with pytest.raises(InvalidOptions) as err:
        beast_master(2, centre_starts_with_loot=True, loot_tokens=0)
    assert (err.value.message, err.value.ruling) == (
        "A Loot token on the centre needs at least one Loot token in the supply.",
        "BM-R06",
    )


def test_BM_R01_an_island_needs_two_spaces_and_two_are_enough() -> None:
    two = graph_board([("a", "b")], "a")
    state = beast_master(2, board=two.model_dump(mode="json"))
    assert state.board.ids == ("a", "b")
    one = parse_board({"name": "rock", "centre": "a", "spaces": [{"id": "a", "leds": [0]}]})
    with pytest.raises(InvalidOptions) as err:
        beast_master(2, board=one.model_dump(mode="json"))
    assert err.value.message == "An island needs at least two spaces."


def test_BM_R16_the_last_turn_ends_the_game_with_its_reason() -> None:
    state = beast_master(2, turns_per_player=1).model_copy(
        update={"turns_taken": (1, 0), "turns_played": 1, "active": 1, "phase": "banners"}
    )
    assert texts(state, bmm.EndTurn())[-1] == "Every player has taken their last turn."


def test_naming_a_tile_writes_its_name_and_a_space_without_one_is_refused() -> None:
    state = place(beast_master(2), tiles={"r1c1": Tile(kind="environment")})
    named, _ = R.apply(state, bmm.NameTile(space="r1c1", name="Sacred Grove"))
    assert named.space("r1c1").tile == Tile(kind="environment", name="Sacred Grove")
    assert refusal(state, bmm.NameTile(space="r1c2", name="Grove")).message == (
        "A2 has no tile to name."
    )
