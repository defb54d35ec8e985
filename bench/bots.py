"""How strong the bots are and how long they think (Kolossus, Builders).

    .venv/bin/python bench/bots.py [--games 20] [--game kolossus|builders] [--timing 40]
                                   [--hard-ms 500] [--strength-hard-ms 200]
                                   [--pi-profile [--pi-slowdown 10]] [--json]

**Strength:** for each game and each pairing (Medium v Easy, Hard v Medium, Hard v
Easy), ``--games`` two-player games with fixed seeds (game *i* has seed 1000 + *i*),
the seats rotated (the stronger bot sits first in even games, second in odd ones) and,
in Kolossus, the Chapter rotated too (1, 1, 2, 2, 3, 3, …). The win rate counts a draw
as half a win and is printed with its 95 % Wilson interval. Hard plays these games with
``--strength-hard-ms`` per decision (less than its table budget, to fit the bench on a
shared machine: the figure says so).

**Decision time:** ``--timing`` positions per game, taken from Easy-v-Easy games with
fixed seeds (positions with a single legal action are skipped: no bot thinks there),
each decided by every level with its table budget (Easy and Medium as in docs/bots.md,
Hard ``--hard-ms``); median, p95 and max of the wall time. ``--pi-profile`` repeats the
timing in a child process pinned to one core under a CPU quota (``bench/pi_profile.py``;
``--pi-slowdown 10`` ≈ a Pi Zero 2 W, this bench's default) and prints both.

Targets (docs/bots.md): Medium beats Easy ≥ 80 %, Hard beats Medium ≥ 65 % and Easy
≥ 95 %; Hard ≤ 1 s p95 on the Pi profile, Medium ≤ 0.1 s. Prints figures; asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench_referee import percentile
from pi_profile import add_arguments, pi_profile

from companion.bot import RandomBot
from companion.bots import DEFAULT_BUDGET_SECONDS, LEVELS, Budget, Level, decide, make_bot
from companion.games import get_rules
from companion.rules import AnyRules

GAMES = ("kolossus", "builders")
PAIRINGS: tuple[tuple[Level, Level], ...] = (
    ("medium", "easy"),
    ("hard", "medium"),
    ("hard", "easy"),
)
MAX_ACTIONS = 6000  # a game still going after this many actions counts as a draw
PLAYERS = ("Ann", "Bob")


def options_for(game: str, index: int) -> dict[str, Any]:
    return {"chapter": 1 + (index // 2) % 3} if game == "kolossus" else {}


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(
    rules: AnyRules,
    game: str,
    index: int,
    levels: tuple[Level, Level],
    budgets: dict[Level, float],
) -> tuple[float, int]:
    """One game; the first level's score (1 win, 0.5 draw, 0 loss) and its length."""
    seed = 1000 + index
    strong_seat = index % 2
    seat_level = {strong_seat: levels[0], 1 - strong_seat: levels[1]}
    state = rules.setup(PLAYERS, rules.parse_options(options_for(game, index)), seed)
    bots = {seat: make_bot(rules, seat_level[seat], seed * 10 + seat) for seat in (0, 1)}
    actions = 0
    while rules.outcome(state) is None and actions < MAX_ACTIONS:
        seat = rules.current_player(state)
        assert seat is not None
        budget = Budget(budgets[seat_level[seat]], time.perf_counter)
        state, _ = rules.apply(state, decide(bots[seat], rules, state, seat, budget).action)
        actions += 1
    outcome = rules.outcome(state)
    if outcome is None or not outcome.winners or len(outcome.winners) > 1:
        return 0.5, actions
    return (1.0 if outcome.winners[0] == strong_seat else 0.0), actions


def strength(games: int, names: Sequence[str], hard_seconds: float) -> list[dict[str, Any]]:
    budgets: dict[Level, float] = {**DEFAULT_BUDGET_SECONDS, "hard": hard_seconds}
    rows = []
    for game in names:
        rules = get_rules(game)
        for levels in PAIRINGS:
            start = time.perf_counter()
            scores, lengths = [], []
            for index in range(games):
                score, length = play(rules, game, index, levels, budgets)
                scores.append(score)
                lengths.append(length)
            won = sum(scores)
            low, high = wilson(won, games)
            row = {
                "game": game,
                "pairing": f"{levels[0]} v {levels[1]}",
                "games": games,
                "wins": sum(1 for s in scores if s == 1.0),
                "draws": sum(1 for s in scores if s == 0.5),
                "rate": won / games,
                "low": low,
                "high": high,
                "actions": statistics.median(lengths),
                "seconds": time.perf_counter() - start,
            }
            rows.append(row)
            print(strength_line(row), flush=True)
    return rows


