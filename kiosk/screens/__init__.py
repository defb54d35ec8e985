"""The kiosk's screens. Each one copies a presenter's view model into widgets; their
layouts are the kv files of ``kiosk/kv``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

KV_DIR = Path(__file__).resolve().parents[1] / "kv"
_kv_loaded: set[str] = set()


def load_kv(*names: str) -> None:
    """Load the layout files ``names`` (in ``kiosk/kv``), each once per process: the app
    loads Home's and the game screens' at launch, the shop's admin page its own when
    first needed."""
    for name in names:
        if name not in _kv_loaded:
            Builder.load_file(str(KV_DIR / name))
            _kv_loaded.add(name)


class KioskScreen(Screen):  # type: ignore[misc]
    """A screen that knows the kiosk controller (navigation and presenters)."""

    kiosk: Any = ObjectProperty(None, allownone=True)
