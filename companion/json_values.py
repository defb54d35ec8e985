"""Reading a JSON value (``pydantic.JsonValue``) whose shape is known by convention only:
a game record (``Session.export``) as the kiosk's scores screen and the fleet read it.

Each helper answers the empty value where the record holds something else, so a reader
of a record written by an older or newer version shows less rather than failing.
"""

from __future__ import annotations

from pydantic import JsonValue


def json_object(value: JsonValue) -> dict[str, JsonValue]:
    """``value`` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def json_list(value: JsonValue) -> list[JsonValue]:
    """``value`` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


__all__ = ["json_list", "json_object"]
