"""The helpers every game uses (companion/games/*.py), each on its own: the games looked
up by name, option fields and their words, reading a content file strictly, and the
manual corrections' refusals and log lines (RULINGS 0.2.1), word for word."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

import companion.games as games
from companion.errors import InvalidContent, InvalidOptions, RuleViolation
from companion.games import corrections as cr
from companion.games.island.model import CorrectMovements
from companion.games.options import Choice, OptionText, option, option_text
from companion.games.parsing import parse_strict

# --- the games by name --------------------------------------------------------------------

KNOWN = "kolossus, beast_master, colossi, colossus_solo, builders"
FIVE = {
    "kolossus": "companion.games.kolossus",
    "beast_master": "companion.games.island.beast_master",
    "colossi": "companion.games.island.colossi",
    "colossus_solo": "companion.games.colossus_solo",
    "builders": "companion.games.builders",
}


@pytest.fixture
def five(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the five real games registered (the suite adds its toy game)."""
    monkeypatch.setattr(games, "GAME_MODULES", dict(FIVE))


@pytest.mark.usefixtures("five")
def test_the_five_games_in_home_screen_order() -> None:
    assert games.available_games() == list(FIVE)
    assert games.game_summary("colossi") == games.GameSummary("Colossi", 2, 4)
    assert games.game_summary("colossus_solo") == games.GameSummary("Colossus", 1, 1)
    rules = games.get_rules("beast_master")
    assert (rules.name, rules.title) == ("beast_master", "Beast Master")


@pytest.mark.usefixtures("five")
def test_an_unknown_game_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(InvalidOptions) as refused:
        games.get_rules("chess")
    assert str(refused.value) == f"Unknown game 'chess'; the games are: {KNOWN}."
    with pytest.raises(InvalidOptions) as summary:
        games.game_summary("chess")
    assert str(summary.value) == f"Unknown game 'chess'; the games are: {KNOWN}."


def test_a_game_registered_elsewhere_is_summed_up_from_its_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    modules = {
        "no_parent": "no_such_package.game",
        **FIVE,
        "missing": "companion.games.no_such_game",
        "toy_pig": "tests.toy_game",
    }
    monkeypatch.setattr(games, "GAME_MODULES", modules)
    assert games.game_summary("toy_pig") == games.GameSummary("Pig", 1, 4)
    # a module absent from this build (or its parent package) is left out of the list,
    # and the games after it are still listed
    assert games.available_games() == [*FIVE, "toy_pig"]


