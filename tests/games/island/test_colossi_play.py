"""Colossi's handlers on small built positions: the end of a turn (3.5.1, CA-R04), the
explore deck (CA-R10), Traits (CA-R13), roll-offs (CA-R05), the end of the game (3.9)
and the referee's lists of legal actions — the state after and the words players read."""

from __future__ import annotations

from typing import Any

from companion.dice import Roll
from companion.games.island.model import (
    BeastPos,
    GainGold,
    MoveBeast,
    PendingExplore,
    PendingLair,
    PendingRollOff,
    PendingTrait,
    PendingTraitDiscard,
    PlayCard,
    Tile,
)

from .colossi_help import R, act, actions, cam, harvesting, new
from .helpers import place


def log(state: Any, action: Any) -> tuple[Any, list[str], list[tuple[str, str]]]:
    after, events = R.apply(state, action)
    steps = [(c.cell, c.instruction) for e in events for c in getattr(e, "changes", ())]
    return after, [e.text for e in events], steps


# --- the end of a turn ------------------------------------------------------------------


def test_a_turn_ends_with_a_card_drawn_and_passes_clockwise_rulings_3_5_1() -> None:
    state = actions(3, age_turns=2, active=2, movements_left=1)
    after, lines, _ = log(state, cam.EndTurn())
    assert lines == ["Cleo ends the Actions and draws 1 card.", "Cleo draws 1 card.", "Ann's turn."]
    assert (after.active, after.age_turns, after.movements_left) == (0, 3, 4)
    assert after.cards_in_hand == (2, 2, 3)
    assert after.history[-1].label == "Age I round 1 (Cleo)"


def test_the_last_turn_of_the_last_round_starts_the_harvest_ca_r04() -> None:
    state = actions(2, age_turns=9, active=1, movements_left=2, mantle=1)
    after, lines, _ = log(state, cam.EndTurn())
    assert lines[-1] == "Age I's Harvest Phase: first the Age card's scoring."
    assert (after.phase, after.active, after.movements_left, after.age_turns) == (
        "age_scoring",
        1,
        0,
        10,
    )
    assert after.history[-1].label == "Age I round 5 (Bob)"
    one_before = act(actions(2, age_turns=8, active=0), cam.EndTurn())
    assert one_before.phase == "actions" and one_before.active == 1


def test_ending_the_action_phase_early_is_said_ca_r04() -> None:
    after, lines, _ = log(actions(age=2), cam.EndActionPhase())
    assert lines == [
        "The Action Phase ends early (CA-R04).",
        "Age II's Harvest Phase: first the Age card's scoring.",
    ]
    assert after.phase == "age_scoring"


def test_after_age_three_the_most_gold_wins_rulings_3_9() -> None:
    state = harvesting(age=3, gold=(2, 5), passed=(False, True))
    after, lines, _ = log(state, cam.PassHarvest())
    assert lines == ["Ann passes for this Harvest.", "Age III is over."]
    out = R.outcome(after)
    assert out is not None and out.winners == (1,) and out.text == "Bob wins with 5 Gold."
    assert after.history[-1].label == "End of Age III"


# --- the explore deck -------------------------------------------------------------------


def exploring(**update: Any) -> Any:
    state = actions(pending=(PendingExplore(space="r2c3", player=0),), **update)
    return place(state, tiles={"r2c3": None})


def test_a_tile_drawn_by_the_referee_is_put_down_and_said_ca_r10() -> None:
    state = exploring()
    after, lines, steps = log(state, cam.DrawTile())
    tile = after.space("r2c3").tile
    assert tile is not None
    said = {"grass": "Grass", "environment": "an Environment", "lair": "the Lair of Random Beast 1"}
    assert lines[0] == f"B3: {said[tile.kind]}."
    assert steps[0] == ("r2c3", f"Put {said[tile.kind]} here (drawn by the referee).")
    assert after.rng == state.rng.randint(0, 25)[1]
    drawn, lines, steps = log(state, cam.DrawTile(kind="grass", loot="gold"))
    assert lines == ["B3: Grass with Gold."] and steps == []
    assert drawn.deck_grass == 15 and drawn.rng == state.rng


def test_a_virtual_draw_follows_the_deck_counts_ca_r10() -> None:
    """One tile of each kind: the referee's pick 0 is Grass, 1 an Environment, 2 a Lair."""
    kinds = ("grass", "environment", "lair")
    seen = set()
    for counter in range(12):
        state = exploring(deck_grass=1, deck_environments=1, deck_lairs=("Roc",))
        state = state.model_copy(update={"rng": state.rng.model_copy(update={"counter": counter})})
        pick, _ = state.rng.randint(0, 2)
        after = act(state, cam.DrawTile())
        tile = after.space("r2c3").tile
        assert tile is not None and tile.kind == kinds[pick]
        seen.add(pick)
        left = (after.deck_grass, after.deck_environments, len(after.deck_lairs))
        assert left == tuple(0 if k == pick else 1 for k in range(3))
    assert seen == {0, 1, 2}


