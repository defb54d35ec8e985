"""The roll's cue on screen, offscreen at 800×480: awaiting the Great
Quake's die, the roller's start corner is ringed on the board and lit on the LED mirror
with the colour the strip gets (RULINGS 0.2.3); screenshots to look at (``shoot``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.highlights import Highlight, Role
from firmware_bridge.layout import kolossus_layout
from firmware_bridge.leds.render import render
from firmware_bridge.leds.strip import Frame
from kiosk.app import Kiosk
from tests.helpers.kiosk_widgets import shoot
from tests.helpers.kiosk_widgets import started_kiosk as _start
from tests.kiosk.ui import close_kiosk, tap_button


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[Kiosk]:
    kiosk = _start(tmp_path, "kolossus", ["Ann", "Bob"])
    yield kiosk
    close_kiosk(kiosk)


def test_the_roll_cue_on_the_board_and_the_led_mirror_0_2_3(kiosk: Kiosk) -> None:
    layout = kolossus_layout()
    kiosk.mirror.set_layout(layout)
    sent: list[Frame] = []

    def feed(highlights: object) -> None:
        assert kiosk.play is not None
        frame = render(highlights, layout, kiosk.play.board_input.palette, still=True)  # type: ignore[arg-type]
        sent.append(frame)
        kiosk.mirror.show(frame)

    kiosk.on_highlights = feed
    tap_button(kiosk, "Ready", exact=True)
    play, screen = kiosk.play, kiosk.play_screen
    assert play is not None and play.queries.dice_request() is not None
    board = screen.board
    assert board is not None and board.view is not None
    cued = {c for c, look in board.view.looks.items() if look.role is Role.ROLL}
    assert cued == {h.cell for h in play.highlights() if h.role is Role.ROLL} - {
        h.cell for h in play.highlights() if h.role is Role.QUAKE_REGION
    }
    assert len(cued) == 8
    shoot(kiosk, "play-kolossus-roll-cue")

    tap_button(kiosk, "Table", exact=True)
    tap_button(kiosk, "LEDs", exact=True)
    mirror = screen.mirror
    assert mirror is not None and mirror.parent is not None and sent
    frame = sent[-1]
    rose = render(
        [Highlight(cell="0,0", role=Role.ROLL)], layout, play.board_input.palette, still=True
    )
    colour = rose[layout.leds_of("0,0")[0]]
    for cell in cued:
        assert {frame[i] for i in layout.leds_of(cell)} == {colour}
    mirror_colours = {d.colour for d in mirror.dots}
    assert colour in mirror_colours  # the screen's mirror draws the strip's own frame
    shoot(kiosk, "play-kolossus-roll-cue-leds")
