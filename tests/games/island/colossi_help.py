"""Small Colossi positions for the word-for-word and ruling tests (test_colossi_*.py)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import RuleViolation
from companion.games.island import colossi as ca
from companion.games.island.colossi import model as cam
from companion.games.island.content import Content, parse_content
from companion.games.island.model import Tile

from .helpers import explored, place

R = ca.RULES
NAMES = ["Ann", "Bob", "Cleo", "Dov"]
#: Grass with no Loot on every space: nothing is explored by a move.
PLAIN = Tile(kind="grass", loot="none")


def new(players: int = 2, **options: Any) -> ca.ColossiState:
    """A fresh game of Ann, Bob, … (without Traits unless asked), seed 11."""
    options.setdefault("use_traits", False)
    return R.setup(NAMES[:players], R.parse_options(options), seed=11)


def act(state: ca.ColossiState, *steps: Any) -> ca.ColossiState:
    for step in steps:
        state, _ = R.apply(state, step)
    return state


def texts(state: ca.ColossiState, action: Any) -> list[str]:
    """The log lines an action writes."""
    return [e.text for e in R.apply(state, action)[1]]


def refusal(state: ca.ColossiState, action: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as err:
        R.apply(state, action)
    return err.value


def actions(
    players: int = 2, options: dict[str, Any] | None = None, **update: Any
) -> ca.ColossiState:
    """Age I's Action Phase, Ann to play with 4 Actions, Wyrm in the centre and every
    space explored as Grass without Loot (built, not played); ``options`` as entered."""
    state = explored(new(players, **(options or {})), PLAIN)
    wyrm = Tile(kind="lair", name="Lair of Wyrm", beast="Wyrm")
    state = place(state, beasts=[("Wyrm", "r3c3")], tiles={"r3c3": wyrm})
    return state.model_copy(
        update={
            "phase": "actions",
            "age_beasts": ("Wyrm",),
            "movements_left": 4,
            **update,
        }
    )


def harvesting(
    players: int = 2, options: dict[str, Any] | None = None, **update: Any
) -> ca.ColossiState:
    """Age I's Harvest Phase (after the scoring), Ann first."""
    return actions(players, options, phase="harvest", movements_left=0, **update)


def content(data: dict[str, Any]) -> dict[str, Any]:
    """A content file as the options take it."""
    parsed: Content = parse_content(data)
    return parsed.model_dump(mode="json")


__all__ = [
    "NAMES",
    "PLAIN",
    "R",
    "act",
    "actions",
    "cam",
    "content",
    "harvesting",
    "new",
    "refusal",
    "texts",
]
