"""What the card games' phrasebooks must never say: the checks their words tests share.

A text players read (an action's words, a log line, a refusal) is non-empty, has no
snake_case word, no payload key spelled out ("no build possible", "runes:"), no seat
number, no "(s)" or literal "…", no Python quotes ('Phalanx'), and spells every count
with the plural it needs ("1 Parts card", "2 Runes", never "1 cards" nor "3 Rune").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from companion.errors import RuleViolation
from companion.events import Event

from .random_play import GameRules, random_game

#: Counted nouns of the two card games: singular → plural.
NOUNS: dict[str, str] = {
    "card": "cards",
    "Rune": "Runes",
    "level": "levels",
    "Colossus": "Colossi",
    "Accessory": "Accessories",
    "Blueprint": "Blueprints",
    "right": "rights",
    "Part": "Parts",
    "Head": "Heads",
    "Leg": "Legs",
    "Arm": "Arms",
    "Torso": "Torsos",
    "Wing": "Wings",
    "Wild": "Wilds",
}
_PLURALS = {plural: singular for singular, plural in NOUNS.items()}
# A number, then words that qualify the noun ("Parts", "Action", "Weakness" ...).
_COUNTED = re.compile(
    r"(?<![\w/.−-])(\d+) ((?:Parts|Action|Advanced Action|Weakness|Grip|destroy|listed|more"
    r"|discarded|missing|(?:Colossus|Final Blow)(?= cards?\b)) )?"
    r"([A-Z]?[a-z]+)\b(?!')"
)
_SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
_SEAT_NUMBER = re.compile(r"\b(?:partner|target|player|seat|seats)\s*#?\d")
_PYTHON_QUOTE = re.compile(r"'[^' ]+'(?!s\b)")


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
    found: list[str] = []
    if not text.strip():
        return ["empty"]
    found.extend(f"snake_case {m}" for m in _SNAKE.findall(text))
    found.extend(f"payload key {m.group(0)!r}" for m in keys.finditer(text))
    found.extend(f"seat number {m.group(0)!r}" for m in _SEAT_NUMBER.finditer(text))
    found.extend(f"Python quotes {m.group(0)}" for m in _PYTHON_QUOTE.finditer(text))
    for bad in ("(s)", "…", "..."):
        if bad in text:
            found.append(f"{bad!r}")
    for match in _COUNTED.finditer(text):
        number, noun = int(match.group(1)), match.group(3)
        if abs(number) == 1 and noun in _PLURALS:
            found.append(f"wrong plural {match.group(0)!r}")
        if abs(number) != 1 and noun in NOUNS:
            found.append(f"wrong plural {match.group(0)!r}")
    return found


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
