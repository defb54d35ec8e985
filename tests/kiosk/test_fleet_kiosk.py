"""The kiosk reports to a real Mosquitto broker: the table's value follows each touch,
and the game's record arrives once it is finished."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.journal import Outbox
from kiosk.fleet.publisher import FleetPublisher
from kiosk.settings import FleetConfig
from kiosk.storage import JOURNAL_FILE
from tests.fleet.broker import REPO, Broker, Watcher, wait_until
from tests.helpers.kiosk_widgets import start
from tests.kiosk.ui import close_kiosk, find_button, frames, open_kiosk, tap, tap_button


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    running = Broker(tmp_path / "broker")
    running.start()
    yield running
    running.stop()


def test_a_game_by_touch_reaches_the_fleet(tmp_path: Path, broker: Broker) -> None:
    watcher = Watcher(broker)
    kiosk = open_kiosk(tmp_path / "data")
    fleet = FleetPublisher(broker.fleet_config(), journal_path=tmp_path / "data" / JOURNAL_FILE)
    closed = False
    try:
        kiosk.attach_fleet(fleet)
        watcher.wait_for(lambda w: bool(w.payloads("table")), "the table on Home")
        assert watcher.payloads("table")[-1]["game"] is None

        start(kiosk, "Builders of the Colossus")
        play = kiosk.play
        assert play is not None
        names = list(play.session.state.players)
        tap(find_button(kiosk, "Draw", exact=True))  # a group of one action: its button
        tap_button(kiosk, "Undo", exact=True)
        tap_button(kiosk, "Redo", exact=True)

        def table_shows_the_draw(w: Watcher) -> bool:
            tables = w.payloads("table")
            return bool(tables) and tables[-1]["moves"] == 1

        watcher.wait_for(table_shows_the_draw, "the table after the redo")
        table = watcher.payloads("table")[-1]
        assert table["game"] == "builders" and table["players"] == names
        assert table["game_id"] == play.session.game_id and table["demo"] is False
        assert table["turn_player"] == names[table["turn"]] and not table["finished"]
        assert watcher.payloads("plays") == []  # no record before the game ends

        bot = RandomBot(21)
        while play.session.outcome is None:
            action = bot.choose(play.rules, play.state)
            assert action is not None and play.submit(play.rules.dump_action(action))
        watcher.wait_for(lambda w: bool(w.payloads("plays")), "the finished game's record")
        (record,) = watcher.payloads("plays")
        assert record["id"] == f"table-1/{play.session.game_id}/{record['seq']}"
        assert record["record"] == json.loads(json.dumps(play.session.export()))
        watcher.wait_for(lambda w: w.payloads("table")[-1]["finished"], "the finished table")
        watcher.wait_for(lambda w: bool(w.payloads("health")), "health")

        kiosk.go_home()
        watcher.wait_for(lambda w: w.payloads("table")[-1]["game"] is None, "Home again")
        close_kiosk(kiosk)
        closed = True
        watcher.wait_for(lambda w: w.payloads("status")[-1]["state"] == "offline", "offline")
        wait_until(lambda: not fleet.connected, "the publisher to disconnect")
    finally:
        if not closed:
            close_kiosk(kiosk)
        watcher.close()


def test_play_goes_on_while_the_broker_never_answers(tmp_path: Path) -> None:
    """A broker that takes the connection and never answers (a dead Wi-Fi link looks
    the same): the publisher waits on its own threads, every action is acknowledged by
    the journal, and the finished game's record waits in the outbox. A kiosk that waited
    on the network would hang here (the suite's timeout fails it)."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the handshake; nobody ever reads
        settings = FleetConfig(
            enabled=True, host="127.0.0.1", port=silent.getsockname()[1], device_id="table-1"
        )
        kiosk = open_kiosk(tmp_path / "data")
        journal_path = tmp_path / "data" / JOURNAL_FILE
        fleet = FleetPublisher(settings, journal_path=journal_path)
        try:
            kiosk.attach_fleet(fleet)
            start(kiosk, "Builders of the Colossus")
            play = kiosk.play
            assert play is not None
            bot = RandomBot(5)
            while play.session.outcome is None:
                action = bot.choose(play.rules, play.state)
                assert action is not None and play.submit(play.rules.dump_action(action))
            assert not fleet.connected
            outbox = Outbox(journal_path)
            assert outbox.backlog() == 1
            outbox.close()
        finally:
            close_kiosk(kiosk)


def test_a_table_whose_publishes_are_all_refused_says_so_on_home(tmp_path: Path) -> None:
    """Logged in as table-2, configured as table-9: the shipped ACL refuses everything it
    publishes, its health too, so the page can never hear of it — Home's banner says it."""
    acl = (REPO / "deploy/fleet/acl").read_text(encoding="utf-8")
    broker = Broker(tmp_path / "broker", passwords={"table-2": "two"}, acl=acl)
    broker.start()
    kiosk = open_kiosk(tmp_path / "data")
    settings = broker.fleet_config(device_id="table-9", username="table-2", password="two")
    fleet = FleetPublisher(settings, journal_path=tmp_path / "data" / JOURNAL_FILE)
    try:
        kiosk.attach_fleet(fleet)
        wait_until(lambda: fleet.refused_values > 0, "the broker's refusals")

        def banner_says_it() -> bool:
            frames(1)  # the banner is set on Kivy's clock
            return "Fleet: the broker refused" in kiosk.home_banner.text

        wait_until(banner_says_it, "Home's banner")
        assert "Not authorized" in kiosk.home_banner.text
        assert "device_id and username" in kiosk.home_banner.text
    finally:
        close_kiosk(kiosk)
        broker.stop()
