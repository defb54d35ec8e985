"""Option fields, declared one way in every game.

Every house-rule option of every game is a field whose default is the answer of a ruling
(RULINGS.md Appendix A) and which names that ruling: the kiosk shows the description and
the ruling to players when they set up a game, and the protocol schema publishes both.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import Field

T = TypeVar("T")


def option(
    default: T,
    description: str,
    ruling: str,
    *,
    ge: int | None = None,
    le: int | None = None,
) -> T:
    """An option field: its default is the ruling's answer, and it names that ruling."""
    return Field(
        default=default,
        ge=ge,
        le=le,
        description=description,
        json_schema_extra={"ruling": ruling},
    )
