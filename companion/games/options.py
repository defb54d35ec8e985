"""Option fields, declared one way in every game, in the words players use.

Every option of every game is a field whose default is the answer of a ruling (RULINGS.md
Appendix A) and which names that ruling. It also carries what a person reads when setting
up a game: a short label, a one-line description, the group it belongs to (movement,
mana, end of game …), the players' words for each value it can take, and whether it is a
house rule (an option Appendix A lists as another reading of the rule book: Setup folds
those under "More rules", the defaults being the rules as printed). The protocol's options
schema publishes all of it; field names and stored values never change with the words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

from pydantic import Field
from pydantic.config import JsonDict
from pydantic.fields import FieldInfo

T = TypeVar("T")

OptionGroup = Literal[
    "game",
    "table",
    "box",
    "start",
    "quake",
    "movement",
    "crystals",
    "mana",
    "weapons",
    "cards",
    "turns",
    "endgame",
]

#: Each group's heading, in the order Setup shows the groups.
GROUP_TITLES: dict[OptionGroup, str] = {
    "game": "The game",
    "table": "Around the table",
    "box": "What is in the box",
    "start": "Start",
    "quake": "Great Quake",
    "movement": "Movement",
    "crystals": "Crystals",
    "mana": "Mana",
    "weapons": "Titan Weapons",
    "cards": "Cards",
    "turns": "Turns",
    "endgame": "End of the game",
}

#: A value an option (or an entry of a list option) can take, as stored.
Choice = str | int | bool | None


def option(
    default: T,
    description: str,
    ruling: str,
    *,
    label: str,
    group: OptionGroup,
    words: Mapping[Choice, str] | None = None,
    house_rule: bool = False,
    seats: bool = False,
    ge: int | None = None,
    le: int | None = None,
) -> T:
    """An option field: its default is the ruling's answer, and it names that ruling.

    ``label`` (a few words) and ``description`` (one line) are what Setup shows;
    ``words`` gives the players' words for each value it can take (a choice, an entry of
    a list option, ``None`` for "the game decides"); ``seats``: its numbers are seats,
    shown as the players' names; ``house_rule``: another reading of the rule book
    (RULINGS.md Appendix A), folded under "More rules"."""
    extra: JsonDict = {"ruling": ruling, "group": group, "house_rule": house_rule}
    if words:
        extra["words"] = [[value, text] for value, text in words.items()]
    if seats:
        extra["seats"] = True
    field: T = Field(
        default=default,
        ge=ge,
        le=le,
        title=label,
        description=description,
        json_schema_extra=extra,
    )
    return field


@dataclass(frozen=True)
class OptionText:
    """What an option field declares for people (see :func:`option`)."""

    label: str
    description: str
    ruling: str | None
    group: OptionGroup | None
    house_rule: bool
    seats: bool
    words: tuple[tuple[Choice, str], ...]

    def word(self, value: Choice) -> str | None:
        """The players' words for ``value``, if the option gives them."""
        for known, text in self.words:
            if known == value and type(known) is type(value):
                return text
        return None


def option_text(name: str, info: FieldInfo) -> OptionText:
    """The declared texts of an option field; a field declared without :func:`option`
    (a test game's) gets its name as label and no group."""
    extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
    ruling = extra.get("ruling")
    group = extra.get("group")
    raw_words = extra.get("words")
    words: list[tuple[Choice, str]] = []
    if isinstance(raw_words, list):
        for pair in raw_words:
            if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], str):
                value = pair[0]
                if value is None or isinstance(value, str | int | bool):
                    words.append((value, pair[1]))
    return OptionText(
        label=info.title or name,
        description=info.description or "",
        ruling=None if ruling is None else str(ruling),
        group=next((known for known in GROUP_TITLES if known == group), None),
        house_rule=extra.get("house_rule") is True,
        seats=extra.get("seats") is True,
        words=tuple(words),
    )
