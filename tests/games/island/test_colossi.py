"""Colossi (seed 002): tests of each ruling CA-R01…CA-R19, plus Harvest and Age flow."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import Roll
from companion.errors import InvalidOptions, RuleViolation
from companion.games.island import colossi as ca
from companion.games.island.colossi import model as cam
from companion.games.island.content import parse_content
from companion.games.island.model import (
    ApplyEffect,
    BeastPos,
    DisplaceColossus,
    GainGold,
    GoldChanged,
    Move,
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
    state = act(new(players, **options), cam.RevealAge(name="Dawn", beasts=beasts))
    while state.pending:
        state = act(state, next(iter(R.legal_actions(state))))
    return state


def settle(state: ca.ColossiState) -> ca.ColossiState:
    while state.pending:
        state = act(state, next(iter(R.legal_actions(state))))
    return state


def end_action_phase(state: ca.ColossiState) -> ca.ColossiState:
    return act(state, cam.EndActionPhase())


def to_harvest(state: ca.ColossiState, scoring: tuple[int, ...] | None = None) -> ca.ColossiState:
    state = end_action_phase(state)
    return act(state, cam.AgeScoring(gold=scoring or (0,) * len(state.players)))


def test_CA_R01_age1_lair_beast_and_colossi_in_the_centre() -> None:
    state = new(3)
    assert state.phase == "age_reveal" and state.colossi == ("r3c3",) * 3
    assert state.deck_grass + len(state.deck_lairs) + state.deck_environments == 26
    state = act(state, cam.RevealAge(name="Dawn", beasts=("Wyrm",)))
    assert state.space("r3c3").tile == Tile(kind="lair", name="Lair of Wyrm", beast="Wyrm")
    assert [(b.name, b.space) for b in state.beasts] == [("Wyrm", "r3c3")]
    assert state.phase == "actions" and state.active == 0 and state.movements_left == 4


def test_CA_R01_option_random_tile_in_the_centre() -> None:
    state = act(new(2, centre_setup="random_tile"), cam.RevealAge(beasts=("Wyrm",)))
    assert state.pending[0] == PendingExplore(space="r3c3", player=0, entered=False)
    state = act(state, cam.DrawTile(kind="grass", loot="gold"))
    assert state.space("r3c3").tile == Tile(kind="grass", loot="gold")
    assert state.deck_grass + len(state.deck_lairs) + state.deck_environments == 25
    assert isinstance(state.pending[0], PendingRollOff)
    state = act(state, Roll(values=(6, 2), source="manual"))
    assert state.pending[0] == PendingLair(player=0, beast="Wyrm")
    with pytest.raises(RuleViolation) as err:
        R.apply(state, cam.PlaceLair(space="r3c3"))  # not empty
    assert err.value.ruling == "CA-R16"
    state = act(state, cam.PlaceLair(space="r1c1"))
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
    state = act(state, cam.AgeScoring(gold=gold))
    while state.phase == "harvest":
        state = act(state, cam.PassHarvest())
    return state


def test_CA_R03_mantle_goes_to_first_place_who_starts_the_next_age() -> None:
    state = _play_age_to_end(started(3), (1, 5, 2))
    assert state.mantle == 1 and state.phase == "age_reveal" and state.age == 2
    state = act(state, cam.RevealAge(beasts=("Wyrm",)))
    assert state.active == 1 and state.phase == "actions"


def test_CA_R03_option_pass_left_after_award() -> None:
    state = _play_age_to_end(started(3, mantle_pass_left_after_award=True), (1, 5, 2))
    assert state.mantle == 2


def test_CA_R04_five_rounds_per_age_by_default_and_the_age_card_overrides() -> None:
    state = started(2)
    assert state.rounds == 5
    for _ in range(9):
        state = settle(act(state, cam.EndTurn()))
    assert state.phase == "actions"
    state = settle(act(state, cam.EndTurn()))
    assert state.phase == "age_scoring"
    short = act(new(2), cam.RevealAge(beasts=("Wyrm",), rounds=1))
    short = act(short, cam.EndTurn(), cam.EndTurn())
    assert short.phase == "age_scoring"
    manual = end_action_phase(started(2))
    assert manual.phase == "age_scoring"


def test_CA_R05_mantle_tie_is_a_d6_roll_off_with_rerolls() -> None:
    state = end_action_phase(started(3))
    state = act(state, cam.AgeScoring(gold=(4, 4, 1)))
    while state.phase == "harvest":
        state = act(state, cam.PassHarvest())
    request = R.dice_request(state)
    assert request is not None and request.count == 2 and request.sides == 6
    state = act(state, Roll(values=(3, 3), source="manual"))
    assert isinstance(state.pending[0], PendingRollOff) and state.pending[0].contenders == (0, 1)
    state = act(state, Roll(values=(2, 5), source="manual"))
    assert state.mantle == 1 and state.phase == "age_reveal"


def test_CA_R05_least_gold_tie_roll_off_decides_who_places_the_new_lair() -> None:
    state = _play_age_to_end(started(3), (3, 0, 0))
    state = act(state, cam.RevealAge(beasts=("Kraken",)))
    head = state.pending[0]
    assert isinstance(head, PendingRollOff) and head.purpose == "least_gold"
    assert head.contenders == (1, 2)
    state = act(state, Roll(values=(1, 4)))
    assert state.pending[0] == PendingLair(player=2, beast="Kraken")
    assert R.current_player(state) == 2


def test_a_three_way_mantle_tie_rerolls_only_the_players_still_tied_ca_r05() -> None:
    state = _play_age_to_end(started(3), (4, 4, 4))
    assert state.pending == (PendingRollOff(purpose="mantle", contenders=(0, 1, 2)),)
    state = act(state, Roll(values=(5, 2, 5), source="manual"))
    assert state.pending == (PendingRollOff(purpose="mantle", contenders=(0, 2)),)
    request = R.dice_request(state)
    assert request is not None and request.count == 2  # one die each for Ann and Cleo
    with pytest.raises(RuleViolation) as err:
        R.apply(state, Roll(values=(1, 2, 3), source="manual"))
    assert err.value.ruling == "CA-R05"
    state = act(state, Roll(values=(1, 6), source="manual"))
    assert state.pending == () and state.mantle == 2
    assert state.phase == "age_reveal" and R.current_player(state) == 2


def test_nothing_else_is_taken_while_a_roll_off_waits_ca_r05() -> None:
    state = _play_age_to_end(started(3), (4, 4, 1))
    assert list(R.legal_actions(state)) == [Roll()]
    for refused in (
        cam.RevealAge(beasts=("Wyrm",)),
        cam.PassHarvest(),
        ApplyEffect(effect=GainGold(who=2, amount=5)),
    ):
        with pytest.raises(RuleViolation) as err:
            R.apply(state, refused)
        assert err.value.ruling == "CA-R05"


def test_a_least_gold_tie_rerolls_and_the_winner_places_every_new_lair_ca_r05() -> None:
    state = _play_age_to_end(started(3), (2, 0, 0))
    assert state.mantle == 0 and state.pending == ()  # one leader: no roll-off for the Mantle
    state = act(state, cam.RevealAge(beasts=("Kraken", "Hydra")))
    assert state.pending == (PendingRollOff(purpose="least_gold", contenders=(1, 2)),)
    state = act(state, Roll(values=(4, 4), source="manual"))
    assert state.pending == (PendingRollOff(purpose="least_gold", contenders=(1, 2)),)
    state = act(state, Roll(values=(2, 3), source="manual"))
    assert state.pending == (
        PendingLair(player=2, beast="Kraken"),
        PendingLair(player=2, beast="Hydra"),
    )
    assert R.current_player(state) == 2


@settings(max_examples=40, deadline=None)
@given(data=st.data(), gold=st.lists(st.integers(0, 3), min_size=2, max_size=4))
def test_the_mantle_goes_to_a_richest_player_by_the_highest_roll_ca_r05(
    data: st.DataObject, gold: list[int]
) -> None:
    """Whatever the dice: only the richest roll, each reroll is among those tied at the
    top of the last roll, and the one highest roll takes the Mantle."""
    players = len(gold)
    state = _play_age_to_end(started(players), tuple(gold))
    contenders = tuple(p for p, g in enumerate(gold) if g == max(gold))
    for round_ in range(20):
        if len(contenders) == 1:
            break
        assert state.pending == (PendingRollOff(purpose="mantle", contenders=contenders),)
        die = st.integers(1, 6)
        faces = data.draw(st.tuples(*[die] * len(contenders)))
        if round_ == 19:  # a last round settles it
            faces = tuple(range(6, 6 - len(contenders), -1))
        state = act(state, Roll(values=faces, source="manual"))
        contenders = tuple(p for p, f in zip(contenders, faces, strict=True) if f == max(faces))
    assert state.pending == () and state.mantle == contenders[0]
    assert gold[state.mantle] == max(gold)


def test_CA_R06_tipped_colossus_still_controls_and_blocks_others() -> None:
    state2 = place(explored(started(2)), colossi={1: "r1c1"}, acolytes={"r3c3": {1: 1}})
    h2 = act(to_harvest(state2), cam.Harvest(space="r3c3"))
    assert h2.tipped == (True, False)
    assert "r3c3" not in R.harvestable(h2, 1)
    off = place(
        explored(started(2, tipped_colossus_controls=False)),
        colossi={1: "r1c1"},
        acolytes={"r3c3": {1: 1}},
    )
    h3 = act(to_harvest(off), cam.Harvest(space="r3c3"))
    assert "r3c3" in R.harvestable(h3, 1)


def test_a_lone_tipped_colossus_keeps_the_others_from_harvesting_ca_r06() -> None:
    state = place(explored(started(2)), colossi={1: "r1c1"}, acolytes={"r3c3": {1: 2}})
    state = act(to_harvest(state), cam.Harvest(space="r3c3"))
    assert state.tipped == (True, False) and R.current_player(state) == 1
    overview = {(h.cell, h.role, h.player) for h in R.highlights(state)}
    assert ("r3c3", Role.CONTROL, 0) in overview
    assert ("r3c3", Role.HARVESTABLE, 1) not in overview
    assert cam.Harvest(space="r3c3") not in list(R.legal_actions(state))
    with pytest.raises(RuleViolation) as err:
        R.apply(state, cam.Harvest(space="r3c3"))
    assert err.value.ruling == "CA-R06" and "C3" in err.value.message  # r3c3's label


@pytest.mark.parametrize(("tipped_controls", "bob_harvests"), [(True, False), (False, True)])
def test_a_tipped_colossus_still_counts_among_several_colossi_ca_r06(
    tipped_controls: bool, bob_harvests: bool
) -> None:
    """Ann (Colossus + 1 Acolyte) harvests a space she shares with Bob's Colossus. Her
    tipped Colossus still counts: 0 Acolytes each among the owners, so nobody controls
    it. Without the ruling (option off) Bob's upright Colossus is alone and controls it."""
    state = started(2, tipped_colossus_controls=tipped_controls)
    state = place(explored(state), colossi={0: "r2c2", 1: "r2c2"}, acolytes={"r2c2": {0: 1}})
    state = act(to_harvest(state), cam.Harvest(space="r2c2"))
    assert state.tipped == (True, False) and state.space("r2c2").acolytes == (0, 0)
    assert ("r2c2" in R.harvestable(state, 1)) is bob_harvests
    if bob_harvests:
        assert act(state, cam.Harvest(space="r2c2")).tipped == (True, True)
    else:
        with pytest.raises(RuleViolation) as err:
            R.apply(state, cam.Harvest(space="r2c2"))
        assert err.value.ruling == "CA-R06"


