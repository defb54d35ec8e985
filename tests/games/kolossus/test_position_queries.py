"""The queries on a Kolossus state the referee asks before every move: who is friendly
(K-R11), each miniature's Defence (K-R12), the charged weapons and the combinations a
move may try (K-R26, K-R42), movement points (Attack) and what may still be activated
(K-R08, K-R35)."""

from __future__ import annotations

from companion.games.kolossus.movement import EMPTY, FRIEND
from companion.games.kolossus.position import (
    blocked_squares,
    can_activate,
    charged,
    free_start_squares,
    friendly,
    movable_pieces,
    movement_points,
    occupancy,
    piece_defences,
    usable_configs,
    weapon_configs,
)
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    charge,
    in_turn,
    new_game,
    pid,
    place,
    ready_to_move,
    set_skills,
    sq,
)


def test_K_R11_own_and_allied_warbands_are_friendly_unless_allies_count_as_enemies() -> None:
    state = new_game()
    assert friendly(state, NW, NW) and friendly(state, NW, SE) and friendly(state, SW, NE)
    assert not friendly(state, NW, NE) and not friendly(state, SE, SW)
    hostile = new_game(allies_are_friendly=False)
    assert friendly(hostile, NE, NE) and not friendly(hostile, NW, SE)


def test_K_R12_each_miniature_defends_with_its_class_skill() -> None:
    state = set_skills(new_game(chapter=2), NE, warrior_defence=1, guardian_defence=2)
    state = set_skills(state, NE, colossus_defence=3, colossus_attack=4)
    defences = piece_defences(state)
    assert defences[pid(NE, "C")] == 3 and defences[pid(NE, "G2")] == 2
    assert defences[pid(NE, "W5")] == 1 and defences[pid(NW, "C")] == 0
    state = place(state, {pid(NE, "C"): "5,0", pid(NE, "W"): "5,1", pid(SE, "W"): "5,2"})
    occ = occupancy(state, NW)
    assert (occ[sq("5,0")], occ[sq("5,1")], occ[sq("5,2")], occ[sq("5,3")]) == (3, 1, FRIEND, EMPTY)
    whipped = occupancy(state, NW, whip=True, vacated=sq("5,2"))
    assert (whipped[sq("5,0")], whipped[sq("5,1")], whipped[sq("5,2")]) == (0, 0, EMPTY)


def test_K_R26_a_weapon_is_charged_only_in_chapter_three_and_only_ones_own() -> None:
    state = charge(new_game(chapter=3, weapons=("spear", "sword", "whip", "hammer")), NW, "spear")
    assert charged(state, NW, "spear") and not charged(state, NW, "sword")
    assert not charged(state, NE, "spear")
    half = state.warbands[NW].model_copy(update={"charges": (0, 0, 1, 0)})
    one_short = state.model_copy(update={"warbands": (half, *state.warbands[1:])})
    assert not charged(one_short, NW, "spear")  # a weapon needs both mana
    foreign = charge(state, NW, "sword")  # not NW's weapon with one_per_warband
    assert not charged(foreign, NW, "sword")
    four = charge(new_game(chapter=3, titan_weapons="all_four"), NW, "sword")
    assert charged(four, NW, "sword")
    chapter_two = charge(new_game(chapter=2, titan_weapons="all_four"), NW, "sword")
    assert not charged(chapter_two, NW, "sword")


def test_K_R42_the_weapon_combinations_a_move_tries_cheapest_first() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    colossus, warrior = pid(NW, "C"), pid(NW, "W")
    assert weapon_configs(state, colossus) == ((False, False),)
    sword = charge(state, NW, "sword")
    assert weapon_configs(sword, colossus) == ((False, False), (True, False))
    whip = charge(state, NW, "whip")
    assert weapon_configs(whip, colossus) == ((False, False), (False, True))
    both = charge(sword, NW, "whip")
    assert weapon_configs(both, colossus) == (
        (False, False),
        (True, False),
        (False, True),
        (True, True),
    )
    assert weapon_configs(both, warrior) == ((False, False),)
    assert usable_configs(both, colossus, sword=None, whip=None) == weapon_configs(both, colossus)
    assert usable_configs(both, colossus, sword=False, whip=None) == ((False, False), (False, True))
    assert usable_configs(both, colossus, sword=None, whip=False) == ((False, False), (True, False))
    assert usable_configs(both, colossus, sword=None, whip=True) == ((False, True), (True, True))
    assert usable_configs(both, colossus, sword=True, whip=True) == ((False, True), (True, True))
    assert usable_configs(sword, colossus, sword=None, whip=True) == ()


def test_the_movement_points_are_the_dice_and_the_class_attack() -> None:
    state = set_skills(new_game(chapter=2), NE, guardian_attack=2, warrior_attack=1)
    assert movement_points(state, NE, "G", (1, 3)) == 6
    assert movement_points(state, NE, "W", (4,)) == 5
    assert movement_points(state, NE, "C", (1, 1, 1)) == 3
    assert movement_points(state, NW, "G", (1, 3)) == 4


def test_K_R08_the_miniatures_still_to_activate_of_the_chosen_class() -> None:
    state = place(new_game(), {pid(NW, "W2"): None})
    moving = ready_to_move(state, NW, "W", 2).model_copy(update={"activated": (pid(NW, "W"),)})
    assert movable_pieces(moving) == (pid(NW, "W3"), pid(NW, "W4"), pid(NW, "W5"))
    assert movable_pieces(moving.model_copy(update={"active_class": None})) == ()
    guardians = ready_to_move(state, NW, "G", 2)
    assert movable_pieces(guardians) == (pid(NW, "G"), pid(NW, "G2"))
    turn = in_turn(state, NW)
    assert can_activate(turn, "W") and can_activate(turn, "C")
    spent = turn.model_copy(update={"activated": (pid(NW, "C"),)})
    assert not can_activate(spent, "C")
    gone = place(turn, {pid(NW, "C"): None})
    assert not can_activate(gone, "C")
    assert can_activate(in_turn(state, NE), "C")


def test_K_R35_the_free_squares_of_a_start_zone() -> None:
    start = new_game()
    assert free_start_squares(start, NW) == ()
    state = place(start, {pid(NW, "W2"): None, pid(NW, "G"): "5,5"})
    expected = tuple(
        s
        for s in start.warbands[NW].zone
        if s in (start.minis[pid(NW, "W2")], start.minis[pid(NW, "G")])
    )
    assert free_start_squares(state, NW) == expected and len(expected) == 2
    assert free_start_squares(state, SW) == ()


def test_K_R13_the_blocked_enemies_count_every_charged_weapon() -> None:
    state = set_skills(new_game(chapter=3, titan_weapons="all_four"), NE, guardian_defence=4)
    # The Sword's continuation over the Warrior on 5,0 is the only way to try 4,0.
    enemies = {pid(NE, "W"): "5,0", pid(NE, "G"): "4,0", pid(NE, "G2"): "5,1"}
    state = place(state, {pid(NW, "C"): "6,0", **enemies})
    plain = ready_to_move(state, NW, "C", 3)
    assert blocked_squares(plain, pid(NW, "C"), 3) == {sq("5,1")}
    sword = ready_to_move(charge(state, NW, "sword"), NW, "C", 3)
    assert blocked_squares(sword, pid(NW, "C"), 3) == {sq("5,1"), sq("4,0")}
    whip = ready_to_move(charge(state, NW, "whip"), NW, "C", 3)
    assert blocked_squares(whip, pid(NW, "C"), 3) == frozenset()  # Defence 0 under the Whip
