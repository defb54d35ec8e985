"""A move along an explicit path is judged as the found way is (K-R09, K-R10, K-R11,
K-R32): from its vacated origin, with the Colossus's levels ignored and the Whip
lowering Defence when the path needs it."""

from __future__ import annotations

from companion.games.kolossus.model import BeatRecord
from tests.games.kolossus.helpers import (
    NE,
    NW,
    charge,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    set_skills,
    sq,
)


def test_K_R09_K_R11_a_guardian_may_walk_out_and_back_onto_its_own_square() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "G"): "5,0"}), NW, "G", 2)
    back = move(state, "5,0", "5,0", path=["4,0", "5,0"])
    assert back.minis[pid(NW, "G")] == sq("5,0") and back.activated == (pid(NW, "G"),)


def test_K_R10_a_colossus_path_climbs_any_number_of_levels() -> None:
    state = new_game()
    rows = [list(row) for row in state.terrain]
    rows[5][1], rows[5][2] = ".", "M"  # level 1 to level 4
    state = state.model_copy(update={"terrain": tuple("".join(r) for r in rows)})
    colossus = ready_to_move(place(state, {pid(NW, "C"): "5,1"}), NW, "C", 1)
    up = move(colossus, "5,1", "5,2", path=["5,2"])
    assert up.minis[pid(NW, "C")] == sq("5,2")


def test_K_R32_a_path_that_needs_the_whip_uses_and_spends_it() -> None:
    state = set_skills(new_game(chapter=3, titan_weapons="all_four"), NE, warrior_defence=3)
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0"})
    state = ready_to_move(charge(state, NW, "whip"), NW, "C", 2)
    after = move(state, "5,0", "4,0", path=["4,0"])
    assert after.minis[pid(NE, "W")] == -1 and after.minis[pid(NW, "C")] == sq("4,0")
    assert after.beats == (BeatRecord(round=1, piece=pid(NE, "W"), by=NW, cause="move"),)
    assert after.warbands[NW].charges == (0, 0, 0, 0)  # the Whip was needed: spent
    easy = set_skills(state, NE, warrior_defence=3)
    easy = place(easy, {pid(NE, "W"): "3,0"})
    walked = move(easy, "5,0", "4,0", path=["4,0"])
    assert walked.warbands[NW].charges == (0, 2, 0, 0)  # no beat: the Whip stays charged


def test_K_R31_a_sword_path_back_over_its_beaten_square_beats_once() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "6,0", pid(NE, "W"): "5,0"})
    state = ready_to_move(charge(state, NW, "sword"), NW, "C", 3)
    after = move(state, "6,0", "5,0", path=["5,0", "4,0", "5,0"])
    assert after.minis[pid(NW, "C")] == sq("5,0") and after.minis[pid(NE, "W")] == -1
    assert after.beats == (BeatRecord(round=1, piece=pid(NE, "W"), by=NW, cause="move"),)


def test_K_R42_a_colossus_that_stays_keeps_its_sword_and_its_points() -> None:
    state = place(new_game(chapter=3, titan_weapons="all_four"), {pid(NW, "C"): "5,0"})
    state = ready_to_move(charge(charge(state, NW, "sword"), NW, "hammer"), NW, "C", 3)
    state = place(state, {pid(NE, "W"): "4,0"})
    waiting = move(state, "5,0", "5,0")
    assert waiting.phase == "after_move" and waiting.mp == 3
    assert waiting.warbands[NW].charges == (2, 0, 0, 2)  # the Sword was not used
