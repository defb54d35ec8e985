"""Cost with history: Home's lists are indexed, limited reads, and the files beside the
journal do not pile up with the games (bench/bench_home.py prints Home's cost at 10 and
10,000 games)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.errors import GameInUse
from companion.journal import GameInfo, Journal, headers
from companion.session import Session
from kiosk.presenters.home import (
    LESSONS_SHOWN,
    RECENT_RESULTS,
    RESUMABLE_SHOWN,
    VISIT_LOOKED_AT,
    HomePresenter,
)
from tests.helpers.journal_file import on_disk, tamper


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.sqlite3") as opened:
        yield opened


def add_games(journal: Journal, count: int) -> list[int]:
    """``count`` headers, every third one finished, each played a second after the one
    before (``updated`` orders them)."""
    with on_disk(journal) as db:  # written as another program would, a game a second
        db.execute("BEGIN IMMEDIATE")
        for index in range(count):
            when = f"2026-11-01T00:{index // 60:02d}:{index % 60:02d}+00:00"
            finished = index % 3 == 0
            db.execute(
                "INSERT INTO games(game, players, options, seed, created, updated, status,"
                " outcome, demo) VALUES ('toy_pig', '[\"Ann\"]', '{}', ?, ?, ?, ?, ?, ?)",
                (
                    index,
                    when,
                    when,
                    "finished" if finished else "active",
                    '{"text": "Ann wins"}' if finished else None,
                    int(index % 7 == 6),
                ),
            )
        db.execute("COMMIT")
        return [int(r[0]) for r in db.execute("SELECT game_id FROM games ORDER BY game_id")]


def test_recent_games_are_the_newest_of_their_status_without_demos(journal: Journal) -> None:
    ids = add_games(journal, 60)
    everything = journal.games()
    active = [g.game_id for g in everything if g.status == "active"][:5]
    finished = [g.game_id for g in everything if g.status == "finished"][:4]
    assert [g.game_id for g in journal.recent_games("active", 5)] == active
    assert [g.game_id for g in journal.recent_games("finished", 4)] == finished
    assert all(not g.demo for g in journal.recent_games("active", 100))
    with_demos = journal.recent_games("active", 100, include_demo=True)
    assert any(g.demo for g in with_demos) and len(with_demos) == len(ids) - len(
        [i for i in range(60) if i % 3 == 0]
    )


def test_a_damaged_header_is_skipped_not_fatal(journal: Journal) -> None:
    add_games(journal, 12)
    newest = journal.recent_games("active", 1)[0].game_id
    tamper(journal, "UPDATE games SET players = 'x' WHERE game_id = ?", (newest,))
    found = journal.recent_games("active", 3)
    assert len(found) == 3 and newest not in {g.game_id for g in found}


def test_the_recent_lists_read_the_index_and_sort_nothing(journal: Journal) -> None:
    with on_disk(journal) as db:
        plan = " ".join(
            str(row[-1])
            for row in db.execute(
                "EXPLAIN QUERY PLAN " + headers.recent_sql(include_demo=False), ("active",)
            )
        )
    assert re.search(r"INDEX games_recent\b", plan) and "TEMP B-TREE" not in plan, plan


def test_home_reads_a_bounded_number_of_headers_however_many_games(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Home read every game's header each time it was shown (0.9 s with 3,000 games)."""
    add_games(journal, 3000)
    read: list[int] = []
    real = headers.read_header

    def counting(db: sqlite3.Connection, game_id: int) -> GameInfo | None:
        read.append(game_id)
        return real(db, game_id)

    monkeypatch.setattr(headers, "read_header", counting)
    view = HomePresenter(journal).view()
    lessons = [card for card in view.resumable if card.title.startswith("Lesson: ")]
    assert len(lessons) == LESSONS_SHOWN  # a lesson is offered beside the games, not among them
    assert len(view.resumable) == RESUMABLE_SHOWN + LESSONS_SHOWN
    assert len(view.recent) == RECENT_RESULTS
    assert len(read) == RESUMABLE_SHOWN + RECENT_RESULTS + LESSONS_SHOWN


def test_a_lock_file_goes_with_its_game(tmp_path: Path) -> None:
    """One lock file per game ever played piled up beside the journal: a game's lock file
    is removed when it is left (another game opened, the journal closed) or deleted."""
    path = tmp_path / "journal.sqlite3"
    locks = Path(f"{path}.locks")
    with Journal(path) as journal:
        first = Session.new("toy_pig", ["Ann"], seed=1, journal=journal)
        assert [p.name for p in locks.iterdir()] == [f"game-{first.game_id}.lock"]
        second = Session.new("toy_pig", ["Bo"], seed=2, journal=journal)
        assert [p.name for p in locks.iterdir()] == [f"game-{second.game_id}.lock"]
        # A second program is still kept out.
        with Journal(path) as other, pytest.raises(GameInUse, match="open in another program"):
            Session.resume(other, second.game_id or 0)
        journal.delete_game(second.game_id or 0)
        assert list(locks.iterdir()) == []
        Session.resume(journal, first.game_id or 0)
    assert list(locks.iterdir()) == []
    with Journal(path) as again:  # and it can be claimed again
        Session.resume(again, first.game_id or 0)


def test_a_locked_shop_home_shows_only_the_visit_and_reads_a_bounded_number(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A locked shop kiosk lists only this visit's games (just played, so among the
    newest) and looks through a bounded window for them, whatever the history."""
    ids = add_games(journal, 3000)
    visit = {ids[-1], ids[-2]}
    read: list[int] = []
    real = headers.read_header

    def counting(db: sqlite3.Connection, game_id: int) -> GameInfo | None:
        read.append(game_id)
        return real(db, game_id)

    monkeypatch.setattr(headers, "read_header", counting)
    view = HomePresenter(journal, shown=lambda game_id: game_id in visit).view()
    shown = {card.game_id for card in view.resumable} | {line.game_id for line in view.recent}
    assert shown and shown <= visit
    window = VISIT_LOOKED_AT
    assert len(read) <= (RESUMABLE_SHOWN + window) + (RECENT_RESULTS + window) + (
        LESSONS_SHOWN + window
    )
