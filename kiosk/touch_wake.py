"""Touches read by an input thread wake the main loop at once (the Pi's touch panel).

On the Pi the panel is read by Kivy's ``mtdev`` provider (``deploy/kivy_config.py``; its
``hidinput`` provider is the fallback): a thread reads the device and queues each touch,
and the main loop takes them from the queue at its next pass. While the kiosk idles the
loop passes only a few times a second (``kiosk/pace.py``), so a first touch would wait
for the next pass. Here each touch those threads queue also calls the pace's ``wake``,
as a die or a table button already does: the touch is handled at once, and an idle loop
can pass as seldom as :data:`kiosk.pace.WOKEN_IDLE_FPS`.

Touches that come through SDL's events (a desktop's mouse, Xvfb) are read by the main
loop itself: nothing can wake it for them, and the pace stays at its usual idle rate.

Kivy's reader threads put their touches in a queue of the provider (``self.queue``,
also passed to the ``mtdev`` thread as ``queue``) with ``append`` and the main thread
takes them with ``popleft``: internals, listed and checked in :mod:`kiosk.kivy_compat`
and by ``tests/kiosk/test_pace.py``.
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from kiosk.kivy_compat import check_touch_provider

if TYPE_CHECKING:  # Kivy's input modules load with the app
    from kivy.input.provider import MotionEventProvider

#: Kivy's touch providers that read the device in a thread of their own.
THREADED_PROVIDERS = ("mtdev", "hidinput")
#: Providers that find devices and hand them to a provider named by ``provider=``.
PROBING_PROVIDERS = ("probesysfs",)
_DEFAULT_PROBED = "mtdev"  # probesysfs's own default provider

_wake: list[Callable[[], None]] = []  # the running app's wake (at most one)
_wrapped: set[type[MotionEventProvider]] = set()  # provider classes whose reader threads wake


class WakingQueue(collections.deque[object]):
    """A provider's touch queue whose every ``append`` (the reader thread's) wakes the loop."""

    def append(self, item: object) -> None:
        super().append(item)
        for wake in _wake:
            wake()


def _waking(run: Callable[..., object]) -> Callable[..., object]:
    @functools.wraps(run)
    def thread_run(provider: MotionEventProvider, **kwargs: object) -> object:
        # In the reader thread, before it reads the device: its queue wakes the loop.
        queue = WakingQueue()
        provider.queue = queue
        if "queue" in kwargs:
            kwargs["queue"] = queue
        return run(provider, **kwargs)

    return thread_run


def install(
    wake: Callable[[], None], providers: Iterable[type[MotionEventProvider]] | None = None
) -> None:
    """Have the threaded touch providers call ``wake`` (from their thread) for every
    touch they queue, from their next ``start()`` on. ``providers`` defaults to Kivy's
    :data:`THREADED_PROVIDERS` that this machine has (``mtdev`` needs libmtdev)."""
    found = _kivy_providers() if providers is None else list(providers)
    for provider in found:
        if provider not in _wrapped:
            check_touch_provider(provider)
            provider._thread_run = _waking(provider._thread_run)
            _wrapped.add(provider)
    _wake[:] = [wake]


def uninstall() -> None:
    """No more waking (the app stopped); the queues stay usable."""
    _wake.clear()


def _kivy_providers() -> list[type[MotionEventProvider]]:
    from kivy.input import MotionEventFactory

    found = []
    for name in THREADED_PROVIDERS:
        provider = MotionEventFactory.get(name)
        if provider is not None:
            found.append(provider)
    return found


def touches_wake(input_lines: Iterable[str]) -> bool:
    """Whether every touch the configured providers (Kivy's ``[input]`` values) read
    comes through a reader thread that wakes the loop: True for the Pi's
    ``probesysfs,provider=mtdev``; False with SDL's ``mouse`` (read by the loop) or
    nothing configured."""
    lines = [line.strip() for line in input_lines if line.strip()]
    if not lines:
        return False
    for line in lines:
        name, _, args = line.partition(",")
        name = name.strip()
        if name in PROBING_PROVIDERS:
            options = dict(part.split("=", 1) for part in args.split(",") if "=" in part)
            name = options.get("provider", _DEFAULT_PROBED).strip()
        if name not in THREADED_PROVIDERS:
            return False
    return True


__all__ = [
    "THREADED_PROVIDERS",
    "WakingQueue",
    "install",
    "touches_wake",
    "uninstall",
]
