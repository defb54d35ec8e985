"""Colossi's data helpers: its island switches (CA-R06, CA-R08, CA-R17), the Age labels,
the deck's stand-in Beasts (RULINGS 3.4), where a Lair may go (CA-R16) and a tile in
words (CA-R10)."""

from __future__ import annotations

from companion.games.island.colossi import model as cam
from companion.games.island.model import IslandConfig, Tile

from .colossi_help import new
from .helpers import place


def test_colossi_s_island_switches_follow_its_options_ca_r06_ca_r08_ca_r17() -> None:
    assert cam.config(new()) == IslandConfig(
        beast_kills=False,
        spawn_safe_first_step=False,
        tipped_controls=True,
        hand_limit_immediate=True,
        gold_floor_zero=True,
        movement_unit="Action",
    )
    house = new(beast_master_beast_rules=True, tipped_colossus_controls=False)
    cfg = cam.config(house)
    assert (cfg.beast_kills, cfg.tipped_controls) == (True, False)


def test_the_ages_are_labelled_by_roman_numerals() -> None:
    assert [cam.age_label(a) for a in (1, 2, 3)] == ["Age I", "Age II", "Age III"]


def test_the_deck_s_lairs_belong_to_numbered_random_beasts_rulings_3_4() -> None:
    assert cam.random_lair_beasts(3) == ("Random Beast 1", "Random Beast 2", "Random Beast 3")
    assert cam.random_lair_beasts(0) == ()
    assert new().deck_lairs == ("Random Beast 1", "Random Beast 2")


def test_a_lair_goes_on_an_empty_space_then_on_a_tile_then_beside_a_beast_ca_r16() -> None:
    state = new()
    assert cam.lair_spaces(state) == list(state.board.ids)
    grass = Tile(kind="grass", loot="gold")
    every = {sid: grass for sid in state.board.ids}
    some = place(state, tiles={**every, "r1c2": None, "r2c2": None}, water=("r2c2",))
    assert cam.lair_spaces(some) == ["r1c2"]
    full = place(state, tiles=every, water=("r1c1",), beasts=[("Wyrm", "r1c2")])
    assert cam.lair_spaces(full) == [s for s in state.board.ids if s not in ("r1c1", "r1c2")]
    crowded = place(
        state,
        tiles=every,
        water=[s for s in state.board.ids if s not in ("r1c3", "r1c4")],
        beasts=[("Wyrm", "r1c3"), ("Roc", "r1c4")],
    )
    assert cam.lair_spaces(crowded) == ["r1c3", "r1c4"]
    beast_on_empty = place(state, beasts=[("Wyrm", "r1c1")])
    assert "r1c1" not in cam.lair_spaces(beast_on_empty)


def test_a_tile_in_words_ca_r10() -> None:
    assert cam.tile_text(Tile(kind="grass", loot="cards")) == "Grass with a card"
    assert cam.tile_text(Tile(kind="grass", loot="none")) == "Grass"
    assert cam.tile_text(Tile(kind="lair", beast="Roc")) == "the Lair of Roc"
    assert cam.tile_text(Tile(kind="environment", name="Marsh")) == "the Environment Marsh"
    assert cam.tile_text(Tile(kind="environment")) == "an Environment"
    assert cam.tile_text(Tile(kind="bare")) == "nothing (the deck and the box are empty, CA-R10)"


def test_a_new_game_as_the_seed_sets_it_up_rulings_3_4() -> None:
    state = new(3, mantle_holder=2, use_traits=True, grass_tiles=12, deck_lairs=1)
    centre = state.board.centre
    assert state.colossi == (centre, centre, centre)  # CA-R01
    assert state.tipped == (False, False, False)
    assert state.acolytes_in_hand == (10, 10, 10)  # CA-R02
    assert state.cards_in_hand == (2, 2, 2) and state.perks == (None, None, None)
    assert state.gold == (0, 0, 0)  # CA-R17
    assert (state.active, state.mantle, state.rounds, state.phase, state.age) == (
        2,
        2,
        5,
        "age_reveal",
        1,
    )
    assert (state.deck_grass, state.deck_lairs, state.deck_environments) == (
        12,
        ("Random Beast 1",),
        8,
    )
    assert state.spare_environments == 0
    assert state.traits == ((), (), ()) and state.trait_row == ("Trait 1", "Trait 2", "Trait 3")
    assert state.traits_drawn == 3
    assert state.harvested == ((), (), ()) and state.passed == (False, False, False)
    plain = new(2, rounds_per_age=3, acolytes_per_player=7, spare_environments=2)
    assert new(2, deck_environments=5).deck_environments == 5
    assert plain.trait_row == () and plain.traits_drawn == 0
    assert plain.rounds == 3 and plain.acolytes_in_hand == (7, 7)
    assert plain.spare_environments == 2
