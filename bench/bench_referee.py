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

from companion.games import available_games, get_rules
from companion.journal import Journal
from companion.protocol import Referee
from companion.rng import Rng
from companion.session import Session


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def long_game(game: str, target: int, journal: Journal, avoid: frozenset[str]) -> Session:
    """A journaled game of up to ``target`` actions, chosen by a uniform random policy.

    Action types in ``avoid`` are never chosen while others exist: a Builders game in
    which nobody builds or trades never ends, so it can be made exactly ``target`` long.
    Other games end on their own; the longest of a few seeds is used.
    """
    rules = get_rules(game)
    players = ["Ann", "Bob", "Cleo", "Dov"][: max(rules.min_players, min(2, rules.max_players))]
    best: Session | None = None
    for seed in range(10):
        session = Session.new(rules, players, seed=seed, journal=journal)
        rng = Rng(seed=seed)
        while session.outcome is None and len(session.actions) < target:
            actions = list(rules.legal_actions(session.state))
            preferred = [a for a in actions if getattr(a, "type", "") not in avoid] or actions
            action, rng = rng.choice(preferred)
            session.submit(action)
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
        f"median {ms(statistics.median(samples))}, p99 {ms(percentile(samples, 0.99))}",
        flush=True,
    )


def bench_replay(
    directory: Path, game: str, target: int, avoid: frozenset[str] = frozenset()
) -> None:
    journal = Journal(directory / f"replay-{game}.sqlite3")
    session = long_game(game, target, journal, avoid)
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
    players = ["Ann", "Bob", "Cleo", "Dov"][: get_rules(game).min_players]
    referee.handle(json.dumps({"cmd": "new", "game": game, "players": players, "seed": 1}))
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
        if "builders" in games:  # the 2,000-action figure: nobody builds, nobody trades
            bench_replay(directory, "builders", args.actions, frozenset({"build", "trade"}))
        for game in games:  # every game's longest random game, per action
            bench_replay(directory, game, args.actions)
        for game in games:
            bench_protocol(game, args.requests)


if __name__ == "__main__":
    main()
