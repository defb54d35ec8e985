"""The play screen's forms area: a form's title, its fields (steppers, switches, rows of
choices) and Submit / Cancel, made once per form shape in a game and relabelled in place.

A form's widgets depend on the action's model (its fields), their values change with
each tap: :meth:`FormArea.widgets` makes them the first time a form of this shape opens
and keeps them; :meth:`FormArea.update` sets the values shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from kiosk import theme
from kiosk.presenters.forms import FormField, FormView
from kiosk.screens.play_actions import Act
from kiosk.screens.play_parts import column, scroll_of
from kiosk.widgets.basic import KButton, KLabel, Stepper, button

FORM_ROW = 52
#: Letters of choice labels that fit beside a field's name in one form row.
CHOICES_IN_A_ROW = 14


@dataclass
class FieldWidgets:
    """The widgets that show one field's value: its stepper, its on/off button, or its
    choice buttons (in the order of the field's choices)."""

    stepper: Stepper | None = None
    switch: KButton | None = None
    choices: list[KButton] = field(default_factory=list)


@dataclass
class _Made:
    widgets: list[Widget]
    fields: dict[str, FieldWidgets]


def form_shape(form: FormView) -> object:
    """What a form's widgets are made from (its values are shown in place)."""
    return (
        form.type,
        form.title,
        tuple((f.key, f.kind, f.label, f.choices, f.choice_labels) for f in form.fields),
    )


def step_limits(form_field: FormField) -> dict[str, bool]:
    """Which of − and + a form's number field allows (an optional one steps down to —)."""
    return {
        "can_decrease": form_field.can_decrease,
        "can_increase": form_field.can_increase,
    }


class FormArea:
    """The forms of the game on screen, by shape; ``act`` calls the presenter on screen."""

    def __init__(self, act: Act) -> None:
        self.act = act
        self._made: dict[object, _Made] = {}
        self._shown: dict[str, FieldWidgets] = {}

    def forget(self) -> None:
        """Another game: other actions, other forms."""
        self._made = {}
        self._shown = {}

    def widgets(self, form: FormView) -> list[Widget]:
        """The form's widgets, made the first time a form of this shape opens in this
        game and kept: its fields depend on the action's model, their values change in
        place (:meth:`update`)."""
        shape = form_shape(form)
        made = self._made.get(shape)
        if made is None:
            made = self._made[shape] = self._make(form)
        self._shown = made.fields
        return made.widgets

    def _make(self, form: FormView) -> _Made:
        title = KLabel(
            text=form.title, size_hint_y=None, height=34, bold=True, font_size=theme.FONT_LARGE
        )
        rows = column()
        fields: dict[str, FieldWidgets] = {}
        for form_field in form.fields:
            fields[form_field.key] = self._field_row(form_field, rows)
        buttons = BoxLayout(size_hint_y=None, height=theme.BUTTON_HEIGHT, spacing=theme.SPACING)
        buttons.add_widget(
            button("Submit", lambda: self.act(lambda p: p.forms.submit()), role="accent")
        )
        buttons.add_widget(
            button("Cancel", lambda: self.act(lambda p: p.forms.cancel()), size_hint_x=0.5)
        )
        return _Made([title, scroll_of(rows), buttons], fields)

    def _field_row(self, form_field: FormField, rows: Widget) -> FieldWidgets:
        """One field's row in ``rows``: its name, then its stepper, switch or choices."""
        key = form_field.key
        row = BoxLayout(size_hint_y=None, height=FORM_ROW, spacing=theme.SPACING)
        parts = FieldWidgets()
        name = KLabel(text=form_field.label, font_size=theme.FONT_SMALL)
        name.shorten = False  # a long player name wraps onto a second line
        row.add_widget(name)
        if form_field.kind == "stepper":
            parts.stepper = Stepper(row, lambda d: self.act(lambda p: p.forms.step(key, d)))
        elif form_field.kind == "switch":
            parts.switch = button(
                form_field.value_text,
                lambda: self.act(lambda p: p.forms.toggle(key)),
                size_hint_x=None,
                width=110,
            )
            row.add_widget(parts.switch)
        else:
            labels = [
                form_field.choice_labels[index] if form_field.choice_labels else str(choice)
                for index, choice in enumerate(form_field.choices)
            ]
            choices: Widget = row
            if sum(len(label) for label in labels) > CHOICES_IN_A_ROW:
                # Long choices (players' names) get rows of two under the field's
                # name instead of squeezing beside it.
                row.orientation = "vertical"
                row.spacing = 2
                choices = GridLayout(cols=2, spacing=theme.SPACING)
                row.add_widget(choices)
                name.size_hint_y = None
                name.height = FORM_ROW // 2
                lines = -(-len(labels) // 2)
                row.height = name.height + lines * (FORM_ROW + theme.SPACING)
            for label, choice in zip(labels, form_field.choices, strict=True):
                choice_button = button(
                    label,
                    lambda c=choice: self.act(lambda p: p.forms.choose(key, c)),
                    font_size=theme.FONT_SMALL,
                )
                parts.choices.append(choice_button)
                choices.add_widget(choice_button)
        rows.add_widget(row)
        return parts

    def update(self, form: FormView) -> None:
        """Same fields, new values: change texts and states in place."""
        for form_field in form.fields:
            parts = self._shown.get(form_field.key)
            if parts is None:
                continue
            if parts.stepper is not None:
                parts.stepper.show(form_field.value_text, **step_limits(form_field))
            elif parts.switch is not None:
                parts.switch.text = form_field.value_text
                parts.switch.role = "accent" if form_field.value else "normal"
            else:
                for widget, choice in zip(parts.choices, form_field.choices, strict=True):
                    widget.role = "accent" if choice == form_field.value else "normal"
