"""Colossi's refusals word for word: the sentence a player reads, the space by its board
label and the ruling cited, and the position left as it was. A refusal that lost its
words or its ruling, or that let the action through, would leave the table guessing."""

from __future__ import annotations

import pytest

from companion.dice import Roll
from companion.errors import InvalidOptions, InvalidPosition
from companion.games.island.model import (
    ApplyEffect,
    BeastPos,
    GainGold,
    MoveBeast,
    PendingExplore,
    PendingLair,
    PendingLoot,
    PendingRollOff,
    PendingTrait,
    PendingTraitDiscard,
    PlayCard,
    Tile,
)

from .colossi_help import (
    PLAIN,
    R,
    act,
    actions,
    cam,
    content,
    harvesting,
    new,
    refusal,
    texts,
)
from .helpers import place

# --- what the game waits for ----------------------------------------------------------


def test_a_waiting_tile_draw_is_asked_for_by_its_space_rulings_3_6() -> None:
    state = actions(pending=(PendingExplore(space="r2c3", player=0),))
    err = refusal(state, cam.EndTurn())
    assert (err.message, err.ruling) == ("Draw a tile for B3 first.", "3.6")


def test_a_waiting_roll_off_takes_only_the_roll_ca_r05() -> None:
    state = actions(pending=(PendingRollOff(purpose="mantle", contenders=(0, 1)),))
    err = refusal(state, cam.EndTurn())
    assert (err.message, err.ruling) == ("Roll off first.", "CA-R05")


def test_a_waiting_lair_is_named_by_its_beast_ca_r16() -> None:
    state = actions(pending=(PendingLair(player=1, beast="Kraken"),))
    err = refusal(state, cam.EndTurn())
    assert (err.message, err.ruling) == ("Place the Lair of Kraken first.", "CA-R16")


def test_a_waiting_trait_takes_only_a_trait_ca_r13() -> None:
    state = actions(pending=(PendingTrait(player=0),))
    err = refusal(state, cam.EndTurn())
    assert (err.message, err.ruling) == ("Take a Trait first.", "CA-R13")


def test_a_third_trait_must_be_discarded_before_anything_else_ca_r13() -> None:
    state = actions(
        pending=(PendingTraitDiscard(player=0),), traits=(("Swift", "Bold", "Keen"), ())
    )
    err = refusal(state, cam.EndTurn())
    assert (err.message, err.ruling) == ("You hold 3 Traits: discard one now.", "CA-R13")
    after = act(state, cam.DiscardTrait(name="Bold"))
    assert after.traits == (("Swift", "Keen"), ()) and after.pending == ()


def test_a_beast_master_wait_in_a_colossi_position_is_refused_not_crashed() -> None:
    state = actions(pending=(PendingLoot(space="r2c3", player=0),))
    err = refusal(state, cam.EndTurn())
    assert (err.message, err.ruling) == ("Something else must be resolved first.", None)


# --- Lairs ------------------------------------------------------------------------------


def test_a_lair_goes_only_on_an_empty_space_ca_r16() -> None:
    state = new(2)
    state = place(state, tiles={"r1c1": PLAIN}, water=("r1c2",))
    state = state.model_copy(
        update={"phase": "transition", "pending": (PendingLair(player=0, beast="Kraken"),)}
    )
    for taken in ("r1c1", "r1c2"):
        err = refusal(state, cam.PlaceLair(space=taken))
        assert err.message == (
            "A Lair goes on an empty space (no tile, not Water); only when there is "
            "none may it replace a tile."
        )
        assert err.ruling == "CA-R16"
    after = act(state, cam.PlaceLair(space="r1c3"))
    assert after.space("r1c3").tile == Tile(kind="lair", name="Lair of Kraken", beast="Kraken")
    assert after.beasts == (BeastPos(name="Kraken", space="r1c3"),)


# --- Traits -----------------------------------------------------------------------------


