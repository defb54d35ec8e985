"""The referee's ``suggest``: an action from the legal list, its reason, clear refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.journal import Journal
from companion.protocol import Referee


def referee_with(game: str, **options: Any) -> Referee:
    referee = Referee(Journal(":memory:"), lambda: 1234)
    reply = ask(
        referee, {"cmd": "new", "game": game, "players": ["Ann", "Bob"], "options": options}
    )
    assert reply["ok"], reply
    return referee


def ask(referee: Referee, request: dict[str, Any]) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(referee.handle(json.dumps(request)))
    return reply


def play_until_a_choice(referee: Referee) -> None:
    """Play the first legal action until there are several to choose from."""
    for _ in range(50):
        actions = ask(referee, {"cmd": "legal"})["actions"]
        if len(actions) > 1:
            return
        assert ask(referee, {"cmd": "act", "action": actions[0]})["ok"]
    raise AssertionError("no choice came up")


@pytest.mark.parametrize("game", ["kolossus", "builders"])
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_suggest_answers_an_action_from_the_legal_list_with_its_reason(
    game: str, level: str
) -> None:
    referee = referee_with(game)
    play_until_a_choice(referee)
    before = ask(referee, {"cmd": "dump"})
    legal = ask(referee, {"cmd": "legal"})["actions"]
    reply = ask(referee, {"cmd": "suggest", "level": level, "budget_ms": 30, "id": 7})
    assert reply["ok"] and reply["id"] == 7, reply
    assert reply["action"] in legal
    assert reply["reason"] and "\n" not in reply["reason"]
    assert reply["seat"] == ask(referee, {"cmd": "state"})["current_player"]
    assert reply["level"] == level
    assert ask(referee, {"cmd": "dump"}) == before  # a suggestion plays nothing
    assert ask(referee, {"cmd": "act", "action": reply["action"]})["ok"]


def test_the_same_seed_suggests_the_same_action() -> None:
    referee = referee_with("kolossus", chapter=2)
    play_until_a_choice(referee)
    request = {"cmd": "suggest", "level": "hard", "budget_ms": 20, "seed": 5}
    first, again = ask(referee, request), ask(referee, request)
    assert (first["action"], first["reason"]) == (again["action"], again["reason"])


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"cmd": "suggest", "level": "expert"}, "level"),
        ({"cmd": "suggest", "level": 3}, "level"),
        ({"cmd": "suggest", "budget_ms": 0}, "budget_ms"),
        ({"cmd": "suggest", "budget_ms": "fast"}, "budget_ms"),
        ({"cmd": "suggest", "budget_ms": 600_000}, "budget_ms"),
        ({"cmd": "suggest", "seed": -1}, "seed"),
    ],
)
def test_a_bad_level_or_budget_is_refused_naming_the_field(
    request_: dict[str, Any], field: str
) -> None:
    reply = ask(referee_with("kolossus"), request_)
    assert not reply["ok"]
    assert reply["error"]["code"] == "bad_request"
    assert reply["error"]["message"].startswith(f"Bad 'suggest' request: suggest.{field}:")


def test_suggest_needs_a_game_the_companion_plays_and_one_that_goes_on() -> None:
    referee = Referee(Journal(":memory:"), lambda: 1)
    assert ask(referee, {"cmd": "suggest"})["error"]["code"] == "no_game"
    solo = Referee(Journal(":memory:"), lambda: 1)
    ask(solo, {"cmd": "new", "game": "colossus_solo", "players": ["Ann"]})
    error = ask(solo, {"cmd": "suggest"})["error"]
    assert error["code"] == "no_suggestion"
    assert "plays kolossus and builders" in error["message"]


def test_suggest_after_the_end_says_the_game_is_over() -> None:
    referee = referee_with("builders")
    ended = ask(
        referee,
        {"cmd": "act", "action": {"type": "correct_built", "player": 0, "colossi": 10}},
    )
    assert ended["ok"] and ended["outcome"] is not None, ended
    error = ask(referee, {"cmd": "suggest"})["error"]
    assert error == {
        "code": "no_suggestion",
        "message": "The game is over: there is nothing to play.",
        **({"ruling": error["ruling"]} if "ruling" in error else {}),
    }
