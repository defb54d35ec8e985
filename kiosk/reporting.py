"""The kiosk's side of the fleet (kiosk/fleet/, docs/fleet.md): what the table reports.

:class:`FleetReporting` hands the fleet publisher values only — the game on screen,
Home's problems and the devices as the header shows them — and wakes its forwarder
when the journal queued a record; the publisher sends on its own thread. The fleet's
modules (paho-mqtt) are loaded by :func:`kiosk.fleet.report.make_publisher` only when
the fleet is on, so this module imports none of them at the top.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kivy.clock import Clock

from companion.journal import Journal
from kiosk.hardware import HardwareHub
from kiosk.presenters.devices import badges

if TYPE_CHECKING:  # loaded only when the fleet is on (paho-mqtt)
    from companion.session import Session
    from kiosk.fleet.publisher import FleetPublisher


class FleetReporting:
    """The fleet publisher of one kiosk, fed on the main thread."""

    def __init__(
        self,
        journal: Journal,
        hub: HardwareHub,
        problems: Sequence[str],
        on_notice: Callable[[], None],
    ) -> None:
        self.journal = journal
        self.hub = hub
        self.problems = problems
        #: Called when :attr:`notice` changed (Home's banner shows it).
        self.on_notice = on_notice
        self.fleet: FleetPublisher | None = None
        #: What is wrong with the fleet link, in words for Home's banner ("" when fine).
        self.notice = ""
        self._queued = 0  # the journal's queued count when the forwarder was last woken
        self._state: object = None  # the state the fleet's table value was made from

    def attach(self, fleet: FleetPublisher, session: Session | None, *, demo: bool) -> None:
        """Report this table through ``fleet``: the journal queues every play for it (in
        the play's own commit), and each change on screen updates the table's values."""
        from kiosk.fleet.messages import PLAYS  # the fleet is on: its modules are loaded

        self.fleet = fleet
        if not self.journal.read_only:
            self.journal.keep_outbox(fleet.settings.outbox_limit, topic=PLAYS)
        # The forwarder's thread says when the link goes wrong (records refused, no
        # broker) or right again; Home's banner shows it, on the main thread.
        fleet.on_trouble = lambda text: Clock.schedule_once(lambda _dt: self._show_trouble(text), 0)
        fleet.start()
        self.report(session, demo=demo)
        self.report_health()

    def _show_trouble(self, text: str | None) -> None:
        self.notice = text or ""
        self.on_notice()

    def report(self, session: Session | None, *, demo: bool) -> None:
        """Hand the publisher ``session`` (None: Home), and wake it when the journal
        queued a record. The table's value is made again only when the state changed (a
        tap that selects a cell does not)."""
        fleet = self.fleet
        if fleet is None:
            return
        from kiosk.fleet.report import table_of  # the fleet is on: its modules are loaded

        shown = None if session is None else session.state
        if shown is not self._state or session is None:
            self._state = shown
            fleet.show_table(table_of(fleet.device, session, demo=demo))
        if self.journal.queued != self._queued:  # a finished game's record to send
            self._queued = self.journal.queued
            fleet.poke()

    def report_health(self) -> None:
        """Hand the publisher Home's problems and the devices as the header shows them
        (after a device note or a change of the devices)."""
        if self.fleet is None:
            return
        from kiosk.fleet.messages import DeviceHealth  # the fleet is on: loaded

        statuses = self.hub.device_statuses()
        self.fleet.set_health(
            problems=tuple(self.problems),
            devices=tuple(
                DeviceHealth(
                    device=status.device,
                    state=status.state,
                    battery=status.battery,
                    level=badge.level,
                    text=badge.text,
                )
                for status, badge in zip(statuses, badges(statuses), strict=True)
            ),
            journal_read_only=self.journal.read_only,
        )

    def stop(self) -> None:
        if self.fleet is not None:
            self.fleet.stop()
            self.fleet = None
