"""Colossi (seed 002): one test per ruling CA-R01…CA-R19, plus Harvest and Age flow."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import Roll
from companion.errors import InvalidOptions, RuleViolation
from companion.games.island import colossi as ca
from companion.games.island.content import parse_content
from companion.games.island.model import (
    ApplyEffect,
    DisplaceColossus,
    GainGold,
    GoldChanged,
    MoveBeast,
    MovePiece,
    PendingDisplace,
    PendingExplore,
    PendingLair,
    PendingRollOff,
    PendingTrait,
    PendingTraitDiscard,
    PlaceCubes,
    PlaceWater,
    PlayCard,
    Tile,
)
from companion.highlights import Role

from .helpers import explored, place

R = ca.RULES
NAMES = ["Ann", "Bob", "Cleo", "Dov"]


def new(players: int = 2, **options: Any) -> ca.ColossiState:
    options.setdefault("use_traits", False)
    return R.setup(NAMES[:players], R.parse_options(options), seed=11)


def act(state: ca.ColossiState, *steps: Any) -> ca.ColossiState:
    for step in steps:
        state, _ = R.apply(state, step)
    return state


def started(
    players: int = 2, beasts: tuple[str, ...] = ("Wyrm",), **options: Any
) -> ca.ColossiState:
    state = act(new(players, **options), ca.RevealAge(name="Dawn", beasts=beasts))
    while state.pending:
        state = act(state, next(iter(R.legal_actions(state))))
    return state


def settle(state: ca.ColossiState) -> ca.ColossiState:
    while state.pending:
        state = act(state, next(iter(R.legal_actions(state))))
    return state


def end_action_phase(state: ca.ColossiState) -> ca.ColossiState:
    return act(state, ca.EndActionPhase())


def to_harvest(state: ca.ColossiState, scoring: tuple[int, ...] | None = None) -> ca.ColossiState:
    state = end_action_phase(state)
    return act(state, ca.AgeScoring(gold=scoring or (0,) * len(state.players)))


def test_CA_R01_age1_lair_beast_and_colossi_in_the_centre() -> None:
    state = new(3)
    assert state.phase == "age_reveal" and state.colossi == ("r3c3",) * 3
    assert state.deck_grass + len(state.deck_lairs) + state.deck_environments == 26
    state = act(state, ca.RevealAge(name="Dawn", beasts=("Wyrm",)))
    assert state.space("r3c3").tile == Tile(kind="lair", name="Lair of Wyrm", beast="Wyrm")
    assert [(b.name, b.space) for b in state.beasts] == [("Wyrm", "r3c3")]
    assert state.phase == "actions" and state.active == 0 and state.movements_left == 4


def test_CA_R01_option_random_tile_in_the_centre() -> None:
    state = act(new(2, centre_setup="random_tile"), ca.RevealAge(beasts=("Wyrm",)))
    assert state.pending[0] == PendingExplore(space="r3c3", player=0, entered=False)
    state = act(state, ca.DrawTile(kind="grass", loot="gold"))
    assert state.space("r3c3").tile == Tile(kind="grass", loot="gold")
    assert state.deck_grass + len(state.deck_lairs) + state.deck_environments == 25
    assert isinstance(state.pending[0], PendingRollOff)
    state = act(state, Roll(values=(6, 2), source="manual"))
    assert state.pending[0] == PendingLair(player=0, beast="Wyrm")
    with pytest.raises(RuleViolation) as err:
        R.apply(state, ca.PlaceLair(space="r3c3"))  # not empty
    assert err.value.ruling == "CA-R16"
    state = act(state, ca.PlaceLair(space="r1c1"))
    assert [(b.name, b.space) for b in state.beasts] == [("Wyrm", "r1c1")]
    assert state.phase == "actions"


def test_CA_R02_ten_acolytes_each_and_2_to_4_players() -> None:
    assert new(3).acolytes_in_hand == (10, 10, 10)
    assert new(2, acolytes_per_player=7).acolytes_in_hand == (7, 7)
    assert new(2).cards_in_hand == (2, 2) and new(2).gold == (0, 0)
    with pytest.raises(InvalidOptions):
        R.setup(["x"], R.parse_options({}), 1)


def _play_age_to_end(state: ca.ColossiState, gold: tuple[int, ...]) -> ca.ColossiState:
    state = end_action_phase(state)
    state = act(state, ca.AgeScoring(gold=gold))
    while state.phase == "harvest":
        state = act(state, ca.PassHarvest())
    return state


def test_CA_R03_mantle_goes_to_first_place_who_starts_the_next_age() -> None:
    state = _play_age_to_end(started(3), (1, 5, 2))
    assert state.mantle == 1 and state.phase == "age_reveal" and state.age == 2
    state = act(state, ca.RevealAge(beasts=("Wyrm",)))
    assert state.active == 1 and state.phase == "actions"


def test_CA_R03_option_pass_left_after_award() -> None:
    state = _play_age_to_end(started(3, mantle_pass_left_after_award=True), (1, 5, 2))
    assert state.mantle == 2


def test_CA_R04_five_rounds_per_age_by_default_and_the_age_card_overrides() -> None:
    state = started(2)
    assert state.rounds == 5
    for _ in range(9):
        state = settle(act(state, ca.EndTurn()))
    assert state.phase == "actions"
    state = settle(act(state, ca.EndTurn()))
    assert state.phase == "age_scoring"
    short = act(new(2), ca.RevealAge(beasts=("Wyrm",), rounds=1))
    short = act(short, ca.EndTurn(), ca.EndTurn())
    assert short.phase == "age_scoring"
    manual = end_action_phase(started(2))
    assert manual.phase == "age_scoring"


def test_CA_R05_mantle_tie_is_a_d6_roll_off_with_rerolls() -> None:
    state = end_action_phase(started(3))
    state = act(state, ca.AgeScoring(gold=(4, 4, 1)))
    while state.phase == "harvest":
        state = act(state, ca.PassHarvest())
    request = R.dice_request(state)
    assert request is not None and request.count == 2 and request.sides == 6
    state = act(state, Roll(values=(3, 3), source="manual"))
    assert isinstance(state.pending[0], PendingRollOff) and state.pending[0].contenders == (0, 1)
    state = act(state, Roll(values=(2, 5), source="manual"))
    assert state.mantle == 1 and state.phase == "age_reveal"


def test_CA_R05_least_gold_tie_roll_off_decides_who_places_the_new_lair() -> None:
    state = _play_age_to_end(started(3), (3, 0, 0))
    state = act(state, ca.RevealAge(beasts=("Kraken",)))
    head = state.pending[0]
    assert isinstance(head, PendingRollOff) and head.purpose == "least_gold"
    assert head.contenders == (1, 2)
    state = act(state, Roll(values=(1, 4)))
    assert state.pending[0] == PendingLair(player=2, beast="Kraken")
    assert R.current_player(state) == 2


def test_CA_R06_tipped_colossus_still_controls_and_blocks_others() -> None:
    state2 = place(explored(started(2)), colossi={1: "r1c1"}, acolytes={"r3c3": {1: 1}})
    h2 = act(to_harvest(state2), ca.Harvest(space="r3c3"))
    assert h2.tipped == (True, False)
    assert "r3c3" not in R.harvestable(h2, 1)
    off = place(
        explored(started(2, tipped_colossus_controls=False)),
        colossi={1: "r1c1"},
        acolytes={"r3c3": {1: 1}},
    )
    h3 = act(to_harvest(off), ca.Harvest(space="r3c3"))
    assert "r3c3" in R.harvestable(h3, 1)


def test_CA_R07_each_player_harvests_a_space_at_most_once_per_age() -> None:
    state = place(explored(started(2)), colossi={1: "r1c1"}, acolytes={"r2c2": {0: 2}})
    state = act(to_harvest(state), ca.Harvest(space="r2c2"))
    state = act(state, ca.PassHarvest())  # Bob passes; Ann again
    state = place(state, acolytes={"r2c2": {0: 1}})
    with pytest.raises(RuleViolation) as err:
        R.apply(state, ca.Harvest(space="r2c2"))
    assert err.value.ruling == "CA-R07"


def test_CA_R08_beasts_have_no_built_in_kill_unless_the_option_is_set() -> None:
    state = place(explored(started(2)), acolytes={"r2c3": {1: 2}}, colossi={1: "r2c3"})
    after = act(state, PlayCard(kind="beast", effects=(MoveBeast(to="r2c3"),)))
    assert after.space("r2c3").acolytes == (0, 2) and after.pending == ()
    bm_rules = place(
        explored(started(2, beast_master_beast_rules=True)),
        acolytes={"r2c3": {1: 2}},
        colossi={1: "r2c3"},
    )
    after = act(bm_rules, PlayCard(kind="beast", effects=(MoveBeast(to="r2c3"),)))
    assert after.space("r2c3").acolytes == (0, 0)
    assert isinstance(after.pending[0], PendingDisplace)
    assert after.gold == (0, 0)  # BM-R10 is a Beast Master rule


def test_CA_R09_water_is_like_the_edge() -> None:
    state = place(explored(started(2)), water=("r2c3",), acolytes={"r2c4": {0: 1, 1: 1}})
    with pytest.raises(RuleViolation) as err:
        R.apply(state, ca.Move(piece="colossus", origin="r3c3", to="r2c3"))
    assert err.value.ruling == "CA-R09"
    pushed = act(state, ApplyEffect(effect=MovePiece(who=1, origin="r2c4", to="r2c3")))
    assert pushed.space("r2c4").acolytes == (1, 0) and pushed.acolytes_in_hand[1] == 10
    col = act(
        state, ApplyEffect(effect=MovePiece(who=1, piece="colossus", origin="r3c3", to="r2c3"))
    )
    assert col.colossi[1] == "r3c3"
    with pytest.raises(RuleViolation):
        R.apply(state, ApplyEffect(effect=MoveBeast(to="r2c3")))


def test_CA_R10_empty_deck_uses_a_spare_environment_then_nothing() -> None:
    state = started(2, spare_environments=1)
    state = state.model_copy(update={"deck_grass": 0, "deck_lairs": (), "deck_environments": 0})
    state = act(state, ca.Move(piece="colossus", origin="r3c3", to="r2c3"))
    with pytest.raises(RuleViolation) as err:
        R.apply(state, ca.DrawTile(kind="grass"))
    assert err.value.ruling == "CA-R10"
    state = act(state, ca.DrawTile())
    assert state.space("r2c3").tile == Tile(kind="environment") and state.spare_environments == 0
    state = act(state, ca.Move(piece="colossus", origin="r2c3", to="r1c3"), ca.DrawTile())
    assert state.space("r1c3").tile == Tile(kind="bare")


def test_CA_R10_virtual_draws_follow_the_deck_counts() -> None:
    state = started(2)
    state = state.model_copy(update={"deck_grass": 0, "deck_environments": 0})
    state = act(state, ca.Move(piece="colossus", origin="r3c3", to="r2c3"), ca.DrawTile())
    tile = state.space("r2c3").tile
    assert tile is not None and tile.kind == "lair" and tile.beast == "Deck Lair 1"
    assert any(b.name == "Deck Lair 1" and b.space == "r2c3" for b in state.beasts)
    assert state.deck_lairs == ("Deck Lair 2",)


def test_CA_R11_same_beasts_stay_and_old_lairs_are_retired() -> None:
    state = _play_age_to_end(started(2), (2, 1))
    same = act(state, ca.RevealAge(beasts=("Wyrm",)))
    assert [(b.name, b.space) for b in same.beasts] == [("Wyrm", "r3c3")]
    assert same.phase == "actions"
    # a new Beast: Bob (least Gold) places it; Wyrm leaves; its Lair had Colossi on it
    new_age = act(state, ca.RevealAge(beasts=("Kraken",)))
    assert new_age.pending[0] == PendingLair(player=1, beast="Kraken")
    new_age = act(new_age, ca.PlaceLair(space="r1c1"))
    assert [(b.name, b.space) for b in new_age.beasts] == [("Kraken", "r1c1")]
    assert new_age.space("r3c3").tile is None
    assert new_age.pending[0] == PendingExplore(space="r3c3", player=0, entered=False)
    # partial overlap: Wyrm stays, Kraken is added
    both = act(state, ca.RevealAge(beasts=("Wyrm", "Kraken")), ca.PlaceLair(space="r5c5"))
    assert {b.name for b in both.beasts} == {"Wyrm", "Kraken"}


def test_CA_R11_several_age1_beasts_first_in_centre_others_by_roll_off() -> None:
    state = act(new(2), ca.RevealAge(beasts=("Wyrm", "Kraken")))
    assert state.space("r3c3").tile is not None
    assert isinstance(state.pending[0], PendingRollOff)
    state = act(state, Roll(values=(2, 5)))
    assert state.pending[0] == PendingLair(player=1, beast="Kraken")


def test_CA_R11_an_explored_lair_of_the_new_age_stays_where_it_is() -> None:
    state = started(2)
    state = state.model_copy(update={"deck_grass": 0, "deck_environments": 0})
    state = act(state, ca.Move(piece="colossus", origin="r3c3", to="r2c3"), ca.DrawTile())
    state = _play_age_to_end(state, (1, 0))
    state = act(state, ca.RevealAge(beasts=("Deck Lair 1",)))
    assert [(b.name, b.space) for b in state.beasts] == [("Deck Lair 1", "r2c3")]


def test_CA_R12_initial_traits_from_the_mantle_holder_clockwise() -> None:
    state = act(new(3, use_traits=True, mantle_holder=1), ca.RevealAge(beasts=("Wyrm",)))
    assert [p.player for p in state.pending if isinstance(p, PendingTrait)] == [1, 2, 0]
    state = act(state, ca.TakeTrait(row=0, refill="Fury"))
    assert state.traits[1] == ("Trait 1",) and state.trait_row == ("Fury", "Trait 2", "Trait 3")
    state = act(state, ca.TakeTrait(name="Deck card"), ca.TakeTrait(row=0))
    assert state.traits == (("Fury",), ("Trait 1",), ("Deck card",))
    assert len(state.trait_row) == 3


def test_CA_R13_a_third_trait_forces_a_discard_and_no_traits_means_nothing() -> None:
    state = act(new(2, use_traits=True), ca.RevealAge(beasts=("Wyrm",)))
    state = state.model_copy(
        update={"traits": (("A", "B"), ()), "pending": (PendingTrait(player=0),)}
    )
    state = act(state, ca.TakeTrait(row=1))
    assert state.pending[0] == PendingTraitDiscard(player=0)
    with pytest.raises(RuleViolation) as err:
        R.apply(state, ca.EndTurn())
    assert err.value.ruling == "CA-R13"
    state = act(state, ca.DiscardTrait(name="A"))
    assert state.traits[0] == ("B", "Trait 2")
    # without Traits, Trait Loot gives nothing
    plain = explored(started(2), Tile(kind="grass", loot="trait"))
    plain = place(plain, acolytes={"r1c1": {0: 1}})
    plain = act(to_harvest(plain), ca.Harvest(space="r1c1"))
    assert not any(isinstance(p, PendingTrait) for p in plain.pending)


def test_CA_R14_card_types_are_data_but_perks_are_not_colossi_cards() -> None:
    state = started(2)
    after = act(state, PlayCard(kind="other", name="Mystery"))
    assert after.cards_in_hand[0] == 1 and after.movements_left == 3
    with pytest.raises(RuleViolation) as err:
        R.apply(state, PlayCard(kind="perk", name="x"))
    assert err.value.ruling == "CA-R14"


def test_CA_R15_a_beast_card_is_net_zero_but_needs_an_action() -> None:
    state = started(2)
    card = PlayCard(kind="beast", effects=(MoveBeast(to="r2c3"),))
    after = act(state, card)
    assert after.movements_left == 4 and after.beasts[0].space == "r2c3"
    empty = state.model_copy(update={"movements_left": 0})
    with pytest.raises(RuleViolation) as err:
        R.apply(empty, card)
    assert err.value.ruling == "CA-R15"
    loose = started(2, beast_card_needs_action=False).model_copy(update={"movements_left": 0})
    assert act(loose, card).movements_left == 0
    with pytest.raises(RuleViolation):
        R.apply(empty, PlayCard(kind="action"))


def test_CA_R16_lairs_go_on_empty_spaces_or_replace_a_tile_when_none() -> None:
    state = _play_age_to_end(started(2), (2, 1))
    state = act(state, ca.RevealAge(beasts=("Kraken",)))
    full = explored(state, Tile(kind="grass", loot="gold"))
    legal = {a.space for a in R.legal_actions(full) if isinstance(a, ca.PlaceLair)}
    assert "r3c3" not in legal and "r1c1" in legal  # the Wyrm's space is excluded
    placed = act(full, ca.PlaceLair(space="r1c1"))
    assert placed.space("r1c1").tile == Tile(kind="lair", name="Lair of Kraken", beast="Kraken")
    water = place(state, water=("r1c1",))
    with pytest.raises(RuleViolation):
        R.apply(water, ca.PlaceLair(space="r1c1"))


def test_CA_R17_gold_never_drops_below_zero() -> None:
    state = started(2)
    state = act(state, ApplyEffect(effect=GainGold(who=0, amount=3)))
    state = act(state, ApplyEffect(effect=GainGold(who=0, amount=-5)))
    assert state.gold == (0, 0)
    assert sum(e.amount for e in state.ledger if e.player == 0) == 0
    state = act(state, ApplyEffect(effect=GainGold(who=1, amount=-2)))
    assert state.gold == (0, 0)
    R.check_position(state)


def test_CA_R18_water_clears_the_space_kills_acolytes_and_moves_colossi() -> None:
    state = place(
        explored(started(3)),
        acolytes={"r2c3": {0: 2, 2: 1}},
        colossi={1: "r2c3", 2: "r2c3"},
    )
    state = state.model_copy(update={"active": 2})
    state = act(state, ApplyEffect(effect=PlaceWater(space="r2c3")))
    sp = state.space("r2c3")
    assert sp.water and sp.tile is None and sp.acolytes == (0, 0, 0)
    assert [p.player for p in state.pending] == [2, 1]
    with pytest.raises(RuleViolation):
        R.apply(state, DisplaceColossus(to="r2c3"))
    state = act(state, DisplaceColossus(to="r1c3"))
    assert state.colossi[2] == "r1c3"
    water_age = _play_age_to_end(started(2), (1, 0))
    water_age = act(water_age, ca.RevealAge(beasts=("Wyrm",), water=("r1c1", "r1c2")))
    assert water_age.space("r1c1").water and water_age.space("r1c2").water


def test_CA_R19_age_cards_from_the_content_file_use_sub_decks() -> None:
    content = parse_content(
        {
            "ages": [
                {"id": "a1", "age": "I", "beasts": ["Wyrm"], "rounds": 2},
                {"id": "b1", "age": "II", "beasts": ["Kraken"], "water": ["r1c1"]},
                {"id": "c1", "age": "III", "beasts": ["Kraken"]},
            ]
        }
    )
    state = new(2, content=content.model_dump(mode="json"))
    state = act(state, ca.RevealAge())
    assert state.age_beasts == ("Wyrm",) and state.rounds == 2 and state.used_age_cards == ("a1",)
    state = _play_age_to_end(state, (1, 0))
    state = act(state, ca.RevealAge())
    assert state.used_age_cards == ("a1", "b1") and state.space("r1c1").water
    with pytest.raises(RuleViolation) as err:
        R.apply(new(2, content=content.model_dump(mode="json")), ca.RevealAge(card="nope"))
    assert err.value.ruling == "CA-R19"


def test_harvest_returns_acolytes_tips_the_colossus_and_pays_in_order() -> None:
    state = explored(started(2), Tile(kind="grass", loot="gold"))
    lair = Tile(kind="lair", name="Lair of Wyrm", beast="Wyrm")
    state = place(state, acolytes={"r3c3": {0: 2}}, colossi={1: "r1c1"}, tiles={"r3c3": lair})
    state = act(state, ApplyEffect(effect=PlaceCubes(space="r3c3", amount=2)))
    state = to_harvest(state, (1, 0))
    assert state.active == state.mantle == 0
    # the centre holds the Lair (an Environment): its text is entered with the harvest
    after, events = R.apply(
        state,
        ca.Harvest(space="r3c3", effects=(GainGold(amount=3),)),
    )
    assert after.space("r3c3").acolytes == (0, 0) and after.acolytes_in_hand[0] == 10
    assert after.tipped == (True, False) and after.space("r3c3").cubes == 0
    gains = [e.amount for e in events if isinstance(e, GoldChanged)]
    assert gains == [2, 3]
    assert [e.source for e in after.ledger] == ["age_scoring", "harvest", "harvest"]
    assert after.gold == (6, 0)
    assert R.current_player(after) == 1


def test_grass_loot_is_paid_again_to_a_later_harvester() -> None:
    state = explored(started(2), Tile(kind="grass", loot="gold"))
    state = place(state, acolytes={"r1c1": {0: 2, 1: 1}}, colossi={1: "r5c5"})
    state = act(to_harvest(state), ca.Harvest(space="r1c1"))
    state = act(state, ca.Harvest(space="r1c1"))  # Bob now controls it
    assert state.gold == (1, 1)


def test_harvest_highlights_and_refusals() -> None:
    state = explored(started(2), Tile(kind="grass", loot="cards"))
    state = place(state, acolytes={"r1c1": {0: 1}}, colossi={1: "r5c5"})
    state = to_harvest(state)
    cells = {h.cell for h in R.highlights(state) if h.role == Role.HARVESTABLE}
    assert cells == {"r1c1", "r3c3"}
    with pytest.raises(RuleViolation):
        R.apply(state, ca.Harvest(space="r5c5"))
    with pytest.raises(RuleViolation):
        R.apply(state, ca.Harvest(space="r1c1", effects=(GainGold(amount=1),)))


def test_game_ends_after_age_three_with_shared_victory() -> None:
    state = started(2)
    for age in range(3):
        state = _play_age_to_end(state, (1, 1))
        if age < 2:
            while state.pending:
                state = act(state, next(iter(R.legal_actions(state))))
            state = act(state, ca.RevealAge(beasts=("Wyrm",)))
    out = R.outcome(state)
    assert out is not None and out.winners == (0, 1)
    labels = [row.label for row in R.scores(state).rows]
    assert "End of Age III" in labels and "Age I scoring" in labels


def test_manual_tie_policy() -> None:
    state = started(2, tie_policy="manual")
    for age in range(3):
        state = _play_age_to_end(state, (1, 1))
        while state.pending:
            state = act(state, next(iter(R.legal_actions(state))))
        if age < 2:
            state = act(state, ca.RevealAge(beasts=("Wyrm",)))
    assert state.phase == "tie"
    state = act(state, ca.PickWinners(seats=(0,)))
    out = R.outcome(state)
    assert out is not None and out.winners == (0,)
