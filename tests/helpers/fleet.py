"""A table that plays games into a journal with the outbox on, and publishes them to
the fleet broker."""

from __future__ import annotations

from pathlib import Path

from companion.journal import Journal, Outbox
from companion.session import Session
from kiosk.fleet.publisher import FleetPublisher
from tests.fleet.broker import Broker


def roll(face: int) -> dict[str, object]:
    return {"type": "roll", "values": [face], "source": "manual"}


class Table1:
    """A table: its journal (with the outbox on), its games, and its publisher."""

    def __init__(self, folder: Path, broker: Broker, **settings: object) -> None:
        self.path = folder / "journal.sqlite3"
        self.journal = Journal(self.path)
        self.journal.keep_outbox(1000, topic="plays")
        self.finished: list[int] = []  # game ids, in the order they finished
        self.publisher = FleetPublisher(
            broker.fleet_config(**settings),
            journal_path=self.path,
            doctor=lambda: ("[problem] dice: no tray on USB",),
        )
        self.outbox = Outbox(self.path)

    def play(self, games: int) -> None:
        """Finish ``games`` one-player games of Pig (a roll of 6 and a hold each)."""
        for _ in range(games):
            session = Session.new("toy_pig", ["Ann"], {"target": 5}, seed=3, journal=self.journal)
            session.submit(roll(6))
            session.submit({"type": "hold"})
            assert session.game_id is not None and session.outcome is not None
            self.finished.append(session.game_id)
        self.publisher.poke()

    def waiting(self) -> int:
        return self.outbox.backlog()

    def close(self) -> None:
        self.publisher.stop()
        self.outbox.close()
        self.journal.close()
