"""Broken configuration files: each one is a clear problem, and the companion starts.

Every numeric setting is pushed past each of its bounds (walked from the models, so a
new setting is covered without listing it), plus syntax errors, wrong types, unknown
keys, NaN and infinities, binary garbage, a byte-order mark, an empty file and a folder
in place of the file. Each goes through ``load_config`` and ``companion doctor
--config``: no traceback, a problem naming the file (and the key, where there is one),
and a configuration to start with.
"""

from __future__ import annotations

import contextlib
import io
import math
from pathlib import Path

import pytest
from annotated_types import Ge, Gt, Le, Lt

from firmware_bridge.platform import Platform
from kiosk.cli import main
from kiosk.settings import CompanionConfig, load_config
from tests.faults.scale import report
from tests.helpers.config_fields import numeric_fields as _numeric_fields

LAPTOP = Platform(None)


def _beyond_bounds() -> list[tuple[str, str, str]]:
    """(case, TOML text, key the problem must name) for each bound of each number."""
    cases = []
    for key, info in _numeric_fields(CompanionConfig):
        table, name = key.rsplit(".", 1) if "." in key else ("", key)
        header = f"[{table}]\n" if table else ""
        is_int = info.annotation is int or "int" in str(info.annotation)
        for bound in info.metadata:
            if isinstance(bound, Le | Lt):
                limit = float(bound.le if isinstance(bound, Le) else bound.lt)  # type: ignore[arg-type]
                value = limit + 1 if is_int else limit * 10 + 1
            elif isinstance(bound, Ge | Gt):
                limit = float(bound.ge if isinstance(bound, Ge) else bound.gt)  # type: ignore[arg-type]
                value = limit - 1
            else:
                continue
            text = f"{header}{name} = {int(value) if is_int else repr(float(value))}\n"
            cases.append((f"{key} beyond {type(bound).__name__}", text, key))
    return cases


OTHER_CASES: list[tuple[str, str | bytes, str]] = [
    ("syntax: unclosed table", "[leds\ncount = 3\n", "line 1"),
    ("syntax: missing value", "[leds]\ncount =\n", "line 2"),
    ("syntax: duplicate key", "[leds]\ncount = 3\ncount = 4\n", ""),
    ("syntax: bad string", '[leds]\ndriver = "sim\n', "line 2"),
    ("wrong type: text for a number", '[leds]\ncount = "many"\n', "leds.count"),
    ("wrong type: number for text", "[leds]\ndriver = 3\n", "leds.driver"),
    ("wrong type: table for a number", "[leds]\ncount = {a = 1}\n", "leds.count"),
    ("wrong type: list for a bool", "[kiosk]\nlocked = [true]\n", "kiosk.locked"),
    ("unknown key", "[leds]\ncolour = 3\n", "leds.colour"),
    ("unknown table", "[lasers]\npower = 3\n", "lasers"),
    ("nan", "[leds]\nbrightness = nan\n", "leds.brightness"),
    ("inf", "[leds]\nbrightness = inf\n", "leds.brightness"),
    ("-inf", "[dice.serial]\npoll_s = -inf\n", "dice.serial.poll_s"),
    ("huge integer", "[leds]\ncount = 1" + "0" * 40 + "\n", "leds.count"),
    ("keep-alive broken together", "[dice.serial]\nping_interval_s = 3.0\npoll_s = 0.9\n", "dice"),
    ("binary garbage", bytes(range(256)) * 4, ""),
    ("byte-order mark", "\ufeff[leds]\ncount = 3\n".encode(), ""),
    ("latin-1 text", "[kiosk]\n# café\n".encode("latin-1"), ""),
]


def _cases() -> list[tuple[str, str | bytes, str]]:
    return [*_beyond_bounds(), *OTHER_CASES]


def _write(tmp_path: Path, index: int, content: str | bytes) -> Path:
    path = tmp_path / f"companion-{index}.toml"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.fixture
def quiet_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.delenv("COMPANION_HARDWARE", raising=False)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))


@pytest.mark.usefixtures("quiet_env")
def test_every_broken_config_is_a_clear_problem_and_the_companion_starts(
    tmp_path: Path,
) -> None:
    cases = _cases()
    assert len(cases) >= 40
    tracebacks: list[str] = []
    unclear: list[str] = []
    for index, (case, content, key) in enumerate(cases):
        path = _write(tmp_path, index, content)
        try:
            loaded = load_config(path, environ={}, platform=LAPTOP)
            assert isinstance(loaded.config, CompanionConfig)
            said = " | ".join(str(p) for p in loaded.problems)
            if not loaded.problems or str(path) not in said or key not in said:
                unclear.append(f"{case}: {said or 'no problem reported'}")
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                main(["doctor", "--config", str(path)])
        except Exception as exc:
            tracebacks.append(f"{case}: {exc!r}")
    assert tracebacks == []
    assert unclear == []
    report("config_faults", configs=len(cases), tracebacks=0, unclear=0)


@pytest.mark.usefixtures("quiet_env")
def test_a_folder_or_an_empty_file_as_the_config(tmp_path: Path) -> None:
    folder = tmp_path / "conf.d"
    folder.mkdir()
    loaded = load_config(folder, environ={}, platform=LAPTOP)
    assert "not a file" in str(loaded.problems[0])
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    assert load_config(empty, environ={}, platform=LAPTOP).problems == ()  # all defaults
    assert not math.isnan(CompanionConfig().leds.brightness)
