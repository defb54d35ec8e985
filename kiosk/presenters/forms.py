"""Action forms: enter an action with open amounts field by field.

``legal_actions`` lists only samples of actions with open amounts (a trade's size, the
stats read off the table, a Final Blow card's numbers), while ``apply`` accepts the
whole legal range. A form turns the action's pydantic model into steppers (ints, within
the field's bounds), switches (bools) and choices (Literals), prefilled from a listed
example; nested models (``Stats``) and per-seat tuples (a Curse's Runes per player)
become one stepper per entry. Submitting goes through the same path as a tap.

Every text is the game's (companion/rules.py, "words", through :class:`FormWords`): the
title is the family's (``Rules.family_title``, also for an action not yet complete),
a field's label its title (``Rules.field_words``), a choice or a value as players say
it (``Rules.value_words``), a seat as its player's name — never a payload's key.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, JsonValue
from pydantic.fields import FieldInfo
from pydantic_core import to_jsonable_python

from companion.rules import AnyRules, GameState
from kiosk.presenters.common import int_bounds
from kiosk.presenters.payloads import Payload

FieldKind = Literal["stepper", "switch", "choice"]
DEFAULT_MAX = 99
SEAT_FIELDS = ("partner", "target", "player", "seat", "opponent", "victim")


@dataclass(frozen=True)
class FormField:
    path: tuple[str | int, ...]  # where the value sits in the payload
    label: str
    kind: FieldKind
    value: JsonValue
    minimum: int = 0
    maximum: int = DEFAULT_MAX
    choices: tuple[JsonValue, ...] = ()
    optional: bool = False  # None is allowed (shown as "—")
    choice_labels: tuple[str, ...] = ()  # what players read for each choice

    @property
    def key(self) -> str:
        return ".".join(str(p) for p in self.path)

    @property
    def can_decrease(self) -> bool:
        """A stepper's − is on: above its minimum, or optional (it steps down to —)."""
        value = self.value
        return value is not None and (
            (isinstance(value, int) and value > self.minimum) or self.optional
        )

    @property
    def can_increase(self) -> bool:
        """A stepper's + is on: below its maximum, or empty (optional, "—")."""
        value = self.value
        return value is None or (isinstance(value, int) and value < self.maximum)

    @property
    def value_text(self) -> str:
        if self.value is None:
            return "—"
        if self.choice_labels and self.value in self.choices:
            return self.choice_labels[self.choices.index(self.value)]
        if isinstance(self.value, bool):
            return "Yes" if self.value else "No"
        return str(self.value)


@dataclass(frozen=True)
class FormView:
    type: str
    title: str
    fields: tuple[FormField, ...]


@dataclass(frozen=True)
class FormWords:
    """What a form of one game in one position says (the rules' phrasebook)."""

    rules: AnyRules
    state: GameState

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.state.players)

    def title(self, action_type: str) -> str:
        return self.rules.family_title(action_type)

    def field(self, action_type: str, model: type[BaseModel], name: str, parent: str = "") -> str:
        """A field's label: its title in the action's model (``Rules.field_words``); a
        field of a nested model (a card's attack) by its own title after its parent's
        label ("Card: Attack: Destroy")."""
        if not parent:
            return self.rules.field_words(action_type, name)
        info = model.model_fields.get(name)
        own = info.title if info is not None and info.title else None
        return f"{parent}: {own or self.rules.field_words(action_type, name)}"

    def value(self, action_type: str, field: str, value: object) -> str:
        return self.rules.value_words(self.state, action_type, field, value)


def _unwrap_optional(annotation: object) -> tuple[object, bool]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return annotation, False


def _fields_of(
    model: type[BaseModel],
    example: Payload,
    prefix: tuple[str | int, ...],
    words: FormWords,
    action_type: str,
    parent: str = "",
) -> list[FormField]:
    out: list[FormField] = []
    seats = words.seats
    for name, info in model.model_fields.items():
        if name == "type":
            continue
        annotation, optional = _unwrap_optional(info.annotation)
        value = example[name] if name in example else _default(info)
        path = (*prefix, name)
        label = words.field(action_type, model, name, parent)
        origin = typing.get_origin(annotation)
        if annotation is bool and optional:
            out.append(
                FormField(
                    path,
                    label,
                    "choice",
                    value,
                    choices=(None, True, False),
                    choice_labels=("Auto", "Yes", "No"),
                    optional=True,
                )
            )
        elif annotation is bool:
            out.append(FormField(path, label, "switch", bool(value)))
        elif annotation is int and name in SEAT_FIELDS and seats and not optional:
            out.append(
                FormField(
                    path,
                    label,
                    "choice",
                    value,
                    choices=tuple(range(len(seats))),
                    choice_labels=seats,
                )
            )
        elif annotation is int:
            low, high = int_bounds(info)
            out.append(
                FormField(
                    path,
                    label,
                    "stepper",
                    value,
                    0 if low is None else low,
                    DEFAULT_MAX if high is None else high,
                    optional=optional,
                )
            )
        elif origin is Literal:
            choices = tuple(typing.get_args(annotation))
            said = tuple(words.value(action_type, name, c) for c in choices)
            out.append(FormField(path, label, "choice", value, choices=choices, choice_labels=said))
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if isinstance(value, dict):
                out.extend(_fields_of(annotation, value, path, words, action_type, label))
        elif origin is tuple and isinstance(value, list):
            args = typing.get_args(annotation)
            if args and args[0] is int:
                for i, item in enumerate(value):
                    out.append(FormField((*path, i), f"{label} {i + 1}", "stepper", item))
        elif origin is dict and isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, int):
                    key_words = words.value(action_type, name, key)
                    out.append(FormField((*path, key), f"{label}: {key_words}", "stepper", item))
    return out


