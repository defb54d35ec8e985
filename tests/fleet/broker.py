"""A real Mosquitto broker for the fleet tests and benchmark, and a watcher client.

The broker listens on 127.0.0.1 and a free port with a generated configuration (``user
root`` keeps a broker started by root from dropping to the ``mosquitto`` user, who
could not read the generated files); scripts/setup --test installs it.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion

from kiosk.fleet.messages import Ack
from kiosk.settings import FleetConfig

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 15.0
WAIT_S = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def mosquitto() -> str:
    found = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()), None
    )
    if found is None:
        raise RuntimeError("mosquitto is not installed: run scripts/setup --test as root")
    return found


class Broker:
    """One mosquitto process; :meth:`kill` and :meth:`start` again keep the port."""

    def __init__(
        self,
        folder: Path,
        *,
        passwords: Mapping[str, str] | None = None,
        acl: str | None = None,
        listener_options: str = "",
    ) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.passwords = dict(passwords or {})
        self.acl = acl
        self.listener_options = listener_options  # lines for the listener (TLS)
        self.process: subprocess.Popen[bytes] | None = None
        self.log = folder / "mosquitto.log"

    def config_text(self) -> str:
        lines = [
            "user root",
            f"listener {self.port} 127.0.0.1",
            *self.listener_options.splitlines(),
            "persistence false",
            f"log_dest file {self.log}",
            "log_type all",
            f"allow_anonymous {'false' if self.passwords else 'true'}",
        ]
        if self.passwords:
            lines.append(f"password_file {self.folder / 'passwords'}")
        if self.acl is not None:
            (self.folder / "acl").write_text(self.acl, encoding="utf-8")
            lines.append(f"acl_file {self.folder / 'acl'}")
        return "\n".join(lines) + "\n"

    def write_passwords(self) -> None:
        file = self.folder / "passwords"
        file.write_text("", encoding="utf-8")
        for user, password in self.passwords.items():
            subprocess.run(
                ["mosquitto_passwd", "-b", str(file), user, password],
                check=True,
                capture_output=True,
            )

    def start(self) -> None:
        if self.passwords:
            self.write_passwords()
        conf = self.folder / "mosquitto.conf"
        conf.write_text(self.config_text(), encoding="utf-8")
        self.process = subprocess.Popen(
            [mosquitto(), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"mosquitto stopped at once: {error}{self.log_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port}: {self.log_text()}")

    def reload(self) -> None:
        """SIGHUP: mosquitto reads its password and ACL files again."""
        if self.passwords:
            self.write_passwords()
        assert self.process is not None
        self.process.send_signal(signal.SIGHUP)

    def kill(self) -> None:
        """SIGKILL: the broker vanishes without a goodbye (a power cut, a crash)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def use_shipped_config(self, *, max_queued: int | None = None) -> None:
        """Run with deploy/fleet/mosquitto.conf and deploy/fleet/acl, only the port and
        the paths moved into the test's folder (and, given ``max_queued``, a smaller
        queue per client)."""
        shipped = (REPO / "deploy/fleet/mosquitto.conf").read_text(encoding="utf-8")
        (self.folder / "acl").write_text(
            (REPO / "deploy/fleet/acl").read_text(encoding="utf-8"), encoding="utf-8"
        )
        text = (
            shipped.replace("listener 1883", f"listener {self.port} 127.0.0.1")
            .replace("/etc/mosquitto/colossus-passwords", str(self.folder / "passwords"))
            .replace("/etc/mosquitto/colossus-acl", str(self.folder / "acl"))
            .replace("/var/lib/mosquitto/", f"{self.folder}/")
        )
        if max_queued is not None:
            text = text.replace("max_queued_messages 10000", f"max_queued_messages {max_queued}")
        logging = f"log_dest file {self.log}\nlog_type all\n"
        self.config_text = lambda: "user root\n" + logging + text  # type: ignore[method-assign]

    def fleet_config(self, **changes: Any) -> FleetConfig:
        settings: dict[str, Any] = {
            "enabled": True,
            "host": "127.0.0.1",
            "port": self.port,
            "device_id": "table-1",
            "health_interval_s": 5.0,
        }
        settings.update(changes)
        return FleetConfig.model_validate(settings)


@dataclass(frozen=True)
class Certificates:
    """A throwaway CA, the broker's certificate (for 127.0.0.1) and a table's."""

    ca: Path
    broker_cert: Path
    broker_key: Path
    table_cert: Path
    table_key: Path


def make_certificates(folder: Path, table: str) -> Certificates:
    """Made with the openssl command (scripts/setup --test installs it)."""
    folder.mkdir(parents=True, exist_ok=True)

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=fleet test CA", "-keyout", "ca.key", "-out", "ca.crt")  # fmt: skip
    for name, subject, extension in (
        ("broker", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1"),
        ("table", f"/CN={table}", "extendedKeyUsage=clientAuth"),
    ):
        (folder / f"{name}.ext").write_text(extension + "\n", encoding="utf-8")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject,
                "-keyout", f"{name}.key", "-out", f"{name}.csr")  # fmt: skip
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
                "-CAcreateserial", "-days", "2", "-extfile", f"{name}.ext",
                "-out", f"{name}.crt")  # fmt: skip
    return Certificates(
        folder / "ca.crt",
        folder / "broker.crt",
        folder / "broker.key",
        folder / "table.crt",
        folder / "table.key",
    )


class Watcher:
    """A client that subscribes to topics and keeps every message, in order; with
    ``acknowledge`` it also tells each table that its plays are kept (what the real
    watcher says once it stored them), so they leave the table's outbox."""

    def __init__(
        self,
        broker: Broker,
        topic: str = "colossus/#",
        *,
        username: str | None = None,
        password: str | None = None,
        acknowledge: bool = True,
    ) -> None:
        self.acknowledge = acknowledge
        self.messages: list[tuple[str, dict[str, Any], bool]] = []
        self._changed = threading.Condition()
        self._subscribed = threading.Event()
        self.client = mqtt.Client(
            callback_api_version=CallbackAPIVersion.VERSION2,
            client_id=f"watcher-{free_port()}",
            protocol=MQTTProtocolVersion.MQTTv5,
        )
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *_: self._subscribed.set()
        self.client.on_connect = lambda client, *_: client.subscribe(topic, qos=1)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        if not self._subscribed.wait(WAIT_S):
            raise RuntimeError("the watcher could not subscribe")

    def _on_message(self, client: mqtt.Client, _userdata: Any, message: mqtt.MQTTMessage) -> None:
        payload = json.loads(message.payload)
        if self.acknowledge and message.topic.endswith("/plays"):
            ack = Ack(device=payload["device"], at="", stored=(payload["id"],))
            client.publish(
                message.topic.removesuffix("plays") + "ack", ack.model_dump_json(), qos=1
            )
        with self._changed:
            self.messages.append((message.topic, payload, message.retain))
            self._changed.notify_all()

    def payloads(self, suffix: str) -> list[dict[str, Any]]:
        with self._changed:
            return [p for topic, p, _ in self.messages if topic.endswith("/" + suffix)]

    def wait_for(self, done: Callable[[Watcher], bool], what: str, timeout: float = WAIT_S) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not done(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"timed out waiting for {what}: {self.messages[-5:]}")
                self._changed.wait(min(left, 0.5))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def wait_until(
    done: Callable[[], bool], what: str, timeout: float = WAIT_S, *, step: float = 0.05
) -> None:
    """Poll ``done`` every ``step`` seconds until it holds (for state without a
    notification)."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(step)
