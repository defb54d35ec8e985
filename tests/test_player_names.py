"""Player names are compared and stored after Unicode normalisation and without
invisible characters (companion/rules.py: clean_player_name, check_players)."""

from __future__ import annotations

import pytest

from companion.errors import InvalidOptions
from companion.games import get_rules
from companion.rules import MAX_NAME_LENGTH, clean_player_name, looks_empty

ZWJ = "\u200d"
FAMILY = "\U0001f469\u200d\U0001f469\u200d\U0001f467"  # 👩‍👩‍👧


def check(*names: str) -> tuple[str, ...]:
    return get_rules("builders").check_players(list(names))


@pytest.mark.parametrize(
    "hidden",
    [ZWJ, "\u200b", "\u200c", "\u2060", "\ufeff", "\u2066", "\u00ad"],
)
def test_an_invisible_character_does_not_make_another_player(hidden: str) -> None:
    assert clean_player_name(f"An{hidden}n{hidden}") == "Ann"
    with pytest.raises(InvalidOptions, match="same name"):
        check("Ann", f"Ann{hidden}")


def test_names_are_compared_after_nfc() -> None:
    assert clean_player_name("Ame\u0301lie") == "Amélie"
    with pytest.raises(InvalidOptions, match="same name"):
        check("Amélie", "Ame\u0301lie")


@pytest.mark.parametrize(
    "name",
    [ZWJ * 5, "\u200b\u200c", "\u3164", "\u3164\u3164", "\u2800", "\u0301\u0301", "\u115f"],
)
def test_an_empty_looking_name_is_refused(name: str) -> None:
    assert looks_empty(clean_player_name(name))
    with pytest.raises(InvalidOptions, match="needs a name"):
        check("Ann", name)


def test_an_emoji_sequence_keeps_its_joiners() -> None:
    assert clean_player_name(FAMILY) == FAMILY
    assert check("Ann", f"Bo {FAMILY}") == ("Ann", f"Bo {FAMILY}")
    assert clean_player_name(f"{ZWJ}\U0001f469{ZWJ}") == "\U0001f469"  # nothing to join


def test_a_stored_name_is_at_most_the_screens_length() -> None:
    with pytest.raises(InvalidOptions, match=f"at most {MAX_NAME_LENGTH}"):
        check("Ann", "B" * (MAX_NAME_LENGTH + 1))
    assert check("Ann", "B" * MAX_NAME_LENGTH)[1] == "B" * MAX_NAME_LENGTH
