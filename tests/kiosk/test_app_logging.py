"""What the app writes to its log (journald on a kiosk): no false alarms."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

from kiosk.app import CutBufferNotice
from tests.kiosk.helpers import ROOT

KIVY_CUTBUFFER_ALARM = (
    "Cutbuffer: Unable to find any valuable Cutbuffer provider. Please enable debug logging"
)


def test_a_missing_x11_cut_buffer_is_one_info_line_not_a_critical() -> None:
    record = logging.LogRecord(
        "kivy", logging.CRITICAL, __file__, 1, KIVY_CUTBUFFER_ALARM, (), None
    )
    assert CutBufferNotice().filter(record)
    assert (record.levelno, record.levelname) == (logging.INFO, "INFO")
    assert "xclip" in record.getMessage() and "Traceback" not in record.getMessage()
    other = logging.LogRecord("kivy", logging.CRITICAL, __file__, 1, "GL: no context", (), None)
    assert CutBufferNotice().filter(other) and other.levelno == logging.CRITICAL


def test_the_first_text_field_use_logs_no_critical() -> None:
    """Kivy picks its clipboard on a text field's first copy or paste."""
    code = (
        "import kiosk.app\n"
        "from kivy.core.window import Window\n"
        "from kivy.core.clipboard import Clipboard\n"
        "print('clipboard', type(Clipboard).__name__)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "KCFG_"))}
    env.update(SDL_VIDEODRIVER="offscreen", KIVY_NO_FILELOG="1")
    env.pop("DISPLAY", None)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr[-1500:]
    assert "clipboard" in result.stdout
    assert "CRITICAL" not in result.stderr and "Unable to find any valuable" not in result.stderr
