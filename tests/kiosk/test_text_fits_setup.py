"""Setup's options fit at 800×480 in every game, opened all the way: "More rules" open,
every description shown, every list option set by hand, the most players with the
longest names (the players' names show in the seat choices)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.uix.label import Label

from kiosk.app import Kiosk
from tests.helpers.kiosk_widgets import REAL_GAMES, cut_texts, needed_height, shown
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, setup_built

#: Long names players give themselves (MAX_NAME_LENGTH, 16 characters).
LONG_NAMES = ("Maximiliane-Jose", "Bartholomew Higg", "Wenceslas Wiggam", "Annabel-Lucinda")


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=21)
    yield k
    close_kiosk(k)


def shortened(kiosk: Kiosk, where: str) -> list[str]:
    """Setup's one-line texts Kivy shortens: a label that shortens (``shorten``) keeps
    one line, so a text needing two is cut with a "…" drawn on the screen, though its
    two lines would fit its height ("Corner3x3 minus in…" passed that check)."""
    frames(2)
    problems = []
    for widget in kiosk.setup_screen.ids.body.walk(restrict=True):
        if not isinstance(widget, Label) or not widget.text.strip() or not shown(widget):
            continue
        if widget.shorten and "\n" not in widget.text:
            width = widget.text_size[0] if widget.text_size[0] is not None else widget.width
            if needed_height(widget, width)[1] > 1:
                problems.append(f"{where}: {widget.text!r} is shortened to {width:.0f} px")
    return problems


def test_the_check_catches_a_value_kivy_shortens(kiosk: Kiosk) -> None:
    from kiosk.widgets.basic import KLabel

    kiosk.open_setup("kolossus")
    setup_built(kiosk)
    label = KLabel(text="Corner3x3 minus inner", size_hint=(None, None), size=(200, 60))
    kiosk.setup_screen.ids.body.add_widget(label)
    assert shortened(kiosk, "setup") == ["setup: 'Corner3x3 minus inner' is shortened to 200 px"]
    assert not cut_texts(kiosk, "setup")  # the check every screen has misses it


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_option_label_value_choice_and_description_fits(kiosk: Kiosk, game: str) -> None:
    kiosk.open_setup(game)
    setup = kiosk.setup
    assert setup is not None
    setup.names[:] = list(LONG_NAMES[: setup.rules.max_players])
    setup.toggle_more()
    for option in setup.view().options:
        setup.toggle_about(option.name)
        if option.kind == "list" and option.optional:
            setup.toggle(option.name)
    kiosk.setup_screen.refresh()
    setup_built(kiosk)
    shown = {o.about for o in setup.view().options}
    texts = {w.text for w in kiosk.setup_screen.ids.body.walk(restrict=True) if hasattr(w, "text")}
    assert shown <= texts  # every description is on the screen
    problems: list[str] = []
    for scroll_y in (1.0, 0.5, 0.0):
        kiosk.setup_screen.ids.scroll.scroll_y = scroll_y
        problems += cut_texts(kiosk, f"setup {game} opened, at {scroll_y}")
    problems += shortened(kiosk, f"setup {game} opened")
    assert not problems, "\n".join(dict.fromkeys(problems))
