"""Referee core figures: journal append+commit, replay of a long game, protocol round trip.

Prints figures; asserts nothing. Targets on the development machine: append+commit
median < 5 ms; replay of a 2,000-action game < 0.3 s; protocol request median < 1 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from companion.bot import RandomBot
from companion.games import available_games
from companion.journal import Journal
from companion.protocol import Referee
from companion.session import Session


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def long_game(game: str, target: int, journal: Journal) -> Session:
    """A journaled game of ``target`` actions: random games chained until one is that long.

    Each game is played by the random bot; if it ends early, the journal keeps it and
    another game is started, until one game reaches ``target`` actions or the seeds run
    out (the longest is then used, and its length printed).
    """
    best: Session | None = None
    for seed in range(200):
        session = Session.new(game, ["Ann", "Bob", "Cleo", "Dov"][:2], seed=seed, journal=journal)
        bot = RandomBot(seed)
        while session.outcome is None and len(session.actions) < target:
            session.submit(bot.choose(session.rules, session.state))
        if best is None or len(session.actions) > len(best.actions):
            best = session
        if len(best.actions) >= target:
            break
    assert best is not None
    return best


def bench_append(directory: Path, count: int) -> None:
    journal = Journal(directory / "append.sqlite3")
    game_id = journal.create_game("bench", ("A",), {}, 1)
    samples = []
    payload = json.dumps({"type": "roll", "values": [3, 4, 1], "source": "electronic"})
    for _ in range(count):
        start = time.perf_counter()
        journal.append(game_id, "act", payload)
        samples.append(time.perf_counter() - start)
    journal.close()
    print(
        f"journal append+commit (disk, synchronous=FULL), {count} actions: "
        f"median {ms(statistics.median(samples))}, p99 {ms(percentile(samples, 0.99))}"
    )


def bench_replay(directory: Path, game: str, target: int) -> None:
    journal = Journal(directory / f"replay-{game}.sqlite3")
    session = long_game(game, target, journal)
    assert session.game_id is not None
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        resumed, damage = Session.resume(journal, session.game_id)
        runs.append(time.perf_counter() - start)
        assert damage is None and resumed.state == session.state
    length = len(session.actions)
    best = min(runs)
    print(
        f"replay of a {length}-action {game} game: best {best:.3f} s, "
        f"median {statistics.median(runs):.3f} s "
        f"({best / max(length, 1) * 1e6:.0f} µs per action)"
    )


def bench_protocol(game: str, count: int) -> None:
    referee = Referee(None, lambda: 1)
    referee.handle(json.dumps({"cmd": "new", "game": game, "players": ["Ann", "Bob"], "seed": 1}))
    for cmd in ("state", "legal", "dump"):
        line = json.dumps({"cmd": cmd})
        samples = []
        for _ in range(count):
            start = time.perf_counter()
            referee.handle(line)
            samples.append(time.perf_counter() - start)
        print(
            f"protocol {cmd!r} round trip ({game}): median {ms(statistics.median(samples))}, "
            f"p99 {ms(percentile(samples, 0.99))}"
        )
    # act + undo pairs: the full path through rules and session (no journal: its
    # commit is measured above).
    session = referee.session
    assert session is not None
    action = session.rules.dump_action(next(iter(session.rules.legal_actions(session.state))))
    act, undo = json.dumps({"cmd": "act", "action": action}), json.dumps({"cmd": "undo"})
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        referee.handle(act)
        samples.append(time.perf_counter() - start)
        referee.handle(undo)
    print(
        f"protocol 'act' round trip ({game}, no journal): "
        f"median {ms(statistics.median(samples))}, p99 {ms(percentile(samples, 0.99))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--dir", type=Path, default=None, help="where the journals go")
    args = parser.parse_args()
    games = available_games()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        bench_append(directory, 500)
        for game in games:
            bench_replay(directory, game, args.actions)
        for game in games:
            bench_protocol(game, args.requests)


if __name__ == "__main__":
    main()
