"""Random full games: they end, keep every count, and replay exactly."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.events import TableChanges
from companion.games.kolossus import RULES
from companion.games.kolossus.model import KolossusState, Move
from tests.faults.scale import scaled
from tests.games.random_play import random_game, replay
from tests.helpers.kolossus import check_invariants, game_options


def play(
    seed: int, players: int, options: dict[str, Any], bot_seed: int, limit: int = 4000
) -> tuple[KolossusState, list[Any], KolossusState]:
    start = RULES.setup(["Ann", "Bob", "Cleo", "Dov"][:players], RULES.parse_options(options), seed)
    played = random_game(RULES, start, bot_seed, limit, check_invariants)
    assert RULES.outcome(played.final) is not None, "the game did not end"
    for events in played.events:
        for event in events:
            if isinstance(event, TableChanges):
                assert [c.step for c in event.changes] == list(range(1, len(event.changes) + 1))
    return start, played.actions, played.final


@settings(max_examples=scaled(5, 24), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    players=st.sampled_from([2, 3, 4]),
    options=game_options(),
    bot_seed=st.integers(0, 2**31),
)
def test_random_games_end_keep_counts_and_replay(
    seed: int, players: int, options: dict[str, Any], bot_seed: int
) -> None:
    start, actions, final = play(seed, players, options, bot_seed)
    assert RULES.outcome(final) is not None and final.phase == "over"
    assert list(RULES.legal_actions(final)) == []
    assert replay(RULES, start, actions) == final
    assert RULES.load_position(RULES.dump_position(final)) == final
    sheet = RULES.scores(final)
    assert len(sheet.columns) == 6 and all(len(r.values) == 6 for r in sheet.rows)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), bot_seed=st.integers(0, 2**31), steps=st.integers(5, 250))
def test_refused_actions_leave_the_state_unchanged(seed: int, bot_seed: int, steps: int) -> None:
    start = RULES.setup(["Ann", "Bob", "Cleo", "Dov"], RULES.parse_options({"chapter": 3}), seed)
    rnd = random.Random(bot_seed)
    state = start
    seen: list[Any] = []
    for _ in range(steps):
        if RULES.outcome(state) is not None:
            break
        listed = list(RULES.legal_actions(state))
        seen.extend(rnd.sample(listed, min(3, len(listed))))
        state = RULES.apply(
            state, rnd.choices(listed, [RULES.interest(state, a) for a in listed])[0]
        )[0]
    before = state.model_dump()
    for stale in [*seen[-30:], Move.model_validate({"from": "5,5", "to": "0,0"})]:
        try:
            RULES.apply(state, stale)
        except RuleViolation as exc:
            assert exc.message
        assert state.model_dump() == before


@pytest.mark.slow
@settings(max_examples=scaled(6, 30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40), players=st.sampled_from([2, 3, 4]), bot_seed=st.integers(0, 2**31)
)
def test_random_chapter_three_games_with_default_rules(
    seed: int, players: int, bot_seed: int
) -> None:
    _, _, final = play(seed, players, {"chapter": 3}, bot_seed)
    assert RULES.outcome(final) is not None


def test_every_move_names_its_squares_and_the_mp_left() -> None:
    """Protocol truth: ``legal`` lists moves without a path (the referee takes the
    canonical one), and the MP left showed only in some phases; the move's own log line
    now names the squares entered and the movement points left (docs/games/kolossus.md)."""
    played = random_game(RULES, RULES.setup(["Ann", "Bob"], RULES.parse_options({}), 5), 5, 400)
    moves = [e.text for events in played.events for e in events if " moves from " in e.text]
    left = r"; (1 movement point|\d+ movement points) left\.$"  # counted in words
    assert moves and all(re.search(left, text) for text in moves), moves[:3]
    square = r"\(\d+, \d+\)"  # the rule book's notation, "(8, 8)"
    assert any(re.search(rf" by {square}( → {square})+; ", text) for text in moves)
    listed = [a for a in RULES.legal_actions(played.states[-1]) if isinstance(a, Move)]
    assert all(a.path is None for a in listed)
