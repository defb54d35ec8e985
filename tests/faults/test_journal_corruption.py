"""Journal corruption: every way a file on an SD card goes bad, through every surface.

A real journal on disk holds a game of each of the five games, played by the random
bot. Then it is damaged — flipped bytes in a page, a truncated file, a write-ahead log
deleted after an unclean stop, an undecodable payload, a dropped table, a damaged
header, a 0-byte file, a read-only file, a folder in place of the file — and looked at
the way people do: ``companion games``, ``export``, ``doctor`` and resuming each game.
For every case: no traceback (a refusal is a sentence), and no acknowledged move lost
without being reported (by the resume's damage, ``Journal.check()`` or a refusal).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.errors import RefereeError
from companion.journal import Journal
from companion.session import Session
from kiosk.cli import main
from kiosk.storage import JOURNAL_FILE
from tests.faults.scale import PLAYERS, report, scaled

MOVES = 15
REPO = Path(__file__).resolve().parents[2]


def play_games(path: Path, seed: int) -> dict[int, int]:
    """A game of each kind with MOVES bot moves; returns game id → acknowledged moves."""
    played: dict[int, int] = {}
    with Journal(path) as journal:
        for index, (game, players) in enumerate(PLAYERS.items()):
            session = Session.new(game, players, seed=seed + index, journal=journal)
            bot = RandomBot(seed + index)
            for _ in range(MOVES):
                action = bot.choose(session.rules, session.state)
                if action is None:
                    break
                session.submit(action)
            assert session.game_id is not None
            played[session.game_id] = len(session.actions)
    return played


def _flip_page_bytes(path: Path, rnd: random.Random) -> None:
    data = bytearray(path.read_bytes())
    page = 4096
    target = rnd.randrange(1, max(2, len(data) // page)) * page
    for offset in rnd.sample(range(target, min(len(data), target + page)), 16):
        data[offset] ^= rnd.randrange(1, 256)
    path.write_bytes(bytes(data))


def _truncate(path: Path, rnd: random.Random) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(rnd.randrange(100, path.stat().st_size))


def _sql(statement: str) -> Callable[[Path, random.Random], None]:
    def damage(path: Path, _rnd: random.Random) -> None:
        import sqlite3

        with contextlib.closing(sqlite3.connect(path)) as db:
            db.execute(statement)
            db.commit()

    return damage


def _empty(path: Path, _rnd: random.Random) -> None:
    path.write_bytes(b"")


def _folder(path: Path, _rnd: random.Random) -> None:
    path.unlink()
    path.mkdir()


CASES: dict[str, Callable[[Path, random.Random], None]] = {
    "flipped-bytes-in-a-page": _flip_page_bytes,
    "truncated-file": _truncate,
    "undecodable-payload": _sql(
        "UPDATE entries SET payload = CAST(x'ff' AS TEXT) WHERE seq = 3 AND game_id = 2"
    ),
    "damaged-header": _sql("UPDATE games SET game = 'chess' WHERE game_id = 3"),
    "undecodable-header": _sql("UPDATE games SET players = CAST(x'ff' AS TEXT) WHERE game_id = 4"),
    "dropped-entries-table": _sql("DROP TABLE entries"),
    "deleted-rows": _sql("DELETE FROM entries WHERE seq > 5"),
    "zero-byte-file": _empty,
    "folder-in-place-of-the-file": _folder,
}


class Outcome:
    def __init__(self) -> None:
        self.tracebacks: list[str] = []
        self.lost_unreported: list[str] = []


def look_at(data_dir: Path, played: dict[int, int], case: str, outcome: Outcome) -> None:
    """Every surface a person uses; what each says must be true or a clear refusal."""
    path = data_dir / JOURNAL_FILE
    for argv in (["games"], ["export", str(next(iter(played)))], ["doctor"]):
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                main(["--data-dir", str(data_dir), *argv])
        except Exception as exc:  # a traceback is the defect these tests exist for
            outcome.tracebacks.append(f"{case}: companion {argv[0]}: {exc!r}")
    try:
        journal = Journal(path)
    except RefereeError:
        return  # a sentence: nothing is shown, nothing is claimed to be there
    except Exception as exc:
        outcome.tracebacks.append(f"{case}: Journal(): {exc!r}")
        return
    try:
        problems = journal.check()
        for game_id, moves in played.items():
            try:
                session, damage = Session.resume(journal, game_id)
            except RefereeError:
                continue  # refused with a sentence: reported
            short = len(session.actions) < moves
            if short and damage is None and not problems:
                outcome.lost_unreported.append(
                    f"{case}: game {game_id} has {len(session.actions)} of {moves} moves, and"
                    " nothing said so"
                )
    except Exception as exc:
        outcome.tracebacks.append(f"{case}: {exc!r}")
    finally:
        journal.close()


@pytest.fixture
def quiet_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.delenv("COMPANION_DATA_DIR", raising=False)
    monkeypatch.delenv("COMPANION_HARDWARE", raising=False)


@pytest.mark.usefixtures("quiet_config")
def test_every_kind_of_corruption_is_reported_never_a_traceback(tmp_path: Path) -> None:
    rounds = scaled(1, 8)
    outcome = Outcome()
    cases = 0
    for round_no in range(rounds):
        for case, damage in CASES.items():
            data_dir = tmp_path / f"{round_no}-{case}"
            data_dir.mkdir()
            played = play_games(data_dir / JOURNAL_FILE, seed=100 * round_no)
            damage(data_dir / JOURNAL_FILE, random.Random(f"{round_no}{case}"))
            look_at(data_dir, played, case, outcome)
            cases += 1
    assert outcome.tracebacks == []
    assert outcome.lost_unreported == []
    report(
        "journal_corruption",
        cases=cases,
        tracebacks=len(outcome.tracebacks),
        lost_unreported=len(outcome.lost_unreported),
    )


@pytest.mark.usefixtures("quiet_config")
def test_a_wal_deleted_after_a_kill_is_reported(tmp_path: Path) -> None:
    """The moves still in the write-ahead log when the process was killed are gone with
    the file; the companion must say so instead of showing a shorter game."""
    path = tmp_path / JOURNAL_FILE
    writer = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, signal, sys\n"
            "from tests.faults.test_journal_corruption import play_games\n"
            "from pathlib import Path\n"
            "from companion.journal import Journal\n"
            "Journal.close = lambda self: None  # killed: nothing is closed\n"
            "play_games(Path(sys.argv[1]), seed=7)\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n",
            str(path),
        ],
        cwd=REPO,
        timeout=120,
    )
    assert writer.returncode == -signal.SIGKILL
    assert (tmp_path / f"{JOURNAL_FILE}-wal").exists()
    os.unlink(tmp_path / f"{JOURNAL_FILE}-wal")
    with Journal(path) as journal:
        problems = journal.check()
    assert any("write-ahead log (-wal file) vanished" in p for p in problems), problems
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["--data-dir", str(tmp_path), "doctor"])
    assert "vanished" in out.getvalue()


@pytest.mark.usefixtures("quiet_config")
def test_a_read_only_journal_is_listed_and_refuses_to_save(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    played = play_games(path, seed=3)
    journal = Journal(path, read_only=True)
    assert {g.game_id for g in journal.games()} == set(played)
    game_id = next(iter(played))
    session, damage = Session.resume(journal, game_id)
    assert damage is None and len(session.actions) == played[game_id]
    action = RandomBot(1).choose(session.rules, session.state)
    if action is not None:
        with pytest.raises(RefereeError, match="read-only"):
            session.submit(action)
        assert len(session.actions) == played[game_id]
