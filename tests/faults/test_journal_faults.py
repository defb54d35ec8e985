"""The journal's faults beyond its own fault suite: a missing game, a full disk met by
the per-game lock file, a damaged header row, pages SQLite cannot read. Each case names
what it checks; each was found by attacking the installed kiosk."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.errors import GameNotFound
from companion.journal import Journal
from companion.protocol import ERROR_CODES, Referee

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
