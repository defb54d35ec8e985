"""A loaded position is checked as strictly as a corrected one (protocol truth: ``load``
accepted a hand-made dice request and beaten miniatures nobody had beaten)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import InvalidPosition
from companion.games.kolossus import RULES
from tests.games.random_play import random_game


def _position_with_dice() -> dict[str, Any]:
    """A dumped position of a random game that waits for a roll."""
    start = RULES.setup(["Ann", "Bob"], RULES.parse_options({}), 8)
    for state in random_game(RULES, start, 8, 300).states:
        if state.dice is not None and state.dice.purpose == "movement":
            return RULES.dump_position(state)
    raise AssertionError("no movement roll in 300 random actions")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 250))
def test_every_position_of_a_real_game_loads(seed: int, steps: int) -> None:
    start = RULES.setup(["Ann", "Bob", "Cy"], RULES.parse_options({"chapter": 3}), seed)
    final = random_game(RULES, start, seed, steps).final
    assert RULES.load_position(RULES.dump_position(final)) == final


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("player", 3, "dice.player is 3"),
        ("label", "Anything: Bob rolls 9d4", "dice.label is 'Anything"),
        ("count", 5, "dice.count is 5"),
        ("purpose", "lottery", "dice.purpose 'lottery'"),
    ],
)
def test_a_hand_made_dice_request_is_refused(field: str, value: object, message: str) -> None:
    position = _position_with_dice()
    position["dice"][field] = value
    with pytest.raises(InvalidPosition, match=message):
        RULES.load_position(position)


def test_a_miniature_off_the_board_needs_its_beat_record() -> None:
    position = RULES.dump_position(RULES.setup(["Ann", "Bob"], RULES.parse_options({}), 2))
    position["minis"][5] = -1
    with pytest.raises(InvalidPosition, match=r"minis\[5\] .* is off the board"):
        RULES.load_position(position)


def test_crystals_must_add_up_to_twelve() -> None:
    position = RULES.dump_position(RULES.setup(["Ann", "Bob"], RULES.parse_options({}), 2))
    position["crystal_supply"] += 1
    with pytest.raises(InvalidPosition, match="do not add up to 12") as refused:
        RULES.load_position(position)
    assert refused.value.ruling == "K-R15"


@pytest.mark.parametrize(
    ("game", "players", "field", "value", "message"),
    [
        ("beast_master", ["Ann", "Bob"], "active", 2, "active is seat 2"),
        ("beast_master", ["Ann", "Bob"], "movements_left", -1, "movements_left"),
        ("colossi", ["Ann", "Bob"], "mantle", 3, "mantle is seat 3"),
        ("colossi", ["Ann", "Bob"], "age", 4, "age"),
        ("colossi", ["Ann", "Bob"], "deck_grass", -2, "deck_grass"),
        ("builders", ["Ann", "Bob"], "turn", 0, "turn"),
    ],
)
def test_the_other_games_refuse_impossible_positions_by_field(
    game: str, players: list[str], field: str, value: int, message: str
) -> None:
    from companion.games import get_rules

    rules = get_rules(game)
    position = rules.dump_position(rules.setup(players, rules.parse_options({}), 4))
    position[field] = value
    with pytest.raises(InvalidPosition, match=message):
        rules.load_position(position)
