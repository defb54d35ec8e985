"""What the LEDs light in each Kolossus phase, cell for cell and in order, with the seat
a cell is lit for and a path's step numbers (``highlights.py``). Small hand-made
positions; the agreement with the legal actions is in test_views.py."""

from __future__ import annotations

from typing import Any

from companion.games.kolossus.content import cell, region_squares
from companion.games.kolossus.highlights import board_highlights, path_preview
from companion.games.kolossus.model import KolossusState
from companion.highlights import Highlight, Role
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
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

Lit = tuple[str, str, int | None, int | None]


def shown(state: KolossusState, focus: str | None = None) -> list[Lit]:
    """Every highlight as (cell, role, player, step), in the order given."""
    return [(h.cell, h.role.value, h.player, h.step) for h in board_highlights(state, focus)]


def region(name: str, role: str = "quake_region") -> list[Lit]:
    return [(cell(sq), role, None, None) for sq in region_squares(name)]


CITADEL: Lit = ("5,5", "citadel", None, None)


def test_K_R15_the_citadel_is_lit_while_crystals_lie_on_it_even_when_the_game_is_over() -> None:
    over = new_game().evolve({"phase": "over", "crystals": 2, "crystal_supply": 10})
    assert shown(over) == [CITADEL]
    assert shown(over.evolve({"crystals": 0, "crystal_supply": 12})) == []
    for phase in ("destiny", "allocate", "quake_allocate", "skills"):
        assert shown(new_game().evolve({"phase": phase})) == [CITADEL]


def test_K_R02_at_placement_every_miniature_in_a_start_zone_is_selectable_for_its_seat() -> None:
    state = place(new_game(players=2), {pid(NE, "W3"): None, pid(SW, "C"): "5,0"})
    lit = shown(state)
    assert lit[0] == CITADEL
    zones = [(cell(sq), band.player) for band in state.warbands for sq in band.zone]
    expected = [(c, "selectable", p, None) for c, p in zones if c not in ("2,10", "10,0")]
    assert lit[1:] == expected
    assert ("0,10", "selectable", 1, None) in lit and ("10,10", "selectable", 0, None) in lit


def test_K_R08_while_the_dice_roll_the_chosen_class_still_to_move_is_lit() -> None:
    state = place(new_game(), {pid(NW, "G2"): None, pid(NE, "G"): "5,0"})
    chosen = act(in_turn(state, NW), {"type": "choose_class", "cls": "G"})[0]
    assert chosen.phase == "move_roll"
    assert shown(chosen) == [CITADEL, ("0,1", "selectable", None, None)]
    done = chosen.evolve({"activated": (pid(NW, "G"),)})
    assert shown(done) == [CITADEL]
    warriors = act(in_turn(state, NW), {"type": "choose_class", "cls": "W"})[0]
    assert [c for c, *_ in shown(warriors)[1:]] == ["1,1", "0,2", "2,0", "1,2", "2,1"]


def test_K_R03_K_R06_before_the_roll_every_region_still_to_move_is_lit_once() -> None:
    state = act(new_game(), {"type": "ready"})[0]
    moved = state.evolve({"quake_moved": ("row3", "row4", "row5", "row6", "row7", "col3")})
    lit = shown(moved)
    assert lit[0] == CITADEL
    assert lit[1:] == region("col4") + region("col5") + region("col6") + region("col7")
    crossing = state.evolve({"quake_moved": CENTRAL_BUT("row3", "col3")})
    assert shown(crossing)[1:] == region("row3") + [
        s for s in region("col3") if s[0] != "3,3"
    ]  # (3, 3) lies in both: lit once


def CENTRAL_BUT(*kept: str) -> tuple[str, ...]:
    central = [f"row{i}" for i in range(3, 8)] + [f"col{i}" for i in range(3, 8)]
    return tuple(r for r in central if r not in kept)


def test_K_R05_a_region_touched_before_the_roll_is_lit_without_what_would_fall() -> None:
    state = act(new_game(), {"type": "ready"})[0]
    assert shown(state, "row3:east") == [CITADEL, *region("row3")]  # no roll yet: no distance
    assert shown(state, "row3") == [CITADEL, *region("row3")]
    assert shown(state, "row1") == [CITADEL]  # not a candidate (K-R03)
    assert shown(state, "rowx:east") == [CITADEL]
    assert shown(state, "4,4")[1:] == shown(state)[1:]  # a square is no region


