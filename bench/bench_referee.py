"""Referee core figures: journal append+commit, replay of a long game, protocol round trip.

    .venv/bin/python bench/bench_referee.py [--actions 2000] [--requests 2000] [--dir DIR]
                                            [--quick] [--json] [--pi-profile [--pi-slowdown 5]]

Prints figures; asserts nothing. Targets on the development machine: append+commit
median < 5 ms; replay of a 2,000-action game < 0.3 s; protocol request median < 1 ms.
``--quick`` runs fewer of each (a few seconds here; for ``companion support-bundle
--bench``). ``--pi-profile`` runs the whole bench again in a child process pinned to one
core and, where a cgroup allows it, under a CPU quota (``bench/pi_profile.py``), and
prints its figures beside these: the times here are wall times, which a quota stretches.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pi_profile import PiProfile, add_arguments, pi_profile

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


@dataclass(frozen=True)
class Figure:
    """One printed line: its key (to pair runs), its text and the figure compared."""

    key: str
    text: str
    value: float  # seconds: the median (or the best replay)


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


def bench_append(directory: Path, count: int) -> list[Figure]:
    journal = Journal(directory / "append.sqlite3")
    game_id = journal.create_game("bench", ("A",), {}, 1)
    samples = []
    payload = json.dumps({"type": "roll", "values": [3, 4, 1], "source": "electronic"})
    for _ in range(count):
        start = time.perf_counter()
        journal.append(game_id, "act", payload)
        samples.append(time.perf_counter() - start)
    journal.close()
    median = statistics.median(samples)
    text = (
        f"journal append+commit (disk, synchronous=FULL), {count} actions: "
        f"median {ms(median)}, p99 {ms(percentile(samples, 0.99))}"
    )
    return [Figure("append", text, median)]


def bench_replay(
    directory: Path, game: str, target: int, avoid: frozenset[str] = frozenset()
) -> list[Figure]:
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
    text = (
        f"replay of a {length}-action {game} game: best {best:.3f} s, "
        f"median {statistics.median(runs):.3f} s "
        f"({best / max(length, 1) * 1e6:.0f} µs per action)"
    )
    return [Figure(f"replay {game} {'long' if avoid else 'random'}", text, best)]


def bench_protocol(game: str, count: int) -> list[Figure]:
    figures = []
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
        median = statistics.median(samples)
        text = (
            f"protocol {cmd!r} round trip ({game}): median {ms(median)}, "
            f"p99 {ms(percentile(samples, 0.99))}"
        )
        figures.append(Figure(f"protocol {cmd} {game}", text, median))
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
    median = statistics.median(samples)
    text = (
        f"protocol 'act' round trip ({game}, no journal): "
        f"median {ms(median)}, p99 {ms(percentile(samples, 0.99))}"
    )
    figures.append(Figure(f"protocol act {game}", text, median))
    return figures


def run_benches(
    actions: int, requests: int, appends: int, folder: Path | None, *, echo: bool
) -> list[Figure]:
    """Every figure, in order (printed as they come when ``echo``)."""
    figures: list[Figure] = []

    def add(found: list[Figure]) -> None:
        figures.extend(found)
        if echo:
            for figure in found:
                print(figure.text, flush=True)

    games = available_games()
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        directory = Path(tmp)
        add(bench_append(directory, appends))
        if "builders" in games:  # the long-game figure: nobody builds, nobody trades
            add(bench_replay(directory, "builders", actions, frozenset({"build", "trade"})))
        for game in games:  # every game's longest random game, per action
            add(bench_replay(directory, game, actions))
        for game in games:
            add(bench_protocol(game, requests))
    return figures


def run_pinned(argv: Sequence[str], profile: PiProfile) -> list[Figure]:
    """The same bench in a child process under ``profile``; its figures."""
    done = subprocess.run(
        [sys.executable, __file__, *argv, "--json"],
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=profile.preexec,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the pinned run failed:\n{done.stderr[-3000:]}")
    rows = json.loads(done.stdout.splitlines()[-1])
    return [Figure(row["key"], row["text"], row["value"]) for row in rows]


def print_beside(
    plain: list[Figure], pinned: list[Figure], profile: PiProfile, report: str
) -> None:
    print()
    print(f"--pi-profile: {profile.describe()}")
    print(f"  {report}")
    for note in profile.notes:
        print(f"  note: {note}")
    theirs = {figure.key: figure for figure in pinned}
    for figure in plain:
        other = theirs.get(figure.key)
        if other is None:
            continue
        ratio = other.value / figure.value if figure.value > 0 else float("nan")
        print(f"{figure.key:32} {ms(figure.value):>12} → {ms(other.value):>12}  ×{ratio:.1f}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--actions", type=int, default=None, help="long game (2000; quick 300)")
    parser.add_argument("--requests", type=int, default=None, help="per command (2000; quick 200)")
    parser.add_argument("--dir", type=Path, default=None, help="where the journals go")
    parser.add_argument("--quick", action="store_true", help="fewer of each: a few seconds")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    add_arguments(parser)
    args = parser.parse_args(argv)
    actions = args.actions if args.actions is not None else (300 if args.quick else 2000)
    requests = args.requests if args.requests is not None else (200 if args.quick else 2000)
    appends = 100 if args.quick else 500
    figures = run_benches(actions, requests, appends, args.dir, echo=not args.json)
    if args.json:
        print(json.dumps([vars(figure) for figure in figures]))
        return
    if args.pi_profile:
        child = ["--actions", str(actions), "--requests", str(requests)]
        if args.quick:
            child.append("--quick")
        if args.dir is not None:
            child += ["--dir", str(args.dir)]
        with pi_profile(args.pi_slowdown) as profile:
            pinned = run_pinned(child, profile)
            report = profile.report()
        print_beside(figures, pinned, profile, report)


if __name__ == "__main__":
    main()
