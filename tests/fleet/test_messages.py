"""The fleet's payloads: the committed JSON Schema is the models' own, and what the
publisher sends validates against it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from companion.json_values import json_object
from kiosk.fleet.messages import DeviceHealth, Health, Play, Status, Table, fleet_schema

REPO = Path(__file__).resolve().parents[2]


def test_the_committed_schema_is_current() -> None:
    """docs/fleet.schema.json is generated: `companion fleet --schema`."""
    committed = json.loads((REPO / "docs" / "fleet.schema.json").read_text(encoding="utf-8"))
    assert committed == fleet_schema(), "run: companion fleet --schema > docs/fleet.schema.json"


def test_each_topics_payload_validates_and_a_wrong_one_does_not() -> None:
    schema = {
        topic: json_object(each)
        for topic, each in json_object(fleet_schema()["properties"]).items()
    }
    at = "2026-11-26T12:00:00+00:00"
    examples = {
        "status": Status(device="t", state="online", version="0.1.0", since=at),
        "table": Table(device="t", at=at, game="builders", players=("Ann",), turn=0, scores=(3,)),
        "health": Health(
            device="t",
            at=at,
            uptime_s=1.5,
            outbox_waiting=0,
            outbox_dropped=0,
            devices=(DeviceHealth(device="dice", state="connected", level="ok", text="Dice on"),),
        ),
        "plays": Play(device="t", id="t/1/9", game_id=1, seq=9, finished_at=at, record={}),
    }
    for topic, message in examples.items():
        jsonschema.validate(json.loads(message.model_dump_json()), schema[topic])
    wrong = json.loads(examples["plays"].model_dump_json()) | {"seq": 0}
    with pytest.raises(jsonschema.ValidationError, match="less than the minimum"):
        jsonschema.validate(wrong, schema["plays"])
