"""What a Colossi screen reads, word for word: the status line for each phase and each
thing the game waits for, the Age and Mantle facts, the dice prompt, and the cells each of
Colossi's own actions lights."""

from __future__ import annotations

import pytest

from companion.games.island.colossi import views as cav
from companion.games.island.model import (
    GainGold,
    MoveBeast,
    PendingDiscard,
    PendingDisplace,
    PendingExplore,
    PendingLair,
    PendingLoot,
    PendingRollOff,
    PendingTrait,
    PendingTraitDiscard,
    PlaceWater,
)
from companion.rules import ActionRole
from companion.views import NO_CELLS, ActionCells

from .colossi_help import R, actions, cam, content, harvesting, new
from .helpers import place

WAITS = [
    (PendingExplore(space="r2c3", player=1), "draw a tile to explore"),
    (PendingRollOff(purpose="mantle", contenders=(0, 1), player=1), "roll off"),
    (PendingLair(player=1, beast="Kraken"), "place the new Lair"),
    (PendingTrait(player=1), "take a Trait"),
    (PendingTraitDiscard(player=1), "discard one of 3 Traits"),
    (PendingDisplace(space="r2c3", player=1, reason="Water"), "move your Colossus away"),
    (PendingDiscard(player=1), "discard down to 6 cards"),
    (PendingLoot(space="r2c3", player=1), "resolve"),
]


@pytest.mark.parametrize(("head", "ask"), WAITS, ids=[type(w[0]).__name__ for w in WAITS])
def test_the_status_line_asks_the_waiting_player_for_the_waiting_answer(
    head: object, ask: str
) -> None:
    state = actions(pending=(head,), age=2)
    assert R.status(state) == f"Age II — Bob: {ask}"


def test_the_status_line_of_each_phase() -> None:
    assert R.status(new(mantle_holder=1)) == "Age I — Bob: reveal the Age card"
    play = actions(3, age_turns=4, movements_left=1, active=1)
    assert R.status(play) == "Age I — Bob: round 2/5, 1 Action left"
    first = actions(3, age_turns=2, rounds=3)
    assert R.status(first) == "Age I — Ann: round 1/3, 4 Actions left"
    scoring = actions(phase="age_scoring", mantle=1, active=0, age=3)
    assert R.status(scoring) == "Age III — Bob: enter the Age card's scoring"
    assert R.status(harvesting(active=1)) == "Age I — Bob: harvest a space or pass"
    assert R.status(actions(phase="tie", mantle=1)) == "Age I — Bob: pick the winner of the tie"
    assert R.status(actions(phase="transition", mantle=1)) == "Age I — Bob: Age transition"


def test_the_status_line_of_nobody_asked_names_the_mantle_holder() -> None:
    state = actions(mantle=1, phase="over")
    assert cav.status_line(state, None) == "Age I — Bob: "
    assert cav.status_line(state, 0) == "Age I — Ann: "


def test_the_age_facts_before_and_after_the_age_card_ca_r04() -> None:
    assert R.panel_facts(new(mantle_holder=1)) == (
        ("Age: I, card not revealed",),
        ("Mantle: Bob",),
    )
    named = actions(age=2, age_name="Flood", age_turns=3, rounds=4)
    assert R.panel_facts(named) == (("Age: II (Flood), round 2/4",), ("Mantle: Ann",))
    plain = actions(age=2, age_name="Age II", age_turns=0, rounds=4)
    assert R.panel_facts(plain)[0] == ("Age: II, round 1/4",)
    # after the last turn of the Action Phase the round stays at the last one
    done = actions(3, phase="age_scoring", age_turns=9, rounds=3)
    assert R.panel_facts(done)[0] == ("Age: I, round 3/3",)


@pytest.mark.parametrize(
    ("purpose", "what"),
    [("mantle", "the Mantle"), ("least_gold", "least Gold"), ("age1_lairs", "Lairs")],
)
def test_the_dice_prompt_of_a_roll_off_names_its_purpose_and_contenders_ca_r05(
    purpose: str, what: str
) -> None:
    state = actions(3, pending=(PendingRollOff(purpose=purpose, contenders=(0, 2)),))
    request = R.dice_request(state)
    assert request is not None
    assert (request.purpose, request.label, request.count, request.sides) == (
        f"roll_off_{purpose}",
        f"Roll-off for {what}: one d6 each for Ann, Cleo",
        2,
        6,
    )
    assert R.dice_request(actions(pending=(PendingLair(player=0, beast="Roc"),))) is None
    assert R.dice_request(actions()) is None


