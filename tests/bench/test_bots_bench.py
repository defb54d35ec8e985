"""bench/bots.py's strength games: node budgets make a game the same anywhere, a
stopped run resumes to the table an unstopped one prints, and a results file of other
settings is refused.

Tiny games (a few nodes a decision, 16 actions a game), so nothing here measures
strength or time.
"""

from __future__ import annotations

import fcntl
import io
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

from bots_games import (  # noqa: E402
    GAMES,
    ResultsError,
    Settings,
    Task,
    play,
    read_results,
    run,
    table,
    table_lines,
)

TINY = Settings(
    {"kolossus": {"medium": 3, "hard": 5}, "builders": {"medium": 3, "hard": 5}},
    max_actions={"kolossus": 16, "builders": 16},
)
GAMES_PER_PAIRING = 2


def games_of(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows without their wall time, in a fixed order."""
    kept = [{k: v for k, v in row.items() if k != "seconds"} for row in rows]
    return sorted(kept, key=lambda row: (row["game"], row["pairing"], row["index"]))


def figures(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A table's rows without the wall time a game took."""
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


def quiet() -> io.StringIO:
    return io.StringIO()


def test_a_game_on_node_budgets_is_the_same_game_every_time() -> None:
    task = Task("kolossus", ("hard", "medium"), 3)
    first, second = play(task, TINY), play(task, TINY)
    assert games_of([first]) == games_of([second])
    assert first["seats"] == ["medium", "hard"]  # odd game: the stronger level second
    assert first["nodes"] == {"hard": 5, "medium": 3}
    assert first["chapter"] == 2 and first["seed"] == 1003


def test_a_stopped_run_resumed_gives_the_table_of_an_unstopped_one(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    unstopped = run(whole, TINY, GAMES_PER_PAIRING, GAMES, jobs=2, out=quiet())

    part = tmp_path / "part.jsonl"
    run(part, TINY, 1, GAMES, out=quiet())  # stopped after the first game of each pairing
    with part.open("a", encoding="utf-8") as results:
        results.write('{"game": "kolossus", "pairing": "hard v')  # stopped mid-write
    said = quiet()
    resumed = run(part, TINY, GAMES_PER_PAIRING, GAMES, out=said)

    assert "cut off mid-write" in said.getvalue()
    assert "6 of 12 games" in said.getvalue()  # the first six were not played again
    from_file = read_results(part, TINY)
    assert games_of(from_file) == games_of(resumed) == games_of(unstopped)
    expected = figures(table(unstopped, GAMES_PER_PAIRING, GAMES))
    assert figures(table(from_file, GAMES_PER_PAIRING, GAMES)) == expected
    assert len(expected) == len(GAMES) * 3
    assert len(table_lines(table(from_file, GAMES_PER_PAIRING, GAMES))) == 1 + len(expected)

    again = quiet()  # nothing left to play: the same table from the file
    assert games_of(run(part, TINY, GAMES_PER_PAIRING, GAMES, out=again)) == games_of(resumed)
    assert "12 of 12 games" in again.getvalue() and "0 to play" in again.getvalue()


def test_a_results_file_of_other_settings_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    run(path, TINY, 1, ("builders",), out=quiet())
    before = path.read_text(encoding="utf-8")
    other = Settings(
        {"kolossus": {"medium": 3, "hard": 5}, "builders": {"medium": 3, "hard": 6}},
        max_actions=TINY.max_actions,
    )
    with pytest.raises(ResultsError, match="builders hard nodes: the file has 5, this run 6"):
        run(path, other, 2, ("builders",), out=quiet())
    longer = Settings(TINY.nodes, max_actions={"kolossus": 16, "builders": 17})
    with pytest.raises(ResultsError, match="builders max_actions: the file has 16, this run 17"):
        run(path, longer, 2, ("builders",), out=quiet())
    changed = Settings(TINY.nodes, TINY.max_actions, {**TINY.code, "builders": "0123456789abcdef"})
    with pytest.raises(ResultsError, match="builders code: the bots' or the rules' code"):
        run(path, changed, 2, ("builders",), out=quiet())
    assert path.read_text(encoding="utf-8") == before


def test_a_broken_line_inside_the_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    run(path, TINY, 1, ("builders",), out=quiet())
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = "not json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ResultsError, match=r"results.jsonl:3 is not a finished game's line"):
        run(path, TINY, 2, ("builders",), out=quiet())


def test_a_second_run_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    run(path, TINY, 1, ("builders",), out=quiet())
    before = path.read_text(encoding="utf-8")
    with path.open("a", encoding="utf-8") as first:
        fcntl.flock(first, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a run is writing
        with pytest.raises(ResultsError, match="another run is writing to it"):
            run(path, TINY, 2, ("builders",), out=quiet())
    assert path.read_text(encoding="utf-8") == before
