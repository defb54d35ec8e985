"""Scores presenter: table, chart series, summary, export file and BG Stats link."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote

import pytest
import segno
from pydantic import JsonValue

from companion.bot import RandomBot
from companion.journal import Journal
from companion.outcome import ScoreRow, ScoreSheet
from companion.session import Session
from kiosk.presenters.scores import (
    BGSTATS_URL,
    ScoresPresenter,
    bgstats_link,
    chart_series,
    export_filename,
)
from tests.kiosk.helpers import assert_imports_without_kivy

WHEN = datetime(2026, 11, 22, 20, 15, tzinfo=UTC)


def test_scores_presenter_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.scores", "tests.kiosk.test_presenters_scores")


def test_chart_series_are_normalised() -> None:
    sheet = ScoreSheet(
        measure="gold",
        columns=("A", "B"),
        rows=(ScoreRow(label="r1", values=(0, 10)), ScoreRow(label="r2", values=(5, 20))),
    )
    series, (low, high) = chart_series(sheet, ((1, 2, 3),))
    assert (low, high) == (0, 20)
    assert series[0].points == ((0.0, 0.0), (1.0, 0.25))
    assert series[1].points == ((0.0, 0.5), (1.0, 1.0))
    assert chart_series(ScoreSheet(measure="x", columns=("A",)), ((1, 2, 3),)) == ((), (0, 0))


def finished_builders(journal: Journal | None = None) -> Session:
    session = Session.new("builders", ["Ann", "Bob"], seed=4, journal=journal)
    bot = RandomBot(1)
    while session.outcome is None:
        session.submit(bot.choose(session.rules, session.state))
    return session


def test_summary_and_table_after_the_end(tmp_path: Path) -> None:
    session = finished_builders()
    view = ScoresPresenter(session, tmp_path).view()
    assert view.outcome is not None and view.summary[0] == view.outcome
    assert any(line.startswith("Winner: ") for line in view.summary)
    assert view.columns == ("Ann", "Bob") and view.measure == "Runes"
    sheet = session.rules.scores(session.state)
    assert len(view.rows) + view.hidden_rows == len(sheet.rows)
    assert view.rows[-1][1] == tuple(str(v) for v in sheet.rows[-1].values)
    assert len(view.series) == 2


def test_export_writes_the_record_and_a_bgstats_link(tmp_path: Path) -> None:
    journal = Journal(":memory:")
    session = finished_builders(journal)
    presenter = ScoresPresenter(session, tmp_path / "exports")
    path = presenter.export(WHEN)
    assert path is not None and path.parent == tmp_path / "exports" and path.suffix == ".json"
    record = json.loads(path.read_text())
    assert record["format"] == "colossus-companion/game-record"
    assert record["game"] == "builders" and record["players"] == ["Ann", "Bob"]
    assert len(record["actions"]) == len(session.actions)
    replayed = Session.new("builders", record["players"], record["options"], seed=record["seed"])
    for action in record["actions"]:
        replayed.submit(action)
    assert replayed.state == session.state  # the export is a complete record
    view = presenter.view()
    assert view.export_path == str(path) and view.export_link is not None
    assert view.export_link.startswith(BGSTATS_URL)
    data = json.loads(unquote(view.export_link[len(BGSTATS_URL) :]))
    assert data["game"]["name"] == "Builders of the Colossus"
    assert data["playDate"] == "2026-11-22 20:15:00"
    winners = {p["name"] for p in data["players"] if p.get("winner")}
    assert winners == {record["players"][w] for w in record["outcome"]["winners"]}
    assert [p.get("startPlayer", False) for p in data["players"]] == [True, False]


def test_export_reuses_the_file_of_an_unchanged_game(tmp_path: Path) -> None:
    """Each tap on Export wrote a new file (41 in 18 minutes of random taps): a game not
    played on since its last export keeps that file and its link; a move makes a new one."""
    journal = Journal(":memory:")
    session = Session.new("builders", ["Ann", "Bob"], seed=4, journal=journal)
    bot = RandomBot(1)
    session.submit(bot.choose(session.rules, session.state))
    exports = tmp_path / "exports"
    first = ScoresPresenter(session, exports).export(WHEN)
    link = ScoresPresenter(session, exports).export_link
    again = ScoresPresenter(session, exports)  # another visit to Scores, a minute later
    assert again.export(datetime(2026, 11, 22, 20, 16, tzinfo=UTC)) == first
    assert again.export_link is not None and "2026-11-22 20:15:00" in unquote(again.export_link)
    assert link is None and len(list(exports.iterdir())) == 1
    session.submit(bot.choose(session.rules, session.state))
    moved_on = ScoresPresenter(session, exports).export(datetime(2026, 11, 22, 20, 17, tzinfo=UTC))
    assert moved_on != first and len(list(exports.iterdir())) == 2


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full to fill a disk with")
def test_an_export_to_a_full_disk_says_so_and_loses_nothing(tmp_path: Path) -> None:
    """A full disk (here /dev/full, which answers every write with ENOSPC) made the
    export raise out of the Scores screen; now it says why, leaves no half-written file
    and a later export, with room, still works."""
    session = finished_builders(Journal(":memory:"))
    exports = tmp_path / "exports"
    presenter = ScoresPresenter(session, exports)
    name = export_filename(session.export() | {"exported": WHEN.isoformat()}, WHEN)
    exports.mkdir()
    (exports / name).with_suffix(".tmp").symlink_to("/dev/full")
    assert presenter.export(WHEN) is None
    view = presenter.view()
    assert view.export_error is not None and "No space left on device" in view.export_error
    assert "safe in the journal" in view.export_error
    assert view.export_path is None and list(exports.iterdir()) == []
    again = presenter.export(datetime(2026, 11, 22, 20, 16, tzinfo=UTC))
    assert again is not None and again.exists() and presenter.view().export_error is None


def test_a_four_player_bgstats_link_fits_a_scannable_qr_code() -> None:
    """Long names, four seats: the code stays ≤ 85 modules (≥ 5 px each full screen)."""
    record: dict[str, JsonValue] = {
        "title": "Kolossus – The Citadel of Time",
        "game": "kolossus",
        "game_id": 1234,
        "players": ["Annabel", "Bartholomew", "Chen", "Dragomir"],
        "outcome": {"winners": [0, 2], "text": "x" * 200},
        "scores": {"rows": [{"values": [7, 5, 7, 5]}]},
    }
    link = bgstats_link(record, WHEN)
    data = json.loads(unquote(link[len(BGSTATS_URL) :]))
    assert [p["score"] for p in data["players"]] == [7, 5, 7, 5]
    assert "x" * 200 not in link  # the outcome text is not needed by BG Stats
    assert segno.make(link, error="l").symbol_size(border=0)[0] <= 85
