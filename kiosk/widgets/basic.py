"""The kiosk's buttons and labels (their looks live in ``kiosk/kv/widgets.kv``)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.graphics import Color, Rectangle
from kivy.properties import ListProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from kiosk import theme


class KButton(Button):  # type: ignore[misc]
    """A finger-sized button. ``role`` is "normal", "accent" or "danger"."""

    role = StringProperty("normal")


class BannerButton(Button):  # type: ignore[misc]
    """The play screen's refusal banner: the whole message wrapped, as high as it needs,
    never shortened with "…" (not a KButton, whose one-line labels shorten), closed by a
    tap."""


class ChoiceButton(KButton):
    """A legal action: left-aligned, up to two lines, for long labels in narrow columns."""


class KToggle(ToggleButton):  # type: ignore[misc]
    """A choice in a row of choices (one group per option)."""


class KLabel(Label):  # type: ignore[misc]
    """Left-aligned, wrapping text in the body size."""


class StatusLabel(Label):  # type: ignore[misc]
    """The play screen's status, its text drawn from its left edge: the screen breaks it
    into lines that fit (then Kivy lays each line out whole, as wide as it is) or lets
    it wrap at the label's width (``PlayScreen._show_status``). Not a KLabel: that
    always wraps at its width, and Kivy wrapping a line measures every run of its words
    anew; nor as wide as its text: a new width would lay the header out again."""


class WrapLabel(Label):  # type: ignore[misc]
    """Text that wraps and grows downwards (log lines, descriptions)."""


class SmallLabel(WrapLabel):
    """Secondary text (descriptions, ruling IDs)."""


class TitleLabel(KLabel):
    """Screen titles and the player whose turn it is."""


class Swatch(Widget):  # type: ignore[misc]
    """A filled square in a player's colour."""

    colour = ListProperty([1.0, 1.0, 1.0, 1.0])

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            self._colour = Color(*self.colour)
            self._rect = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._redraw, size=self._redraw, colour=self._redraw)

    def _redraw(self, *_: object) -> None:
        self._colour.rgba = self.colour
        self._rect.pos = self.pos
        self._rect.size = self.size


def button(
    text: str,
    on_release: Callable[..., object],  # called with no arguments (lambdas with defaults)
    *,
    role: str = "normal",
    cls: type[KButton] = KButton,
    **kwargs: object,
) -> KButton:
    """A KButton (or ``cls``) wired to a zero-argument callback."""
    widget = cls(text=text, role=role, **kwargs)
    widget.bind(on_release=lambda *_: on_release())
    return widget


class Stepper:
    """− value + in a row: the one way the kiosk enters a number (setup and forms).

    ``show`` updates the value and which buttons work in place, so a tap does not
    rebuild the row.
    """

    def __init__(
        self,
        row: Widget,
        on_step: Callable[..., object],  # called with the step, +1 or -1
        *,
        button_width: int = 56,
        value_width: int = 44,
    ) -> None:
        self.minus = button("−", lambda: on_step(-1), size_hint_x=None, width=button_width)
        self.value = KLabel(
            size_hint_x=None, width=value_width, halign="center", font_size=theme.FONT_LARGE
        )
        self.plus = button("+", lambda: on_step(1), size_hint_x=None, width=button_width)
        for widget in (self.minus, self.value, self.plus):
            row.add_widget(widget)

    def show(self, text: str, *, can_decrease: bool, can_increase: bool) -> None:
        self.value.text = text
        self.minus.disabled = not can_decrease
        self.plus.disabled = not can_increase


__all__ = [
    "BannerButton",
    "ChoiceButton",
    "KButton",
    "KLabel",
    "KToggle",
    "SmallLabel",
    "StatusLabel",
    "Stepper",
    "Swatch",
    "TitleLabel",
    "WrapLabel",
    "button",
    "theme",
]
