"""Colossi's own actions and coded values in the players' words, word for word: what the
action menu and the log say for each action, by board label and spelled count."""

from __future__ import annotations

import pytest

from companion.dice import Roll
from companion.games.island.model import (
    ExtraMovements,
    GainGold,
    PendingExplore,
    PendingLair,
    PendingRollOff,
    PlaceWater,
)

from .colossi_help import R, actions, cam, content, harvesting, new


def say(state: object, action: object) -> str:
    return R.describe(state, action)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("purpose", "what"),
    [("mantle", "the Mantle"), ("least_gold", "least Gold"), ("age1_lairs", "the Lairs")],
)
def test_a_roll_off_is_said_with_what_it_decides_and_each_face_ca_r05(
    purpose: str, what: str
) -> None:
    state = actions(3, pending=(PendingRollOff(purpose=purpose, contenders=(0, 2)),))
    assert say(state, Roll()) == f"Roll off for {what}"
    faces = Roll(values=(4, 6), source="manual")
    assert say(state, faces) == f"Roll-off for {what}: Ann 4, Cleo 6"


def test_a_roll_with_no_roll_off_waiting_is_said_plainly() -> None:
    assert say(actions(), Roll(values=(3,), source="manual")) == "Roll off for it"


def test_tile_draws_are_said_by_what_was_drawn_for_the_space_ca_r10() -> None:
    state = actions(pending=(PendingExplore(space="r2c4", player=0),), deck_lairs=())
    assert say(state, cam.DrawTile()) == "Draw a tile for B4"
    assert say(state, cam.DrawTile(loot="trait")) == ("Draw a tile for B4 (Grass gives a Trait)")
    assert say(state, cam.DrawTile(kind="grass")) == "Drew Grass for B4"
    assert say(state, cam.DrawTile(kind="grass", loot="cards")) == "Drew Grass with a card for B4"
    assert say(state, cam.DrawTile(kind="lair")) == "Drew the Lair of a Beast for B4"
    assert say(state, cam.DrawTile(kind="lair", beast="Kraken")) == (
        "Drew the Lair of Kraken for B4"
    )
    deck = state.model_copy(update={"deck_lairs": ("Random Beast 2",)})
    assert say(deck, cam.DrawTile(kind="lair")) == "Drew the Lair of Random Beast 2 for B4"
    assert say(state, cam.DrawTile(kind="environment")) == "Drew an Environment for B4"
    assert say(state, cam.DrawTile(kind="environment", name="Marsh")) == (
        "Drew the Environment Marsh for B4"
    )
    assert say(state, cam.DrawTile(kind="bare")) == "Drew nothing for B4"
    # nothing waiting to be explored: no space named
    assert say(actions(), cam.DrawTile(kind="environment", name="Marsh")) == (
        "Drew the Environment Marsh"
    )


def test_placing_a_lair_names_its_beast_and_space_ca_r16() -> None:
    waiting = actions(pending=(PendingLair(player=0, beast="Kraken"),))
    assert say(waiting, cam.PlaceLair(space="r1c5")) == "Place the Lair of Kraken on A5"
    assert say(actions(), cam.PlaceLair(space="r1c5")) == "Place the Lair of a Beast on A5"


def test_traits_are_said_by_their_names_ca_r13() -> None:
    state = actions(trait_row=("Trait 1", "Swift"))
    assert say(state, cam.TakeTrait(row=0)) == "Take Trait 1 from the face-up row"
    assert say(state, cam.TakeTrait(row=1)) == "Take the Trait Swift from the face-up row"
    # a row that is not there: the deck's card, by its name if entered
    assert say(state, cam.TakeTrait(row=2)) == "Take the top Trait of the deck"
    assert say(state, cam.TakeTrait(row=2, name="Keen")) == "Take the Trait Keen from the deck"
    assert say(state, cam.TakeTrait(name="Trait 7")) == "Take Trait 7 from the deck"
    assert say(state, cam.DiscardTrait(name="Swift")) == "Discard the Trait Swift"


def test_the_age_scoring_says_who_gains_and_who_loses_rulings_3_7() -> None:
    state = actions(3, age=2)
    assert say(state, cam.AgeScoring(gold=(2, 0, -1))) == (
        "Age II scoring: Ann gains 2 Gold and Cleo loses 1 Gold"
    )
    assert say(state, cam.AgeScoring(gold=(0, 1, 0))) == "Age II scoring: Bob gains 1 Gold"


def test_a_harvest_with_its_environment_text_is_said_in_full() -> None:
    state = harvesting(active=1)
    flood = cam.Harvest(space="r3c3", effects=(PlaceWater(space="r1c1"), GainGold(amount=2)))
    assert say(state, flood) == "Harvest C3: put Water on A1; Bob gains 2 Gold"
    assert say(state, cam.Harvest(space="r1c2")) == "Harvest A2"


