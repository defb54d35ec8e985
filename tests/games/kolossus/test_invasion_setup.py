"""A new Kolossus game and the Invasion: the options refused in their exact words
(K-R02, K-R21, K-R22, K-R26), each warband's zone, weapon and mana, the swaps of the
placement (K-R02) and the Great Quake's refusals (K-R03, K-R05, K-R06, K-R41)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import InvalidOptions
from companion.games.kolossus import RULES
from companion.games.kolossus.content import DEFAULT_START_ZONES, cell
from companion.games.kolossus.model import KolossusState
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    listed,
    new_game,
    pid,
    place,
    refusal,
    roll,
    sq,
)

ZONES = {
    "NW": ["0,0", "0,1", "0,2", "0,3", "1,0", "1,1", "1,2", "1,3"],
    "NE": ["0,7", "0,8", "0,9", "0,10", "1,7", "1,8", "1,9", "1,10"],
    "SE": ["10,7", "10,8", "10,9", "10,10", "9,7", "9,8", "9,9", "9,10"],
    "SW": ["10,0", "10,1", "10,2", "10,3", "9,0", "9,1", "9,2", "9,3"],
}


def refused_options(**options: Any) -> tuple[str, str | None]:
    with pytest.raises(InvalidOptions) as refused:
        new_game(**options)
    return refused.value.message, refused.value.ruling


def test_K_R22_each_mana_table_entry_is_between_0_and_6() -> None:
    assert new_game(chapter=2, mana_table=(6, 0, 0, 0)).options.mana_table == (6, 0, 0, 0)
    for table in ((7, 2, 1, 0), (3, 2, 1, -1)):
        assert refused_options(chapter=2, mana_table=table) == (
            "Each mana_table entry must be between 0 and 6.",
            "K-R22",
        )


def test_every_corner_needs_its_own_colour() -> None:
    assert refused_options(colours=("blue", "blue", "green", "red")) == (
        "Each corner needs a different colour.",
        None,
    )


def test_K_R26_each_warband_its_own_weapon_unless_all_four() -> None:
    same = ("spear", "spear", "whip", "hammer")
    assert refused_options(chapter=3, weapons=same) == (
        "Each warband needs a different Titan Weapon.",
        "K-R26",
    )
    shared = new_game(chapter=3, weapons=same, titan_weapons="all_four")
    assert [band.weapon for band in shared.warbands] == list(same)
    chosen = ("hammer", "whip", "spear", "sword")
    assert [band.weapon for band in new_game(chapter=3, weapons=chosen).warbands] == list(chosen)
    assert [band.weapon for band in new_game(chapter=2, weapons=chosen).warbands] == [None] * 4


def test_K_R24_the_supply_holds_20_mana_from_chapter_two() -> None:
    assert [band.supply for band in new_game(chapter=2).warbands] == [20] * 4
    assert [band.supply for band in new_game(chapter=1).warbands] == [0] * 4


def test_K_R21_every_player_controls_a_warband_and_a_pair_is_allied() -> None:
    assert [band.player for band in new_game(4).warbands] == [0, 1, 2, 3]
    assert refused_options(controllers=(0, 1, 2, 2)) == (
        "Every player must control at least one warband.",
        "K-R21",
    )
    with pytest.raises(InvalidOptions, match="Every player must control"):
        new_game(2, controllers=(0, 1, 0, 2))  # a third player in a game of two
    assert refused_options(players=2, controllers=(0, 1, 1, 0)) == (
        "A player's two warbands must be a diagonal (allied) pair.",
        "K-R21",
    )
    custom = new_game(2, controllers=(1, 0, 1, 0))
    assert [band.player for band in custom.warbands] == [1, 0, 1, 0]


def test_K_R38_the_first_corner_is_the_first_warband() -> None:
    assert new_game().first == NW
    assert new_game(first_corner="NE").first == NE
    assert new_game(first_corner="SW").first == SW


def test_K_R02_a_custom_start_zone_layout_is_checked_square_by_square() -> None:
    state = new_game(start_zone_layout=ZONES)
    assert state.warbands[SE].zone == tuple(sq(c) for c in ZONES["SE"])
    assert new_game().warbands[SW].zone == DEFAULT_START_ZONES[SW]
    off = dict(ZONES, NE=[*ZONES["NE"][:7], "0,11"])
    assert refused_options(start_zone_layout=off) == (
        "Start square '0,11' of NE is off the board.",
        None,
    )
    seven = dict(ZONES, SE=[*ZONES["SE"][:7], "10,7"])
    assert refused_options(start_zone_layout=seven) == (
        "The SE start zone needs 8 different squares.",
        "K-R02",
    )
    shared = dict(ZONES, SW=[*ZONES["SW"][:7], "0,0"])
    assert refused_options(start_zone_layout=shared) == (
        "Two start zones share a square.",
        "K-R02",
    )
    citadel = dict(ZONES, NW=[*ZONES["NW"][:7], "5,5"])
    assert refused_options(start_zone_layout=citadel) == (
        "A start zone cannot include the Citadel.",
        "K-R02",
    )


def test_K_R02_a_swap_takes_two_miniatures_of_one_warband() -> None:
    state = new_game()
    colossus, guardian = state.minis[pid(NW, "C")], state.minis[pid(NW, "G")]
    a, b = f"{colossus // 11},{colossus % 11}", f"{guardian // 11},{guardian % 11}"
    for x, y in ((a, a), (a, "5,5"), ("5,5", a)):
        assert refusal(state, {"type": "swap", "a": x, "b": y}) == (
            "Swap two different squares that both hold a miniature.",
            "K-R02",
        )
    for x, y in ((a, "0,11"), ("11,0", a)):
        bad = "0,11" if x == a else "11,0"
        assert refusal(state, {"type": "swap", "a": x, "b": y}) == (
            f"Square '{bad}' is not a square of the 11×11 board.",
            "K-R01",
        )
    theirs = state.minis[pid(NE, "C")]
    assert refusal(state, {"type": "swap", "a": a, "b": f"{theirs // 11},{theirs % 11}"}) == (
        "Only miniatures of one warband can swap, inside its start zone.",
        "K-R02",
    )
    swapped, _ = act(state, {"type": "swap", "a": a, "b": b})
    assert swapped.minis[pid(NW, "C")] == guardian and swapped.minis[pid(NW, "G")] == colossus
    assert swapped.phase == "placement"


def test_K_R02_the_swaps_listed_follow_the_colossus_to_any_square_of_its_zone() -> None:
    """Whichever square of the zone the Colossus (the first miniature of all) stands on,
    it may swap with each of the seven others, as every other pair of classes may."""
    state = new_game()
    zone = state.warbands[NW].zone
    at = cell(state.minis[pid(NW, "C")])
    for here in map(cell, zone):
        placed = state if here == at else act(state, {"type": "swap", "a": at, "b": here})[0]
        swaps = [s for s in listed(placed, "swap") if {s["a"], s["b"]} <= {*map(cell, zone)}]
        with_colossus = [s for s in swaps if here in (s["a"], s["b"])]
        assert len(with_colossus) == 7, here
        assert len(swaps) == 7 + 2 * 5  # Colossus-other, and each Guardian with a Warrior


def in_quake(value: int, **options: Any) -> KolossusState:
    return roll(act(new_game(**options), {"type": "ready"})[0], value)


def quake(region: str, direction: str = "east", **extra: Any) -> dict[str, Any]:
    return {"type": "quake_move", "region": region, "direction": direction, **extra}


def test_K_R03_K_R06_only_a_central_region_not_moved_yet() -> None:
    state = in_quake(2)
    assert refusal(state, quake("row2")) == (
        "Row 2 is not a central region (rows and columns 3-7).",
        "K-R03",
    )
    moved = roll(act(state, quake("col4", "south"))[0], 1)
    assert moved.quake_moved == ("col4",)
    assert refusal(moved, quake("col4", "north")) == (
        "Column 4 already moved in this Great Quake.",
        "K-R06",
    )
    crossing = act(moved, quake("row4"))[0]  # a row that crosses it may move
    assert crossing.quake_moved == ("col4", "row4")


def test_K_R05_the_region_moves_exactly_the_roll_or_up_to_it() -> None:
    state = in_quake(2)
    assert refusal(state, quake("row3", distance=1)) == (
        "The region moves exactly 2 squares.",
        "K-R05",
    )
    exact = act(state, quake("row3", distance=2))[0]
    assert exact.terrain == act(state, quake("row3"))[0].terrain
    loose = in_quake(2, quake_distance="up_to_roll")
    for distance in (0, 3):
        assert refusal(loose, quake("row3", distance=distance)) == (
            "The region moves 1 to 2 squares.",
            "K-R05",
        )
    one = act(loose, quake("row3", distance=1))[0]
    assert state.terrain[3] == "..WHHHHHW.."
    assert one.terrain[3] == "...WHHHHHW."  # moved by one square
    assert in_quake(1).roll == (1,)
    single = in_quake(1, quake_distance="up_to_roll")
    assert refusal(single, quake("row3", distance=2)) == (
        "The region moves 1 to 1 square.",
        "K-R05",
    )


def test_K_R20_a_great_quake_that_wipes_out_a_warband_ends_the_game_there() -> None:
    """Firbolg's last miniature stands on (5, 10): row 5 moves east and it falls. The
    game ends on that move; no turn and no Quake follow."""
    state = place(in_quake(1), {p: None for p in range(pid(SW, "C"), pid(SW, "C") + 8)})
    state = place(state, {pid(SW, "C"): "5,10"})
    over, events = act(state, quake("row5"))
    assert over.phase == "over" and over.result is not None and over.result.alliance == 0
    assert [e.text for e in events] == [
        "Great Quake: Tua'tha moves row 5 east by 1 square.",
        "Krell and Firbolg lost a warband: Tua'tha and Ishtari win (K-R20).",
    ]
    assert list(RULES.legal_actions(over)) == []


def test_K_R41_the_quake_refuses_to_push_the_citadel_off() -> None:
    state = in_quake(4)
    rows = [list(row) for row in state.terrain]
    rows[5][5], rows[5][7] = ".", "C"
    near_edge = state.model_copy(update={"terrain": tuple("".join(r) for r in rows)})
    assert refusal(near_edge, quake("row5")) == (
        "That would push the Citadel of Time off the board; choose another region or direction.",
        "K-R41",
    )


def test_a_new_game_starts_the_placement_with_its_players_seed_and_arrangement() -> None:
    state = new_game(players=2, seed=7)
    assert state.players == ("Ann", "Bob") and state.rng.seed == 7 and state.rng.counter == 0
    assert (state.phase, state.round, state.turn, state.crystals, state.crystal_supply) == (
        "placement",
        0,
        0,
        1,
        11,
    )
    for wb, band in enumerate(state.warbands):
        assert set(state.minis[wb * 8 : wb * 8 + 8]) == set(band.zone)
        assert band.corner == ("NW", "NE", "SE", "SW")[wb]
    assert state.minis[pid(NW, "C")] == sq("0,0")
    with pytest.raises(InvalidOptions) as refused:
        new_game(players=1)
    assert refused.value.message == "Kolossus – The Citadel of Time is for 2–4 players, not 1."