def test_K_R04_K_R05_after_the_roll_a_region_preview_shows_what_falls_off() -> None:
    state = place(act(new_game(), {"type": "ready"})[0], {pid(NE, "W3"): "3,10"})
    rolled = roll(state, 3)
    assert shown(rolled, "row3:east") == [
        CITADEL,
        *region("row3"),
        ("3,10", "falls_off", None, None),  # the front first
        ("3,8", "falls_off", None, None),
    ]
    assert shown(rolled, "row3:west") == [
        CITADEL,
        *region("row3"),
        ("3,2", "falls_off", None, None),
    ]
    assert shown(rolled, "row3:north") == [CITADEL, *region("row3")]  # not a row's direction
    assert shown(rolled, "row3") == [CITADEL, *region("row3")]
    every: dict[str, Any] = {"quake_candidates": "all22"}
    rigid = roll(act(new_game(**every), {"type": "ready"})[0], 2)
    assert shown(rigid, "row0:east") == [
        CITADEL,
        *region("row0"),
        ("0,10", "falls_off", None, None),
        ("0,9", "falls_off", None, None),
    ]
    pushed = roll(
        act(new_game(region_move_model="push_compress", **every), {"type": "ready"})[0], 2
    )
    assert shown(pushed, "row0:east") == [CITADEL, *region("row0")]  # the gap closes first


def test_K_R08_K_R35_a_turn_lights_the_classes_that_fit_and_the_free_start_squares() -> None:
    state = place(new_game(chapter=3), {pid(NW, "G"): None, pid(NW, "W"): "4,0"})
    state = with_band(in_turn(state, NW, ap=2), NW, pool=2, supply=18)
    state = state.evolve({"activated": (pid(NW, "W2"),)})
    mine = [(c, "selectable", 0, None) for c in ("4,0", "2,0", "1,2", "2,1", "1,0")]
    assert shown(state) == [
        CITADEL,
        *mine,
        ("0,1", "rebirth", 0, None),
        ("1,1", "rebirth", 0, None),
    ]
    assert shown(state, "4,0")[-1] == ("4,0", "selected", None, None)
    assert shown(state, "4,1") == shown(state)  # an empty square selects nothing
    assert shown(state.evolve({"ap": 0})) == [
        CITADEL,
        ("0,1", "rebirth", 0, None),
        ("1,1", "rebirth", 0, None),
    ]
    poor = with_band(state, NW, pool=1, supply=19)  # a Guardian costs 2 (K-R35)
    assert [h for h in shown(poor) if h[1] == "rebirth"] == []
    chapter_2 = state.evolve({"options": state.options.model_copy(update={"chapter": 2})})
    assert [h for h in shown(chapter_2) if h[1] == "rebirth"] == []


def test_K_R35_a_rebirth_needs_a_beaten_miniature_the_pool_can_pay_for() -> None:
    state = with_band(in_turn(new_game(chapter=3), SE, ap=0), SE, pool=3, supply=17)
    assert shown(state) == [CITADEL]  # nothing beaten
    colossus = place(state, {pid(SE, "C"): None})
    assert shown(colossus) == [CITADEL, ("10,10", "rebirth", 2, None)]
    assert shown(with_band(colossus, SE, pool=2, supply=18)) == [CITADEL]
    warrior = place(state, {pid(SE, "W5"): None})
    assert shown(with_band(warrior, SE, pool=1, supply=19)) == [
        CITADEL,
        ("9,8", "rebirth", 2, None),
    ]


def test_K_R34_the_earthquake_preview_needs_chapter_3_and_3_pool_mana() -> None:
    state = with_band(in_turn(new_game(chapter=3), NW, ap=0), NW, pool=3, supply=17)
    assert shown(state, "col10:south") == [
        CITADEL,
        *region("col10"),
        ("10,10", "falls_off", None, None),
    ]
    assert shown(state, "row1") == [CITADEL, *region("row1")]  # any region (K-R34), no direction
    assert shown(with_band(state, NW, pool=2, supply=18), "col10:south") == [CITADEL]
    two = in_turn(new_game(chapter=2), NW, ap=0)
    assert shown(with_band(two, NW, pool=3, supply=17), "col10:south") == [CITADEL]


