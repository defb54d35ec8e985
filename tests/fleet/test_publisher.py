"""The store-and-forward publisher against a real Mosquitto broker on 127.0.0.1, with a
real journal file: finished games' records arrive in order and leave the outbox only
once the broker has them; a killed broker, a refused login and a refusing ACL delay
them but lose none, and none arrives twice after dedup by its id."""

from __future__ import annotations

import logging
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.journal import outbox as outbox_module
from companion.session import Session
from kiosk.fleet import publisher as publisher_module
from kiosk.fleet.messages import Table
from kiosk.fleet.publisher import FleetPublisher
from tests.fleet.broker import Broker, Watcher, make_certificates, wait_until
from tests.helpers.fleet import Table1
from tests.helpers.fleet import roll as _roll

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    running = Broker(tmp_path / "broker")
    running.start()
    yield running
    running.stop()


def _games(watcher: Watcher) -> list[int]:
    """The games whose records arrived, each once (deduplicated by the record's id)."""
    seen: dict[str, int] = {}
    for play in watcher.payloads("plays"):
        seen.setdefault(play["id"], play["game_id"])
    return list(seen.values())


def test_records_arrive_in_order_and_leave_the_outbox(tmp_path: Path, broker: Broker) -> None:
    watcher = Watcher(broker)
    table = Table1(tmp_path, broker)
    table.play(30)  # more than the window of records in flight
    table.publisher.start()
    try:
        watcher.wait_for(lambda w: len(w.payloads("plays")) >= 30, "30 records")
        assert _games(watcher) == table.finished
        wait_until(lambda: table.waiting() == 0, "an empty outbox")
        plays = watcher.payloads("plays")
        assert all(p["device"] == "table-1" and p["v"] == 1 for p in plays)
        first = plays[0]
        assert first["id"] == f"table-1/{first['game_id']}/2" and first["seq"] == 2
        record = first["record"]
        assert record["game"] == "toy_pig" and record["players"] == ["Ann"]
        assert record["outcome"]["winners"] == [0] and len(record["actions"]) == 2
        (status,) = watcher.payloads("status")
        assert status["state"] == "online"
        table.publisher.show_table(
            Table(device="table-1", at="2026-01-01T00:00:00+00:00", game="toy_pig")
        )
        watcher.wait_for(lambda w: any(t["game"] == "toy_pig" for t in w.payloads("table")), "t")
        watcher.wait_for(lambda w: bool(w.payloads("health")), "health")
        health = watcher.payloads("health")[-1]
        assert health["outbox_dropped"] == 0 and health["journal_problems"] == []
        assert health["doctor"] == ["[problem] dice: no tray on USB"]
    finally:
        table.close()
        watcher.close()
    # A clean stop leaves "offline" as the retained status.
    late = Watcher(broker)
    try:
        late.wait_for(
            lambda w: bool(w.payloads("status") and w.payloads("table")), "the retained values"
        )
        assert late.payloads("status")[-1]["state"] == "offline"
        assert [t["game"] for t in late.payloads("table")] == ["toy_pig"]
    finally:
        late.close()


def test_a_broker_killed_mid_game_delays_records_and_loses_none(
    tmp_path: Path, broker: Broker
) -> None:
    table = Table1(tmp_path, broker, username="table-1", password="pw-table")
    watcher = Watcher(broker)
    table.publisher.start()
    try:
        table.play(5)
        watcher.wait_for(lambda w: len(_games(w)) == 5, "the first records")
        wait_until(lambda: table.waiting() == 0, "an empty outbox")
        watcher.close()

        # A game is under way when the broker dies and finishes while it is gone; so do
        # 11 more. The journal acknowledges every action meanwhile.
        session = Session.new(
            "toy_pig", ["Ann", "Bob"], {"target": 9}, seed=3, journal=table.journal
        )
        session.submit(_roll(6))
        broker.kill()
        session.submit({"type": "hold"})
        session.submit(_roll(6))
        wait_until(lambda: not table.publisher.connected, "the publisher to notice")
        session.submit({"type": "hold"})
        session.submit(_roll(6))
        session.submit({"type": "hold"})
        assert session.outcome is not None and session.game_id is not None
        table.finished.append(session.game_id)
        table.play(11)
        assert table.waiting() == 12

        # The broker comes back requiring logins, at first only the watcher's: the
        # table's attempts are refused until its user is added — so the watcher is
        # subscribed before the table can send anything.
        broker.passwords = {"fleet": "pw-fleet"}
        broker.start()
        watcher = Watcher(broker, username="fleet", password="pw-fleet")
        wait_until(lambda: (table.publisher.last_error or "").startswith("the broker refused"), "r")
        assert table.waiting() == 12
        broker.passwords["table-1"] = "pw-table"
        broker.reload()
        watcher.wait_for(lambda w: len(_games(w)) >= 12, "the records made while it was down")
        assert _games(watcher) == table.finished[5:]  # in order, none lost, none twice
        wait_until(lambda: table.waiting() == 0, "an empty outbox")
        watcher.wait_for(lambda w: bool(w.payloads("status")), "the status again")
        assert watcher.payloads("status")[-1]["state"] == "online"
    finally:
        table.close()
        watcher.close()


