"""Nothing cut off in a shop: the demo's banner and its buttons over the play screen, the
admin page and its PIN pad fit at 800×480 (screens ``test_text_fits`` does not reach:
they need the shop's settings and its clock)."""

from __future__ import annotations

from collections.abc import Callable

from tests.helpers.kiosk_shop import Shop
from tests.helpers.kiosk_widgets import cut_texts
from tests.kiosk.ui import tap_button


def test_the_demo_the_admin_page_and_the_pin_pad_fit(make_shop: Callable[..., Shop]) -> None:
    shop = make_shop(locked=False, demo_games=("kolossus", "builders"))
    kiosk = shop.kiosk
    kiosk.shop.arm()
    problems: list[str] = []
    kiosk.shop.start_demo(force=True)
    seen: list[str] = []
    for _ in range(60):  # the demo's games in turn, each one's overlay checked once
        shop.advance(15.0, draw_every=4)
        play = kiosk.play
        if play is not None and kiosk.shop.attract.active and play.rules.name not in seen:
            seen.append(str(play.rules.name))
            problems += cut_texts(kiosk, f"demo of {play.rules.name}")
        if len(seen) == 2:
            break
    assert seen == ["kolossus", "builders"] or sorted(seen) == ["builders", "kolossus"], seen
    shop.touch()  # ends the demo: Home
    tap_button(kiosk, "Admin", exact=True)
    assert shop.current == "admin"
    problems += cut_texts(kiosk, "admin")
    kiosk.shop.change_pin()
    problems += cut_texts(kiosk, f"{shop.current} (a new PIN)")
    assert not problems, "\n".join(problems)