CONTROL_SPACES = ("r2c2", "r2c3", "r3c3")


@settings(max_examples=60, deadline=None)
@given(
    colossi=st.tuples(*[st.sampled_from(CONTROL_SPACES)] * 3),
    tipped=st.tuples(*[st.booleans()] * 3),
    acolytes=st.dictionaries(st.sampled_from(CONTROL_SPACES), st.tuples(*[st.integers(0, 2)] * 3)),
)
def test_tipping_a_colossus_never_changes_who_controls_a_space_ca_r06(
    colossi: tuple[str, str, str],
    tipped: tuple[bool, bool, bool],
    acolytes: dict[str, tuple[int, int, int]],
) -> None:
    """With the ruling a tipped Colossus counts exactly like an upright one; with the
    option off it counts as if it were not there."""
    counts = {space: dict(enumerate(n)) for space, n in acolytes.items()}
    seats = range(3)
    for tipped_controls in (True, False):
        base = explored(started(3, tipped_colossus_controls=tipped_controls))
        upright = place(base, colossi=dict(enumerate(colossi)), acolytes=counts)
        laid = upright.model_copy(update={"tipped": tipped})
        if tipped_controls:
            same = upright
        else:
            gone = {seat: None for seat in seats if tipped[seat]}
            same = place(upright, colossi=gone)
        for seat in seats:
            assert R.harvestable(laid, seat) == R.harvestable(same, seat)


