"""The global options ``--data-dir`` and ``--config`` work before and after a sub-command.

``companion doctor --config F`` and ``companion referee --data-dir D``
were refused by the parser; people type options after the command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session import Session
from kiosk.cli import build_parser, main

SUBCOMMANDS: dict[str, list[str]] = {
    "app": [],
    "referee": ["--no-journal"],
    "games": [],
    "export": ["3"],
    "schema": [],
    "doctor": [],
    "salvage": ["--replace"],
    "calibrate": [],
    "support-bundle": [],
    "admin-pin": ["--stdin"],
    "fleet": ["--offline"],
}


def _subcommands() -> set[str]:
    """The sub-commands ``companion --help`` offers (its usage line's one ``{…}``)."""
    (offered,) = re.findall(r"\{([^}]*)\}", build_parser().format_usage())
    return set(offered.split(","))


def test_every_subcommand_is_covered() -> None:
    assert _subcommands() == set(SUBCOMMANDS)


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
@pytest.mark.parametrize("position", ["before", "after"])
def test_global_options_in_either_position(command: str, position: str) -> None:
    options = ["--data-dir", "/srv/d", "--config", "/etc/c.toml"]
    rest = [command, *SUBCOMMANDS[command]]
    argv = [*options, *rest] if position == "before" else [*rest, *options]
    args = build_parser().parse_args(argv)
    assert args.data_dir == Path("/srv/d") and args.config == Path("/etc/c.toml")


def test_without_the_options_the_defaults_stand() -> None:
    args = build_parser().parse_args(["games"])
    assert args.data_dir is None and args.config is None


def test_after_the_subcommand_wins_over_before() -> None:
    args = build_parser().parse_args(["--data-dir", "/a", "games", "--data-dir", "/b"])
    assert args.data_dir == Path("/b")


def test_games_reads_the_data_dir_given_after_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("COMPANION_DATA_DIR", raising=False)
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    with Journal(tmp_path / "journal.sqlite3") as journal:
        Session.new("builders", ["Ann", "Bob"], seed=3, journal=journal)
    assert main(["games", "--data-dir", str(tmp_path)]) == 0
    assert "Ann, Bob" in capsys.readouterr().out


def test_doctor_reads_the_config_given_after_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("COMPANION_HARDWARE", raising=False)
    config = tmp_path / "broken.toml"
    config.write_text("[leds\n", encoding="utf-8")
    main(["doctor", "--config", str(config)])
    assert str(config) in capsys.readouterr().err
