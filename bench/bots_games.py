"""The strength games of ``bench/bots.py``: node budgets, a results file, parallel jobs.

Each game's bots think to a **node budget** (``Budget(nodes=…)`` on a clock that never
moves), never to a time budget: a game's result does not depend on the machine or its
load, and the same seed gives the same game anywhere. The budgets stand for what a
level reaches on the Pi profile in its default time budget (``NODE_BUDGETS``; how they
were measured: docs/bots.md, "Measured").

Every finished game is one JSON line of the **results file** (game, pairing, index,
seats, node budgets, score, actions, seconds); its first line holds the settings that
decide a game's result (the node budgets, the longest game). A re-run with the same
settings plays only the games the file lacks, so a long run can be stopped and resumed;
a re-run with other settings is refused, naming what differs. The table is printed from
the file.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import signal
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TextIO

from companion.bots import Budget, Level, decide, make_bot
from companion.games import get_rules

GAMES = ("kolossus", "builders")
PAIRINGS: tuple[tuple[Level, Level], ...] = (
    ("medium", "easy"),
    ("hard", "medium"),
    ("hard", "easy"),
)
TARGETS: dict[tuple[Level, Level], float] = {
    ("medium", "easy"): 0.80,
    ("hard", "medium"): 0.65,
    ("hard", "easy"): 0.95,
}
"""The least win rate each pairing's stronger level should reach (docs/bots.md)."""

MAX_ACTIONS: dict[str, int] = {"kolossus": 6000, "builders": 300}
"""A game still going after this many actions counts as a draw (a Builders game ends in
tens of actions unless neither seat ever draws a card: then it would never end)."""
PLAYERS = ("Ann", "Bob")
FORMAT = 1

NODE_BUDGETS: dict[str, dict[Level, int]] = {
    "kolossus": {"medium": 26, "hard": 298},
    "builders": {"medium": 478, "hard": 464},
}
"""Nodes a decision may search in the strength games, per game and level (Easy picks
without searching). Each is the median, over the timing positions, of the nodes the
level reached on ``--pi-profile`` (slowdown 10) in its default time budget
(``bench/bots.py --timing-only --pi-profile`` prints it; these from its run of
2026-11-29 09:53 UTC, docs/bots.md "Measured")."""


