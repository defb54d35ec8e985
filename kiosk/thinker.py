"""The companion's decisions off the UI thread: one daemon thread per decision.

``companion/`` stays pure and thread-free; the thread lives here. The decision's answer
(or the exception it raised) comes back to the UI thread through Kivy's clock, where
:class:`kiosk.presenters.companion.CompanionTurn` shows it or drops it (cancelled by
Undo or by leaving the screen: ``Budget.cancel``, which the search reads between
nodes). A position is an immutable value, so the thread shares nothing that changes.
"""

from __future__ import annotations

import threading

from companion.bots import Decision
from kiosk.presenters.companion import Done, Think


class ThreadRunner:
    """:class:`kiosk.presenters.companion.Runner` on a thread, answering on Kivy's clock."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def start(self, think: Think, done: Done) -> None:
        from kivy.clock import Clock  # with the first game, not at launch

        def run() -> None:
            result: Decision | Exception
            try:
                result = think()
            except Exception as exc:  # handed to the UI thread, which says it
                result = exc
            Clock.schedule_once(lambda _dt: done(result), 0)

        thread = threading.Thread(target=run, name="companion-thinks", daemon=True)
        self.threads = [t for t in self.threads if t.is_alive()]
        self.threads.append(thread)
        thread.start()
