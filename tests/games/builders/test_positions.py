"""A loaded Builders position is checked against the box (135 Parts, 10 Runes each plus
the stockpile's flows, BC-R13), the table (2–4 seats, 3 Blueprint slots, at most 10
Colossi, BC-R01) and its Blueprint table (BC-R15): each broken count is refused with
its own words, and the edge just inside each limit loads."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import InvalidPosition
from companion.games.builders import RULES
from tests.helpers.builders import NAMES, TABLE, new_game, with_builds, with_runes

Dump = dict[str, Any]


def dump(players: int = 3, **options: Any) -> Dump:
    return RULES.dump_position(new_game(players, **options))


def refused(data: Dump) -> str:
    with pytest.raises(InvalidPosition) as err:
        RULES.load_position(data)
    return err.value.message


def loads(data: Dump) -> None:
    assert RULES.dump_position(RULES.load_position(data)) == data


def test_a_position_loads_for_two_and_for_four_players_and_not_five() -> None:
    loads(dump(2))
    loads(dump(4))
    five = dump(4)
    five["players"] = [*NAMES, "Eve"]
    for field in ("runes", "hands", "zero_checks", "from_stockpile", "sealed"):
        five[field] = [*five[field], five[field][0]]
    five["deck"] -= 10
    assert refused(five) == "Builders of the Colossus is for 2–4 players, not 5."


@pytest.mark.parametrize(("field", "at"), [("runes", 0), ("hands", 1), ("deck", None)])
def test_BC_R13_no_count_of_runes_cards_or_deck_is_negative(field: str, at: int | None) -> None:
    data = dump()
    if at is None:
        data["hands"][0] += data["deck"] + 1  # still 135 Parts in all
        data["deck"] = -1
    else:
        data[field][at] = -1
    assert refused(data) == "Runes, hands and the deck cannot be negative."


def test_BC_R13_zero_runes_an_empty_hand_and_an_empty_deck_load() -> None:
    data = RULES.dump_position(with_runes(new_game(3), 0, 10, 20))
    data["hands"] = [0, 10, 125]
    data["deck"] = 0
    loads(data)


@pytest.mark.parametrize(("change", "held"), [(1, "136 Parts cards"), (-1, "134 Parts cards")])
def test_hands_and_deck_hold_the_box_s_135_parts(change: int, held: str) -> None:
    data = dump()
    data["deck"] += change
    assert refused(data) == f"Hands and deck hold {held}, not 135."


def test_BC_R13_runes_add_up_with_the_stockpile_flows_and_the_corrections() -> None:
    data = RULES.dump_position(with_runes(new_game(3), 4, 15, 10))  # 6 sealed, 5 received
    assert (data["from_stockpile"], data["sealed"]) == ([0, 5, 0], [6, 0, 0])
    loads(data)
    data["runes"] = [4, 15, 13]  # 3 more Runes …
    assert refused(data) == "The Runes do not add up with the stockpile flows."
    data["rune_corrections"] = [0, 0, 3]  # … that a manual correction (0.2.1) brought
    loads(data)
    data["rune_corrections"] = [0, 0, -3]
    assert refused(data) == "The Runes do not add up with the stockpile flows."
    data["runes"] = [4, 15, 7]
    loads(data)


def test_rune_corrections_have_one_entry_per_player_or_none() -> None:
    data = dump()
    data["rune_corrections"] = [0, 0]
    assert refused(data) == "rune_corrections needs one entry per player."
    data["rune_corrections"] = [0, 0, 0]
    loads(data)


@pytest.mark.parametrize(("current", "ok"), [(-1, False), (0, True), (2, True), (3, False)])
def test_the_current_seat_is_one_of_the_players(current: int, ok: bool) -> None:
    data = dump(3)
    data["current"] = current
    if ok:
        loads(data)
    else:
        assert refused(data) == "The current seat or the Colossi counter is out of range."


def test_BC_R01_the_counter_holds_ten_colossi_and_no_more() -> None:
    ten = RULES.dump_position(with_builds(new_game(2), *[0, 1] * 5))
    loads(ten)
    eleven = RULES.dump_position(with_builds(new_game(2), *[0, 1] * 5, 0))
    assert refused(eleven) == "The current seat or the Colossi counter is out of range."


@pytest.mark.parametrize("slots", [[None, None], [None, None, None, None]])
def test_BC_R15_there_are_three_blueprint_slots(slots: list[int | None]) -> None:
    data = dump()
    data["face_up"] = slots
    assert refused(data) == "There are exactly 3 Blueprint slots."


def test_BC_R15_face_up_and_deck_blueprints_are_cards_of_the_table() -> None:
    data = dump(blueprints=TABLE)
    size = len(data["blueprint_table"])
    data["face_up"] = [0, None, size - 1]
    data["blueprint_deck"] = [size - 1, 0]
    loads(data)
    for field, where in (("face_up", 1), ("blueprint_deck", 0)):
        for index in (-1, size):
            bad = {**data, field: list(data[field])}
            bad[field][where] = index
            assert refused(bad) == "A Blueprint refers to a card that is not in the table."


def test_BC_R15_without_a_table_a_face_up_index_is_refused() -> None:
    data = dump()
    data["face_up"] = [0, None, None]
    assert refused(data) == "A Blueprint refers to a card that is not in the table."
