"""Kivy setup for the kiosk tests: offscreen SDL2, 800×480, a fresh KIVY_HOME.

The environment must be set before the first ``import kivy`` anywhere in the run, so it
happens at import time of this conftest (pytest imports it before the test modules of
this folder). Presenter tests never import Kivy; they assert it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

_KIVY_HOME = Path(tempfile.mkdtemp(prefix="kivy-home-"))
atexit.register(shutil.rmtree, _KIVY_HOME, True)

for key, value in {
    "KIVY_NO_ARGS": "1",
    "KIVY_NO_CONSOLELOG": "1",
    "KIVY_NO_FILELOG": "1",
    "KIVY_LOG_MODE": "PYTHON",
    "KIVY_HOME": str(_KIVY_HOME),
    "KCFG_GRAPHICS_WIDTH": "800",
    "KCFG_GRAPHICS_HEIGHT": "480",
    "KCFG_GRAPHICS_RESIZABLE": "0",
}.items():
    os.environ.setdefault(key, value)
if not os.environ.get("DISPLAY"):
    os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "0")  # tests step frames as fast as they can
