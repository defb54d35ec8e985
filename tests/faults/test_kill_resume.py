"""SIGKILL the referee at random moments in all five games; nothing acknowledged is lost.

For each game a real ``companion referee --data-dir D`` process plays moves chosen by
the random bot from an in-process reference game, and is killed after a random delay —
often between writing a request and reading its answer. After each kill the journal is
read back: the game must hold every acknowledged move, and at most the one in flight
besides, and equal the reference position after exactly those moves. At the end each
game's acknowledged moves are replayed by ``companion referee --no-journal`` and its
``dump`` must equal the journaled game's. The five games run side by side.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.journal import Journal
from companion.session import Session
from kiosk.storage import JOURNAL_FILE
from tests.faults.scale import PLAYERS, report, scaled

COMPANION = str(Path(sys.executable).with_name("companion"))


class Reference:
    """The same game played in memory: the moves to send and the position after each."""

    def __init__(self, game: str, seed: int) -> None:
        self.game, self.seed = game, seed
        self.session = Session.new(game, PLAYERS[game], seed=seed)
        self.bot = RandomBot(seed)
        self.actions: list[dict[str, Any]] = []
        self.dumps = [self._dump()]

    def _dump(self) -> dict[str, Any]:
        return self.session.rules.dump_position(self.session.state)

    def action(self, index: int) -> dict[str, Any] | None:
        """The move number ``index`` (0-based), played ahead as needed; None at the end."""
        while len(self.actions) <= index:
            if self.session.outcome is not None:
                return None
            action = self.bot.choose(self.session.rules, self.session.state)
            if action is None:
                return None
            self.session.submit(action)
            self.actions.append(self.session.rules.dump_action(action))
            self.dumps.append(self._dump())
        return self.actions[index]


@dataclass
class Tally:
    kills: int = 0
    acknowledged: int = 0
    in_flight_kept: int = 0
    games: int = 0
    problems: list[str] = field(default_factory=list)


def _request(proc: subprocess.Popen[bytes], request: dict[str, Any]) -> dict[str, Any] | None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(request).encode() + b"\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    return json.loads(line) if line else None


def _replay_without_journal(reference: Reference, moves: int) -> dict[str, Any]:
    lines = [{"cmd": "new", "game": reference.game, "players": PLAYERS[reference.game],
              "seed": reference.seed}]  # fmt: skip
    lines += [{"cmd": "act", "action": a} for a in reference.actions[:moves]]
    lines.append({"cmd": "dump"})
    proc = subprocess.run(
        [COMPANION, "referee", "--no-journal"],
        input="".join(json.dumps(x) + "\n" for x in lines),
        capture_output=True,
        text=True,
        timeout=300,
    )
    replies = [json.loads(x) for x in proc.stdout.splitlines()]
    assert all(r["ok"] for r in replies), [r for r in replies if not r["ok"]][:1]
    position: dict[str, Any] = replies[-1]["position"]
    return position


def kill_loop(game: str, kills: int, data_dir: Path, seed: int) -> Tally:
    """``kills`` rounds of start → resume → play → SIGKILL → check, in one game (and a
    new game whenever one ends)."""
    tally = Tally()
    chooser = random.Random(seed)
    stderr_path = data_dir / "stderr.txt"
    reference = Reference(game, seed)
    game_id: int | None = None
    acked_total = 0
    with open(stderr_path, "ab") as stderr:
        for _ in range(kills):
            proc = subprocess.Popen(
                [COMPANION, "referee", "--data-dir", str(data_dir)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
            )
            killer = threading.Timer(chooser.uniform(0.02, 0.35), proc.kill)
            acked = acked_total
            try:
                players, seed = PLAYERS[game], reference.seed
                opened = _request(
                    proc,
                    {"cmd": "new", "game": game, "players": players, "seed": seed}
                    if game_id is None
                    else {"cmd": "resume", "game_id": game_id},
                )
                assert opened is not None and opened["ok"], opened
                game_id = opened["game_id"]
                if opened["actions"] < acked_total:
                    tally.problems.append(f"{game}: resume lost acknowledged moves")
                acked = opened["actions"]
                killer.start()
                while (action := reference.action(acked)) is not None:
                    reply = _request(proc, {"cmd": "act", "action": action})
                    if reply is None:
                        break
                    if not reply["ok"]:
                        tally.problems.append(f"{game}: move {acked + 1} refused: {reply}")
                        break
                    acked += 1
            except (BrokenPipeError, ValueError):
                pass  # killed while writing, or in the middle of a reply line
            finally:
                killer.cancel()
                proc.kill()
                proc.wait(timeout=60)
                tally.kills += 1
            assert game_id is not None
            with Journal(data_dir / JOURNAL_FILE) as journal:
                resumed, damage = Session.view(journal, game_id)
            recovered = len(resumed.actions)
            if damage is not None or recovered not in (acked, acked + 1):
                tally.problems.append(f"{game}: acknowledged {acked}, journal has {recovered}")
                break
            if resumed.rules.dump_position(resumed.state) != reference.dumps[recovered]:
                tally.problems.append(f"{game}: position after {recovered} moves differs")
                break
            tally.in_flight_kept += recovered - acked
            tally.acknowledged += recovered - acked_total
            acked_total = recovered
            if resumed.outcome is not None:  # finished: check it, then a new game
                if _replay_without_journal(reference, recovered) != reference.dumps[recovered]:
                    tally.problems.append(f"{game}: --no-journal replay differs")
                tally.games += 1
                reference = Reference(game, chooser.randrange(1 << 31))
                game_id, acked_total = None, 0
    if game_id is not None and acked_total:
        if _replay_without_journal(reference, acked_total) != reference.dumps[acked_total]:
            tally.problems.append(f"{game}: --no-journal replay differs")
        tally.games += 1
    if b"Traceback" in stderr_path.read_bytes():
        tally.problems.append(f"{game}: a traceback on stderr")
    return tally


@pytest.mark.slow
def test_sigkill_in_all_five_games_loses_nothing_acknowledged(tmp_path: Path) -> None:
    per_game = scaled(4, 200)
    games = list(PLAYERS)
    for game in games:
        (tmp_path / game).mkdir()
    with ThreadPoolExecutor(max_workers=len(games)) as pool:
        tallies = list(
            pool.map(
                lambda item: kill_loop(item[1], per_game, tmp_path / item[1], seed=31 + item[0]),
                enumerate(games),
            )
        )
    problems = [p for t in tallies for p in t.problems]
    assert problems == []
    kills = sum(t.kills for t in tallies)
    acknowledged = sum(t.acknowledged for t in tallies)
    assert kills >= 100 or per_game < 20
    assert all(t.acknowledged > 0 for t in tallies), [t.acknowledged for t in tallies]
    report(
        "kill_resume",
        kills=kills,
        acknowledged=acknowledged,
        in_flight_kept=sum(t.in_flight_kept for t in tallies),
        games=sum(t.games for t in tallies),
        lost=0,
        tracebacks=0,
    )
