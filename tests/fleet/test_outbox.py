"""The journal's outbox: a finished game's record queued in the commit of the entry that
finished it, read and removed by the fleet's own connection (a real SQLite file)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.journal import Journal, Outbox, OutboxMessage
from companion.session import Session
from firmware_bridge.doctor import Severity
from kiosk.doctor_checks import diagnose_kiosk
from kiosk.doctor_facts import inspect_journal
from kiosk.storage import JOURNAL_FILE
from tests.helpers.doctor import facts


def _roll(face: int) -> dict[str, object]:
    return {"type": "roll", "values": [face], "source": "manual"}


def _game(journal: Journal, *, demo: bool = False) -> Session:
    """A one-player game of Pig that a roll of 6 and a hold finish."""
    return Session.new("toy_pig", ["Ann"], {"target": 5}, seed=1, journal=journal, demo=demo)


def _finish(session: Session) -> None:
    session.submit(_roll(6))
    session.submit({"type": "hold"})
    assert session.outcome is not None


def _queued(path: Path) -> list[OutboxMessage]:
    outbox = Outbox(path)
    try:
        return outbox.pending(limit=1000)
    finally:
        outbox.close()


def test_the_entry_that_finishes_a_game_queues_its_record(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.keep_outbox(100, topic="plays")
    session = Session.new("toy_pig", ["Ann", "Bob"], {"target": 5}, seed=5, journal=journal)
    session.submit(_roll(3))
    assert _queued(path) == []  # nothing while the game goes on
    session.submit(_roll(4))
    session.submit({"type": "hold"})
    assert session.outcome is not None
    journal.close()  # the record outlives the program that made it

    (message,) = _queued(path)
    assert (message.topic, message.game_id, message.seq) == ("plays", session.game_id, 3)
    assert json.loads(message.payload) == session.export()


def test_a_game_reopened_by_undo_and_finished_again_queues_a_second_record(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.keep_outbox(100, topic="plays")
        session = _game(journal)
        _finish(session)
        session.undo()
        session.redo()
    first, again = _queued(path)
    assert (first.seq, again.seq) == (2, 4)
    assert json.loads(first.payload) == json.loads(again.payload) == session.export()


def test_nothing_is_queued_without_the_fleet_nor_for_demo_games(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        _finish(_game(journal))
        journal.keep_outbox(100, topic="plays")
        _finish(_game(journal, demo=True))
    assert _queued(path) == []


def test_a_full_outbox_lets_the_oldest_go_and_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.keep_outbox(10, topic="plays")
        games = [_game(journal) for _ in range(14)]
        for session in games:
            _finish(session)
        assert journal.outbox_dropped() == 4
    assert [m.game_id for m in _queued(path)] == [s.game_id for s in games[4:]]
    outbox = Outbox(path)
    assert outbox.backlog() == 10 and outbox.dropped() == 4
    outbox.close()


def test_removed_messages_are_gone_and_the_rest_wait_in_order(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.keep_outbox(100, topic="plays")
    games = [_game(journal) for _ in range(6)]
    for session in games[:5]:
        _finish(session)
    outbox = Outbox(path)
    first = outbox.pending(limit=3)
    outbox.remove(m.msg_id for m in first[:2])
    # The journal's writer and the outbox's reader share the file.
    _finish(games[5])
    rest = outbox.pending(limit=100)
    assert [m.game_id for m in rest] == [s.game_id for s in games[2:]]
    assert outbox.pending(after=rest[-2].msg_id) == rest[-1:]
    assert outbox.backlog() == 4
    outbox.close()
    journal.close()


def test_a_play_and_its_copy_are_one_commit(tmp_path: Path) -> None:
    """When the copy cannot be queued the play is refused, and nothing of it stays."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.keep_outbox(100, topic="plays")
    session = _game(journal)
    session.submit(_roll(6))
    other = sqlite3.connect(path)
    other.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'full'); END"
    )
    other.commit()
    with pytest.raises(JournalError):
        session.submit({"type": "hold"})
    assert len(session.actions) == 1 and session.outcome is None
    entries, damage = journal.entries(session.game_id or 0)
    assert len(entries) == 1 and damage is None
    assert journal.game(session.game_id or 0).status == "active"
    other.execute("DROP TRIGGER refuse")
    other.commit()
    other.close()
    session.submit({"type": "hold"})  # the same action, once the record can be queued
    journal.close()
    assert [m.seq for m in _queued(path)] == [2]


def test_an_outbox_needs_an_existing_journal(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no such file"):
        Outbox(tmp_path / "nothing.sqlite3")


def test_a_journal_without_an_outbox_table_gets_one_and_stays_healthy(tmp_path: Path) -> None:
    """A file written before the outbox existed: opened, the table is added, no damage."""
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        _game(journal).submit(_roll(6))
    db = sqlite3.connect(path)
    db.execute("DROP TABLE outbox")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert journal.check() == []
        journal.keep_outbox(10, topic="plays")
        (info,) = journal.games()
        session, _ = Session.resume(journal, info.game_id)
        session.submit({"type": "hold"})
    assert [m.seq for m in _queued(path)] == [2]


def test_the_kiosk_doctor_counts_what_waits_and_what_was_let_go(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        _finish(_game(journal))
    assert inspect_journal(path).outbox == (0, 0)  # the table exists, nothing waits
    with Journal(path) as journal:
        journal.keep_outbox(10, topic="plays")
        for _ in range(12):
            _finish(_game(journal))
    health = inspect_journal(path)
    assert health.outbox == (10, 2) and health.sound
    said = [f for f in diagnose_kiosk(facts(tmp_path, journal=health)) if f.topic == "fleet"]
    assert [f.severity for f in said] == [Severity.OK, Severity.WARNING]
    assert said[0].text.startswith("10 finished game(s) wait")
    assert said[1].text.startswith("2 finished game(s) were let go")
