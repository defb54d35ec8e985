"""Rulings on the board, setup, control and the Great Quake (K-R01..K-R07, K-R21, K-R38,
K-R41) and the push_compress option."""

from __future__ import annotations

import pytest

from companion.dice import Roll
from companion.errors import InvalidOptions, RuleViolation
from companion.events import TableChanges
from companion.games.kolossus import RULES
from companion.games.kolossus.content import (
    CENTRAL_REGIONS,
    INITIAL_TERRAIN,
    cell,
    levels_of,
    square,
)
from companion.games.kolossus.model import KolossusState
from companion.games.kolossus.quake import shift_region
from tests.games.kolossus.helpers import act, listed, new_game, pid, roll, sq

#: The class of each of a warband's 8 slots (C, G, G2, W, W2.. W5).
SLOT_CLASS = "CGGWWWWW"


def to_quake(state: KolossusState) -> KolossusState:
    state, _ = act(state, {"type": "ready"})
    assert state.phase == "quake"
    return state


def test_K_R01_board_is_11x11_with_a_centred_stepped_pyramid() -> None:
    levels = levels_of(INITIAL_TERRAIN)
    assert len(levels) == 121
    counts = {lv: levels.count(lv) for lv in range(1, 6)}
    assert counts == {1: 72, 2: 24, 3: 16, 4: 8, 5: 1}
    assert levels[square(5, 5)] == 5
    for r in range(11):
        for c in range(11):
            d = max(abs(r - 5), abs(c - 5))
            assert levels[square(r, c)] == (5 - d if d <= 3 else 1)


def test_K_R02_start_zones_are_corner_blocks_minus_inner_square() -> None:
    state = new_game()
    expected = {
        0: {"0,0", "0,1", "0,2", "1,0", "1,1", "1,2", "2,0", "2,1"},
        1: {"0,8", "0,9", "0,10", "1,8", "1,9", "1,10", "2,9", "2,10"},
        2: {"8,9", "8,10", "9,8", "9,9", "9,10", "10,8", "10,9", "10,10"},
        3: {"8,0", "8,1", "9,0", "9,1", "9,2", "10,0", "10,1", "10,2"},
    }
    levels = levels_of(state.terrain)
    for wb, cells in expected.items():
        assert set(state.warbands[wb].zone) == {sq(c) for c in cells}
        assert all(levels[sq(c)] == 1 for c in cells)
        # one miniature per start square
        assert set(state.minis[wb * 8 : wb * 8 + 8]) == {sq(c) for c in cells}


def test_K_R02_miniatures_may_be_rearranged_inside_their_zone() -> None:
    state = new_game()
    colossus, warrior = state.minis[pid(0, "C")], state.minis[pid(0, "W")]
    a, b = cell(colossus), cell(warrior)
    swapped, events = act(state, {"type": "swap", "a": a, "b": b})
    assert swapped.minis[pid(0, "C")] == warrior
    assert swapped.minis[pid(0, "W")] == colossus
    assert isinstance(events[0], TableChanges)
    other = cell(state.minis[pid(1, "W")])
    with pytest.raises(RuleViolation, match="K-R02"):
        act(state, {"type": "swap", "a": a, "b": other})
    quake = to_quake(state)
    with pytest.raises(RuleViolation):
        act(quake, {"type": "swap", "a": a, "b": b})


def test_K_R02_every_swap_of_two_classes_in_a_zone_is_listed_once() -> None:
    """The setup lists each unordered pair of differently classed miniatures of one start
    zone exactly once: 1 Colossus × 2 Guardians + 1 × 5 Warriors + 2 × 5 = 17 a zone."""
    state = new_game()
    swaps = [frozenset((a["a"], a["b"])) for a in listed(state, "swap")]
    expected: set[frozenset[str]] = set()
    for wb in range(4):
        pieces = range(wb * 8, wb * 8 + 8)
        for p in pieces:
            for q in pieces:
                if SLOT_CLASS[p % 8] != SLOT_CLASS[q % 8]:
                    expected.add(frozenset((cell(state.minis[p]), cell(state.minis[q]))))
    assert len(expected) == 4 * 17
    assert len(swaps) == len(set(swaps))  # no pair twice
    assert set(swaps) == expected


