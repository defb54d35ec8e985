"""The docked on-screen keyboard and the name field that types with it.

Kivy's :class:`~kivy.uix.vkeyboard.VKeyboard` loads its key layout on a ``Clock``
trigger, a frame after it is made, but the window shows it (and routes touches to it)
as soon as a text field takes the focus. A second finger landing where the keyboard
appears in that same frame reached ``get_key_at_pos`` before the layout existed and
ended the app with ``KeyError: 'LINE_HINT_1'`` (Kivy's own report: kivy/kivy#5865).
Only the first keyboard of a process is exposed, so every restart re-armed it.

:class:`LaidOutKeyboard` fixes it at the root: its layout is loaded in ``__init__``,
before the window can add it; and its key lookup answers "no key" rather than raising
if the geometry is ever missing (a layout switch in flight). :func:`install` makes the
window use it; :class:`kiosk.app.Kiosk` calls it.

:class:`NameInput` is a one-line field that holds at most ``max_chars`` characters (a
player's name: no more than is kept, ``companion.rules.MAX_NAME_LENGTH``), and
:func:`keyboard_top` / :func:`lift_above_keyboard` keep the field being typed into
above the docked keyboard.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.vkeyboard import VKeyboard
from kivy.uix.widget import Widget

if TYPE_CHECKING:  # importing the window module opens the window
    from kivy.core.window import WindowBase

#: Space between the field's bottom edge and the keyboard's top.
KEYBOARD_MARGIN = 12


class LaidOutKeyboard(VKeyboard):  # type: ignore[misc]
    """A VKeyboard whose keys exist from the moment it is made."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        # Now, not on the next frame: the layout and the shift/normal mode.
        self._trigger_load_layout.cancel()
        self._load_layout()
        self._trigger_update_layout_mode.cancel()
        self._update_layout_mode()

    def laid_out(self) -> bool:
        """Whether every row of the current layout has its key geometry."""
        layout = self.available_layouts.get(self.layout)
        if layout is None:
            return False
        geometry = self.layout_geometry
        return all(f"LINE_HINT_{row}" in geometry for row in range(1, int(layout["rows"]) + 1))

    def get_key_at_pos(self, x: float, y: float) -> object:
        """The key under (x, y), or None (no key) while there is no layout to look in."""
        if not self.laid_out():
            return None
        return super().get_key_at_pos(x, y)


def install(window: WindowBase) -> None:
    """Make ``window`` create :class:`LaidOutKeyboard` for text fields (idempotent)."""
    window.set_vkeyboard_class(LaidOutKeyboard)


def keyboard_top(window: WindowBase) -> float:
    """The top of the docked keyboard in window pixels (0 when none is shown)."""
    tops = [
        child.y + child.height * child.scale
        for child in window.children
        if isinstance(child, VKeyboard)
    ]
    return max(tops, default=0.0)


def lift_above_keyboard(scroll: ScrollView, field: Widget, top: float) -> float:
    """Scroll ``scroll`` so that ``field`` sits above ``top`` (the keyboard's); the
    content must be tall enough (the caller pads it by the keyboard's height). Returns
    how far the field had to move (0: it was clear already)."""
    _x, bottom = field.to_window(field.x, field.y)
    need = top + KEYBOARD_MARGIN - bottom
    if need <= 0 or scroll.viewport_size[1] <= scroll.height:
        return 0.0
    step = scroll.convert_distance_to_scroll(0, need)[1]
    scroll.scroll_y = max(0.0, min(1.0, scroll.scroll_y - step))
    return float(need)


class NameInput(TextInput):  # type: ignore[misc]
    """A one-line field that never holds more than ``max_chars`` characters: what it
    shows is what is kept (typed or pasted text beyond that is cut off)."""

    def __init__(self, max_chars: int, **kwargs: object) -> None:
        self.max_chars = max_chars
        super().__init__(multiline=False, **kwargs)

    def insert_text(self, substring: str, from_undo: bool = False) -> object:
        room = self.max_chars - len(self.text)  # a selection typed over is gone already
        if room <= 0:
            return None
        return super().insert_text(substring[:room], from_undo=from_undo)
