"""Every button on every screen is finger-sized: ≥ 48 px in both directions.

Walks the real screens offscreen (home, setup of every game, play of every game in each
of its views — board, table, LEDs, zoomed board, every action group, action forms, dice,
fix-the-table, refusal banner, outcome — and scores) and checks every visible Button
(toggle buttons included): at least ``TOUCH_MIN`` wide and high, inside the window, and
not overlapping another button (a button drawn under another cannot be pressed).

Documented exceptions — touchable things that are not Buttons:
- the board's cells (33 px Kolossus squares): forgiving taps and zoom to ≥ 48 px squares,
  checked here (zoomed squares) and in ``test_presenters_board.py`` (the tap guarantee);
- scroll bars (10 px wide): lists also scroll by dragging their content;
- the LED mirror's dots and the player colour swatches: pictures, not touch targets.
Text fields (player names) are held to the same 48 px height.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.uix.button import Button
from kivy.uix.textinput import TextInput

from companion.bot import RandomBot
from companion.session import Session
from firmware_bridge.layout import kolossus_layout
from kiosk import theme
from kiosk.app import Kiosk
from kiosk.theme import HEIGHT, TOUCH_MIN, WIDTH
from tests.helpers.kiosk_widgets import REAL_GAMES, Rect
from tests.helpers.kiosk_widgets import clip as _clip
from tests.helpers.kiosk_widgets import play_views as _play_views
from tests.helpers.kiosk_widgets import shown as _shown
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, play_modes, setup_built


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=21)
    yield k
    close_kiosk(k)


def _overlap(a: Rect, b: Rect) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def touch_problems(kiosk: Kiosk, where: str) -> list[str]:
    """What a finger cannot press comfortably on the current screen."""
    frames(2)
    problems: list[str] = []
    placed: list[tuple[str, Rect]] = []
    for widget in kiosk.manager.current_screen.walk(restrict=True):
        if isinstance(widget, TextInput) and _shown(widget) and widget.height < TOUCH_MIN:
            problems.append(f"{where}: text field only {widget.height:.0f} px high")
        if not isinstance(widget, Button) or not _shown(widget):
            continue
        name = f"{where}: {widget.text!r}"
        if widget.width < TOUCH_MIN or widget.height < TOUCH_MIN:
            problems.append(f"{name} is only {widget.width:.0f}×{widget.height:.0f} px")
        rect = _clip(widget)
        if rect is None:
            continue  # scrolled out of view
        if rect[0] < -1 or rect[1] < -1 or rect[2] > WIDTH + 1 or rect[3] > HEIGHT + 1:
            problems.append(f"{name} sticks out of the window")
        problems.extend(
            f"{name} overlaps {other!r}" for other, seen in placed if _overlap(rect, seen)
        )
        placed.append((repr(widget.text), rect))
    return problems


def test_theme_sizes_are_finger_sized() -> None:
    for size in ("TOUCH_MIN", "BUTTON_HEIGHT", "BIG_BUTTON_HEIGHT"):
        assert getattr(theme, size) >= 48, size
    assert theme.SIDEBAR_WIDTH - theme.PADDING >= TOUCH_MIN


def test_the_walker_catches_a_small_or_covered_button(kiosk: Kiosk) -> None:
    """The check can fail: a 40 px button, and one drawn over another."""
    from kiosk.widgets.basic import KButton

    games = kiosk.home_screen.ids.games
    small = KButton(text="tiny", size_hint=(None, None), size=(40, 40))
    games.add_widget(small)
    games.add_widget(KButton(text="under", size_hint=(None, None), size=(60, 60)))
    problems = touch_problems(kiosk, "home")
    assert any("'tiny' is only 40×40" in p for p in problems)
    games.remove_widget(small)
    sidebar_like = KButton(text="over", size_hint=(None, None), size=(200, 60))
    kiosk.home_screen.add_widget(sidebar_like)  # on top of the games list
    sidebar_like.pos = (10, HEIGHT - 150)
    assert any("overlaps" in p for p in touch_problems(kiosk, "home"))
    kiosk.home_screen.remove_widget(sidebar_like)


def test_home_setup_and_scores_buttons(kiosk: Kiosk) -> None:
    problems: list[str] = []
    finished = Session.new("builders", ["Ann", "Bob"], seed=4, journal=kiosk.journal)
    bot = RandomBot(1)
    while finished.outcome is None:
        finished.submit(bot.choose(finished.rules, finished.state))
    Session.new("colossus_solo", ["Mara"], seed=5, journal=kiosk.journal)
    kiosk.go_home()
    problems += touch_problems(kiosk, "home")
    for game in REAL_GAMES:
        kiosk.open_setup(game)
        assert kiosk.setup is not None
        while kiosk.setup.view().can_add_player:
            kiosk.setup.add_player()
        kiosk.setup_screen.refresh()
        setup_built(kiosk)
        for scroll_y in (1.0, 0.5, 0.0):
            kiosk.setup_screen.ids.scroll.scroll_y = scroll_y
            problems += touch_problems(kiosk, f"setup {game} at {scroll_y}")
    assert finished.game_id is not None
    kiosk.resume(finished.game_id)
    problems += touch_problems(kiosk, "play outcome")
    kiosk.open_scores()
    problems += touch_problems(kiosk, "scores")
    kiosk.export_game()
    problems += touch_problems(kiosk, "scores after export")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", REAL_GAMES)
def test_play_screen_buttons(kiosk: Kiosk, game: str) -> None:
    problems: list[str] = []
    if game == "kolossus":
        kiosk.mirror.set_layout(kolossus_layout())
    kiosk.open_setup(game)
    kiosk.start_game()
    screen = kiosk.play_screen
    modes = play_modes(kiosk)
    for index, where in enumerate(_play_views(kiosk, game)):
        # Every view (board, table, LEDs) for the first states, then the first view.
        for _ in modes if index < 4 or "dice" in where or "banner" in where else modes[:1]:
            problems += touch_problems(kiosk, f"{where} ({screen.mode})")
            screen.next_mode()
        if len(problems) > 20:
            break
    assert not problems, "\n".join(problems[:20])


def test_zoomed_board_has_finger_sized_squares_and_buttons(kiosk: Kiosk) -> None:
    from kiosk.presenters.board import zoom_viewport

    kiosk.open_setup("kolossus")
    kiosk.start_game()
    board = kiosk.play_screen.board
    assert board is not None and board.view is not None
    frames(2)
    assert board.cell_side() < TOUCH_MIN  # the whole board: the documented exception
    for point in ((0.0, 0.0), (0.5, 0.5), (1.0, 1.0)):
        zoom = zoom_viewport(board.view.geometry, point, view_px=board.layout.zoom_frame[2])
        assert zoom is not None
        board.zoom(zoom)
        assert board.cell_side() >= TOUCH_MIN
        problems = touch_problems(kiosk, f"zoomed board at {point}")
        assert not problems, "\n".join(problems)
        assert board.whole_button.parent is board
