"""Every refusal of a Kolossus activation in the words a player reads, with its ruling:
the miniature moved (K-R08), its way (K-R09..K-R13, K-R31, 1.6.2) and the Titan Weapons
(K-R29, K-R30, K-R42)."""

from __future__ import annotations

from typing import Any

from companion.games.kolossus.model import KolossusState
from tests.games.kolossus.helpers import (
    NE,
    NW,
    act,
    charge,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    refusal,
    set_skills,
    sq,
)


def walk(frm: str, to: str, *path: str, **extra: Any) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "move", "from": frm, "to": to, **extra}
    if path:
        action["path"] = list(path)
    return action


def warrior_among_friends() -> KolossusState:
    """NW's Warrior on 5,0 with 2 points: its Guardian on 6,0, its Warrior on 4,0, NE's
    Warrior on 4,1."""
    state = place(
        new_game(),
        {pid(NW, "W"): "5,0", pid(NW, "G"): "6,0", pid(NW, "W2"): "4,0", pid(NE, "W"): "4,1"},
    )
    return ready_to_move(state, NW, "W", 2)


def test_K_R08_only_an_unactivated_miniature_of_yours_of_the_chosen_class_moves() -> None:
    state = warrior_among_friends()
    assert refusal(state, walk("6,0", "7,0")) == (
        "You activated a Warrior; that is a Guardian.",
        "K-R08",
    )
    assert refusal(state, walk("4,1", "3,1")) == (
        "No miniature of yours stands on (4, 1).",
        "K-R08",
    )
    assert refusal(state, walk("5,5", "5,4")) == (
        "No miniature of yours stands on (5, 5).",
        "K-R08",
    )
    done = state.model_copy(update={"activated": (pid(NW, "W"),)})
    assert refusal(done, walk("5,0", "5,1")) == (
        "Every miniature can be activated only once per turn.",
        "K-R08",
    )


def test_K_R11_K_R10_why_a_square_cannot_be_the_end_of_the_move() -> None:
    state = warrior_among_friends()
    assert refusal(state, walk("5,0", "4,0")) == (
        "You may pass (4, 0) but not end on a friendly miniature.",
        "K-R11",
    )
    assert refusal(state, walk("5,0", "3,2")) == (
        "Warrior on (5, 0) cannot reach (3, 2) with 2 movement points (straight lines, no"
        " change of direction, at most one level per step).",
        "K-R10",
    )
    guardian = ready_to_move(place(new_game(), {pid(NW, "G"): "5,0"}), NW, "G", 1)
    assert refusal(guardian, walk("5,0", "5,3")) == (
        "Guardian on (5, 0) cannot reach (5, 3) with 1 movement point (straight lines, one"
        " change of direction, at most one level per step).",
        "K-R10",
    )
    colossus = ready_to_move(place(new_game(), {pid(NW, "C"): "5,0"}), NW, "C", 1)
    assert refusal(colossus, walk("5,0", "5,3")) == (
        "Colossus on (5, 0) cannot reach (5, 3) with 1 movement point (straight lines, one"
        " change of direction, levels ignored).",
        "K-R10",
    )


def guarded_warrior(mp: int = 2) -> KolossusState:
    """NW's Warrior on 5,0 facing NE's Warrior of Defence 2 on 4,0."""
    state = set_skills(new_game(chapter=2), NE, warrior_defence=2)
    state = place(state, {pid(NW, "W"): "5,0", pid(NE, "W"): "4,0"})
    return ready_to_move(state, NW, "W", mp)


def test_K_R13_an_enemy_too_strong_for_the_points_left_blocks() -> None:
    state = guarded_warrior()
    assert refusal(state, walk("5,0", "4,0")) == (
        "Too few movement points left to beat the enemy on (4, 0) (Defence).",
        "K-R13",
    )
    assert refusal(state, walk("5,0", "4,0", "4,0")) == (
        "The enemy on (4, 0) needs 2 movement points left after the step; you would have 1.",
        "K-R13",
    )
    beaten = act(guarded_warrior(3), walk("5,0", "4,0", "4,0"))[0]
    assert beaten.minis[pid(NE, "W")] == -1


def test_1_6_2_an_explicit_path_goes_square_by_square_to_the_destination() -> None:
    state = warrior_among_friends()
    assert refusal(state, walk("5,0", "5,2", "5,1")) == (
        "The path must end on the destination.",
        "1.6.2",
    )
    assert refusal(state, walk("5,0", "5,1", "5,2", "5,1")) == (
        "(5, 2) is not next to (5, 0): move one square at a time.",
        "1.6.2",
    )
    assert refusal(state, walk("5,0", "5,3", "5,1", "5,2", "5,3")) == (
        "That path needs 3 movement points; you have 2.",
        None,
    )
    assert refusal(state, walk("5,0", "4,0", "4,0")) == (
        "You may pass (4, 0) but not end your move on a friendly miniature.",
        "K-R11",
    )


