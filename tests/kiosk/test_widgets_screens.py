"""Every screen at 800×480, saved to docs/images/screen-<name>.png, with layout checks.

The checks are the ones a tired player at a dim table cares about: every visible button
is at least 48 px in both directions, nothing visible lies outside the window, the
header always names whose turn it is, and refusals carry their ruling ID.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from kivy.core.window import Window

from companion.bot import RandomBot
from companion.session import Session
from firmware_bridge.config import ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.platform import Platform
from firmware_bridge.rig import Rig, build_rig
from kiosk.app import Kiosk
from kiosk.settings import CompanionConfig
from tests.helpers.kiosk_widgets import IMAGES, play_randomly, shoot
from tests.kiosk.ui import close_kiosk, frames, open_kiosk, setup_built, tap_at, tap_button


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    k = open_kiosk(tmp_path, seed=12)
    yield k
    close_kiosk(k)


def test_screen_home_and_setup(kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.games import GAME_MODULES

    # The docs show the five games: not the test-only toy game tests/conftest.py adds.
    monkeypatch.delitem(GAME_MODULES, "toy_pig", raising=False)
    finished = Session.new("builders", ["Ann", "Bob"], seed=4, journal=kiosk.journal)
    bot = RandomBot(1)
    while finished.outcome is None:
        finished.submit(bot.choose(finished.rules, finished.state))
    Session.new("colossus_solo", ["Mara"], seed=5, journal=kiosk.journal)
    kiosk.go_home()
    rows = kiosk.home_screen.ids.games.children
    home_games = [row.game.text.split("\n")[0] for row in rows]
    assert home_games and not any("Pig" in title for title in home_games)
    shoot(kiosk, "home")
    tap_button(kiosk, "Builders of the Colossus")
    assert kiosk.manager.current == "setup"
    shoot(kiosk, "setup")


def test_screen_setup_kolossus_corners(kiosk: Kiosk) -> None:
    from kiosk.widgets.basic import KLabel

    kiosk.open_setup("kolossus")
    assert kiosk.setup is not None
    kiosk.setup.toggle("controllers")
    kiosk.setup_screen.refresh()
    setup_built(kiosk)
    label = next(
        w
        for w in kiosk.setup_screen.ids.body.walk(restrict=True)
        if isinstance(w, KLabel) and w.text.startswith("SW corner")
    )
    kiosk.setup_screen.ids.scroll.scroll_to(label, padding=4, animate=False)
    shoot(kiosk, "setup-kolossus")


def test_screen_play_builders_and_refusal(kiosk: Kiosk) -> None:
    kiosk.open_setup("builders")
    assert kiosk.setup is not None
    kiosk.setup.names[:] = ["Ann", "Bob", "Cleo"]
    kiosk.start_game()
    play_randomly(kiosk, 6)
    assert kiosk.play_screen.ids.player.text.endswith("to play")
    shoot(kiosk, "play-builders")
    assert kiosk.play is not None
    kiosk.play.submit({"type": "curse", "runes": [2, 2, 0]})  # illegal now, or keeps 2
    banner = kiosk.play_screen.ids.banner
    assert banner.opacity == 1 and "[BC-" in banner.text
    shoot(kiosk, "play-refusal")


def test_screen_solo_stats_form(kiosk: Kiosk) -> None:
    kiosk.open_setup("colossus_solo")
    kiosk.start_game()
    play_randomly(kiosk, 1)
    assert kiosk.play is not None and kiosk.play.view().form is not None
    shoot(kiosk, "play-solo-form")


def sim_dice_rig(sim_dir: Path) -> Rig:
    """Simulated dice only: the rig's tray on a pty, read by the real serial reader."""
    config = CompanionConfig(
        dice=DiceConfig(source="sim"),
        buttons=ButtonsConfig(source="none"),
        leds=LedsConfig(driver="none"),
    )
    return build_rig(config, Platform(None), sim_dir=sim_dir)


def pump_until(kiosk: Kiosk, done: Callable[[], bool], timeout: float = 5.0) -> None:
    """Drain the hardware hub, as the app's clock trigger does, until ``done``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the device messages never arrived"
        kiosk.pump()
        frames(1)


def test_screen_dice_panel_with_electronic_die(kiosk: Kiosk, tmp_path: Path) -> None:
    rig = sim_dice_rig(tmp_path / "sim")  # the simulated tray on a pty, the real reader
    kiosk.attach_rig(rig)
    kiosk.open_setup("kolossus")
    kiosk.start_game()
    play_randomly(kiosk, 1)
    pump_until(kiosk, lambda: kiosk.play_screen.ids.devices.text == "Dice on 87%")
    assert kiosk.play is not None
    view = kiosk.play.view()
    assert view.dice is not None and view.dice.waiting_for_device
    shoot(kiosk, "play-dice")
    assert rig.sim is not None
    rig.sim.roll_dice(view.dice.sides, view.dice.count, faces=[3] * view.dice.count)
    pump_until(kiosk, lambda: kiosk.play is not None and kiosk.play.view().dice is None)
    shoot(kiosk, "play-kolossus-board")


def test_screen_kolossus_selection(kiosk: Kiosk) -> None:
    kiosk.open_setup("kolossus")
    kiosk.start_game()
    play = kiosk.play
    assert play is not None
    play_randomly(kiosk, 40, seed=8)
    selectable = [h.cell for h in play.highlights() if h.role.value == "selectable"]
    if selectable:
        play.board_input.tap_cell(selectable[0])
    shoot(kiosk, "play-kolossus-selected")


def test_screen_scores_and_summary(kiosk: Kiosk) -> None:
    kiosk.open_setup("builders")
    kiosk.start_game()
    play_randomly(kiosk, 2000, seed=6)
    assert kiosk.play is not None and kiosk.play.session.outcome is not None
    shoot(kiosk, "summary")
    kiosk.open_scores()
    kiosk.export_game()
    info = kiosk.scores_screen.ids.export_info.text
    assert info.startswith("Saved ")
    shoot(kiosk, "scores")
    # The preview is too fine for a phone camera: a tap shows the code full screen.
    qr = kiosk.scores_screen.ids.qr
    assert qr.matrix is not None
    tap_at(*qr.to_window(*qr.center))
    assert qr.enlarged is not None
    frames(3)
    big = qr.enlarged.children[0]
    assert big.matrix == qr.matrix
    module = min(big.size) // (len(big.matrix) + 4)
    assert module >= 4, f"{module} px a module is too fine to scan"
    qr.enlarged.export_to_png(str(IMAGES / "screen-scores-qr.png"))
    tap_at(Window.width / 2, Window.height / 2)
    frames(3)
    assert qr.enlarged is None
