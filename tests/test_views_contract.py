"""The views and cell contract every game keeps (companion.views).

Run over random positions of every game:

- ``legal_actions_at`` (which a game may generate its own faster way) gives exactly the
  legal actions whose ``action_cells`` match, for every origin, target and touched cell;
- the highlights agree with the legal actions: what lights up as reachable, capturable
  or a target from a focused cell is exactly what the legal actions from that cell
  touch, and every cell a legal action starts from is lit as selectable or selected;
- every highlighted and every touched cell is a cell of the board view, the panel has
  one column per player and marks whose turn it is.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import available_games, get_rules
from companion.rules import AnyRules
from companion.views import PIECE_LOOKS, ActionCells, Piece
from tests.games.random_play import random_game
from tests.helpers.views_contract import check_filters, check_highlights_agree, check_views

GAMES: list[AnyRules] = [get_rules(n) for n in available_games()]
POSITIONS_PER_GAME = 40


def _positions(rules: AnyRules, seed: int, bot_seed: int, players: int) -> list[Any]:
    names = ["Ann", "Bob", "Cleo", "Dov", "Eve", "Fay"][:players]
    start = rules.setup(names, rules.parse_options({}), seed)
    played = random_game(rules, start, bot_seed, limit=400)
    step = max(1, len(played.states) // POSITIONS_PER_GAME)
    return played.states[::step]


def _cells_by_action(rules: AnyRules, state: Any) -> list[tuple[Any, ActionCells]]:
    return [(a, rules.action_cells(state, a)) for a in rules.legal_actions(state)]


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), bot_seed=st.integers(0, 2**31), data=st.data())
def test_views_and_cells_agree_with_legal_actions(
    rules: AnyRules, seed: int, bot_seed: int, data: st.DataObject
) -> None:
    """Highlights and legal actions agree per cell, in every game."""
    players = data.draw(st.integers(rules.min_players, rules.max_players), label="players")
    for state in _positions(rules, seed, bot_seed, players):
        cells = _cells_by_action(rules, state)
        check_filters(rules, state, cells)
        check_highlights_agree(rules, state, cells)
        check_views(rules, state, cells)


def test_each_kind_drawn_as_a_mark_has_a_shape_and_legend_words_of_its_own() -> None:
    """A screen tells the island's pieces apart by shape and words, not by colour alone:
    no two kinds share a mark's shape or a legend's words, and a piece finds its look."""
    looks = list(PIECE_LOOKS.values())
    assert len({look.mark for look in looks}) == len(looks)
    assert len({look.words for look in looks}) == len(looks) and all(look.words for look in looks)
    assert Piece("colossus", "K", player=0).look == PIECE_LOOKS["colossus"]
    assert Piece("crystal", "3").look is None  # drawn as its label
