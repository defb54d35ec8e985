"""What differs between two positions of one game, in plain words.

Versioned replay compares each position the journal saved (what the table saw) with the
position the rules on this machine reach from the same moves. A difference means the
rules changed under the game; :func:`position_changes` names it — which counts differ,
and their two values — for the resume's report and the kiosk's banner.
"""

from __future__ import annotations

import json
from typing import Any

from companion.words import count

CHANGES_SHOWN = 8
"""At most this many differences are named one by one; the rest are counted."""


def as_saved(position: dict[str, Any]) -> Any:
    """``position`` as the journal stores and reads it back (JSON: tuples become lists),
    so a freshly dumped position compares equal to a saved one."""
    return json.loads(json.dumps(position, sort_keys=True))


def position_changes(table: Any, recomputed: Any, *, shown: int = CHANGES_SHOWN) -> tuple[str, ...]:
    """Each difference as ``"warbands 2 supply: 11 on the table, 17 by these rules"``;
    empty when the positions are the same. Beyond ``shown`` differences, one last line
    says how many more there are."""
    found: list[str] = []
    _walk(table, recomputed, (), found)
    if len(found) > shown:
        more = len(found) - shown
        found = [*found[:shown], f"and {count(more, 'more difference')}"]
    return tuple(found)


def _walk(table: Any, recomputed: Any, path: tuple[str, ...], found: list[str]) -> None:
    if table == recomputed:
        return
    if isinstance(table, dict) and isinstance(recomputed, dict):
        for key in sorted(table.keys() | recomputed.keys()):
            where = (*path, key.replace("_", " "))
            if key in table and key in recomputed:
                _walk(table[key], recomputed[key], where, found)
            else:
                found.append(_differ(where, table.get(key), recomputed.get(key)))
        return
    if isinstance(table, list) and isinstance(recomputed, list):
        if len(table) == len(recomputed):
            named = (*path[:-1], _singular(path[-1])) if path else ()
            for index, (left, right) in enumerate(zip(table, recomputed, strict=True)):
                _walk(left, right, (*named, str(index + 1)), found)
            return
        found.append(_differ(path, len(table), len(recomputed)))
        return
    found.append(_differ(path, table, recomputed))


def _differ(path: tuple[str, ...], table: Any, recomputed: Any) -> str:
    return f"{_name(path)}: {_value(table)} on the table, {_value(recomputed)} by these rules"


def _singular(word: str) -> str:
    """``warbands 2`` reads ``warband 2``; ``pieces``, ``boxes`` and ``class`` stay."""
    return word[:-1] if word.endswith("s") and not word.endswith(("ss", "es")) else word


def _name(path: tuple[str, ...]) -> str:
    return " ".join(path) if path else "the position"


def _value(value: Any) -> str:
    if isinstance(value, dict | list):
        return "something" if value else "nothing"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
