"""``companion fleet``: the shop machine's store (every finished game once, the latest
values of each table), its leaderboard, alerts and page, and the watcher against a real
Mosquitto broker with two tables."""

from __future__ import annotations

import contextlib
import io
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session import Session
from kiosk.cli import main
from kiosk.fleet.messages import DeviceHealth, Health, Play, Status, Table
from kiosk.fleet.page import render_page
from kiosk.fleet.publisher import FleetPublisher
from kiosk.fleet.store import FleetStore
from kiosk.fleet.watch import watch
from tests.fleet.broker import Broker, wait_until

NOW = datetime.now(UTC).isoformat(timespec="seconds")


def _play(device: str, game_id: int, seq: int, players: list[str], winners: list[int]) -> Play:
    record = {
        "game": "builders",
        "title": "Builders of the Colossus",
        "players": players,
        "outcome": {"winners": winners, "reason": "x", "text": f"{players[winners[0]]} wins"},
    }
    return Play(
        device=device,
        id=f"{device}/{game_id}/{seq}",
        game_id=game_id,
        seq=seq,
        finished_at=NOW,
        record=record,
    )


def _take(store: FleetStore, topic: str, message: object) -> None:
    payload = message.model_dump_json().encode()  # type: ignore[attr-defined]
    taken = store.take(topic, payload)
    assert taken.problems == []


@pytest.fixture
def store(tmp_path: Path) -> Iterator[FleetStore]:
    opened = FleetStore(tmp_path / "fleet.sqlite3")
    yield opened
    opened.close()


def test_a_record_sent_twice_is_kept_once_and_a_second_finish_supersedes(
    store: FleetStore,
) -> None:
    first = _play("table-1", 4, 30, ["Ann", "Bob"], [0])
    assert store.take("colossus/table-1/plays", first.model_dump_json().encode()).new_game
    again = store.take("colossus/table-1/plays", first.model_dump_json().encode())
    assert again.duplicate and again.new_game is None
    assert store.games_played() == 1
    # Undone and finished again, with another winner: the later finish counts.
    _take(store, "colossus/table-1/plays", _play("table-1", 4, 33, ["Ann", "Bob"], [1]))
    # The same game number on another table is another game.
    _take(store, "colossus/table-2/plays", _play("table-2", 4, 12, ["Ann", "Cy"], [0]))
    (board,) = store.leaderboard().values()
    # Most wins first, then the better share of games won.
    assert [(s.player, s.wins, s.played) for s in board] == [
        ("Bob", 1, 1), ("Ann", 1, 2), ("Cy", 0, 1),
    ]  # fmt: skip


def test_old_games_leave_the_leaderboard(store: FleetStore) -> None:
    old = _play("table-1", 1, 5, ["Ann"], [0]).model_copy(
        update={"finished_at": (datetime.now(UTC) - timedelta(days=9)).isoformat()}
    )
    _take(store, "colossus/table-1/plays", old)
    assert store.leaderboard(days=7) == {}
    assert len(store.leaderboard(days=10)) == 1


def test_unreadable_or_misaddressed_messages_change_nothing(store: FleetStore) -> None:
    assert "unreadable" in store.take("colossus/t/plays", b"{not json").problems[0]
    assert "unreadable" in store.take("colossus/t/table", b'{"device": "t"}').problems[0]
    status = Status(device="table-2", state="online").model_dump_json().encode()
    assert "another table" in store.take("colossus/table-1/status", status).problems[0]
    assert "not a fleet topic" in store.take("colossus/t/other", b"{}").problems[0]
    assert store.tables() == [] and store.games_played() == 0


def test_alerts_name_the_table_and_what_is_wrong(store: FleetStore) -> None:
    _take(store, "colossus/a/status", Status(device="a", state="offline"))
    health = Health(
        device="b",
        at=NOW,
        uptime_s=5,
        outbox_waiting=0,
        outbox_dropped=3,
        refused=2,
        journal_problems=("row 5 missing from index",),
        problems=("config: line 3, leds.count: too small",),
        doctor=("[warning] power: the budget is high",),
        devices=(
            DeviceHealth(device="dice", state="connected", battery=12, level="warn", text="D 12%"),
            DeviceHealth(device="leds", state="connected", level="ok", text="Leds on"),
        ),
        disk_free_mb=50,
    )
    _take(store, "colossus/b/health", health)
    alerts = store.alerts()
    assert alerts[0].startswith("a is offline")
    text = "\n".join(alerts)
    for expected in (
        "b: config: line 3", "b: journal: row 5", "storage nearly full", "3 game records",
        "refused 2", "b: D 12%", "b: [warning] power",
    ):  # fmt: skip
        assert expected in text
    assert "Leds on" not in text


