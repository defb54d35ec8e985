"""The docked on-screen keyboard and touches in the same frame (kiosk/widgets/keyboard.py).

The crash: on a fresh app, a finger lifting off the first name field (the keyboard
appears) and another landing where the keyboard appears, both in one frame, reached
Kivy's ``VKeyboard.get_key_at_pos`` before the keyboard had laid out its keys:
``KeyError: 'LINE_HINT_n'`` and the app exited (kivy/kivy#5865). Here the touches are
queued exactly so, on the real setup screen, with the keyboard docked as on the Pi.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.config import Config
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.textinput import TextInput

from companion.rules import MAX_NAME_LENGTH
from kiosk.app import Kiosk
from kiosk.presenters.setup import SetupPresenter
from kiosk.widgets.keyboard import LaidOutKeyboard, keyboard_top
from tests.helpers.kivy_internals import forget_keyboard
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, setup_built


@pytest.fixture
def docked() -> Iterator[None]:
    """The Pi's keyboard mode (a docked VKeyboard), with no keyboard made yet: the first
    keyboard of a process is the one that was exposed."""
    before = Config.get("kivy", "keyboard_mode")
    Window.release_all_keyboards()
    forget_keyboard(Window)
    Config.set("kivy", "keyboard_mode", "systemanddock")
    Window.configure_keyboards()
    try:
        yield
    finally:
        Window.release_all_keyboards()
        forget_keyboard(Window)
        Config.set("kivy", "keyboard_mode", before)
        Window.configure_keyboards()


@pytest.fixture
def kiosk(tmp_path: Path, docked: None) -> Iterator[Kiosk]:
    kiosk = open_kiosk(tmp_path)
    yield kiosk
    close_kiosk(kiosk)


def first_name_field(kiosk: Kiosk) -> Any:
    kiosk.open_setup("builders")
    setup_built(kiosk)
    fields = [w for w in kiosk.setup_screen.walk(restrict=True) if isinstance(w, TextInput)]
    assert fields, "the setup screen shows no name field"
    field = fields[0]
    kiosk.setup_screen.ids.scroll.scroll_to(field, padding=0, animate=False)
    frames(2)
    return field


def test_a_touch_on_the_keyboard_in_the_frame_it_appears_does_not_crash(kiosk: Kiosk) -> None:
    field = first_name_field(kiosk)
    x, y = field.to_window(*field.center)
    lifting = UnitTestTouch(x, y)
    lifting.touch_down()
    frames(1)
    # One finger lifts off the field (the keyboard is requested and shown) and, in the
    # same frame, another lands on the bottom row, where the keyboard now is.
    lifting.touch_up()
    landing = UnitTestTouch(Window.width / 2, 30)
    landing.touch_down()
    landing.touch_up()
    frames(2)
    keyboards = [w for w in Window.children if isinstance(w, LaidOutKeyboard)]
    assert keyboards, "the docked keyboard did not appear"
    assert field.focus


def test_every_row_of_the_keyboard_answers_in_its_first_frame(kiosk: Kiosk) -> None:
    """Touches queued all over the keyboard before it has drawn once: none raises."""
    field = first_name_field(kiosk)
    x, y = field.to_window(*field.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    frames(1)
    touch.touch_up()
    for row_y in range(5, 240, 20):
        for col_x in range(5, int(Window.width), 60):
            finger = UnitTestTouch(col_x, row_y)
            finger.touch_down()
            finger.touch_up()
    frames(2)


def test_a_keyboard_answers_no_key_before_any_layout() -> None:
    keyboard = LaidOutKeyboard()
    assert keyboard.laid_out()
    keyboard.layout_geometry = {}
    assert keyboard.get_key_at_pos(10, 10) is None


def name_fields(kiosk: Kiosk) -> list[Any]:
    kiosk.open_setup("builders")
    setup_built(kiosk)
    found = [w for w in kiosk.setup_screen.walk(restrict=True) if isinstance(w, TextInput)]
    found.sort(key=lambda w: -w.to_window(*w.pos)[1])  # top to bottom
    return found


def test_the_name_field_holds_no_more_than_is_kept(kiosk: Kiosk) -> None:
    field = name_fields(kiosk)[0]
    field.text = ""
    field.insert_text("Maximilian-Alexander the Great")
    assert field.text == "Maximilian-Alexa" and len(field.text) == MAX_NAME_LENGTH
    field.insert_text("x")
    assert len(field.text) == MAX_NAME_LENGTH
    field.select_all()
    field.delete_selection()  # as typing over a selection does
    field.insert_text("Ann")
    assert field.text == "Ann"
    setup = kiosk.setup
    assert setup is not None and setup.names[0] == "Ann"


def test_the_keyboard_never_covers_the_field_it_types_into(kiosk: Kiosk) -> None:
    """Four players on a fresh Setup (the list at its top): the third and fourth name
    fields sit where the docked keyboard appears; typing into each lifts it clear."""
    kiosk.open_setup("kolossus")
    setup_built(kiosk)
    presenter = kiosk.setup
    assert presenter is not None
    while presenter.view().can_add_player:
        kiosk.setup_screen.do(SetupPresenter.add_player)
    setup_built(kiosk)
    scroll = kiosk.setup_screen.ids.scroll
    fields = [w for w in kiosk.setup_screen.walk(restrict=True) if isinstance(w, TextInput)]
    assert len(fields) >= 4
    covered_before = 0
    for field in fields:
        scroll.scroll_y = 1.0  # as Setup opens
        frames(2)
        x, y = field.to_window(*field.center)
        if y < field.height:
            scroll.scroll_to(field, padding=0, animate=False)
            frames(2)
            x, y = field.to_window(*field.center)
        if y - field.height / 2 < 229:  # the keyboard's top on an 800×480 window
            covered_before += 1
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        frames(3)
        assert field.focus
        top = keyboard_top(Window)
        assert top > 0, "no docked keyboard"
        bottom = field.to_window(field.x, field.y)[1]
        assert bottom >= top, f"the keyboard (top {top}) covers the field (bottom {bottom})"
        field.focus = False
        frames(2)
    assert covered_before >= 2  # the case is really there
