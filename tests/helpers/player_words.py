"""The one checker of texts players read: what a protocol says and a table does not.

:func:`text_problems` returns the problems of one text: empty, a snake_case word, an
island space by its ID (``r3c3``), a hedged "(s)", a literal "…" (a cut text), a count
with the wrong plural ("1 cards", "3 Colossus left"), an abbreviation a player must
decode ("4 MP", "3 AP left", "W 1 · G 8", "Grip req"), and a payload key spelled out
with its value ("cls W", "Swap: a (0, 0), b (0, 1)"). Each game's words test adds its
own part (Kolossus piece ids, the card games' seat numbers) through ``extra``.

Cheap: one combined pattern rules out most texts in a single pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: Counted nouns of every game (and the kiosk's own counts): singular → plural.
NOUNS: dict[str, str] = {
    "Acolyte": "Acolytes",
    "Accessory": "Accessories",
    "Action": "Actions",
    "Arm": "Arms",
    "Banner": "Banners",
    "Beast": "Beasts",
    "Blueprint": "Blueprints",
    "Colossus": "Colossi",
    "Crystal": "Crystals",
    "Head": "Heads",
    "Lair": "Lairs",
    "Leg": "Legs",
    "Movement": "Movements",
    "Part": "Parts",
    "Rune": "Runes",
    "Torso": "Torsos",
    "Trait": "Traits",
    "Wild": "Wilds",
    "Wing": "Wings",
    "action": "actions",
    "card": "cards",
    "crystal": "crystals",
    "cube": "cubes",
    "die": "dice",
    "game": "games",
    "level": "levels",
    "miniature": "miniatures",
    "piece": "pieces",
    "player": "players",
    "point": "points",
    "right": "rights",
    "round": "rounds",
    "space": "spaces",
    "square": "squares",
    "step": "steps",
    "tile": "tiles",
    "token": "tokens",
    "turn": "turns",
}
_SINGULAR = frozenset(NOUNS)
_PLURAL = frozenset(NOUNS.values())
#: Lowercase words that may stand between a number and its noun ("2 more Movements",
#: "1 movement point", "1 listed Part"); any capitalised word may too ("1 Parts card").
_QUALIFIERS = frozenset(
    {
        "more", "fewer", "extra", "listed", "missing", "discarded", "destroy", "other",
        "unused", "movement", "activation", "mana", "pool",
    }
)  # fmt: skip
_COUNT = re.compile(r"(?<![\w/.,−–-])(-?\d+)((?: [A-Za-z]+){1,4})")

#: Abbreviations a player must decode, as whole words (case matters: "AP", not "ap").
ABBREVIATIONS = frozenset(
    {
        "AP", "MP", "VP", "HP", "PV", "pts", "Pts", "pt", "req", "Req", "reqs", "cls",
        "Cls", "def", "Def", "atk", "Atk", "att", "lvl", "Lvl", "lv", "qty", "num",
        "nb", "max", "Max", "min", "Min", "approx", "etc", "eg", "ie", "incl", "excl",
        "mov", "Mov", "mvt", "cnt", "tot",
    }
)  # fmt: skip
_ABBREVIATION = re.compile(rf"\b(?:{'|'.join(sorted(ABBREVIATIONS))})\b\.?|\b(?:e\.g|i\.e)\.")
#: A one-letter label before its number ("W 1 · G 8") or a placeholder count ("N cards").
_LETTER_LABEL = re.compile(r"(?<![\w'’-])(?:[A-HJ-Z] \d|N (?=[a-z]))")
_SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
_SPACE_ID = re.compile(r"\br\d+c\d+\b")
#: Any of the above at all: most texts are ruled out by this one search.
_SUSPECT = re.compile(
    "|".join(f"(?:{p.pattern})" for p in (_COUNT, _ABBREVIATION, _LETTER_LABEL, _SNAKE, _SPACE_ID))
    + r"|\(s\)|…|\.\.\."
)
#: A payload key and its value as one item of a list, the way labels made of payloads
#: wrote them ("Swap: a (0, 0), b (0, 1)"; "in slot 1" is a sentence, not an item).
_KEY_VALUE = r"(?:^|[:,;] ){key}:? {value}(?=$|[,;.]| /)"
#: Payload keys that are also the words a sentence says them with ("from (1, 2) to (3, 4)").
_PLAIN_WORDS = frozenset({"to", "from", "at", "on", "in", "by", "with", "for", "of", "into"})


def _value_forms(value: Any) -> set[str]:
    """How a value was written after its key when labels were made of payloads."""
    if isinstance(value, bool):
        return {"yes", "no", str(value)}
    if isinstance(value, str):
        row, sep, col = value.partition(",")
        return {value, f"({row}, {col})"} if sep else {value}
    if isinstance(value, list | tuple):  # an empty one was "none": "take none" is English
        return {"+".join(str(v) for v in value)} if value else set()
    return {str(value)}


def _count_problem(number: str, words: str) -> str | None:
    """The wrong plural of one count: its noun is the last of the first run of nouns
    after the number ("10 Colossus cards": cards), qualifiers allowed before it."""
    said = words.split()
    head: str | None = None
    for word in said:
        if word in _SINGULAR or word in _PLURAL:
            head = word
        elif head is not None or not (word in _QUALIFIERS or word[0].isupper()):
            break
    if head is None:
        return None
    one = abs(int(number)) == 1
    if one and head in _PLURAL and head not in _SINGULAR:
        return f"one with a plural {number} {head!r}"
    if not one and head in _SINGULAR and head not in _PLURAL:
        return f"a count with a singular {number} {head!r}"
    return None


def text_problems(
    text: str,
    payload: Mapping[str, Any] | None = None,
    *,
    keys: re.Pattern[str] | None = None,
    extra: Mapping[str, re.Pattern[str]] | None = None,
) -> list[str]:
    """What is wrong with one text players read (empty: nothing).

    ``payload``: the action the text says, if any (its keys must not be spelled out with
    their values); ``keys``: a game's payload field names as a pattern (anywhere in the
    text is wrong); ``extra``: a game's own faults, by name."""
    if not text.strip():
        return ["empty"]
    found: list[str] = []
    if _SUSPECT.search(text) is not None:
        found.extend(f"a snake_case word {m!r}" for m in _SNAKE.findall(text))
        found.extend(f"a space ID {m!r}" for m in _SPACE_ID.findall(text))
        if "(s)" in text:
            found.append('a hedged "(s)"')
        if "…" in text or "..." in text:
            found.append('a literal "…"')
        for match in _COUNT.finditer(text):
            problem = _count_problem(match.group(1), match.group(2))
            if problem is not None:
                found.append(problem)
        found.extend(f"an abbreviation {m.group(0)!r}" for m in _ABBREVIATION.finditer(text))
        found.extend(f"a one-letter label {m.group(0)!r}" for m in _LETTER_LABEL.finditer(text))
    if keys is not None:
        found.extend(f"a payload key {m.group(0)!r}" for m in keys.finditer(text))
    for name, pattern in (extra or {}).items():
        if pattern.search(text):
            found.append(name)
    for key, value in (payload or {}).items():
        if key == "type" or value is None or key in _PLAIN_WORDS:
            continue
        spoken = re.escape(key.replace("_", " "))
        for form in _value_forms(value):  # as labels made of keys wrote them
            if re.search(_KEY_VALUE.format(key=spoken, value=re.escape(form)), text):
                found.append(f"the payload key {key!r} with its value")
                break
    return found
