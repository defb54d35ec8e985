"""The contract every game keeps, run against each registered game and the toy game.

Random play weighted by ``interest`` must reach an outcome within a bound; every action
that ``legal_actions`` lists must be accepted; a refused action leaves the session and
its journal untouched; a position survives dump and load; a journal replays to the
same state.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.bot import RandomBot
from companion.errors import RuleViolation
from companion.games import SUMMARIES, GameSummary, available_games, game_summary, get_rules
from companion.games.corrections import CORRECTION_PREFIX, CORRECTION_TEXT, is_correction
from companion.journal import Journal
from companion.rules import AnyRules
from companion.session import Session

# The most actions a random game may take before we call it endless.
MAX_ACTIONS = {"kolossus": 4000, "beast_master": 6000, "colossi": 8000}
DEFAULT_MAX_ACTIONS = 3000

GAMES: list[AnyRules] = [get_rules(n) for n in available_games()]


def _player_counts(rules: AnyRules) -> list[int]:
    return list(range(rules.min_players, rules.max_players + 1))


def _names(count: int) -> list[str]:
    return ["Ann", "Bob", "Cleo", "Dov", "Eve", "Fay"][:count]


def play_to_end(session: Session, bot: RandomBot, limit: int) -> None:
    """Play random legal actions; fail if the game does not end within ``limit``."""
    rules = session.rules
    for _ in range(limit):
        if session.outcome is not None:
            return
        action = bot.choose(rules, session.state)
        assert action is not None, f"{rules.name}: no legal action but no outcome"
        session.submit(action)
    pytest.fail(f"{rules.name}: no outcome after {limit} random actions")


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**62), bot_seed=st.integers(0, 2**31), data=st.data())
def test_random_play_ends_and_replays(
    rules: AnyRules, seed: int, bot_seed: int, data: st.DataObject
) -> None:
    players = _names(data.draw(st.sampled_from(_player_counts(rules)), label="players"))
    journal = Journal(":memory:")
    session = Session.new(rules, players, seed=seed, journal=journal)
    play_to_end(session, RandomBot(bot_seed), MAX_ACTIONS.get(rules.name, DEFAULT_MAX_ACTIONS))
    assert rules.legal_actions(session.state) is not None
    assert list(rules.legal_actions(session.state)) == [], "actions listed after the end"
    resumed, damage = Session.resume(journal, session.game_id or 0)
    assert damage is None
    assert resumed.state == session.state
    assert resumed.outcome == session.outcome
    rules.scores(session.state)  # the score sheet of a finished game can be built


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**62), bot_seed=st.integers(0, 2**31), steps=st.integers(0, 150))
def test_listed_actions_are_accepted_and_positions_round_trip(
    rules: AnyRules, seed: int, bot_seed: int, steps: int
) -> None:
    session = Session.new(rules, _names(rules.min_players), seed=seed)
    bot = RandomBot(bot_seed)
    for _ in range(steps):
        if session.outcome is not None:
            break
        state = session.state
        listed = list(rules.legal_actions(state))
        for action in listed[:: max(1, len(listed) // 25)]:  # a spread of up to ~25
            rules.apply(state, action)  # raises if a listed action is refused
        session.submit(bot.choose(rules, state))
    state = session.state
    dumped = rules.dump_position(state)
    assert rules.load_position(dumped) == state
    rules.status(state)
    rules.highlights(state)
    rules.current_player(state)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**62), bot_seed=st.integers(0, 2**31), steps=st.integers(1, 120))
def test_refused_action_changes_nothing(
    rules: AnyRules, seed: int, bot_seed: int, steps: int
) -> None:
    journal = Journal(":memory:")
    session = Session.new(rules, _names(rules.max_players), seed=seed, journal=journal)
    bot = RandomBot(bot_seed)
    seen: list[Any] = []
    for _ in range(steps):
        if session.outcome is not None:
            break
        listed = list(rules.legal_actions(session.state))
        seen.extend(listed[:5])
        session.submit(bot.choose(rules, session.state))
    game_id = session.game_id or 0
    for stale in seen[-40:]:
        before_state, before_entries = session.state, journal.game(game_id).entries
        try:
            session.submit(stale)
        except RuleViolation as exc:
            assert exc.message, "a refusal needs a message"
            assert session.state is before_state
            assert journal.game(game_id).entries == before_entries
        else:
            session.undo()
            assert session.state == before_state
        if session.outcome is not None:
            break


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**62), bot_seed=st.integers(0, 2**31), steps=st.integers(0, 120))
def test_0_2_1_corrections_are_listed_apart_and_judged_like_actions(
    rules: AnyRules, seed: int, bot_seed: int, steps: int
) -> None:
    """Manual corrections (RULINGS 0.2.1) are never in ``legal_actions`` (random play and
    the demo never pick one); their templates survive the JSON form and are accepted, or
    refused with a ruling and no change. Corrections end with the game."""
    session = Session.new(rules, _names(rules.min_players), seed=seed)
    bot = RandomBot(bot_seed)
    for _ in range(steps):
        if session.outcome is not None:
            break
        session.submit(bot.choose(rules, session.state))
    state = session.state
    listed = list(rules.legal_actions(state))
    assert not any(is_correction(a) for a in listed), "a correction is listed as legal"
    templates = rules.corrections(state)
    if session.outcome is not None:
        assert templates == ()
    for template in templates:
        assert is_correction(template) and rules.dump_action(template)["type"].startswith(
            CORRECTION_PREFIX
        )
        assert rules.parse_action(rules.dump_action(template)) == template
        try:
            new, events = rules.apply(state, template)
        except RuleViolation as exc:
            assert exc.message and exc.ruling
        else:
            assert events[0].text.startswith(CORRECTION_TEXT)
            assert rules.load_position(rules.dump_position(new)) == new
    assert session.state is state


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_action_models_are_the_tags_the_protocol_accepts(rules: AnyRules) -> None:
    """The forms read the action models from the game's union (``Rules.action_models``),
    not from pydantic's internal schema; they must be exactly the protocol's tags."""
    schema = rules.action_adapter.json_schema()
    tags = set(schema["discriminator"]["mapping"])
    models = rules.action_models()
    assert set(models) == tags
    for tag, model in models.items():
        assert model.model_fields["type"].default == tag


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.name)
def test_a_games_summary_says_what_its_rules_say(rules: AnyRules) -> None:
    """The home screen lists the games from companion.games.SUMMARIES without loading
    their modules: each summary must agree with the game's own Rules."""
    assert game_summary(rules.name) == GameSummary(
        rules.title, rules.min_players, rules.max_players
    )
    assert rules.name in SUMMARIES or rules.name == "toy_pig"  # the toy game: tests only


def test_the_home_screen_lists_the_games_without_loading_them() -> None:
    """The five games' modules load when one is chosen."""
    code = (
        "import sys\n"
        "from companion.journal import Journal\n"
        "from kiosk.presenters.home import HomePresenter\n"
        "view = HomePresenter(Journal(':memory:')).view()\n"
        "assert len(view.games) == 5, view\n"
        "print(sorted(m for m in sys.modules if m.startswith('companion.games.')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-1000:]
    # The island package itself (a docstring) is how find_spec sees its two games.
    assert result.stdout.strip() == "['companion.games.island']"
