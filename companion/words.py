"""Counts as players read them: a number and its noun, singular only for one.

Every game spells its counts with :func:`count` ("1 card", "0 cards", "2 Parts cards",
"3 Colossi"), so a message never says "1 cards" or "2 card(s)".
"""

from __future__ import annotations

from collections.abc import Sequence


def count(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, singular for exactly one (-1 too: "-1 card" is one card less).

    The plural is ``word`` + "s" unless ``plural`` names it: irregular ones are passed
    explicitly (``count(2, "die", "dice")``, ``count(3, "Colossus", "Colossi")``).
    Only the last word of a phrase takes the ending: ``count(2, "Parts card")`` is
    "2 Parts cards"; for a noun followed by more words, count the noun and add them
    (``count(2, "Crystal") + " of Time"``).
    """
    if abs(n) == 1:
        return f"{n} {word}"
    return f"{n} {plural if plural is not None else word + 's'}"


def and_list(items: Sequence[str]) -> str:
    """Items as a sentence lists them: "Ann", "Ann and Bob", "Ann, Bob and Cleo"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