def test_K_R02_custom_start_zone_layout_option() -> None:
    zones = {
        "NW": ["0,0", "0,1", "0,2", "0,3", "1,0", "1,1", "1,2", "1,3"],
        "NE": ["0,7", "0,8", "0,9", "0,10", "1,7", "1,8", "1,9", "1,10"],
        "SE": ["10,7", "10,8", "10,9", "10,10", "9,7", "9,8", "9,9", "9,10"],
        "SW": ["10,0", "10,1", "10,2", "10,3", "9,0", "9,1", "9,2", "9,3"],
    }
    state = new_game(start_zone_layout=zones)
    assert set(state.minis[0:8]) == {sq(c) for c in zones["NW"]}
    bad = dict(zones, SW=[*zones["SW"][:7], "0,0"])
    with pytest.raises(InvalidOptions):
        new_game(start_zone_layout=bad)


def test_K_R03_quake_candidates_are_rows_and_columns_3_to_7() -> None:
    state = roll(to_quake(new_game()), 2)
    regions = {a["region"] for a in listed(state, "quake_move")}
    assert regions == set(CENTRAL_REGIONS)
    with pytest.raises(RuleViolation, match="K-R03"):
        act(state, {"type": "quake_move", "region": "row2", "direction": "east"})
    wide = roll(to_quake(new_game(quake_candidates="all22")), 1)
    moved, _ = act(wide, {"type": "quake_move", "region": "row0", "direction": "east"})
    assert moved.quake_moved == ("row0",)


def test_K_R04_region_moves_rigidly_along_its_axis_keeping_gaps() -> None:
    state = roll(to_quake(new_game()), 2)
    moved, events = act(state, {"type": "quake_move", "region": "row5", "direction": "east"})
    assert moved.terrain[5] == "....WHMCMHW"  # the whole line shifted 2 east
    assert INITIAL_TERRAIN[5] == "..WHMCMHW.."
    assert moved.terrain[4] == INITIAL_TERRAIN[4]
    assert isinstance(events[0], TableChanges)
    with pytest.raises(RuleViolation, match="K-R04"):
        act(state, {"type": "quake_move", "region": "row5", "direction": "north"})
    # a row with a gap: gaps are kept (nothing compressed)
    terrain = list(INITIAL_TERRAIN)
    terrain[5] = "..W.MCM.W.."
    shift = shift_region(tuple(terrain), state.minis, "row5", 1, 3, "rigid")
    assert shift.terrain[5] == ".....W.MCM."
    assert shift.fallen_landscapes == ((sq("5,8"), "W"),)


def test_K_R04_push_compress_pushes_from_the_rear_and_closes_gaps() -> None:
    terrain = list(INITIAL_TERRAIN)
    terrain[5] = "W..H.C....M"
    state = new_game()
    shift = shift_region(tuple(terrain), state.minis, "row5", 1, 2, "push_compress")
    # the rear Woods moves 2 (0->2) and touches nothing; the rest stays
    assert shift.terrain[5] == "..WH.C....M"
    shift = shift_region(tuple(terrain), state.minis, "row5", 1, 4, "push_compress")
    # Woods 0->4 pushes the Hills (3->5) which pushes the Citadel (5->6)
    assert shift.terrain[5] == "....WHC...M"
    west = shift_region(tuple(terrain), state.minis, "row5", -1, 1, "push_compress")
    assert west.terrain[5] == "W..H.C...M."
    game = roll(to_quake(new_game(region_move_model="push_compress")), 1)
    moved, _ = act(game, {"type": "quake_move", "region": "row3", "direction": "west"})
    assert moved.terrain[3] == ".WHHHHHW..."


def test_K_R05_quake_moves_exactly_the_roll_unless_up_to_roll() -> None:
    state = roll(to_quake(new_game()), 3)
    with pytest.raises(RuleViolation, match="K-R05"):
        act(state, {"type": "quake_move", "region": "row4", "direction": "east", "distance": 2})
    moved, _ = act(state, {"type": "quake_move", "region": "row4", "direction": "east"})
    assert moved.terrain[4] == ".....WHMMMH"  # the far Woods fell off
    loose = roll(to_quake(new_game(quake_distance="up_to_roll")), 3)
    distances = {a["distance"] for a in listed(loose, "quake_move")}
    assert distances == {1, 2, 3}
    moved, _ = act(
        loose, {"type": "quake_move", "region": "row4", "direction": "east", "distance": 1}
    )
    assert moved.terrain[4] == "...WHMMMHW."
    with pytest.raises(RuleViolation, match="K-R05"):
        act(loose, {"type": "quake_move", "region": "row4", "direction": "east", "distance": 4})


