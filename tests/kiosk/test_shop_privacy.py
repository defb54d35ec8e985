"""A locked shop kiosk keeps each visitor's games to that visit (kiosk/shop.py):
Home lists no earlier visitor's game or name, a visit ends after the idle time (its
game closed and hidden; staff see every game from the admin page), an export needs the
admin PIN, and the enlarged QR code closes with its screen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.modalview import ModalView

from companion.session import Session
from kiosk.admin import PinStore
from kiosk.storage import open_journal
from kiosk.widgets.qr import qr_available
from tests.helpers.kiosk_shop import Shop
from tests.helpers.kiosk_widgets import play_randomly
from tests.kiosk.ui import frames, tap_button

EARLIER = ("Alice Smith", "Bob Jones")


@pytest.fixture
def make_shop(tmp_path: Path) -> Iterator[Callable[..., Shop]]:
    opened: list[Shop] = []

    def make(**settings: Any) -> Shop:
        shop = Shop(tmp_path, **settings)
        opened.append(shop)
        return shop

    yield make
    for shop in opened:
        shop.close()


def earlier_visitors(data_dir: Path) -> tuple[int, int]:
    """An unfinished and a finished game of earlier visitors, by name."""
    journal = open_journal(data_dir)
    try:
        active = Session.new("builders", EARLIER, seed=1, journal=journal)
        finished = Session.new("builders", EARLIER, seed=2, journal=journal)
        assert active.game_id is not None and finished.game_id is not None
        journal.set_outcome(finished.game_id, {"text": "Alice Smith wins"})
        return active.game_id, finished.game_id
    finally:
        journal.close()


def home_text(shop: Shop) -> str:
    shop.kiosk.go_home()
    frames(1)
    return " ".join(str(getattr(w, "text", "")) for w in shop.kiosk.home_screen.walk(restrict=True))


def enter_pin(shop: Shop, pin: str) -> None:
    for digit in pin:
        tap_button(shop.kiosk, digit, exact=True)
    tap_button(shop.kiosk, "OK", exact=True)


def test_home_of_a_locked_kiosk_lists_no_earlier_visitors_game(
    tmp_path: Path, make_shop: Callable[..., Shop]
) -> None:
    earlier_visitors(tmp_path)
    shop = make_shop(locked=True, idle_timeout_s=0)
    text = home_text(shop)
    assert "Alice" not in text and "Bob Jones" not in text
    assert "No unfinished games." in text and "No finished games yet." in text


def test_an_unlocked_kiosk_lists_every_game(tmp_path: Path, make_shop: Callable[..., Shop]) -> None:
    earlier_visitors(tmp_path)
    shop = make_shop(locked=False)
    text = home_text(shop)
    assert "Alice Smith, Bob Jones" in text and "Alice Smith wins" in text


def test_a_visit_ends_after_the_idle_time_and_staff_see_every_game(
    tmp_path: Path, make_shop: Callable[..., Shop]
) -> None:
    earlier_visitors(tmp_path)
    shop = make_shop(locked=True, idle_timeout_s=0)  # no demo: the visit still ends
    kiosk = shop.kiosk
    PinStore(tmp_path).set_pin("2468")
    kiosk.shop.arm()
    kiosk.open_setup("builders")
    kiosk.start_game()
    assert shop.current == "play" and kiosk.play is not None
    mine = ", ".join(kiosk.play.session.state.players)
    assert mine in home_text(shop)  # this visitor's own game is listed
    shop.advance(170)
    assert mine in home_text(shop)
    kiosk.open_setup("builders")  # the visitor is back in a game, then walks away
    kiosk.start_game()
    shop.advance(181)
    assert shop.current == "home"  # the game is closed ...
    assert mine not in home_text(shop) and "Alice" not in home_text(shop)  # ... and hidden
    kiosk.shop.request_admin()
    enter_pin(shop, "2468")
    tap_button(kiosk, "Every game (staff)", exact=True)
    assert shop.current == "home"
    text = home_text(shop)
    assert mine in text and "Alice Smith, Bob Jones" in text
    shop.advance(61)  # staff walk away: hidden again
    assert "Alice" not in home_text(shop)


def test_a_demo_start_ends_the_visit(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=True, idle_timeout_s=30)
    kiosk = shop.kiosk
    kiosk.shop.arm()
    kiosk.open_setup("builders")
    kiosk.start_game()
    assert kiosk.play is not None
    mine = ", ".join(kiosk.play.session.state.players)
    shop.advance(31)
    assert kiosk.shop.attract.active
    shop.touch()  # the next visitor
    assert shop.current == "home" and mine not in home_text(shop)


def finish_and_score(shop: Shop) -> None:
    kiosk = shop.kiosk
    kiosk.open_setup("builders")
    kiosk.start_game()
    play_randomly(kiosk, 2000, seed=6)
    assert kiosk.play is not None and kiosk.play.session.outcome is not None
    kiosk.open_scores()
    frames(1)


def exports(data_dir: Path) -> list[Path]:
    folder = data_dir / "exports"
    return sorted(folder.iterdir()) if folder.exists() else []


def test_an_export_on_a_locked_kiosk_needs_the_admin_pin(
    tmp_path: Path, make_shop: Callable[..., Shop]
) -> None:
    shop = make_shop(locked=True, idle_timeout_s=0)
    kiosk = shop.kiosk
    PinStore(tmp_path).set_pin("2468")
    kiosk.shop.arm()
    finish_and_score(shop)
    tap_button(kiosk, "Export", exact=True)
    assert shop.current == "pin" and exports(tmp_path) == []
    tap_button(kiosk, "Cancel", exact=True)
    assert shop.current == "scores" and exports(tmp_path) == []
    tap_button(kiosk, "Export", exact=True)
    enter_pin(shop, "1357")
    assert shop.current == "pin" and exports(tmp_path) == []
    enter_pin(shop, "2468")
    assert shop.current == "scores" and len(exports(tmp_path)) == 1
    assert kiosk.shop.admin is None  # the PIN was for the export, not the admin page
    tap_button(kiosk, "Export", exact=True)
    assert shop.current == "pin"  # the next export asks again


def test_an_export_on_an_unlocked_kiosk_needs_no_pin(
    tmp_path: Path, make_shop: Callable[..., Shop]
) -> None:
    shop = make_shop(locked=False)
    shop.kiosk.shop.arm()
    finish_and_score(shop)
    tap_button(shop.kiosk, "Export", exact=True)
    assert shop.current == "scores" and len(exports(tmp_path)) == 1


@pytest.mark.skipif(not qr_available(), reason="segno, which draws QR codes, is not installed")
@pytest.mark.parametrize("leave", ["home", "demo"])
def test_the_enlarged_qr_code_closes_with_its_screen(
    make_shop: Callable[..., Shop], leave: str
) -> None:
    shop = make_shop(locked=False, idle_timeout_s=30)
    kiosk = shop.kiosk
    kiosk.shop.arm()
    finish_and_score(shop)
    kiosk.export_game()
    qr = kiosk.scores_screen.ids.qr
    qr.enlarge()
    frames(2)
    assert any(isinstance(w, ModalView) for w in Window.children)
    if leave == "home":
        kiosk.go_home()
    else:
        kiosk.shop.attract.idle.touch(shop.clock.now - 31)  # left alone on the code
        shop.advance(1)
        assert kiosk.shop.attract.active
    frames(2)
    assert qr.enlarged is None
    assert not any(isinstance(w, ModalView) for w in Window.children)
