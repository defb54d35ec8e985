"""Home Assistant MQTT discovery: each table appears as a device with sensors.

With ``[fleet] discovery = true`` the publisher sends, retained, on every connection,
one ``<discovery_prefix>/sensor/<device>/<sensor>/config`` per sensor (Home
Assistant's documented convention; the device id is the discovery node id, so it is
letters, digits, '-' and '_' only). The sensors read the table's own ``table`` and
``health`` topics with a value template, and its ``status`` topic says whether they are
available, so nothing is published twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from kiosk.fleet.messages import Topic
from kiosk.settings import FleetConfig


@dataclass(frozen=True)
class Sensor:
    key: str
    name: str
    topic: Topic
    template: str
    unit: str | None = None
    device_class: str | None = None
    icon: str | None = None


SENSORS = (
    Sensor("game", "Game", "table", "{{ value_json.title or 'none' }}", icon="mdi:dice-multiple"),
    Sensor("status", "Round and turn", "table", "{{ value_json.status or '' }}"),
    Sensor("turn", "Whose turn", "table", "{{ value_json.turn_player or '' }}", icon="mdi:account"),
    Sensor("moves", "Moves", "table", "{{ value_json.moves }}", icon="mdi:counter"),
    Sensor(
        "dice_battery",
        "Dice battery",
        "health",
        "{{ value_json.devices | selectattr('battery') | map(attribute='battery')"
        " | list | min | default(None) }}",
        unit="%",
        device_class="battery",
    ),
    Sensor(
        "storage_free",
        "Storage free",
        "health",
        "{{ value_json.disk_free_mb }}",
        unit="MB",
        device_class="data_size",
    ),
    Sensor(
        "waiting",
        "Records waiting",
        "health",
        "{{ value_json.outbox_waiting }}",
        icon="mdi:tray-full",
    ),
)


def entity_slug(device: str) -> str:
    """``table-1`` → ``colossus_table_1`` (a device id is letters, digits, '-', '_')."""
    return "colossus_" + device.lower().replace("-", "_")


def discovery_messages(settings: FleetConfig, device: str, version: str) -> list[tuple[str, str]]:
    """``(topic, JSON)`` of every sensor's discovery config for ``device``."""
    base = f"{settings.topic_prefix}/{device}"
    ha_device = {
        "identifiers": [f"colossus_{device}"],
        "name": f"Colossus {device}",
        "manufacturer": "Colossus Companion",
        "model": "table-side referee",
        "sw_version": version,
    }
    out = []
    for sensor in SENSORS:
        config: dict[str, object] = {
            "name": sensor.name,
            "unique_id": f"colossus_{device}_{sensor.key}",
            # Home Assistant's entity id (domain.slug: lower case, digits, '_'); it
            # replaced the deprecated object_id.
            "default_entity_id": f"sensor.{entity_slug(device)}_{sensor.key}",
            "state_topic": f"{base}/{sensor.topic}",
            "value_template": sensor.template,
            "availability_topic": f"{base}/status",
            "availability_template": "{{ value_json.state }}",
            "payload_available": "online",
            "payload_not_available": "offline",
            "device": ha_device,
        }
        for key, value in (
            ("unit_of_measurement", sensor.unit),
            ("device_class", sensor.device_class),
            ("icon", sensor.icon),
        ):
            if value is not None:
                config[key] = value
        topic = f"{settings.discovery_prefix}/sensor/{device}/{sensor.key}/config"
        out.append((topic, json.dumps(config, sort_keys=True)))
    return out
