"""Fuzzing the JSON-lines referee: no line can stop it, none is an ``internal_error``.

Three kinds of input, all five games: mutations of real requests (the actions ``legal``
offers, with a field removed, added, retyped or replaced by hostile values: lone
surrogates, huge or negative integers, deep nesting, NUL), random JSON values, and
random bytes through the stdin/stdout loop itself (where a reply that could not be
encoded once stopped the process). Invariants: exactly one JSON reply per line; never
``internal_error``; ``hello`` is answered after every bad line; a refused action leaves
the state and the journal as they were.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.journal import Journal
from companion.protocol import Referee
from companion.rules import AnyRules
from kiosk.cli import serve_referee
from tests.faults.scale import PLAYERS, report, scaled

GAMES = tuple(PLAYERS)

HOSTILE: list[Any] = [
    None,
    True,
    -1,
    0,
    2**63,
    -(2**63) - 1,
    10**300,
    1.5,
    float("1e308"),
    "",
    "\ud800",
    "\udfff x",
    "\x00",
    "\u202e",
    "x" * 5000,
    [],
    {},
    [[[[[[[[[[1]]]]]]]]]],
    {"type": {"type": {}}},
    [1, "a", None],
]
"""Values that once broke a parser or a database somewhere."""


def _referee() -> Referee:
    return Referee(Journal(":memory:"), lambda: 4321)


def _start(referee: Referee, game: str, seed: int) -> AnyRules:
    from companion.games import get_rules

    rules = get_rules(game)
    players = PLAYERS[game]
    reply = json.loads(
        referee.handle(json.dumps({"cmd": "new", "game": game, "players": players, "seed": seed}))
    )
    assert reply["ok"], reply
    return rules


class Checker:
    """Sends one line, checks the reply and what a refusal must leave alone."""

    def __init__(self, referee: Referee) -> None:
        self.referee = referee
        self.lines = 0
        self.refused = 0

    def send(self, line: str | bytes) -> dict[str, Any]:
        session = self.referee.session
        state = None if session is None else session.state
        actions = None if session is None else len(session.actions)
        text = self.referee.handle(line)
        text.encode("utf-8")  # what the stdin/stdout loop does; a surrogate would raise
        reply = json.loads(text)
        self.lines += 1
        assert isinstance(reply, dict) and isinstance(reply.get("ok"), bool), reply
        if not reply["ok"]:
            self.refused += 1
            error = reply["error"]
            assert error["code"] != "internal_error", (line[:300], error)
            assert isinstance(error["message"], str) and error["message"], reply
            if session is not None and self.referee.session is session:
                assert session.state is state, f"a refusal changed the state: {error}"
                assert len(session.actions) == actions
        return reply

    def legal(self) -> list[dict[str, Any]]:
        reply = self.send('{"cmd":"legal","limit":50}')
        actions: list[dict[str, Any]] = reply["actions"]
        return actions


def _mutate(value: Any, rnd: random.Random, depth: int = 0) -> Any:
    """One random change somewhere inside a JSON value."""
    if isinstance(value, dict) and value and depth < 4 and rnd.random() < 0.7:
        key = rnd.choice(sorted(value))
        change = rnd.random()
        out = dict(value)
        if change < 0.15:
            del out[key]
        elif change < 0.25:
            out[rnd.choice(["extra", "type", "\ud800", "", "player"])] = rnd.choice(HOSTILE)
        else:
            out[key] = _mutate(value[key], rnd, depth + 1)
        return out
    if isinstance(value, list) and value and depth < 4 and rnd.random() < 0.7:
        out_list = list(value)
        index = rnd.randrange(len(out_list))
        out_list[index] = _mutate(out_list[index], rnd, depth + 1)
        return out_list
    if isinstance(value, bool):
        return rnd.choice([not value, 1, "true"])
    if isinstance(value, int):
        return rnd.choice([value + 1, value - 1, -value, value * 1000, 2**64, str(value)])
    if isinstance(value, str):
        return rnd.choice([value + "\ud800", value.upper(), value[:-1], "", value * 3])
    return rnd.choice(HOSTILE)


def _mutated_requests(seed: int, lines: int) -> Checker:
    """Play each game a little, sending mutated copies of real requests in between."""
    rnd = random.Random(seed)
    referee = _referee()
    checker = Checker(referee)
    per_game = max(1, lines // len(GAMES))
    for game in GAMES:
        _start(referee, game, rnd.randrange(1 << 32))
        sent_before = checker.lines
        while checker.lines - sent_before < per_game:
            actions = checker.legal()
            if not actions:  # the game is over: another one
                _start(referee, game, rnd.randrange(1 << 32))
                continue
            chosen = rnd.choice(actions)
            for _ in range(8):
                request: Any = {"cmd": "act", "action": chosen, "id": rnd.randrange(100)}
                roll = rnd.random()
                if roll < 0.6:
                    request["action"] = _mutate(chosen, rnd)
                elif roll < 0.8:
                    request = _mutate(request, rnd)
                else:
                    request = rnd.choice(
                        [
                            {"cmd": "highlights", "focus": _mutate("5,5", rnd)},
                            {"cmd": "legal", "limit": rnd.choice(HOSTILE)},
                            {"cmd": "resume", "game_id": rnd.choice(HOSTILE)},
                            {"cmd": "load", "game": game, "position": _mutate({}, rnd)},
                        ]
                    )
                checker.send(json.dumps(request))
            checker.send(json.dumps({"cmd": "act", "action": chosen}))
    return checker


def test_mutated_requests_in_all_five_games() -> None:
    lines = scaled(5_000, 80_000)
    checker = _mutated_requests(seed=11, lines=lines)
    assert checker.refused > checker.lines // 4  # the mutations really were refused
    report("protocol_fuzz_mutations", lines=checker.lines, internal_errors=0, tracebacks=0)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["cmd", "id", "game", "action", "type", "x"]), children)
    ),
    max_leaves=12,
)


@pytest.mark.slow
@settings(
    max_examples=scaled(200, 10_000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    command=st.sampled_from(
        ["new", "load", "resume", "act", "legal", "highlights", "state", "hello", "nope"]
    ),
    body=st.dictionaries(st.sampled_from(["game", "players", "action", "id", "seed"]), json_values),
)
def test_random_json_requests(command: str, body: dict[str, Any]) -> None:
    referee = _referee()
    _start(referee, "builders", 7)
    checker = Checker(referee)
    checker.send(json.dumps({"cmd": command, **body}))
    assert checker.send('{"cmd":"hello","id":1}')["ok"]


def test_random_bytes_through_the_stdin_loop() -> None:
    """Every non-blank line gets one reply line of JSON; the loop never stops early."""
    rnd = random.Random(5)
    count = scaled(3_000, 20_000)
    pieces = [b'{"cmd":"act","action":{"type":"draw"}}', b'{"cmd":"hello"}', b'"\\ud800"', b"\\u"]
    lines = []
    for _ in range(count):
        if rnd.random() < 0.5:
            line = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 40)))
        else:
            piece = bytearray(rnd.choice(pieces))
            for _ in range(rnd.randrange(1, 4)):
                piece[rnd.randrange(len(piece))] = rnd.randrange(256)
            line = bytes(piece)
        lines.append(line.replace(b"\n", b" "))
    lines.append(b'{"cmd":"hello","id":"end"}')
    referee = _referee()
    _start(referee, "builders", 3)
    out = io.BytesIO()
    serve_referee(referee, io.BytesIO(b"\n".join(lines) + b"\n"), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(replies) == sum(1 for line in lines if line.strip())
    assert all(r["ok"] or r["error"]["code"] != "internal_error" for r in replies)
    assert replies[-1]["id"] == "end" and replies[-1]["ok"]
    report("protocol_fuzz_bytes", lines=len(lines), internal_errors=0, tracebacks=0)
