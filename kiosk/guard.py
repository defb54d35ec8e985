"""The last line of defence: a widget's exception is logged and recovered, not fatal.

Kivy's main loop hands every exception raised by a touch, a key or a clock callback to
its ``ExceptionManager``; with no handler it re-raises and the app exits. A shop kiosk
must not end because one widget failed, so :class:`ExceptionGuard` (added by
:class:`kiosk.app.CompanionApp` for the app's run) logs the traceback and asks the kiosk
to recover (Home: every accepted move is already in the journal), and the loop goes on.

It still lets the app end when that is the honest answer:

* ``KeyboardInterrupt``, ``SystemExit`` and other non-``Exception`` errors pass through;
* more than :data:`BURST_LIMIT` exceptions within :data:`BURST_WINDOW_S` (a fault that
  comes back every frame, recovery included) end the run with the last exception, and
  the service manager starts the app afresh (deploy/colossus-companion.service).

The counting takes timestamps from an injected clock, so it is tested without Kivy's loop.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable

from kivy.base import ExceptionHandler, ExceptionManager

log = logging.getLogger(__name__)

BURST_LIMIT = 20
BURST_WINDOW_S = 10.0


class ExceptionGuard(ExceptionHandler):  # type: ignore[misc]
    """Log a widget's exception and recover; give up on a burst (see the module)."""

    def __init__(
        self,
        recover: Callable[[], None],
        *,
        clock: Callable[[], float] = time.monotonic,
        limit: int = BURST_LIMIT,
        window_s: float = BURST_WINDOW_S,
    ) -> None:
        super().__init__()
        self.recover = recover
        self.clock = clock
        self.limit = limit
        self.window_s = window_s
        self.recent: deque[float] = deque()
        #: Exceptions recovered from in this run (the soak bench reports it).
        self.recovered = 0

    def handle_exception(self, inst: BaseException) -> int:
        if not isinstance(inst, Exception):
            return int(ExceptionManager.RAISE)
        now = self.clock()
        self.recent.append(now)
        while self.recent and now - self.recent[0] > self.window_s:
            self.recent.popleft()
        if len(self.recent) > self.limit:
            log.critical(
                "%d exceptions within %g s: the app ends so that it is started afresh",
                len(self.recent),
                self.window_s,
                exc_info=inst,
            )
            return int(ExceptionManager.RAISE)
        self.recovered += 1
        log.error("A widget raised %s; recovered (Home)", type(inst).__name__, exc_info=inst)
        try:
            self.recover()
        except Exception:  # the next frame's exception (if any) is counted like the first
            log.exception("Recovering after an exception failed")
        return int(ExceptionManager.PASS)

    def install(self) -> None:
        ExceptionManager.add_handler(self)

    def uninstall(self) -> None:
        if self in ExceptionManager.handlers:
            ExceptionManager.remove_handler(self)