def test_CA_R07_each_player_harvests_a_space_at_most_once_per_age() -> None:
    state = place(explored(started(2)), colossi={1: "r1c1"}, acolytes={"r2c2": {0: 2}})
    state = act(to_harvest(state), cam.Harvest(space="r2c2"))
    state = act(state, cam.PassHarvest())  # Bob passes; Ann again
    state = place(state, acolytes={"r2c2": {0: 1}})
    with pytest.raises(RuleViolation) as err:
        R.apply(state, cam.Harvest(space="r2c2"))
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
        R.apply(state, Move(piece="colossus", origin="r3c3", to="r2c3"))
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
    state = act(state, Move(piece="colossus", origin="r3c3", to="r2c3"))
    with pytest.raises(RuleViolation) as err:
        R.apply(state, cam.DrawTile(kind="grass"))
    assert err.value.ruling == "CA-R10"
    state = act(state, cam.DrawTile())
    assert state.space("r2c3").tile == Tile(kind="environment") and state.spare_environments == 0
    state = act(state, Move(piece="colossus", origin="r2c3", to="r1c3"), cam.DrawTile())
    assert state.space("r1c3").tile == Tile(kind="bare")


def test_CA_R10_virtual_draws_follow_the_deck_counts() -> None:
    state = started(2)
    state = state.model_copy(update={"deck_grass": 0, "deck_environments": 0})
    state = act(state, Move(piece="colossus", origin="r3c3", to="r2c3"), cam.DrawTile())
    tile = state.space("r2c3").tile
    assert tile is not None and tile.kind == "lair" and tile.beast == "Random Beast 1"
    assert any(b.name == "Random Beast 1" and b.space == "r2c3" for b in state.beasts)
    assert state.deck_lairs == ("Random Beast 2",)


