"""Failures that used to be silent, now said in plain words (a real Mosquitto on
127.0.0.1): ``companion fleet`` names a closed port, an unknown host, a CA that does not
vouch for the broker, plain MQTT on a TLS port and TLS on a plain one; a table whose
records the broker refuses says so (Home's banner, ``companion doctor``); the watcher's
login reads but cannot write a table's topics; two watchers with their own client ids
do not push each other off."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from companion.journal import Journal
from firmware_bridge.doctor import Severity
from kiosk.doctor_checks import _outbox_findings
from kiosk.doctor_facts import inspect_journal
from kiosk.fleet.link import explain_failure
from kiosk.fleet.store import FleetStore
from kiosk.fleet.watch import watch
from kiosk.settings import FleetConfig
from tests.fleet.broker import REPO, Broker, free_port, make_certificates, wait_until
from tests.helpers.fleet import Table1

ACL = (REPO / "deploy/fleet/acl").read_text(encoding="utf-8")


class RunningWatcher:
    """``watch`` on a thread, with what it says."""

    def __init__(self, settings: FleetConfig, folder: Path) -> None:
        self.said: list[str] = []
        self.stop = threading.Event()
        self.db = folder / "fleet.sqlite3"

        def target() -> None:
            store = FleetStore(self.db)
            try:
                watch(settings, store, folder / "page", stop=self.stop, say=self.said.append)
            finally:
                store.close()

        self.thread = threading.Thread(target=target)
        self.thread.start()

    def wait_to_say(self, text: str) -> str:
        wait_until(lambda: any(text in line for line in self.said), repr(text))
        return next(line for line in self.said if text in line)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()


@pytest.fixture
def tls_broker(tmp_path: Path) -> Iterator[tuple[Broker, Path]]:
    certs = make_certificates(tmp_path / "certs", "table-1")
    broker = Broker(
        tmp_path / "broker",
        listener_options=f"cafile {certs.ca}\ncertfile {certs.broker_cert}\n"
        f"keyfile {certs.broker_key}",
    )
    broker.start()
    yield broker, certs.ca
    broker.stop()


def test_a_closed_port_and_an_unknown_host_are_named(tmp_path: Path) -> None:
    closed = FleetConfig(host="127.0.0.1", port=free_port())
    assert "nothing listens there (connection refused)" in explain_failure(closed)
    unknown = FleetConfig(host="no-such-broker.invalid", port=1883)
    assert "unknown host 'no-such-broker.invalid'" in explain_failure(unknown)
    watcher = RunningWatcher(closed, tmp_path)
    try:
        line = watcher.wait_to_say("cannot connect")
        assert f"127.0.0.1:{closed.port}: nothing listens there" in line
    finally:
        watcher.close()
    page = (tmp_path / "page" / "index.html").read_text(encoding="utf-8")
    assert "not connected to the broker" in page


def test_a_ca_that_does_not_vouch_for_the_broker_is_named(
    tmp_path: Path, tls_broker: tuple[Broker, Path]
) -> None:
    broker, _ = tls_broker
    other = make_certificates(tmp_path / "other", "table-1")  # another CA altogether
    settings = broker.fleet_config(tls=True, ca_file=other.ca)
    watcher = RunningWatcher(settings, tmp_path)
    try:
        line = watcher.wait_to_say("not trusted")
        assert "the broker's certificate is not trusted" in line and str(other.ca) in line
    finally:
        watcher.close()


def test_plain_mqtt_on_the_tls_port_and_tls_on_a_plain_port_are_named(
    tmp_path: Path, tls_broker: tuple[Broker, Path]
) -> None:
    broker, ca = tls_broker
    watcher = RunningWatcher(broker.fleet_config(), tmp_path / "plain")
    try:
        line = watcher.wait_to_say("closed the connection before answering the login")
        assert "Is it a TLS port? (then set tls = true)" in line
    finally:
        watcher.close()
    plain = Broker(tmp_path / "plain-broker")
    plain.start()
    try:
        settings = plain.fleet_config(tls=True, ca_file=ca)
        assert "TLS handshake failed" in explain_failure(settings)
        assert "is this port plain MQTT?" in explain_failure(settings)
    finally:
        plain.stop()


def _allowed(broker: Broker, user: str, password: str, topic: str) -> bool:
    """Whether the broker takes a QoS 1 publish by ``user`` (its PUBACK: MQTT 5 says
    "Not authorized", or success — "No matching subscribers" included)."""
    answered = threading.Event()
    reason: list[str] = []
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=f"probe-{user}-{free_port()}",
        protocol=MQTTProtocolVersion.MQTTv5,
    )
    client.username_pw_set(user, password)

    def on_publish(*args: Any) -> None:
        reason.append(args[3].getName())
        answered.set()

    client.on_publish = on_publish
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        client.publish(topic, b'{"v": 1}', qos=1)
        assert answered.wait(30), f"no PUBACK for {topic}"
    finally:
        client.disconnect()
        client.loop_stop()
    return reason[0] != "Not authorized"


def test_the_watcher_and_home_assistant_logins_cannot_write_a_tables_topics(
    tmp_path: Path,
) -> None:
    """The shipped ACL: ``fleet`` writes only acknowledgements and its presence,
    ``homeassistant`` nothing; a pattern meant for tables gives them no topic of their
    own either (``colossus/fleet/plays`` would be a fake table)."""
    broker = Broker(
        tmp_path / "broker",
        passwords={"fleet": "f", "homeassistant": "h", "table-1": "t"},
        acl=ACL,
    )
    broker.start()
    try:
        for user, password in (("fleet", "f"), ("homeassistant", "h")):
            for topic in (
                f"colossus/{user}/plays",
                f"colossus/{user}/status",
                "colossus/table-1/plays",
                "colossus/table-1/table",
                f"homeassistant/sensor/{user}/game/config",
            ):
                assert not _allowed(broker, user, password, topic), (user, topic)
        assert _allowed(broker, "fleet", "f", "colossus/table-1/ack")
        assert not _allowed(broker, "homeassistant", "h", "colossus/table-1/ack")
        assert _allowed(broker, "table-1", "t", "colossus/table-1/plays")
        assert not _allowed(broker, "table-1", "t", "colossus/table-1/ack")
    finally:
        broker.stop()


def test_a_table_whose_records_are_refused_says_so_on_home_and_in_the_doctor(
    tmp_path: Path,
) -> None:
    """Logged in as table-2 but configured as table-9: the ACL refuses every publish,
    its health too — so the table itself says it, not the page."""
    broker = Broker(tmp_path / "broker", passwords={"table-2": "two"}, acl=ACL)
    broker.start()
    impostor = Table1(tmp_path, broker, device_id="table-9", username="table-2", password="two")
    banner: list[str | None] = []
    impostor.publisher.on_trouble = banner.append  # what Home's banner is handed
    try:
        impostor.play(2)
        impostor.publisher.start()
        wait_until(lambda: impostor.publisher.refused >= 2, "the refusals")
        wait_until(lambda: bool(banner) and banner[-1] is not None, "Home's banner")
        assert "the broker refused" in str(banner[-1]) and "Not authorized" in str(banner[-1])
        assert impostor.waiting() == 2  # kept
    finally:
        impostor.close()
        broker.stop()
    health = inspect_journal(impostor.path)
    findings = _outbox_findings(health)
    problem = next(f for f in findings if f.severity is Severity.PROBLEM)
    assert problem.topic == "fleet" and "the broker refused" in problem.text
    assert "device_id and username" in problem.text


def test_two_watchers_with_their_own_client_ids_both_stay_and_both_store(
    tmp_path: Path,
) -> None:
    broker = Broker(tmp_path / "broker")
    broker.start()
    first = RunningWatcher(broker.fleet_config(watcher_client_id="shop-page"), tmp_path / "a")
    second = RunningWatcher(broker.fleet_config(watcher_client_id="shop-test"), tmp_path / "b")
    table = Table1(tmp_path / "table", broker)
    try:
        assert "as shop-page" in first.wait_to_say("connected to")
        assert "as shop-test" in second.wait_to_say("connected to")
        table.play(3)
        table.publisher.start()
        for watcher in (first, second):
            store = FleetStore(watcher.db)
            wait_until(lambda s=store: s.games_played() == 3, "both stores")  # type: ignore[misc]
            store.close()
        assert "already connected" not in broker.log_text()
        assert not any("lost the broker" in line for line in first.said + second.said)
    finally:
        table.close()
        first.close()
        second.close()
        broker.stop()


def test_a_journal_without_a_fleet_link_file_says_nothing_of_it(tmp_path: Path) -> None:
    with Journal(tmp_path / "journal.sqlite3") as journal:
        journal.keep_outbox(10, topic="plays")
    assert inspect_journal(tmp_path / "journal.sqlite3").link is None
