"""The Kivy internals the tests reach for, in one place: what Kivy offers no public way to
do or read. Each is pinned to the Kivy the kiosk is tested with (kiosk/kivy_compat.py):
another Kivy fails the test that uses one with a sentence, not an AttributeError.

The lint of tests (tests/test_tests_behaviour.py) lets this module alone name them.
"""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.kivy_compat import TESTED_KIVY, installed_kivy


def _pinned(owner: object, member: str) -> Any:
    if not hasattr(owner, member):
        pytest.fail(
            f"Kivy {installed_kivy()} has no {type(owner).__name__}.{member}, which this test "
            f"relies on (tested with Kivy {TESTED_KIVY}): install the locked version."
        )
    return getattr(owner, member)


def forget_keyboard(window: object) -> None:
    """Forget the single keyboard Kivy made for ``window`` (``Window._keyboards``), so
    the next request makes a new one, as the first request of a fresh app does."""
    _pinned(window, "_keyboards").pop("single", None)


def wrapped_lines(core: object) -> int:
    """How many lines Kivy's text renderer ``core`` (a ``kivy.core.text.Label``, after
    ``refresh``) wrapped its text into (``_cached_lines``)."""
    return len(_pinned(core, "_cached_lines"))
