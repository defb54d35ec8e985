"""The ends of a move as a mapping (K-R09..K-R13): the origin first, membership, size and
which ends beat; and the squares of a list as cells."""

from __future__ import annotations

from companion.games.kolossus.position import cells, destinations
from tests.games.kolossus.helpers import NE, NW, new_game, pid, place, ready_to_move, sq


def test_K_R13_the_ends_of_a_warriors_move_start_with_its_own_square() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,0", pid(NE, "W"): "4,0"})
    state = ready_to_move(state, NW, "W", 1)
    found = destinations(state, pid(NW, "W"), 1, sword=False, whip=False)
    ends = found.ends
    assert next(iter(ends)) == sq("5,0")  # staying put is an end, found first
    assert set(ends) == {sq("5,0"), sq("4,0"), sq("4,1"), sq("5,1"), sq("6,0"), sq("6,1")}
    assert len(ends) == 6
    assert sq("5,0") in ends and sq("4,0") in ends
    assert sq("3,0") not in ends and sq("5,1") + 11 * 11 not in ends
    assert ends.beating() == {s: s == sq("4,0") for s in ends}
    assert ends[sq("5,0")].path == () and ends[sq("5,0")].left == 1
    assert ends[sq("4,0")].beaten == (sq("4,0"),) and ends[sq("4,0")].left == 0
    assert found.blocked == frozenset()


def test_cells_name_the_squares_in_order() -> None:
    assert cells((0, 12, 120)) == ("0,0", "1,1", "10,10")
    assert cells([]) == ()
