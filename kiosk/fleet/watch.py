"""``companion fleet``: the shop machine's subscriber to every table's topics.

It subscribes to ``<prefix>/+/+`` with QoS 1 and a persistent session (its client id,
``clean_start`` off, a week's session expiry), so finished games sent while it was not
running wait at the broker. Delivery is end to end: each batch of messages is stored
and committed in the :class:`FleetStore` (a record twice is stored once), *then* each
table is told which of its records are stored (``<prefix>/<device>/ack``, retained: the
table deletes them from its outbox), *then* the broker gets its PUBACKs (paho's manual
acknowledgements): a watcher killed at any moment has either stored a message or will be
given it again. Each time it subscribes it says so (``<prefix>/_watcher``, with a new
session, retained; its last will says ``offline``): the tables then send again what is
not confirmed — a broker that crashed and lost its queue, or dropped messages over its
limit, loses nothing.

The static page is rewritten at most once a second while messages come in, and when
the link to the broker changes; each new finished game is printed, and so is each
refusal and each failure to connect, in words.
"""

from __future__ import annotations

import queue
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode
from paho.mqtt.subscribeoptions import SubscribeOptions

from companion.json_values import json_object
from kiosk.fleet.link import closed_before_login, explain_failure, mqtt_client, where
from kiosk.fleet.messages import ACK_TOPIC, WATCHER_TOPIC, Ack, WatcherStatus
from kiosk.fleet.page import write_page
from kiosk.fleet.publisher import now_iso
from kiosk.fleet.store import FleetStore, Taken
from kiosk.settings import FleetConfig

SESSION_EXPIRY_S = 7 * 24 * 3600
PAGE_EVERY_S = 1.0
#: The page takes at most about 1/PAGE_SHARE of the watcher's time while messages come in.
PAGE_SHARE = 10.0
#: While nothing comes in, the page's "last heard the broker" moves on this often.
HEARD_EVERY_S = 10.0
#: Messages stored in one commit at most, and in flight from the broker at most.
BATCH = 200


@dataclass(frozen=True)
class _Message:
    topic: str
    payload: bytes
    mid: int
    qos: int
    connection: int  # the connection it came on: a PUBACK goes back on that one only


@dataclass(frozen=True)
class _Link:
    connected: bool
    error: str | None = None


def client_id_of(settings: FleetConfig) -> str:
    """``[fleet] watcher_client_id``, else ``colossus-fleet-<host name>``."""
    return settings.watcher_client_id or f"colossus-fleet-{socket.gethostname()}"[:64]


