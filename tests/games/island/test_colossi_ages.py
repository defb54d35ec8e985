"""Colossi's Age cycle on small built positions, word for word: the Age card, the Lairs
(CA-R01, CA-R05, CA-R11, CA-R16), the Harvest in its order (3.7, CA-R07), the Mantle
award (CA-R03, CA-R05) and the transition into the next Age — the log lines and table
steps players read, and the exact state after."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import Roll
from companion.errors import RuleViolation
from companion.games.island.model import (
    BeastPos,
    GainGold,
    PendingExplore,
    PendingLair,
    PendingRollOff,
    PendingTrait,
    SetPerk,
    Tile,
)

from .colossi_help import R, act, actions, cam, content, harvesting, new
from .helpers import place


def log(state: Any, action: Any) -> tuple[Any, list[str], list[tuple[str, str]]]:
    """The state after, its log lines and its table steps (space, instruction)."""
    after, events = R.apply(state, action)
    steps = [(c.cell, c.instruction) for e in events for c in getattr(e, "changes", ())]
    return after, [e.text for e in events], steps


def with_cubes(state: Any, space: str, cubes: int) -> Any:
    idx = state.board.graph.index[space]
    spaces = list(state.spaces)
    spaces[idx] = spaces[idx].model_copy(update={"cubes": cubes})
    return state.model_copy(update={"spaces": tuple(spaces)})


# --- Age I ------------------------------------------------------------------------------


def test_age_one_puts_the_first_lair_in_the_centre_and_rolls_off_for_the_rest_ca_r01() -> None:
    after, lines, steps = log(new(), cam.RevealAge(name="Dawn", beasts=("Wyrm", "Roc")))
    assert lines == [
        "Age I (Dawn): Wyrm and Roc.",
        "Wyrm appears on C3.",
        "Change the table: 1 step.",
    ]
    assert steps == [("r3c3", "Put the Lair of Wyrm here, with Wyrm on it.")]
    assert (after.age_name, after.age_beasts, after.rounds, after.phase) == (
        "Dawn",
        ("Wyrm", "Roc"),
        5,
        "transition",
    )
    assert after.pending == (PendingRollOff(purpose="age1_lairs", contenders=(0, 1)),)
    rolled, lines, _ = log(after, Roll(values=(2, 5), source="manual"))
    assert lines == [
        "Roll-off for Lairs: one d6 each for Ann, Bob: 2, 5.",
        "Bob places the new Lair (CA-R05).",
    ]
    assert rolled.pending == (PendingLair(player=1, beast="Roc"),)
    placed, lines, steps = log(rolled, cam.PlaceLair(space="r1c1"))
    assert lines == ["Roc appears on A1.", "Ann starts the Age.", "Change the table: 1 step."]
    assert steps == [("r1c1", "Put the Lair of Roc here, with Roc on it.")]
    assert (placed.phase, placed.active, placed.movements_left, placed.age_turns) == (
        "actions",
        0,
        4,
        0,
    )
    assert placed.beasts == (
        BeastPos(name="Wyrm", space="r3c3"),
        BeastPos(name="Roc", space="r1c1"),
    )


def test_an_age_card_named_as_its_age_is_not_named_twice_and_sets_its_rounds_ca_r04() -> None:
    after, lines, _ = log(new(), cam.RevealAge(name="Age I", beasts=("Wyrm",), rounds=2))
    assert lines[0] == "Age I: Wyrm."
    assert after.rounds == 2 and after.phase == "actions" and after.pending == ()


def test_a_random_centre_tile_is_drawn_and_every_lair_placed_by_roll_off_ca_r01() -> None:
    state = new(3, centre_setup="random_tile", mantle_holder=2)
    after = act(state, cam.RevealAge(beasts=("Wyrm",)))
    assert after.pending == (
        PendingExplore(space="r3c3", player=2, entered=False),
        PendingRollOff(purpose="age1_lairs", contenders=(0, 1, 2)),
    )
    assert after.beasts == ()


def test_the_age_card_floods_its_water_after_the_lairs_ca_r18() -> None:
    after = act(new(), cam.RevealAge(beasts=("Wyrm",), water=("r1c1", "r1c2")))
    assert [sid for sid in after.board.ids if after.space(sid).water] == ["r1c1", "r1c2"]


def test_first_traits_from_the_mantle_holder_clockwise_once_the_lairs_stand_ca_r12() -> None:
    state = new(3, use_traits=True, mantle_holder=1)
    after = act(state, cam.RevealAge(beasts=("Wyrm",)))
    assert after.pending == tuple(PendingTrait(player=p) for p in (1, 2, 0))
    assert after.active == 1 and after.phase == "actions"


def test_a_drawn_age_card_comes_from_its_age_s_sub_deck_ca_r19() -> None:
    box = content(
        {
            "ages": [
                {"id": "b1", "age": "II", "beasts": ["Kraken"]},
                {"id": "a1", "age": "I", "name": "Dawn", "beasts": ["Wyrm"], "rounds": 2},
                {"id": "a2", "age": "I", "beasts": ["Roc"]},
            ]
        }
    )
    state = new(content=box).model_copy(update={"used_age_cards": ("a2",)})
    after, lines, _ = log(state, cam.RevealAge())
    assert after.used_age_cards == ("a2", "a1") and after.age_beasts == ("Wyrm",)
    assert after.rng == state.rng.choice(["a1"])[1]  # the draw spends the seed's next number
    assert lines[0] == "Age I (Dawn): Wyrm." and after.rounds == 2
    unmarked = content({"ages": [{"id": "x", "beasts": ["Roc"]}, {"id": "y", "beasts": ["Yeti"]}]})
    second = new(content=unmarked).model_copy(update={"age": 2, "used_age_cards": ("x",)})
    drawn = act(second, cam.RevealAge())
    assert drawn.used_age_cards == ("x", "y") and drawn.age_beasts == ("Yeti",)
    named = act(new(content=unmarked), cam.RevealAge(card="y"))
    assert named.used_age_cards == ("y",) and named.age_name == "y"


# --- the Harvest ------------------------------------------------------------------------


def harvest_position() -> Any:
    """Ann's Colossus and 2 Acolytes on A2 (Grass with Gold, 2 cubes), 1 Acolyte on A3
    (Grass with a card); Bob's Colossus on E5."""
    state = place(
        harvesting(),
        acolytes={"r1c2": {0: 2}, "r1c3": {0: 1}},
        colossi={0: "r1c2", 1: "r5c5"},
        tiles={"r1c2": Tile(kind="grass", loot="gold"), "r1c3": Tile(kind="grass", loot="cards")},
    )
    return with_cubes(state, "r1c2", 2)


