"""A full disk: every move answered ``ok`` survives, every ``journal_error`` left no trace.

The journal lives on a small tmpfs that is filled up while games are played through the
referee (as root; elsewhere the mount is not allowed and the test is skipped). Each game
plays on until the disk refuses several writes in a row; each refused move must leave
the live position unchanged, and after space is freed and the journal reopened, the
resumed game must hold exactly the acknowledged moves — none lost, no phantom — and
play on. Builders' ``correct_built`` to 10 Colossi, which ends the game (its finished
mark once went in a second transaction), is among the moves tried on the full disk.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.journal import Journal
from companion.protocol import Referee
from companion.session import Session
from tests.faults.scale import PLAYERS, report, scaled

REFUSALS_IN_A_ROW = 5


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs, unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill(folder: Path, leave: int) -> Path:
    """Write a filler file until the disk is full, then give back ``leave`` bytes."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def ask(referee: Referee, request: dict[str, Any]) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(referee.handle(json.dumps(request)))
    return reply


def play_until_full(referee: Referee, game: str, seed: int) -> tuple[list[Any], int]:
    """Bot moves until the disk refuses REFUSALS_IN_A_ROW in a row (or the game ends);
    the acknowledged moves and how many were refused."""
    bot = RandomBot(seed)
    acknowledged: list[Any] = []
    refused = in_a_row = 0
    special_tried = False
    while in_a_row < REFUSALS_IN_A_ROW:
        session = referee.session
        assert session is not None
        if game == "builders" and refused == 1 and not special_tried:
            special_tried = True
            action: Any = {"type": "correct_built", "player": 0, "colossi": 10}
        else:
            choice = bot.choose(session.rules, session.state)
            if choice is None:
                break
            action = session.rules.dump_action(choice)
        before = ask(referee, {"cmd": "dump"})
        reply = ask(referee, {"cmd": "act", "action": action})
        if reply["ok"]:
            acknowledged.append(action)
            in_a_row = 0
            continue
        if reply["error"]["code"] == "illegal_action" and action.get("type") == "correct_built":
            continue  # this position cannot take 10 Colossi: the rules said no, not the disk
        assert reply["error"]["code"] == "journal_error", reply
        assert "full" in reply["error"]["message"], reply
        assert ask(referee, {"cmd": "dump"}) == before, "a refused move changed the game"
        refused += 1
        in_a_row += 1
    return acknowledged, refused


def test_a_full_disk_loses_nothing_and_invents_nothing(small_disk: Path) -> None:
    rounds = scaled(1, 4)
    path = small_disk / "journal.sqlite3"
    acknowledged_total = refused_total = 0
    for round_no in range(rounds):
        for index, game in enumerate(PLAYERS):
            seed = 1000 * round_no + index
            journal = Journal(path)
            referee = Referee(journal, lambda: 1)
            new = ask(referee, {"cmd": "new", "game": game, "players": PLAYERS[game], "seed": seed})
            assert new["ok"], new
            filler = fill(small_disk, leave=160 * 1024)
            acknowledged, refused = play_until_full(referee, game, seed)
            journal.close()
            filler.unlink()  # space again
            with Journal(path) as reopened:
                resumed, damage = Session.resume(reopened, new["game_id"])
                assert damage is None, damage
                recorded = [resumed.rules.dump_action(a) for a in resumed.actions]
                assert recorded == acknowledged, f"{game}: journal ≠ acknowledged moves"
                if resumed.outcome is None:
                    follow = RandomBot(seed).choose(resumed.rules, resumed.state)
                    if follow is not None:
                        resumed.submit(follow)  # and the game goes on
            acknowledged_total += len(acknowledged)
            refused_total += refused
            path.unlink()
            for leftover in small_disk.glob("journal.sqlite3*"):
                if leftover.is_file():
                    leftover.unlink()
    assert refused_total > 0  # the disk really was full
    report(
        "full_disk",
        actions=acknowledged_total,
        refused=refused_total,
        lost=0,
        phantom=0,
    )


def test_new_on_a_full_disk_answers_journal_error_and_leaves_nothing(small_disk: Path) -> None:
    """``new`` on a disk filled to different depths: each answer is ``ok`` (the game and
    its lock exist) or ``journal_error`` saying the storage is full, with no game row
    and no lock file left behind — never ``internal_error`` (the lock file's write once
    raised a bare OSError)."""
    path = small_disk / "journal.sqlite3"
    answers: dict[str, int] = {}
    for cycle, leave in enumerate((0, 64, 512, 1024, 2048, 4096, 8192, 16384)):
        journal = Journal(path)
        referee = Referee(journal, lambda: 1)
        before = [g.game_id for g in journal.games()]
        filler = fill(small_disk, leave=leave)
        reply = ask(referee, {"cmd": "new", "game": "toy_pig", "players": ["Ann"], "seed": cycle})
        filler.unlink()
        after = [g.game_id for g in journal.games()]
        locks = {p.name for p in small_disk.glob("journal.sqlite3.locks/*.lock")}
        if reply["ok"]:
            assert after == [reply["game_id"], *before]
        else:
            assert reply["error"]["code"] == "journal_error", reply
            assert "full" in reply["error"]["message"], reply
            assert after == before and referee.session is None
        assert locks <= {f"game-{g}.lock" for g in after}, locks
        code = "ok" if reply["ok"] else reply["error"]["code"]
        answers[code] = answers.get(code, 0) + 1
        journal.close()
    assert "journal_error" in answers, answers  # the disk really was full at least once
