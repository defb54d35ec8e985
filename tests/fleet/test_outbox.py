"""The journal's outbox: plays queued in the same commit as the play, read and removed
by the fleet's own connection (a real SQLite file on disk)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.journal import Journal, Outbox
from companion.session import Session


def _roll(face: int) -> dict[str, object]:
    return {"type": "roll", "values": [face], "source": "manual"}


def _queued(path: Path) -> list[dict[str, object]]:
    outbox = Outbox(path)
    try:
        return [json.loads(m.payload) for m in outbox.pending(limit=1000)]
    finally:
        outbox.close()


def test_every_play_is_queued_in_order_with_the_entry_it_copies(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.keep_outbox(100)
    session = Session.new("toy_pig", ["Ann", "Bob"], {"target": 5}, seed=5, journal=journal)
    session.submit(_roll(3))
    session.undo()
    session.redo()
    session.submit({"type": "hold"})
    game_id = session.game_id
    journal.close()  # the plays outlive the program that made them

    plays = _queued(path)
    assert [(p["kind"], p["seq"]) for p in plays] == [
        ("start", 0), ("act", 1), ("undo", 2), ("redo", 3), ("act", 4),
    ]  # fmt: skip
    assert all(p["game_id"] == game_id and p["game"] == "toy_pig" for p in plays)
    assert plays[0]["seats"] == 2
    assert plays[1]["action"] == {"type": "roll", "values": [3], "source": "manual", "device": None}
    assert plays[2]["action"] is None
    # No player name is queued.
    assert "Ann" not in json.dumps(plays) and "Bob" not in json.dumps(plays)


def test_the_play_that_ends_a_game_carries_its_outcome(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.keep_outbox(100)
        session = Session.new("toy_pig", ["Ann"], {"target": 5}, seed=5, journal=journal)
        while session.outcome is None:
            session.submit(_roll(6))
            if session.outcome is None:
                session.submit({"type": "hold"})
    plays = _queued(path)
    ended = [p for p in plays if "outcome" in p]
    assert len(ended) == 1 and ended[0] is plays[-1]
    assert ended[0]["outcome"]["winners"] == [0]  # type: ignore[index]


def test_nothing_is_queued_without_the_fleet_nor_for_demo_games(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        Session.new("toy_pig", ["Ann"], seed=1, journal=journal).submit(_roll(2))
        journal.keep_outbox(100)
        demo = Session.new("toy_pig", ["Ann"], seed=1, journal=journal, demo=True)
        demo.submit(_roll(2))
    assert _queued(path) == []


def test_a_full_outbox_lets_the_oldest_go_and_counts_them(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.keep_outbox(10)
        session = Session.new("toy_pig", ["Ann"], {"target": 100}, seed=1, journal=journal)
        for _ in range(14):
            session.submit(_roll(2))
        assert journal.outbox_dropped() == 5
    plays = _queued(path)
    assert [p["seq"] for p in plays] == list(range(5, 15))
    outbox = Outbox(path)
    assert outbox.backlog() == 10 and outbox.dropped() == 5
    outbox.close()


def test_removed_messages_are_gone_and_the_rest_wait_in_order(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.keep_outbox(100)
    session = Session.new("toy_pig", ["Ann"], {"target": 100}, seed=1, journal=journal)
    for _ in range(5):
        session.submit(_roll(2))
    outbox = Outbox(path)
    first = outbox.pending(limit=3)
    outbox.remove(m.msg_id for m in first[:2])
    # The journal's writer and the outbox's reader share the file.
    session.submit(_roll(3))
    rest = outbox.pending(limit=100)
    assert [json.loads(m.payload)["seq"] for m in rest] == [2, 3, 4, 5, 6]
    assert outbox.pending(after=rest[-2].msg_id) == rest[-1:]
    assert outbox.backlog() == 5
    outbox.close()
    journal.close()


def test_a_play_and_its_copy_are_one_commit(tmp_path: Path) -> None:
    """When the copy cannot be queued the play is refused, and nothing of it stays."""
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    journal.keep_outbox(100)
    session = Session.new("toy_pig", ["Ann"], {"target": 100}, seed=1, journal=journal)
    session.submit(_roll(2))
    other = sqlite3.connect(path)
    other.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'full'); END"
    )
    other.commit()
    with pytest.raises(JournalError):
        session.submit(_roll(3))
    assert len(session.actions) == 1
    entries, damage = journal.entries(session.game_id or 0)
    assert len(entries) == 1 and damage is None
    other.close()
    journal.close()
    assert [p["seq"] for p in _queued(path)] == [0, 1]


def test_an_outbox_needs_an_existing_journal(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no such file"):
        Outbox(tmp_path / "nothing.sqlite3")


def test_a_journal_without_an_outbox_table_gets_one_and_stays_healthy(tmp_path: Path) -> None:
    """A file written before the outbox existed: opened, the table is added, no damage."""
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        Session.new("toy_pig", ["Ann"], seed=1, journal=journal).submit(_roll(2))
    db = sqlite3.connect(path)
    db.execute("DROP TABLE outbox")
    db.commit()
    db.close()
    with Journal(path) as journal:
        assert journal.check() == []
        journal.keep_outbox(10)
        (info,) = journal.games()
        session, _ = Session.resume(journal, info.game_id)
        session.submit(_roll(3))
    assert [p["seq"] for p in _queued(path)] == [2]