def test_a_deck_of_one_tile_gives_that_tile_to_the_referee_s_draw_ca_r10() -> None:
    """The last tile in the deck is drawn as itself: the box's spare comes only once the
    deck is empty."""
    for deck, kind in (
        ({"deck_grass": 1, "deck_environments": 0, "deck_lairs": ()}, "grass"),
        ({"deck_grass": 0, "deck_environments": 1, "deck_lairs": ()}, "environment"),
        ({"deck_grass": 0, "deck_environments": 0, "deck_lairs": ("Roc",)}, "lair"),
    ):
        state = exploring(spare_environments=1, **deck)
        after = act(state, cam.DrawTile())
        tile = after.space("r2c3").tile
        assert tile is not None and tile.kind == kind, deck
        assert (after.deck_grass, after.deck_environments, after.deck_lairs) == (0, 0, ())
        assert after.spare_environments == 1


def test_an_environment_comes_from_the_deck_while_it_holds_any_tile_ca_r10() -> None:
    state = exploring(deck_grass=0, deck_environments=1, deck_lairs=("Roc",), spare_environments=1)
    after = act(state, cam.DrawTile(kind="environment"))
    assert (after.deck_environments, after.spare_environments, after.deck_lairs) == (0, 1, ("Roc",))


def test_a_grass_tile_entered_with_its_name_keeps_it_ca_r10() -> None:
    after = act(exploring(), cam.DrawTile(kind="grass", name="Sun Meadow", loot="gold"))
    assert after.space("r2c3").tile == Tile(kind="grass", name="Sun Meadow", loot="gold")


def test_an_empty_deck_gives_the_box_s_spare_environment_by_itself_ca_r10() -> None:
    state = exploring(deck_grass=0, deck_environments=0, deck_lairs=(), spare_environments=1)
    after = act(state, cam.DrawTile())
    assert after.space("r2c3").tile == Tile(kind="environment")
    assert (after.spare_environments, after.deck_environments) == (0, 0)
    bare = act(after.model_copy(update={"pending": state.pending}), cam.DrawTile())
    assert bare.space("r2c3").tile == Tile(kind="bare")


def test_a_drawn_lair_takes_its_own_beast_or_the_deck_s_first_ca_r11() -> None:
    state = exploring(deck_lairs=("Random Beast 1", "Random Beast 2"))
    named = act(state, cam.DrawTile(kind="lair", beast="Random Beast 2"))
    assert named.deck_lairs == ("Random Beast 1",)
    assert named.beasts[-1] == BeastPos(name="Random Beast 2", space="r2c3")
    assert named.space("r2c3").tile == Tile(
        kind="lair", name="Lair of Random Beast 2", beast="Random Beast 2"
    )
    other = act(state, cam.DrawTile(kind="lair", beast="Yeti", name="Ice Cave"))
    assert other.deck_lairs == ("Random Beast 2",)
    assert other.space("r2c3").tile == Tile(kind="lair", name="Ice Cave", beast="Yeti")
    first = act(state, cam.DrawTile(kind="lair"))
    assert first.deck_lairs == ("Random Beast 2",)
    assert first.beasts[-1] == BeastPos(name="Random Beast 1", space="r2c3")


# --- Traits -----------------------------------------------------------------------------


def trait_turn(**update: Any) -> Any:
    return actions(
        pending=(PendingTrait(player=1),),
        trait_row=("Swift", "Bold", "Keen"),
        traits_drawn=3,
        **update,
    )


def test_a_face_up_trait_is_taken_and_the_row_refills_at_once_ca_r13() -> None:
    after, lines, _ = log(trait_turn(), cam.TakeTrait(row=1))
    assert lines == ["Bob gains the Trait Bold."]
    assert after.traits == ((), ("Bold",)) and after.trait_row == ("Swift", "Trait 4", "Keen")
    assert after.traits_drawn == 4 and after.pending == ()
    refilled = act(trait_turn(), cam.TakeTrait(row=0, refill="Sly"))
    assert refilled.trait_row == ("Sly", "Bold", "Keen") and refilled.traits_drawn == 4


def test_the_deck_s_top_trait_is_named_by_its_number_or_as_drawn_ca_r13() -> None:
    after, lines, _ = log(trait_turn(), cam.TakeTrait())
    assert lines == ["Bob gains Trait 4."]
    assert after.traits == ((), ("Trait 4",)) and after.trait_row == ("Swift", "Bold", "Keen")
    named = act(trait_turn(), cam.TakeTrait(name="Sly"))
    assert named.traits == ((), ("Sly",)) and named.traits_drawn == 4


