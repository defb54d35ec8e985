"""The one way the fleet's MQTT clients are made: MQTT 5, the settings' login (a user
name and password, or a client certificate) and TLS, reconnecting with back-off; and the
one way a failed connection is put in words.

paho's own log is not switched on: during a reconnection it reports a normal state as
an error, which would alarm whoever reads the kiosk's log; the fleet's callbacks log
each refusal and each lost connection, with the broker's reason. paho does not say why a
connection attempt failed, so :func:`explain_failure` tries the same address once more
by hand and names what went wrong: nothing listening, an unknown host, a certificate the
CA does not vouch for, TLS against a plain port.
"""

from __future__ import annotations

import socket
import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from kiosk.settings import FleetConfig

RECONNECT_MIN_S = 1
RECONNECT_MAX_S = 30
PROBE_TIMEOUT_S = 5.0


def mqtt_client(settings: FleetConfig, client_id: str, *, manual_ack: bool = False) -> mqtt.Client:
    """A client for ``settings``' broker; raises OSError or ssl.SSLError for a CA,
    certificate or key file that cannot be used. ``manual_ack``: a received QoS 1 message
    is acknowledged only by ``client.ack`` (the watcher, once it stored the message)."""
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=MQTTProtocolVersion.MQTTv5,
        manual_ack=manual_ack,
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


def where(settings: FleetConfig) -> str:
    return f"{settings.host}:{settings.port}{' (TLS)' if settings.tls else ''}"


def explain_failure(settings: FleetConfig, timeout: float = PROBE_TIMEOUT_S) -> str:
    """Why a connection to ``settings``' broker fails, in words (one attempt by hand:
    name resolution, TCP, then the TLS handshake when ``tls`` is on)."""
    at = where(settings)
    try:
        addresses = socket.getaddrinfo(settings.host, settings.port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        return f"cannot connect to {at}: unknown host {settings.host!r} ({error.strerror})"
    family, kind, proto, _, address = addresses[0]
    try:
        with socket.socket(family, kind, proto) as sock:
            sock.settimeout(timeout)
            sock.connect(address)
            if settings.tls:
                return _explain_handshake(settings, sock, at)
    except ConnectionRefusedError:
        return f"cannot connect to {at}: nothing listens there (connection refused)"
    except TimeoutError:
        return f"cannot connect to {at}: no answer within {timeout:g} s"
    except OSError as error:
        return f"cannot connect to {at}: {error.strerror or error}"
    return f"cannot connect to {at}: the connection failed, then worked when tried again"


def _explain_handshake(settings: FleetConfig, sock: socket.socket, at: str) -> str:
    plain = "is this port plain MQTT? (tls = true needs the broker's TLS listener)"
    try:
        _handshake(settings, sock)
    except ssl.SSLCertVerificationError as error:
        ca = settings.ca_file or "the system's CAs"
        return (
            f"cannot connect to {at}: the broker's certificate is not trusted"
            f" ({error.verify_message}; checked against {ca})"
        )
    except ssl.SSLError as error:
        return (
            f"cannot connect to {at}: the TLS handshake failed ({error.reason or error}); {plain}"
        )
    except (ConnectionResetError, ConnectionAbortedError, BrokenPipeError):
        return f"cannot connect to {at}: the TLS handshake failed (the broker hung up); {plain}"
    return f"cannot connect to {at}: the connection failed, then worked when tried again"


def closed_before_login(settings: FleetConfig) -> str:
    """The broker's port took the connection and closed it without answering the login."""
    hint = "" if settings.tls else " Is it a TLS port? (then set tls = true)"
    return (
        f"{where(settings)} closed the connection before answering the login (not an MQTT"
        f" broker, or it refused the connection).{hint}"
    )


def _handshake(settings: FleetConfig, sock: socket.socket) -> None:
    context = ssl.create_default_context(
        cafile=None if settings.ca_file is None else str(settings.ca_file)
    )
    if settings.certfile is not None:
        context.load_cert_chain(
            str(settings.certfile), None if settings.keyfile is None else str(settings.keyfile)
        )
    with context.wrap_socket(sock, server_hostname=settings.host) as wrapped:
        wrapped.do_handshake()