def test_a_harvest_takes_acolytes_home_tips_the_colossus_then_pays_in_order_rulings_3_7() -> None:
    after, lines, steps = log(harvest_position(), cam.Harvest(space="r1c2"))
    assert lines == [
        "Ann harvests A2; 2 Acolytes return to hand; the Colossus is laid on its side.",
        "Ann +2 Gold (harvest).",
        "Ann +1 Gold (harvest).",
        "Change the table: 2 steps.",
    ]
    assert steps == [
        ("r1c2", "Ann takes back 2 Acolytes."),
        ("r1c2", "Lay Ann's Colossus on its side."),
    ]
    assert after.gold == (3, 0) and after.tipped == (True, False)
    assert after.space("r1c2").cubes == 0 and after.space("r1c2").acolytes == (0, 0)
    assert after.acolytes_in_hand == (9, 10) and after.harvested == (("r1c2",), ())
    assert after.active == 1


def test_card_loot_and_a_lone_acolyte_returning_rulings_3_7() -> None:
    after, lines, steps = log(harvest_position(), cam.Harvest(space="r1c3"))
    assert lines == [
        "Ann harvests A3; 1 Acolyte returns to hand.",
        "Ann draws 1 card.",
        "Change the table: 1 step.",
    ]
    assert steps == [("r1c3", "Ann takes back 1 Acolyte.")]
    assert after.cards_in_hand == (3, 2) and after.gold == (0, 0)


def test_a_colossus_alone_is_laid_down_with_no_acolyte_to_take_back_ca_r07() -> None:
    state = place(harvesting(), colossi={0: "r1c2", 1: "r5c5"})
    after, lines, steps = log(state, cam.Harvest(space="r1c2"))
    assert lines == [
        "Ann harvests A2; the Colossus is laid on its side.",
        "Change the table: 1 step.",
    ]
    assert steps == [("r1c2", "Lay Ann's Colossus on its side.")]
    assert after.tipped == (True, False) and after.acolytes_in_hand == (10, 10)


