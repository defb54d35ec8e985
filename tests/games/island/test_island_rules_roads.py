"""Road Movement on a small hand-made island (B.3, 2.6.3, 2.6.4): every destination of
one paid Movement with the chain the referee takes, the chains back to the start
(BM-R17), and where the Beast ends an Acolyte's chain (BM-R07, CA-R08)."""

from __future__ import annotations

import dataclasses

from companion.games.island.mechanics import (
    chains_back,
    destinations,
    explore_on_entry,
    own_spaces,
)
from companion.games.island.model import PendingExplore

from .helpers import BM_CFG, CA_CFG
from .island_rules_help import position

SAFE_SPAWN = dataclasses.replace(BM_CFG, spawn_safe_first_step=True)


def test_B3_a_colossus_chains_through_its_own_acolyte_and_back() -> None:
    state = position()  # Ann: Colossus on o, an Acolyte on a; Water on w
    assert destinations(state, 0, "colossus", "o", BM_CFG) == {
        "a": ("a",),
        "b": ("b",),  # the Beast's space: a Colossus may share it
        "c": ("c",),
        "o": ("a", "o"),  # BM-R17
        "e": ("a", "e"),
    }
    assert chains_back(state, 0, "colossus", "o", BM_CFG) == [("a", "o")]


def test_B3_an_acolyte_chains_through_its_colossus() -> None:
    state = position()
    assert destinations(state, 0, "acolyte", "a", BM_CFG) == {
        "o": ("o",),
        "e": ("e",),
        "a": ("o", "a"),
        "b": ("o", "b"),
        "c": ("o", "c"),
    }
    assert chains_back(state, 0, "acolyte", "a", BM_CFG) == [("o", "a")]


def test_BM_R07_CA_R08_the_beasts_space_ends_an_acolytes_chain_in_beast_master_only() -> None:
    state = position(beasts=[("Wyrm", "o")])  # the Wyrm with Ann's Colossus on o
    assert destinations(state, 0, "acolyte", "a", BM_CFG) == {"o": ("o",), "e": ("e",)}
    assert chains_back(state, 0, "acolyte", "a", BM_CFG) == []
    assert destinations(state, 0, "acolyte", "a", CA_CFG) == {
        "o": ("o",),
        "e": ("e",),
        "a": ("o", "a"),
        "b": ("o", "b"),
        "c": ("o", "c"),
    }
    assert chains_back(state, 0, "acolyte", "a", CA_CFG) == [("o", "a")]
    # a Colossus never dies: the Beast does not end its chain
    assert chains_back(state, 0, "colossus", "o", BM_CFG) == [("a", "o")]


def test_2_6_4_a_spawn_may_stay_and_its_first_step_is_free() -> None:
    state = position()
    assert destinations(state, 0, "acolyte", "o", BM_CFG, spawn=True) == {
        "o": (),
        "a": ("a",),
        "b": ("b",),
        "c": ("c",),
        "e": ("a", "e"),
    }


def test_BM_R07_an_acolyte_spawned_on_the_beast_dies_there_unless_the_option_says() -> None:
    state = position(beasts=[("Wyrm", "o")])
    assert destinations(state, 0, "acolyte", "o", BM_CFG, spawn=True) == {"o": ()}
    assert destinations(state, 0, "acolyte", "o", SAFE_SPAWN, spawn=True) == {
        "o": (),
        "a": ("a",),
        "b": ("b",),
        "c": ("c",),
        "e": ("a", "e"),
    }


def test_B3_the_chain_back_avoids_an_unexplored_space_when_it_can() -> None:
    state = position(acolytes={"a": {0: 1}, "c": {0: 1}}, tiles={"a": None})
    found = destinations(state, 0, "colossus", "o", BM_CFG)
    assert found["o"] == ("c", "o")  # through c, explored, rather than a
    assert found["e"] == ("a", "e")  # the only way: still legal, exploring on the way
    assert chains_back(state, 0, "colossus", "o", BM_CFG) == [("a", "o"), ("c", "o")]


def test_B3_own_pieces_are_every_other_piece_of_the_owner() -> None:
    state = position()
    assert own_spaces(state, 0, "acolyte", "a") == {"o"}  # not the moving Acolyte
    assert own_spaces(state, 0, "colossus", "o") == {"a"}  # not the moving Colossus
    assert own_spaces(state, 0, None, None) == {"o", "a"}  # a spawn: every piece
    two = position(acolytes={"a": {0: 2}})
    assert own_spaces(two, 0, "acolyte", "a") == {"o", "a"}  # the other Acolyte stays
    assert own_spaces(state, 1, "acolyte", "a") == {"f"}


def test_CA_R09_nothing_chains_back_to_water() -> None:
    state = position("colossi", colossi={0: "w", 1: "f"}, acolytes={"o": {0: 1}}, beasts=[])
    assert chains_back(state, 0, "colossus", "w", CA_CFG) == []
    assert "w" not in destinations(state, 0, "colossus", "w", CA_CFG)


def test_BM_R05_a_space_explores_on_entry_unless_it_has_a_tile_or_is_queued() -> None:
    state = position(tiles={"c": None, "e": None})
    assert explore_on_entry(state) == {"c", "e"}
    queued = state.model_copy(update={"pending": (PendingExplore(space="e", player=0),)})
    assert explore_on_entry(queued) == {"c"}
