"""Scroll views whose bar does not animate: a list that changes must not redraw for a second.

Kivy's ScrollView shows its bar whenever its content moves or changes size and, half a
second later, fades it out with an Animation of another half second: some fifteen
frames redrawn, on a Pi's slow CPU, after every move that changed a list's length (the
action menu, the log, the facts). Here the bar changes colour once, without frames in
between: :class:`QuietScrollBar` replaces the fade (Kivy 2.3's
``ScrollView._bind_inactive_bar_color``) with the fade's end.
"""

from __future__ import annotations

from kivy.uix.scrollview import ScrollView


class QuietScrollBar:
    """Mix into a ScrollView (before it) to end its bar's fade at once."""

    def _bind_inactive_bar_color(self, *_: object) -> None:
        view: ScrollView = self  # mixed into one (Kivy has no type hints)
        view.funbind("bar_color", view._change_bar_color)
        view.fbind("bar_inactive_color", view._change_bar_color)
        view._bar_color = view.bar_inactive_color


class QuietScrollView(QuietScrollBar, ScrollView):  # type: ignore[misc]
    """A ScrollView without the bar's fade animation (see the module's docstring)."""


__all__ = ["QuietScrollBar", "QuietScrollView"]
