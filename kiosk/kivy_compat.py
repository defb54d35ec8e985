"""The Kivy internals the kiosk relies on, gathered in one place and checked.

Kivy is pinned (``kivy==2.3.1`` in pyproject.toml and requirements.lock) because the
kiosk reaches past its public API in two places:

- the clock (:mod:`kiosk.pace`): its frame-rate cap ``_max_fps``, its sleep ``usleep``,
  its readiness check ``_check_ready`` and the time of its last pass ``_last_tick``
  (``ClockBaseBehavior``), so that an idle kiosk sleeps longer and a device's message
  ends the sleep at once;
- the threaded touch providers (:mod:`kiosk.touch_wake`): their reader loop
  ``_thread_run`` and their touch queue ``queue``, so that a touch read in the reader's
  thread wakes the loop.

Each user calls its check before it touches them: a Kivy that moved these on stops the
app with a message that names the version installed, the one tested and what is gone,
instead of a frozen or sleeping screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Kivy loads with the app; this module is checked without it
    from kivy.clock import ClockBase

#: The Kivy release whose internals these are.
TESTED_KIVY = "2.3.1"
#: The clock's members :mod:`kiosk.pace` reads or replaces.
CLOCK_MEMBERS = ("_max_fps", "_check_ready", "usleep", "_last_tick", "time", "create_trigger")
#: A threaded touch provider's members :mod:`kiosk.touch_wake` wraps.
PROVIDER_MEMBERS = ("_thread_run",)


class IncompatibleKivy(RuntimeError):
    """The installed Kivy lacks an internal the kiosk relies on."""


def installed_kivy() -> str:
    """The installed Kivy's version ("" where Kivy cannot be imported)."""
    try:
        import kivy
    except ImportError:
        return ""
    return str(kivy.__version__)


def _require(owner: object, members: tuple[str, ...], what: str, user: str) -> None:
    missing = [name for name in members if not hasattr(owner, name)]
    if missing:
        raise IncompatibleKivy(
            f"Kivy {installed_kivy() or '(unknown version)'} is installed, but {what} has no "
            f"{', '.join(missing)}, which {user} relies on (tested with Kivy {TESTED_KIVY}). "
            f"Install the locked version: scripts/setup, or pip install -c requirements.lock ."
        )


def check_clock(clock: object) -> None:
    """Refuse a clock without the members :mod:`kiosk.pace` uses."""
    _require(clock, CLOCK_MEMBERS, "its clock", "the idle pace (kiosk/pace.py)")


def frame_rate(clock: ClockBase) -> float:
    """The frames a second Kivy's ``clock`` runs its loop at now (0: as fast as it can)."""
    return float(clock._max_fps)


def set_frame_rate(clock: ClockBase, fps: float) -> None:
    """Run Kivy's ``clock`` loop at ``fps`` frames a second from its next pass."""
    clock._max_fps = fps


def check_touch_provider(provider: object) -> None:
    """Refuse a touch provider without the reader loop :mod:`kiosk.touch_wake` wraps."""
    _require(
        provider,
        PROVIDER_MEMBERS,
        f"its touch provider {getattr(provider, '__name__', provider)!s}",
        "the touch wake-up (kiosk/touch_wake.py)",
    )