def test_the_page_shows_tables_alerts_and_the_leaderboard(store: FleetStore) -> None:
    _take(store, "colossus/table-1/status", Status(device="table-1", state="online"))
    table = Table(
        device="table-1",
        at=NOW,
        game="builders",
        title="Builders of the Colossus",
        players=("Ann", "<Bob>"),
        turn=1,
        turn_player="<Bob>",
        scores=(3, 4),
    )
    _take(store, "colossus/table-1/table", table)
    _take(store, "colossus/table-1/plays", _play("table-1", 1, 9, ["Ann", "<Bob>"], [1]))
    page = render_page(store)
    assert "Builders of the Colossus" in page and "online" in page
    assert "&lt;Bob&gt;" in page and "<Bob>" not in page  # names are escaped
    assert "None: every table is online and healthy." in page


def _finish(journal: Journal, players: list[str]) -> int:
    """A game of Pig that the first player wins: a roll of 6 and a hold."""
    session = Session.new("toy_pig", players, {"target": 5}, seed=1, journal=journal)
    session.submit({"type": "roll", "values": [6], "source": "manual"})
    session.submit({"type": "hold"})
    assert session.game_id is not None and session.outcome is not None
    return session.game_id


def test_the_watcher_gathers_two_tables_and_misses_nothing_while_away(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker")
    broker.start()
    tables: list[tuple[Journal, FleetPublisher]] = []
    for name in ("table-1", "table-2"):
        path = tmp_path / name / "journal.sqlite3"
        journal = Journal(path)
        journal.keep_outbox(100, topic="plays")
        publisher = FleetPublisher(broker.fleet_config(device_id=name), journal_path=path)
        tables.append((journal, publisher))
    settings = broker.fleet_config(device_id="", username="")
    db, out = tmp_path / "shop" / "fleet.sqlite3", tmp_path / "shop" / "page"
    reader = FleetStore(db)

    def run_watcher() -> tuple[threading.Event, threading.Thread, list[str]]:
        stop, said = threading.Event(), list[str]()

        def target() -> None:
            store = FleetStore(db)  # a connection belongs to the thread that opens it
            try:
                watch(settings, store, out, stop=stop, say=said.append)
            finally:
                store.close()

        thread = threading.Thread(target=target)
        thread.start()
        wait_until(lambda: any("connected" in line for line in said), "the watcher to connect")
        return stop, thread, said

    stop, thread, said = run_watcher()
    try:
        (one, first), (two, second) = tables
        first.start()
        second.start()
        _finish(one, ["Ann", "Bob"])
        _finish(two, ["Bob", "Cy"])
        first.poke()
        second.poke()
        wait_until(lambda: reader.games_played() == 2, "both tables' games")
        wait_until(lambda: len(reader.tables()) == 2, "both tables' values")
        stop.set()
        thread.join()

        # While the watcher is away, table 1 finishes another game: the broker keeps it
        # for the watcher's session, and the table keeps it until the watcher stored it.
        _finish(one, ["Ann", "Cy"])
        first.poke()
        wait_until(lambda: first.in_flight == 1, "the record to be sent")
        wait_until(lambda: first.delivered == 1, "the first game's acknowledgement")
        stop, thread, said = run_watcher()
        wait_until(lambda: reader.games_played() == 3, "the game finished while away")
        wait_until(lambda: first.delivered == 2, "the watcher's acknowledgement")
        assert any("table-1: Pig finished — Ann" in line for line in said), said
        first.stop()
        wait_until(lambda: "table-1 is offline" in said, "the table's goodbye")
    finally:
        stop.set()
        thread.join()
        for journal, publisher in tables:
            publisher.stop()
            journal.close()
        broker.stop()
    (board,) = reader.leaderboard().values()
    assert [(s.player, s.wins, s.played) for s in board] == [
        ("Ann", 2, 2), ("Bob", 1, 2), ("Cy", 0, 2),
    ]  # fmt: skip
    reader.close()

    # Offline, the command prints the summary and writes the page from the store.
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["fleet", "--offline", "--db", str(db), "--out", str(out)])
    assert code == 0
    text = printed.getvalue()
    assert "table-1: offline, Home" in text and "table-2: online, Home" in text  # as last heard
    assert "table-1 is offline" in text and "Ann: 2 wins of 2" in text
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "table-2" in page and "Cy" in page