def _default(info: FieldInfo) -> JsonValue:
    """A field's default as a payload holds it (None for a required field): a nested
    model as its dump, a tuple as a list."""
    if info.is_required():
        return None
    dumped: JsonValue = to_jsonable_python(info.get_default(call_default_factory=True))
    return dumped


class ActionForm:
    """One action being filled in; ``payload()`` is what gets submitted."""

    def __init__(
        self,
        model: type[BaseModel],
        example: Payload,
        words: FormWords,
        view: FormView | None = None,
    ) -> None:
        """``view``: the view of a form made from the same ``example`` before (views are
        values: the play presenter keeps the first view of each listed example)."""
        self.model = model
        self.type = str(example.get("type"))
        self.payload_data: Payload = _copied(example)
        self.words = words
        self.seats = words.seats
        self._view: FormView | None = view  # made again after each change of a value

    def view(self) -> FormView:
        if self._view is None:
            fields = _fields_of(self.model, self.payload_data, (), self.words, self.type)
            fields = [self._seat_labels(f) for f in fields]
            title = self.words.title(self.type)
            self._view = FormView(type=self.type, title=title, fields=tuple(fields))
        return self._view

    def _seat_labels(self, field: FormField) -> FormField:
        """Per-seat tuples and seat fields are labelled with player names."""
        if len(field.path) == 2 and isinstance(field.path[1], int) and self.seats:
            seat = field.path[1]
            if 0 <= seat < len(self.seats):
                named = self.words.field(self.type, self.model, str(field.path[0]))
                label = f"{named}: {self.seats[seat]}"
                return dataclasses.replace(field, label=label)
        return field

    def _field(self, key: str) -> FormField | None:
        return next((f for f in self.view().fields if f.key == key), None)

    def _set(self, path: tuple[str | int, ...], value: JsonValue) -> None:
        node: JsonValue = self.payload_data
        for part in path[:-1]:
            node = _inside(node, part)
        last = path[-1]
        if isinstance(node, dict) and isinstance(last, str):  # noqa: SIM114 (typed apart)
            node[last] = value
        elif isinstance(node, list) and isinstance(last, int):
            node[last] = value
        else:
            raise KeyError(f"{self.type}: no field at {path} of the payload")
        self._view = None

    def step(self, key: str, delta: int) -> None:
        field = self._field(key)
        if field is None or field.kind != "stepper":
            return
        current = field.minimum - delta if field.value is None and delta > 0 else field.value
        if not isinstance(current, int):
            return
        new = current + delta
        if new < field.minimum:
            if field.optional:
                self._set(field.path, None)
            return
        if new <= field.maximum:
            self._set(field.path, new)

    def toggle(self, key: str) -> None:
        field = self._field(key)
        if field is not None and field.kind == "switch":
            self._set(field.path, not field.value)

    def choose(self, key: str, value: JsonValue) -> None:
        field = self._field(key)
        if field is not None and field.kind == "choice" and value in field.choices:
            self._set(field.path, value)

    def payload(self) -> Payload:
        return _copied(self.payload_data)


def _inside(node: JsonValue, part: str | int) -> JsonValue:
    """The value at ``part`` of a payload's dict or list."""
    if isinstance(node, dict) and isinstance(part, str):
        return node[part]
    if isinstance(node, list) and isinstance(part, int):
        return node[part]
    raise KeyError(f"no {part!r} in {node!r}")


def _copied(payload: Payload) -> Payload:
    return {k: _deep_copy(v) for k, v in payload.items()}


def _deep_copy(data: JsonValue) -> JsonValue:
    if isinstance(data, dict):
        return {k: _deep_copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_deep_copy(v) for v in data]
    return data
