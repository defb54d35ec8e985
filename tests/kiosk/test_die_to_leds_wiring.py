"""A die read on the table lights the LEDs through the app's own wiring.

The production path, not a copy of its glue: a :class:`DieResult` posted to the kiosk's
:class:`HardwareHub` (as a tray reader's thread does) → the hub's handlers → the play
presenter → the kiosk's change pipeline (lesson check → LEDs → screen) → the rig's LED
feed → its animator → the simulated strip. The rig's clock is the test's, so the frame
the strip ships is exactly the one rendered here from the game's new highlights.
"""

from __future__ import annotations

import time
from pathlib import Path

from kivy.base import EventLoop

from firmware_bridge.config import BoardConfig, ButtonsConfig, DiceConfig, LedsConfig
from firmware_bridge.dice.messages import DieResult
from firmware_bridge.leds.factory import power_budget_of
from firmware_bridge.leds.render import gamma_table, render
from firmware_bridge.leds.sim import SimStrip
from firmware_bridge.leds.strip import Frame
from firmware_bridge.platform import Platform
from firmware_bridge.rig import Rig, build_rig
from kiosk.app import Kiosk
from kiosk.presenters.play import PlayPresenter
from kiosk.screens import Stage
from kiosk.settings import CompanionConfig
from tests.kiosk.ui import close_kiosk, open_kiosk

#: The test's clock: the animator renders every frame at this moment.
NOW = 1000.0
WAIT_S = 5.0


def frame_for(play: PlayPresenter, rig: Rig, strip: SimStrip) -> Frame:
    """The frame the strip must show for ``play``'s highlights, rendered here."""
    leds = rig.config.leds
    assert rig.layout is not None
    frame = render(
        play.highlights(),
        rig.layout,
        play.board_input.palette,
        leds.brightness,
        power_budget_of(leds),
        0.0,  # the animator's clock has not moved since it was built
        gamma=gamma_table(leds.gamma),
    )
    return frame + ((0, 0, 0),) * (strip.count - len(frame))


def test_a_die_lights_its_highlights_through_hub_presenter_pipeline_and_rig(
    tmp_path: Path,
) -> None:
    leds = LedsConfig(driver="sim")
    config = CompanionConfig(
        dice=DiceConfig(source="none"),
        buttons=ButtonsConfig(source="none"),
        leds=leds,
        board=BoardConfig(source="none"),
    )
    rig = build_rig(config, Platform(None), sim_dir=tmp_path / "sim", clock=lambda: NOW)
    kiosk: Kiosk = open_kiosk(tmp_path)
    screens: Stage = kiosk  # what the screens hold is the kiosk itself (checked by mypy)
    assert screens is kiosk
    try:
        kiosk.attach_rig(rig)
        assert rig.sim is not None and isinstance(rig.sim.strip, SimStrip)
        strip = rig.sim.strip
        kiosk.open_setup("kolossus")
        assert kiosk.setup is not None
        kiosk.setup.names[:] = ["Ann", "Bob"]
        kiosk.start_game()
        play = kiosk.play
        assert play is not None and kiosk.manager.current == "play"
        play.submit({"type": "ready"})
        request = play.queries.dice_request()
        assert request is not None, "Kolossus asks for a roll after the players are ready"
        before = len(play.session.actions)
        for die in range(request.count):
            kiosk.hub.post(DieResult("tray", die_id=die, face=1, faces=request.sides, seq=die))
        kiosk.pump()
        assert len(play.session.actions) == before + 1, "the dice were played as one roll"
        wanted = frame_for(play, rig, strip)
        deadline = time.monotonic() + WAIT_S
        while strip.last_frame != wanted:  # the animator's thread ships it
            assert time.monotonic() < deadline, "the roll's highlights never reached the strip"
            EventLoop.idle()
            time.sleep(0.01)
        assert play.highlights(), "the new position lights something"
    finally:
        close_kiosk(kiosk)
