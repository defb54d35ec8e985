"""An optional, user-maintained content file: known cards, Age cards and Environments.

The rules documents do not print any card, tile or Age text (principle 0.2.2), so the
referee never invents them. A table may describe the ones it owns as lists of the
generic effect primitives; then "play card X" is one action instead of several edits.
The kiosk reads the file and hands its JSON to :func:`parse_content`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, TypeAdapter, model_validator

from companion.games.parsing import parse_strict
from companion.model import Frozen

from .model import (
    CardKind,
    Effect,
)


class CardDef(Frozen):
    """A Colossus card: its kind (types are data, CA-R14) and what it does."""

    id: str = Field(min_length=1, max_length=64)
    name: str = ""
    kind: CardKind
    effects: tuple[Effect, ...] = ()


class AgeDef(Frozen):
    """A Colossi Age card: its Beasts (first-named Lair goes in the centre for Age I),
    an optional Action-Phase length (CA-R04) and Water spaces for its Setup (CA-R18)."""

    id: str = Field(min_length=1, max_length=64)
    name: str = ""
    age: Literal["I", "II", "III"] | None = None  # CA-R19 sub-decks
    beasts: tuple[str, ...] = Field(min_length=1)
    rounds: int | None = Field(default=None, ge=1, le=50)
    water: tuple[str, ...] = ()


class EnvironmentDef(Frozen):
    """An Environment tile and the effects it gives when harvested (Colossi)."""

    name: str = Field(min_length=1, max_length=64)
    effects: tuple[Effect, ...] = ()


class Content(Frozen):
    cards: tuple[CardDef, ...] = ()
    ages: tuple[AgeDef, ...] = ()
    environments: tuple[EnvironmentDef, ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> Content:
        for label, keys in (
            ("card", [c.id for c in self.cards]),
            ("Age card", [a.id for a in self.ages]),
            ("Environment", [e.name for e in self.environments]),
        ):
            dupes = sorted({k for k in keys if keys.count(k) > 1})
            if dupes:
                raise ValueError(f"{label} {dupes[0]!r} is listed twice")
        return self

    def card(self, card_id: str) -> CardDef | None:
        return next((c for c in self.cards if c.id == card_id), None)

    def age(self, age_id: str) -> AgeDef | None:
        return next((a for a in self.ages if a.id == age_id), None)

    def environment(self, name: str) -> EnvironmentDef | None:
        return next((e for e in self.environments if e.name == name), None)


_CONTENT: TypeAdapter[Content] = TypeAdapter(Content)


def parse_content(data: str | bytes | Mapping[str, Any]) -> Content:
    """A content file from JSON text or a dict; InvalidContent says what is wrong."""
    return parse_strict(_CONTENT, data, "Not a usable content file")
