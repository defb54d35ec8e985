"""The "Why?" buttons on the real play screen, offscreen at 800×480: from a refusal's
banner and from the header, the panel shows every text whole (nothing shortened), and
"Close" brings the board and the menu back. Saves screen-play-why-*.png to look at."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.app import Kiosk
from kiosk.presenters.why import WhyEntry, WhyView
from kiosk.teaching import load_teaching
from kiosk.widgets.lists import PanelView
from tests.helpers.kiosk_widgets import play_randomly, shoot
from tests.kiosk.ui import buttons, close_kiosk, frames, open_kiosk, tap, tap_at, tap_button

#: A ruling ID inside a player-facing text (only the small print may show one).
RULING_IN_TEXT = r"\b(?:K|BM|CA|CS|BC)-R\d{2}\b"


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=12)
    yield k
    close_kiosk(k)


def _assert_shown_whole(labels: list[Any]) -> None:
    for label in labels:
        assert "…" not in label.text
        assert not label.shorten, label.text
        assert label.texture_size[1] <= label.height + 1, f"{label.text!r} is cut"
        assert label.texture_size[0] <= label.width + 1, f"{label.text!r} is cut"


def _texts(panel: Any) -> list[str]:
    return [label.text for label in panel.labels()]


def test_why_from_a_refusal(kiosk: Kiosk) -> None:
    kiosk.open_setup("builders")
    assert kiosk.setup is not None
    kiosk.setup.names[:] = ["Ann", "Bob", "Cleo"]
    kiosk.start_game()
    screen = kiosk.play_screen
    assert screen.ids.banner_why.opacity == 0  # no refusal, no "Why?" on a banner
    assert kiosk.play is not None
    kiosk.play.submit({"type": "curse", "runes": [2, 2, 0]})
    why = screen.ids.banner_why
    assert why.opacity == 1 and "[BC-R09]" in screen.ids.banner.text
    tap(why)
    panel = screen.why_panel
    assert list(screen.ids.main.children) == [panel.box]
    texts = [label.text for label in panel.labels()]
    assert texts[0] == "Why was that refused?"
    assert "How a Curse is shared" in texts and "Ruling BC-R09" in texts  # the ID: small print
    assert not [t for t in texts if re.search(RULING_IN_TEXT, t) and t != "Ruling BC-R09"]
    assert any(t.startswith("• Runes now: Ann 10, Bob 10, Cleo 10") for t in texts)
    assert why.opacity == 0  # the panel answers it; the banner stays
    assert panel.actions.parent is panel.box  # a game without teach mode: offered
    shoot(kiosk, "play-why-refusal")
    _assert_shown_whole(panel.labels()[1:])
    tap(next(b for b in panel.box.walk() if getattr(b, "text", "") == "Close"))
    assert list(reversed(screen.ids.main.children)) == [screen.ids.info, screen.ids.act]
    assert screen.ids.banner.opacity == 1 and why.opacity == 1


def test_why_from_the_header_explains_the_board_and_the_counts(kiosk: Kiosk) -> None:
    kiosk.open_setup("kolossus")
    kiosk.start_game()
    play_randomly(kiosk, 14, seed=2)
    screen = kiosk.play_screen
    tap(screen.ids.why)
    panel = screen.why_panel
    assert list(screen.ids.main.children) == [panel.box]
    texts = [label.text for label in panel.labels()]
    assert texts[0] == "Why? The rules behind what you see"
    assert any(t.startswith("• Crystals now: ") for t in texts)
    assert panel.actions.parent is panel.box  # no teach mode here: "Why?" offers it
    shoot(kiosk, "play-why-kolossus")
    _assert_shown_whole(panel.labels()[1:])


def test_teach_mode_from_setup_pauses_beside_the_board_and_resumes(tmp_path: Path) -> None:
    """Setup's "Teach me the rules", the pause in the column beside the board, "Got it",
    and the same pause again after the app is closed and the game resumed."""
    kiosk = open_kiosk(tmp_path, seed=12)
    try:
        kiosk.open_setup("kolossus")
        tap(next(b for b in buttons(kiosk) if b.text.startswith("Teach me the rules: off")))
        assert kiosk.setup is not None and kiosk.setup.teach
        tap_button(kiosk, "Start game")
        screen = kiosk.play_screen
        panel = screen.column.teach_panel
        assert list(screen.ids.act.children) == [panel.box]
        assert _texts(panel)[0] == "A new rule"
        assert "Where your warband starts" in _texts(panel) and "Ruling K-R02" in _texts(panel)
        tap_button(kiosk, "Got it")
        assert screen.ids.act.children != [panel.box]  # action points wait for round 1
        assert kiosk.play is not None and kiosk.play.submit({"type": "ready"})
        frames(3)
        assert "How far the quake moves" in _texts(panel)  # the Great Quake's first rule
        shoot(kiosk, "play-teach-kolossus")
        _assert_shown_whole(panel.labels())
        assert kiosk.play is not None and kiosk.play.session.game_id is not None
        game_id = kiosk.play.session.game_id
    finally:
        close_kiosk(kiosk)
    kiosk = open_kiosk(tmp_path, seed=12)  # after a power cut: the journal and the progress
    try:
        assert kiosk.resume(game_id)
        panel = kiosk.play_screen.column.teach_panel
        assert "How far the quake moves" in _texts(panel)
        tap_button(kiosk, "Skip\nteaching")
        screen = kiosk.play_screen
        assert screen.column.teach_panel.box.parent is None  # the menu is back
        tap(screen.ids.why)  # and "Why?" offers the lesson again
        tap_button(kiosk, "Teach me the rules from here")
        assert list(screen.ids.act.children) == [screen.column.teach_panel.box]
        assert "How far the quake moves" in _texts(screen.column.teach_panel)
    finally:
        close_kiosk(kiosk)


def _tap_label(label: object) -> None:
    """A real touch on a label in the scrolled facts and log, once the list lies still
    (the helper's scroll_to would start the list's overscroll effect on a short log)."""
    frames(5)
    x, y = label.to_window(*label.center)  # type: ignore[attr-defined]
    tap_at(x, y)
    deadline = time.monotonic() + 0.35  # Kivy's tap-or-scroll delay
    while time.monotonic() < deadline:
        frames(1)


def test_a_tap_on_the_facts_panel_explains_its_counts(kiosk: Kiosk) -> None:
    """A player's line ("Player 1 · Runes 10 · …") holds every count of the table: a tap
    on it explains them all, with their values; a fact explains its own count."""
    kiosk.open_setup("builders")
    kiosk.start_game()
    frames(3)
    screen = kiosk.play_screen
    assert screen.mode == "cards"  # a card game opens on its cards; "Table" shows the facts
    screen.next_mode()
    frames(2)
    assert screen.mode == "info"

    panel_view = next(w for w in screen.ids.info.walk(restrict=True) if isinstance(w, PanelView))
    line = next(label for label in panel_view.children if label.text.startswith("Player 1 ·"))
    _tap_label(line)
    texts = _texts(screen.why_panel)
    assert texts[0] == "Why? The rules behind what you see"
    assert "Reaching 0 Runes" in texts and "Ruling BC-R10" in texts
    assert any(t.startswith("• Runes now: Player 1 10, Player 2 10") for t in texts)

    kiosk.play.teacher.close_why()  # type: ignore[union-attr]
    frames(3)
    fact = next(label for label in panel_view.children if label.text in panel_view.panel.facts)
    _tap_label(fact)
    texts = _texts(screen.why_panel)
    assert texts[0].startswith("Why? ") and texts[0] != "Why? The rules behind what you see"


def test_every_teaching_text_fits_the_pause_column_beside_the_board(kiosk: Kiosk) -> None:
    """All 117 texts, in the narrowest place they are shown: wrapped, none cut."""
    kiosk.open_setup("kolossus")
    assert kiosk.setup is not None
    kiosk.setup.teach = True
    kiosk.start_game()
    panel = kiosk.play_screen.column.teach_panel
    assert list(kiosk.play_screen.ids.act.children) == [panel.box]
    teaching = load_teaching()
    entries = tuple(
        WhyEntry(ruling, text.title, text.text, ())
        for file in teaching.files.values()
        for ruling, text in file.texts.items()
    )
    panel.show(WhyView("A new rule", (), entries))
    frames(3)
    assert panel.box.width < 300  # the narrow column
    assert len(panel.labels()) == 1 + 3 * len(entries)  # title, text, ruling ID
    _assert_shown_whole(panel.labels())
