"""The `companion` command's headless subcommands, run in-process through `main`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session import Session
from kiosk.cli import main
from tests.helpers.journal_file import tamper


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.delenv("COMPANION_HARDWARE", raising=False)
    return tmp_path


def _played_game(data_dir: Path) -> int:
    with Journal(data_dir / "journal.sqlite3") as journal:
        session = Session.new("builders", ["Ann", "Bob"], seed=3, journal=journal)
        session.submit({"type": "draw"})
        session.submit({"type": "end_turn"})
        assert session.game_id is not None
        return session.game_id


def test_games_lists_the_journal(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game_id = _played_game(data_dir)
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert f"{game_id:5d}" in out and "builders" in out and "Ann, Bob" in out
    assert "(2 entries) in progress" in out


def test_export_writes_a_replayable_record(data_dir: Path) -> None:
    game_id = _played_game(data_dir)
    target = data_dir / "record.json"
    assert main(["export", str(game_id), "--out", str(target)]) == 0
    record = json.loads(target.read_text(encoding="utf-8"))
    assert record["game"] == "builders" and record["seed"] == 3
    replay = Session.new("builders", record["players"], record["options"], seed=record["seed"])
    for action in record["actions"]:
        replay.submit(action)
    assert replay.export()["scores"] == record["scores"]


def test_export_of_an_unknown_game_is_a_clear_error(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "42"]) == 1
    assert "There is no game 42" in capsys.readouterr().err


def test_schema_is_json(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "builders" in schema["games"] and schema["version"] == 1


def test_doctor_reports_a_broken_config_in_plain_words(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = data_dir / "companion.toml"
    broken.write_text("[leds]\nbrightness = 3\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(broken))
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "line 2" in out and "brightness" in out
    assert "Traceback" not in out


def test_calibrate_lights_every_cell_on_the_simulated_strip(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "121 cells shown" in out and "cell 0,0 = LED 0" in out


def test_games_names_a_damaged_header_and_lists_the_rest(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One unreadable header made ``games`` fail for every game."""
    damaged, healthy = _played_game(data_dir), _played_game(data_dir)
    with Journal(data_dir / "journal.sqlite3") as journal:
        tamper(
            journal, "UPDATE games SET options = CAST(x'ff' AS TEXT) WHERE game_id = ?", (damaged,)
        )
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert f"{healthy:5d}  " in out and "Ann, Bob" in out
    assert f"{damaged:5d}  damaged: unreadable header: options is not valid text" in out


def test_games_and_export_work_while_a_game_is_played(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game in play is shown as such; export only looks."""
    journal = Journal(data_dir / "journal.sqlite3")
    session = Session.new("builders", ["Ann", "Bob"], seed=3, journal=journal)
    session.submit({"type": "draw"})
    assert main(["games"]) == 0
    assert "in progress (open in process" in capsys.readouterr().out
    assert main(["export", str(session.game_id)]) == 0
    assert json.loads(capsys.readouterr().out)["actions"] == [{"type": "draw"}]
    session.submit({"type": "end_turn"})  # the player was never interrupted
    journal.close()


def test_a_data_dir_that_is_a_file_is_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """NotADirectoryError came out as a traceback."""
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    (tmp_path / "file").write_text("x")
    assert main(["--data-dir", str(tmp_path / "file"), "games"]) == 1
    assert "is a file, not a folder" in capsys.readouterr().err
