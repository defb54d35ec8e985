"""A region shift told to the table step by step (K-R04, K-R34): what falls off first,
then each landscape and miniature moved front first, and the beats it records."""

from __future__ import annotations

from companion.events import TableChanges
from companion.games.kolossus.model import BeatRecord, KolossusState
from companion.games.kolossus.quake import (
    apply_shift,
    citadel_falls,
    region_shift,
    shift_changes,
    shift_region,
)
from tests.games.kolossus.helpers import NE, NW, SW, in_turn, new_game, pid, place, sq


def row_five() -> KolossusState:
    """Krell's turn; row 5 "..WHMCMHW.H" with Tua'tha's Warrior on 5,0, Krell's on the
    Woods at 5,2 and Firbolg's Guardian on the Hills at 5,10."""
    state = place(
        new_game(chapter=3), {pid(NE, "W"): "5,2", pid(SW, "G"): "5,10", pid(NW, "W"): "5,0"}
    )
    rows = [list(r) for r in state.terrain]
    rows[5][10] = "H"
    rows[5][9] = "."
    return in_turn(state.model_copy(update={"terrain": tuple("".join(r) for r in rows)}), NE)


def test_K_R04_the_steps_remove_what_falls_then_move_front_first() -> None:
    state = row_five()
    shift = region_shift(state, "row5", "east", 1)
    assert [(c.step, c.cell, c.instruction) for c in shift_changes(state, shift)] == [
        (1, "5,10", "Remove Firbolg's Guardian from (5, 10) (beaten)"),
        (2, "5,10", "Remove the Hills at (5, 10) from the game"),
        (3, "5,8", "Move the Woods from (5, 8) to (5, 9)"),
        (4, "5,7", "Move the Hills from (5, 7) to (5, 8)"),
        (5, "5,6", "Move the Mountains from (5, 6) to (5, 7)"),
        (6, "5,5", "Move the Citadel of Time from (5, 5) to (5, 6)"),
        (7, "5,4", "Move the Mountains from (5, 4) to (5, 5)"),
        (8, "5,3", "Move the Hills from (5, 3) to (5, 4)"),
        (9, "5,2", "Move the Woods with Krell's Warrior from (5, 2) to (5, 3)"),
        (10, "5,0", "Move Tua'tha's Warrior from (5, 0) to (5, 1)"),
    ]
    assert shift.fallen == (sq("5,10"),)
    assert shift.fallen_landscapes == ((sq("5,10"), "H"),)
    assert shift.fallen_pieces == (pid(SW, "G"),)
    assert shift.minis[pid(NE, "W")] == sq("5,3") and shift.minis[pid(SW, "G")] == -1
    assert shift.terrain[5] == "...WHMCMHW."


def test_K_R04_the_steps_name_the_first_miniature_of_all_like_any_other() -> None:
    """Tua'tha's Colossus is piece 0: the steps name it when it falls and when it rides
    a landscape; a square that falls with no landscape loses none."""
    state = place(row_five(), {pid(NW, "C"): "5,10"})
    falls = shift_changes(state, region_shift(state, "row5", "east", 1))
    assert (falls[0].cell, falls[0].instruction) == (
        "5,10",
        "Remove Tua'tha's Colossus from (5, 10) (beaten)",
    )
    riding = place(row_five(), {pid(NW, "C"): "5,3"})
    steps = [c.instruction for c in shift_changes(riding, region_shift(riding, "row5", "east", 1))]
    assert "Move the Hills with Tua'tha's Colossus from (5, 3) to (5, 4)" in steps
    west = region_shift(state, "row5", "west", 1)
    assert west.fallen == (sq("5,0"),) and west.fallen_pieces == (pid(NW, "W"),)
    assert west.fallen_landscapes == ()


def test_K_R34_the_shift_records_its_beats_by_the_acting_warband() -> None:
    state = row_five()
    shift = region_shift(state, "row5", "east", 1)
    for cause in ("quake", "earthquake"):
        new, events = apply_shift(state, shift, cause, "Shaken.")
        assert new.beats == (BeatRecord(round=1, piece=pid(SW, "G"), by=NE, cause=cause),)
        assert new.terrain == shift.terrain and new.minis == shift.minis
        assert isinstance(events[0], TableChanges) and events[0].text == "Shaken."
        assert len(events) == 1 and new.phase == "turn"


def test_K_R41_the_citadel_falls_only_past_the_edge() -> None:
    state = new_game()
    terrain, minis = state.terrain, state.minis
    assert not citadel_falls(terrain, minis, "row5", 1, 5, "rigid")  # onto the last square
    assert not shift_region(terrain, minis, "row5", 1, 5, "rigid").citadel_falls
    assert citadel_falls(terrain, minis, "row5", 1, 6, "rigid")
    assert shift_region(terrain, minis, "row5", 1, 6, "rigid").citadel_falls
    assert citadel_falls(terrain, minis, "col5", -1, 6, "rigid")
    assert not citadel_falls(terrain, minis, "row4", 1, 10, "rigid")
    assert not citadel_falls(terrain, minis, "row5", 1, 5, "push_compress")
    assert citadel_falls(terrain, minis, "row5", 1, 6, "push_compress")


def test_K_R04_a_push_tells_the_table_to_move_only_what_moves() -> None:
    state = new_game()
    rows = list(state.terrain)
    rows[5] = "W..H.C....M"
    terrain = tuple(rows)
    shift = shift_region(terrain, state.minis, "row5", 1, 2, "push_compress")
    assert shift.terrain[5] == "..WH.C....M"
    assert shift.moves == ((sq("5,0"), sq("5,2")),)  # the Hills, Citadel and Mountains stay
    pushed = shift_region(terrain, state.minis, "row5", 1, 4, "push_compress")
    assert pushed.moves == (
        (sq("5,5"), sq("5,6")),
        (sq("5,3"), sq("5,5")),
        (sq("5,0"), sq("5,4")),
    )