def test_a_lair_drawn_from_the_explore_deck_is_named_as_a_beast_rulings_3_4() -> None:
    """The deck's Lairs belong to Beasts the seed does not name (RULINGS 3.4, step 5): a
    player reads "the Lair of Random Beast 1", never a tile's name inside "Lair of"."""
    state = started(2)
    state = state.model_copy(update={"deck_grass": 0, "deck_environments": 0})
    state = act(state, Move(piece="colossus", origin="r3c3", to="r2c3"))
    words = R.describe(state, cam.DrawTile(kind="lair"))
    assert "the Lair of Random Beast 1" in words, words
    assert words.count("Lair") == 1, words


def test_CA_R10_an_environment_draw_takes_exactly_one_tile_off_the_deck() -> None:
    state = started(2, spare_environments=2)
    state = act(state, Move(piece="colossus", origin="r3c3", to="r2c3"))
    after = act(state, cam.DrawTile(kind="environment", name="Marsh"))
    assert after.space("r2c3").tile == Tile(kind="environment", name="Marsh")
    assert after.deck_environments == state.deck_environments - 1
    assert (after.deck_grass, after.deck_lairs) == (state.deck_grass, state.deck_lairs)
    assert after.spare_environments == 2  # the box is only for an empty deck


def test_CA_R11_same_beasts_stay_and_old_lairs_are_retired() -> None:
    state = _play_age_to_end(started(2), (2, 1))
    same = act(state, cam.RevealAge(beasts=("Wyrm",)))
    assert [(b.name, b.space) for b in same.beasts] == [("Wyrm", "r3c3")]
    assert same.phase == "actions"
    # a new Beast: Bob (least Gold) places it; Wyrm leaves; its Lair had Colossi on it
    new_age = act(state, cam.RevealAge(beasts=("Kraken",)))
    assert new_age.pending[0] == PendingLair(player=1, beast="Kraken")
    new_age = act(new_age, cam.PlaceLair(space="r1c1"))
    assert [(b.name, b.space) for b in new_age.beasts] == [("Kraken", "r1c1")]
    assert new_age.space("r3c3").tile is None
    assert new_age.pending[0] == PendingExplore(space="r3c3", player=0, entered=False)
    # partial overlap: Wyrm stays, Kraken is added
    both = act(state, cam.RevealAge(beasts=("Wyrm", "Kraken")), cam.PlaceLair(space="r5c5"))
    assert {b.name for b in both.beasts} == {"Wyrm", "Kraken"}