def test_the_mantle_holder_reveals_scores_and_decides_ca_r03() -> None:
    for phase in ("age_reveal", "age_scoring", "tie", "transition"):
        assert R.current_player(actions(phase=phase, mantle=1, active=0)) == 1
    for phase in ("actions", "harvest"):
        assert R.current_player(actions(phase=phase, mantle=1, active=0)) == 0


def test_the_work_label_names_the_age_and_phase() -> None:
    assert R.work_label(actions(age=2)) == "Age II actions"
    assert R.work_label(actions(phase="age_scoring")) == "Age I age scoring"


def test_colossi_action_roles_for_the_table_controls() -> None:
    assert R.action_role("end_turn") == ActionRole.END_TURN
    assert R.action_role("end_action_phase") == ActionRole.END_PHASE
    assert R.action_role("spawn") == ActionRole.PLACE
    assert R.action_role("roll") == ActionRole.ROLL
    assert R.action_role("harvest") is None


@pytest.mark.parametrize("seat", [0, 1])
def test_an_effect_outside_a_card_acts_for_whoever_is_asked(seat: int) -> None:
    assert R.effect_actor(actions(active=seat)) == seat
    assert R.effect_actor(actions(phase="age_scoring", mantle=seat, active=1 - seat)) == seat


def test_harvestable_spaces_only_in_the_harvest_with_nothing_waiting_ca_r07() -> None:
    state = place(harvesting(active=1), colossi={1: "r5c5"})
    assert R.harvestable_now(state, 0) == {"r3c3"}
    assert R.harvestable_now(state, 1) == {"r5c5"}
    assert R.harvestable_now(state, None) is None
    assert R.harvestable_now(actions(), 0) is None
    waiting = harvesting(pending=(PendingTrait(player=0),))
    assert R.harvestable_now(waiting, 0) is None


# --- the cells of Colossi's own actions ------------------------------------------------------


def test_a_tile_draw_lights_the_space_explored() -> None:
    state = actions(pending=(PendingExplore(space="r2c4", player=0),))
    assert R.action_cells(state, cam.DrawTile()) == ActionCells.at("r2c4")
    assert R.action_cells(actions(), cam.DrawTile()) == NO_CELLS


def test_a_harvest_lights_its_space_and_where_its_effects_act() -> None:
    state = harvesting()
    effects = (PlaceWater(space="r5c5"), GainGold(amount=1), PlaceWater(space="r1c1"))
    assert R.action_cells(state, cam.Harvest(space="r3c3", effects=effects)) == ActionCells(
        target="r3c3", touched=frozenset({"r3c3", "r1c1", "r5c5"})
    )
    assert R.action_cells(state, cam.Harvest(space="r3c3")) == ActionCells.at("r3c3")


def test_an_age_card_lights_its_water_and_in_age_one_the_centre_ca_r01() -> None:
    first = new()
    card = cam.RevealAge(beasts=("Wyrm",), water=("r1c1",))
    assert R.action_cells(first, card) == ActionCells.area(frozenset({"r1c1", "r3c3"}))
    later = first.model_copy(update={"age": 2})
    assert R.action_cells(later, card) == ActionCells.area(frozenset({"r1c1"}))
    tile_first = new(centre_setup="random_tile")
    assert R.action_cells(tile_first, card) == ActionCells.area(frozenset({"r1c1"}))


def test_a_known_age_card_lights_the_water_it_prints_ca_r19() -> None:
    box = content({"ages": [{"id": "flood", "beasts": ["Roc"], "water": ["r5c5"]}]})
    state = new(content=box).model_copy(update={"age": 2})
    entered = cam.RevealAge(card="flood", water=("r1c1",))
    assert R.action_cells(state, entered) == ActionCells.area(frozenset({"r5c5"}))
    unknown = cam.RevealAge(card="dusk", water=("r1c1",))
    assert R.action_cells(state, unknown) == ActionCells.area(frozenset({"r1c1"}))
    assert R.action_cells(new().model_copy(update={"age": 2}), unknown) == ActionCells.area(
        frozenset({"r1c1"})
    )


def test_actions_off_the_board_light_nothing() -> None:
    state = harvesting()
    for action in (cam.PassHarvest(), cam.EndTurn(), cam.TakeTrait(), cam.AgeScoring(gold=(0, 0))):
        assert R.action_cells(state, action) == NO_CELLS


def test_a_harvest_moving_a_beast_lights_where_the_beast_stands_and_goes() -> None:
    state = place(harvesting(), acolytes={"r1c1": {0: 1}})
    walk = cam.Harvest(space="r1c1", effects=(MoveBeast(beast="Wyrm", to="r2c3"),))
    assert R.action_cells(state, walk) == ActionCells(
        target="r1c1", touched=frozenset({"r1c1", "r2c3", "r3c3"})
    )
