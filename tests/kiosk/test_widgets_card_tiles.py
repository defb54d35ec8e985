"""Card games chosen on the cards drawn on screen, offscreen at 800×480:
Builders' Blueprints, players and piles, the solo game's Colossus card and trackers as
tiles; a touch on a tile with one action plays it, on one with several narrows the menu
to them; screenshots to look at (``shoot``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.colossus_solo.model import ColossusSoloState
from kiosk.app import Kiosk
from tests.helpers.kiosk_widgets import shoot
from tests.helpers.kiosk_widgets import started_kiosk as _start
from tests.helpers.presenters import state_as
from tests.kiosk.ui import close_kiosk, frames, tap, tap_button


@pytest.fixture
def builders(tmp_path: Path) -> Iterator[Kiosk]:
    kiosk = _start(tmp_path, "builders", ["Ann", "Bob", "Cy"])
    yield kiosk
    close_kiosk(kiosk)


@pytest.fixture
def solo(tmp_path: Path) -> Iterator[Kiosk]:
    kiosk = _start(tmp_path, "colossus_solo", ["Ann"])
    yield kiosk
    close_kiosk(kiosk)


def _tile(kiosk: Kiosk, key: str) -> Any:
    tiles = kiosk.play_screen.tiles
    assert tiles is not None and tiles.parent is not None, "the cards are not on screen"
    return next(w for w in tiles.pool.widgets if w.key == key and w.parent is not None)


def test_builders_draw_by_its_deck_and_a_build_narrowed_by_its_blueprint_bc_r01(
    builders: Kiosk,
) -> None:
    """The play screen opens on the cards; the Parts deck draws in one touch, a
    Blueprint narrows the menu to its builds (BC-R01: a build completes a Blueprint),
    a touch on another player's tile to the Trades and Reveals with them."""
    play, screen = builders.play, builders.play_screen
    assert play is not None and screen.mode == "cards"
    assert screen.next_mode_label == "Table"
    shoot(builders, "play-builders-cards")

    tap(_tile(builders, "deck"))
    assert play.rules.dump_action(play.session.actions[-1]) == {"type": "draw"}

    tap(_tile(builders, "slot:2"))
    assert play.board_input.focus == "slot:2"
    actions = play.view().actions
    assert actions and all(a.payload["type"] == "build" for a in actions)
    assert {a.payload["slot"] for a in actions} == {2}
    assert _tile(builders, "slot:2").role == "accent"
    shoot(builders, "play-builders-cards-blueprint")

    tap(_tile(builders, "seat:1"))
    kinds = {a.payload["type"] for a in play.view().actions}
    assert kinds == {"trade"} and {g.key for g in play.view().groups} >= {"trade", "reveal"}
    assert all(a.payload["partner"] == 1 for a in play.view().actions)
    assert _tile(builders, "seat:0").disabled  # nothing to do with one's own seat now

    tap_button(builders, "Table", exact=True)  # the facts and log, one touch away
    assert screen.mode == "info" and screen.tiles is not None and screen.tiles.parent is None


def test_solo_power_paid_on_its_tracker_and_resolved_on_the_card_cs_r04(solo: Kiosk) -> None:
    """Netophah's power is paid by touching the tracker it costs (CS-R04), the
    Colossus card resolved by touching it."""
    play, screen = solo.play, solo.play_screen
    assert play is not None and screen.mode == "cards"
    while play.rules.status(play.state) and state_as(play, ColossusSoloState).phase != "power":
        form = play.forms.form
        assert form is not None  # the card's values, then the stats: forms open by themselves
        play.forms.submit()
    shoot(solo, "play-colossus-solo-cards")
    grip = state_as(play, ColossusSoloState).grip
    tap(_tile(solo, "grip"))
    assert play.rules.dump_action(play.session.actions[-1]) == {"type": "use_power", "pay": "grip"}
    assert state_as(play, ColossusSoloState).grip == grip - 1


def test_tile_lines_that_fit_are_laid_out_whole_and_a_longer_one_wraps_bc_r01(
    builders: Kiosk,
) -> None:
    """A tile whose lines fit is laid out line by line, unwrapped (Kivy would measure
    every run of their words), centred as before; a line wider than the tile wraps
    within it, never cut (BC-R01's Blueprints, the players, the piles)."""
    frames(2)
    tiles = builders.play_screen.tiles
    assert tiles is not None
    shown = [w for w in tiles.pool.widgets if w.parent is not None]
    for tile in shown:
        assert not tile.wraps, (tile.text, tile.width) and tuple(tile.text_size) == (None, None)
        tile.texture_update()
        assert tile.texture_size[0] <= tile.width - 10  # its room (widgets.kv)
    tile = shown[0]
    tile.text = "Blueprint 1\n" + "a line far too long to fit on a tile " * 2
    frames(1)
    assert tile.wraps and tuple(tile.text_size) == (tile.width - 10, tile.height - 6)
    tile.texture_update()
    assert tile.texture_size[0] <= tile.width - 10