def watch(
    settings: FleetConfig,
    store: FleetStore,
    page_folder: Path,
    *,
    stop: threading.Event,
    say: Callable[[str], None] = print,
    days: float = 7.0,
) -> None:
    """Receive until ``stop`` is set; the store and the page are written on this thread."""
    inbox: queue.Queue[_Message | _Link] = queue.Queue()
    client_id = client_id_of(settings)
    client = mqtt_client(settings, client_id, manual_ack=True)
    topic = f"{settings.topic_prefix}/+/+"
    presence = f"{settings.topic_prefix}/{WATCHER_TOPIC}"
    offline = WatcherStatus(client_id=client_id, state="offline").model_dump_json()
    client.will_set(presence, offline, qos=1, retain=True)
    connection = [0]
    said: list[str | None] = [None]
    answered = [False]

    def tell(text: str) -> None:
        if text != said[0]:  # once, not at every retry
            said[0] = text
            say(f"fleet: {text}")
        inbox.put(_Link(connected=False, error=text))

    def on_connect(
        client: mqtt.Client, _u: object, _flags: object, reason: ReasonCode, _p: object
    ) -> None:
        answered[0] = True
        if reason.is_failure:
            tell(f"the broker at {where(settings)} refused the connection: {reason.getName()}")
            return
        connection[0] += 1
        said[0] = None
        say(f"fleet: connected to {where(settings)} as {client_id}, watching {topic}")
        # noLocal: the watcher's own acknowledgements do not come back to it.
        client.subscribe(topic, options=SubscribeOptions(qos=1, noLocal=True))
        inbox.put(_Link(connected=True))

    def on_subscribe(client: mqtt.Client, *_: object) -> None:
        online = WatcherStatus(client_id=client_id, state="online", session=uuid.uuid4().hex)
        client.publish(presence, online.model_dump_json(), qos=1, retain=True)

    def on_connect_fail(_c: object, _u: object) -> None:
        tell(explain_failure(settings))

    def on_disconnect(_c: object, _u: object, _f: object, reason: ReasonCode, _p: object) -> None:
        was_answered, answered[0] = answered[0], False
        connection[0] += 1  # nothing received before this is acknowledged after it
        if stop.is_set():
            return
        if not was_answered:
            tell(closed_before_login(settings))
        else:
            tell(f"lost the broker at {where(settings)} ({reason.getName()}); reconnecting")

    def on_message(_c: object, _u: object, message: mqtt.MQTTMessage) -> None:
        inbox.put(
            _Message(message.topic, bytes(message.payload), message.mid, message.qos, connection[0])
        )

    client.on_connect = on_connect
    client.on_connect_fail = on_connect_fail
    client.on_disconnect = on_disconnect
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    connect_properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    connect_properties.SessionExpiryInterval = SESSION_EXPIRY_S
    connect_properties.ReceiveMaximum = BATCH
    client.connect_async(
        settings.host,
        settings.port,
        keepalive=settings.keepalive_s,
        clean_start=False,
        properties=connect_properties,
    )
    client.loop_start()
    write_page(store, page_folder, days=days)
    dirty = False
    written = heard = time.monotonic()
    page_every = PAGE_EVERY_S
    connected = False
    try:
        while not stop.is_set():
            batch = _next_batch(inbox)
            for link in (item for item in batch if isinstance(item, _Link)):
                connected = link.connected
                store.set_broker(connected=connected, heard=connected, error=link.error)
                dirty = True
            messages = [item for item in batch if isinstance(item, _Message)]
            if messages:
                _store(client, store, messages, connection[0], settings.topic_prefix, say)
                dirty = True
            since_heard = time.monotonic() - heard
            if connected and since_heard >= (PAGE_EVERY_S if messages else HEARD_EVERY_S):
                store.set_broker(heard=True)
                heard = time.monotonic()
                dirty = True
            if dirty and time.monotonic() - written >= page_every:
                began = time.monotonic()
                write_page(store, page_folder, days=days)
                dirty, written = False, time.monotonic()
                # A page that takes long to make (a big leaderboard) is made less often:
                # storing what comes in goes first.
                page_every = max(PAGE_EVERY_S, PAGE_SHARE * (written - began))
    finally:
        if connected:
            client.publish(presence, offline, qos=1, retain=True)
        client.disconnect()
        client.loop_stop()
        # What came in and was not acknowledged is stored now; the broker gives it again
        # to the next run (no PUBACK went back), which stores it once.
        left = [item for item in _drain(inbox) if isinstance(item, _Message)]
        if left:
            for taken in store.take_all([(m.topic, m.payload) for m in left]):
                _report(taken, say)
        store.set_broker(connected=False, heard=False, error="the watcher stopped")
        write_page(store, page_folder, days=days)


def _next_batch(inbox: queue.Queue[_Message | _Link]) -> list[_Message | _Link]:
    try:
        first = inbox.get(timeout=PAGE_EVERY_S / 2)
    except queue.Empty:
        return []
    batch = [first]
    while len(batch) < BATCH:
        try:
            batch.append(inbox.get_nowait())
        except queue.Empty:
            break
    return batch


def _drain(inbox: queue.Queue[_Message | _Link]) -> list[_Message | _Link]:
    out = []
    while not inbox.empty():
        out.append(inbox.get_nowait())
    return out


def _store(
    client: mqtt.Client,
    store: FleetStore,
    messages: list[_Message],
    connection: int,
    prefix: str,
    say: Callable[[str], None],
) -> None:
    """Store and commit, then tell each table what is stored, then acknowledge to the
    broker — in that order, so a crash anywhere loses nothing."""
    takens = store.take_all([(m.topic, m.payload) for m in messages])
    stored: dict[str, list[str]] = {}
    for taken in takens:
        _report(taken, say)
        if taken.ack_id is not None:
            stored.setdefault(taken.device, []).append(taken.ack_id)
    at = now_iso()
    for device, ids in stored.items():
        ack = Ack(device=device, at=at, stored=tuple(ids))
        client.publish(f"{prefix}/{device}/{ACK_TOPIC}", ack.model_dump_json(), qos=1, retain=True)
    for message in messages:
        # A message of an earlier connection is not acknowledged on this one (its packet
        # id may name another message now): the broker gives it again, stored once.
        if message.qos > 0 and message.connection == connection:
            client.ack(message.mid, message.qos)


def _report(taken: Taken, say: Callable[[str], None]) -> None:
    for problem in taken.problems:
        say(f"fleet: refused {problem}")
    if taken.went is not None:
        say(f"{taken.device} is {taken.went}")
    game = taken.new_game
    if game is not None:
        record = game.record
        outcome = json_object(record.get("outcome"))
        say(
            f"{game.finished_at}  {taken.device}: {record.get('title', record.get('game'))}"
            f" finished — {outcome.get('text', '')}"
        )
