"""``companion fleet``: the shop machine's subscriber to every table's topics.

It subscribes to ``<prefix>/+/+`` with QoS 1 and a persistent session (a fixed client id,
``clean_start`` off, a week's session expiry), so finished games sent while it was not
running wait at the broker. Each message goes into the :class:`FleetStore` (a record
twice is stored once); the static page is rewritten at most once a second while
messages come in, and each new finished game is printed.
"""

from __future__ import annotations

import queue
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from firmware_bridge.config import FleetConfig
from kiosk.fleet.link import mqtt_client
from kiosk.fleet.page import write_page
from kiosk.fleet.store import FleetStore, Taken

SESSION_EXPIRY_S = 7 * 24 * 3600
PAGE_EVERY_S = 1.0


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
    inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
    client = mqtt_client(settings, f"colossus-fleet-{socket.gethostname()}"[:64])
    topic = f"{settings.topic_prefix}/+/+"

    def on_connect(client: mqtt.Client, _u: Any, _flags: Any, reason: ReasonCode, _p: Any) -> None:
        if reason.is_failure:
            say(f"fleet: the broker refused the connection: {reason.getName()}")
            return
        say(f"fleet: connected to {settings.host}:{settings.port}, watching {topic}")
        client.subscribe(topic, qos=1)

    def on_message(_c: Any, _u: Any, message: mqtt.MQTTMessage) -> None:
        inbox.put((message.topic, bytes(message.payload)))

    client.on_connect = on_connect
    client.on_message = on_message
    connect_properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    connect_properties.SessionExpiryInterval = SESSION_EXPIRY_S
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
    written = time.monotonic()
    try:
        while not stop.is_set():
            try:
                topic_name, payload = inbox.get(timeout=PAGE_EVERY_S / 2)
            except queue.Empty:
                pass
            else:
                _report(store.take(topic_name, payload), say)
                dirty = True
            if dirty and time.monotonic() - written >= PAGE_EVERY_S:
                write_page(store, page_folder, days=days)
                dirty, written = False, time.monotonic()
    finally:
        client.disconnect()
        client.loop_stop()
        while not inbox.empty():
            _report(store.take(*inbox.get_nowait()), say)
        write_page(store, page_folder, days=days)


def _report(taken: Taken, say: Callable[[str], None]) -> None:
    for problem in taken.problems:
        say(f"fleet: {problem}")
    if taken.went is not None:
        say(f"{taken.device} is {taken.went}")
    game = taken.new_game
    if game is not None:
        record = game.record
        outcome = record.get("outcome") or {}
        say(
            f"{game.finished_at}  {taken.device}: {record.get('title', record.get('game'))}"
            f" finished — {outcome.get('text', '')}"
        )
