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
from typing import Any, Self

from pydantic import BaseModel, ConfigDict
from pydantic_core import SchemaValidator, core_schema

from companion.pydantic_compat import field_schemas


class Frozen(BaseModel):
    """An immutable, validated value. Change it with :meth:`evolve`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def evolve(self, changes: Mapping[str, Any], /) -> Self:
        """A copy with ``changes``, each validated strictly against its field's type and
        limits; a wrong value raises pydantic's ``ValidationError`` (a bug, not input)."""
        checker = _changes_checker(type(self), tuple(changes))
        return self.model_copy(update=checker.validate_python(changes, strict=True))


@cache
def _changes_checker(model: type[BaseModel], names: tuple[str, ...]) -> SchemaValidator:
    """A validator of just the fields ``names`` of ``model`` (one call per change; a game
    changes the same few sets of fields over and over). Made of the model's own field
    schemas, which pydantic has already built: a TypedDict of the fields rebuilt them
    (1.3–4 M instructions for each new set, a card game's first Trade or Build; this
    costs about 0.15 M)."""
    unknown = set(names) - set(model.model_fields)
    if unknown:
        raise ValueError(f"{model.__name__} has no field {', '.join(sorted(unknown))}")
    found = field_schemas(model)  # pydantic's own schema layout: pydantic_compat
    change: Any = core_schema.typed_dict_schema(
        {name: core_schema.typed_dict_field(found.fields[name]) for name in names},
        extra_behavior="forbid",
    )
    if found.definitions:
        change = core_schema.definitions_schema(change, found.definitions)
    return SchemaValidator(change)
