"""The pydantic internals the referee relies on, gathered in one place and checked.

:meth:`companion.model.Frozen.evolve` validates a change against just the changed
fields, with a validator made of the model's own field schemas. pydantic builds those
schemas already, but their shape (``__pydantic_core_schema__``: a model schema wrapping,
through validators and definition references, a ``model-fields`` schema) is pydantic's
own, not its public API; pydantic is locked (requirements.lock) for that reason. A
pydantic that moved it on is refused here with a message that names the versions, not
with a KeyError inside the first move of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pydantic
import pydantic_core
from pydantic import BaseModel

TESTED_PYDANTIC_MAJOR = 2


class IncompatiblePydantic(RuntimeError):
    """The installed pydantic builds its core schemas in a shape this module cannot read."""


@dataclass(frozen=True)
class FieldSchemas:
    """A model's field schemas, and the definitions they may refer to."""

    fields: Mapping[str, Any]
    definitions: list[Any]


def _refuse(model: type[BaseModel], what: str) -> IncompatiblePydantic:
    return IncompatiblePydantic(
        f"pydantic {pydantic.VERSION} (pydantic-core {pydantic_core.__version__}) builds "
        f"{model.__name__}'s core schema without {what}, which Frozen.evolve reads "
        f"(companion/pydantic_compat.py). Install the locked versions: scripts/setup, or "
        f"pip install -c requirements.lock ."
    )


def field_schemas(model: type[BaseModel]) -> FieldSchemas:
    """The core schema of each of ``model``'s fields, as pydantic built it."""
    if int(pydantic.VERSION.split(".")[0]) != TESTED_PYDANTIC_MAJOR:
        raise _refuse(model, f"the pydantic {TESTED_PYDANTIC_MAJOR} layout")
    schema: Any = getattr(model, "__pydantic_core_schema__", None)
    if not isinstance(schema, Mapping) or "type" not in schema:
        raise _refuse(model, "a __pydantic_core_schema__ mapping")
    definitions: list[Any] = list(schema.get("definitions", []))  # models nested or shared
    seen = 0
    while schema.get("type") != "model-fields":  # through the model and its validators
        seen += 1
        if seen > 32:
            raise _refuse(model, "a model-fields schema")
        if schema.get("type") == "definition-ref":
            found = [d for d in definitions if d.get("ref") == schema.get("schema_ref")]
            if not found:
                raise _refuse(model, f"the definition {schema.get('schema_ref')!r}")
            schema = found[0]
        elif isinstance(schema.get("schema"), Mapping):
            schema = schema["schema"]
        else:
            raise _refuse(model, "a model-fields schema")
    fields = schema.get("fields")
    if not isinstance(fields, Mapping) or any(
        not isinstance(f, Mapping) or "schema" not in f for f in fields.values()
    ):
        raise _refuse(model, "a schema for each field")
    return FieldSchemas({name: field["schema"] for name, field in fields.items()}, definitions)