def test_a_third_trait_asks_for_a_discard_and_a_twin_is_told_apart_ca_r13() -> None:
    state = trait_turn(traits=((), ("Bold", "Sly")))
    after, lines, _ = log(state, cam.TakeTrait(row=1))
    assert lines == ["Bob gains the Trait Bold (2)."]
    assert after.traits == ((), ("Bold", "Sly", "Bold (2)"))
    assert after.pending == (PendingTraitDiscard(player=1),)
    kept, lines, _ = log(after, cam.DiscardTrait(name="Sly"))
    assert lines == ["Bob discards the Trait Sly."]
    assert kept.traits == ((), ("Bold", "Bold (2)")) and kept.pending == ()
    two = act(trait_turn(traits=((), ("Bold",))), cam.TakeTrait())
    assert two.pending == ()


def test_a_numbered_trait_is_said_as_its_number_when_discarded_ca_r13() -> None:
    state = actions(options={"use_traits": True}, traits=(("Trait 4",), ()))
    _, lines, _ = log(state, cam.DiscardTrait(name="Trait 4"))
    assert lines == ["Ann discards Trait 4."]


# --- roll-offs --------------------------------------------------------------------------


def test_a_roll_off_tie_rerolls_among_the_highest_ca_r05() -> None:
    state = actions(
        3, phase="transition", pending=(PendingRollOff(purpose="mantle", contenders=(0, 1, 2)),)
    )
    after, lines, _ = log(state, Roll(values=(6, 2, 6), source="manual"))
    assert lines == ["Roll-off for the Mantle: one d6 each for Ann, Bob, Cleo: 6, 2, 6."]
    assert after.pending == (PendingRollOff(purpose="mantle", contenders=(0, 2)),)
    won, lines, _ = log(after, Roll(values=(1, 3), source="manual"))
    assert lines[1] == "Cleo takes the Mantle (CA-R05)."
    assert (won.mantle, won.active, won.phase, won.age) == (2, 2, "age_reveal", 2)


def test_a_lair_roll_off_with_no_lair_left_to_place_starts_the_age_ca_r05() -> None:
    state = actions(
        phase="transition",
        pending=(PendingRollOff(purpose="least_gold", contenders=(0, 1)),),
    )
    after, lines, _ = log(state, Roll(values=(2, 4), source="manual"))
    assert lines[1] == "Bob wins the roll-off: every new Lair is on the island already (CA-R05)."
    assert after.phase == "actions" and after.pending == ()


# --- cards ------------------------------------------------------------------------------


def test_a_beast_card_with_the_option_off_costs_nothing_when_no_action_is_left_ca_r15() -> None:
    state = actions(options={"beast_card_needs_action": False}, movements_left=0)
    card = PlayCard(kind="beast", effects=(MoveBeast(to="r2c3"),))
    after = act(state, card)
    assert after.movements_left == 0 and after.beasts == (BeastPos(name="Wyrm", space="r2c3"),)
    assert after.cards_in_hand == (1, 2)


def test_a_divine_gift_costs_one_action_ca_r14() -> None:
    after = act(
        actions(movements_left=2), PlayCard(kind="divine_gift", effects=(GainGold(amount=1),))
    )
    assert after.movements_left == 1 and after.gold == (1, 0)


# --- what the referee offers --------------------------------------------------------------


def test_the_referee_offers_each_wait_s_answers() -> None:
    explore = list(R.legal_actions(actions(pending=(PendingExplore(space="r2c3", player=0),))))
    assert explore == [
        cam.DrawTile(),
        cam.DrawTile(loot="gold"),
        cam.DrawTile(loot="cards"),
        cam.DrawTile(loot="trait"),
    ]
    roll = actions(pending=(PendingRollOff(purpose="mantle", contenders=(0, 1)),))
    assert list(R.legal_actions(roll)) == [Roll()]
    traits = actions(pending=(PendingTrait(player=0),), trait_row=("A", "B"))
    assert list(R.legal_actions(traits)) == [
        cam.TakeTrait(row=0),
        cam.TakeTrait(row=1),
        cam.TakeTrait(),
    ]
    discard = actions(pending=(PendingTraitDiscard(player=1),), traits=((), ("A", "B", "C")))
    assert list(R.legal_actions(discard)) == [cam.DiscardTrait(name=n) for n in ("A", "B", "C")]
    lair = place(new(), tiles={sid: Tile(kind="bare") for sid in new().board.ids if sid != "r1c4"})
    lair = lair.model_copy(
        update={"phase": "transition", "pending": (PendingLair(player=0, beast="Roc"),)}
    )
    assert list(R.legal_actions(lair)) == [cam.PlaceLair(space="r1c4")]


