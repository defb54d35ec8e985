"""Setup's options part on the real kiosk, by taps: Kolossus' first screen is short, the
house rules open under "More rules", a choice is tapped in words, a description opens on
demand and the last one is reachable whole, "Rules as printed" undoes the house rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.uix.button import Button
from kivy.uix.label import Label

from kiosk.app import Kiosk
from tests.helpers.kiosk_widgets import clip, cut_texts, shoot
from tests.kiosk.ui import (
    close_kiosk,
    find_button,
    frames,
    open_kiosk,
    setup_built,
    tap,
    tap_button,
)


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=21)
    yield k
    close_kiosk(k)


def labels(kiosk: Kiosk) -> list[Any]:
    body = kiosk.setup_screen.ids.body
    return [w for w in body.walk(restrict=True) if isinstance(w, Label) and w.text]


def row_button(kiosk: Kiosk, label: str, text: str) -> Any:
    """The button saying ``text`` in the row of the option labelled ``label``."""
    frames(1)
    [head] = [w for w in labels(kiosk) if w.text.split("  ")[0] == label]
    found = [w for w in head.parent.children if isinstance(w, Button) and w.text == text]
    assert found, f"no {text!r} beside {label!r}"
    return found[0]


def open_kolossus(kiosk: Kiosk) -> None:
    tap_button(kiosk, "Kolossus")
    assert kiosk.manager.current == "setup"
    setup_built(kiosk)
    frames(2)


def test_kolossus_setup_first_screen_is_short(kiosk: Kiosk) -> None:
    open_kolossus(kiosk)
    scroll = kiosk.setup_screen.ids.scroll
    body = kiosk.setup_screen.ids.body
    shown = {w.text.split("  ")[0] for w in labels(kiosk)}
    assert "Rule chapter" in shown and "Quake regions" not in shown
    # Players and five options: 3.5 screens at most (every option shown made 9.3).
    assert body.height <= 3.5 * scroll.height, f"{body.height / scroll.height:.1f} screens"
    assert find_button(kiosk, "More rules: as printed")
    assert not cut_texts(kiosk, "setup kolossus")
    scroll.scroll_y = 0  # the end of the first screen's options: "More rules"
    frames(3)
    shoot(kiosk, "setup-kolossus-options")


def test_more_rules_a_choice_in_words_and_rules_as_printed_by_taps(kiosk: Kiosk) -> None:
    open_kolossus(kiosk)
    tap_button(kiosk, "More rules")
    setup_built(kiosk)
    setup = kiosk.setup
    assert setup is not None
    tap_button(kiosk, "All 22 regions", exact=True)
    assert setup.value("quake_candidates") == "all22"  # the journal's own value
    assert find_button(kiosk, "More rules: 1 changed")
    tap_button(kiosk, "Rules as printed", exact=True)
    assert setup.value("quake_candidates") == "central10"
    assert setup.options_dict() == {}


def test_the_last_description_opens_and_is_reachable_whole(kiosk: Kiosk) -> None:
    open_kolossus(kiosk)
    tap_button(kiosk, "More rules")
    setup_built(kiosk)
    setup = kiosk.setup
    assert setup is not None
    last = setup.view().more[-1].options[-1]
    tap(row_button(kiosk, last.label, "About"))
    setup_built(kiosk)
    [about] = [w for w in labels(kiosk) if w.text == last.about]
    scroll = kiosk.setup_screen.ids.scroll
    scroll.scroll_y = 0
    frames(3)
    x0, y0 = about.to_window(*about.pos)
    assert clip(about) == (x0, y0, x0 + about.width, y0 + about.height), "cut at the bottom"
    assert not cut_texts(kiosk, "setup kolossus, more rules, at the bottom")
    shoot(kiosk, "setup-kolossus-more-rules")