def test_records_the_acl_refuses_stay_in_the_outbox(tmp_path: Path) -> None:
    """The shipped ACL: a table writes its own topics only; a table using another
    table's name gets "not authorised" and keeps its records (counted in health)."""
    acl = (REPO / "deploy/fleet/acl").read_text(encoding="utf-8")
    broker = Broker(
        tmp_path / "broker",
        passwords={"table-1": "one", "table-2": "two", "fleet": "pw"},
        acl=acl,
    )
    broker.start()
    watcher = Watcher(broker, username="fleet", password="pw")
    honest = Table1(tmp_path / "honest", broker, username="table-1", password="one")
    # Logged in as table-2, but configured with another table's device id.
    impostor = Table1(
        tmp_path / "impostor", broker, device_id="table-9", username="table-2", password="two"
    )
    try:
        honest.play(3)
        impostor.play(3)
        honest.publisher.start()
        impostor.publisher.start()
        watcher.wait_for(lambda w: len(_games(w)) >= 3, "the honest table's records")
        wait_until(lambda: honest.waiting() == 0, "the honest table's outbox to empty")
        wait_until(lambda: impostor.publisher.refused >= 3, "the impostor's records refused")
        assert impostor.waiting() == 3
        assert _games(watcher) == honest.finished  # only the honest table's
        assert {p["device"] for p in watcher.payloads("plays")} == {"table-1"}
        assert not any(topic.startswith("colossus/table-9/") for topic, _, _ in watcher.messages)
    finally:
        honest.close()
        impostor.close()
        watcher.close()
        broker.stop()


def test_home_assistant_discovery_announces_the_tables_sensors(
    tmp_path: Path, broker: Broker
) -> None:
    watcher = Watcher(broker, "homeassistant/#")
    table = Table1(tmp_path, broker, discovery=True)
    table.publisher.start()
    try:
        watcher.wait_for(lambda w: len(w.messages) >= 7, "the sensors' configs")
        configs = {topic: payload for topic, payload, _ in watcher.messages}
        battery = configs["homeassistant/sensor/table-1/dice_battery/config"]
        assert battery["state_topic"] == "colossus/table-1/health"
        assert battery["unit_of_measurement"] == "%" and battery["device_class"] == "battery"
        game = configs["homeassistant/sensor/table-1/game/config"]
        assert game["state_topic"] == "colossus/table-1/table"
        assert game["availability_topic"] == "colossus/table-1/status"
        assert game["device"]["identifiers"] == ["colossus_table-1"]
        # default_entity_id (domain.slug) replaced Home Assistant's deprecated object_id.
        assert game["default_entity_id"] == "sensor.colossus_table_1_game"
        assert not any("object_id" in config for config in configs.values())
        assert len({c["unique_id"] for c in configs.values()}) == len(configs) == 7
    finally:
        table.close()
        watcher.close()


def test_the_shipped_broker_config_refuses_anonymous_clients(tmp_path: Path) -> None:
    """deploy/fleet/mosquitto.conf, with its paths and port moved into the test's folder:
    a client without a login is refused, a table with its own user gets in."""
    broker = Broker(tmp_path / "broker", passwords={"table-1": "one"})
    broker.use_shipped_config()
    assert "allow_anonymous false" in broker.config_text()
    broker.start()
    try:
        anonymous = FleetPublisher(broker.fleet_config(), journal_path=None)
        anonymous.start()
        wait_until(lambda: (anonymous.last_error or "").startswith("the broker refused"), "r")
        assert not anonymous.connected
        anonymous.stop()
        table = FleetPublisher(
            broker.fleet_config(username="table-1", password="one"), journal_path=None
        )
        table.start()
        wait_until(lambda: table.connected, "the table's login")
        table.stop()
    finally:
        broker.stop()


