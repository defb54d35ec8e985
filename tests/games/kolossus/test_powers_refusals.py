"""The Titan Powers of Chapter 3 refused in their exact words, and the mana they move:
Initiative (K-R33, K-R36), the Earthquake (K-R34) and Rebirth (K-R35)."""

from __future__ import annotations

from companion.events import TableChanges
from companion.games.kolossus.content import cell
from companion.games.kolossus.model import KolossusState
from companion.games.kolossus.powers import beaten_piece
from tests.games.kolossus.helpers import (
    NE,
    NW,
    act,
    in_turn,
    listed,
    new_game,
    pid,
    place,
    ready_to_move,
    refusal,
    with_band,
)

INITIATIVE = {"type": "initiative"}


def with_pool(state: KolossusState, pool: int, income: int = 0) -> KolossusState:
    """NW's pool and this turn's income, the rest of its 20 mana in the supply."""
    return with_band(state, NW, pool=pool, income=income, supply=20 - pool - income)


def test_K_R33_initiative_right_after_the_destiny_roll_in_chapter_three() -> None:
    ready = with_pool(in_turn(new_game(chapter=3), NW, ap=2), 2, income=2)
    after, _ = act(ready, INITIATIVE)
    band = after.warbands[NW]
    assert (after.ap, after.initiatives) == (3, 1)
    assert (band.pool, band.income, band.supply) == (1, 1, 18)  # 20 - pool 1 - income 1
    once = ready.model_copy(
        update={"options": ready.options.model_copy(update={"initiative_once_per_turn": True})}
    )
    assert refusal(act(once, INITIATIVE)[0], INITIATIVE) == (
        "Initiative only once per turn (house rule).",
        "K-R33",
    )
    assert act(after, INITIATIVE)[0].ap == 4  # repeatable by default
    assert refusal(ready.model_copy(update={"initiative_open": False}), INITIATIVE) == (
        "Use Initiative right after the Die of Destiny.",
        "K-R33",
    )
    assert refusal(ready.model_copy(update={"ap": 4}), INITIATIVE) == (
        "The Die of Destiny cannot go above 4.",
        "K-R33",
    )
    assert refusal(with_pool(ready, 0, income=2), INITIATIVE) == (
        "Initiative costs 1 mana from your pool; it is empty.",
        "K-R36",
    )
    chapter_two = with_pool(in_turn(new_game(chapter=2), NW, ap=2), 2)
    for state in (chapter_two, ready.model_copy(update={"phase": "allocate"})):
        assert refusal(state, INITIATIVE) == (
            "Initiative is a Chapter 3 Titan Power used in your turn.",
            "K-R33",
        )


QUAKE = {"type": "earthquake", "region": "row0", "direction": "east"}


def test_K_R34_the_earthquake_costs_three_pool_mana_in_chapter_three() -> None:
    state = with_pool(in_turn(new_game(chapter=3), NW), 3)
    shaken, events = act(state, QUAKE)
    assert (shaken.warbands[NW].pool, shaken.warbands[NW].supply) == (0, 20)
    assert shaken.initiative_open is False
    assert events[0].text == "Earthquake: Tua'tha moves row 0 east by 1 square."
    assert shaken.minis[pid(NW, "C")] == state.minis[pid(NW, "C")] + 1
    assert refusal(with_pool(state, 2), QUAKE) == (
        "The Earthquake costs 3 pool mana; you have 2.",
        "K-R34",
    )
    chapter_two = with_pool(in_turn(new_game(chapter=2), NW), 3)
    assert refusal(chapter_two, QUAKE) == ("Titan Powers are a Chapter 3 rule.", "K-R34")
    rows = [list(row) for row in state.terrain]
    rows[5][5], rows[5][10] = ".", "C"
    edge = state.model_copy(update={"terrain": tuple("".join(r) for r in rows)})
    assert refusal(edge, {**QUAKE, "region": "row5"}) == (
        "You must not move the Citadel of Time off the board.",
        "K-R34",
    )
    moving = ready_to_move(state, NW, "W", 2)
    assert refusal(moving, QUAKE)[0].startswith("The Earthquake is not possible now (")
    assert refusal(state, {**QUAKE, "region": "row11"}) == (
        "'row11' is not a region (row0..row10, col0..col10).",
        "K-R03",
    )
    assert refusal(state, {**QUAKE, "direction": "north"}) == (
        "A row moves east or west, a column north or south.",
        "K-R04",
    )


