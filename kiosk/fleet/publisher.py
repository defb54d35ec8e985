"""The table's side of the fleet: a store-and-forward MQTT publisher.

Two threads, neither touching the session or the UI: paho's network thread (connects,
reconnects with back-off, keeps the link alive) and the forwarder, which does all the
publishing. The main thread only hands over values (:meth:`FleetPublisher.show_table`,
:meth:`FleetPublisher.set_health`) and says when the journal queued plays
(:meth:`FleetPublisher.poke`).

Plays are not sent from memory: the journal queues a copy of each in its ``outbox``
table in the same commit as the play (``Journal.keep_outbox``); the forwarder reads the
outbox on its own connection, publishes with QoS 1 and removes a message only when the
broker acknowledges it (an MQTT 5 PUBACK without an error). A broker outage, a refused
login or a power cut therefore delays plays but loses none; a message the broker refuses
(its ACL) stays in the outbox, is counted in ``health`` and is tried again on the next
connection. Status, table and health are retained values: after an outage the latest
one is sent, not the history.
"""

from __future__ import annotations

import collections
import contextlib
import importlib.metadata
import json
import logging
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from companion.errors import JournalError
from companion.journal import Outbox, OutboxMessage
from firmware_bridge.config import FleetConfig
from kiosk.fleet.discovery import discovery_messages
from kiosk.fleet.link import mqtt_client
from kiosk.fleet.messages import DeviceHealth, Health, Play, Status, Table, Topic

log = logging.getLogger(__name__)

#: Plays in flight (sent, not yet acknowledged) at most; paho's own limit is the same.
WINDOW = 20
STOP_TIMEOUT_S = 3.0
#: How often health checks the journal's integrity (it reads the whole file) and runs
#: the hardware doctor.
CHECK_EVERY_S = 3600.0
#: After the journal could not be read or updated, the forwarder tries again this late.
RETRY_S = 5.0


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def device_id_of(settings: FleetConfig) -> str:
    """``[fleet] device_id``, else the host name made safe for one topic level."""
    if settings.device_id:
        return settings.device_id
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in socket.gethostname())
    return name[:64] or "table"


def topic_of(settings: FleetConfig, device: str, topic: Topic) -> str:
    return f"{settings.topic_prefix}/{device}/{topic}"


def _version() -> str:
    try:
        return importlib.metadata.version("colossus-companion")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a bare checkout
        return ""