def test_CA_R11_several_age1_beasts_first_in_centre_others_by_roll_off() -> None:
    state = act(new(2), cam.RevealAge(beasts=("Wyrm", "Kraken")))
    assert state.space("r3c3").tile is not None
    assert isinstance(state.pending[0], PendingRollOff)
    state = act(state, Roll(values=(2, 5)))
    assert state.pending[0] == PendingLair(player=1, beast="Kraken")


def test_CA_R11_an_explored_lair_of_the_new_age_stays_where_it_is() -> None:
    state = started(2)
    state = state.model_copy(update={"deck_grass": 0, "deck_environments": 0})
    state = act(state, Move(piece="colossus", origin="r3c3", to="r2c3"), cam.DrawTile())
    state = _play_age_to_end(state, (1, 0))
    state = act(state, cam.RevealAge(beasts=("Random Beast 1",)))
    assert [(b.name, b.space) for b in state.beasts] == [("Random Beast 1", "r2c3")]


def test_a_beast_whose_lair_was_explored_stays_when_the_ages_change_ca_r11() -> None:
    """Only the Beasts the previous Age card named leave; a Beast that came out of the
    explore deck is not one of them and stays where it is, Age after Age."""
    state = act(
        started(2),
        Move(piece="colossus", origin="r3c3", to="r2c3"),
        cam.DrawTile(kind="lair", beast="Hydra"),
    )
    hydra = Tile(kind="lair", name="Lair of Hydra", beast="Hydra")
    state = _play_age_to_end(state, (1, 0))
    state = act(state, cam.RevealAge(beasts=("Kraken",)), cam.PlaceLair(space="r1c1"))
    assert {(b.name, b.space) for b in state.beasts} == {("Hydra", "r2c3"), ("Kraken", "r1c1")}
    assert state.space("r2c3").tile == hydra
    # Age III names Wyrm again: Kraken (Age II's) leaves, Hydra still stays
    assert state.pending == (PendingExplore(space="r3c3", player=0, entered=False),)
    state = act(state, cam.DrawTile(kind="grass"))  # Bob's Colossus stood on Wyrm's Lair
    state = _play_age_to_end(state, (0, 2))
    state = act(state, cam.RevealAge(beasts=("Wyrm",)), cam.PlaceLair(space="r5c5"))
    assert {(b.name, b.space) for b in state.beasts} == {("Hydra", "r2c3"), ("Wyrm", "r5c5")}
    assert state.space("r2c3").tile == hydra and state.space("r1c1").tile is None