def test_acolytes_alone_go_home_and_leave_the_colossus_standing_ca_r07() -> None:
    state = place(harvesting(), acolytes={"r1c1": {1: 3}}, colossi={0: "r1c2", 1: "r5c5"})
    after, lines, steps = log(state.model_copy(update={"active": 1}), cam.Harvest(space="r1c1"))
    assert lines == ["Bob harvests A1; 3 Acolytes return to hand.", "Change the table: 1 step."]
    assert steps == [("r1c1", "Bob takes back 3 Acolytes.")]
    assert after.tipped == (False, False) and after.acolytes_in_hand == (10, 10)


def test_trait_loot_queues_a_trait_only_with_traits_ca_r13() -> None:
    loot = Tile(kind="grass", loot="trait")
    with_traits = place(
        harvesting(options={"use_traits": True}), acolytes={"r1c1": {0: 1}}, tiles={"r1c1": loot}
    )
    assert act(with_traits, cam.Harvest(space="r1c1")).pending == (PendingTrait(player=0),)
    without = place(harvesting(), acolytes={"r1c1": {0: 1}}, tiles={"r1c1": loot})
    after, lines, _ = log(without, cam.Harvest(space="r1c1"))
    assert "Without Traits, Trait Loot gives nothing (CA-R13)." in lines and after.pending == ()


def test_an_environment_of_the_content_file_pays_its_own_text() -> None:
    box = content({"environments": [{"name": "Marsh", "effects": [{"type": "gold", "amount": 2}]}]})
    marsh = Tile(kind="environment", name="Marsh")
    state = place(
        harvesting(options={"content": box}), acolytes={"r1c1": {0: 1}}, tiles={"r1c1": marsh}
    )
    assert act(state, cam.Harvest(space="r1c1")).gold == (2, 0)
    entered = act(state, cam.Harvest(space="r1c1", effects=(GainGold(amount=5),)))
    assert entered.gold == (5, 0)
    unknown = place(harvesting(), acolytes={"r1c1": {0: 1}}, tiles={"r1c1": marsh})
    assert act(unknown, cam.Harvest(space="r1c1")).gold == (0, 0)


def test_the_harvest_goes_round_skipping_who_passed_and_ends_with_the_mantle_ca_r03() -> None:
    state = harvest_position()
    state = act(state, cam.Harvest(space="r1c2"))
    state, lines, _ = log(state, cam.PassHarvest())
    assert lines == ["Bob passes for this Harvest."]
    assert (state.active, state.passed) == (0, (False, True))
    state = act(state, cam.Harvest(space="r1c3"))
    assert state.active == 0  # Bob has passed: Ann again
    after, lines, steps = log(state, cam.PassHarvest())
    assert lines == [
        "Ann passes for this Harvest.",
        "Ann is in first place and takes the Mantle.",
        "Change the table: 1 step.",
    ]
    assert steps == [("r1c2", "Stand Ann's Colossus up again.")]
    assert (after.phase, after.age, after.mantle, after.active, after.tipped) == (
        "age_reveal",
        2,
        0,
        0,
        (False, False),
    )
    assert after.history[-1].label == "End of Age I" and after.history[-1].values == (3, 0)


def test_the_leader_s_left_neighbour_starts_with_the_option_ca_r03() -> None:
    state = harvesting(3, options={"mantle_pass_left_after_award": True}, gold=(0, 4, 1), ledger=())
    state = state.model_copy(update={"passed": (True, False, True), "active": 1})
    after = act(state, cam.PassHarvest())
    assert (after.mantle, after.active, after.age) == (2, 2, 2)


def test_the_age_scoring_is_entered_then_the_mantle_holder_harvests_first_rulings_3_7() -> None:
    state = actions(phase="age_scoring", mantle=1, active=1, age=2)
    after, lines, _ = log(state, cam.AgeScoring(gold=(2, 0)))
    assert lines == [
        "Ann +2 Gold (Age scoring).",
        "The Harvest Phase begins with the Mantle holder.",
    ]
    assert (after.phase, after.active, after.gold) == ("harvest", 1, (2, 0))
    assert after.history[-1].label == "Age II scoring" and after.history[-1].values == (2, 0)


# --- the transition ---------------------------------------------------------------------


def age_two(gold: tuple[int, ...] = (3, 0), **update: Any) -> Any:
    """Age II's card to reveal: Wyrm (Age I's Beast) in the centre, Ann has 3 Gold."""
    state = actions(len(gold), phase="age_reveal", age=2, **update)
    return state.model_copy(update={"gold": gold})


