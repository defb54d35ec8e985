"""Kill the referee process at random points; nothing acknowledged is ever lost.

A real ``companion referee`` process plays a game through its on-disk journal and is
SIGKILLed at a random moment, many times over (8 times in the suite, 100 in the bench's
long run: ``bench/bench_faults.py -k crash``). After each kill the game is resumed from
the journal and must equal the reference game after every acknowledged action (or one
more: the action in flight may have been committed just before the kill).
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.session import Session
from tests.faults.scale import report, scaled

SEED = 2024


def _reference_states(count: int) -> list[object]:
    session = Session.new("toy_pig", ["Ann", "Bob"], {"target": 100}, seed=SEED)
    states: list[object] = [session.state]
    for _ in range(count):
        session.submit({"type": "roll"})
        states.append(session.state)
    return states


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path: Path) -> None:
    kills = scaled(5, 100)
    reference = _reference_states(4000)
    # The real CLI entry point, with the test-only game registered first (as the
    # suite's conftest does, without importing pytest into every referee).
    command = [
        sys.executable,
        "-c",
        "import sys; from companion.games import GAME_MODULES;"
        " GAME_MODULES.setdefault('toy_pig', 'tests.toy_game');"
        " from kiosk.cli import main; sys.exit(main())",
    ]
    repo = Path(__file__).resolve().parents[2]
    chooser = random.Random(7)
    acked_total = 0
    game_id: int | None = None
    for round_no in range(kills):
        proc = subprocess.Popen(
            [*command, "--data-dir", str(tmp_path), "referee"],
            cwd=repo,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin is not None and proc.stdout is not None
        if game_id is None:
            first = {
                "cmd": "new",
                "game": "toy_pig",
                "players": ["Ann", "Bob"],
                "options": {"target": 100},
                "seed": SEED,
            }
        else:
            first = {"cmd": "resume", "game_id": game_id}
        proc.stdin.write(json.dumps(first).encode() + b"\n")
        proc.stdin.flush()
        opened = json.loads(proc.stdout.readline())
        assert opened["ok"], opened
        game_id = opened["game_id"]
        assert opened["actions"] >= acked_total, f"round {round_no}: acknowledged actions lost"

        killer = threading.Timer(chooser.uniform(0.01, 0.25), proc.send_signal, [signal.SIGKILL])
        killer.start()
        acked = opened["actions"]
        try:
            while acked < len(reference) - 2:
                proc.stdin.write(b'{"cmd":"act","action":{"type":"roll"}}\n')
                proc.stdin.flush()
                line = proc.stdout.readline()
                if not line:
                    break
                assert json.loads(line)["ok"]
                acked += 1
        except BrokenPipeError:
            pass
        finally:
            killer.cancel()
            proc.kill()
            proc.wait(timeout=30)

        with Journal(tmp_path / "journal.sqlite3") as journal:
            resumed, damage = Session.resume(journal, game_id)
        assert damage is None, damage
        recovered = len(resumed.actions)
        assert recovered in (acked, acked + 1), (round_no, acked, recovered)
        assert resumed.state == reference[recovered]
        acked_total = recovered
    assert acked_total > kills  # the game really advanced between kills
    report("crash_toy_pig", kills=kills, acknowledged=acked_total, lost=0)
