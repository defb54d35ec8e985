"""A Road chain that comes back to the space it started from (BM-R17, both island games).

It is legal: a paid step onto a neighbour holding another own piece, and the free step
back. It costs the Movement (Colossi: the Action), and every space entered on the way has
its effects: an unexplored one explores, an Acolyte's chain ends on the Beast's space
(BM-R07). The board never lights the start space (the selected piece's own space); the
legal list has one such move per neighbour it passes through, with its ``path``, after
every other move.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.mechanics import chains_back, destinations
from companion.games.island.model import (
    IslandState,
    Move,
    PendingExplore,
    PieceKind,
    PieceMoved,
)
from companion.highlights import Role
from tests.helpers.island import GAMES, actions_turn, island

from .helpers import BM_CFG, CA_CFG, connected_board_from, place


def rules_of(game: str) -> Any:
    return bm.RULES if game == "beast_master" else ca.RULES


def back(via: str, piece: PieceKind = "colossus", origin: str = "o") -> Move:
    return Move(piece=piece, origin=origin, to=origin, path=(via, origin))


def explores(state: IslandState) -> list[str]:
    return [p.space for p in state.pending if isinstance(p, PendingExplore)]


def moved(events: tuple[Any, ...]) -> list[tuple[str, ...]]:
    return [e.path for e in events if isinstance(e, PieceMoved)]


@pytest.mark.parametrize("game", GAMES)
def test_bm_r17_a_chain_back_is_legal_through_each_own_neighbour(game: str) -> None:
    rules, state = rules_of(game), island(game)
    listed = list(rules.legal_actions(state))
    assert back("a") in listed and back("b") in listed
    assert back("c") not in listed  # nobody of Ann's on c: the chain ends there
    assert rules.is_legal(state, back("a"))
    # sent without a path, the referee takes a chain back of its own choosing
    assert rules.is_legal(state, Move(piece="colossus", origin="o", to="o"))
    with pytest.raises(RuleViolation, match="another of your pieces on c"):
        rules.apply(state, back("c"))


@pytest.mark.parametrize("game", GAMES)
def test_bm_r17_costs_the_movement_and_explores_the_space_it_passes(game: str) -> None:
    rules, state = rules_of(game), island(game, "a")
    after, events = rules.apply(state, back("a"))
    assert after.movements_left == state.movements_left - 1
    assert after.colossi[0] == "o" and moved(events) == [("a", "o")]
    assert explores(after) == ["a"]
    # every space entered has its effects, the start space too when it is unexplored
    both = island(game, "a", "o")
    assert explores(rules.apply(both, back("a"))[0]) == ["a", "o"]
    # an explored way explores nothing, and still costs the Movement
    plain, _ = rules.apply(island(game), back("b"))
    assert explores(plain) == [] and plain.movements_left == state.movements_left - 1


def test_bm_r17_an_acolytes_chain_back_never_passes_the_beast_bm_r07() -> None:
    """An Acolyte entering the Beast's space dies there (BM-R07): in Beast Master no
    chain back of an Acolyte passes it, even with Ann's Colossus there; in Colossi the
    Beast kills nobody (CA-R08), so it may."""
    for game in GAMES:
        state = place(
            island(game),
            colossi={0: "b"},
            acolytes={"o": {0: 1}, "b": {0: 0}},
            beasts=[("Beast", "b")],
        )
        listed = list(rules_of(game).legal_actions_at(state, origin="o"))
        assert back("a", "acolyte") in listed
        assert (back("b", "acolyte") in listed) is (game == "colossi")
        after, events = rules_of(game).apply(state, back("a", "acolyte"))
        assert after.space("o").acolytes[0] == 1 and moved(events) == [("a", "o")]


@pytest.mark.parametrize("game", GAMES)
def test_bm_r17_the_start_space_is_not_lit(game: str) -> None:
    rules, state = rules_of(game), island(game)
    marks = rules.highlights(state, focus="o")
    assert [h.cell for h in marks if h.role == Role.SELECTED] == ["o"]
    assert "o" not in {h.cell for h in marks if h.role == Role.REACHABLE}
    assert {h.cell for h in marks if h.role == Role.REACHABLE} == {"a", "b", "c", "x", "y"}


@pytest.mark.parametrize("game", GAMES)
def test_bm_r17_chains_back_are_listed_last_named_by_the_space_they_pass(game: str) -> None:
    rules, state = rules_of(game), island(game)
    here = list(rules.legal_actions_at(state, origin="o"))
    assert here[-2:] == [back("a"), back("b")]  # the board's neighbour order
    assert all(m.to != "o" for m in here[:-2])
    moves = [m for m in rules.legal_actions(state) if isinstance(m, Move)]
    home = [m for m in moves if m.to == m.origin]  # the Acolytes on a and b pass o
    assert home == [back("a"), back("b"), back("o", "acolyte", "a"), back("o", "acolyte", "b")]
    assert moves[-len(home) :] == home
    assert rules.dump_action(back("a"))["path"] == ["a", "o"]


# --- properties -------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, Any, str]:
    """A random island, Ann's pieces, unexplored spaces, a Beast; one of Ann's spaces."""
    n = draw(st.integers(3, 12), label="spaces")
    parents = draw(st.lists(st.integers(0, 99), min_size=n - 1, max_size=n - 1))
    extra = draw(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=n))
    board = connected_board_from(n, parents, extra, 0)
    game = draw(st.sampled_from(GAMES))
    ids = board.ids
    mine = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=n, unique=True))
    dark = draw(st.lists(st.sampled_from(ids), max_size=n, unique=True))
    beast = draw(st.sampled_from(ids))
    col = draw(st.sampled_from(ids))
    state = place(
        actions_turn(game, board),
        colossi={0: col, 1: ids[-1]},
        acolytes={s: {0: draw(st.integers(1, 2))} for s in mine if s != beast},
        beasts=[("Beast", beast)],
        tiles=dict.fromkeys(dark),
    )
    origin = draw(st.sampled_from([col, *(s for s in mine if s != beast)]))
    return game, state, origin


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(found=positions())
def test_bm_r17_every_listed_chain_back_applies_as_the_rules_say(
    found: tuple[str, Any, str],
) -> None:
    """Each listed chain back (they exist exactly when the origin is a destination) is
    accepted, costs one Movement, brings the piece home along its path and explores the
    unexplored spaces it entered, in order; its dumped and parsed form (what a journal
    keeps) replays to the same state; the start space is never lit; a chain back through
    any other neighbour is refused and changes nothing."""
    game, state, origin = found
    rules = rules_of(game)
    cfg = BM_CFG if game == "beast_master" else CA_CFG
    listed = [m for m in rules.legal_actions_at(state, origin=origin) if m.to == origin]
    for piece in {m.piece for m in rules.legal_actions_at(state, origin=origin)}:
        mine = [m for m in listed if m.piece == piece]
        assert bool(mine) == (origin in destinations(state, 0, piece, origin, cfg))
        assert [m.path for m in mine] == chains_back(state, 0, piece, origin, cfg)
    dark = {sid for sid, sp in zip(state.board.ids, state.spaces, strict=True) if sp.tile is None}
    for move in listed:
        after, events = rules.apply(state, move)
        assert after.movements_left == state.movements_left - 1
        assert moved(events) == [move.path]
        entered = [s for s in move.path if s in dark]
        assert explores(after) == list(dict.fromkeys(entered))
        assert rules.apply(state, rules.parse_action(rules.dump_action(move)))[0] == after
    marks = rules.highlights(state, focus=origin)
    assert origin not in {h.cell for h in marks if h.role == Role.REACHABLE}
    dumped = rules.dump_position(state)
    for via in state.board.adjacent(origin):
        pieces: tuple[PieceKind, ...] = ("colossus", "acolyte")
        for piece in pieces:
            stray = back(via, piece, origin)
            if stray in listed:
                continue
            with pytest.raises(RuleViolation) as refused:
                rules.apply(state, stray)
            assert refused.value.message
            assert rules.dump_position(state) == dumped
