"""Random legal play interleaved with random manual corrections (RULINGS 0.2.1).

Shared by every game's correction tests: a correction template (prefilled with the
current values) is changed at random — one number moved, a token moved from one count
to another (which keeps totals), a switch flipped, a beaten piece put back — and sent.
Accepted ones become part of the game; refused ones must be RuleViolations or
malformed-action errors and change nothing. The caller checks its invariants after every
step; replaying the accepted actions must reproduce the game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable
from typing import Any

from companion.errors import InvalidAction, RuleViolation
from companion.games.corrections import CORRECTION_TEXT, is_correction
from tests.games.random_play import GameRules, replay

Path = tuple[str | int, ...]


def _leaves(node: Any, path: Path = ()) -> list[tuple[Path, Any]]:
    out: list[tuple[Path, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key != "type":
                out.extend(_leaves(value, (*path, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_leaves(value, (*path, i)))
    elif node is None or isinstance(node, bool | int):
        out.append((path, node))
    return out


def _set(node: Any, path: Path, value: Any) -> None:
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


def mutate(template: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """A random edit of a correction template, as a player might make in its form."""
    payload = copy.deepcopy(template)
    leaves = _leaves(payload)
    numbers = [(p, v) for p, v in leaves if isinstance(v, int) and not isinstance(v, bool)]
    if not leaves:
        return payload
    pick = rnd.random()
    if pick < 0.45 and len(numbers) >= 2:  # move tokens between two counts (keeps totals)
        (src, a), (dst, b) = rnd.sample(numbers, 2)
        amount = rnd.randint(1, 3)
        _set(payload, src, a - amount)
        _set(payload, dst, b + amount)
    elif pick < 0.85 and numbers:
        path, value = rnd.choice(numbers)
        _set(payload, path, value + rnd.choice([-2, -1, 1, 2, 3]))
    else:
        path, value = rnd.choice(leaves)
        if isinstance(value, bool):
            _set(payload, path, not value)
        elif value is None:
            _set(payload, path, rnd.randint(0, 10))
        else:
            _set(payload, path, None)
    return payload


def try_correction(rules: GameRules, state: Any, rnd: random.Random) -> tuple[Any, Any] | None:
    """Send one random edit of a random template; (action, new state) if accepted."""
    templates = rules.corrections(state)
    if not templates:
        return None
    payload = mutate(rules.dump_action(rnd.choice(templates)), rnd)
    try:
        action = rules.parse_action(payload)
    except InvalidAction:
        return None
    try:
        new, events = rules.apply(state, action)
    except RuleViolation as exc:
        assert exc.message and exc.ruling, f"a refused correction names its ruling: {exc}"
        return None
    assert events and events[0].text.startswith(CORRECTION_TEXT), events
    return action, new


def play_with_corrections(
    rules: GameRules,
    start: Any,
    seed: int,
    steps: int,
    check: Callable[[Any], None],
    correction_rate: float = 0.3,
) -> tuple[Any, list[Any], int]:
    """Random weighted legal play with corrections mixed in.

    Returns the final state, every accepted action, and how many were corrections.
    ``check`` is called on every new state; at the end, replaying the accepted actions
    must reproduce the game and the final position must survive dump and load.
    """
    rnd = random.Random(seed)
    state = start
    actions: list[Any] = []
    fixes = 0
    for _ in range(steps):
        if rules.outcome(state) is not None:
            break
        if rnd.random() < correction_rate:
            for _attempt in range(4):
                done = try_correction(rules, state, rnd)
                if done is not None:
                    action, state = done
                    actions.append(action)
                    fixes += 1
                    check(state)
                    break
            continue
        listed = list(rules.legal_actions(state))
        assert listed, f"stuck after a correction: {rules.status(state)}"
        assert not any(is_correction(a) for a in listed), "legal_actions lists a correction"
        weights = [max(1, rules.interest(state, a)) for a in listed]
        action = rnd.choices(listed, weights)[0]
        state, _ = rules.apply(state, action)
        actions.append(action)
        check(state)
    assert replay(rules, start, actions) == state
    assert rules.load_position(rules.dump_position(state)) == state
    return state, actions, fixes


def accepted_corrections(
    rules: GameRules, starts: Iterable[tuple[Any, int]], steps: int, check: Callable[[Any], None]
) -> int:
    """How many random corrections were accepted over games from ``(start, seed)`` pairs:
    the property tests above would be vacuous if every random correction were refused."""
    return sum(play_with_corrections(rules, start, seed, steps, check)[2] for start, seed in starts)
