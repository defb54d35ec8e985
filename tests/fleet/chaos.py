"""Finished games through a fleet whose parts are killed at random moments: the shipped
Mosquitto configuration on 127.0.0.1, tables as processes running the real publisher
(tests/fleet/table_child.py), the watcher as the real ``companion fleet`` process. The
games are synthetic finished-game records queued in each table's real journal outbox,
as the journal queues them; what counts is what the watcher's store holds at the end.

Used by tests/fleet/test_fleet_faults.py (a small run) and bench/bench_fleet_faults.py
(≥ 1,000 games).
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from companion.journal import Journal
from tests.fleet.broker import REPO, Broker, wait_until

WATCHER_PASSWORD = "pw-fleet"
CONVERGE_S = 90.0
#: The settling deadline grows by one second per this many games queued.
SLOWEST_PER_S = 20.0


@dataclass
class ChaosReport:
    seed: int
    games: int = 0
    stored: int = 0
    lost: int = 0
    duplicated: int = 0
    left_in_outboxes: int = 0
    broker_kills: int = 0
    watcher_kills: int = 0
    table_kills: int = 0
    seconds: float = 0.0
    events: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"seed {self.seed}: {self.games} games, {self.stored} stored, {self.lost} lost,"
            f" {self.duplicated} duplicated, {self.left_in_outboxes} left in outboxes;"
            f" broker SIGKILLed {self.broker_kills}x, watcher {self.watcher_kills}x,"
            f" tables {self.table_kills}x; {self.seconds:.1f} s"
        )


class Fleet:
    """A broker, ``tables`` table processes and a watcher process, in ``folder``."""

    def __init__(
        self, folder: Path, *, tables: int = 3, resend_s: float = 1.0, max_queued: int | None = None
    ) -> None:
        self.folder = folder
        self.devices = [f"table-{n}" for n in range(1, tables + 1)]
        passwords = {device: f"pw-{device}" for device in self.devices}
        self.broker = Broker(folder / "broker", passwords={**passwords, "fleet": WATCHER_PASSWORD})
        self.broker.use_shipped_config(max_queued=max_queued)
        self.resend_s = resend_s
        self.journals = {d: folder / d / "journal.sqlite3" for d in self.devices}
        for path in self.journals.values():
            journal = Journal(path)
            journal.keep_outbox(1_000_000, topic="plays")
            journal.close()
        self.tables: dict[str, subprocess.Popen[bytes]] = {}
        self.watcher: subprocess.Popen[bytes] | None = None
        self.db = folder / "shop" / "fleet.sqlite3"
        self.shop_toml = folder / "shop.toml"
        self.next_game = dict.fromkeys(self.devices, 0)
        self.queued: list[str] = []  # the ids of every game queued, in order
        self._lock = threading.Lock()

    # --- the parts ------------------------------------------------------------------

    def start_broker(self) -> None:
        self.broker.start()

    def kill_broker(self) -> None:
        self.broker.kill()

    def start_table(self, device: str) -> None:
        args = [
            str(self.journals[device]),
            str(self.broker.port),
            device,
            f"pw-{device}",
            str(self.resend_s),
        ]
        self.tables[device] = subprocess.Popen(
            [sys.executable, "-m", "tests.fleet.table_child", *args],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=(self.folder / f"{device}.log").open("ab"),
        )

    def kill_table(self, device: str) -> None:
        process = self.tables.pop(device)
        process.send_signal(signal.SIGKILL)
        process.wait()

    def start_watcher(self) -> None:
        self.shop_toml.write_text(
            "[fleet]\n"
            f'host = "127.0.0.1"\nport = {self.broker.port}\n'
            f'username = "fleet"\npassword = "{WATCHER_PASSWORD}"\n'
            'watcher_client_id = "fleet-under-test"\n',
            encoding="utf-8",
        )
        self.watcher = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kiosk.cli",
                "fleet",
                "--config",
                str(self.shop_toml),
                "--data-dir",
                str(self.folder / "shop"),
                "--db",
                str(self.db),
            ],
            cwd=REPO,
            stdout=(self.folder / "watcher.log").open("ab"),
            stderr=subprocess.STDOUT,
        )

    def kill_watcher(self) -> None:
        if self.watcher is not None:
            self.watcher.send_signal(signal.SIGKILL)
            self.watcher.wait()
        self.watcher = None

    def stop_all(self) -> None:
        for device in list(self.tables):
            self.kill_table(device)
        if self.watcher is not None:
            self.watcher.terminate()
            try:
                self.watcher.wait(10)
            except subprocess.TimeoutExpired:
                self.kill_watcher()
        self.broker.stop()

    # --- the games ------------------------------------------------------------------

    def finish_games(self, device: str, count: int) -> None:
        """Queue ``count`` finished games' records in ``device``'s journal outbox."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        rows = []
        with self._lock:
            for _ in range(count):
                self.next_game[device] += 1
                game = self.next_game[device]
                record = {
                    "format": 1,
                    "game": "toy_pig",
                    "title": "Pig",
                    "players": ["Ann", "Bob"],
                    "outcome": {"winners": [game % 2], "text": "a win"},
                }
                rows.append(("plays", game, 2, json.dumps(record), now))
                self.queued.append(f"{device}/{game}/2")
        db = sqlite3.connect(self.journals[device], timeout=30, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT INTO outbox(topic, game_id, seq, payload, created) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            db.execute("COMMIT")
        finally:
            db.close()

    def stored(self) -> tuple[set[str], int]:
        """The ids the watcher stored, and how many games it stored more than once."""
        if not self.db.exists():
            return set(), 0
        db = sqlite3.connect(self.db, timeout=30)
        try:
            ids = {row[0] for row in db.execute("SELECT id FROM plays")}
            twice = db.execute(
                "SELECT COUNT(*) FROM (SELECT device, game_id FROM plays"
                " GROUP BY device, game_id HAVING COUNT(*) > 1)"
            ).fetchone()[0]
        except sqlite3.OperationalError:  # not made yet
            return set(), 0
        finally:
            db.close()
        return ids, int(twice)

    def settle(self, report: ChaosReport) -> None:
        """Wait until the watcher stored every game queued and the outboxes are empty
        (or a generous deadline passes), then count into ``report``."""
        deadline = time.monotonic() + CONVERGE_S + len(self.queued) / SLOWEST_PER_S
        expected = set(self.queued)
        while time.monotonic() < deadline:
            ids, _ = self.stored()
            if expected <= ids and self.waiting() == 0:
                break
            time.sleep(0.2)
        ids, twice = self.stored()
        report.stored = len(ids)
        report.lost = len(expected - ids)
        report.duplicated = twice + len(ids - expected)
        report.left_in_outboxes = self.waiting()

    def waiting(self) -> int:
        total = 0
        for path in self.journals.values():
            db = sqlite3.connect(path, timeout=30)
            try:
                total += int(db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
            finally:
                db.close()
        return total


def run_chaos(
    folder: Path,
    *,
    games: int,
    seed: int,
    broker_kills: int = 5,
    tables: int = 3,
    say: Callable[[str], None] = lambda _line: None,
) -> ChaosReport:
    """Finish ``games`` games across ``tables`` tables while the broker is SIGKILLed
    ``broker_kills`` times (once with the watcher, so the tables are back before the
    watcher resubscribes), the watcher is SIGKILLed mid-drain and tables are SIGKILLed
    while the broker holds records they have not yet deleted."""
    rng = random.Random(seed)
    report = ChaosReport(seed=seed)
    fleet = Fleet(folder, tables=tables)
    started = time.monotonic()

    def note(event: str) -> None:
        line = f"{time.monotonic() - started:6.2f} s  {event}"
        report.events.append(line)
        say(line)

    fleet.start_broker()
    fleet.start_watcher()
    for device in fleet.devices:
        fleet.start_table(device)
    per_step = max(1, games // (broker_kills * 4))
    left = games

    def play(n: int) -> None:
        nonlocal left
        n = min(n, left)
        while n > 0:
            chunk = min(n, rng.randint(1, 25))
            fleet.finish_games(rng.choice(fleet.devices), chunk)
            n -= chunk
            left -= chunk
            time.sleep(rng.uniform(0, 0.05))

    try:
        for kill in range(broker_kills):
            play(per_step)
            time.sleep(rng.uniform(0.1, 0.8))
            fleet.kill_broker()
            report.broker_kills += 1
            if kill == 1:
                # The watcher goes with it; the tables are back (and resend) before the
                # watcher resubscribes, to a broker that may have lost its session.
                fleet.kill_watcher()
                report.watcher_kills += 1
                note("broker and watcher SIGKILLed")
                play(per_step)
                fleet.start_broker()
                time.sleep(2.5)
                play(per_step)
                fleet.start_watcher()
                note("broker back, then the watcher")
            elif kill == 2:
                # Games finish while the broker is down; the tables hold them.
                play(per_step)
                time.sleep(rng.uniform(0, 0.5))
                fleet.start_broker()
                note("broker SIGKILLed, games finished while it was down")
            elif kill == 3:
                fleet.start_broker()
                note("broker SIGKILLed and restarted")
                # The watcher away: records are taken by the broker (PUBACK) but not
                # confirmed, so not deleted; a table is SIGKILLed holding them.
                fleet.kill_watcher()
                report.watcher_kills += 1
                play(per_step * 2)
                time.sleep(1.5)
                victim = rng.choice(fleet.devices)
                fleet.kill_table(victim)
                report.table_kills += 1
                note(f"watcher SIGKILLed; {victim} SIGKILLed after the broker took its records")
                fleet.start_table(victim)
                fleet.start_watcher()
                time.sleep(rng.uniform(1.0, 1.6))  # it starts and drains the backlog
                fleet.kill_watcher()
                report.watcher_kills += 1
                note("watcher SIGKILLed mid-drain")
                fleet.start_watcher()
            else:
                time.sleep(rng.uniform(0, 0.3))
                fleet.start_broker()
                note("broker SIGKILLed and restarted")
            if kill == 0:
                victim = rng.choice(fleet.devices)
                time.sleep(rng.uniform(0.05, 0.4))
                fleet.kill_table(victim)
                report.table_kills += 1
                fleet.start_table(victim)
                note(f"{victim} SIGKILLed mid-drain and restarted")
        play(left)
        report.games = len(fleet.queued)
        note(f"all {report.games} games finished; waiting for the fleet to settle")
        fleet.settle(report)
    finally:
        fleet.stop_all()
    report.seconds = time.monotonic() - started
    note(report.summary())
    return report


def run_burst(
    folder: Path, *, games: int, max_queued: int, say: Callable[[str], None] = lambda _l: None
) -> ChaosReport:
    """One table finishes ``games`` games at once while the watcher is away, through a
    broker that queues at most ``max_queued`` messages per client; then the watcher
    comes. Returns what it stored, and the broker's log says whether it dropped any."""
    report = ChaosReport(seed=0)
    fleet = Fleet(folder, tables=1, max_queued=max_queued)
    started = time.monotonic()
    fleet.start_broker()
    fleet.start_watcher()  # its session exists at the broker: messages queue for it
    wait_until(
        lambda: "Received SUBSCRIBE from fleet-under-test" in fleet.broker.log_text(),
        "the watcher's subscription",
        CONVERGE_S,
    )
    time.sleep(0.2)
    fleet.kill_watcher()
    try:
        (device,) = fleet.devices
        fleet.start_table(device)
        fleet.finish_games(device, games)
        time.sleep(2.0)  # the table sends its window; the broker queues what it can
        fleet.start_watcher()
        report.games = games
        fleet.settle(report)
    finally:
        fleet.stop_all()
    report.seconds = time.monotonic() - started
    say(report.summary())
    return report


def broker_dropped(folder: Path) -> bool:
    """Whether the broker of a run in ``folder`` dropped messages over its queue limit."""
    log = folder / "broker" / "mosquitto.log"
    return "dropped" in log.read_text(errors="replace") if log.exists() else False
