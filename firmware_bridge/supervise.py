"""Device threads that restart after an unexpected error instead of dying silently.

A reader thread that meets an error nobody planned for (a bug, a driver raising
something new, a setting the code did not expect) would otherwise end, and the tray or
the buttons would stay dead until the app restarts, with nothing on screen saying so.
:func:`run_restarting` runs the thread's body again after a growing pause and tells the
owner each time, so the devices status shows it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

log = logging.getLogger(__name__)

RESTART_INITIAL_S = 0.5
RESTART_MAX_S = 30.0


def backoff_delays(initial: float, maximum: float) -> Iterator[float]:
    """Delays: ``initial`` doubling up to ``maximum``, then ``maximum`` forever."""
    delay = initial
    while True:
        yield min(delay, maximum)
        delay = min(delay * 2, maximum)


def run_restarting(
    what: str,
    body: Callable[[], None],
    *,
    wait: Callable[[float], bool],
    report: Callable[[str], None],
    initial: float = RESTART_INITIAL_S,
    maximum: float = RESTART_MAX_S,
) -> None:
    """Run ``body`` until it returns; after an exception, ``report`` it and run it again
    once ``wait(delay)`` has passed (``wait`` returns True when the thread should stop).

    ``what`` names the device for people ("The dice tray reader").
    """
    delays = backoff_delays(initial, maximum)
    attempt = 0
    while True:
        try:
            body()
            return
        except Exception as error:
            attempt += 1
            delay = next(delays)
            log.exception("%s failed (attempt %d); restarting in %.1f s", what, attempt, delay)
            report(
                f"{what} failed ({type(error).__name__}: {error}); restarting in {delay:g} s"
                f" (attempt {attempt})."
            )
            if wait(delay):
                return
