"""A table's fleet publisher alone in a process, for the fault tests (SIGKILL at any
moment): ``python -m tests.fleet.table_child JOURNAL PORT DEVICE PASSWORD RESEND_S``.

It forwards the journal's outbox (which the test fills with finished games) through the
real :class:`FleetPublisher`, and looks at the outbox every 50 ms, as the kiosk wakes it
after each game.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from kiosk.fleet import publisher as publisher_module
from kiosk.fleet.publisher import FleetPublisher
from kiosk.settings import FleetConfig


def main(argv: list[str]) -> None:
    journal, port, device, password, resend = argv
    publisher_module.RESEND_S = float(resend)
    publisher_module.RESEND_MAX_S = float(resend) * 4
    settings = FleetConfig(
        enabled=True,
        host="127.0.0.1",
        port=int(port),
        device_id=device,
        username=device,
        password=password,
        health_interval_s=5.0,
    )
    publisher = FleetPublisher(settings, journal_path=Path(journal))
    publisher.start()
    print("started", flush=True)
    while True:
        publisher.poke()
        time.sleep(0.05)


if __name__ == "__main__":
    main(sys.argv[1:])