def test_a_face_up_trait_must_exist_ca_r13() -> None:
    state = actions(pending=(PendingTrait(player=0),), trait_row=("Swift", "Bold"))
    err = refusal(state, cam.TakeTrait(row=2))
    assert (err.message, err.ruling) == ("There is no such face-up Trait.", "CA-R13")
    after = act(state, cam.TakeTrait(row=1, refill="Keen"))
    assert after.traits == (("Bold",), ()) and after.trait_row == ("Swift", "Keen")


def test_a_trait_not_held_cannot_be_discarded_ca_r13() -> None:
    state = actions(options={"use_traits": True}, traits=(("Swift",), ("Bold",)))
    err = refusal(state, cam.DiscardTrait(name="Bold"))
    assert (err.message, err.ruling) == ("Ann has no Trait 'Bold'.", "CA-R13")


def test_a_trait_is_discarded_at_any_time_by_whoever_is_asked_ca_r13() -> None:
    state = actions(options={"use_traits": True}, traits=(("Swift",), ("Bold",)))
    assert texts(state, cam.DiscardTrait(name="Swift")) == ["Ann discards the Trait Swift."]
    bobs = state.model_copy(update={"active": 1})
    assert act(bobs, cam.DiscardTrait(name="Bold")).traits == (("Swift",), ())


def test_without_traits_no_trait_is_discarded_ca_r13() -> None:
    state = actions(traits=(("Swift",), ()))
    err = refusal(state, cam.DiscardTrait(name="Swift"))
    assert (err.message, err.ruling) == ("This game is played without Traits.", "CA-R13")


# --- effects and cards ------------------------------------------------------------------


def test_an_effect_while_the_tie_is_decided_is_refused_rulings_0_2_4() -> None:
    state = actions(phase="tie", gold=(3, 3))
    err = refusal(state, ApplyEffect(effect=GainGold(amount=1)))
    assert (err.message, err.ruling) == ("The game is being decided.", None)


@pytest.mark.parametrize("seat", [0, 1])
def test_an_effect_outside_a_card_acts_for_the_player_asked(seat: int) -> None:
    state = actions(active=seat)
    after = act(state, ApplyEffect(effect=GainGold(amount=2)))
    assert after.gold == tuple(2 if p == seat else 0 for p in range(2))


def test_perk_and_beast_master_cards_are_not_colossi_cards_ca_r14() -> None:
    for kind in ("perk", "beast_master"):
        err = refusal(actions(), PlayCard(kind=kind))
        assert err.message == "Colossi's cards are Action, Beast and Divine Gift cards."
        assert err.ruling == "CA-R14"


def test_a_known_card_is_played_as_the_kind_the_content_file_gives_ca_r14() -> None:
    box = content({"cards": [{"id": "stampede", "name": "Stampede", "kind": "beast"}]})
    state = actions(options={"content": box}, movements_left=1)
    after = act(state, PlayCard(kind="action", card="stampede"))
    assert after.movements_left == 1  # a Beast card refunds its Action (CA-R15)


def test_a_card_needs_an_action_left_ca_r15() -> None:
    state = actions(movements_left=0)
    beast = refusal(state, PlayCard(kind="beast", effects=(MoveBeast(to="r2c3"),)))
    assert (beast.message, beast.ruling) == (
        "Playing a Beast card needs an Action available.",
        "CA-R15",
    )
    action = refusal(state, PlayCard(kind="action"))
    assert (action.message, action.ruling) == (
        "Playing a card costs an Action; you have none left.",
        None,
    )
    one = act(actions(movements_left=1), PlayCard(kind="action"))
    assert one.movements_left == 0 and one.cards_in_hand == (1, 2)


# --- the explore deck -------------------------------------------------------------------


def test_a_drawn_kind_the_deck_no_longer_holds_is_refused_ca_r10() -> None:
    state = actions(
        pending=(PendingExplore(space="r2c3", player=0),),
        deck_grass=1,
        deck_environments=0,
        deck_lairs=(),
    )
    state = place(state, tiles={"r2c3": None})
    for kind in ("environment", "lair", "bare"):
        err = refusal(state, cam.DrawTile(kind=kind))
        assert (err.message, err.ruling) == (
            f"The explore deck holds no {kind} tile now.",
            "CA-R10",
        )
    after = act(state, cam.DrawTile(kind="grass", loot="gold"))
    assert after.deck_grass == 0 and after.space("r2c3").tile == Tile(kind="grass", loot="gold")


