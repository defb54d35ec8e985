"""The docked on-screen keyboard: laid out before it can be touched.

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
"""

from __future__ import annotations

from typing import Any

from kivy.uix.vkeyboard import VKeyboard


class LaidOutKeyboard(VKeyboard):  # type: ignore[misc]
    """A VKeyboard whose keys exist from the moment it is made."""

    def __init__(self, **kwargs: Any) -> None:
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

    def get_key_at_pos(self, x: float, y: float) -> Any:
        """The key under (x, y), or None (no key) while there is no layout to look in."""
        if not self.laid_out():
            return None
        return super().get_key_at_pos(x, y)


def install(window: Any) -> None:
    """Make ``window`` create :class:`LaidOutKeyboard` for text fields (idempotent)."""
    window.set_vkeyboard_class(LaidOutKeyboard)
