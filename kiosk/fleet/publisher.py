"""The table's side of the fleet: a store-and-forward MQTT publisher, delivering end to end.

Two threads, neither touching the session or the UI: paho's network thread (connects,
reconnects with back-off, keeps the link alive) and the forwarder, which does all the
publishing. The main thread only hands over values (:meth:`FleetPublisher.show_table`,
:meth:`FleetPublisher.set_health`) and says when the journal queued plays
(:meth:`FleetPublisher.poke`).

Plays are not sent from memory: the journal queues a copy of each in its ``outbox``
table in the same commit as the play (``Journal.keep_outbox``); the forwarder reads the
outbox on its own connection and publishes with QoS 1. A record leaves the outbox only
when the *watcher* says it stored it (``<prefix>/<device>/ack``, retained, naming the
records it committed) — a broker's PUBACK only means the broker has it, and a broker
that crashes, or drops a message because a queue is full, loses what it had. At most
:data:`WINDOW` records wait for that word at once; they are sent again after each new
connection, each time a watcher comes online (``<prefix>/_watcher``: a watcher whose
session the broker lost needs them again), and when none is confirmed for a while
(:data:`RESEND_S`, doubling up to :data:`RESEND_MAX_S`). The watcher keeps each record
once, by its id. A record the broker refuses (its ACL, its size limit) stays in the
outbox, is counted in ``health``, on Home and in ``companion doctor``, and is tried again
on the next connection. Status, table and health are retained values: after an outage
the latest one is sent, not the history.
"""

from __future__ import annotations

import collections
import contextlib
import importlib.metadata
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode
from pydantic import ValidationError

from companion.errors import JournalError
from companion.journal import Outbox, OutboxMessage
from kiosk.fleet.discovery import discovery_messages
from kiosk.fleet.link import closed_before_login, explain_failure, mqtt_client
from kiosk.fleet.machine_facts import cpu_temp_c, disk_free_mb, load_1m
from kiosk.fleet.messages import (
    ACK_TOPIC,
    PLAYS,
    WATCHER_TOPIC,
    Ack,
    DeviceHealth,
    Health,
    Play,
    Status,
    Table,
    Topic,
    WatcherStatus,
)
from kiosk.fleet.state import LinkState, write_link_state
from kiosk.settings import FleetConfig

log = logging.getLogger(__name__)

#: Records sent and not yet confirmed by the watcher, at most.
WINDOW = 200
#: paho's own limit of messages awaiting the broker's PUBACK.
PAHO_INFLIGHT = 50
STOP_TIMEOUT_S = 3.0
#: No confirmation this long after a record was sent: send what is unconfirmed again;
#: the wait doubles each time nothing is confirmed, up to RESEND_MAX_S.
RESEND_S = 10.0
RESEND_MAX_S = 600.0
#: How far into the outbox an acknowledgement that names no record in flight is looked
#: up (the records a previous run of the kiosk sent).
ACK_LOOKUP = 1000
#: The link's state file is written at once when its trouble changes, else this often.
LINK_EVERY_S = 10.0
#: How often health checks the journal's integrity (it reads the whole file) and runs
#: the hardware doctor.
CHECK_EVERY_S = 3600.0
#: After the journal could not be read or updated, the forwarder tries again this late.
RETRY_S = 5.0


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def device_id_of(settings: FleetConfig) -> str:
    """``[fleet] device_id``, else the host name made a valid device id."""
    if settings.device_id:
        return settings.device_id
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in socket.gethostname())
    return name[:64] or "table"


def topic_of(settings: FleetConfig, device: str, topic: Topic | Literal["ack"]) -> str:
    return f"{settings.topic_prefix}/{device}/{topic}"


def record_id(device: str, game_id: int, seq: int) -> str:
    """A finished game's id: ``<device>/<game_id>/<seq>`` (the watcher's dedup key)."""
    return f"{device}/{game_id}/{seq}"


def _version() -> str:
    try:
        return importlib.metadata.version("colossus-companion")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a bare checkout
        return ""


@dataclass
class _Sent:
    msg_id: int
    at: float  # monotonic, when it was last published


