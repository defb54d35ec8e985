"""Every option of every game is declared in players' words: a short label, a one-line
description, a group, words for each value it can take, and whether it is a house rule
(RULINGS.md Appendix A) that Setup folds under "More rules"."""

from __future__ import annotations

import types
import typing
from typing import Literal

import pytest
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from companion.games import GAME_MODULES, get_rules
from companion.games.options import GROUP_TITLES, Choice, option_text

REAL_GAMES = tuple(name for name in GAME_MODULES if name != "toy_pig")  # toy: tests only

#: The options RULINGS.md Appendix A lists as house-rule switches, per game, less the
#: rule book's own variants (Kolossus' chapters, Colossi's first game without Traits):
#: those are choices of the table, shown on Setup's first screen.
HOUSE_RULES: dict[str, set[str]] = {
    "kolossus": {
        "start_zone_layout",
        "quake_candidates",
        "region_move_model",
        "quake_distance",
        "allies_are_friendly",
        "defence_consumed",
        "crystal_placement",
        "capture_requires_entry",
        "crystal_majority",
        "elimination_unit",
        "simultaneous_elimination",
        "mana_table",
        "invasion_grants_mana",
        "titan_weapons",
        "charge_from_pool",
        "initiative_once_per_turn",
    },
    "beast_master": {
        "acolytes_per_player",
        "turns_per_player",
        "colossus_start",
        "centre_starts_with_loot",
        "spawn_safe_first_step",
        "hand_limit_check",
        "tie_policy",
    },
    "colossi": {
        "centre_setup",
        "acolytes_per_player",
        "rounds_per_age",
        "mantle_pass_left_after_award",
        "tipped_colossus_controls",
        "beast_master_beast_rules",
        "beast_card_needs_action",
        "tie_policy",
    },
    "colossus_solo": {"depletion_trigger"},
    "builders": {"forced_build", "reveal_source", "zero_check", "final_tie"},
}

#: The longest label and description Setup lays out on one line at 800×480.
MAX_LABEL = 30
MAX_DESCRIPTION = 96


def _literals(annotation: object) -> tuple[Choice, ...]:
    if typing.get_origin(annotation) is Literal:
        return tuple(typing.get_args(annotation))
    return ()


def values_needing_words(annotation: object) -> set[tuple[type, Choice]]:
    """Each value a field can take that Setup shows as a word: its Literal choices, its
    list entries' Literal choices, and None when the game decides or nothing is loaded."""
    found: set[tuple[type, Choice]] = set()
    parts = [annotation]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        parts = list(typing.get_args(annotation))
    for part in parts:
        if part is type(None):
            found.add((type(None), None))
        found |= {(type(v), v) for v in _literals(part)}
        if typing.get_origin(part) is tuple:
            for item in typing.get_args(part):
                found |= {(type(v), v) for v in _literals(item)}
    return found


def fields(game: str) -> dict[str, FieldInfo]:
    model: type[BaseModel] = get_rules(game).options_model
    return dict(model.model_fields)


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_option_has_a_label_a_one_line_description_and_a_group(game: str) -> None:
    wrong = []
    for name, info in fields(game).items():
        text = option_text(name, info)
        if not info.title or text.label == name or len(text.label) > MAX_LABEL:
            wrong.append(f"{name}: label {text.label!r}")
        if not text.description or len(text.description) > MAX_DESCRIPTION:
            wrong.append(f"{name}: description of {len(text.description)} characters")
        if "\n" in text.description or text.description.count(". ") > 0:
            wrong.append(f"{name}: description is more than one sentence")
        if text.group not in GROUP_TITLES:
            wrong.append(f"{name}: group {text.group!r}")
        if not text.ruling:
            wrong.append(f"{name}: no ruling")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_choice_value_has_players_words(game: str) -> None:
    missing = []
    for name, info in fields(game).items():
        text = option_text(name, info)
        for _, value in sorted(values_needing_words(info.annotation), key=repr):
            if not text.word(value):
                missing.append(f"{name} = {value!r}")
    assert not missing, "no words for: " + ", ".join(missing)


@pytest.mark.parametrize("game", REAL_GAMES)
def test_house_rules_are_the_options_appendix_A_lists(game: str) -> None:
    flagged = {name for name, info in fields(game).items() if option_text(name, info).house_rule}
    assert flagged == HOUSE_RULES[game]


def test_the_check_finds_a_literal_value_without_words() -> None:
    class Bare(BaseModel):
        layout: Literal["corner3x3_minus_inner", "all22"] | None = None

    needed = values_needing_words(Bare.model_fields["layout"].annotation)
    assert needed == {(str, "corner3x3_minus_inner"), (str, "all22"), (type(None), None)}
    assert option_text("layout", Bare.model_fields["layout"]).word("all22") is None


def test_words_tell_true_from_one() -> None:
    """A bool's words are never taken for an int's (True == 1 in Python)."""
    info = fields("colossi")["mantle_holder"]
    assert option_text("mantle_holder", info).word(True) is None
