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

from kiosk.kivy_env import kivy_environment

_KIVY_HOME = Path(tempfile.mkdtemp(prefix="kivy-home-"))
atexit.register(shutil.rmtree, _KIVY_HOME, True)

os.environ.setdefault("KCFG_GRAPHICS_MAXFPS", "0")  # tests step frames as fast as they can
os.environ.setdefault("KCFG_GRAPHICS_RESIZABLE", "0")
# Otherwise the app's own settings, so the tests draw what players see.
os.environ.update(kivy_environment(os.environ, quiet=True, kivy_home=_KIVY_HOME, headless=True))