def test_an_age_card_is_said_with_its_beasts_rounds_centre_lair_and_water_ca_r01() -> None:
    state = new()
    assert say(state, cam.RevealAge(beasts=("Wyrm",))) == (
        "Reveal Age I: Wyrm, 5 rounds, the Lair of Wyrm on C3"
    )
    assert say(
        state,
        cam.RevealAge(name="Dawn", beasts=("Wyrm", "Roc"), rounds=1, water=("r1c1", "r5c5")),
    ) == ("Reveal Age I (Dawn): Wyrm and Roc, 1 round, the Lair of Wyrm on C3, Water on A1 and E5")
    assert say(state, cam.RevealAge(name="Age I")) == "Reveal Age I: no Beast, 5 rounds"
    tile_first = new(centre_setup="random_tile")
    assert say(tile_first, cam.RevealAge(beasts=("Wyrm",))) == "Reveal Age I: Wyrm, 5 rounds"
    later = new(rounds_per_age=3).model_copy(update={"age": 3})
    assert say(later, cam.RevealAge(beasts=("Wyrm",))) == "Reveal Age III: Wyrm, 3 rounds"


def test_an_age_card_of_the_content_file_is_said_by_its_name_ca_r19() -> None:
    box = content(
        {
            "ages": [
                {"id": "dawn", "name": "Dawn", "beasts": ["Wyrm"]},
                {"id": "dusk", "beasts": ["Roc"]},
            ]
        }
    )
    state = new(content=box)
    assert say(state, cam.RevealAge(card="dawn")) == "Reveal the Age card Dawn"
    assert say(state, cam.RevealAge(card="dusk")) == "Reveal the Age card dusk"
    assert say(state, cam.RevealAge(card="noon")) == "Reveal the Age card noon"
    assert say(new(), cam.RevealAge(card="noon")) == "Reveal the Age card noon"
    second = state.model_copy(update={"age": 2})
    assert say(second, cam.RevealAge()) == "Draw the Age card of Age II"
    # Beasts entered with a content file: the card as entered
    assert say(second, cam.RevealAge(beasts=("Roc",))) == "Reveal Age II: Roc, 5 rounds"
    # a content file without Age cards draws nothing
    cards_only = new(content=content({"cards": [{"id": "haste", "kind": "action"}]}))
    assert say(cards_only, cam.RevealAge()) == "Reveal Age I: no Beast, 5 rounds"


def test_coded_values_are_said_in_words() -> None:
    state = actions(trait_row=("Trait 1", "Swift"))

    def value(action_type: str, field: str, v: object) -> str | None:
        return R.value_words(state, action_type, field, v)

    assert value("draw_tile", "kind", "grass") == "Grass"
    assert value("draw_tile", "kind", "lair") == "Lair"
    assert value("draw_tile", "kind", "environment") == "Environment"
    assert value("draw_tile", "kind", "bare") == "nothing"
    assert value("draw_tile", "kind", None) == "the referee draws it"
    assert value("draw_tile", "loot", "gold") == "Gold"
    assert value("draw_tile", "loot", "none") == "nothing"
    assert value("take_trait", "row", 0) == "Trait 1"
    assert value("take_trait", "row", 1) == "Swift"
    assert value("take_trait", "row", None) == "the deck's top card"


def test_colossi_words_only_its_own_coded_values() -> None:
    """Anything else is left to the island's shared words (None)."""
    state = actions(trait_row=("Trait 1", "Swift"))

    def own(action_type: str, field: str, v: object) -> str | None:
        return R.game_value_words(state, action_type, field, v)

    assert own("draw_tile", "kind", "volcano") == ""
    assert own("draw_tile", "kind", 3) == "the referee draws it"
    assert own("harvest", "loot", "cards") == "a card"
    assert own("draw_tile", "loot", None) is None
    assert own("draw_tile", "loot", "silver") is None
    assert own("take_trait", "row", 2) is None
    assert own("take_trait", "row", -1) is None
    assert own("take_trait", "row", "1") is None
    assert own("take_trait", "name", "Swift") is None
    assert own("harvest", "row", 0) is None
    assert own("harvest", "kind", "grass") is None
    assert own("draw_tile", "name", "gold") is None  # a name, not a Loot


def test_a_roll_off_with_fewer_faces_than_contenders_is_still_said_ca_r05() -> None:
    state = actions(pending=(PendingRollOff(purpose="mantle", contenders=(0, 1)),))
    assert say(state, Roll(values=(4,), source="manual")) == "Roll-off for the Mantle: Ann 4"


def test_a_harvest_s_extra_actions_are_called_actions() -> None:
    more = cam.Harvest(space="r3c3", effects=(ExtraMovements(amount=2),))
    assert say(harvesting(), more) == "Harvest C3: 2 more Actions this turn"