def test_K_R09_a_warrior_goes_straight_and_a_guardian_turns_once() -> None:
    warrior = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 2)
    assert refusal(warrior, walk("5,0", "4,2", "5,1", "4,2")) == (
        "A Warrior moves in one straight line.",
        "K-R09",
    )
    guardian = ready_to_move(place(new_game(), {pid(NW, "G"): "5,0"}), NW, "G", 3)
    assert refusal(guardian, walk("5,0", "4,1", "5,1", "4,2", "4,1")) == (
        "Only one change of direction is allowed.",
        "K-R09",
    )
    turned = act(guardian, walk("5,0", "4,2", "5,1", "4,2"))[0]
    assert turned.minis[pid(NW, "G")] == 4 * 11 + 2


def test_K_R10_a_path_step_of_more_than_one_level_is_refused() -> None:
    state = new_game()
    terrain = [list(row) for row in state.terrain]
    terrain[5][1] = "."
    terrain[5][2] = "M"  # level 4 next to bare level 1
    state = state.model_copy(update={"terrain": tuple("".join(r) for r in terrain)})
    warrior = ready_to_move(place(state, {pid(NW, "W"): "5,1"}), NW, "W", 2)
    assert refusal(warrior, walk("5,1", "5,2", "5,2")) == (
        "From (5, 1) (level 1) to (5, 2) (level 4) is more than one level.",
        "K-R10",
    )
    terrain[5][2] = "H"  # level 3: two levels up
    hills = warrior.model_copy(update={"terrain": tuple("".join(r) for r in terrain)})
    assert refusal(hills, walk("5,1", "5,2", "5,2")) == (
        "From (5, 1) (level 1) to (5, 2) (level 3) is more than one level.",
        "K-R10",
    )
    terrain[5][2] = "W"  # level 2: one level up
    woods = warrior.model_copy(update={"terrain": tuple("".join(r) for r in terrain)})
    assert act(woods, walk("5,1", "5,2", "5,2"))[0].minis[pid(NW, "W")] == 5 * 11 + 2


def test_K_R31_a_beat_ends_the_move_without_the_sword() -> None:
    state = warrior_among_friends()
    assert refusal(state, walk("5,0", "3,2", "4,1", "3,2")) == (
        "Beating an enemy ends the move (only the Sword of Storm continues).",
        "K-R31",
    )


def test_K_R31_K_R42_a_move_that_declines_the_sword_cannot_go_on_past_a_beat() -> None:
    """With the Sword charged, the Colossus beats the Warrior on (6, 1) and goes on to
    (6, 3); a player who says not to use the Sword is told the square is out of reach."""
    state = place(new_game(chapter=3), {pid(NW, "C"): "6,0", pid(NE, "W"): "6,1"})
    state = ready_to_move(charge(state, NW, "sword"), NW, "C", 3)
    assert refusal(state, {"type": "move", "from": "6,0", "to": "6,3", "sword": False}) == (
        "Colossus on (6, 0) cannot reach (6, 3) with 3 movement points (straight lines,"
        " one change of direction, levels ignored).",
        "K-R10",
    )
    assert move(state, "6,0", "6,3").minis[pid(NW, "C")] == sq("6,3")


def sword_colossus() -> KolossusState:
    """NW's Colossus on 5,0 with 3 points and the Sword, NE's Guardian of Defence 2 on 5,1."""
    state = set_skills(new_game(chapter=3, titan_weapons="all_four"), NE, guardian_defence=2)
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "G"): "5,1"})
    return ready_to_move(charge(state, NW, "sword"), NW, "C", 3)


def test_K_R12_the_sword_cannot_go_on_with_the_points_the_defence_took() -> None:
    state = sword_colossus()
    assert refusal(state, walk("5,0", "5,2", "5,1", "5,2")) == (
        "No movement points are left for the step to (5, 2).",
        "K-R12",
    )