def test_K_R06_each_warband_moves_one_region_once_clockwise_after_rolling() -> None:
    state = to_quake(new_game())
    with pytest.raises(RuleViolation, match="K-R07"):
        act(state, {"type": "quake_move", "region": "row4", "direction": "east"})
    order = []
    for region in ("row4", "col4", "row6"):
        order.append(RULES.current_player(state))
        state = roll(state, 1)
        state, _ = act(
            state,
            {
                "type": "quake_move",
                "region": region,
                "direction": "east" if region.startswith("row") else "south",
            },
        )
    order.append(RULES.current_player(state))
    assert order == [0, 1, 2, 3]
    state = roll(state, 1)
    with pytest.raises(RuleViolation, match="K-R06"):
        act(state, {"type": "quake_move", "region": "row4", "direction": "west"})
    # a crossing column may still move; it is the last Quake move
    state, _ = act(state, {"type": "quake_move", "region": "col6", "direction": "north"})
    assert state.phase == "destiny" and state.round == 1
    assert state.quake_moved == ("row4", "col4", "row6", "col6")


def test_K_R07_die_values_are_used_unchanged_and_checked() -> None:
    state = to_quake(new_game())
    rolled = roll(state, 1)
    assert rolled.roll == (1,)  # no 5 - x inversion
    with pytest.raises(RuleViolation, match="K-R07"):
        RULES.apply(state, Roll(values=(5,)))
    with pytest.raises(RuleViolation, match="K-R07"):
        RULES.apply(state, Roll(values=(1, 2)))
    soft, _ = RULES.apply(state, Roll())
    assert 1 <= soft.roll[0] <= 4 and soft.rng != state.rng
    again, _ = RULES.apply(state, Roll())
    assert again == soft  # the seeded stream replays


def test_K_R21_two_and_three_players_control_diagonal_pairs() -> None:
    two = new_game(2)
    assert [wb.player for wb in two.warbands] == [0, 1, 0, 1]
    three = new_game(3)
    assert [wb.player for wb in three.warbands] == [0, 1, 0, 2]
    custom = new_game(3, controllers=(0, 1, 2, 1))
    assert [wb.player for wb in custom.warbands] == [0, 1, 2, 1]
    with pytest.raises(InvalidOptions, match="K-R21"):
        new_game(3, controllers=(0, 0, 1, 2))
    # each warband keeps its own turn: the Quake asks all four warbands
    state = to_quake(two)
    players = []
    for region in ("row3", "row4", "row5", "row6"):
        players.append(RULES.current_player(state))
        state = roll(state, 1)
        state, _ = act(state, {"type": "quake_move", "region": region, "direction": "east"})
    assert players == [0, 1, 0, 1]


def test_K_R38_first_corner_starts_the_invasion_and_round_one() -> None:
    state = to_quake(new_game(first_corner="SE"))
    assert RULES.current_player(state) == 2
    assert state.dice is not None and "Ishtari" in state.dice.label
    for region in ("row3", "row4", "row5", "row6"):
        state = roll(state, 1)
        state, _ = act(state, {"type": "quake_move", "region": region, "direction": "east"})
    assert state.round == 1 and RULES.current_player(state) == 2


def test_K_R41_quake_may_not_push_the_citadel_off() -> None:
    """The rulings' example: row 5 west 2, column 3 north 2, then row 3 west 4."""
    state = to_quake(new_game())
    state = roll(state, 2)
    state, _ = act(state, {"type": "quake_move", "region": "row5", "direction": "west"})
    assert state.terrain[5][3] == "C"
    state = roll(state, 2)
    state, _ = act(state, {"type": "quake_move", "region": "col3", "direction": "north"})
    assert state.terrain[3][3] == "C"
    state = roll(state, 4)
    with pytest.raises(RuleViolation, match="K-R41"):
        act(state, {"type": "quake_move", "region": "row3", "direction": "west"})
    moves = listed(state, "quake_move")
    assert moves and all(not (a["region"] == "row3" and a["direction"] == "west") for a in moves)
    state, _ = act(state, {"type": "quake_move", "region": "row3", "direction": "east"})
    assert "".join(state.terrain).count("C") == 1


def test_quake_pieces_and_landscapes_falling_off_are_reported() -> None:
    state = roll(to_quake(new_game(quake_candidates="all22")), 2)
    moved, events = act(state, {"type": "quake_move", "region": "row0", "direction": "west"})
    # NW's pieces on 0,0 and 0,1 fall off and are beaten
    assert moved.minis.count(-1) == 2
    changes = events[0]
    assert isinstance(changes, TableChanges)
    texts = [c.instruction for c in changes.changes]
    assert texts[0].startswith("Remove") and "(beaten)" in texts[0]
    assert [c.step for c in changes.changes] == list(range(1, len(texts) + 1))