def test_K_R35_rebirth_pays_its_class_cost_onto_a_free_start_square() -> None:
    start = new_game(chapter=3)
    home = start.minis[pid(NW, "G")]
    free = f"{home // 11},{home % 11}"
    state = place(start, {pid(NW, "G"): None, pid(NW, "W2"): None})
    state = with_pool(in_turn(state, NW, ap=2), 3)
    reborn, events = act(state, {"type": "rebirth", "cls": "G", "to": free})
    assert reborn.minis[pid(NW, "G")] == home and reborn.initiative_open is False
    assert (reborn.warbands[NW].pool, reborn.warbands[NW].supply) == (1, 19)
    assert isinstance(events[0], TableChanges)
    assert events[0].text == f"Place Tua'tha's Guardian on ({home // 11}, {home % 11}) (reborn)."
    assert [(c.step, c.cell, c.instruction) for c in events[0].changes] == [
        (1, free, events[0].text[:-1])
    ]
    assert refusal(with_pool(state, 1), {"type": "rebirth", "cls": "G", "to": free}) == (
        "Rebirth of a Guardian costs 2 pool mana; you have 1.",
        "K-R35",
    )
    # The refusal once read "None of your Colossuss is beaten.".
    assert refusal(state, {"type": "rebirth", "cls": "C", "to": free}) == (
        "No Colossus of yours is beaten.",
        "K-R35",
    )
    unbeaten = with_pool(in_turn(start, NW, ap=2), 3)
    assert refusal(unbeaten, {"type": "rebirth", "cls": "W", "to": free}) == (
        "No Warrior of yours is beaten.",
        "K-R35",
    )
    assert refusal(state, {"type": "rebirth", "cls": "G", "to": "0,11"}) == (
        "Rebirth square '0,11' is not a square of the 11×11 board.",
        "K-R01",
    )
    assert refusal(state, {"type": "rebirth", "cls": "G", "to": "5,5"}) == (
        "(5, 5) is not in your start zone.",
        "K-R35",
    )
    taken = start.minis[pid(NW, "C")]
    assert refusal(state, {"type": "rebirth", "cls": "G", "to": f"{taken // 11},{taken % 11}"}) == (
        f"({taken // 11}, {taken % 11}) is not free.",
        "K-R35",
    )
    chapter_two = with_pool(in_turn(place(new_game(chapter=2), {pid(NW, "G"): None}), NW), 3)
    assert refusal(chapter_two, {"type": "rebirth", "cls": "G", "to": free}) == (
        "Titan Powers are a Chapter 3 rule.",
        "K-R35",
    )


def test_K_R35_the_first_beaten_miniature_of_the_class_is_reborn() -> None:
    state = place(new_game(chapter=3), {pid(NW, "W3"): None, pid(NW, "W5"): None})
    assert beaten_piece(state, NW, "W") == pid(NW, "W3")
    assert beaten_piece(state, NW, "G") == -1
    assert beaten_piece(state, NE, "W") == -1
    enemy = place(state, {pid(NE, "C"): None})
    assert beaten_piece(enemy, NE, "C") == pid(NE, "C")


def test_K_R35_the_first_warbands_beaten_colossus_is_offered_its_rebirth() -> None:
    """The north-west Colossus is the first miniature of all: beaten, with 3 pool mana,
    its Rebirth is listed onto each free square of its start zone."""
    start = new_game(chapter=3)
    home = start.minis[pid(NW, "C")]
    state = with_pool(in_turn(place(start, {pid(NW, "C"): None}), NW, ap=2), 3)
    assert beaten_piece(state, NW, "C") == pid(NW, "C") == 0
    reborn = [a for a in listed(state, "rebirth") if a["cls"] == "C"]
    assert reborn == [{"type": "rebirth", "cls": "C", "to": cell(home)}]
    assert [a for a in listed(with_pool(state, 2), "rebirth") if a["cls"] == "C"] == []