def test_the_referee_offers_the_phase_s_actions() -> None:
    scoring = list(R.legal_actions(actions(3, phase="age_scoring", age=2)))
    assert scoring == [cam.AgeScoring(gold=(0, 0, 0)), cam.AgeScoring(gold=(0, 0, 2))]
    state = place(harvesting(), colossi={1: "r5c5"}, acolytes={"r1c1": {0: 1}})
    harvest = [a for a in R.legal_actions(state) if not hasattr(a, "correction")]
    assert cam.Harvest(space="r1c1") in harvest and cam.Harvest(space="r3c3") in harvest
    assert cam.Harvest(space="r5c5") not in harvest and harvest[-1] == cam.PassHarvest()
    spent = [a for a in R.legal_actions(actions(movements_left=0)) if a.type != "correct_player"]
    assert cam.EndTurn() in spent and not any(isinstance(a, PlayCard) for a in spent)
    broke = actions(cards_in_hand=(0, 2))
    assert not any(isinstance(a, PlayCard) for a in R.legal_actions(broke))
    assert PlayCard(kind="action") in list(R.legal_actions(actions()))


def test_the_age_cards_offered_for_self_play() -> None:
    first = [a for a in R.legal_actions(new()) if isinstance(a, cam.RevealAge)]
    assert first == [
        cam.RevealAge(name="Age I", beasts=("Beast I",)),
        cam.RevealAge(name="Age I", beasts=("Beast I", "Beast I b"), rounds=3),
    ]
    second = actions(phase="age_reveal", age=2)
    offered = [a for a in R.legal_actions(second) if isinstance(a, cam.RevealAge)]
    assert offered[:3] == [
        cam.RevealAge(name="Age II", beasts=("Wyrm",)),
        cam.RevealAge(name="Age II", beasts=("Beast II",)),
        cam.RevealAge(name="Age II", beasts=("Wyrm", "Beast II")),
    ]
    assert offered[3] == cam.RevealAge(name="Age II", beasts=("Beast II",), water=("r1c1",))


def test_harvests_interest_self_play_most_and_a_spent_turn_wants_to_end() -> None:
    state = actions()
    assert R.interest(state, cam.Harvest(space="r1c1")) == 12
    assert R.interest(state, PlayCard(kind="action")) == 3
    assert R.interest(state, cam.EndTurn()) == 1
    assert R.interest(actions(movements_left=1), cam.EndTurn()) == 1
    assert R.interest(actions(movements_left=0), cam.EndTurn()) == 10
    assert R.interest(state, cam.PassHarvest()) == 1


def test_a_tie_at_the_end_is_picked_by_the_table_with_the_option_rulings_0_2_4() -> None:
    state = harvesting(3, options={"tie_policy": "manual"}, age=3, gold=(4, 4, 1))
    state = state.model_copy(update={"passed": (False, True, True)})
    tie = act(state, cam.PassHarvest())
    assert tie.phase == "tie" and R.current_player(tie) == tie.mantle
    picks = list(R.legal_actions(tie))
    assert cam.PickWinners(seats=(0,)) in picks and cam.PickWinners(seats=(1,)) in picks
    assert cam.PickWinners(seats=(2,)) not in picks


def test_self_play_moves_the_beast_by_card_to_each_dry_neighbour_ca_r08() -> None:
    state = place(actions(), water=("r2c3",))
    cards = [a for a in R.legal_actions(state) if isinstance(a, PlayCard) and a.kind == "beast"]
    dry = [s for s in state.board.adjacent("r3c3") if s != "r2c3"]
    assert cards == [PlayCard(kind="beast", effects=(MoveBeast(beast="Wyrm", to=s),)) for s in dry]
    assert dry
    assert PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=1),)) in list(
        R.legal_actions(state)
    )


def test_a_third_trait_is_discarded_before_the_next_player_takes_one_ca_r13() -> None:
    state = actions(
        pending=(PendingTrait(player=0), PendingTrait(player=1)),
        trait_row=("Swift", "Bold", "Keen"),
        traits_drawn=3,
        traits=(("Sly", "Wise"), ()),
    )
    after = act(state, cam.TakeTrait(row=0))
    assert after.pending == (PendingTraitDiscard(player=0), PendingTrait(player=1))


def test_self_play_floods_the_first_edge_space_without_a_beast() -> None:
    state = place(actions(phase="age_reveal", age=2), beasts=[("Wyrm", "r1c1")])
    offered = [a for a in R.legal_actions(state) if isinstance(a, cam.RevealAge)]
    assert offered[-1] == cam.RevealAge(name="Age II", beasts=("Beast II",), water=("r1c2",))
