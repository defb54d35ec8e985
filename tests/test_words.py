"""Counts as players read them (companion.words): "1 card", "0 cards", "3 Colossi".

The games spell every count with :func:`companion.words.count`; a source scan keeps
inline plurals (``card{'s' if n != 1 else ''}``, ``card(s)``, a private helper) out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import words
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from tests.helpers.island import island

REPO = Path(__file__).resolve().parent.parent

#: What a count spelled by hand looks like: a plural chosen inline, a hedged "(s)"
#: after a number, a game's own plural helper.
INLINE_PLURAL = re.compile(
    r"""\{\s*['"]s['"]\s+if\b"""  # card{'s' if n != 1 else ''}
    r"""|['"]['"]\s+if\s+[^}]*else\s+['"]s['"]"""  # card{'' if n == 1 else 's'}
    r"""|\}\s+(?:[A-Za-z]+\s)?[A-Za-z]+\(s\)"""  # {n} card(s), {n} Parts card(s)
    r"""|def\s+_?plural\b"""
)


@pytest.mark.parametrize(
    ("n", "word", "plural", "text"),
    [
        (1, "card", None, "1 card"),
        (0, "card", None, "0 cards"),
        (2, "card", None, "2 cards"),
        (-1, "card", None, "-1 card"),
        (-3, "card", None, "-3 cards"),
        (2, "Parts card", None, "2 Parts cards"),
        (1, "die", "dice", "1 die"),
        (5, "die", "dice", "5 dice"),
        (3, "Colossus", "Colossi", "3 Colossi"),
        (0, "Accessory", "Accessories", "0 Accessories"),
        (1, "Accessory", "Accessories", "1 Accessory"),
    ],
)
def test_count_is_singular_only_for_one(n: int, word: str, plural: str | None, text: str) -> None:
    assert words.count(n, word, plural) == text


@given(n=st.integers(-1000, 1000), word=st.from_regex(r"[A-Za-z][a-z]{0,11}", fullmatch=True))
def test_count_is_the_number_then_the_noun(n: int, word: str) -> None:
    spelled = words.count(n, word)
    assert spelled == (f"{n} {word}" if n in (1, -1) else f"{n} {word}s")
    assert words.count(n, word, "Irregular") == (
        f"{n} {word}" if n in (1, -1) else f"{n} Irregular"
    )


def test_no_game_spells_a_plural_by_hand() -> None:
    """Every count in the games goes through words.count (the journal keeps its own
    messages, companion/journal/, out of this)."""
    found = []
    for path in sorted((REPO / "companion").rglob("*.py")):
        if "journal" in path.relative_to(REPO).parts or path.name == "words.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if INLINE_PLURAL.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert found == [], "spell these counts with companion.words.count"


def test_the_scan_finds_each_way_of_spelling_a_plural_by_hand() -> None:
    for line in (
        """f"{n} card{'s' if n != 1 else ''}\"""",
        """f"{n} card{'' if n == 1 else 's'}\"""",
        """f"{n} Acolyte(s) died\"""",
        """f"{n} Parts card(s)\"""",
        "def _plural(count: int, word: str) -> str:",
    ):
        assert INLINE_PLURAL.search(line), line
    assert not INLINE_PLURAL.search('"Pick the winner(s) among the tied players."')
    assert not INLINE_PLURAL.search('f"{name} places the new Lair(s)."')


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_one_movement_left_is_said_in_the_singular(game: str) -> None:
    rules, noun = (bm.RULES, "Movement") if game == "beast_master" else (ca.RULES, "Action")
    state = island(game).model_copy(update={"movements_left": 1})
    assert f"1 {noun} left" in rules.status(state)
    assert f"2 {noun}s left" in rules.status(state.model_copy(update={"movements_left": 2}))


@pytest.mark.parametrize(
    ("items", "text"),
    [
        ((), ""),
        (("Ann",), "Ann"),
        (("Ann", "Bob"), "Ann and Bob"),
        (("Ann", "Bob", "Cleo"), "Ann, Bob and Cleo"),
    ],
)
def test_and_list_joins_as_a_sentence_does(items: tuple[str, ...], text: str) -> None:
    assert words.and_list(items) == text