def test_a_new_beast_is_placed_by_the_poorest_and_the_old_one_retires_ca_r11() -> None:
    state = place(age_two(), tiles={"r2c2": None}, colossi={0: "r1c1", 1: "r5c5"})
    after, lines, _ = log(state, cam.RevealAge(beasts=("Kraken",)))
    assert lines == ["Age II: Kraken."]
    assert after.pending == (PendingLair(player=1, beast="Kraken"),)
    assert after.retiring_beasts == ("Wyrm",) and after.phase == "transition"
    placed, lines, steps = log(after, cam.PlaceLair(space="r2c2"))
    assert lines == [
        "Kraken appears on B2.",
        "Wyrm and its Lair leave the island (CA-R11).",
        "Ann starts the Age.",
        "Change the table: 2 steps.",
    ]
    assert steps == [
        ("r2c2", "Put the Lair of Kraken here, with Kraken on it."),
        ("r3c3", "Remove Wyrm and its Lair."),
    ]
    assert placed.beasts == (BeastPos(name="Kraken", space="r2c2"),)
    assert placed.space("r3c3").tile is None and placed.pending == ()
    assert placed.retiring_beasts == () and placed.phase == "actions"


def test_a_retiring_beast_no_longer_on_the_island_is_passed_over_ca_r11() -> None:
    """A retiring Beast a correction has already taken off is skipped; the others on the
    list still retire."""
    state = place(age_two(), tiles={"r2c2": None}, colossi={0: "r1c1", 1: "r5c5"})
    after = act(state, cam.RevealAge(beasts=("Kraken",)))
    after = after.model_copy(update={"retiring_beasts": ("Yeti", "Wyrm")})
    placed, lines, _ = log(after, cam.PlaceLair(space="r2c2"))
    assert "Wyrm and its Lair leave the island (CA-R11)." in lines
    assert not any("Yeti" in line for line in lines)
    assert placed.beasts == (BeastPos(name="Kraken", space="r2c2"),)


def test_a_new_age_starts_with_nobody_harvested_or_passed_ca_r11() -> None:
    state = place(age_two(), tiles={"r2c2": None}, colossi={0: "r1c1", 1: "r5c5"})
    state = state.model_copy(update={"passed": (True, True), "harvested": (("r1c1",), ())})
    placed = act(state, cam.RevealAge(beasts=("Kraken",)), cam.PlaceLair(space="r2c2"))
    assert placed.phase == "actions"
    assert placed.passed == (False, False) and placed.harvested == ((), ())


def test_a_lair_on_a_tile_when_no_space_is_empty_says_the_tile_goes_ca_r16() -> None:
    after = act(age_two(), cam.RevealAge(beasts=("Kraken",)))
    _, lines, _ = log(after, cam.PlaceLair(space="r2c2"))
    assert lines[0] == "The tile on B2 is discarded for the Lair (CA-R11)."


def test_a_retiring_lair_under_pieces_is_explored_anew_by_the_mantle_holder_ca_r11() -> None:
    state = place(age_two(mantle=1), tiles={"r2c2": None})
    after = act(state, cam.RevealAge(beasts=("Kraken",)), cam.PlaceLair(space="r2c2"))
    assert after.pending == (PendingExplore(space="r3c3", player=1, entered=False),)


def test_a_least_gold_tie_rolls_off_and_the_winner_places_every_new_lair_ca_r05() -> None:
    state = place(age_two((3, 0, 0)), tiles={"r2c2": None, "r2c4": None})
    after = act(state, cam.RevealAge(beasts=("Wyrm", "Kraken", "Roc")))
    assert after.pending == (PendingRollOff(purpose="least_gold", contenders=(1, 2)),)
    assert after.retiring_beasts == ()
    rolled, lines, _ = log(after, Roll(values=(1, 6), source="manual"))
    assert lines[-1] == "Cleo places the new Lairs (CA-R05)."
    assert rolled.pending == (
        PendingLair(player=2, beast="Kraken"),
        PendingLair(player=2, beast="Roc"),
    )
    assert R.current_player(rolled) == 2


def test_the_same_beasts_need_no_lair_and_the_age_starts_at_once_ca_r11() -> None:
    after = act(age_two(mantle=1), cam.RevealAge(beasts=("Wyrm",)))
    assert after.pending == () and after.phase == "actions" and after.active == 1
    assert after.beasts == (BeastPos(name="Wyrm", space="r3c3"),)


