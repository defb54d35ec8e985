"""The kiosk's screens. Each one copies a presenter's view model into widgets."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen


class KioskScreen(Screen):  # type: ignore[misc]
    """A screen that knows the kiosk controller (navigation and presenters)."""

    kiosk: Any = ObjectProperty(None, allownone=True)
