"""Every worked example and table of the Kolossus rule book (seed 000), as a test."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.games.kolossus.content import cell, levels_of
from companion.games.kolossus.position import all_destinations
from companion.games.kolossus.turns import start_turn
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    charge,
    in_turn,
    listed,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
    set_skills,
    sq,
    with_band,
)


def test_guardian_example_destiny_3_two_dice_2_and_3_give_5_movement_points() -> None:
    """'Player A rolls a 3 ... activates a Guardian ... 2 and 3 ... up to 5 spaces.'"""
    state = place(new_game(), {pid(NW, "G"): "3,0"})
    state = in_turn(state, NW, ap=3)
    state = act(state, {"type": "choose_class", "cls": "G"})[0]
    assert state.dice is not None and state.dice.count == 2 and state.dice.sides == 4
    state = roll(state, 2, 3)
    assert state.mp == 5 and state.ap == 1
    ends = all_destinations(state, pid(NW, "G"), 5)
    assert sq("7,0") in ends  # 4 squares south on bare board
    path = ["4,0", "5,0", "6,0", "7,0", "7,1"]
    moved = move(state, "3,0", "7,1", path=path)
    assert moved.minis[pid(NW, "G")] == sq("7,1")
    with pytest.raises(RuleViolation):
        act(state, {"type": "move", "from": "3,0", "to": "7,2", "path": [*path, "7,2"]})


def test_spear_example_dagda_beats_a_firbolg_guardian_three_squares_away() -> None:
    """'Dagda (Ishtari) ... 8 movement points ... moves 3 spaces ... Spear ... Firbolg
    Guardian 3 spaces vertically away with 2 Defence ... remaining 5 movement points.'"""
    state = new_game(chapter=3)
    assert state.warbands[SE].colour == "green" and state.warbands[SE].weapon == "spear"
    assert state.warbands[SW].colour == "red"
    state = place(state, {pid(SE, "C"): "6,3", pid(SW, "G"): "0,3"})
    state = set_skills(state, SW, guardian_defence=2)
    state = charge(state, SE, "spear")
    state = in_turn(state, SE, ap=3)
    state = roll(act(state, {"type": "choose_class", "cls": "C"})[0], 2, 3, 3)
    assert state.mp == 8
    state = move(state, "6,3", "3,3")
    assert state.phase == "after_move" and state.mp == 5
    done, _ = act(state, {"type": "spear", "target": "0,3"})
    assert done.minis[pid(SW, "G")] == -1
    assert done.warbands[SE].charges[2] == 0  # the mana goes back to the supply
    assert done.warbands[SE].mana_total() == 20
    short = state.model_copy(update={"mp": 4})
    with pytest.raises(RuleViolation, match="K-R29"):
        act(short, {"type": "spear", "target": "0,3"})


def test_mana_table_max_result_minus_result() -> None:
    """'4 - 1 = 3, 4 - 2 = 2, 4 - 3 = 1, 4 - 4 = 0' (K-R22)."""
    for value, income in ((1, 3), (2, 2), (3, 1), (4, 0)):
        state = start_turn(in_turn(new_game(chapter=2), NW))
        state = roll(state, value)
        assert state.warbands[NW].income == income


def test_initiative_example_income_follows_the_new_result() -> None:
    """'You receive as many mana points as the new result indicates.'"""
    state = start_turn(in_turn(new_game(chapter=3), NW))
    state = with_band(state, NW, pool=1, supply=19)
    state = roll(state, 2)
    assert state.warbands[NW].income == 2
    state = act(state, {"type": "initiative"})[0]
    assert state.ap == 3 and state.warbands[NW].income == 1
    assert state.warbands[NW].mana_total() == 20


def test_activation_table_examples() -> None:
    """'4: 4 Warriors or 1 Guardian + 2 Warriors or 2 Guardians or 1 Colossus + 1 Warrior.'"""
    state = in_turn(new_game(), NW, ap=4)
    classes = {a["cls"] for a in listed(state, "choose_class")}
    assert classes == {"W", "G", "C"}
    one = in_turn(new_game(), NW, ap=1)
    classes = {a["cls"] for a in listed(one, "choose_class")}
    assert classes == {"W"}


