"""The actions each phase of a Kolossus game lists (K-R02, K-R08, K-R23, K-R25)."""

from __future__ import annotations

from companion.games.kolossus import RULES
from companion.games.kolossus.model import Allocate, Ready
from tests.games.kolossus.helpers import NW, SE, act, listed, new_game, pid, place, ready_to_move


def test_K_R02_the_placement_lists_ready_first_then_only_swaps_of_two_miniatures() -> None:
    state = new_game()
    actions = list(RULES.legal_actions(state))
    assert actions[0] == Ready() and len(actions) == 1 + 4 * 17
    # A start square left empty (its Warrior stands elsewhere) is in no swap.
    home = state.minis[pid(SE, "W5")]
    away = place(state, {pid(SE, "W5"): "5,0"})
    swaps = listed(away, "swap")
    empty = f"{home // 11},{home % 11}"
    assert all(empty not in (a["a"], a["b"]) for a in swaps)
    assert len(swaps) == 4 * 17 - 3  # SE's Warrior 5 swapped with C, G and G2 before


def test_K_R25_the_starting_skills_list_every_way_to_place_four() -> None:
    skills = act(new_game(chapter=2), {"type": "ready"})[0]
    actions = list(RULES.legal_actions(skills))
    assert len(actions) == 126 and all(isinstance(a, Allocate) for a in actions)
    assert {sum(a.skills()) for a in actions if isinstance(a, Allocate)} == {4}


def test_K_R23_the_quake_income_lists_its_allocations() -> None:
    state = new_game(chapter=2).model_copy(update={"phase": "quake_allocate"})
    bands = list(state.warbands)
    bands[NW] = bands[NW].model_copy(update={"income": 1, "supply": 19})
    state = state.model_copy(update={"warbands": tuple(bands)})
    actions = list(RULES.legal_actions(state))
    assert actions[0] == Allocate() and len(actions) == 1 + 6


def test_K_R08_a_move_lists_the_ends_of_every_miniature_still_to_move() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,0", pid(NW, "W2"): "7,0"})
    state = ready_to_move(state, NW, "W", 1).model_copy(
        update={"activated": (pid(NW, "W3"), pid(NW, "W4"), pid(NW, "W5"))}
    )
    origins = {a["from"] for a in listed(state, "move")}
    assert origins == {"5,0", "7,0"}