def test_an_empty_deck_gives_a_spare_environment_or_nothing_ca_r10() -> None:
    empty = actions(
        pending=(PendingExplore(space="r2c3", player=0),),
        deck_grass=0,
        deck_environments=0,
        deck_lairs=(),
        spare_environments=0,
    )
    empty = place(empty, tiles={"r2c3": None})
    words = "The explore deck is empty: only a spare Environment from the box, if any, or nothing."
    for kind in ("grass", "lair", "environment"):
        err = refusal(empty, cam.DrawTile(kind=kind))
        assert (err.message, err.ruling) == (words, "CA-R10")
    assert act(empty, cam.DrawTile(kind="bare")).space("r2c3").tile == Tile(kind="bare")
    spare = empty.model_copy(update={"spare_environments": 2})
    err = refusal(spare, cam.DrawTile(kind="grass"))
    assert (err.message, err.ruling) == (words, "CA-R10")
    after = act(spare, cam.DrawTile(kind="environment", name="Marsh"))
    assert after.spare_environments == 1 and after.deck_environments == 0
    assert after.space("r2c3").tile == Tile(kind="environment", name="Marsh")


def test_a_beast_already_on_the_island_is_named_in_the_refusal_ca_r11() -> None:
    state = actions(
        pending=(PendingExplore(space="r2c3", player=0),), deck_lairs=("Random Beast 1",)
    )
    state = place(state, tiles={"r2c3": None})
    err = refusal(state, cam.DrawTile(kind="lair", beast="Wyrm"))
    assert (err.message, err.ruling) == ("Wyrm is already on the island.", "CA-R11")


# --- the Age card -----------------------------------------------------------------------


@pytest.mark.parametrize("beasts", [(), ("Wyrm", "Wyrm")])
def test_an_age_card_names_each_beast_once_word_for_word_ca_r11(beasts: tuple[str, ...]) -> None:
    err = refusal(new(), cam.RevealAge(beasts=beasts))
    assert (err.message, err.ruling) == (
        "An Age card names at least one Beast, each once.",
        "CA-R11",
    )


def test_an_age_card_floods_only_spaces_of_the_island_bm_r01() -> None:
    err = refusal(new(), cam.RevealAge(beasts=("Wyrm",), water=("r9c9",)))
    assert (err.message, err.ruling) == ("There is no space 'r9c9' on this island.", "BM-R01")


def test_an_unknown_age_card_is_named_in_the_refusal_ca_r19() -> None:
    box = content({"ages": [{"id": "dawn", "beasts": ["Wyrm"]}]})
    err = refusal(new(content=box), cam.RevealAge(card="dusk"))
    assert (err.message, err.ruling) == ("The content file has no Age card 'dusk'.", "CA-R19")


def test_a_named_age_card_without_a_content_file_is_refused_ca_r19() -> None:
    err = refusal(new(), cam.RevealAge(card="dawn"))
    assert (err.message, err.ruling) == ("The content file has no Age card 'dawn'.", "CA-R19")


def test_no_unused_age_card_left_for_the_age_ca_r19() -> None:
    box = content({"ages": [{"id": "dawn", "age": "I", "beasts": ["Wyrm"]}]})
    used = new(content=box).model_copy(update={"used_age_cards": ("dawn",)})
    err = refusal(used, cam.RevealAge())
    assert (err.message, err.ruling) == (
        "The content file has no unused Age card for this Age.",
        "CA-R19",
    )


def test_the_age_card_is_revealed_first_ca_r19() -> None:
    err = refusal(new(), cam.EndTurn())
    assert (err.message, err.ruling) == ("Reveal the card of Age I first.", "CA-R19")
    later = new().model_copy(update={"age": 2})
    assert refusal(later, cam.EndTurn()).message == "Reveal the card of Age II first."