def test_level_examples_one_to_one_two_to_three_four_to_three() -> None:
    """'level 1 to level 1, level 2 to level 3, level 4 to level 3 etc.'"""
    state = new_game()
    levels = levels_of(state.terrain)
    assert levels[sq("3,1")] == 1 and levels[sq("2,2")] == 2 and levels[sq("3,3")] == 3
    w = ready_to_move(place(state, {pid(NW, "W"): "3,1"}), NW, "W", 1)
    assert sq("4,1") in all_destinations(w, pid(NW, "W"), 1)  # 1 -> 1
    w2 = ready_to_move(place(state, {pid(NW, "W"): "2,2"}), NW, "W", 1)
    assert sq("3,3") in all_destinations(w2, pid(NW, "W"), 1)  # 2 -> 3
    w3 = ready_to_move(place(state, {pid(NW, "W"): "4,4"}), NW, "W", 1)
    assert sq("3,3") in all_destinations(w3, pid(NW, "W"), 1)  # 4 -> 3
    # but not level 1 straight onto level 3: clear the Woods on 3,2 first
    rows = [list(r) for r in state.terrain]
    rows[3][2] = "."
    cleared = state.model_copy(update={"terrain": tuple("".join(r) for r in rows)})
    w4 = ready_to_move(place(cleared, {pid(NW, "W"): "3,2"}), NW, "W", 1)
    assert sq("3,3") not in all_destinations(w4, pid(NW, "W"), 1)


def test_attack_adds_to_movement_points_and_defence_needs_points_left() -> None:
    """'Attack ... added to the movement points'; 'Defence ... at least as many movement
    points left as your defence value.'"""
    state = set_skills(new_game(chapter=2), NW, guardian_attack=2)
    state = place(state, {pid(NW, "G"): "3,0", pid(NE, "W"): "7,0"})
    state = set_skills(state, NE, warrior_defence=1)
    state = in_turn(state, NW, ap=2)
    state = roll(act(state, {"type": "choose_class", "cls": "G"})[0], 1, 1)
    assert state.mp == 4  # 1 + 1 + Attack 2
    # 4 steps to 7,0 leave 0 < Defence 1: blocked
    assert sq("7,0") not in all_destinations(state, pid(NW, "G"), 4)
    more = state.model_copy(update={"mp": 5})
    assert sq("7,0") in all_destinations(more, pid(NW, "G"), 5)


def test_hammer_costs_one_point_plus_defence_per_enemy() -> None:
    state = new_game(chapter=3)
    state = place(state, {pid(SW, "C"): "5,0", pid(NW, "W"): "4,0", pid(NW, "G"): "6,0"})
    state = set_skills(state, NW, guardian_defence=1)
    state = charge(state, SW, "hammer")
    state = ready_to_move(state, SW, "C", 3)
    state = move(state, "5,0", "5,0")
    assert state.phase == "after_move"
    done = act(state, {"type": "hammer", "targets": ["4,0", "6,0"]})[0]  # 1 + 2 = 3
    assert done.minis[pid(NW, "W")] == -1 and done.minis[pid(NW, "G")] == -1


def test_rebirth_costs_one_two_three_and_earthquake_three() -> None:
    for cls, cost in (("W", 1), ("G", 2), ("C", 3)):
        slot = {"W": "W", "G": "G", "C": "C"}[cls]
        state = place(new_game(chapter=3), {pid(NW, slot): None})
        state = with_band(in_turn(state, NW), NW, pool=cost, supply=20 - cost)
        free = cell(new_game().minis[pid(NW, slot)])
        done = act(state, {"type": "rebirth", "cls": cls, "to": free})[0]
        assert done.warbands[NW].pool == 0
        if cost > 1:
            poorer = with_band(state, NW, pool=cost - 1, supply=21 - cost)
            with pytest.raises(RuleViolation, match="K-R35"):
                act(poorer, {"type": "rebirth", "cls": cls, "to": free})
