"""The one base class for every value that travels: states, actions, events, options.

Frozen so that a state can never change behind the journal's back, and
``extra="forbid"`` so that a misspelt field in a protocol line or a position file
is refused instead of silently ignored. A changed copy is made with
:meth:`Frozen.evolve`, which checks each new value against its field; pydantic's
``model_copy(update=...)`` checks nothing (a list would stand where a tuple belongs, a
string where a number does, until a dump or a replay tripped over it).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, TypeAdapter
from typing_extensions import TypedDict


class Frozen(BaseModel):
    """An immutable, validated value. Change it with :meth:`evolve`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def evolve(self, changes: Mapping[str, Any], /) -> Self:
        """A copy with ``changes``, each validated strictly against its field's type and
        limits; a wrong value raises pydantic's ``ValidationError`` (a bug, not input)."""
        checker = _changes_checker(type(self), tuple(changes))
        return self.model_copy(update=checker.validate_python(changes, strict=True))


@cache
def _changes_checker(model: type[BaseModel], names: tuple[str, ...]) -> TypeAdapter[Any]:
    """A validator of just the fields ``names`` of ``model`` (one call per change; a game
    changes the same few sets of fields over and over)."""
    unknown = set(names) - set(model.model_fields)
    if unknown:
        raise ValueError(f"{model.__name__} has no field {', '.join(sorted(unknown))}")
    fields = {
        name: Annotated[model.model_fields[name].annotation, model.model_fields[name]]
        for name in names
    }
    change: Any = TypedDict(f"{model.__name__}Change", fields)  # type: ignore[misc]
    return TypeAdapter(change)
