"""The library internals the app relies on (companion/pydantic_compat.py and
kiosk/kivy_compat.py): each is read as the installed version builds it, and a version
that moved one on is refused with a message that names it, not a KeyError mid-game."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, field_validator

from companion.model import Frozen
from companion.pydantic_compat import IncompatiblePydantic, field_schemas
from kiosk.kivy_compat import (
    CLOCK_MEMBERS,
    IncompatibleKivy,
    check_clock,
    check_touch_provider,
    installed_kivy,
)


class Leaf(Frozen):
    count: int


class Tree(Frozen):
    """A model with a validator (wrapping its fields' schema) and a nested, shared model
    (a definition reference)."""

    name: str
    leaves: tuple[Leaf, ...] = ()
    first: Leaf | None = None

    @field_validator("name")
    @classmethod
    def _named(cls, value: str) -> str:
        return value.strip()


def test_each_field_schema_is_found_through_validators_and_references() -> None:
    found = field_schemas(Tree)
    assert set(found.fields) == {"name", "leaves", "first"}
    assert set(field_schemas(Leaf).fields) == {"count"}
    tree = Tree(name="oak", leaves=(Leaf(count=1),))
    assert tree.evolve({"leaves": (Leaf(count=2),), "first": Leaf(count=3)}).leaves[0].count == 2


def _model_with(schema: Any) -> type[BaseModel]:
    class Odd(BaseModel):
        pass

    Odd.__pydantic_core_schema__ = schema
    return Odd


@pytest.mark.parametrize(
    ("schema", "missing"),
    [
        ({"type": "model", "schema": {"type": "something-new"}}, "model-fields"),
        ({"type": "definition-ref", "schema_ref": "gone", "definitions": []}, "'gone'"),
        ({"type": "model-fields", "fields": {"a": {"no-schema": 1}}}, "a schema for each field"),
        ("not a mapping", "__pydantic_core_schema__"),
    ],
)
def test_a_schema_of_another_shape_is_refused_by_name(schema: Any, missing: str) -> None:
    with pytest.raises(IncompatiblePydantic, match="pydantic 2") as refused:
        field_schemas(_model_with(schema))
    assert missing in str(refused.value) and "requirements.lock" in str(refused.value)


def test_the_installed_kivy_clock_has_what_the_pace_uses() -> None:
    from kivy.clock import Clock

    check_clock(Clock)


class _ClockWithout:
    def __init__(self, gone: str) -> None:
        for name in CLOCK_MEMBERS:
            if name != gone:
                setattr(self, name, None)


@pytest.mark.parametrize("gone", CLOCK_MEMBERS)
def test_a_clock_without_an_internal_is_refused_by_name(gone: str) -> None:
    from kiosk.pace import IdlePace

    with pytest.raises(IncompatibleKivy) as refused:
        IdlePace(_ClockWithout(gone))
    text = str(refused.value)
    assert gone in text and f"Kivy {installed_kivy()}" in text and "kiosk/pace.py" in text


def test_the_installed_touch_providers_have_their_reader_loop() -> None:
    from kivy.input import MotionEventFactory

    from kiosk.touch_wake import THREADED_PROVIDERS

    found = [MotionEventFactory.get(name) for name in THREADED_PROVIDERS]
    present = [provider for provider in found if provider is not None]
    if not present:
        pytest.skip("this machine has none of Kivy's threaded touch providers")
    for provider in present:
        check_touch_provider(provider)


def test_a_touch_provider_without_its_reader_loop_is_refused() -> None:
    from kiosk.touch_wake import install, uninstall

    class Provider:
        pass

    try:
        with pytest.raises(IncompatibleKivy, match=r"_thread_run.*kiosk/touch_wake\.py"):
            install(lambda: None, [Provider])
    finally:
        uninstall()
