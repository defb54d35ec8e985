"""Session and journal: durability, undo/redo, resume, damage reporting, export."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import InvalidAction, JournalError, RuleViolation
from companion.journal import Journal
from companion.session import RECORD_FORMAT, Session
from tests.helpers.journal_file import on_disk, tamper


def _journal(tmp_path: Path) -> Journal:
    return Journal(tmp_path / "journal.sqlite3")


def test_journal_uses_wal_and_full_sync(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    assert journal.durability == ("wal", 2)  # 2: FULL, each commit survives a power cut
    with on_disk(journal) as db:  # the mode is the file's own: every reader sees it
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_every_accepted_action_is_committed_before_submit_returns(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann", "Bob"], seed=7, journal=journal)
    session.submit({"type": "roll", "values": [4], "source": "manual"})
    # A second, independent connection sees the committed row at once.
    other = sqlite3.connect(tmp_path / "journal.sqlite3")
    rows = other.execute("SELECT kind, payload FROM entries").fetchall()
    assert rows == [("act", '{"type":"roll","values":[4],"source":"manual","device":null}')]


def test_refused_action_writes_nothing(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann"], seed=1, journal=journal)
    state = session.state
    with pytest.raises(RuleViolation) as err:
        session.submit({"type": "hold"})
    assert err.value.ruling == "TOY-R2"
    with pytest.raises(InvalidAction):
        session.submit({"type": "roll", "values": ["six"]})
    assert session.state is state
    assert journal.game(session.game_id or 0).entries == 0


def test_undo_redo_are_journaled_and_survive_resume(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann", "Bob"], seed=3, journal=journal)
    session.submit({"type": "roll", "values": [5], "source": "manual"})
    session.submit({"type": "roll", "values": [6], "source": "manual"})
    after_two = session.state
    session.undo()
    assert session.can_redo
    resumed, damage = Session.resume(journal, session.game_id or 0)
    assert damage is None
    assert resumed.state == session.state
    assert resumed.can_redo
    resumed.redo()
    assert resumed.state == after_two
    with pytest.raises(RuleViolation):
        resumed.redo()


def test_new_action_after_undo_clears_redo(tmp_path: Path) -> None:
    session = Session.new("toy_pig", ["Ann"], seed=3, journal=_journal(tmp_path))
    session.submit({"type": "roll", "values": [5], "source": "manual"})
    session.undo()
    session.submit({"type": "roll", "values": [3], "source": "manual"})
    assert not session.can_redo
    resumed, _ = Session.resume(session.journal or _journal(tmp_path), session.game_id or 0)
    assert resumed.state == session.state and not resumed.can_redo


def test_software_rolls_replay_identically(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann", "Bob"], seed=99, journal=journal)
    for _ in range(30):
        session.submit({"type": "roll"})
    resumed, _ = Session.resume(journal, session.game_id or 0)
    assert resumed.state == session.state
    assert [e[0].model_dump() for e in resumed.events] == [
        e[0].model_dump() for e in session.events
    ]


def test_corrupt_row_is_reported_with_its_position_and_set_aside(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann", "Bob"], seed=5, journal=journal)
    for face in (2, 3, 4, 5):
        session.submit({"type": "roll", "values": [face], "source": "manual"})
    game_id = session.game_id or 0
    # Damage entry 3 behind the journal's back (a torn write, a bad sector).
    tamper(
        journal,
        "UPDATE entries SET payload = substr(payload, 1, 10) WHERE game_id = ? AND seq = 3",
        (game_id,),
    )
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None
    assert damage.seq == 3 and "checksum" in damage.reason
    assert len(resumed.actions) == 2  # recovered up to the last good action
    assert [d.seq for d in journal.damaged(game_id)] == [3, 4]  # kept, not dropped
    resumed.submit({"type": "roll", "values": [6], "source": "manual"})  # and play goes on
    again, damage2 = Session.resume(journal, game_id)
    assert damage2 is None and again.state == resumed.state


def test_unreplayable_row_is_reported(tmp_path: Path) -> None:
    from companion.journal import entry_crc

    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann"], seed=5, journal=journal)
    session.submit({"type": "roll", "values": [2], "source": "manual"})
    tamper(
        journal,
        "INSERT INTO entries(game_id, seq, kind, payload, crc, at) VALUES (?, 2, 'act', ?, ?, '')",
        (session.game_id, '{"type":"fly"}', entry_crc("act", '{"type":"fly"}')),
    )
    resumed, damage = Session.resume(journal, session.game_id or 0)
    assert damage is not None and damage.seq == 2 and "cannot replay" in damage.reason
    assert len(resumed.actions) == 1


def test_missing_row_is_reported(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann"], seed=5, journal=journal)
    for face in (2, 3, 4):
        session.submit({"type": "roll", "values": [face], "source": "manual"})
    tamper(journal, "DELETE FROM entries WHERE seq = 2")
    _, damage = Session.resume(journal, session.game_id or 0)
    assert damage is not None and damage.seq == 2 and "missing" in damage.reason


def test_outcome_is_recorded_and_cleared_by_undo(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann"], {"target": 5}, seed=5, journal=journal)
    session.submit({"type": "roll", "values": [6], "source": "manual"})
    session.submit({"type": "hold"})
    info = journal.game(session.game_id or 0)
    assert info.status == "finished" and info.outcome is not None
    session.undo()
    assert journal.game(session.game_id or 0).status == "active"


def test_list_games_most_recent_first_and_demo_hidden(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    first = Session.new("toy_pig", ["Ann"], seed=1, journal=journal)
    demo = Session.new("toy_pig", ["Bot"], seed=2, journal=journal, demo=True)
    second = Session.new("toy_pig", ["Bob"], seed=3, journal=journal)
    ids = [g.game_id for g in journal.games()]
    assert ids == [second.game_id, first.game_id]
    assert demo.game_id in [g.game_id for g in journal.games(include_demo=True)]


def test_export_record(tmp_path: Path) -> None:
    session = Session.new(
        "toy_pig", ["Ann", "Bob"], {"target": 5}, seed=11, journal=_journal(tmp_path)
    )
    session.submit({"type": "roll", "values": [6], "source": "manual"})
    session.submit({"type": "hold"})
    record = session.export()
    assert record["format"] == RECORD_FORMAT
    assert record["players"] == ["Ann", "Bob"]
    assert record["options"] == {"target": 5}
    assert record["seed"] == 11
    assert [a["type"] for a in record["actions"]] == ["roll", "hold"]
    assert record["outcome"]["winners"] == [0]
    assert record["scores"]["rows"][0]["values"] == [6, 0]


def test_from_position_round_trips_and_resumes(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    original = Session.new("toy_pig", ["Ann", "Bob"], seed=8)
    for _ in range(7):
        original.submit({"type": "roll"})
    position = original.rules.dump_position(original.state)
    loaded = Session.from_position("toy_pig", position, journal=journal)
    assert loaded.state == original.state
    loaded.submit({"type": "roll"})
    resumed, _ = Session.resume(journal, loaded.game_id or 0)
    assert resumed.state == loaded.state


def test_journal_write_failure_refuses_the_action(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann"], seed=5, journal=journal)
    state = session.state
    journal.close()  # the storage is gone (a yanked USB stick, a read-only card)
    with pytest.raises(JournalError):
        session.submit({"type": "roll", "values": [3], "source": "manual"})
    assert session.state is state and not session.can_undo


def test_unopenable_journal_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "journal.sqlite3"
    bad.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(JournalError) as err:
        Journal(bad)
    assert str(bad) in err.value.message


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**62),
    script=st.lists(st.sampled_from(["roll", "hold", "undo", "redo"]), max_size=40),
)
def test_replay_reproduces_any_mix_of_actions_undo_and_redo(seed: int, script: list[str]) -> None:
    journal = Journal(":memory:")
    session = Session.new("toy_pig", ["Ann", "Bob"], seed=seed, journal=journal)
    for step in script:
        try:
            if step == "undo":
                session.undo()
            elif step == "redo":
                session.redo()
            else:
                session.submit({"type": step})
        except RuleViolation:
            pass
    resumed, damage = Session.resume(journal, session.game_id or 0)
    assert damage is None
    assert resumed.state == session.state
    assert resumed.can_redo == session.can_redo
    assert resumed.actions == session.actions


def test_an_exported_record_says_each_action_in_the_players_words(tmp_path: Path) -> None:
    """An export (and the fleet's copy of a finished game) carries each action as the
    table read it, said in the state before it: what a shop page or a person shows."""
    session = Session.new("builders", ["Ann", "Bob"], seed=3, journal=_journal(tmp_path))
    rules = session.rules
    said = []
    for _ in range(3):
        before = session.state
        action = next(iter(rules.legal_actions(before)))
        said.append(rules.describe(before, action))
        session.submit(rules.dump_action(action))
    record = session.export()
    assert record["texts"] == said
    assert len(record["texts"]) == len(record["actions"]) == 3
    assert all(text and "_" not in text for text in said)
