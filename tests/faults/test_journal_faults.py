"""The journal's faults beyond its own fault suite: a missing game, a full disk met by
the per-game lock file, a damaged header row, pages SQLite cannot read. Each case names
what it checks; each was found by attacking the installed kiosk."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.errors import GameNotFound, JournalError, RefereeError
from companion.journal import Journal
from companion.protocol import ERROR_CODES, Referee
from companion.session import Session
from kiosk.cli import main
from kiosk.salvage import SQLITE_SHELL, salvage
from kiosk.storage import JOURNAL_FILE
from tests.helpers.journal_file import tamper

DOCS = Path(__file__).resolve().parents[2] / "docs"


def ask(referee: Referee, request: dict[str, object]) -> dict[str, object]:
    reply: dict[str, object] = referee.handle_obj(json.dumps(request))
    return reply


def test_resuming_a_game_that_does_not_exist_answers_game_not_found(tmp_path: Path) -> None:
    """Not ``journal_error``: the file is fine, the id is wrong."""
    with Journal(tmp_path / "journal.sqlite3") as journal:
        reply = ask(Referee(journal, lambda: 1), {"cmd": "resume", "game_id": 42})
        assert reply["ok"] is False
        error = reply["error"]
        assert isinstance(error, dict) and error["code"] == "game_not_found", reply
        assert "no game 42" in error["message"]
        with pytest.raises(GameNotFound):
            journal.game(42)
        assert journal.check() == []


def test_every_error_code_is_documented_in_the_protocol_and_its_schema() -> None:
    table = (DOCS / "protocol.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE))
    assert set(ERROR_CODES) <= documented, set(ERROR_CODES) - documented
    schema = json.loads((DOCS / "protocol.schema.json").read_text(encoding="utf-8"))
    assert schema["error_codes"] == ERROR_CODES


def test_new_whose_lock_file_meets_a_full_disk_answers_journal_error_and_leaves_no_game(
    tmp_path: Path,
) -> None:
    """The per-game lock file is a write too: on a full disk ``new`` once answered
    ``internal_error (OSError)`` and left a game row behind. The lock file here is
    /dev/full, which refuses every write with ENOSPC as a full disk does."""
    full = Path("/dev/full")
    if not full.exists():
        pytest.skip("this machine has no /dev/full")
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        locks = Path(f"{path}.locks")
        locks.mkdir()
        (locks / "game-1.lock").symlink_to(full)
        referee = Referee(journal, lambda: 1)
        new = {"cmd": "new", "game": "toy_pig", "players": ["Ann"], "seed": 3}
        reply = ask(referee, new)
        assert reply["ok"] is False, reply
        error = reply["error"]
        assert isinstance(error, dict) and error["code"] == "journal_error", reply
        assert "storage is full" in error["message"]
        assert journal.games() == [] and referee.session is None  # nothing changed
        assert not (locks / "game-1.lock").is_symlink()  # nor a lock of a game that is not
        again = ask(referee, new)
        assert again["ok"] is True and again["game_id"] == 1, again


# --- a damaged header row --------------------------------------------------------------


def played(journal: Journal, game: str, players: list[str], moves: int, *, leave: bool) -> Session:
    """A bot game of ``moves`` moves; ``leave``: its position saved as on leaving it."""
    session = Session.new(game, players, {}, seed=11, journal=journal)
    bot = RandomBot(11)
    for _ in range(moves):
        action = bot.choose(session.rules, session.state)
        assert action is not None
        session.submit(action)
    if leave:
        assert session.save_position()
    return session


DAMAGED_HEADERS = {
    "players-not-json": 'UPDATE games SET players = \'["Ann", "Bo\' WHERE game_id = ?',
    "options-refused": "UPDATE games SET options = '{\"chapter\": 9}' WHERE game_id = ?",
    "unknown-game": "UPDATE games SET game = 'chess' WHERE game_id = ?",
}


@pytest.mark.parametrize("case", list(DAMAGED_HEADERS))
def test_a_damaged_header_is_rebuilt_from_the_saved_position_and_entries(
    tmp_path: Path, case: str
) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        session = played(journal, "kolossus", ["Ann", "Bo"], 15, leave=True)
        game_id = session.game_id or 0
        tamper(journal, DAMAGED_HEADERS[case], (game_id,))
    with Journal(path) as journal:
        resumed, damage = Session.resume(journal, game_id)
        assert damage is not None and damage.seq == 0, damage
        assert "rebuilt from the game's" in damage.reason and "players Ann, Bo" in damage.reason
        assert resumed.state == session.state and len(resumed.actions) == 15
        info = journal.game(game_id)  # the header reads again
        assert (info.game, info.players) == ("kolossus", ("Ann", "Bo"))
        assert [d.seq for d in journal.damaged(game_id)] == [0]  # the old row kept on record
        _, again = Session.resume(journal, game_id)
        assert again is None


def test_a_header_whose_players_nothing_names_is_offered_read_only_with_its_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No saved position yet (15 moves, not left): the players cannot be rebuilt, so the
    resume refuses with a sentence, the doctor names the game, and ``companion export``
    writes its 15 readable entries."""
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        game_id = played(journal, "kolossus", ["Ann", "Bo"], 15, leave=False).game_id or 0
        tamper(journal, DAMAGED_HEADERS["players-not-json"], (game_id,))
    with Journal(path) as journal:
        reply = ask(Referee(journal, lambda: 1), {"cmd": "resume", "game_id": game_id})
        error = reply["error"]
        assert isinstance(error, dict) and error["code"] == "journal_error", reply
        assert f"companion export {game_id}" in error["message"]
        assert "players is not valid JSON" in error["message"]
    main(["--data-dir", str(tmp_path), "export", str(game_id)])
    record = json.loads(capsys.readouterr().out)
    assert record["format"] == "colossus-companion/damaged-game"
    assert len(record["entries"]) == 15 and record["header"]["game"] == "kolossus"
    assert "players" in record["damaged_columns"]