def test_a_refused_login_is_logged_without_the_password(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broker = Broker(tmp_path / "broker", passwords={"table-1": "right-one"})
    broker.start()
    caplog.set_level(logging.DEBUG)
    publisher = FleetPublisher(
        broker.fleet_config(username="table-1", password="wrong-s3cret"), journal_path=None
    )
    try:
        publisher.start()
        wait_until(lambda: (publisher.last_error or "").startswith("the broker refused"), "r")
    finally:
        publisher.stop()
        broker.stop()
    assert "refused the connection" in caplog.text
    assert "wrong-s3cret" not in caplog.text and "right-one" not in caplog.text


def test_records_in_flight_when_the_broker_dies_are_sent_again(
    tmp_path: Path, broker: Broker
) -> None:
    """The broker freezes (SIGSTOP) with records sent but not acknowledged, then dies:
    after the restart those records go again, rather than waiting for an answer that
    can never come."""
    table = Table1(tmp_path, broker)
    table.publisher.start()
    try:
        wait_until(lambda: table.publisher.connected, "the connection")
        assert broker.process is not None
        broker.process.send_signal(signal.SIGSTOP)
        table.play(4)
        wait_until(lambda: table.publisher.in_flight == 4, "four records in flight")
        assert table.waiting() == 4
        broker.kill()
        broker.start()
        watcher = Watcher(broker)
        # the forwarder counts a record after it leaves the outbox: wait for both
        wait_until(
            lambda: table.waiting() == 0 and table.publisher.delivered == 4,
            "the records to be taken after the restart",
        )
        watcher.close()
    finally:
        table.close()


def test_a_journal_locked_for_long_delays_the_forwarder_and_stops_nothing(
    tmp_path: Path, broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another program holds the journal's write lock past the outbox's busy timeout: the
    acknowledged records cannot be removed yet; the forwarder says why, waits, and
    removes them once the lock is gone."""
    monkeypatch.setattr(outbox_module, "BUSY_TIMEOUT_S", 0.2)
    monkeypatch.setattr(publisher_module, "RETRY_S", 0.2)
    table = Table1(tmp_path, broker)
    watcher = Watcher(broker)
    table.publisher.start()
    holder = sqlite3.connect(table.path, isolation_level=None)
    try:
        wait_until(lambda: table.publisher.connected, "the connection")
        table.play(3)
        wait_until(lambda: table.waiting() == 0, "the first records")
        table.play(3)
        holder.execute("BEGIN EXCLUSIVE")  # the outbox can neither be read nor updated
        table.publisher.poke()
        wait_until(lambda: "locked" in (table.publisher.last_error or ""), "the lock to show")
        holder.execute("COMMIT")
        # the forwarder counts a record after it leaves the outbox: wait for both
        wait_until(
            lambda: table.waiting() == 0 and table.publisher.delivered == 6,
            "the records once the lock is gone",
        )
    finally:
        holder.close()
        table.close()
        watcher.close()


def test_a_kiosk_that_vanishes_is_reported_offline_by_its_last_will(
    tmp_path: Path, broker: Broker
) -> None:
    """A kiosk process killed outright (a power cut) says nothing more: the broker sends
    the last will it left when it connected, and the retained status turns offline."""
    code = (
        "import sys, time\n"
        "from kiosk.settings import FleetConfig\n"
        "from kiosk.fleet.publisher import FleetPublisher\n"
        "settings = FleetConfig(enabled=True, host='127.0.0.1', port=int(sys.argv[1]),"
        " device_id='table-7')\n"
        "publisher = FleetPublisher(settings, journal_path=None)\n"
        "publisher.start()\n"
        "while not publisher.connected:\n"
        "    time.sleep(0.05)\n"
        "print('connected', flush=True)\n"
        "time.sleep(600)\n"
    )
    watcher = Watcher(broker)
    kiosk = subprocess.Popen(
        [sys.executable, "-c", code, str(broker.port)], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert kiosk.stdout is not None and kiosk.stdout.readline().strip() == "connected"
        watcher.wait_for(lambda w: bool(w.payloads("status")), "online")
        status = watcher.payloads("status")[-1]
        assert status["device"] == "table-7" and status["state"] == "online"
        kiosk.kill()
        kiosk.wait()
        watcher.wait_for(lambda w: w.payloads("status")[-1]["state"] == "offline", "the will")
    finally:
        if kiosk.poll() is None:
            kiosk.kill()
            kiosk.wait()
        watcher.close()
    late = Watcher(broker)  # and it stays: the will is retained
    try:
        late.wait_for(lambda w: bool(w.payloads("status")), "the retained status")
        assert late.payloads("status")[-1]["state"] == "offline"
    finally:
        late.close()


def test_a_table_logs_in_with_its_certificate_over_tls(tmp_path: Path) -> None:
    """The documented TLS setup: the broker asks for a client certificate and takes its
    name as the user (so the shipped ACL applies); the table checks the broker's
    certificate against ca_file and logs in with certfile and keyfile."""
    certs = make_certificates(tmp_path / "certs", "table-1")
    acl = (REPO / "deploy/fleet/acl").read_text(encoding="utf-8")
    broker = Broker(
        tmp_path / "broker",
        acl=acl,
        listener_options=(
            f"cafile {certs.ca}\ncertfile {certs.broker_cert}\nkeyfile {certs.broker_key}\n"
            "require_certificate true\nuse_identity_as_username true"
        ),
    )
    broker.start()
    tls = {"tls": True, "ca_file": certs.ca}
    table = Table1(
        tmp_path / "table",
        broker,
        **tls,
        certfile=certs.table_cert,
        keyfile=certs.table_key,
    )
    stranger = FleetPublisher(broker.fleet_config(**tls), journal_path=None)  # no certificate
    try:
        table.play(3)
        table.publisher.start()
        stranger.start()
        # No watcher here: the broker's acknowledgements show the records went over TLS.
        wait_until(lambda: table.publisher.taken == 3, "the records over TLS")
        assert table.publisher.refused == 0 and table.waiting() == 3
        assert not stranger.connected
    finally:
        stranger.stop()
        table.close()
        broker.stop()