@pytest.mark.parametrize("standing", ["nobody", "acolyte", "colossus"])
def test_a_retiring_lair_leaves_an_empty_space_unless_pieces_stand_on_it_ca_r11(
    standing: str,
) -> None:
    state = place(started(2), colossi={0: "r1c1", 1: "r5c5"})
    if standing == "acolyte":
        state = place(state, acolytes={"r3c3": {1: 1}})
    elif standing == "colossus":
        state = place(state, colossi={1: "r3c3"})
    state = _play_age_to_end(state, (1, 0))
    state = act(state, cam.RevealAge(beasts=("Kraken",)), cam.PlaceLair(space="r1c2"))
    assert [b.name for b in state.beasts] == ["Kraken"]
    assert state.space("r3c3").tile is None and state.phase == "actions"
    if standing == "nobody":
        assert state.pending == ()
        # an empty space again: the next piece to enter it explores it
        state = place(state, colossi={0: "r2c3"})
        state = act(state, Move(piece="colossus", origin="r2c3", to="r3c3"))
        assert state.pending == (PendingExplore(space="r3c3", player=0),)
    else:
        assert state.pending == (PendingExplore(space="r3c3", player=0, entered=False),)
        state = act(state, cam.DrawTile(kind="grass", loot="cards"))
        assert state.space("r3c3").tile == Tile(kind="grass", loot="cards")
        assert (state.space("r3c3").acolytes, state.colossi) == (
            ((0, 1), ("r1c1", "r5c5")) if standing == "acolyte" else ((0, 0), ("r1c1", "r3c3"))
        )


def test_a_beast_named_again_keeps_its_space_and_only_missing_lairs_are_placed_ca_r11() -> None:
    state = _play_age_to_end(started(2), (2, 1))
    state = act(state, cam.RevealAge(beasts=("Kraken", "Wyrm")))
    assert state.pending == (PendingLair(player=1, beast="Kraken"),)
    state = act(state, cam.PlaceLair(space="r5c5"))
    assert state.beasts == (
        BeastPos(name="Wyrm", space="r3c3"),
        BeastPos(name="Kraken", space="r5c5"),
    )
    assert state.space("r3c3").tile == Tile(kind="lair", name="Lair of Wyrm", beast="Wyrm")
    assert state.pending == () and state.phase == "actions"


def test_age_one_puts_its_first_beast_in_the_centre_and_a_roll_off_places_the_rest_ca_r11() -> None:
    state = act(new(3), cam.RevealAge(beasts=("Wyrm", "Kraken", "Hydra")))
    assert state.beasts == (BeastPos(name="Wyrm", space="r3c3"),)
    # every player has 0 Gold: all roll
    assert state.pending == (PendingRollOff(purpose="age1_lairs", contenders=(0, 1, 2)),)
    state = act(state, Roll(values=(2, 6, 3), source="manual"))
    assert state.pending == (
        PendingLair(player=1, beast="Kraken"),
        PendingLair(player=1, beast="Hydra"),
    )
    state = act(state, cam.PlaceLair(space="r1c1"), cam.PlaceLair(space="r5c5"))
    assert [(b.name, b.space) for b in state.beasts] == [
        ("Wyrm", "r3c3"),
        ("Kraken", "r1c1"),
        ("Hydra", "r5c5"),
    ]
    assert state.phase == "actions" and R.current_player(state) == 0


@pytest.mark.parametrize("beasts", [(), ("Wyrm", "Wyrm")], ids=["no Beast", "a Beast twice"])
def test_an_age_card_names_at_least_one_beast_each_once_ca_r11(beasts: tuple[str, ...]) -> None:
    for state in (new(2), _play_age_to_end(started(2), (1, 0))):
        with pytest.raises(RuleViolation) as err:
            R.apply(state, cam.RevealAge(name="Odd", beasts=beasts))
        assert err.value.ruling == "CA-R11"


