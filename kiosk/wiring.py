"""The kiosk's hardware wiring: the hub's handlers, the rig's devices and LEDs, the
sensing board.

:class:`HardwareWiring` gives the :class:`~kiosk.hardware.HardwareHub` its one set of
:class:`~kiosk.hardware.HubHandlers` (the kiosk's button, note and device handlers, the
LED mirror, the sensing board), starts the rig's devices into the hub, and owns the
rig's LED feed: :meth:`led_feed` is the LED step of the kiosk's change pipeline
(kiosk/navigation.py: lesson check → LEDs → screen).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kivy.clock import Clock, ClockEvent

from companion.highlights import Highlight
from firmware_bridge.board.messages import BoardOccupancy
from firmware_bridge.buttons import ButtonMessage
from firmware_bridge.leds.palette import Palette
from firmware_bridge.rig import DeviceNote, Rig
from kiosk.hardware import HardwareHub, HubHandlers, Later
from kiosk.mirror_feed import MirrorFeed
from kiosk.presenters.common import Banner
from kiosk.presenters.devices import DeviceStatus

if TYPE_CHECKING:  # with the first game or a sensing board, not at launch
    from kiosk.board_sensing import BoardSensing
    from kiosk.presenters.play import PlayPresenter

HighlightSink = Callable[[tuple[Highlight, ...]], None]


def clock_later(delay: float, then: Callable[[], None]) -> ClockEvent:
    """Run ``then`` on the main thread ``delay`` seconds from now (the hub's partial roll
    notes, the sensing board's settling); the clock event, to cancel it."""
    return Clock.schedule_once(lambda _dt: then(), delay)


class HardwareWiring:
    """The devices of one kiosk (see the module docstring)."""

    def __init__(
        self,
        hub: HardwareHub,
        mirror: MirrorFeed,
        *,
        button: Callable[[ButtonMessage], object],
        note: Callable[[DeviceNote], None],
        devices: Callable[[tuple[DeviceStatus, ...]], None],
    ) -> None:
        self.hub = hub
        self.mirror = mirror
        self.rig: Rig | None = None
        #: The sensing board, when the rig has one (kiosk/board_sensing.py).
        self.sensing: BoardSensing | None = None
        #: Runs a callable on the main thread on time whatever the loop's pace (the
        #: app's :meth:`IdlePace.later`): the sensing board's stable-position wait.
        #: None: Kivy's clock (an unlimited loop, as the tests run it).
        self.on_time: Later | None = None
        hub.connect(
            HubHandlers(
                button=button,
                frame=mirror.shipped,
                note=note,
                devices=devices,
                board=self._board,
                later=clock_later,
            )
        )

    def attach(self, rig: Rig) -> None:
        """Run ``rig``'s devices: their messages into the hub, the board read for the game
        on screen (the LEDs are fed by :meth:`led_feed`; the frames the strip ships come
        back through the hub to the LED mirror)."""
        self.rig = rig
        if rig.layout is not None:
            self.mirror.set_layout(rig.layout)
        if rig.board_reader is not None:
            self.hub.board_reader = rig.board_reader
        if rig.config.board.source != "none":
            from kiosk.board_sensing import BoardSensing  # a sensing board's modules

            self.sensing = BoardSensing(
                later=self.on_time or clock_later,
                sim_board=None if rig.sim is None else rig.sim.board,
                settle_s=rig.config.board.settle_s,
            )
        rig.start(self.hub.post)

    def led_feed(self, palette: Callable[[], Palette | None]) -> HighlightSink | None:
        """The rig's LED feed (None without a rig): each change's highlights to the LED
        animator, in ``palette()``'s colours (the game on screen's)."""
        rig = self.rig
        if rig is None:
            return None

        def show(highlights: tuple[Highlight, ...]) -> None:
            rig.show_highlights(highlights, palette())

        return show

    def _board(self, message: BoardOccupancy) -> None:
        if self.sensing is not None:
            self.sensing.occupancy(message)

    def follow(self, play: PlayPresenter | None) -> None:
        """The sensing board follows ``play`` (None: no game on the play screen)."""
        sensing = self.sensing
        if sensing is None:
            return
        if play is None:
            sensing.detach()
        elif sensing.following is not play:
            sensing.attach(play)

    # --- the simulated dice tray ----------------------------------------------------------

    def sim_tray_available(self) -> bool:
        """True when the dice are simulated: the dice panel offers to roll the sim tray."""
        return self.rig is not None and self.rig.sim is not None and self.rig.sim.dice_simulated

    def roll_sim_tray(self, play: PlayPresenter) -> None:
        """Roll the simulated tray's dice for ``play``'s pending request (through the pty
        path)."""
        if self.rig is None or self.rig.sim is None:
            return
        request = play.queries.dice_request()
        if request is None:
            return
        try:
            self.rig.sim.roll_dice(request.sides, request.count)
        except (ValueError, RuntimeError) as error:
            play.show_banner(Banner(f"The simulated tray cannot roll this: {error}"))
            play.changed()

    def close(self) -> None:
        if self.sensing is not None:
            self.sensing.detach()
        if self.rig is not None:
            self.rig.stop()
            self.rig = None