def test_K_R10_K_R12_a_touched_warrior_lights_its_ends_enemies_and_blocked_squares() -> None:
    state = set_skills(new_game(chapter=2), NE, warrior_defence=3)
    state = place(
        state,
        {pid(NW, "W"): "5,0", pid(NE, "G"): "4,0", pid(NE, "W"): "5,1", pid(NW, "W2"): "6,0"},
    )
    state = ready_to_move(state, NW, "W", 1)
    assert shown(state) == [
        CITADEL,
        *[
            (cell(state.minis[p]), "selectable", None, None)
            for p in range(3, 8)
            if state.minis[p] >= 0
        ],
    ]
    assert shown(state, "5,0") == [
        CITADEL,
        ("5,0", "selected", None, None),
        ("4,0", "capturable", None, None),
        ("4,1", "reachable", None, None),
        ("6,1", "reachable", None, None),
        ("5,1", "blocked", None, None),
    ]
    assert shown(state, "4,0")[1:] == shown(state)[1:]  # an enemy is not movable
    assert shown(state, "9,9")[1:] == shown(state)[1:]


def test_K_R10_a_move_preview_numbers_its_steps_from_the_touched_miniature() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 3)
    assert shown(state, "5,0>8,0") == [
        CITADEL,
        ("5,0", "selected", None, None),
        ("6,0", "path", None, 1),
        ("7,0", "path", None, 2),
        ("8,0", "path", None, 3),
    ]
    assert shown(state, " 5,0>8,0")[1] == ("5,0", "selected", None, None)
    assert shown(state, "5,0>9,0") == [CITADEL]  # out of reach: nothing
    assert path_preview(state, "5,0", "5,0") == ()
    assert path_preview(state, "x", "5,0") == () and path_preview(state, "5,0", "x") == ()
    assert path_preview(state, "4,0", "5,0") == ()  # nobody there
    enemy = place(state, {pid(NE, "W"): "4,4"})
    assert path_preview(enemy, "4,4", "4,5") == ()  # not the warband on its turn
    not_moving = state.evolve({"phase": "turn"})
    assert path_preview(not_moving, "5,0", "6,0") == ()
    assert path_preview(state, "5,0", "6,0") == (Highlight(cell="6,0", role=Role.PATH, step=1),)