def test_a_beast_already_on_the_island_does_not_come_out_of_the_deck_ca_r11() -> None:
    state = act(started(2), Move(piece="colossus", origin="r3c3", to="r2c3"))
    with pytest.raises(RuleViolation) as err:
        R.apply(state, cam.DrawTile(kind="lair", beast="Wyrm"))
    assert err.value.ruling == "CA-R11" and "Wyrm" in err.value.message
    after = act(state, cam.DrawTile(kind="lair", beast="Hydra"))
    assert [(b.name, b.space) for b in after.beasts] == [("Wyrm", "r3c3"), ("Hydra", "r2c3")]


def test_CA_R12_initial_traits_from_the_mantle_holder_clockwise() -> None:
    state = act(new(3, use_traits=True, mantle_holder=1), cam.RevealAge(beasts=("Wyrm",)))
    assert [p.player for p in state.pending if isinstance(p, PendingTrait)] == [1, 2, 0]
    state = act(state, cam.TakeTrait(row=0, refill="Fury"))
    assert state.traits[1] == ("Trait 1",) and state.trait_row == ("Fury", "Trait 2", "Trait 3")
    state = act(state, cam.TakeTrait(name="Deck card"), cam.TakeTrait(row=0))
    assert state.traits == (("Fury",), ("Trait 1",), ("Deck card",))
    assert len(state.trait_row) == 3


@pytest.mark.parametrize(("players", "mantle"), [(n, m) for n in (2, 3, 4) for m in range(n)])
def test_first_traits_are_taken_from_the_mantle_holder_clockwise_ca_r12(
    players: int, mantle: int
) -> None:
    state = act(
        new(players, use_traits=True, mantle_holder=mantle), cam.RevealAge(beasts=("Wyrm",))
    )
    asked = []
    while state.pending:
        asked.append(R.current_player(state))
        state = act(state, cam.TakeTrait())
    assert asked == [(mantle + k) % players for k in range(players)]
    assert all(len(traits) == 1 for traits in state.traits) and len(state.trait_row) == 3
    assert state.phase == "actions" and R.current_player(state) == mantle


def test_traits_are_chosen_once_at_setup_not_in_later_ages_ca_r12() -> None:
    state = started(3, use_traits=True)
    assert all(len(traits) == 1 for traits in state.traits)
    state = _play_age_to_end(state, (0, 3, 1))
    state = act(state, cam.RevealAge(beasts=("Wyrm",)))
    assert state.pending == () and state.phase == "actions"
    assert all(len(traits) == 1 for traits in state.traits)


def test_the_mantle_holder_plays_first_then_play_goes_clockwise_ca_r12() -> None:
    state = started(3, mantle_holder=2)
    order = []
    for _ in range(6):
        order.append(R.current_player(state))
        state = settle(act(state, cam.EndTurn()))
    assert order == [2, 0, 1, 2, 0, 1]
    state = to_harvest(state, (0, 4, 0))
    harvesters = []
    while state.phase == "harvest":
        harvesters.append(R.current_player(state))
        state = act(state, cam.PassHarvest())
    assert harvesters == [2, 0, 1]
    # the next Age starts with the new Mantle holder (first place, CA-R03)
    state = act(state, cam.RevealAge(beasts=("Wyrm",)))
    assert state.mantle == 1 and R.current_player(state) == 1


def test_CA_R13_a_third_trait_forces_a_discard_and_no_traits_means_nothing() -> None:
    state = act(new(2, use_traits=True), cam.RevealAge(beasts=("Wyrm",)))
    state = state.model_copy(
        update={"traits": (("A", "B"), ()), "pending": (PendingTrait(player=0),)}
    )
    state = act(state, cam.TakeTrait(row=1))
    assert state.pending[0] == PendingTraitDiscard(player=0)
    with pytest.raises(RuleViolation) as err:
        R.apply(state, cam.EndTurn())
    assert err.value.ruling == "CA-R13"
    state = act(state, cam.DiscardTrait(name="A"))
    assert state.traits[0] == ("B", "Trait 2")
    # without Traits, Trait Loot gives nothing
    plain = explored(started(2), Tile(kind="grass", loot="trait"))
    plain = place(plain, acolytes={"r1c1": {0: 1}})
    plain = act(to_harvest(plain), cam.Harvest(space="r1c1"))
    assert not any(isinstance(p, PendingTrait) for p in plain.pending)


