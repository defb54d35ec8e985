"""What the card games' phrasebooks must never say: the checks their words tests share.

A text players read (an action's words, a log line, a refusal) passes the one checker of
tests/helpers/player_words.py (no snake_case word, "(s)", "…", abbreviation or wrong
plural: "1 Parts card", "2 Runes", never "1 cards" nor "3 Rune"), spells out no payload
key ("no build possible", "runes:"), and, as only the card games could, names no seat by
its number and puts no name in Python quotes ('Phalanx').
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from companion.errors import RuleViolation
from companion.events import Event
from tests.helpers.player_words import text_problems

from .random_play import GameRules, random_game

#: What only the card games could say wrong, beside the shared checker's faults.
CARD_GAMES = {
    "a seat number": re.compile(r"\b(?:partner|target|player|seat|seats)\s*#?\d"),
    "Python quotes": re.compile(r"'[^' ]+'(?!s\b)"),
}


def payload_words(rules: GameRules) -> re.Pattern[str]:
    """Every field name of the game's action models as the kiosk's default spelled it
    ("no build possible", "rune cost") anywhere, and a "key:" label where a list of
    fields puts one: first, or after ": " or ", " ("Curse: runes: ...")."""
    spelt: set[str] = set()
    labels: set[str] = set()
    for model in rules.action_models().values():
        for name in model.model_fields:
            if name != "type" and "_" in name:
                spelt.add(re.escape(name.replace("_", " ")))
            labels.add(re.escape(f"{name}:"))
    return re.compile(
        rf"\b(?:{'|'.join(sorted(spelt))})\b|(?:^|[:,] )(?:{'|'.join(sorted(labels))})"
    )


_NO_KEYS = re.compile(r"(?!)")


def faults(text: str, keys: re.Pattern[str] = _NO_KEYS) -> list[str]:
    """Everything wrong with ``text`` as players would read it (empty: nothing)."""
    return text_problems(text, keys=keys, extra=CARD_GAMES)


def assert_says_well(text: str, where: str, keys: re.Pattern[str] = _NO_KEYS) -> None:
    problems = faults(text, keys)
    assert not problems, f"{where}: {text!r}: {', '.join(problems)}"


def played_positions(rules: GameRules, start: Any, seeds: Iterable[int], limit: int) -> list[Any]:
    """The states of random games from ``start`` (one per bot seed), every one kept."""
    states: list[Any] = []
    for seed in seeds:
        states.extend(random_game(rules, start, bot_seed=seed, limit=limit).states)
    return states


def check_positions(rules: GameRules, starts: Iterable[Any], limit: int) -> int:
    """Play from each start; every legal action's and every correction template's
    words, every event's text, and the refusal of every action listed elsewhere say
    well. Returns how many texts were read."""
    keys = payload_words(rules)
    titles = {kind: rules.family_title(kind) for kind in rules.action_models()}
    read = 0
    for index, start in enumerate(starts):
        played = random_game(rules, start, bot_seed=index, limit=limit)
        previous: tuple[Any, ...] = ()
        for number, state in enumerate(played.states):
            listed = (*rules.legal_actions(state), *rules.corrections(state))
            for action in listed:
                text = rules.describe(state, action)
                problems = faults(text, keys)
                if _has_objects(action) and text == titles[action.type]:
                    problems.append("the title alone, not the action's objects")
                assert not problems, f"state {number} of start {index}, {action!r}: {problems}"
                read += 1
            for action in previous[:12]:  # another state's actions, most refused here
                try:
                    _, events = rules.apply(state, action)
                except RuleViolation as exc:
                    assert_says_well(exc.message, f"refusal in state {number}", keys)
                else:
                    check_events(events, keys)
                read += 1
            previous = listed
        for events in played.events:
            check_events(events, keys)
            read += len(events)
    return read


def _has_objects(action: BaseModel) -> bool:
    """An action with a field set apart from its default: its words must name it."""
    for name, info in type(action).model_fields.items():
        if name == "type":
            continue
        if info.is_required() or getattr(action, name) != info.get_default(
            call_default_factory=True
        ):
            return True
    return False


def check_events(events: Iterable[Event], keys: re.Pattern[str] = _NO_KEYS) -> None:
    for event in events:
        assert_says_well(event.text, f"log line of {event.type}", keys)
        for change in getattr(event, "changes", ()):
            assert_says_well(change.instruction, f"table change of {event.type}", keys)
