"""The island content file (companion/games/island/content.py) and the state's lookups
(companion/games/island/model.py): what a table's file may list, the exact refusal of a
file a player must fix, and finding a card, an Age card or an Environment by its key."""

from __future__ import annotations

import pytest

from companion.errors import InvalidContent
from companion.games.island import beast_master as bm
from companion.games.island.content import Content, parse_content

FILE = {
    "cards": [
        {"id": "haste", "name": "Haste", "kind": "action"},
        {"id": "omen", "kind": "perk", "effects": [{"type": "gold", "amount": 1}]},
    ],
    "ages": [
        {"id": "dawn", "name": "Dawn", "age": "I", "beasts": ["Wyrm"], "rounds": 4},
        {"id": "dusk", "beasts": ["Roc", "Wyrm"], "water": ["r1c1"]},
    ],
    "environments": [{"name": "Volcano"}, {"name": "Spring"}],
}


def test_ca_r14_ca_r19_a_content_file_and_its_lookups() -> None:
    """CA-R14 card kinds as data, CA-R19 Age sub-decks, CA-R04 an Age card's rounds:
    each entry is found by its key, and nothing else is."""
    content = parse_content(FILE)
    haste = content.card("haste")
    assert haste is not None and (haste.id, haste.name, haste.kind) == ("haste", "Haste", "action")
    omen = content.card("omen")
    assert omen is not None and omen.id == "omen" and len(omen.effects) == 1
    assert content.card("Haste") is None and content.card("rune") is None
    dawn, dusk = content.age("dawn"), content.age("dusk")
    assert dawn is not None and (dawn.name, dawn.age, dawn.beasts, dawn.rounds) == (
        "Dawn",
        "I",
        ("Wyrm",),
        4,
    )
    assert dusk is not None and (dusk.beasts, dusk.water, dusk.rounds) == (
        ("Roc", "Wyrm"),
        ("r1c1",),
        None,
    )
    assert content.age("noon") is None
    volcano, spring = content.environment("Volcano"), content.environment("Spring")
    assert volcano is not None and volcano.name == "Volcano"
    assert spring is not None and spring.name == "Spring"
    assert content.environment("volcano") is None
    assert Content().card("haste") is None
    assert parse_content('{"environments": [{"name": "Spring"}]}').environment("Spring")
    assert parse_content(b"{}") == Content()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"cards": [{"id": "b", "kind": "action"}, {"id": "a", "kind": "perk"}] * 2},
            "Not a usable content file: (top level): Value error, card 'a' is listed twice",
        ),
        (
            {"ages": [{"id": "dawn", "beasts": ["W"]}, {"id": "dawn", "beasts": ["R"]}]},
            "Not a usable content file: (top level): Value error, Age card 'dawn' is listed twice",
        ),
        (
            {"environments": [{"name": "Spring"}, {"name": "Spring"}]},
            "Not a usable content file: (top level): Value error, "
            "Environment 'Spring' is listed twice",
        ),
    ],
)
def test_ca_r14_a_key_listed_twice_is_refused_by_name(data: object, words: str) -> None:
    """A file naming one card, Age card or Environment twice is refused with the first
    such key in order, so the player knows which entry to fix."""
    with pytest.raises(InvalidContent) as refused:
        parse_content(data)  # type: ignore[arg-type]
    assert str(refused.value) == words


def test_the_same_key_in_two_lists_is_allowed() -> None:
    content = parse_content(
        {
            "cards": [{"id": "x", "kind": "action"}],
            "ages": [{"id": "x", "beasts": ["W"]}],
            "environments": [{"name": "x"}],
        }
    )
    assert content.card("x") is not None and content.age("x") is not None
    assert content.environment("x") is not None


def test_bm_r01_a_space_and_the_beasts_spaces_of_the_state() -> None:
    """BM-R01: a space's contents are found by its board ID; the Beasts' spaces as a set."""
    start = bm.RULES.setup(["Ann", "Bob"], bm.BeastMasterOptions(), 1)
    index = start.board.graph.index
    spaces = list(start.spaces)
    spaces[index["r1c2"]] = spaces[index["r1c2"]].model_copy(update={"cubes": 3})
    st = start.model_copy(update={"spaces": tuple(spaces)})
    assert st.space("r1c2").cubes == 3
    assert st.space("r1c1").cubes == 0
    assert st.space("r5c5") == st.spaces[-1]
    assert start.beast_spaces() == {"r3c3"}
    assert start.model_copy(update={"beasts": ()}).beast_spaces() == set()
