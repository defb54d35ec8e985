"""The one way the fleet's MQTT clients are made: MQTT 5, the settings' login (a user
name and password, or a client certificate) and TLS, reconnecting with back-off.

paho's own log is not switched on: during a reconnection it reports a normal state as
an error, which would alarm whoever reads the kiosk's log; the fleet's callbacks log
each refusal and each lost connection, with the broker's reason."""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from firmware_bridge.config import FleetConfig

RECONNECT_MIN_S = 1
RECONNECT_MAX_S = 30


def mqtt_client(settings: FleetConfig, client_id: str) -> mqtt.Client:
    """A client for ``settings``' broker; raises OSError or ssl.SSLError for a CA,
    certificate or key file that cannot be used."""
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=MQTTProtocolVersion.MQTTv5,
    )
    if settings.username:
        client.username_pw_set(settings.username, settings.password or None)
    if settings.tls:
        client.tls_set(
            ca_certs=None if settings.ca_file is None else str(settings.ca_file),
            certfile=None if settings.certfile is None else str(settings.certfile),
            keyfile=None if settings.keyfile is None else str(settings.keyfile),
            tls_version=ssl.PROTOCOL_TLS_CLIENT,
        )
    client.reconnect_delay_set(RECONNECT_MIN_S, RECONNECT_MAX_S)
    return client
