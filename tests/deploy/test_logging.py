"""The kiosk logs to stderr only (journald keeps it): no log files on the SD card.

Run with the service's environment in a fresh interpreter: the app's loggers and Kivy's
(``KIVY_LOG_MODE=PYTHON``) go through one stderr handler, and nothing is written below
the working directory or ``KIVY_HOME`` except Kivy's icon folders.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import logging
from kiosk.cli import configure_logging
configure_logging()
logging.getLogger("kiosk.probe").info("hello from the kiosk")
logging.getLogger("firmware_bridge.probe").warning("a warning")
from kivy.logger import Logger
Logger.info("Probe: hello from Kivy")
for handler in logging.getLogger().handlers:
    assert type(handler) is logging.StreamHandler, handler
print("handlers ok")
"""


def run_probe(tmp_path: Path, level: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env.pop("COMPANION_LOG_LEVEL", None)
    env.update(
        {
            "KIVY_HOME": str(tmp_path / "kivy"),
            "KIVY_NO_ARGS": "1",
            "KIVY_NO_FILELOG": "1",
            "KIVY_LOG_MODE": "PYTHON",
        }
    )
    if level is not None:
        env["COMPANION_LOG_LEVEL"] = level
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )


def test_the_service_level_sends_info_to_stderr_and_writes_no_file(tmp_path: Path) -> None:
    result = run_probe(tmp_path, "INFO")
    assert result.returncode == 0, result.stderr
    assert "handlers ok" in result.stdout
    assert "INFO kiosk.probe: hello from the kiosk" in result.stderr
    assert "WARNING firmware_bridge.probe: a warning" in result.stderr
    assert "INFO kivy: Probe: hello from Kivy" in result.stderr
    written = [
        path.relative_to(tmp_path)
        for path in tmp_path.rglob("*")
        if path.is_file() and path.parts[len(tmp_path.parts)] != "kivy"
    ]
    assert written == []
    assert not (tmp_path / "kivy" / "logs").exists()


@pytest.mark.parametrize("level", [None, "chatty"])
def test_without_a_valid_level_only_warnings_show(tmp_path: Path, level: str | None) -> None:
    result = run_probe(tmp_path, level)
    assert result.returncode == 0, result.stderr
    assert "hello from the kiosk" not in result.stderr
    assert "a warning" in result.stderr
