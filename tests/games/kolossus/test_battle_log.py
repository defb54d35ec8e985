"""What an activation leaves behind: the log lines and the table's steps of a move, the
beats recorded, the weapons spent (K-R28, K-R31, K-R32, K-R42), the crystals captured
(K-R16) and an elimination by the Spear (K-R20)."""

from __future__ import annotations

from typing import Any

from companion.events import Event, GameEnded, TableChanges
from companion.games.kolossus.common import KolossusEvent
from companion.games.kolossus.model import BeatRecord, CrystalCapture, KolossusState
from tests.games.kolossus.helpers import (
    NE,
    NW,
    act,
    charge,
    listed,
    new_game,
    pid,
    place,
    ready_to_move,
    set_skills,
)


def steps(event: Event) -> list[tuple[int, str, str]]:
    assert isinstance(event, TableChanges)
    return [(c.step, c.cell, c.instruction) for c in event.changes]


def walk(
    state: KolossusState, frm: str, to: str, **extra: Any
) -> tuple[KolossusState, tuple[Event, ...]]:
    return act(state, {"type": "move", "from": frm, "to": to, **extra})


def test_a_move_of_one_square_and_a_move_of_none_in_the_log() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 1)
    moved, events = walk(state, "5,0", "5,1")
    assert [e.text for e in events] == [
        "Tua'tha's Warrior moves from (5, 0) to (5, 1); 0 movement points left."
    ]
    assert steps(events[0]) == [(1, "5,1", "Move Tua'tha's Warrior from (5, 0) to (5, 1)")]
    assert moved.phase == "turn" and moved.activated == (pid(NW, "W"),)
    assert (moved.mp, moved.active_class, moved.entered) == (0, None, False)
    stayed, events = walk(state, "5,0", "5,0")
    assert events == (
        KolossusEvent(text="Tua'tha's Warrior moves from (5, 0) to (5, 0); 1 movement point left."),
    )
    assert stayed.activated == (pid(NW, "W"),) and stayed.phase == "turn"


def test_K_R16_the_capture_is_logged_and_the_table_told_to_hand_over_the_crystals() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "C"): "5,2"}), NW, "C", 4)
    state = state.model_copy(update={"crystals": 2, "crystal_supply": 10})
    taken, events = walk(state, "5,2", "5,5")
    assert [e.text for e in events] == [
        "Tua'tha's Colossus moves from (5, 2) to (5, 5) by (5, 3) → (5, 4) → (5, 5);"
        " 1 movement point left.",
        "Tua'tha captures 2 Crystals of Time.",
    ]
    assert steps(events[1]) == [(1, "5,5", "Give the crystals on (5, 5) to Tua'tha")]
    assert taken.captures == (CrystalCapture(round=1, warband=NW, count=2),)
    assert (taken.crystals, taken.crystal_supply, taken.phase) == (0, 10, "turn")
    one = state.model_copy(update={"crystals": 1, "crystal_supply": 11})
    assert walk(one, "5,2", "5,5")[1][1].text == "Tua'tha captures 1 Crystal of Time."


def test_K_R16_with_capture_requires_entry_only_a_miniature_that_moved_captures() -> None:
    options = {"capture_requires_entry": True}
    staying = place(new_game(**options), {pid(NW, "W"): "5,5"})
    stayed, events = walk(ready_to_move(staying, NW, "W", 1), "5,5", "5,5")
    assert stayed.crystals == 1 and stayed.captures == () and len(events) == 1
    entering = place(new_game(**options), {pid(NW, "C"): "5,4"})
    entered, _ = walk(ready_to_move(entering, NW, "C", 1), "5,4", "5,5")
    assert entered.crystals == 0 and entered.captures == (
        CrystalCapture(round=1, warband=NW, count=1),
    )


def test_K_R31_K_R32_sword_and_whip_in_one_move_both_spent_and_logged() -> None:
    state = set_skills(new_game(chapter=3, titan_weapons="all_four"), NE, warrior_defence=1)
    state = place(state, {pid(NW, "C"): "7,0", pid(NE, "W"): "6,0", pid(NE, "W2"): "5,0"})
    state = ready_to_move(charge(charge(state, NW, "whip"), NW, "sword"), NW, "C", 3)
    assert state.warbands[NW].supply == 16
    after, events = walk(state, "7,0", "4,0", whip=True)
    assert events[0].text == (
        "Tua'tha's Colossus moves from (7, 0) to (4, 0), beating 2 miniatures (Sword of Storm)"
        " (Whip of Wrath) by (6, 0) → (5, 0) → (4, 0); 0 movement points left."
    )
    assert steps(events[0]) == [
        (1, "6,0", "Remove Krell's Warrior from (6, 0) (beaten)"),
        (2, "5,0", "Remove Krell's Warrior from (5, 0) (beaten)"),
        (3, "4,0", "Move Tua'tha's Colossus from (7, 0) to (4, 0)"),
    ]
    assert after.beats == (
        BeatRecord(round=1, piece=pid(NE, "W"), by=NW, cause="move"),
        BeatRecord(round=1, piece=pid(NE, "W2"), by=NW, cause="sword"),
    )
    assert after.warbands[NW].charges == (0, 0, 0, 0)
    assert after.warbands[NW].supply == 20  # both charges back in the supply


