"""The Xvfb tests' map of the screen (kiosk/ui_map.py): where a finger would tap.

A fault found once: the map gave a menu row scrolled half out of its list at the row's
own centre, 8 px from the list's edge, and the test's click there reached no row, so
the Kolossus game by clicks could not go on. A row is now tapped on the part of it that
shows.
"""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.scrollview import ScrollView

from kiosk.ui_map import MIN_SHOWN_PX, _tap_point

WINDOW = (800.0, 480.0)


def _list(rows: int, scroll_y: float) -> tuple[ScrollView, list[Button]]:
    scroll = ScrollView(size_hint=(None, None), size=(200, 200), pos=(100, 50))
    column = BoxLayout(orientation="vertical", size_hint_y=None, height=56 * rows)
    buttons = [Button(text=f"row {i}", size_hint_y=None, height=56) for i in range(rows)]
    for button in buttons:
        column.add_widget(button)
    scroll.add_widget(column)
    column.do_layout()
    scroll.scroll_y = scroll_y
    scroll.update_from_scroll()
    return scroll, buttons


def test_a_row_half_out_of_its_list_is_tapped_on_the_part_that_shows() -> None:
    _scroll, buttons = _list(rows=10, scroll_y=1.0)  # the top of the list: rows 0-2 whole
    assert _tap_point(buttons[0], *WINDOW) is not None
    for button in buttons:
        point = _tap_point(button, *WINDOW)
        bottom = button.to_window(button.x, button.y)[1]
        if point is None:
            shown = min(button.to_window(0, button.top)[1], 250) - max(bottom, 50)
            assert shown < MIN_SHOWN_PX, button.text
            continue
        x, y = point
        assert 100 <= x <= 300 and 50 + MIN_SHOWN_PX / 2 <= y <= 250 - MIN_SHOWN_PX / 2
        assert button.collide_point(*button.to_widget(x, y)), button.text
    partly = buttons[3]  # 200 px show 3 rows and 32 px of the fourth
    x, y = _tap_point(partly, *WINDOW) or (0.0, 0.0)
    assert y == 50 + 16  # the middle of the 32 px that show, not the row's own centre


def test_a_hidden_widget_has_no_tap_point() -> None:
    scroll, buttons = _list(rows=2, scroll_y=1.0)
    scroll.opacity = 0
    assert _tap_point(buttons[0], *WINDOW) is None