class FleetPublisher:
    """Reports one table to the broker ``settings`` names (see the module's docstring)."""

    def __init__(
        self,
        settings: FleetConfig,
        *,
        journal_path: Path | None,
        device_id: str | None = None,
        doctor: Callable[[], tuple[str, ...]] | None = None,
        poll_s: float | None = None,
    ) -> None:
        """``poll_s``: look at the outbox at least this often (for a program that does
        not :meth:`poke` after each finished game, such as ``companion referee``)."""
        self.settings = settings
        self.poll_s = poll_s
        self.device = device_id or device_id_of(settings)
        self.journal_path = journal_path
        self.doctor = doctor
        self.version = _version()
        self._started = time.monotonic()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._acks: collections.deque[tuple[int, bool, str]] = collections.deque()
        self._confirmed: collections.deque[tuple[str, ...]] = collections.deque()
        self._connection = 0  # counts successful connections (paho's thread writes it)
        self._watcher_session = ""  # the latest watcher session seen
        self._watcher_sessions = 0  # counts watcher sessions seen (paho's thread writes it)
        self._connected = False
        self._answered = False  # the broker answered this connection attempt's login
        self._table = Table(device=self.device, at=now_iso())
        self._table_sent = False
        self._health_facts = _HealthFacts()
        self._health_due = True
        #: The forwarder's own: paho message id → record id; records sent and not yet
        #: confirmed by the watcher; what the broker refused on this connection.
        self._inflight: dict[int, str] = {}
        self._unconfirmed: dict[str, _Sent] = {}
        self._refused_ids: set[int] = set()
        self._resend_after = RESEND_S
        self.refused = 0  # records the broker refused (each attempt)
        self.refused_values = 0  # status, table and health messages it refused
        self.refused_why: str | None = None
        self._journal_problems: tuple[str, ...] = ()
        self._doctor_findings: tuple[str, ...] = ()
        self._checked_at = float("-inf")
        self._seen = 0
        self._seen_watcher = 0
        self._next_health = 0.0
        self._link: LinkState | None = None
        self._link_written = 0.0
        self.last_error: str | None = None
        self.delivered = 0  # records the watcher confirmed (and left the outbox)
        self.taken = 0  # records the broker acknowledged (PUBACK without an error)
        self.confirmed_at: str | None = None
        #: Called (on the forwarder's thread) with trouble() each time it changes.
        self.on_trouble: Callable[[str | None], None] | None = None
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
        facts = _HealthFacts(problems, devices, journal_read_only)
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
        """Records sent and not yet confirmed by the watcher."""
        return len(self._unconfirmed)

    def trouble(self) -> str | None:
        """What Home's banner says about the fleet link (None: nothing wrong)."""
        return self._link_state().trouble()

    def topic(self, topic: Topic | Literal["ack"]) -> str:
        return topic_of(self.settings, self.device, topic)

    # --- paho's network thread ------------------------------------------------------

    def _make_client(self) -> mqtt.Client:
        client = mqtt_client(self.settings, f"colossus-{self.device}")
        client.will_set(self.topic("status"), self._status("offline"), qos=1, retain=True)
        client.max_inflight_messages_set(PAHO_INFLIGHT)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    def _say(self, error: str) -> None:
        if error != self.last_error:  # once, not at every retry
            log.warning("fleet: %s", error)
        self.last_error = error
        self._wake.set()  # the link's state file and Home follow

    def _on_connect(
        self,
        client: mqtt.Client,
        _userdata: object,
        _flags: object,
        reason: ReasonCode,
        _props: object,
    ) -> None:
        self._answered = True
        if reason.is_failure:
            self._say(f"the broker refused the connection: {reason.getName()}")
            return
        self.last_error = None
        # The watcher's word comes before any record is sent on this connection.
        client.subscribe(
            [(self.topic(ACK_TOPIC), 1), (f"{self.settings.topic_prefix}/{WATCHER_TOPIC}", 1)]
        )
        self._connection += 1
        self._connected = True
        self._wake.set()

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: object) -> None:
        self._say(explain_failure(self.settings))

    def _on_disconnect(
        self, _client: object, _userdata: object, _flags: object, reason: ReasonCode, _props: object
    ) -> None:
        was_connected, self._connected = self._connected, False
        answered, self._answered = self._answered, False
        if self._stopping.is_set():
            return
        if was_connected:
            self.last_error = f"disconnected from the broker: {reason.getName()}"
            log.info("fleet: %s", self.last_error)
            self._wake.set()
        elif not answered:
            self._say(closed_before_login(self.settings))

    def _on_publish(
        self, _client: object, _userdata: object, mid: int, reason: ReasonCode, _props: object
    ) -> None:
        self._acks.append((mid, not reason.is_failure, reason.getName()))
        self._wake.set()

    def _on_message(self, _client: object, _userdata: object, message: mqtt.MQTTMessage) -> None:
        try:
            if message.topic.endswith("/" + ACK_TOPIC):
                ack = Ack.model_validate_json(message.payload)
                if ack.device == self.device:
                    self._confirmed.append(ack.stored)
            else:
                watcher = WatcherStatus.model_validate_json(message.payload)
                new = watcher.state == "online" and watcher.session != self._watcher_session
                self._watcher_session = watcher.session
                # A retained one replayed as this connection subscribed is old news (the
                # connection itself sends everything again); a live one is a watcher
                # that just subscribed, perhaps to a broker that lost its queue.
                if new and not message.retain:
                    self._watcher_sessions += 1
        except ValidationError as error:
            log.warning("fleet: unreadable message on %s: %s", message.topic, error)
            return
        self._wake.set()

    # --- the forwarder thread -------------------------------------------------------

    def _run(self) -> None:
        outbox = self._open_outbox()
        self._seen = 0  # the connection whose opening values were sent
        self._next_health = 0.0
        try:
            while not self._stopping.is_set():
                wait = float(self.poll_s or self.settings.health_interval_s)
                if self._connected:
                    wait = max(0.0, self._next_health - time.monotonic())
                    if self._unconfirmed:
                        oldest = min(sent.at for sent in self._unconfirmed.values())
                        wait = min(wait, max(0.0, oldest + self._resend_after - time.monotonic()))
                    if self.poll_s is not None:
                        wait = min(wait, self.poll_s)
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
                self._write_link_state()
        except Exception as error:  # the table plays on without the fleet; the log says why
            self.last_error = f"the forwarder stopped: {error}"
            log.exception("fleet: the forwarder stopped")
            self._write_link_state()
        finally:
            if outbox is not None:
                outbox.close()

    def _step(self, outbox: Outbox | None) -> None:
        """One wake-up: take the broker's and the watcher's acknowledgements; when
        connected, send what is due."""
        self._take_acks()
        self._take_confirmations(outbox)
        if not self._connected:
            return
        if self._connection != self._seen:  # a new connection: say everything again
            self._seen = self._connection
            # What was unconfirmed is sent again (the watcher keeps each record once, by
            # its id), and so is what was refused.
            self._inflight.clear()
            self._unconfirmed.clear()
            self._refused_ids.clear()
            self._publish("status", self._status("online"))
            if self.settings.discovery:
                for topic, config in discovery_messages(self.settings, self.device, self.version):
                    self._client.publish(topic, config, qos=1, retain=True)
            with self._lock:
                self._table_sent = False
            self._next_health = 0.0
        if self._watcher_sessions != self._seen_watcher:  # a watcher (re)subscribed
            self._seen_watcher = self._watcher_sessions
            self._unconfirmed.clear()
            self._resend_after = RESEND_S
        self._resend_when_due()
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
        info = self._client.publish(self.topic(topic), payload, qos=1, retain=True)
        self._inflight[info.mid] = ""  # "": a value, not a record

    def _send_table(self) -> None:
        with self._lock:
            if self._table_sent:
                return
            table, self._table_sent = self._table, True
        self._publish("table", table.model_dump_json())

    def _resend_when_due(self) -> None:
        """Nothing confirmed for ``_resend_after`` since the oldest unconfirmed record
        was sent: the broker may have dropped it (a full queue, a crash without saving):
        send every unconfirmed record again, and wait twice as long next time."""
        if not self._unconfirmed:
            return
        oldest = min(sent.at for sent in self._unconfirmed.values())
        if time.monotonic() - oldest >= self._resend_after:
            log.info("fleet: %d records unconfirmed, sent again", len(self._unconfirmed))
            self._unconfirmed.clear()
            self._resend_after = min(self._resend_after * 2, RESEND_MAX_S)

    def _forward(self, outbox: Outbox | None) -> None:
        room = WINDOW - len(self._unconfirmed)
        if outbox is None or room <= 0:
            return
        skip = {sent.msg_id for sent in self._unconfirmed.values()} | self._refused_ids
        waiting = [m for m in outbox.pending(limit=WINDOW + len(skip)) if m.msg_id not in skip]
        unreadable: list[int] = []
        for message in waiting[:room]:
            payload = self._play_payload(message)
            if payload is None:
                unreadable.append(message.msg_id)
                continue
            info = self._client.publish(self.topic(PLAYS), payload, qos=1)
            key = record_id(self.device, message.game_id, message.seq)
            self._inflight[info.mid] = key
            self._unconfirmed[key] = _Sent(message.msg_id, time.monotonic())
        outbox.remove(unreadable)

    def _play_payload(self, message: OutboxMessage) -> str | None:
        try:
            play = Play(
                device=self.device,
                id=record_id(self.device, message.game_id, message.seq),
                game_id=message.game_id,
                seq=message.seq,
                finished_at=message.created,
                record=json.loads(message.payload),
            )
        except (ValueError, TypeError) as error:
            log.warning("fleet: outbox message %d unreadable, dropped: %s", message.msg_id, error)
            return None
        return play.model_dump_json()

    def _take_acks(self) -> None:
        """The broker's PUBACKs: only a refusal matters (the record stays in the outbox,
        is counted, and waits for the next connection)."""
        while self._acks:
            mid, ok, why = self._acks.popleft()
            key = self._inflight.pop(mid, None)
            if key is None or (ok and not key):
                continue  # a discovery config's or a value's acknowledgement
            if not key:  # a value refused: the page cannot know, the table says it
                self.refused_values += 1
                self.refused_why = why
                continue
            if ok:
                self.taken += 1
                continue
            sent = self._unconfirmed.pop(key, None)
            if sent is not None:
                self._refused_ids.add(sent.msg_id)
            self.refused += 1
            self.refused_why = why
            log.warning("fleet: the broker refused record %s: %s", key, why)

    def _take_confirmations(self, outbox: Outbox | None) -> None:
        """The watcher's acks: each record it names leaves the outbox."""
        named: set[str] = set()
        while self._confirmed:
            named.update(self._confirmed.popleft())
        if not named or outbox is None:
            return
        known = named & self._unconfirmed.keys()
        taken = [self._unconfirmed.pop(key).msg_id for key in known]
        if len(known) < len(named):  # sent by an earlier run, or confirmed again
            taken += self._msg_ids_of(outbox, named - known, exclude=set(taken))
        if taken:
            outbox.remove(taken)
            self.delivered += len(taken)
            self.confirmed_at = now_iso()
            self._resend_after = RESEND_S
            self._wake.set()  # room in the window: forward more

    def _msg_ids_of(self, outbox: Outbox, keys: Iterable[str], *, exclude: set[int]) -> list[int]:
        wanted = set(keys)
        return [
            m.msg_id
            for m in outbox.pending(limit=ACK_LOOKUP)
            if m.msg_id not in exclude and record_id(self.device, m.game_id, m.seq) in wanted
        ]

    def _link_state(self) -> LinkState:
        return LinkState(
            at=now_iso(),
            connected=self._connected,
            error=self.last_error,
            refused=self.refused,
            refused_values=self.refused_values,
            refused_why=self.refused_why,
            unconfirmed=len(self._unconfirmed),
            confirmed_at=self.confirmed_at,
        )

    def _write_link_state(self) -> None:
        """The link's state file, when what it says changed (the counts of records in
        flight and the latest confirmation: at most every LINK_EVERY_S)."""
        state = self._link_state()
        before = self._link
        if before is not None:
            moving = {"at", "unconfirmed", "confirmed_at"}
            same = state.model_dump(exclude=moving) == before.model_dump(exclude=moving)
            if same and time.monotonic() - self._link_written < LINK_EVERY_S:
                return
        self._link, self._link_written = state, time.monotonic()
        if self.journal_path is not None:
            write_link_state(self.journal_path.parent, state)
        trouble = state.trouble()
        was = None if before is None else before.trouble()
        if self.on_trouble is not None and trouble != was:
            self.on_trouble(trouble)

    def _status(self, state: Literal["online", "offline"]) -> str:
        since = now_iso() if state == "online" else None
        return Status(
            device=self.device, state=state, version=self.version, since=since
        ).model_dump_json()

    def _health(self, outbox: Outbox | None) -> Health:
        with self._lock:
            facts = self._health_facts
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
            disk_free_mb=disk_free_mb(self.journal_path),
            load_1m=load_1m(),
            cpu_temp_c=cpu_temp_c(),
            problems=facts.problems,
            devices=facts.devices,
            journal_read_only=facts.journal_read_only,
        )


@dataclass(frozen=True)
class _HealthFacts:
    """What the app tells the health message (``set_health``): none until it does."""

    problems: tuple[str, ...] = ()
    devices: tuple[DeviceHealth, ...] = ()
    journal_read_only: bool = False
