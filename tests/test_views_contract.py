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

from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import available_games, get_rules
from companion.highlights import Role
from companion.rules import AnyRules
from companion.views import PIECE_LOOKS, ActionCells, BoardView, Piece, Space, Square
from tests.games.random_play import GameRules, random_game

GAMES: list[AnyRules] = [get_rules(n) for n in available_games()]
#: Roles that say "a legal action from the focused cell ends on or acts upon this cell".
FROM_FOCUS_ROLES = frozenset({Role.REACHABLE, Role.CAPTURABLE, Role.TARGET})
#: Roles a cell a legal action starts from is lit with.
ORIGIN_ROLES = frozenset({Role.SELECTABLE, Role.SELECTED})
POSITIONS_PER_GAME = 40


def _positions(rules: AnyRules, seed: int, bot_seed: int, players: int) -> list[Any]:
    names = ["Ann", "Bob", "Cleo", "Dov", "Eve", "Fay"][:players]
    start = rules.setup(names, rules.parse_options({}), seed)
    played = random_game(rules, start, bot_seed, limit=400)
    step = max(1, len(played.states) // POSITIONS_PER_GAME)
    return played.states[::step]


def _cells_by_action(rules: AnyRules, state: Any) -> list[tuple[Any, ActionCells]]:
    return [(a, rules.action_cells(state, a)) for a in rules.legal_actions(state)]


def _dumped(rules: AnyRules, actions: Any) -> list[str]:
    return [str(rules.dump_action(a)) for a in actions]


def check_filters(rules: GameRules, state: Any, cells: list[tuple[Any, ActionCells]]) -> None:
    """legal_actions_at agrees with filtering legal_actions through action_cells."""
    origins = {c.origin for _, c in cells if c.origin is not None}
    targets = {c.target for _, c in cells if c.target is not None}
    touched = {t for _, c in cells for t in c.touched}
    for origin in sorted(origins):
        expected = [a for a, c in cells if c.origin == origin]
        got = list(rules.legal_actions_at(state, origin=origin))
        assert _dumped(rules, got) == _dumped(rules, expected), f"origin {origin}"
        ends = {c.target for _, c in cells if c.origin == origin and c.target is not None}
        for target in sorted(ends):
            pair = [a for a, c in cells if c.origin == origin and c.target == target]
            got = list(rules.legal_actions_at(state, origin=origin, target=target))
            assert _dumped(rules, got) == _dumped(rules, pair), f"{origin} → {target}"
    for target in sorted(targets):
        expected = [a for a, c in cells if c.target == target]
        got = list(rules.legal_actions_at(state, target=target))
        assert _dumped(rules, got) == _dumped(rules, expected), f"target {target}"
    for cell in sorted(touched):
        expected = [a for a, c in cells if cell in c.touched]
        got = list(rules.legal_actions_at(state, touching=cell))
        assert _dumped(rules, got) == _dumped(rules, expected), f"touching {cell}"
    for _, c in cells:
        if c.origin is not None:
            assert c.origin in c.touched
        if c.target is not None:
            assert c.target in c.touched


def check_highlights_agree(
    rules: GameRules, state: Any, cells: list[tuple[Any, ActionCells]]
) -> None:
    """What lights up from a focused cell is what the legal actions from it touch."""
    by_origin: dict[str, set[str]] = defaultdict(set)
    for _, c in cells:
        if c.origin is not None:
            by_origin[c.origin] |= c.touched - {c.origin}
    overview = rules.highlights(state, None)
    lit_origins = {h.cell for h in overview if h.role in ORIGIN_ROLES}
    status = rules.status(state)
    assert set(by_origin) <= lit_origins, (
        f"{status}: cells with legal actions not lit: {sorted(set(by_origin) - lit_origins)}"
    )
    for origin, touched in by_origin.items():
        lit = {h.cell for h in rules.highlights(state, origin) if h.role in FROM_FOCUS_ROLES}
        assert lit == touched, (
            f"{status}: from {origin} lit {sorted(lit - touched)} without a legal action, "
            f"legal actions reach {sorted(touched - lit)} unlit"
        )


def check_views(rules: GameRules, state: Any, cells: list[tuple[Any, ActionCells]]) -> None:
    panel = rules.panel(state)
    assert panel.columns == tuple(state.players) or (
        len(state.players) == 1 and len(panel.columns) == 1
    )
    for row in panel.rows:
        assert len(row.values) == len(panel.columns), row.label
    assert panel.turn == rules.current_player(state)
    assert panel.phase
    board = rules.board(state)
    if rules.board_kind is None:
        assert board is None
        assert rules.parse_cell(state, "0,0") is None
        # A card game's actions name the cards it lays out (``Rules.cards``), or none.
        shown = {card.key for card in rules.cards(state)}
        assert all(c.touched <= shown for _, c in cells), shown
        return
    assert isinstance(board, BoardView)
    assert board.kind == rules.board_kind
    keys = [c.cell for c in board.cells]
    assert len(keys) == len(set(keys)), "a cell twice in the board view"
    cell_type = Square if board.kind == "grid" else Space
    for key in keys:  # every cell of the board parses to its kind's Cell, and back
        parsed = rules.parse_cell(state, key)
        assert isinstance(parsed, cell_type) and parsed.key == key
    for stranger in ("99,99", "-1,0", "nowhere", ""):
        assert rules.parse_cell(state, stranger) is None
    known = set(keys)
    for h in rules.highlights(state, None):
        assert h.cell in known, f"highlight on {h.cell}, not a cell of the board"
    for _, c in cells:
        assert c.touched <= known, f"an action touches {sorted(c.touched - known)}"
    seats = range(len(state.players))
    for view in board.cells:
        assert view.control is None or view.control in seats
        for piece in view.pieces:
            assert piece.player is None or piece.player in seats
            assert piece.count >= 1 and piece.label


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
