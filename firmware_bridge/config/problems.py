"""What is wrong with a configuration file, in words a builder can act on.

A problem names the file, the line and key, and what is wrong; reading the whole
``companion.toml`` (and what runs anyway when it is broken) is the app's,
:mod:`kiosk.settings.loading`, because the file holds the app's settings too.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware_bridge.config.sections import CONFIG_KEY


@dataclass(frozen=True)
class ConfigProblem:
    """One thing wrong with the configuration, in words a builder can act on."""

    file: str
    where: str
    message: str
    #: False for a setting the devices do not depend on ([fleet]): the hardware still
    #: starts as configured, only that section falls back to its defaults.
    hardware: bool = True

    def __str__(self) -> str:
        return (
            f"{self.file}, {self.where}: {self.message}"
            if self.where
            else f"{self.file}: {self.message}"
        )


def validation_problem(source: str, text: str, item: Any) -> ConfigProblem:
    loc = tuple(str(part) for part in item["loc"])
    pointed = str((item.get("ctx") or {}).get(CONFIG_KEY, ""))
    line: int | None = None
    if pointed:  # a check over a whole table that knows which settings are involved
        candidates = [loc + tuple(key.split(".")) for key in pointed.split()]
        found = [(c, find_key_line(text, c, exact=True)) for c in candidates]
        loc, line = next(((c, n) for c, n in found if n), (candidates[0], None))
    key = ".".join(loc) if loc else "the file"
    line = line or find_key_line(text, loc)
    where = f"line {line}, {key}" if line else key
    message = str(item["msg"]).removeprefix("Value error, ")
    if item["type"] == "extra_forbidden":
        message = "unknown setting (misspelt?)"
    elif item["type"] == "missing":
        message = "this setting is required"
    elif (
        "input" in item
        and not pointed
        and not isinstance(item["input"], dict)
        and item["type"] not in ("model_type", "dict_type")
    ):
        message = f"{message} (found {item['input']!r})"
    return ConfigProblem(source, where, message)


#: ``enabled`` keys of the drivers' models that ``source`` decides instead.
_SOURCE_SWITCHES: dict[tuple[str, ...], str] = {
    ("dice", "serial", "enabled"): '[dice] source = "serial"',
    ("dice", "gpio", "enabled"): '[dice] source = "gpio"',
    ("dice", "godice", "enabled"): '[dice] source = "godice"',
    ("buttons", "enabled"): '[buttons] source = "gpio"',
}


def source_switch_problems(data: Mapping[str, Any], text: str, source: str) -> list[ConfigProblem]:
    """Refuse ``enabled`` in the file: ``source`` is the one switch for each device."""
    problems: list[ConfigProblem] = []
    for loc, instead in _SOURCE_SWITCHES.items():
        table: Any = data
        for part in loc[:-1]:
            table = table.get(part) if isinstance(table, Mapping) else None
        if isinstance(table, Mapping) and loc[-1] in table:
            line = find_key_line(text, loc)
            key = ".".join(loc)
            problems.append(
                ConfigProblem(
                    source,
                    f"line {line}, {key}" if line else key,
                    f"the source setting chooses the device: remove this line and use {instead} "
                    'or "none"',
                )
            )
    return problems


def find_key_line(text: str, loc: tuple[str, ...], *, exact: bool = False) -> int | None:
    """The 1-based line where the TOML key at ``loc`` is set, or its table starts, if found.

    ``exact``: only the line that sets the key itself (no table fallback).
    """
    table: tuple[str, ...] = ()
    table_line: dict[tuple[str, ...], int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        header = re.fullmatch(r"\[\s*([^\[\]]+?)\s*\]", line)
        if header:
            table = tuple(part.strip().strip('"') for part in header.group(1).split("."))
            table_line.setdefault(table, number)
            continue
        if "=" not in line:
            continue
        key = tuple(part.strip().strip('"') for part in line.split("=", 1)[0].split("."))
        full = table + key
        if full == loc[: len(full)] and full:
            return number
    if exact:
        return None
    for depth in range(len(loc), 0, -1):
        if loc[:depth] in table_line:
            return table_line[loc[:depth]]
    return None


_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def toml_problem(error: tomllib.TOMLDecodeError, source: str) -> ConfigProblem:
    """A TOML syntax error as a problem at its line and column."""
    message = str(error)
    position = _TOML_POSITION.search(message)
    where = f"line {position.group(1)}, column {position.group(2)}" if position else ""
    return ConfigProblem(source, where, f"not valid TOML: {_TOML_POSITION.sub('', message)}")