def options_for(game: str, index: int) -> dict[str, Any]:
    """Game ``index``'s options: in Kolossus the Chapter turns 1, 1, 2, 2, 3, 3, …"""
    return {"chapter": 1 + (index // 2) % 3} if game == "kolossus" else {}


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def pairing_name(levels: tuple[Level, Level]) -> str:
    return f"{levels[0]} v {levels[1]}"


SHARED_CODE = (
    "bot.py",
    "bots/__init__.py",
    "bots/core.py",
    "bots/search.py",
    "dice.py",
    "rng.py",
    "rules.py",
)
"""What decides a strength game besides its settings, under companion/: the bots, the
dice and the random stream, and (``code_fingerprint``) the game's own bot and rules."""

COMPANION = Path(__file__).resolve().parents[1] / "companion"


def code_fingerprint(game: str, root: Path = COMPANION) -> str:
    """A digest of the Python sources a ``game``'s strength games run: results of other
    code are not pooled."""
    digest = hashlib.sha256()
    for name in (*SHARED_CODE, f"bots/{game}.py", f"games/{game}"):
        where = root / name
        for source in sorted(where.rglob("*.py")) if where.is_dir() else [where]:
            digest.update(source.relative_to(root).as_posix().encode() + b"\0")
            digest.update(source.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def fingerprints() -> dict[str, str]:
    return {game: code_fingerprint(game) for game in GAMES}


@dataclass(frozen=True)
class Settings:
    """What decides a strength game's result besides its seed: a results file holds
    games of one set of settings only."""

    nodes: dict[str, dict[Level, int]]
    max_actions: dict[str, int] = field(default_factory=lambda: dict(MAX_ACTIONS))
    code: dict[str, str] = field(default_factory=fingerprints)

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "nodes": self.nodes,
            "max_actions": self.max_actions,
            "code": self.code,
        }

    def differences(self, recorded: dict[str, Any]) -> list[str]:
        """What ``recorded`` (a results file's first line) sets otherwise, in words."""
        found = []
        if recorded.get("format") != FORMAT:
            found.append(f"format: the file's is {recorded.get('format')}, this bench's {FORMAT}")
        for game in GAMES:
            mine, theirs = self.nodes.get(game, {}), recorded.get("nodes", {}).get(game, {})
            for level in ("medium", "hard"):
                if mine.get(level) != theirs.get(level):
                    found.append(
                        f"{game} {level} nodes: the file has {theirs.get(level)}, "
                        f"this run {mine.get(level)}"
                    )
            longest = recorded.get("max_actions", {}).get(game)
            if self.max_actions.get(game) != longest:
                found.append(
                    f"{game} max_actions: the file has {longest}, "
                    f"this run {self.max_actions.get(game)}"
                )
            code = recorded.get("code", {}).get(game)
            if self.code.get(game) != code:
                found.append(
                    f"{game} code: the bots' or the rules' code is not the file's (fingerprint "
                    f"{code}, now {self.code.get(game)}: companion/{{{','.join(SHARED_CODE)}}}, "
                    f"bots/{game}.py, games/{game}/)"
                )
        return found


@dataclass(frozen=True)
class Task:
    """One strength game to play."""

    game: str
    levels: tuple[Level, Level]
    index: int

    @property
    def key(self) -> tuple[str, str, int]:
        return self.game, pairing_name(self.levels), self.index


def tasks(games: int, names: Sequence[str]) -> list[Task]:
    """Every game of the run, game index first: a run stopped early has played about
    as many games of each pairing."""
    return [
        Task(game, levels, index) for index in range(games) for game in names for levels in PAIRINGS
    ]


def _still() -> float:
    """A clock that never moves: only the node budget ends a search."""
    return 0.0


def play(task: Task, settings: Settings) -> dict[str, Any]:
    """One game, as its results-file line. Seed 1000 + index; the stronger level sits
    first in even games, second in odd ones; a draw (or a game longer than
    ``max_actions``) scores 0.5."""
    start = time.perf_counter()
    rules = get_rules(task.game)
    seed = 1000 + task.index
    strong_seat = task.index % 2
    seat_level = {strong_seat: task.levels[0], 1 - strong_seat: task.levels[1]}
    options = options_for(task.game, task.index)
    state = rules.setup(PLAYERS, rules.parse_options(options), seed)
    bots = {seat: make_bot(rules, seat_level[seat], seed * 10 + seat) for seat in (0, 1)}
    nodes = settings.nodes[task.game]
    actions = 0
    while rules.outcome(state) is None and actions < settings.max_actions[task.game]:
        seat = rules.current_player(state)
        assert seat is not None
        level = seat_level[seat]
        budget = Budget(math.inf, _still, nodes=nodes.get(level))
        state, _ = rules.apply(state, decide(bots[seat], rules, state, seat, budget).action)
        actions += 1
    outcome = rules.outcome(state)
    if outcome is None or not outcome.winners or len(outcome.winners) > 1:
        score = 0.5
    else:
        score = 1.0 if outcome.winners[0] == strong_seat else 0.0
    return {
        "game": task.game,
        "pairing": pairing_name(task.levels),
        "index": task.index,
        "seed": seed,
        **options,
        "seats": [seat_level[0], seat_level[1]],
        "nodes": {level: nodes[level] for level in task.levels if level in nodes},
        "score": score,
        "actions": actions,
        "seconds": round(time.perf_counter() - start, 3),
    }


class ResultsError(SystemExit):
    """A results file that cannot be continued: its message says why and what to do."""


def read_results(path: Path, settings: Settings, out: TextIO = sys.stdout) -> list[dict[str, Any]]:
    """The games ``path`` holds (none if it does not exist). Refuses a file of other
    settings or with a broken line; drops a last line cut off mid-write (the run was
    stopped while writing it: its game is played again)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    complete = lines[:-1]  # what follows the last newline was cut off, if anything
    if lines[-1]:
        print(f"{path}: its last line was cut off mid-write; that game is played again", file=out)
        path.write_text("".join(line + "\n" for line in complete), encoding="utf-8")
    if not complete:
        return []
    try:
        header = json.loads(complete[0])
        recorded = header["settings"]
    except (ValueError, KeyError, TypeError):
        raise ResultsError(
            f"{path}:1 is not a bench/bots.py results file (no settings line); "
            "give another --results file"
        ) from None
    differences = settings.differences(recorded)
    if differences:
        raise ResultsError(
            f"{path} holds games of other settings ({'; '.join(differences)}): "
            "resume it with the settings it was made with, or give another --results file"
        )
    found = []
    for number, line in enumerate(complete[1:], start=2):
        try:
            row = json.loads(line)
            row["game"], row["pairing"], row["index"], row["score"]
        except (ValueError, KeyError, TypeError):
            raise ResultsError(
                f"{path}:{number} is not a finished game's line ({line[:60]!r}); "
                "remove that line to play its game again"
            ) from None
        found.append(row)
    return found


def run(
    path: Path,
    settings: Settings,
    games: int,
    names: Sequence[str],
    jobs: int = 1,
    out: TextIO = sys.stdout,
) -> list[dict[str, Any]]:
    """Play the games of ``games`` per pairing that ``path`` lacks, appending each as
    it finishes (``jobs`` processes at a time); every game of the file. One run at a
    time writes a file: a second is refused."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as results:
        try:
            fcntl.flock(results, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ResultsError(
                f"{path}: another run is writing to it; wait for it, stop it, or give "
                "another --results file"
            ) from None
        done = read_results(path, settings, out)
        have = {(row["game"], row["pairing"], row["index"]) for row in done}
        todo = [task for task in tasks(games, names) if task.key not in have]
        total = len(tasks(games, names))
        print(
            f"strength: {total - len(todo)} of {total} games in {path}, {len(todo)} to play "
            f"({jobs} job{'s' if jobs != 1 else ''})",
            file=out,
            flush=True,
        )
        if not done and path.stat().st_size == 0:
            results.write(json.dumps({"settings": settings.as_json()}) + "\n")
            results.flush()
        for row in _results(todo, settings, jobs):
            results.write(json.dumps(row) + "\n")
            results.flush()
            done.append(row)
            print(progress_line(row, len(done), len(have) + len(todo)), file=out, flush=True)
    return done


def _results(todo: list[Task], settings: Settings, jobs: int) -> Iterator[dict[str, Any]]:
    """Each game's line as it finishes; with ``jobs`` > 1 from forked worker processes
    (they start with the bench's imports), which end with the run, however it ends:
    leaving the pool terminates them (a stop loses only the games in flight)."""
    if jobs <= 1:
        for task in todo:
            yield play(task, settings)
        return
    quiet = (signal.SIGTERM, signal.SIG_DFL)  # a worker ends silently when the pool does
    with get_context("fork").Pool(jobs, initializer=signal.signal, initargs=quiet) as pool:
        yield from pool.imap_unordered(partial(play, settings=settings), todo, chunksize=1)


def progress_line(row: dict[str, Any], done: int, total: int) -> str:
    return (
        f"  [{done}/{total}] {row['game']} {row['pairing']} #{row['index']}: "
        f"{row['score']:g} ({row['actions']} actions, {row['seconds']:.1f} s)"
    )


def table(rows: list[dict[str, Any]], games: int, names: Sequence[str]) -> list[dict[str, Any]]:
    """Each pairing's figures from the file's games of index below ``games``."""
    found = []
    for game in names:
        for levels in PAIRINGS:
            name = pairing_name(levels)
            mine = [
                row
                for row in rows
                if row["game"] == game and row["pairing"] == name and row["index"] < games
            ]
            if not mine:
                continue
            scores = [row["score"] for row in mine]
            lengths = [row["actions"] for row in mine]
            seconds = [row["seconds"] for row in mine]
            won = sum(scores)
            low, high = wilson(won, len(scores))
            target = TARGETS[levels]
            found.append(
                {
                    "game": game,
                    "pairing": name,
                    "games": len(scores),
                    "wins": sum(1 for s in scores if s == 1.0),
                    "draws": sum(1 for s in scores if s == 0.5),
                    "rate": won / len(scores),
                    "low": low,
                    "high": high,
                    "target": target,
                    "met": won / len(scores) >= target,
                    "confident": low >= target,
                    "actions": statistics.median(lengths),
                    "seconds": statistics.mean(seconds),
                }
            )
    return found


def table_lines(rows: list[dict[str, Any]]) -> list[str]:
    head = (
        f"{'game':9} {'pairing':15} {'games':>5} {'won/drawn':>9} {'rate':>6}  "
        f"{'95 % interval':16}  {'target':>6} {'met':>3} {'at 95 %':>7}  "
        f"{'actions':>7} {'s/game':>7}"
    )
    lines = [head]
    for row in rows:
        lines.append(
            f"{row['game']:9} {row['pairing']:15} {row['games']:5} "
            f"{row['wins']:5}/{row['draws']:<3} {row['rate']:6.1%}  "
            f"[{row['low']:5.1%}, {row['high']:5.1%}]  {row['target']:6.0%} "
            f"{'yes' if row['met'] else 'no':>3} {'yes' if row['confident'] else 'no':>7}  "
            f"{row['actions']:7.0f} {row['seconds']:7.1f}"
        )
    return lines