def test_the_doctor_names_every_game_that_cannot_be_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown game name and refused options once passed as "[ok]": now each damaged
    header is named, rebuildable or not, and a sound game is not."""
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        sound = played(journal, "kolossus", ["Ann", "Bo"], 5, leave=True).game_id
        ids = {}
        for case, statement in DAMAGED_HEADERS.items():
            ids[case] = played(journal, "kolossus", ["Ann", "Bo"], 5, leave=False).game_id
            tamper(journal, statement, (ids[case],))
    main(["--data-dir", str(tmp_path), "doctor"])
    out = capsys.readouterr().out
    for case, game_id in ids.items():
        assert f"Game {game_id} cannot be resumed" in out, (case, out)
    assert f"Game {sound} " not in out


# --- pages SQLite cannot read ----------------------------------------------------------


def _zero_page(path: Path, table_or_index: str) -> None:
    """Zero the root page of ``table_or_index``, as a torn write to an SD card does."""
    with closing(sqlite3.connect(path)) as db:
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (table_or_index,)
        ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    with open(path, "r+b") as handle:
        handle.seek((root - 1) * size)
        handle.write(b"\0" * size)


def _resumed_moves(path: Path, games: dict[int, int]) -> dict[int, int | str]:
    found: dict[int, int | str] = {}
    with Journal(path) as journal:
        for game_id in games:
            try:
                session, _ = Session.resume(journal, game_id)
            except RefereeError as error:
                found[game_id] = error.code
                continue
            found[game_id] = len(session.actions)
    return found


def test_salvage_recovers_every_readable_row_of_a_zeroed_index_page(tmp_path: Path) -> None:
    """A zeroed page of the entries' index made every game unresumable although each of
    its rows still reads; salvage copies the rows into a new file that takes the
    journal's place, and every game resumes whole."""
    path = tmp_path / JOURNAL_FILE
    games: dict[int, int] = {}
    with Journal(path) as journal:
        for _ in range(3):
            session = played(journal, "kolossus", ["Ann", "Bo"], 30, leave=False)
            games[session.game_id or 0] = 30
    _zero_page(path, "sqlite_autoindex_entries_1")
    before = _resumed_moves(path, games)
    assert all(moves != 30 for moves in before.values()), before  # the damage bites
    done = salvage(path, replace=True)
    assert done.recovered == path and done.damaged_kept is not None
    assert done.damaged_kept.exists() and done.rows["entries"] == 90
    assert _resumed_moves(path, games) == {game_id: 30 for game_id in games}
    with Journal(path) as journal:
        assert journal.check(full=True) == []