def test_K_R29_K_R30_the_waiting_colossus_and_its_weapons_targets_in_order() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(
        state,
        {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0", pid(NE, "G"): "5,3", pid(SW, "W2"): "6,1"},
    )
    state = charge(charge(state, NW, "spear"), NW, "hammer")
    waiting = move(ready_to_move(state, NW, "C", 3), "5,0", "5,0")
    assert shown(waiting) == [
        CITADEL,
        ("5,0", "selected", None, None),
        ("4,0", "target", None, None),
        ("5,3", "target", None, None),
        ("6,1", "target", None, None),
    ]
    assert shown(waiting.evolve({"active_piece": None})) == [CITADEL]
    spear_only = with_band(
        waiting, NW, charges=(0, 0, 2, 0), supply=waiting.warbands[NW].supply + 2
    )
    assert [c for c, r, *_ in shown(spear_only) if r == "target"] == ["4,0", "5,3", "6,1"]
    hammer_only = with_band(
        waiting, NW, charges=(0, 0, 0, 2), supply=waiting.warbands[NW].supply + 2
    )
    assert [c for c, r, *_ in shown(hammer_only) if r == "target"] == ["4,0", "6,1"]


def test_K_R09_a_guardian_touched_in_the_move_phase_lights_only_its_own_ends() -> None:
    state = place(new_game(), {pid(SE, "G"): "6,6", pid(SE, "G2"): "8,8"})
    state = ready_to_move(state, SE, "G", 2).evolve({"activated": (pid(SE, "G2"),)})
    assert shown(state) == [CITADEL, ("6,6", "selectable", None, None)]
    lit = shown(state, "6,6")
    assert lit[1] == ("6,6", "selected", None, None)
    assert all(role == "reachable" for _, role, *_ in lit[2:]) and len(lit) > 10
    assert [c for c, *_ in lit[2:]] == sorted(
        (c for c, *_ in lit[2:]), key=lambda k: tuple(int(n) for n in k.split(","))
    )
    assert shown(state, "8,8")[1:] == [("6,6", "selectable", None, None)]  # activated


def test_K_R10_the_first_warbands_colossus_has_a_path_preview_too() -> None:
    """Tua'tha's Colossus is miniature 0: the preview must not take it for nobody."""
    state = ready_to_move(place(new_game(), {pid(NW, "C"): "5,0"}), NW, "C", 3)
    steps = path_preview(state, "5,0", "7,0")
    assert [(h.role, h.step) for h in steps] == [(Role.PATH, 1), (Role.PATH, 2)]
    assert steps[-1].cell == "7,0"


def test_a_square_light_is_its_roles_highlight_of_that_square() -> None:
    """The lights made once per role when the module loads, made again here."""
    from companion.games.kolossus import highlights

    light = highlights._square_lights(Role.BLOCKED)
    assert light(0) == Highlight(cell="0,0", role=Role.BLOCKED)
    assert light(120) == Highlight(cell="10,10", role=Role.BLOCKED)
    assert light(58) is light(58)


def test_K_R08_while_krells_dice_roll_only_krells_chosen_class_is_lit() -> None:
    colossus = act(in_turn(new_game(), NE), {"type": "choose_class", "cls": "C"})[0]
    assert shown(colossus) == [CITADEL, ("0,10", "selectable", None, None)]
    guardians = act(in_turn(new_game(), SW), {"type": "choose_class", "cls": "G"})[0]
    assert shown(guardians) == [
        CITADEL,
        ("9,0", "selectable", None, None),
        ("10,1", "selectable", None, None),
    ]


def test_K_R08_tuathas_colossus_on_square_0_is_lit_while_its_dice_roll() -> None:
    colossus = act(in_turn(new_game(), NW), {"type": "choose_class", "cls": "C"})[0]
    assert shown(colossus) == [CITADEL, ("0,0", "selectable", None, None)]


def test_K_R35_only_the_warbands_own_beaten_miniatures_may_be_reborn() -> None:
    """Ishtari has a free start square and 3 pool mana but lost nothing: Tua'tha's beaten
    Warrior and Firbolg's beaten Colossus are not Ishtari's to bring back."""
    state = place(new_game(chapter=3), {pid(SE, "W"): "5,9", pid(NW, "W"): None})
    state = place(state, {pid(SW, "C"): None})
    state = with_band(in_turn(state, SE, ap=0), SE, pool=3, supply=17)
    assert shown(state) == [CITADEL]
    home = place(new_game(chapter=3), {pid(NW, "W"): "4,4"})  # (1, 1) free, nothing beaten
    home = with_band(in_turn(home, NW, ap=0), NW, pool=3, supply=17)
    assert shown(home) == [CITADEL]  # the Colossus on (0, 0), square 0, is not beaten


def test_K_R08_a_turn_lights_only_the_warbands_own_miniatures_colossus_included() -> None:
    krell = in_turn(new_game(), NE, ap=3)
    assert [c for c, *_ in shown(krell)[1:]] == [
        "1,9",
        "0,8",
        "2,10",
        "1,8",
        "2,9",
        "0,9",
        "1,10",
        "0,10",
    ]  # Warriors, Guardians, then the Colossus (3 activation points)
    assert {p for _, _, p, _ in shown(krell)[1:]} == {1}
    tuatha = in_turn(new_game(), NW, ap=3)
    assert shown(tuatha)[-1] == ("0,0", "selectable", 0, None)  # square 0
    assert shown(tuatha, "0,0")[-1] == ("0,0", "selected", None, None)


def test_K_R12_tuathas_colossus_on_square_0_is_capturable() -> None:
    state = place(new_game(), {pid(NW, "G2"): None, pid(NE, "W"): "1,0"})
    state = ready_to_move(state, NE, "W", 1)
    assert ("0,0", "capturable", None, None) in shown(state, "1,0")
    assert ("0,0", "reachable", None, None) not in shown(state, "1,0")


def test_K_R09_with_nothing_touched_the_movable_guardians_are_selectable_not_selected() -> None:
    state = ready_to_move(new_game(), NW, "G", 2)
    assert shown(state) == [
        CITADEL,
        ("0,1", "selectable", None, None),
        ("1,0", "selectable", None, None),
    ]


def test_K_R05_the_last_warbands_roll_previews_nothing_for_the_next_warband() -> None:
    first = roll(act(new_game(), {"type": "ready"})[0], 3)
    second = act(first, {"type": "quake_move", "region": "col7", "direction": "north"})[0]
    assert second.phase == "quake" and second.dice is not None
    assert shown(second, "row3:east") == [CITADEL, *region("row3")]  # its die is not read
