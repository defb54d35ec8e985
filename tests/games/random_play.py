"""Random legal play and replay: the one way every game's tests play whole games.

Play is weighted by ``interest`` through :class:`companion.bot.RandomBot`, as in the
contract suite and the shop demo. Replay goes through the JSON form of every action, as
the journal does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.bot import RandomBot
from companion.events import Event
from companion.rules import Rules

#: Any one game's rules with its own types (``KolossusRules`` as much as the registry's
#: ``AnyRules``): the helpers take them all and hold the states and actions untyped.
GameRules = Rules[Any, Any, Any]


@dataclass
class Played:
    """A random game: every state (the start first), every action and its events."""

    states: list[Any]
    actions: list[Any] = field(default_factory=list)
    events: list[tuple[Event, ...]] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.states[-1]


def random_game(
    rules: GameRules,
    start: Any,
    bot_seed: int,
    limit: int,
    check: Callable[[Any], None] = lambda state: None,
) -> Played:
    """Up to ``limit`` random legal actions from ``start``, stopping at the outcome.

    ``check`` is called on every new state. Whether the game ended is the caller's
    question (``rules.outcome(played.final)``): some tests only want a position.
    """
    bot = RandomBot(bot_seed)
    played = Played(states=[start])
    state = start
    for _ in range(limit):
        if rules.outcome(state) is not None:
            break
        action = bot.choose(rules, state)
        assert action is not None, f"no legal action but no outcome: {rules.status(state)}"
        state, events = rules.apply(state, action)
        check(state)
        played.states.append(state)
        played.actions.append(action)
        played.events.append(events)
    return played


def replay(rules: GameRules, start: Any, actions: list[Any]) -> Any:
    """Replay through the JSON form of every action, as the journal does."""
    state = start
    for action in actions:
        state, _ = rules.apply(state, rules.parse_action(rules.dump_action(action)))
    return state
