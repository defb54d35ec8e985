"""Fleet reporting figures: actions per second with the fleet off and on (broker up, and
broker down), and the outbox after an outage — its size and how fast it drains.

    .venv/bin/python bench/bench_fleet.py [--actions 1000] [--quick] [--dir DIR]

Prints figures; asserts nothing. The same scripted games (a random player in all five
games, in turn) are played through a journal on disk in each mode; act→ack is the wall
time of one ``Session.submit`` (the journal's commit included). A real Mosquitto on
127.0.0.1 is started (scripts/setup --test installs it). Target on the development
machine: act→ack with the fleet on, broker up or down, about the fleet off's (within
the machine's noise); the outbox of an outage drained at ≥ 100 records/s once
reconnected. Without
``--quick``, an outage long enough to queue 1,000 finished games is played too.

The real watcher (``kiosk.fleet.watch``, its store on disk) runs beside the table: a
record leaves the outbox only when the watcher has stored it and said so, so "drained"
means stored at the shop, end to end.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the broker helper of the fleet tests

from companion.bot import RandomBot  # noqa: E402
from companion.games import available_games, get_rules  # noqa: E402
from companion.journal import Journal, Outbox  # noqa: E402
from companion.session import Session  # noqa: E402
from kiosk.fleet.publisher import FleetPublisher  # noqa: E402
from kiosk.fleet.report import table_of  # noqa: E402
from kiosk.fleet.store import FleetStore  # noqa: E402
from kiosk.fleet.watch import watch  # noqa: E402
from tests.fleet.broker import Broker, wait_until  # noqa: E402

DRAIN_TIMEOUT_S = 300.0
POLL_S = 0.002  # the drain is timed to this (plus one outbox count)


@dataclass(frozen=True)
class Script:
    """One game to play again: its setup and its actions (as JSON-ready dicts)."""

    game: str
    players: tuple[str, ...]
    seed: int
    actions: tuple[dict[str, Any], ...]


def scripts(
    total: int, games: Sequence[str] | None = None, *, finished: int | None = None
) -> list[Script]:
    """Games of ``games`` (default: all five) in turn, each played to its end by a
    random player, until ``total`` actions (the last game is cut short) or, with
    ``finished``, until that many games have ended."""
    out: list[Script] = []
    count, seed = 0, 0
    games = games or available_games()
    while (count < total) if finished is None else (len(out) < finished):
        rules = get_rules(games[seed % len(games)])
        players = ("Ann", "Bob", "Cleo", "Dov")[: max(rules.min_players, min(2, rules.max_players))]
        session = Session.new(rules, players, seed=seed)
        bot = RandomBot(seed)
        actions = []
        while session.outcome is None and (finished is not None or count < total):
            action = bot.choose(rules, session.state)
            assert action is not None
            session.submit(action)
            actions.append(rules.dump_action(action))
            count += 1
        out.append(Script(rules.name, players, seed, tuple(actions)))
        seed += 1
    return out


def play(journal: Journal, games: Sequence[Script], fleet: FleetPublisher | None) -> list[float]:
    """Play the scripts through ``journal``; the act→ack time of each action."""
    times: list[float] = []
    queued = journal.queued
    for script in games:
        session = Session.new(script.game, script.players, seed=script.seed, journal=journal)
        for action in script.actions:
            start = time.perf_counter()
            session.submit(action)
            if fleet is not None and journal.queued != queued:  # as the kiosk does
                queued = journal.queued
                fleet.poke()
            times.append(time.perf_counter() - start)
    return times


def line(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    rate = len(times) / sum(times)
    return (
        f"{label:<24} {len(times)} actions, {rate:7.0f} actions/s,"
        f" act→ack median {statistics.median(times) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
    )


def outbox_size(path: Path) -> tuple[int, int]:
    outbox = Outbox(path)
    try:
        rows = outbox.pending(limit=1_000_000)
    finally:
        outbox.close()
    return len(rows), sum(len(m.payload.encode()) for m in rows)


def table_value_cost() -> str:
    """What the kiosk adds on its own thread per action with the fleet on: the table's
    value (status line, latest scores) made from a mid-game state of each game."""
    parts = []
    for game in available_games():
        (script, *_) = scripts(60, [game])
        session = Session.new(script.game, script.players, seed=script.seed)
        for action in script.actions[: len(script.actions) // 2]:
            session.submit(action)
        start = time.perf_counter()
        for _ in range(200):
            table_of("bench", session)
        parts.append(f"{game} {(time.perf_counter() - start) / 200 * 1e6:.0f} µs")
    return "the table's value per action (main thread): " + ", ".join(parts)


def outage(broker: Broker, path: Path, games: Sequence[Script], label: str) -> None:
    """Play ``games`` while the broker is down, then bring it back and time the drain."""
    with Journal(path) as journal:
        journal.keep_outbox(100_000, topic="plays")
        fleet = FleetPublisher(broker.fleet_config(device_id=path.stem), journal_path=path)
        fleet.start()
        wait_until(lambda: fleet.connected, "the connection")
        broker.kill()
        wait_until(lambda: not fleet.connected, "the publisher to notice")
        times = play(journal, games, fleet)
        print(line(f"fleet on, broker down ({label}):", times))
        records, size = outbox_size(path)
        broker.start()
        back = time.perf_counter()
        wait_until(lambda: fleet.connected, "the reconnection", DRAIN_TIMEOUT_S, step=POLL_S)
        connected = time.perf_counter()
        wait_until(lambda: outbox_size(path)[0] == 0, "the outbox", DRAIN_TIMEOUT_S, step=POLL_S)
        drained = time.perf_counter()
        fleet.stop()
    sending = max(drained - connected, 1e-6)
    if records == 0:
        print(f"  outage of {len(times)} actions ({label}): no game finished, nothing waited")
        return
    print(
        f"  outage of {len(times)} actions ({label}): {records} records, {size / 1e6:.2f} MB"
        f" in the outbox; reconnected {connected - back:.2f} s after the broker came back"
        f" (back-off), then drained in {sending:.3f} s: {records / sending:.0f} records/s,"
        f" {size / 1e6 / sending:.1f} MB/s"
    )


@contextlib.contextmanager
def watcher(broker: Broker, folder: Path) -> Iterator[None]:
    """The shop's watcher, storing into ``folder``, for as long as the block runs."""
    stop, said = threading.Event(), list[str]()

    def target() -> None:
        store = FleetStore(folder / "fleet.sqlite3")
        try:
            watch(broker.fleet_config(), store, folder / "page", stop=stop, say=said.append)
        finally:
            store.close()

    thread = threading.Thread(target=target, name="bench-watcher")
    thread.start()
    wait_until(lambda: any("connected" in line for line in said), "the watcher")
    try:
        yield
    finally:
        stop.set()
        thread.join()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000, help="actions per mode")
    parser.add_argument("--quick", action="store_true", help="200 actions per mode")
    parser.add_argument("--dir", type=Path, default=None, help="where the journals go")
    args = parser.parse_args(argv)
    total = 200 if args.quick else args.actions
    games = scripts(total)
    print(f"fleet bench: {total} actions in {len(games)} games of all five, played in each mode")
    print(table_value_cost())
    with tempfile.TemporaryDirectory(dir=args.dir) as temp:
        root = Path(temp)
        broker = Broker(root / "broker")
        broker.start()
        try:
            with watcher(broker, root / "shop"):
                with Journal(root / "off.sqlite3") as journal:
                    print(line("fleet off:", play(journal, games, None)))

                path = root / "up.sqlite3"
                with Journal(path) as journal:
                    journal.keep_outbox(100_000, topic="plays")
                    fleet = FleetPublisher(
                        broker.fleet_config(device_id="bench-up"), journal_path=path
                    )
                    fleet.start()
                    wait_until(lambda: fleet.connected, "the connection")
                    times = play(journal, games, fleet)
                    print(line("fleet on, broker up:", times))
                    wait_until(lambda: outbox_size(path)[0] == 0, "the outbox", DRAIN_TIMEOUT_S)
                    fleet.stop()

                outage(broker, root / "down-mixed.sqlite3", games, "all five games")
                short = scripts(total, ["builders"])
                outage(broker, root / "down-short.sqlite3", short, "short Builders games")
                if not args.quick:
                    many = scripts(0, ["builders"], finished=1000)
                    outage(broker, root / "down-1000.sqlite3", many, "1,000 finished games")
        finally:
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