def test_K_R32_the_whip_spent_in_the_move_also_lowers_the_hammers_cost() -> None:
    state = set_skills(new_game(chapter=3, titan_weapons="all_four"), NE, warrior_defence=3)
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0", pid(NE, "W2"): "3,1"})
    state = ready_to_move(charge(charge(state, NW, "whip"), NW, "hammer"), NW, "C", 3)
    waiting, events = walk(state, "5,0", "4,0")
    assert events[0].text == (
        "Tua'tha's Colossus moves from (5, 0) to (4, 0), beating 1 miniature (Whip of Wrath);"
        " 2 movement points left."
    )
    assert (waiting.phase, waiting.active_piece, waiting.mp) == ("after_move", pid(NW, "C"), 2)
    assert waiting.whip_active and waiting.warbands[NW].charges == (0, 0, 0, 2)
    assert listed(waiting, "hammer") == [{"type": "hammer", "targets": ["3,1"]}]
    done, events = act(waiting, {"type": "hammer", "targets": ["3,1"]})
    assert events[0].text == "Hammer of Doom: Tua'tha beats 1 miniature."
    assert done.beats[-1] == BeatRecord(round=1, piece=pid(NE, "W2"), by=NW, cause="hammer")
    assert (done.phase, done.whip_active, done.active_piece, done.mp) == ("turn", False, None, 0)


def krells_last_warrior(at: str) -> KolossusState:
    """Chapter 3, all four weapons: Tua'tha's Colossus on 5,0 and, of Krell's warband,
    only its Warrior left, on ``at`` (the others beaten, with their records)."""
    wipe: dict[int, str | None] = {p: None for p in range(NE * 8, NE * 8 + 8)}
    wipe[pid(NE, "W")] = at
    state = place(new_game(chapter=3, titan_weapons="all_four"), {pid(NW, "C"): "5,0", **wipe})
    records = tuple(
        BeatRecord(round=1, piece=p, by=NW, cause="move")
        for p in range(NE * 8, NE * 8 + 8)
        if p != pid(NE, "W")
    )
    return state.model_copy(update={"beats": records})


def test_K_R20_a_spear_that_wipes_out_a_warband_ends_the_game_there() -> None:
    state = set_skills(krells_last_warrior("2,0"), NE, warrior_defence=1)
    state = ready_to_move(charge(state, NW, "spear"), NW, "C", 5)
    waiting, _ = walk(state, "5,0", "5,0")
    over, events = act(waiting, {"type": "spear", "target": "2,0"})
    assert [type(e) for e in events] == [TableChanges, GameEnded]
    assert events[0].text == "Spear of Vengeance: Tua'tha beats 1 miniature."
    assert steps(events[0]) == [(1, "2,0", "Remove Krell's Warrior from (2, 0) (beaten)")]
    assert events[1].text == "Krell and Firbolg lost a warband: Tua'tha and Ishtari win (K-R20)."
    assert over.phase == "over" and over.mp == 1  # 5 - (3 squares + Defence 1)
    assert over.beats[-1] == BeatRecord(round=1, piece=pid(NE, "W"), by=NW, cause="spear")
    assert over.warbands[NW].charges == (0, 0, 0, 0) and over.warbands[NW].supply == 20


def test_K_R16_ending_on_an_empty_citadel_captures_nothing() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "C"): "5,4"}), NW, "C", 1)
    empty = state.model_copy(update={"crystals": 0, "crystal_supply": 11})
    after, events = walk(empty, "5,4", "5,5")
    assert len(events) == 1 and after.captures == () and after.crystals == 0


def test_a_move_of_two_squares_names_its_way() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 2)
    _, events = walk(state, "5,0", "5,2")
    assert events[0].text == (
        "Tua'tha's Warrior moves from (5, 0) to (5, 2) by (5, 1) → (5, 2); 0 movement points left."
    )


def test_K_R20_a_hammer_that_wipes_out_a_warband_keeps_the_points_left() -> None:
    state = krells_last_warrior("4,0")
    state = ready_to_move(charge(state, NW, "hammer"), NW, "C", 3)
    waiting, _ = walk(state, "5,0", "5,0")
    over, events = act(waiting, {"type": "hammer", "targets": ["4,0"]})
    assert [e.text for e in events] == [
        "Hammer of Doom: Tua'tha beats 1 miniature.",
        "Krell and Firbolg lost a warband: Tua'tha and Ishtari win (K-R20).",
    ]
    assert over.phase == "over" and over.mp == 2  # 3 - (1 + Defence 0)