def test_K_R42_an_uncharged_weapon_is_refused_by_name() -> None:
    colossus = ready_to_move(place(new_game(chapter=3), {pid(NW, "C"): "5,0"}), NW, "C", 1)
    assert refusal(colossus, walk("5,0", "5,1", whip=True)) == (
        "Your Whip of Wrath is not charged.",
        "K-R42",
    )
    assert refusal(colossus, walk("5,0", "5,1", sword=True)) == (
        "Your Sword of Storm is not charged.",
        "K-R42",
    )
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0"})
    waiting = act(ready_to_move(charge(state, NW, "hammer"), NW, "C", 4), walk("5,0", "5,0"))[0]
    assert waiting.phase == "after_move"
    assert refusal(waiting, {"type": "spear", "target": "4,0"}) == (
        "Your Spear of Vengeance is not charged.",
        "K-R42",
    )


def test_K_R29_K_R30_the_spear_and_hammer_refusals_say_what_a_target_needs() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0", pid(NE, "W2"): "5,1"})
    state = charge(charge(state, NW, "spear"), NW, "hammer")
    waiting = act(ready_to_move(state, NW, "C", 1), walk("5,0", "5,0"))[0]
    assert waiting.phase == "after_move" and waiting.mp == 1
    assert refusal(waiting, {"type": "spear", "target": "3,0"}) == (
        "The Spear needs an enemy on a free straight line whose distance + Defence is at"
        " most 1 movement point; (3, 0) is not.",
        "K-R29",
    )
    for targets in ([], ["4,0", "4,0"]):
        assert refusal(waiting, {"type": "hammer", "targets": targets}) == (
            "Choose one or more different adjacent enemies.",
            "K-R30",
        )
    assert refusal(waiting, {"type": "hammer", "targets": ["4,0", "5,1"]}) == (
        "Those targets cost 2 movement points (1 + Defence each); you have 1.",
        "K-R30",
    )
    assert refusal(waiting, {"type": "hammer", "targets": ["3,0"]}) == (
        "(3, 0) holds no enemy next to your Colossus.",
        "K-R30",
    )
    off_board = ("Target '0,11' is not a square of the 11×11 board.", "K-R01")
    assert refusal(waiting, {"type": "hammer", "targets": ["4,0", "0,11"]}) == off_board
    assert refusal(waiting, {"type": "spear", "target": "0,11"}) == off_board
    one = act(waiting, {"type": "hammer", "targets": ["5,1"]})[0]
    assert one.minis[pid(NE, "W2")] == -1 and one.minis[pid(NE, "W")] == 4 * 11


def test_1_6_2_an_empty_path_stays_and_a_path_square_off_the_board_is_named() -> None:
    state = warrior_among_friends()
    stayed = act(state, walk("5,0", "5,0"))[0]
    assert act(state, {**walk("5,0", "5,0"), "path": []})[0] == stayed
    assert refusal(state, {**walk("5,0", "5,1"), "path": []}) == (
        "The path must end on the destination.",
        "1.6.2",
    )
    assert refusal(state, walk("5,0", "5,1", "11,0", "5,1")) == (
        "Path square '11,0' is not a square of the 11×11 board.",
        "K-R01",
    )
    assert refusal(state, walk("5,0", "5,11")) == (
        "Destination '5,11' is not a square of the 11×11 board.",
        "K-R01",
    )
    assert refusal(state, walk("-1,0", "5,1")) == (
        "Start square '-1,0' is not a square of the 11×11 board.",
        "K-R01",
    )


def test_K_R11_the_colossus_square_is_friendly_too() -> None:
    """Piece 0 (the first warband's Colossus) counts like every other miniature."""
    state = place(new_game(), {pid(NW, "W"): "5,0", pid(NW, "C"): "5,1"})
    state = ready_to_move(state, NW, "W", 2)
    assert pid(NW, "C") == 0
    assert refusal(state, walk("5,0", "5,1")) == (
        "You may pass (5, 1) but not end on a friendly miniature.",
        "K-R11",
    )


def test_K_R13_with_the_sword_the_blocking_enemy_is_the_one_after_a_beat() -> None:
    state = set_skills(new_game(chapter=3, titan_weapons="all_four"), NE, guardian_defence=4)
    # Only the Sword's continuation over the Warrior on 5,0 tries the Guardian on 4,0:
    # the other Guardian on 5,1 shuts every other way.
    state = place(
        state,
        {pid(NW, "C"): "6,0", pid(NE, "W"): "5,0", pid(NE, "G"): "4,0", pid(NE, "G2"): "5,1"},
    )
    state = ready_to_move(charge(state, NW, "sword"), NW, "C", 3)
    assert refusal(state, walk("6,0", "4,0")) == (
        "Too few movement points left to beat the enemy on (4, 0) (Defence).",
        "K-R13",
    )
