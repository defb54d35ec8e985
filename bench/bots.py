"""How strong the bots are and how long they think (Kolossus, Builders).

    .venv/bin/python bench/bots.py [--games 200] [--game kolossus|builders] [--jobs 1]
                                   [--results bench/results/bots-strength.jsonl]
                                   [--nodes GAME:LEVEL=N …] [--timing 40] [--hard-ms 500]
                                   [--strength-only | --timing-only]
                                   [--pi-profile [--pi-slowdown 10]] [--json]

**Strength** (``bench/bots_games.py``): for each game and each pairing (Medium v Easy,
Hard v Medium, Hard v Easy), ``--games`` two-player games with fixed seeds (game *i*
has seed 1000 + *i*), the seats rotated (the stronger bot sits first in even games,
second in odd ones) and, in Kolossus, the Chapter rotated too (1, 1, 2, 2, 3, 3, …).
Medium and Hard think to a **node budget** (``--nodes``; the defaults stand for what
each reaches on the Pi profile in its default time budget), so a game's result is the
same on any machine under any load. ``--jobs N`` plays N games at a time in worker
processes. Every finished game is a line of the ``--results`` file; a re-run with the
same settings plays only what the file lacks (stop it at any time, run the same command
to go on), and other settings are refused. The table comes from the file: the win
rate counts a draw as half a win and is printed with its 95 % Wilson interval, whether
it meets its target and whether the interval's lower bound does.

**Decision time:** ``--timing`` positions per game, taken from Easy-v-Easy games with
fixed seeds (positions with a single legal action are skipped: no bot thinks there),
each decided by every level with its default time budget (Hard ``--hard-ms``); median,
p95 and max of the wall time, and the median of the nodes a searching level's decision reaches in
its budget (when it finishes first, its nodes scaled to the whole budget; Easy does not
search). ``--pi-profile``
repeats the timing in a child process pinned to one core under a CPU quota
(``bench/pi_profile.py``; ``--pi-slowdown 10`` ≈ a Pi Zero 2 W, this bench's default)
and prints both: its node medians are where ``--nodes``' defaults come from.

Targets (docs/bots.md): Medium beats Easy ≥ 80 %, Hard beats Medium ≥ 65 % and Easy
≥ 95 %; Hard ≤ 1 s p95 on the Pi profile, Medium ≤ 0.1 s. Prints figures; asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench_referee import percentile
from bots_games import (
    GAMES,
    MAX_ACTIONS,
    NODE_BUDGETS,
    PLAYERS,
    Settings,
    options_for,
    run,
    table,
    table_lines,
)
from pi_profile import add_arguments, pi_profile

from companion.bot import RandomBot
from companion.bots import DEFAULT_BUDGET_SECONDS, LEVELS, Budget, Level, decide, make_bot
from companion.games import get_rules
from companion.rules import AnyRules

RESULTS = Path(__file__).resolve().parent / "results" / "bots-strength.jsonl"
"""The committed results file: a run stopped in one session goes on in the next."""


def positions(rules: AnyRules, game: str, count: int) -> list[Any]:
    """``count`` positions with a choice to make, from Easy-v-Easy games (fixed seeds)."""
    found: list[Any] = []
    index = 0
    while len(found) < count:
        state = rules.setup(PLAYERS, rules.parse_options(options_for(game, index)), 500 + index)
        walker = RandomBot(seed=index)
        step = 0
        while rules.outcome(state) is None and len(found) < count:
            action = walker.choose(rules, state)
            if action is None:  # no legal action: the game is over
                break
            if step % 7 == 3 and len(list(rules.legal_actions(state))) > 1:
                found.append(state)
            state, _ = rules.apply(state, action)
            step += 1
        index += 1
    return found


def reach(nodes: int, elapsed: float, budget: float) -> float:
    """The nodes a decision reaches in its whole budget: those it searched when the
    budget cut it off, else (it finished first) its nodes scaled to the budget."""
    if elapsed >= budget or elapsed <= 0:
        return float(nodes)
    return nodes * budget / elapsed


def timing(count: int, names: Sequence[str], hard_seconds: float) -> list[dict[str, Any]]:
    budgets: dict[Level, float] = {**DEFAULT_BUDGET_SECONDS, "hard": hard_seconds}
    rows = []
    for game in names:
        rules = get_rules(game)
        states = positions(rules, game, count)
        for level in LEVELS:
            samples, reached = [], []
            for number, state in enumerate(states):
                seat = rules.current_player(state)
                assert seat is not None
                bot = make_bot(rules, level, number)
                budget = Budget(budgets[level], time.perf_counter)
                start = time.perf_counter()
                nodes = decide(bot, rules, state, seat, budget).nodes
                elapsed = time.perf_counter() - start
                samples.append(elapsed)
                reached.append(reach(nodes, elapsed, budgets[level]))
            rows.append(
                {
                    "game": game,
                    "level": level,
                    "budget": budgets[level],
                    "decisions": len(samples),
                    "median": statistics.median(samples),
                    "p95": percentile(samples, 0.95),
                    "max": max(samples),
                    "nodes": round(statistics.median(reached)) if level != "easy" else 0,
                }
            )
    return rows


def timing_table(rows: list[dict[str, Any]], pinned: list[dict[str, Any]] | None) -> None:
    theirs = {(r["game"], r["level"]): r for r in pinned or []}
    head = (
        f"{'game':9} {'level':7} {'budget':>7} {'n':>4} {'median':>9} {'p95':>9} {'max':>9}"
        f" {'nodes':>6}"
    )
    print(head + ("   pi-profile: median / p95 / max, nodes" if pinned else ""))
    for row in rows:
        line = (
            f"{row['game']:9} {row['level']:7} {row['budget'] * 1000:5.0f}ms {row['decisions']:4} "
            f"{row['median'] * 1000:7.1f}ms {row['p95'] * 1000:7.1f}ms {row['max'] * 1000:7.1f}ms"
            f" {row['nodes'] or '-':>6}"
        )
        other = theirs.get((row["game"], row["level"]))
        if other is not None:
            line += (
                f"   {other['median'] * 1000:7.1f} / {other['p95'] * 1000:7.1f} / "
                f"{other['max'] * 1000:7.1f} ms, {other['nodes'] or '-':>6}"
            )
        print(line)


def node_budgets(given: Sequence[str]) -> dict[str, dict[Level, int]]:
    """``NODE_BUDGETS`` with each ``GAME:LEVEL=N`` of ``--nodes`` put in."""
    budgets = {game: dict(levels) for game, levels in NODE_BUDGETS.items()}
    for text in given:
        try:
            where, count = text.split("=")
            game, level = where.split(":")
            nodes = int(count)
        except ValueError:
            raise SystemExit(
                f"--nodes {text!r}: write GAME:LEVEL=N, e.g. kolossus:hard=400"
            ) from None
        searching: dict[str, Level] = {"medium": "medium", "hard": "hard"}
        if game not in budgets or level not in searching or nodes < 1:
            raise SystemExit(
                f"--nodes {text!r}: the game is one of {', '.join(GAMES)}, the level medium "
                "or hard, the count at least 1"
            )
        budgets[game][searching[level]] = nodes
    return budgets


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(f"stopped by signal {signum}: run the same command to go on")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing and game")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game")
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time (processes)")
    parser.add_argument(
        "--results",
        type=Path,
        default=RESULTS,
        help="the results file (default bench/results/bots-strength.jsonl, committed)",
    )
    parser.add_argument(
        "--nodes",
        action="append",
        default=[],
        metavar="GAME:LEVEL=N",
        help="a level's node budget in the strength games (defaults: the Pi profile's)",
    )
    parser.add_argument(
        "--max-actions",
        type=int,
        help="a longer game is a draw (default: Kolossus 6000, Builders 300)",
    )
    parser.add_argument("--timing", type=int, default=40, help="timed positions per game")
    parser.add_argument("--hard-ms", type=float, default=500, help="Hard's budget when timed")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--timing-only", action="store_true", help="no strength games")
    only.add_argument("--strength-only", action="store_true", help="no decision times")
    parser.add_argument("--json", action="store_true", help="timing rows as JSON (child)")
    add_arguments(parser)
    parser.set_defaults(pi_slowdown=10.0)  # a Pi Zero 2 W
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)  # a stopped run ends its worker processes too
    names = tuple(args.game or GAMES)
    if args.json:
        print(json.dumps(timing(args.timing, names, args.hard_ms / 1000)))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench/bots.py on {time.strftime('%Y-%m-%d %H:%M')} (load average {load:.1f})")
    if not args.timing_only:
        longest = {game: args.max_actions or MAX_ACTIONS[game] for game in GAMES}
        settings = Settings(node_budgets(args.nodes), longest)
        print(f"strength games, node budgets: {json.dumps(settings.nodes)}")
        rows = run(args.results, settings, args.games, names, max(1, args.jobs))
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"strength from {args.results} ({time.strftime('%H:%M')}, load {load:.1f}):")
        print("\n".join(table_lines(table(rows, args.games, names))))
    if args.strength_only:
        return
    rows = timing(args.timing, names, args.hard_ms / 1000)
    pinned = None
    if args.pi_profile:
        with pi_profile(args.pi_slowdown) as profile:
            child = [sys.executable, __file__, "--json", "--timing", str(args.timing)]
            child += ["--hard-ms", str(args.hard_ms)]
            for name in names:
                child += ["--game", name]
            done = subprocess.run(
                child, capture_output=True, text=True, check=False, preexec_fn=profile.preexec
            )
            if done.returncode != 0:
                raise SystemExit(f"the pinned run failed:\n{done.stderr[-3000:]}")
            pinned = json.loads(done.stdout.splitlines()[-1])
            print(f"--pi-profile (slowdown {args.pi_slowdown:g}): {profile.describe()}")
            print(f"  {profile.report()}")
            for note in profile.notes:
                print(f"  note: {note}")
    print("decision time (wall) and nodes reached (median):")
    timing_table(rows, pinned)


if __name__ == "__main__":
    main()