def test_a_drawn_lair_s_beast_kills_only_with_beast_master_rules_ca_r08() -> None:
    waiting = (PendingExplore(space="r2c3", player=0),)
    tiles = {"r2c3": None}
    plain = place(actions(pending=waiting), acolytes={"r2c3": {0: 2, 1: 1}}, tiles=tiles)
    assert act(plain, cam.DrawTile(kind="lair")).space("r2c3").acolytes == (2, 1)
    bm = actions(options={"beast_master_beast_rules": True}, pending=waiting)
    bm = place(bm, acolytes={"r2c3": {0: 2, 1: 1}}, tiles=tiles)
    after, lines, _ = log(bm.model_copy(update={"active": 1}), cam.DrawTile(kind="lair"))
    assert after.space("r2c3").acolytes == (0, 0) and after.acolytes_in_hand == (10, 10)
    # the active player's Acolytes first, then clockwise
    assert [t for t in lines if "died" in t] == [
        "1 Acolyte of Bob died on B3 (Random Beast 1).",
        "2 Acolytes of Ann died on B3 (Random Beast 1).",
    ]
    assert after.beasts[-1] == BeastPos(name="Random Beast 1", space="r2c3")


def test_a_retiring_lair_under_one_acolyte_is_explored_anew_ca_r11() -> None:
    state = place(
        age_two(), tiles={"r2c2": None}, colossi={0: "r1c1", 1: "r5c5"}, acolytes={"r3c3": {1: 1}}
    )
    after = act(state, cam.RevealAge(beasts=("Kraken",)), cam.PlaceLair(space="r2c2"))
    assert after.pending == (PendingExplore(space="r3c3", player=0, entered=False),)
    assert after.space("r3c3").acolytes == (0, 1) and after.space("r3c3").tile is None


def test_a_retiring_beast_whose_lair_was_replaced_leaves_the_tile_ca_r11() -> None:
    marsh = Tile(kind="environment", name="Marsh")
    state = place(age_two(), tiles={"r2c2": None, "r3c3": marsh}, colossi={0: "r1c1", 1: "r5c5"})
    after = act(state, cam.RevealAge(beasts=("Kraken",)))
    after, lines, _ = log(after, cam.PlaceLair(space="r2c2"))
    assert after.space("r3c3").tile == marsh and after.beasts == (
        BeastPos(name="Kraken", space="r2c2"),
    )
    assert "Wyrm and its Lair leave the island (CA-R11)." not in lines


def test_the_harvest_passes_to_the_next_player_who_has_not_passed() -> None:
    state = harvesting(3, passed=(False, True, False))
    assert act(state, cam.PassHarvest()).active == 2
    last = harvesting(3, passed=(True, True, False), active=2)
    after = place(last, acolytes={"r1c1": {2: 1}})
    assert act(after, cam.Harvest(space="r1c1")).active == 2


def test_an_environment_s_gold_is_booked_as_harvest_rulings_3_7() -> None:
    marsh = Tile(kind="environment", name="Marsh")
    state = place(harvesting(), acolytes={"r1c1": {0: 1}}, tiles={"r1c1": marsh})
    after = act(state, cam.Harvest(space="r1c1", effects=(GainGold(amount=2),)))
    assert [(e.source, e.amount) for e in after.ledger] == [("harvest", 2)]


def test_a_beast_s_lair_pays_the_text_the_content_file_gives_it() -> None:
    box = content(
        {"environments": [{"name": "Lair of Wyrm", "effects": [{"type": "gold", "amount": 1}]}]}
    )
    state = place(harvesting(options={"content": box}), colossi={1: "r5c5"})
    assert act(state, cam.Harvest(space="r3c3")).gold == (1, 0)


def test_an_environment_s_text_follows_colossi_s_rules_no_perks_ca_r14() -> None:
    marsh = Tile(kind="environment", name="Marsh")
    state = place(harvesting(), acolytes={"r1c1": {0: 1}}, tiles={"r1c1": marsh})
    with pytest.raises(RuleViolation) as err:
        R.apply(state, cam.Harvest(space="r1c1", effects=(SetPerk(name="Swift"),)))
    assert (err.value.message, err.value.ruling) == ("Colossi has no Perks.", "CA-R14")
