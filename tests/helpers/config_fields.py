"""Walking the bridge settings models: every numeric setting by its dotted key."""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator

from pydantic import BaseModel
from pydantic.fields import FieldInfo


def numeric_fields(
    model: type[BaseModel], prefix: str = "", seen: frozenset[type] = frozenset()
) -> Iterator[tuple[str, FieldInfo]]:
    """Every int or float setting (or one that may be left out) below ``model``, by its
    dotted key. Lists of pins are checked pin by pin by the models' own validators."""
    for name, info in model.model_fields.items():
        annotation = info.annotation
        union = typing.get_origin(annotation) in (typing.Union, types.UnionType)
        options = typing.get_args(annotation) if union else (annotation,)
        for option in options:
            if isinstance(option, type) and issubclass(option, BaseModel) and option not in seen:
                yield from numeric_fields(option, f"{prefix}{name}.", seen | {option})
        if annotation is not bool and any(o in (int, float) for o in options):
            yield f"{prefix}{name}", info
