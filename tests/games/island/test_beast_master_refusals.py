"""Beast Master refusals and turn ends that nothing else pins down: a loaded position whose
pieces do not add up, a Colossus placed where it cannot stand, a Banner with none in hand,
and ending Actions when no Banner can be placed."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import InvalidPosition, RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island.beast_master import model as bmm

from .helpers import place

R = bm.RULES
NAMES = ["Ann", "Bob", "Cleo", "Dov"]


def new(players: int = 2, **options: Any) -> bm.BeastMasterState:
    return R.setup(NAMES[:players], R.parse_options(options), seed=7)


def reload(state: bm.BeastMasterState) -> bm.BeastMasterState:
    return R.load_position(state.model_dump(mode="json"))


def test_BM_R02_BM_R04_a_loaded_position_whose_acolytes_do_not_add_up_is_refused() -> None:
    state = place(new(2), acolytes={"r1c1": {0: 2}})
    assert reload(state) == state  # 2 on the island + 8 in hand = 10
    spaces = list(state.spaces)
    spaces[0] = spaces[0].model_copy(update={"acolytes": (3, 0)})  # one from nowhere
    extra = state.model_copy(update={"spaces": tuple(spaces)})
    with pytest.raises(InvalidPosition, match="Ann does not have 10 Acolytes"):
        reload(extra)
    short = state.model_copy(update={"acolytes_in_hand": (8, 9)})
    with pytest.raises(InvalidPosition, match="Bob does not have 10 Acolytes"):
        reload(short)
    three = new(3)
    assert reload(three) == three
    with pytest.raises(InvalidPosition, match="Cleo does not have 12 Acolytes"):
        reload(three.model_copy(update={"acolytes_in_hand": (12, 12, 10)}))


def test_BM_R04_a_loaded_position_whose_banners_do_not_add_up_is_refused() -> None:
    state = new(2)
    spaces = list(state.spaces)
    spaces[0] = spaces[0].model_copy(update={"banner": 1})
    with pytest.raises(InvalidPosition, match="Bob does not have 5 Banners"):
        reload(state.model_copy(update={"spaces": tuple(spaces)}))
    moved = state.model_copy(update={"spaces": tuple(spaces), "banners_in_hand": (5, 4)})
    assert reload(moved) == moved


def test_BM_R03_a_colossus_is_refused_on_water_or_a_space_the_island_lacks() -> None:
    state = place(new(2, colossus_start="player_choice"), water=["r1c1"])
    for space in ("r1c1", "nowhere"):
        with pytest.raises(RuleViolation, match="not a space a Colossus can stand on") as err:
            R.apply(state, bmm.PlaceColossus(space=space))
        assert err.value.ruling == "BM-R03"
    placed, _ = R.apply(state, bmm.PlaceColossus(space="r1c2"))
    assert placed.colossi[0] == "r1c2"


def test_BM_R14_a_banner_needs_one_in_hand() -> None:
    state = place(new(2), acolytes={"r1c1": {0: 1}, "r1c2": {0: 1}})
    state = state.model_copy(update={"phase": "actions", "movements_left": 4})
    state, _ = R.apply(state, bmm.EndActions())
    assert state.phase == "banners"
    empty = state.model_copy(update={"banners_in_hand": (0, 5)})
    with pytest.raises(RuleViolation, match="no Banner left in hand"):
        R.apply(empty, bmm.PlaceBanner(space="r1c1"))
    assert not [a for a in R.legal_actions(empty) if isinstance(a, bmm.PlaceBanner)]


def test_BM_R14_ending_actions_with_no_banner_in_hand_or_no_space_to_raise_one_ends_the_turn() -> (
    None
):
    ready = new(2).model_copy(update={"phase": "actions", "movements_left": 4})
    controls = place(ready, acolytes={"r1c1": {0: 1}})
    banners, _ = R.apply(controls, bmm.EndActions())
    assert banners.phase == "banners" and banners.active == 0
    no_banner = controls.model_copy(update={"banners_in_hand": (0, 5)})
    for state in (ready, no_banner):  # no space Ann controls; no Banner in hand
        after, _ = R.apply(state, bmm.EndActions())
        assert after.phase == "choose" and after.active == 1
