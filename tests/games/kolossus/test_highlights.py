"""What the LEDs show in each Kolossus phase."""

from __future__ import annotations

from companion.games.kolossus import RULES
from companion.games.kolossus.content import CENTRAL_REGIONS, cell, region_squares
from companion.games.kolossus.highlights import path_preview
from companion.games.kolossus.model import KolossusState
from companion.highlights import Role
from tests.games.kolossus.helpers import (
    NE,
    NW,
    act,
    charge,
    in_turn,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
    set_skills,
    with_band,
)


def cells(state: KolossusState, role: Role, focus: str | None = None) -> set[str]:
    return {h.cell for h in RULES.highlights(state, focus) if h.role == role}


def test_move_phase_selectable_then_reachable_capturable_blocked() -> None:
    state = set_skills(new_game(chapter=2), NE, warrior_defence=3)
    state = place(
        state,
        {pid(NW, "W"): "5,0", pid(NE, "G"): "3,0", pid(NE, "W"): "5,2", pid(NW, "W2"): "6,0"},
    )
    state = ready_to_move(state, NW, "W", 2)
    selectable = cells(state, Role.SELECTABLE)
    assert {"5,0", "6,0"} <= selectable
    assert cell(state.minis[pid(NW, "G")]) not in selectable  # not the active class
    assert cells(state, Role.SELECTED, "5,0") == {"5,0"}
    assert "4,0" in cells(state, Role.REACHABLE, "5,0")
    assert cells(state, Role.CAPTURABLE, "5,0") == {"3,0"}
    assert "5,2" in cells(state, Role.BLOCKED, "5,0")  # Defence 3 needs more MP
    assert "5,0" not in cells(state, Role.REACHABLE, "5,0")
    preview = path_preview(state, "5,0", "3,0")
    assert [(h.cell, h.step) for h in preview] == [("4,0", 1), ("3,0", 2)]
    shown = RULES.highlights(state, "5,0>3,0")
    assert [(h.cell, h.role, h.step) for h in shown if h.role != Role.CITADEL] == [
        ("5,0", Role.SELECTED, None),
        ("4,0", Role.PATH, 1),
        ("3,0", Role.PATH, 2),
    ]


def test_turn_phase_selectable_classes_and_rebirth_squares() -> None:
    state = place(new_game(chapter=3), {pid(NW, "G"): None})
    state = with_band(in_turn(state, NW, ap=1), NW, pool=2, supply=18)
    selectable = cells(state, Role.SELECTABLE)
    warriors = {cell(state.minis[p]) for p in range(3, 8)}
    assert selectable == warriors  # only Warriors fit 1 AP
    free = {cell(sq) for sq in state.warbands[NW].zone if sq not in state.minis}
    assert cells(state, Role.REBIRTH) == free and free


def test_spear_and_hammer_targets_after_the_colossus_move() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0", pid(NE, "G"): "5,3"})
    state = charge(charge(state, NW, "spear"), NW, "hammer")
    state = move(ready_to_move(state, NW, "C", 3), "5,0", "5,0")
    assert state.phase == "after_move"
    assert cells(state, Role.TARGET) == {"4,0", "5,3", "8,0"}  # 8,0: SW's piece, 3 away
    assert cells(state, Role.SELECTED) == {"5,0"}


def test_quake_regions_and_falling_preview() -> None:
    state = act(new_game(), {"type": "ready"})[0]
    expected = {cell(sq) for region in CENTRAL_REGIONS for sq in region_squares(region)}
    assert cells(state, Role.QUAKE_REGION) == expected
    state = roll(state, 3)
    assert cells(state, Role.QUAKE_REGION, "row3") == {f"3,{c}" for c in range(11)}
    assert cells(state, Role.FALLS_OFF, "row3:east") == {"3,8"}  # the Woods on 3,8
    assert cells(state, Role.FALLS_OFF, "row1:east") == set()  # not a candidate


def test_earthquake_preview_and_citadel_marker() -> None:
    state = with_band(in_turn(new_game(chapter=3), NW), NW, pool=3, supply=17)
    assert cells(state, Role.FALLS_OFF, "row0:west") == {"0,0"}
    assert cells(state, Role.CITADEL) == {"5,5"}
    empty = state.model_copy(update={"crystals": 0})
    assert cells(empty, Role.CITADEL) == set()
