"""A Road chain back to the selected piece's own space on the play screen (BM-R17).

The board does not light the start space; the menu the selection narrows to lists the
chains back last, each said in the game's words (``Rules.describe``, which names the
space it passes through; the rules list them so, with their path); chosen there, the
move is journaled and a resumed game is the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import get_rules
from companion.games.island.model import IslandState, PendingExplore
from companion.highlights import Role
from companion.journal import Journal
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from tests.helpers.island import GAMES, island
from tests.helpers.presenters import state_as


@pytest.mark.parametrize("game", GAMES)
def test_bm_r17_the_menu_lists_a_chain_back_last_named_by_the_space_it_passes(
    tmp_path: Path, game: str
) -> None:
    rules = get_rules(game)
    journal = Journal(tmp_path / "journal.sqlite3")
    start = rules.dump_position(island(game, "a"))
    presenter = PlayPresenter(Session.from_position(game, start, journal=journal))
    presenter.board_input.tap_cell("o")
    assert presenter.board_input.focus == "o"
    lit = {h.cell for h in presenter.highlights() if h.role == Role.REACHABLE}
    assert lit == {"a", "b", "c", "x", "y"}  # never the selected piece's own space
    view = presenter.view()
    assert view.group == "move"
    back = [(c.payload["to"], c.payload.get("path")) for c in view.actions]
    assert back[-2:] == [("o", ["a", "o"]), ("o", ["b", "o"])]
    assert all(to != "o" for to, _path in back[:-2])
    for choice in view.actions:  # each in the game's words, the space it passes named
        said = rules.describe(presenter.state, rules.parse_action(choice.payload))
        assert choice.label == presenter.names().text(said)
    assert presenter.submit(view.actions[-2].payload)
    state = state_as(presenter, IslandState)
    assert state.colossi[0] == "o" and state.movements_left == 3
    assert [p.space for p in state.pending if isinstance(p, PendingExplore)] == ["a"]
    game_id = presenter.session.game_id
    assert game_id is not None
    journal.close()  # as if the power went
    resumed, damage = Session.resume(Journal(tmp_path / "journal.sqlite3"), game_id)
    assert damage is None and resumed.state == state