def test_a_list_of_games_needs_none_of_their_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The home screen's summaries come from the table of summaries: a game's module is
    not loaded for it (here it could not be)."""
    absent = {name: f"no_such_package.{name}" for name in FIVE}
    monkeypatch.setattr(games, "GAME_MODULES", absent)
    assert games.game_summary("kolossus") == games.GameSummary(
        "Kolossus – The Citadel of Time", 2, 4
    )
    assert games.game_summary("builders") == games.GameSummary("Builders of the Colossus", 2, 4)
    assert games.available_games() == []


# --- option fields ------------------------------------------------------------------------


def field(declared: object) -> FieldInfo:
    """What :func:`option` returns (typed as its default, for a model's annotation)."""
    assert isinstance(declared, FieldInfo)
    return declared


def test_an_option_field_carries_its_ruling_words_and_bounds() -> None:
    words: dict[Choice, str] = {"fixed": "Always five", None: "As the Age card says"}
    info = option(
        5,
        "Rounds in each Age's Action Phase.",
        "CA-R04",
        label="Rounds per Age",
        group="turns",
        words=words,
        house_rule=True,
        seats=True,
        ge=1,
        le=9,
    )
    assert isinstance(info, FieldInfo)
    assert info.default == 5
    assert info.title == "Rounds per Age"
    assert info.description == "Rounds in each Age's Action Phase."
    assert info.json_schema_extra == {
        "ruling": "CA-R04",
        "group": "turns",
        "house_rule": True,
        "words": [["fixed", "Always five"], [None, "As the Age card says"]],
        "seats": True,
    }

    class Options(BaseModel):
        rounds: int = info

    assert Options().rounds == 5
    assert Options(rounds=1).rounds == 1 and Options(rounds=9).rounds == 9
    for wrong in (0, 10):
        with pytest.raises(ValidationError):
            Options(rounds=wrong)


def test_an_option_without_words_seats_or_bounds_says_only_its_ruling() -> None:
    info = field(
        option(
            False, "Spawned Acolytes may step on safely.", "BM-R07", label="Safe", group="movement"
        )
    )
    assert info.json_schema_extra == {"ruling": "BM-R07", "group": "movement", "house_rule": False}
    assert field(option(0, "d", "R", label="l", group="game", words={})).json_schema_extra == {
        "ruling": "R",
        "group": "game",
        "house_rule": False,
    }

    class Options(BaseModel):
        n: int = option(0, "d", "R", label="l", group="game")

    assert Options(n=-50).n == -50 and Options(n=10**6).n == 10**6


def test_option_text_reads_what_option_declared() -> None:
    info = option(
        "centre",
        "Where the Colossi start.",
        "BM-R03",
        label="Colossus start",
        group="start",
        words={"centre": "On the centre", "player_choice": "Where each player likes", 1: "One"},
        house_rule=True,
        seats=True,
    )
    text = option_text("colossus_start", field(info))
    assert text == OptionText(
        label="Colossus start",
        description="Where the Colossi start.",
        ruling="BM-R03",
        group="start",
        house_rule=True,
        seats=True,
        words=(
            ("centre", "On the centre"),
            ("player_choice", "Where each player likes"),
            (1, "One"),
        ),
    )
    assert text.word("player_choice") == "Where each player likes"
    assert text.word(1) == "One"
    assert text.word(True) is None  # True == 1, but a bool's words are its own
    assert text.word("elsewhere") is None


def test_words_of_none_and_of_a_bool() -> None:
    text = OptionText("l", "", None, None, False, False, ((None, "auto"), (True, "yes"), (0, "no")))
    assert text.word(None) == "auto"
    assert text.word(True) == "yes"
    assert text.word(1) is None
    assert text.word(False) is None
    assert text.word(0) == "no"


def test_a_field_declared_without_option_reads_as_its_name() -> None:
    """A test game's plain field: its name as label, no ruling, group, words or flags."""
    plain = option_text("turns", FieldInfo(default=3))
    assert plain == OptionText("turns", "", None, None, False, False, ())
    called = option_text("turns", FieldInfo(default=3, json_schema_extra=lambda schema: None))
    assert called == plain


def test_option_text_keeps_only_well_formed_words_and_known_groups() -> None:
    info = FieldInfo(
        default=None,
        title="Tie",
        json_schema_extra={
            "ruling": 12,
            "group": "nowhere",
            "house_rule": "yes",
            "seats": 1,
            "words": [
                ["shared", "Shared victory"],
                ["manual", 5],
                ["three", "x", "y"],
                "loose",
                [1.5, "a float"],
                [["list"], "a list"],
                [None, "Nobody"],
                [2, "Two"],
                [False, "No"],
            ],
        },
    )
    text = option_text("tie", info)
    assert text.ruling == "12"
    assert text.group is None
    assert (text.house_rule, text.seats) == (False, False)
    assert text.words == (("shared", "Shared victory"), (None, "Nobody"), (2, "Two"), (False, "No"))
    assert option_text("x", FieldInfo(default=0, json_schema_extra={"words": "none"})).words == ()
    known = option_text("x", FieldInfo(default=0, json_schema_extra={"group": "endgame"}))
    assert known.group == "endgame"


# --- reading content strictly -------------------------------------------------------------


class Table(BaseModel):
    n: int
    names: list[str] = []


TABLE: TypeAdapter[Table] = TypeAdapter(Table)


def test_content_is_read_from_text_bytes_mappings_and_lists() -> None:
    assert parse_strict(TABLE, '{"n": 1}', "Not a table") == Table(n=1)
    assert parse_strict(TABLE, b'{"n": 2, "names": ["a"]}', "Not a table") == Table(
        n=2, names=["a"]
    )
    assert parse_strict(TABLE, {"n": 3}, "Not a table") == Table(n=3)
    assert parse_strict(TABLE, MappingProxyType({"n": 4}), "Not a table") == Table(n=4)
    assert parse_strict(TypeAdapter(list[int]), (1, 2), "Not a list") == [1, 2]


@pytest.mark.parametrize(
    ("data", "ruling", "words"),
    [
        ('{"n": "1"}', None, "Not a table: n: Input should be a valid integer"),
        ({"n": "1"}, "BC-R01", "Not a table: n: Input should be a valid integer (BC-R01)"),
        ([1], None, "Not a table: (top level): Input should be an object"),
        (
            "{bad",
            "BM-R01",
            "Not a table: (top level): Invalid JSON: "
            "key must be a string at line 1 column 2 (BM-R01)",
        ),
        (
            {"n": {1, 2}},
            "CA-R14",
            "Not a table: Object of type set is not JSON serializable (CA-R14)",
        ),
    ],
)
def test_unusable_content_is_refused_saying_what_and_where(
    data: Any, ruling: str | None, words: str
) -> None:
    """Strictly: a number written as text is refused, never guessed."""
    with pytest.raises(InvalidContent) as refused:
        parse_strict(TABLE, data, "Not a table", ruling)
    assert str(refused.value) == words
    assert refused.value.ruling == ruling


def test_a_circular_table_is_refused_not_crashed() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(InvalidContent) as refused:
        parse_strict(TABLE, {"n": 1, "names": loop}, "Not a table")
    assert str(refused.value) == "Not a table: Circular reference detected"
    assert refused.value.ruling is None


# --- manual corrections (0.2.1) -----------------------------------------------------------


def test_0_2_1_a_correction_is_told_from_other_actions() -> None:
    assert cr.is_correction(CorrectMovements(movements=1))
    assert cr.is_correction({"type": "correct_player", "player": 0})
    assert not cr.is_correction({"type": "move"})
    assert not cr.is_correction({"type": "recorrect_x"})
    assert not cr.is_correction({"type": 7})
    assert not cr.is_correction({"player": 0})
    assert not cr.is_correction("correct_player")
    assert not cr.is_correction(None)


def test_0_2_1_the_log_line_of_a_correction() -> None:
    event = cr.corrected("correct_space", "C3 holds 2 Acolytes")
    assert event == cr.Corrected(
        correction="correct_space", text="Manual correction: C3 holds 2 Acolytes"
    )
    assert event.type == "corrected"
    assert cr.change_text(5, 3) == "5 → 3"


def test_0_2_1_correction_refusals_word_for_word() -> None:
    nothing = cr.nothing_to_correct("Ann already has 3 Gold")
    assert isinstance(nothing, RuleViolation)
    assert (nothing.message, nothing.ruling) == (
        "Nothing to correct: Ann already has 3 Gold.",
        "0.2.1",
    )
    bad = cr.impossible("Too many Acolytes.")
    assert (bad.message, bad.ruling) == ("Too many Acolytes.", "0.2.1")
    cited = cr.impossible("Two Colossi on C3.", "BM-R03")
    assert (cited.message, cited.ruling) == ("Two Colossi on C3.", "BM-R03")
    over = cr.game_over()
    assert (over.message, over.ruling) == (
        "The game has ended; take actions back with undo to correct it.",
        "0.2.1",
    )


def test_0_2_1_a_count_outside_its_bounds_is_refused() -> None:
    cr.check_count(0, "Gold")
    cr.check_count(2, "Acolytes", low=2, high=10)
    cr.check_count(10, "Acolytes", low=2, high=10)
    cr.check_count(10**6, "Gold", high=None)
    with pytest.raises(RuleViolation) as negative:
        cr.check_count(-1, "Gold")
    assert (negative.value.message, negative.value.ruling) == (
        "Gold cannot be less than 0; -1 is not possible.",
        "0.2.1",
    )
    cases = [
        (1, "Acolytes", 2, 10, "Acolytes cannot be less than 2; 1 is not possible."),
        (11, "Acolytes", 2, 10, "Acolytes cannot be more than 10; 11 is not possible."),
        (1, "Cards", 0, 0, "Cards cannot be more than 0; 1 is not possible."),
    ]
    for value, what, low, high, words in cases:
        with pytest.raises(RuleViolation) as refused:
            cr.check_count(value, what, low=low, high=high)
        assert (refused.value.message, refused.value.ruling) == (words, "0.2.1")