class FleetPublisher:
    """Reports one table to the broker ``settings`` names (see the module's docstring)."""

    def __init__(
        self,
        settings: FleetConfig,
        *,
        journal_path: Path | None,
        device_id: str | None = None,
        doctor: Callable[[], tuple[str, ...]] | None = None,
    ) -> None:
        self.settings = settings
        self.device = device_id or device_id_of(settings)
        self.journal_path = journal_path
        self.doctor = doctor
        self.version = _version()
        self._started = time.monotonic()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._acks: collections.deque[tuple[int, bool]] = collections.deque()
        self._connection = 0  # counts successful connections (paho's thread writes it)
        self._connected = False
        self._table = Table(device=self.device, at=now_iso())
        self._table_sent = False
        self._health_facts: dict[str, Any] = {}
        self._health_due = True
        #: The forwarder's own: paho message id → outbox msg_id, and what was refused.
        self._inflight: dict[int, int] = {}
        self._refused_ids: set[int] = set()
        self.refused = 0
        self._journal_problems: tuple[str, ...] = ()
        self._doctor_findings: tuple[str, ...] = ()
        self._checked_at = float("-inf")
        self._seen = 0
        self._next_health = 0.0
        self.last_error: str | None = None
        self.delivered = 0
        self._client = self._make_client()
        self._thread = threading.Thread(target=self._run, name="fleet-forwarder", daemon=True)

    # --- the main thread's side -----------------------------------------------------

    def start(self) -> None:
        """Connect in the background (retrying until it works) and start forwarding."""
        self._client.connect_async(
            self.settings.host, self.settings.port, keepalive=self.settings.keepalive_s
        )
        self._client.loop_start()
        self._thread.start()

    def stop(self) -> None:
        """Say ``offline`` (retained) if connected, disconnect, end both threads."""
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(STOP_TIMEOUT_S)
        if self._connected:
            info = self._client.publish(
                self.topic("status"), self._status("offline"), qos=1, retain=True
            )
            # If the link goes at the last moment, the broker's last will says it.
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(STOP_TIMEOUT_S)
        self._client.disconnect()
        self._client.loop_stop()

    def poke(self) -> None:
        """The journal queued a record: forward it now rather than at the next wake-up."""
        self._wake.set()

    def show_table(self, table: Table) -> None:
        with self._lock:
            if table.model_copy(update={"at": self._table.at}) == self._table:
                return
            self._table = table
            self._table_sent = False
        self._wake.set()

    def set_health(
        self,
        *,
        problems: tuple[str, ...],
        devices: tuple[DeviceHealth, ...],
        journal_read_only: bool,
    ) -> None:
        facts = {"problems": problems, "devices": devices, "journal_read_only": journal_read_only}
        with self._lock:
            if facts == self._health_facts:
                return
            self._health_facts = facts
            self._health_due = True
        self._wake.set()

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def in_flight(self) -> int:
        """Records sent and not yet acknowledged."""
        return len(self._inflight)

    def topic(self, topic: Topic) -> str:
        return topic_of(self.settings, self.device, topic)

    # --- paho's network thread ------------------------------------------------------

    def _make_client(self) -> mqtt.Client:
        client = mqtt_client(self.settings, f"colossus-{self.device}")
        client.will_set(self.topic("status"), self._status("offline"), qos=1, retain=True)
        client.max_inflight_messages_set(WINDOW)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        return client

    def _on_connect(
        self, _client: Any, _userdata: Any, _flags: Any, reason: ReasonCode, _props: Any
    ) -> None:
        if reason.is_failure:
            error = f"the broker refused the connection: {reason.getName()}"
            if error != self.last_error:  # once, not at every retry
                log.warning("fleet: %s", error)
            self.last_error = error
            return
        self.last_error = None
        self._connection += 1
        self._connected = True
        self._wake.set()

    def _on_disconnect(
        self, _client: Any, _userdata: Any, _flags: Any, reason: ReasonCode, _props: Any
    ) -> None:
        was_connected, self._connected = self._connected, False
        if was_connected and not self._stopping.is_set():
            self.last_error = f"disconnected from the broker: {reason.getName()}"
            log.info("fleet: %s", self.last_error)

    def _on_publish(
        self, _client: Any, _userdata: Any, mid: int, reason: ReasonCode, _props: Any
    ) -> None:
        self._acks.append((mid, not reason.is_failure))
        self._wake.set()

    # --- the forwarder thread -------------------------------------------------------

    def _run(self) -> None:
        outbox = self._open_outbox()
        self._seen = 0  # the connection whose opening values were sent
        self._next_health = 0.0
        try:
            while not self._stopping.is_set():
                if self._connected:
                    wait = max(0.0, self._next_health - time.monotonic())
                else:
                    wait = float(self.settings.health_interval_s)
                self._wake.wait(wait)
                self._wake.clear()
                if self._stopping.is_set():
                    break
                try:
                    self._step(outbox)
                except JournalError as error:  # e.g. the journal busy for long: try later
                    self.last_error = str(error)
                    log.warning("fleet: %s", error)
                    self._stopping.wait(RETRY_S)
                    self._wake.set()
        except Exception as error:  # the table plays on without the fleet; the log says why
            self.last_error = f"the forwarder stopped: {error}"
            log.exception("fleet: the forwarder stopped")
        finally:
            if outbox is not None:
                outbox.close()

    def _step(self, outbox: Outbox | None) -> None:
        """One wake-up: take acknowledgements; when connected, send what is due."""
        self._take_acks(outbox)
        if not self._connected:
            return
        if self._connection != self._seen:  # a new connection: say everything again
            self._seen = self._connection
            # What was in flight is sent again (paho may repeat it too: at least once,
            # deduplicated by the record's id), and so is what was refused.
            self._inflight.clear()
            self._refused_ids.clear()
            self._publish("status", self._status("online"))
            if self.settings.discovery:
                for topic, config in discovery_messages(self.settings, self.device, self.version):
                    self._client.publish(topic, config, qos=1, retain=True)
            with self._lock:
                self._table_sent = False
            self._next_health = 0.0
        self._send_table()
        self._forward(outbox)
        with self._lock:
            due = self._health_due or time.monotonic() >= self._next_health
            self._health_due = False
        if due:
            self._publish("health", self._health(outbox).model_dump_json())
            self._next_health = time.monotonic() + self.settings.health_interval_s

    def _open_outbox(self) -> Outbox | None:
        if self.journal_path is None:
            return None
        try:
            return Outbox(self.journal_path)
        except JournalError as error:
            self.last_error = str(error)
            log.warning("fleet: finished games are not forwarded: %s", error)
            return None

    def _publish(self, topic: Topic, payload: str) -> None:
        """A retained value (status, table, health), QoS 1."""
        self._client.publish(self.topic(topic), payload, qos=1, retain=True)

    def _send_table(self) -> None:
        with self._lock:
            if self._table_sent:
                return
            table, self._table_sent = self._table, True
        self._publish("table", table.model_dump_json())

    def _forward(self, outbox: Outbox | None) -> None:
        room = WINDOW - len(self._inflight)
        if outbox is None or room <= 0:
            return
        skip = set(self._inflight.values()) | self._refused_ids
        waiting = [m for m in outbox.pending(limit=WINDOW + len(skip)) if m.msg_id not in skip]
        unreadable: list[int] = []
        for message in waiting[:room]:
            payload = self._play_payload(message)
            if payload is None:
                unreadable.append(message.msg_id)
                continue
            info = self._client.publish(self.topic("plays"), payload, qos=1)
            self._inflight[info.mid] = message.msg_id
        outbox.remove(unreadable)

    def _play_payload(self, message: OutboxMessage) -> str | None:
        try:
            play = Play(
                device=self.device,
                id=f"{self.device}/{message.game_id}/{message.seq}",
                game_id=message.game_id,
                seq=message.seq,
                finished_at=message.created,
                record=json.loads(message.payload),
            )
        except (ValueError, TypeError) as error:
            log.warning("fleet: outbox message %d unreadable, dropped: %s", message.msg_id, error)
            return None
        return play.model_dump_json()

    def _take_acks(self, outbox: Outbox | None) -> None:
        taken: list[int] = []
        while self._acks:
            mid, ok = self._acks.popleft()
            msg_id = self._inflight.pop(mid, None)
            if msg_id is None:
                continue  # a retained value's acknowledgement
            if ok:
                taken.append(msg_id)
            else:
                self._refused_ids.add(msg_id)
                self.refused += 1
        if outbox is not None and taken:
            outbox.remove(taken)
            self.delivered += len(taken)
        if taken:
            self._wake.set()  # room in the window: forward more

    def _status(self, state: Literal["online", "offline"]) -> str:
        since = now_iso() if state == "online" else None
        return Status(
            device=self.device, state=state, version=self.version, since=since
        ).model_dump_json()

    def _health(self, outbox: Outbox | None) -> Health:
        with self._lock:
            facts = dict(self._health_facts)
        waiting = dropped = 0
        if outbox is not None:
            waiting, dropped = outbox.backlog(), outbox.dropped()
        if time.monotonic() - self._checked_at >= CHECK_EVERY_S:
            self._checked_at = time.monotonic()
            if outbox is not None:
                self._journal_problems = outbox.integrity()
            if self.doctor is not None:
                self._doctor_findings = self.doctor()
        return Health(
            device=self.device,
            at=now_iso(),
            uptime_s=round(time.monotonic() - self._started, 1),
            outbox_waiting=waiting,
            outbox_dropped=dropped,
            refused=self.refused,
            journal_problems=self._journal_problems,
            doctor=self._doctor_findings,
            disk_free_mb=_disk_free_mb(self.journal_path),
            load_1m=_load_1m(),
            cpu_temp_c=_cpu_temp_c(),
            **facts,
        )


def _disk_free_mb(path: Path | None) -> float | None:
    if path is None:
        return None
    try:
        return round(shutil.disk_usage(path.parent).free / 1e6, 1)
    except OSError:
        return None


def _load_1m() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def _cpu_temp_c(zone: Path = Path("/sys/class/thermal/thermal_zone0/temp")) -> float | None:
    try:
        return round(int(zone.read_text().strip()) / 1000, 1)
    except (OSError, ValueError):
        return None