def test_CA_R14_card_types_are_data_but_perks_are_not_colossi_cards() -> None:
    state = started(2)
    after = act(state, PlayCard(kind="other", name="Mystery"))
    assert after.cards_in_hand[0] == 1 and after.movements_left == 3
    with pytest.raises(RuleViolation) as err:
        R.apply(state, PlayCard(kind="perk", name="x"))
    assert err.value.ruling == "CA-R14"


def test_CA_R14_a_named_card_without_a_content_file_is_refused() -> None:
    state = started(2)
    assert state.options.content is None
    with pytest.raises(RuleViolation, match="The content file has no card 'Fireball'"):
        R.apply(state, PlayCard(kind="action", card="Fireball"))
    assert act(state, PlayCard(kind="action", name="Fireball")).movements_left == 3


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
    state = act(state, cam.RevealAge(beasts=("Kraken",)))
    full = explored(state, Tile(kind="grass", loot="gold"))
    legal = {a.space for a in R.legal_actions(full) if isinstance(a, cam.PlaceLair)}
    assert "r3c3" not in legal and "r1c1" in legal  # the Wyrm's space is excluded
    placed = act(full, cam.PlaceLair(space="r1c1"))
    assert placed.space("r1c1").tile == Tile(kind="lair", name="Lair of Kraken", beast="Kraken")
    water = place(state, water=("r1c1",))
    with pytest.raises(RuleViolation):
        R.apply(water, cam.PlaceLair(space="r1c1"))


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
    water_age = act(water_age, cam.RevealAge(beasts=("Wyrm",), water=("r1c1", "r1c2")))
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
    state = act(state, cam.RevealAge())
    assert state.age_beasts == ("Wyrm",) and state.rounds == 2 and state.used_age_cards == ("a1",)
    state = _play_age_to_end(state, (1, 0))
    state = act(state, cam.RevealAge())
    assert state.used_age_cards == ("a1", "b1") and state.space("r1c1").water
    with pytest.raises(RuleViolation) as err:
        R.apply(new(2, content=content.model_dump(mode="json")), cam.RevealAge(card="nope"))
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
        cam.Harvest(space="r3c3", effects=(GainGold(amount=3),)),
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
    state = act(to_harvest(state), cam.Harvest(space="r1c1"))
    state = act(state, cam.Harvest(space="r1c1"))  # Bob now controls it
    assert state.gold == (1, 1)


def test_harvest_highlights_and_refusals() -> None:
    state = explored(started(2), Tile(kind="grass", loot="cards"))
    state = place(state, acolytes={"r1c1": {0: 1}}, colossi={1: "r5c5"})
    state = to_harvest(state)
    cells = {h.cell for h in R.highlights(state) if h.role == Role.HARVESTABLE}
    assert cells == {"r1c1", "r3c3"}
    with pytest.raises(RuleViolation):
        R.apply(state, cam.Harvest(space="r5c5"))
    with pytest.raises(RuleViolation):
        R.apply(state, cam.Harvest(space="r1c1", effects=(GainGold(amount=1),)))


def test_game_ends_after_age_three_with_shared_victory() -> None:
    state = started(2)
    for age in range(3):
        state = _play_age_to_end(state, (1, 1))
        if age < 2:
            while state.pending:
                state = act(state, next(iter(R.legal_actions(state))))
            state = act(state, cam.RevealAge(beasts=("Wyrm",)))
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
            state = act(state, cam.RevealAge(beasts=("Wyrm",)))
    assert state.phase == "tie"
    state = act(state, cam.PickWinners(seats=(0,)))
    out = R.outcome(state)
    assert out is not None and out.winners == (0,)
