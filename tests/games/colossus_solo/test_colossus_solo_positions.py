"""What a loaded solo Colossus position or a card table is refused for, word for word:
each invariant of ``position_problems`` alone, with its exact sentence (CS-R01, CS-R05,
CS-R12), and each problem of a card table with the card it names (CS-R12)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import InvalidContent, InvalidPosition
from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.content import (
    CardTable,
    FinalBlowProfile,
    card_table_problems,
    parse_card_table,
)
from companion.games.colossus_solo.model import ColossusSoloState, FinalBlowValues, Stats
from companion.games.colossus_solo.rules import position_problems
from tests.helpers.colossus_solo import card, new_game, table

Change = Callable[[ColossusSoloState], dict[str, Any]]


def tabled() -> ColossusSoloState:
    """Round 1 with a card table: a virtual deck of 11 cards, the current one on top."""
    return new_game(card_table=table())


def broken(state: ColossusSoloState, **update: Any) -> ColossusSoloState:
    return state.model_copy(update=update)


#: One broken invariant each, and the one sentence it gives.
PLAIN: list[tuple[str, dict[str, Any], list[str]]] = [
    ("weakness below 1", {"weakness": 0}, ["Weakness 0 is outside 1..8"]),
    ("grip above 8", {"grip": 9}, ["Grip 9 is outside 1..8"]),
    (
        "an advanced card counted twice",
        {"advanced_added": 1, "advanced_deck": 5},
        ["the Action cards add up to 26, not 27"],
    ),
    (
        "an advanced card lost",
        {"advanced_deck": 5},
        ["Advanced deck plus Advanced cards added is not 6"],
    ),
    ("12 colossus cards", {"colossus_left": 12}, ["12 Colossus cards left (the game has 11)"]),
    ("two players", {"players": ("A", "B")}, ["Colossus is played by exactly 1 player"]),
    ("over without a result", {"phase": "over"}, ["the phase and the result disagree"]),
    ("a result while playing", {"result": "fell"}, ["the phase and the result disagree"]),
    ("stats without a card", {"phase": "stats"}, ["phase stats needs a current Colossus card"]),
    (
        "power without a card",
        {"phase": "power", "stats": Stats()},
        ["phase power needs a current Colossus card"],
    ),
    (
        "power card without a card",
        {"phase": "power_card", "stats": Stats()},
        ["phase power_card needs a current Colossus card"],
    ),
    (
        "power without stats",
        {"phase": "power", "current_card": card()},
        ["phase power needs the round's stats"],
    ),
    (
        "power card without stats",
        {"phase": "power_card", "current_card": card()},
        ["phase power_card needs the round's stats"],
    ),
    ("final blow without values", {"phase": "final_blow"}, ["the Final Blow values are missing"]),
]


@pytest.mark.parametrize(
    ("update", "problems"), [row[1:] for row in PLAIN], ids=[row[0] for row in PLAIN]
)
def test_CS_R01_each_broken_invariant_of_a_position_says_what(
    update: dict[str, Any], problems: list[str]
) -> None:
    assert position_problems(broken(new_game(), **update)) == problems


def test_CS_R05_a_final_blow_with_its_values_and_a_stats_phase_with_a_card_are_fine() -> None:
    values = FinalBlowValues(n_cards=3, grip_req=2, attack_req=3)
    assert position_problems(broken(new_game(), phase="final_blow", final_blow=values)) == []
    assert position_problems(broken(new_game(), phase="destroy")) == []  # no card needed


RULES_TABLE = table()

TABLED: list[tuple[str, Change, list[str]]] = [
    (
        "a deck shorter than the cards left",
        lambda s: {"colossus_order": s.colossus_order[1:]},
        ["the virtual Colossus deck does not match the cards left"],
    ),
    (
        "a deck naming card 12",
        lambda s: {"colossus_order": (11, *s.colossus_order[1:])},
        ["the virtual Colossus deck names an unknown card"],
    ),
    (
        "a current card below the top",
        lambda s: {"current_card": RULES_TABLE.colossus[s.colossus_order[1]]},
        ["the current Colossus card is not the top of the virtual deck"],
    ),
    (
        "no final blow card",
        lambda s: {"final_blow_card": None},
        ["the Final Blow card is not chosen"],
    ),
    (
        "a fourth final blow card",
        lambda s: {"final_blow_card": 3},
        ["the Final Blow card is not chosen"],
    ),
]


@pytest.mark.parametrize(
    ("change", "problems"), [row[1:] for row in TABLED], ids=[row[0] for row in TABLED]
)
def test_CS_R12_each_broken_virtual_deck_says_what(change: Change, problems: list[str]) -> None:
    state = tabled()
    assert position_problems(state) == []
    assert position_problems(broken(state, **change(state))) == problems


def test_CS_R12_the_last_final_blow_card_and_an_empty_virtual_deck_are_fine() -> None:
    state = tabled()
    assert position_problems(broken(state, final_blow_card=2)) == []
    done = broken(state, colossus_left=0, colossus_order=(), phase="final_blow_values")
    assert position_problems(done) == []


def test_CS_R01_a_loaded_position_is_refused_with_every_problem_joined() -> None:
    state = broken(new_game(), weakness=0, grip=9)
    with pytest.raises(InvalidPosition) as err:
        RULES.check_position(state)
    assert err.value.message == (
        "Not a consistent Colossus position: Weakness 0 is outside 1..8; Grip 9 is outside 1..8"
    )
    RULES.check_position(new_game())  # a consistent one passes


# --- card tables (CS-R12) ---------------------------------------------------------


def profile(name: str = "", **values: Any) -> FinalBlowProfile:
    fb = {"n_cards": (2,) * 8, "grip_req": (1,) * 8, "attack_req": 5} | values
    return FinalBlowProfile(name=name, **fb)


def with_final_blow(*profiles: FinalBlowProfile) -> CardTable:
    return CardTable(colossus=RULES_TABLE.colossus, final_blow=profiles)


TABLE_PROBLEMS: list[tuple[str, CardTable, list[str]]] = [
    (
        "10 colossus cards and 2 final blow cards",
        CardTable(colossus=RULES_TABLE.colossus[:10], final_blow=RULES_TABLE.final_blow[:2]),
        [
            "it lists 10 Colossus cards; the game has 11",
            "it lists 2 Final Blow cards; the game has 3",
        ],
    ),
    (
        "two colossus cards of one name",
        CardTable(
            colossus=(card(name="Og"), card(name="Og"), *RULES_TABLE.colossus[2:]),
            final_blow=RULES_TABLE.final_blow,
        ),
        ["two Colossus cards are called 'Og'"],
    ),
    (
        "unnamed cards are never duplicates, two named final blow cards are",
        CardTable(
            colossus=(card(), card(), *RULES_TABLE.colossus[2:]),
            final_blow=(profile("A"), profile("A"), profile()),
        ),
        ["two Final Blow cards are called 'A'"],
    ),
    (
        "a destroy icon on a blank line, named and unnamed",
        CardTable(
            colossus=(
                card(climb=None, icons=("climb",)),
                card(bonus=None, icons=("bonus",), name="Knee"),
                *RULES_TABLE.colossus[2:],
            ),
            final_blow=RULES_TABLE.final_blow,
        ),
        [
            "Colossus card 1: the Climb line has a destroy icon but no value",
            "Colossus card 2 (Knee): the Bonus line has a destroy icon but no value",
        ],
    ),
    (
        "short rows of numbers",
        with_final_blow(profile("A", n_cards=(2,) * 7), profile(grip_req=(1,) * 9), profile()),
        [
            "Final Blow card 1 (A): n_cards (one per Weakness level 1..8) has 7 numbers, not 8",
            "Final Blow card 2: grip_req (one per Grip level 1..8) has 9 numbers, not 8",
        ],
    ),
    (
        "numbers out of range, the first bad one named",
        with_final_blow(
            profile(n_cards=(2, 2, 2, 33, 40, 2, 2, 2)),
            profile(grip_req=(1, 1, 1, 1, 1, 1, 31, -1)),
            profile("C", attack_req=31),
        ),
        [
            "Final Blow card 1: n_cards (one per Weakness level 1..8) has 33, outside 0..32",
            "Final Blow card 2: grip_req (one per Grip level 1..8) has 31, outside 0..30",
            "Final Blow card 3 (C): attack_req 31 is outside 0..30",
        ],
    ),
    (
        "a negative attack",
        with_final_blow(profile(), profile(), profile(attack_req=-1)),
        ["Final Blow card 3: attack_req -1 is outside 0..30"],
    ),
]


@pytest.mark.parametrize(
    ("card_table", "problems"),
    [row[1:] for row in TABLE_PROBLEMS],
    ids=[row[0] for row in TABLE_PROBLEMS],
)
def test_CS_R12_each_card_table_problem_names_its_card(
    card_table: CardTable, problems: list[str]
) -> None:
    assert card_table_problems(card_table) == problems


def test_CS_R12_the_bounds_of_a_card_tables_numbers_are_accepted() -> None:
    edges = with_final_blow(
        profile(n_cards=(0, 32, 0, 32, 0, 32, 0, 32)),
        profile(grip_req=(0, 30, 0, 30, 0, 30, 0, 30), attack_req=0),
        profile(attack_req=30),
    )
    assert card_table_problems(edges) == []


def test_CS_R12_an_unusable_card_table_is_refused_with_its_problems_joined() -> None:
    bad = with_final_blow(profile(attack_req=31), profile(attack_req=-1), profile())
    with pytest.raises(InvalidContent) as err:
        parse_card_table(bad.model_dump(mode="json"))
    assert (err.value.message, err.value.ruling) == (
        "Unusable Colossus card table: Final Blow card 1: attack_req 31 is outside 0..30; "
        "Final Blow card 2: attack_req -1 is outside 0..30.",
        "CS-R12",
    )


def test_CS_R12_a_card_table_that_is_not_one_is_refused_naming_the_ruling() -> None:
    with pytest.raises(InvalidContent) as err:
        parse_card_table('{"colossus": []}')
    assert err.value.ruling == "CS-R12"
    assert err.value.message.startswith("Not a Colossus card table: ")
    assert parse_card_table(RULES_TABLE) is RULES_TABLE  # a table already made is checked only