def test_salvage_keeps_the_rows_around_a_zeroed_table_page(tmp_path: Path) -> None:
    """A zeroed page of the games table loses those headers only: every entry row is
    kept, and what cannot be placed is counted, never silently dropped."""
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        for _ in range(2):
            played(journal, "kolossus", ["Ann", "Bo"], 20, leave=False)
    _zero_page(path, "games")
    done = salvage(path)
    assert done.recovered != path and path.exists()  # the damaged file is left as it was
    assert done.rows["entries"] == 40 and done.rows["games"] == 0


def test_salvage_refuses_while_a_game_is_open(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        played(journal, "kolossus", ["Ann", "Bo"], 2, leave=False)  # still claimed
        with pytest.raises(JournalError, match="is open in process"):
            salvage(path, replace=True)
    assert path.exists() and not Path(f"{path}.recovered").exists()


def test_salvage_uses_the_shells_recover_where_it_works(tmp_path: Path) -> None:
    """SQLite's own recovery first; a shell built without ``sqlite_dbpage`` (Debian's,
    Raspberry Pi OS's) cannot run ``.recover``, and the rows are copied table by table."""
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        played(journal, "kolossus", ["Ann", "Bo"], 10, leave=True)
    without = salvage(path, shell="")
    assert without.method.startswith("table by table") and without.rows["entries"] == 10
    cli = shutil.which(SQLITE_SHELL)
    if cli is None:
        pytest.skip("the sqlite3 shell is not installed (scripts/setup installs it)")
    found = salvage(path)
    if found.method.startswith("table by table"):
        pytest.skip(f"{cli} has no sqlite_dbpage table, so its .recover cannot run")
    assert found.method == "the sqlite3 shell's .recover" and found.rows["entries"] == 10


def test_salvage_steps_over_an_unreadable_page_to_the_rows_after_it(tmp_path: Path) -> None:
    """A zeroed leaf in the middle of the entries table: the rows on it are gone, every
    row before and after it is kept (a plain scan stops at the page)."""
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        for _ in range(4):
            played(journal, "kolossus", ["Ann", "Bo"], 40, leave=False)
    with closing(sqlite3.connect(path)) as db:
        leaves = db.execute(
            "SELECT pageno, ncell FROM dbstat WHERE name = 'entries' AND pagetype = 'leaf'"
            " ORDER BY pageno"
        ).fetchall()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    assert len(leaves) >= 3, leaves
    page, lost = leaves[len(leaves) // 2]
    with open(path, "r+b") as handle:
        handle.seek((page - 1) * size)
        handle.write(b"\0" * size)
    done = salvage(path, shell="")
    assert done.rows["entries"] == 160 - lost


def test_companion_salvage_puts_the_copy_in_place_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    path = tmp_path / JOURNAL_FILE
    with Journal(path) as journal:
        game_id = played(journal, "kolossus", ["Ann", "Bo"], 12, leave=False).game_id or 0
    _zero_page(path, "sqlite_autoindex_entries_1")
    assert main(["--data-dir", str(tmp_path), "salvage", "--replace"]) == 0
    out = capsys.readouterr().out
    assert "Salvaged into" in out and "12 entries" in out and "damaged file is kept" in out
    assert _resumed_moves(path, {game_id: 12}) == {game_id: 12}