def strength_line(row: dict[str, Any]) -> str:
    return (
        f"{row['game']:9} {row['pairing']:15} {row['games']:5} "
        f"{row['wins']:4}/{row['draws']:<3} {row['rate']:6.1%}  "
        f"[{row['low']:5.1%}, {row['high']:5.1%}]  {row['actions']:7.0f}  {row['seconds']:6.0f} s"
    )


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


def timing(count: int, names: Sequence[str], hard_seconds: float) -> list[dict[str, Any]]:
    budgets: dict[Level, float] = {**DEFAULT_BUDGET_SECONDS, "hard": hard_seconds}
    rows = []
    for game in names:
        rules = get_rules(game)
        states = positions(rules, game, count)
        for level in LEVELS:
            samples = []
            for number, state in enumerate(states):
                seat = rules.current_player(state)
                assert seat is not None
                bot = make_bot(rules, level, number)
                budget = Budget(budgets[level], time.perf_counter)
                start = time.perf_counter()
                decide(bot, rules, state, seat, budget)
                samples.append(time.perf_counter() - start)
            rows.append(
                {
                    "game": game,
                    "level": level,
                    "budget": budgets[level],
                    "decisions": len(samples),
                    "median": statistics.median(samples),
                    "p95": percentile(samples, 0.95),
                    "max": max(samples),
                }
            )
    return rows


def timing_table(rows: list[dict[str, Any]], pinned: list[dict[str, Any]] | None) -> None:
    theirs = {(r["game"], r["level"]): r for r in pinned or []}
    head = f"{'game':9} {'level':7} {'budget':>7} {'n':>4} {'median':>9} {'p95':>9} {'max':>9}"
    print(head + ("   pi-profile: median / p95 / max" if pinned else ""))
    for row in rows:
        line = (
            f"{row['game']:9} {row['level']:7} {row['budget'] * 1000:5.0f}ms {row['decisions']:4} "
            f"{row['median'] * 1000:7.1f}ms {row['p95'] * 1000:7.1f}ms {row['max'] * 1000:7.1f}ms"
        )
        other = theirs.get((row["game"], row["level"]))
        if other is not None:
            line += (
                f"   {other['median'] * 1000:7.1f} / {other['p95'] * 1000:7.1f} / "
                f"{other['max'] * 1000:7.1f} ms"
            )
        print(line)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing and game")
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game")
    parser.add_argument("--timing", type=int, default=40, help="timed positions per game")
    parser.add_argument("--hard-ms", type=float, default=500, help="Hard's budget when timed")
    parser.add_argument(
        "--strength-hard-ms", type=float, default=200, help="Hard's budget in the games"
    )
    parser.add_argument("--timing-only", action="store_true", help="no strength games")
    parser.add_argument("--json", action="store_true", help="timing rows as JSON (child)")
    add_arguments(parser)
    parser.set_defaults(pi_slowdown=10.0)  # a Pi Zero 2 W
    args = parser.parse_args(argv)
    names = tuple(args.game or GAMES)
    if args.json:
        print(json.dumps(timing(args.timing, names, args.hard_ms / 1000)))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"bench/bots.py on {time.strftime('%Y-%m-%d %H:%M')} (load average {load:.1f})")
    if not args.timing_only:
        print(f"strength (Hard at {args.strength_hard_ms:g} ms a decision):")
        print(
            f"{'game':9} {'pairing':15} {'games':>5} {'won/drawn':>8} {'rate':>6}  "
            f"{'95 % interval':16}  {'actions':>7}  {'time':>8}"
        )
        strength(args.games, names, args.strength_hard_ms / 1000)
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
    print("decision time (wall):")
    timing_table(rows, pinned)


if __name__ == "__main__":
    main()
