"""The views contract every game's rules keep: the filters of the legal actions by
origin, target and touched cell agree with the cells, and the highlights with them."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from companion.highlights import Role
from companion.views import ActionCells, BoardView, Space, Square
from tests.games.random_play import GameRules


def check_filters(rules: GameRules, state: Any, cells: list[tuple[Any, ActionCells]]) -> None:
    """legal_actions_at agrees with filtering legal_actions through action_cells."""
    origins = {c.origin for _, c in cells if c.origin is not None}
    targets = {c.target for _, c in cells if c.target is not None}
    touched = {t for _, c in cells for t in c.touched}
    for origin in sorted(origins):
        expected = [a for a, c in cells if c.origin == origin]
        got = list(rules.legal_actions_at(state, origin=origin))
        assert dumped(rules, got) == dumped(rules, expected), f"origin {origin}"
        ends = {c.target for _, c in cells if c.origin == origin and c.target is not None}
        for target in sorted(ends):
            pair = [a for a, c in cells if c.origin == origin and c.target == target]
            got = list(rules.legal_actions_at(state, origin=origin, target=target))
            assert dumped(rules, got) == dumped(rules, pair), f"{origin} → {target}"
    for target in sorted(targets):
        expected = [a for a, c in cells if c.target == target]
        got = list(rules.legal_actions_at(state, target=target))
        assert dumped(rules, got) == dumped(rules, expected), f"target {target}"
    for cell in sorted(touched):
        expected = [a for a, c in cells if cell in c.touched]
        got = list(rules.legal_actions_at(state, touching=cell))
        assert dumped(rules, got) == dumped(rules, expected), f"touching {cell}"
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


#: Roles that say "a legal action from the focused cell ends on or acts upon this cell".
FROM_FOCUS_ROLES = frozenset({Role.REACHABLE, Role.CAPTURABLE, Role.TARGET})


#: Roles a cell a legal action starts from is lit with.
ORIGIN_ROLES = frozenset({Role.SELECTABLE, Role.SELECTED})


def dumped(rules: GameRules, actions: Any) -> list[str]:
    return [str(rules.dump_action(a)) for a in actions]
