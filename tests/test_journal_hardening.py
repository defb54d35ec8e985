"""The journal's trust rules, each from a fault found by testing.

One writer per game; one action, one transaction; damage that costs a row, not the
journal; nothing lost silently; a clear sentence instead of a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import GameInUse, JournalError
from companion.journal import SCHEMA_VERSION, Journal
from companion.protocol import Referee
from companion.session import Session
from tests.helpers.journal_file import tamper

REPO = Path(__file__).resolve().parent.parent


def _journal(tmp_path: Path) -> Journal:
    return Journal(tmp_path / "journal.sqlite3")


def _played(journal: Journal, rolls: tuple[int, ...] = (2, 3, 4)) -> Session:
    session = Session.new("toy_pig", ["Ann", "Bob"], {"target": 100}, seed=5, journal=journal)
    for face in rolls:
        session.submit({"type": "roll", "values": [face], "source": "manual"})
    return session


def _python(code: str) -> subprocess.Popen[str]:
    """A second program on this machine, with the test game registered."""
    return subprocess.Popen(
        [sys.executable, "-c", "import tests.conftest\n" + code],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


# --- one writer per game -------------------------------------------------------


def test_a_second_program_cannot_resume_a_game_being_played(tmp_path: Path) -> None:
    """A second referee resumed a game another was playing; both were
    acknowledged and the next resume set 20 acknowledged moves aside."""
    journal = _journal(tmp_path)
    session = _played(journal)
    request = json.dumps({"cmd": "resume", "game_id": session.game_id})
    proc = subprocess.run(
        [str(Path(sys.executable).with_name("companion")), "referee", "--data-dir", str(tmp_path)],
        input=request + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    reply = json.loads(proc.stdout)
    assert reply["error"]["code"] == "game_in_use", reply
    assert f"process {os.getpid()}, since 20" in reply["error"]["message"]
    session.submit({"type": "roll", "values": [5], "source": "manual"})  # we play on
    assert journal.game(session.game_id or 0).entries == 4


def test_a_second_journal_in_the_same_program_is_refused_too(tmp_path: Path) -> None:
    """The lock is per open journal, not per process."""
    session = _played(_journal(tmp_path))
    other = _journal(tmp_path)
    with pytest.raises(GameInUse) as refused:
        Session.resume(other, session.game_id or 0)
    assert refused.value.pid == os.getpid() and refused.value.game_id == session.game_id
    holder = other.holder(session.game_id or 0)
    assert holder is not None and holder.pid == os.getpid()
    with pytest.raises(GameInUse):  # nor may it write behind the holder's back
        other.append(session.game_id or 0, "undo")


def test_a_killed_holder_blocks_nothing(tmp_path: Path) -> None:
    """A crash or power cut must not leave a lock that blocks."""
    game_id = _played(_journal(tmp_path)).game_id
    _journal(tmp_path).close()
    holder = _python(
        "from companion.journal import Journal\n"
        f"j = Journal({str(tmp_path / 'journal.sqlite3')!r}); j.claim({game_id})\n"
        "print('held', flush=True)\n"
        "import time; time.sleep(60)\n"
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    journal = Journal(tmp_path / "journal.sqlite3")
    assert game_id is not None
    with pytest.raises(GameInUse) as refused:
        journal.claim(game_id)
    assert refused.value.pid == holder.pid
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    assert journal.holder(game_id) is None
    session, damage = Session.resume(journal, game_id)
    assert damage is None and len(session.actions) == 3


def test_switching_games_lets_go_of_the_previous_one(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    first = _played(journal)
    second = _played(journal)
    assert first.game_id is not None and second.game_id is not None
    assert journal.holder(first.game_id) is None  # another program may resume it now
    assert journal.holder(second.game_id) is not None
    journal.close()
    assert Journal(tmp_path / "journal.sqlite3").holder(second.game_id) is None


def test_viewing_a_game_being_played_is_allowed(tmp_path: Path) -> None:
    """Export and scores only look: they claim nothing and write nothing."""
    session = _played(_journal(tmp_path))
    view, damage = Session.view(_journal(tmp_path), session.game_id or 0)
    assert damage is None and view.state == session.state
    assert view.journal is None  # a view cannot record actions


# --- one action, one transaction -----------------------------------------------

FAIL_FINISH = (
    "CREATE TRIGGER fail_finish BEFORE UPDATE OF status ON games WHEN NEW.status = 'finished'"
    " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
)


def test_an_action_answered_journal_error_is_neither_live_nor_saved(tmp_path: Path) -> None:
    """The action and the finished mark were two transactions; when
    only the mark failed, the client heard "failed" and the game had the action anyway."""
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann"], {"target": 5}, seed=5, journal=journal)
    session.submit({"type": "roll", "values": [6], "source": "manual"})
    tamper(journal, FAIL_FINISH)
    before = session.state
    with pytest.raises(JournalError, match="storage is full"):
        session.submit({"type": "hold"})  # banks 6 of 5: the game is won
    assert session.state is before and len(session.actions) == 1 and session.outcome is None
    journal.close()
    resumed, damage = Session.resume(_journal(tmp_path), session.game_id or 0)
    assert damage is None and len(resumed.actions) == 1 and resumed.outcome is None


def test_builders_correct_built_to_ten_on_a_full_disk(tmp_path: Path) -> None:
    """Builders' ``correct_built`` to 10 Colossi ends the
    game; with the finished mark unwritable the referee answered journal_error, yet the
    correction was live and was there after a restart."""
    journal = _journal(tmp_path)
    referee = Referee(journal, lambda: 1)
    new = json.loads(referee.handle('{"cmd":"new","game":"builders","players":["A","B"],"seed":2}'))
    dump = referee.handle('{"cmd":"dump"}')
    tamper(journal, FAIL_FINISH)
    reply = json.loads(
        referee.handle('{"cmd":"act","action":{"type":"correct_built","player":0,"colossi":10}}')
    )
    assert reply["error"]["code"] == "journal_error", reply
    assert referee.handle('{"cmd":"dump"}') == dump
    journal.close()
    again = Referee(_journal(tmp_path), lambda: 1)
    resumed = json.loads(again.handle(json.dumps({"cmd": "resume", "game_id": new["game_id"]})))
    assert resumed["actions"] == 0 and resumed["outcome"] is None


def test_undo_and_redo_move_the_finished_mark_with_them(tmp_path: Path) -> None:
    journal = _journal(tmp_path)
    session = Session.new("toy_pig", ["Ann"], {"target": 5}, seed=5, journal=journal)
    session.submit({"type": "roll", "values": [6], "source": "manual"})
    session.submit({"type": "hold"})
    game_id = session.game_id or 0
    assert journal.game(game_id).status == "finished"
    session.undo()
    assert journal.game(game_id).status == "active"
    tamper(journal, FAIL_FINISH)
    with pytest.raises(JournalError):
        session.redo()
    assert session.outcome is None and session.can_redo
    assert journal.game(game_id).entries == 3  # act, act, undo: the redo was not stored


# --- damage costs a row, not the journal ---------------------------------------


def test_an_undecodable_row_costs_that_row_only(tmp_path: Path) -> None:
    """One payload that was not UTF-8 made resume, export and games
    fail for every game in the journal."""
    journal = _journal(tmp_path)
    damaged, healthy = _played(journal), _played(journal, (5, 6))
    tamper(
        journal,
        "UPDATE entries SET payload = CAST(x'ff' AS TEXT) WHERE game_id = ? AND seq = 2",
        (damaged.game_id,),
    )
    assert [g.game_id for g in journal.games()] == [healthy.game_id, damaged.game_id]
    _, damage = Session.view(journal, damaged.game_id or 0)
    assert damage is not None and damage.seq == 2 and "not valid text" in damage.reason
    resumed, damage = Session.resume(journal, damaged.game_id or 0)
    assert damage is not None and len(resumed.actions) == 1
    assert [d.seq for d in journal.damaged(damaged.game_id or 0)] == [2, 3]
    other, nothing = Session.resume(journal, healthy.game_id or 0)
    assert nothing is None and len(other.actions) == 2


def test_a_damaged_header_is_named_and_hides_no_other_game(tmp_path: Path) -> None:
    """Found by testing: one unreadable header broke ``games``; a header naming
    an unknown game answered invalid_options ("Unknown game 'chess'")."""
    journal = _journal(tmp_path)
    garbled, renamed, healthy = _played(journal), _played(journal), _played(journal)
    tamper(
        journal,
        "UPDATE games SET players = CAST(x'ff00' AS TEXT) WHERE game_id = ?",
        (garbled.game_id,),
    )
    tamper(journal, "UPDATE games SET game = 'chess' WHERE game_id = ?", (renamed.game_id,))
    assert {g.game_id for g in journal.games()} == {renamed.game_id, healthy.game_id}
    (unreadable,) = journal.unreadable_games()
    assert unreadable.game_id == garbled.game_id
    assert "players is not valid text" in unreadable.reason
    with pytest.raises(JournalError, match=r"header .* is damaged: players is not valid text"):
        Session.resume(journal, garbled.game_id or 0)
    referee = Referee(journal, lambda: 1)
    reply = json.loads(referee.handle(json.dumps({"cmd": "resume", "game_id": garbled.game_id})))
    assert reply["error"]["code"] == "journal_error"
    # The game the entries name is found again: the header is rebuilt, and says why.
    _, damage = Session.resume(journal, renamed.game_id or 0)
    assert damage is not None and "names an unknown game 'chess'" in damage.reason
    assert journal.game(renamed.game_id or 0).game == renamed.rules.name


def test_check_runs_sqlites_own_check(tmp_path: Path) -> None:
    """``doctor`` said "integrity ok" on a damaged file."""
    journal = _journal(tmp_path)
    _played(journal)
    assert journal.check() == [] and journal.check(full=True) == []
    journal.close()
    path = tmp_path / "journal.sqlite3"
    data = bytearray(path.read_bytes())
    page = 4096
    data[len(data) - page] = 0x7F  # the last b-tree page's type byte
    path.write_bytes(bytes(data))
    problems = Journal(path).check(full=True)
    assert problems and any("damage" in p for p in problems), problems


# --- nothing lost silently -----------------------------------------------------


def test_a_version_1_journal_is_upgraded_with_its_entry_counts(tmp_path: Path) -> None:
    """The schema version was written and never read."""
    path = tmp_path / "journal.sqlite3"
    _played(Journal(path)).journal.close()  # type: ignore[union-attr]
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE games DROP COLUMN entry_count")
    db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    journal = Journal(path)
    with sqlite3.connect(path) as reader:  # what the file says now, as any reader sees it
        (written,) = reader.execute(
            "SELECT value FROM meta WHERE key = 'schema_version'"
        ).fetchone()
    assert int(written) == SCHEMA_VERSION == 2
    (info,) = journal.games()
    assert info.entries == 3 and journal.check() == []
    session, damage = Session.resume(journal, info.game_id)
    assert damage is None and len(session.actions) == 3


def test_a_journal_from_a_newer_version_is_opened_read_only(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    _played(journal)
    tamper(journal, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    journal.close()
    newer = Journal(path)
    assert newer.read_only and "newer version" in (newer.read_only_reason or "")
    assert len(newer.games()) == 1
    with pytest.raises(JournalError, match="read-only"):
        Session.new("toy_pig", ["Ann"], seed=1, journal=newer)
    assert any("schema 99" in p for p in newer.check())


def test_acknowledged_entries_that_vanished_are_reported(tmp_path: Path) -> None:
    """Rows gone from the end of a game shortened it silently."""
    journal = _journal(tmp_path)
    session = _played(journal, (2, 3, 4, 5))
    game_id = session.game_id or 0
    tamper(journal, "DELETE FROM entries WHERE game_id = ? AND seq >= 3", (game_id,))
    assert any("header counts 4 entries but 2" in p for p in journal.check())
    resumed, damage = Session.resume(journal, game_id)
    assert damage is not None and damage.seq == 3 and "entries 3–4 missing" in damage.reason
    assert len(resumed.actions) == 2
    assert [(d.seq, d.reason) for d in journal.damaged(game_id)][1] == (4, "missing")
    assert not any("header counts" in p for p in journal.check())


def test_a_vanished_write_ahead_log_is_reported(tmp_path: Path) -> None:
    """A deleted WAL after an unclean stop lost the last moves
    without a word."""
    live = tmp_path / "live"
    session = _played(Journal(live / "journal.sqlite3"))
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("journal.sqlite3", "journal.sqlite3-open"):  # the -wal is not copied
        shutil.copy(live / name, copy / name)
    journal = Journal(copy / "journal.sqlite3")
    problems = journal.check()
    assert any("write-ahead log (-wal file) vanished" in p for p in problems), problems
    assert session.game_id is not None
    journal.close()
    assert any("vanished" in p for p in Journal(copy / "journal.sqlite3").check())


def test_a_cleanly_closed_journal_reports_nothing(tmp_path: Path) -> None:
    Journal(tmp_path / "journal.sqlite3").close()
    assert not (tmp_path / "journal.sqlite3-open").exists()
    with Journal(tmp_path / "journal.sqlite3") as journal:
        _played(journal)
    assert Journal(tmp_path / "journal.sqlite3").check() == []


def test_an_emptied_file_and_a_dropped_table_are_reported(tmp_path: Path) -> None:
    """A 0-byte journal and a dropped ``entries`` table showed an
    empty or shortened history and ``doctor`` said ok."""
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    assert any("0 bytes" in p for p in Journal(empty).check())
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        _played(journal)
        tamper(journal, "DROP TABLE entries")
    problems = Journal(path).check()
    assert any("lost its table(s) entries" in p for p in problems), problems


# --- a sentence, not a traceback -----------------------------------------------


def test_a_read_only_journal_can_be_listed_and_viewed(tmp_path: Path) -> None:
    """A read-only journal could not even be listed ("attempt to
    write a readonly database")."""
    with Journal(tmp_path / "journal.sqlite3") as journal:
        game_id = _played(journal).game_id or 0
    read_only = Journal(tmp_path / "journal.sqlite3", read_only=True)
    assert read_only.read_only and len(read_only.games()) == 1
    view, damage = Session.view(read_only, game_id)
    assert damage is None and len(view.actions) == 3
    resumed, _ = Session.resume(read_only, game_id)
    with pytest.raises(JournalError, match=r"read-only .* nothing can be saved"):
        resumed.submit({"type": "roll", "values": [2], "source": "manual"})
    assert len(resumed.actions) == 3


def test_a_file_that_cannot_be_written_opens_read_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root every file is writable: the check is simulated."""
    Journal(tmp_path / "journal.sqlite3").close()
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    journal = Journal(tmp_path / "journal.sqlite3")
    assert journal.read_only and "cannot be written" in (journal.read_only_reason or "")
    assert journal.games() == []


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: (p / "f").write_text("x") and p / "f" / "journal.sqlite3", "is a file"),
        (lambda p: p / ("x" * 300) / "journal.sqlite3", "too long"),
        (lambda p: (p / "dir.sqlite3").mkdir() or p / "dir.sqlite3", "is a folder"),
    ],
    ids=["data-dir-is-a-file", "name-too-long", "folder-in-place-of-the-file"],
)
def test_paths_that_cannot_hold_a_journal_get_a_sentence(
    tmp_path: Path, make: object, message: str
) -> None:
    """NotADirectoryError and ENAMETOOLONG came out as tracebacks."""
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(JournalError, match=message):
        Journal(path)