def test_each_phase_refuses_what_it_does_not_take_in_its_own_words() -> None:
    err = refusal(actions(), cam.PassHarvest())
    assert (err.message, err.ruling) == ("That is not possible during the Action Phase.", None)
    err = refusal(actions(phase="age_scoring"), cam.EndTurn())
    assert (err.message, err.ruling) == ("Enter the Age card's scoring first.", "3.7")
    err = refusal(harvesting(), cam.EndTurn())
    assert (err.message, err.ruling) == ("In the Harvest Phase you harvest a space or pass.", None)
    err = refusal(actions(phase="transition"), cam.EndTurn())
    assert (err.message, err.ruling) == ("That is not possible now.", None)


def test_the_age_scoring_gives_one_amount_per_player_rulings_3_7() -> None:
    err = refusal(actions(phase="age_scoring"), cam.AgeScoring(gold=(1, 2, 3)))
    assert (err.message, err.ruling) == ("Give one gold amount per player, in seat order.", None)


# --- the Harvest ------------------------------------------------------------------------


def test_harvest_refusals_name_the_space_word_for_word() -> None:
    state = place(harvesting(), acolytes={"r1c1": {0: 1}}, colossi={1: "r5c5"})
    err = refusal(state, cam.Harvest(space="r9c9"))
    assert (err.message, err.ruling) == ("There is no space 'r9c9' on this island.", "BM-R01")
    err = refusal(state, cam.Harvest(space="r5c5"))
    assert (err.message, err.ruling) == ("You do not control E5 now.", "CA-R06")
    done = state.model_copy(update={"harvested": (("r1c1",), ())})
    err = refusal(done, cam.Harvest(space="r1c1"))
    assert (err.message, err.ruling) == ("You already harvested A1 this Age.", "CA-R07")
    err = refusal(state, cam.Harvest(space="r1c1", effects=(GainGold(amount=1),)))
    assert (err.message, err.ruling) == ("A1 is not an Environment: it has no effect text.", None)
    bare = place(state, tiles={"r1c1": None})
    err = refusal(bare, cam.Harvest(space="r1c1", effects=(GainGold(amount=1),)))
    assert (err.message, err.ruling) == ("A1 is not an Environment: it has no effect text.", None)


# --- setup and loaded positions ----------------------------------------------------------


def test_the_mantle_holder_is_one_of_the_players_rulings_3_4() -> None:
    with pytest.raises(InvalidOptions) as err:
        R.setup(["Ann", "Bob"], R.parse_options({"mantle_holder": 2}), seed=1)
    assert (err.value.message, err.value.ruling) == (
        "The Mantle holder must be one of the players.",
        "3.4",
    )
    assert R.setup(["Ann", "Bob"], R.parse_options({"mantle_holder": 1}), seed=1).mantle == 1


def test_a_loaded_position_with_negative_gold_is_refused_ca_r17() -> None:
    with pytest.raises(InvalidPosition) as err:
        R.check_pieces(actions(gold=(0, -1)))
    assert (err.value.message, err.value.ruling) == ("Gold never drops below 0.", "CA-R17")


def test_a_loaded_position_whose_acolytes_do_not_add_up_is_refused_ca_r02() -> None:
    for in_hand in ((10, 9), (10, 11)):
        with pytest.raises(InvalidPosition) as err:
            R.check_pieces(actions(acolytes_in_hand=in_hand))
        assert err.value.message == "Bob has the wrong number of Acolytes."
    R.check_pieces(place(actions(), acolytes={"r1c1": {1: 3}}))


def test_a_loaded_position_holds_at_most_a_third_trait_awaiting_discard_ca_r13() -> None:
    R.check_pieces(actions(traits=(("A", "B", "C"), ())))
    with pytest.raises(InvalidPosition) as err:
        R.check_pieces(actions(traits=((), ("A", "B", "C", "D"))))
    assert (err.value.message, err.value.ruling) == (
        "A player holds more than 2 Traits.",
        "CA-R13",
    )


def test_a_roll_off_for_the_mantle_settles_on_the_highest_roll_ca_r05() -> None:
    state = actions(
        phase="transition", pending=(PendingRollOff(purpose="mantle", contenders=(0, 1)),)
    )
    after = act(state, Roll(values=(2, 5), source="manual"))
    assert after.mantle == 1 and after.age == 2 and after.phase == "age_reveal"
