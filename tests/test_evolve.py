"""``Frozen.evolve``: the one way a state changes, validated field by field.

``model_copy(update=...)`` checks nothing: a tuple field took a list, an int field took
"oops", and the damage showed only when a dump or a replay tripped over it. Every game
now changes its states with ``evolve``; these properties hold for all five.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from companion.games import get_rules
from companion.model import Frozen
from companion.rng import Rng
from tests.faults.scale import PLAYERS
from tests.games.random_play import random_game


def _states(game: str, seed: int, steps: int) -> Any:
    rules = get_rules(game)
    start = rules.setup(PLAYERS[game], rules.parse_options({}), seed)
    return random_game(rules, start, seed, steps).final


def _wrong_value(value: Any) -> Any:
    """A value of the wrong kind for a field: what ``model_copy`` would have let in."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int):
        return "oops"
    if isinstance(value, tuple):
        return list(value) if value else ["not", "a", "tuple"]
    if isinstance(value, str):
        return 12
    return object()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(PLAYERS)),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 60),
    data=st.data(),
)
def test_evolve_refuses_a_wrong_value_and_keeps_a_right_one(
    game: str, seed: int, steps: int, data: st.DataObject
) -> None:
    state = _states(game, seed, steps)
    fields = sorted(type(state).model_fields)
    name = data.draw(st.sampled_from(fields))
    value = getattr(state, name)
    assert state.evolve({name: value}) == state  # the same value: the same state
    if value is None:
        return
    with pytest.raises(ValidationError):
        state.evolve({name: _wrong_value(value)})


def test_evolve_checks_limits_and_names() -> None:
    class Counter(Frozen):
        count: int
        names: tuple[str, ...] = ()

    counter = Counter(count=1)
    assert counter.evolve({"count": 2, "names": ("a",)}) == Counter(count=2, names=("a",))
    for wrong in ({"count": "2"}, {"names": ["a"]}, {"count": 1.5}):
        with pytest.raises(ValidationError):
            counter.evolve(wrong)
    with pytest.raises(ValueError, match="Counter has no field colour"):
        counter.evolve({"colour": 1})
    assert Rng(seed=1).next64()[1] == Rng(seed=1, counter=1)


def test_the_games_change_their_states_only_through_evolve() -> None:
    from pathlib import Path

    companion = Path(__file__).resolve().parent.parent / "companion"
    users = [
        str(p) for p in companion.rglob("*.py") if "model_copy(" in p.read_text(encoding="utf-8")
    ]
    assert users == [str(companion / "model.py")]
