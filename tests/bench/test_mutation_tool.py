"""The mutation tool's own configuration (bench/mutation.py): every rule module is mutated
by exactly one game's run, against test files that exist, and the equivalent-mutant record
says why for each entry. Nothing here runs mutmut (that takes long: scripts/mutation)."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import mutation  # noqa: E402
from mutation import (  # noqa: E402
    GAMES,
    belongs,
    config_text,
    equivalents,
    game_line,
    game_tests,
    module_lines,
    source_of,
)


def _mutated_by(path: str) -> list[str]:
    return [
        name
        for name, game in GAMES.items()
        if belongs(path.removesuffix(".py").replace("/", ".") + ".x_f__mutmut_1", game)
    ]


def test_every_module_of_companion_games_is_mutated_by_exactly_one_game() -> None:
    modules = sorted(str(p.relative_to(REPO)) for p in (REPO / "companion" / "games").rglob("*.py"))
    assert len(modules) > 40
    assert {m: _mutated_by(m) for m in modules if len(_mutated_by(m)) != 1} == {}
    assert _mutated_by("companion/games/island/colossi/ages.py") == ["colossi"]
    assert _mutated_by("companion/games/island/turns.py") == ["island"]
    assert _mutated_by("companion/games/corrections.py") == ["shared"]


def test_each_game_runs_test_files_that_exist_every_one_of_its_files() -> None:
    for name, game in GAMES.items():
        paths = game_tests(game)
        assert len(paths) >= len(game.tests), name
        assert all((REPO / path).exists() for path in paths), name
    # a folder per card game: a test file added there keeps mutmut's list of test paths
    assert game_tests(GAMES["builders"]) == ("tests/games/builders",)
    assert game_tests(GAMES["colossus_solo"]) == ("tests/games/colossus_solo",)
    shared = game_tests(GAMES["shared"])
    assert "tests/games/builders/test_builders_corrections.py" in shared


def test_a_mutant_name_points_to_its_file() -> None:
    assert source_of("companion.games.builders.rules.x__builds__mutmut_3") == (
        "companion/games/builders/rules.py"
    )
    method = "companion.games.builders.rules.xǁBuildersRulesǁ_builds__mutmut_12"
    assert source_of(method) == "companion/games/builders/rules.py"
    assert belongs(method, GAMES["builders"]) and not belongs(method, GAMES["shared"])


def test_the_config_mutates_the_game_against_its_tests_in_one_process() -> None:
    config = tomllib.loads(config_text(GAMES["beast_master"]))
    mutmut = config["tool"]["mutmut"]
    assert mutmut["only_mutate"] == ["companion/games/island/beast_master/*"]
    assert mutmut["pytest_add_cli_args_test_selection"] == ["tests/games/island"]
    assert mutmut["pytest_add_cli_args"][:2] == ["-p", "no:xdist"]
    assert "-n" not in config["tool"]["pytest"]["ini_options"]["addopts"]


def test_equivalent_mutants_need_a_reason(tmp_path: Path) -> None:
    record = tmp_path / "equivalents.txt"
    record.write_text(
        "# a comment\n\ncompanion.games.x.rules.x_f__mutmut_1 returns the same list\n",
        encoding="utf-8",
    )
    assert equivalents(record) == {"companion.games.x.rules.x_f__mutmut_1": "returns the same list"}
    record.write_text("companion.games.x.rules.x_f__mutmut_2\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"line 1: \S+mutmut_2 needs a reason"):
        equivalents(record)
    assert equivalents(tmp_path / "missing.txt") == {}


def test_the_projects_record_of_equivalent_mutants_reads() -> None:
    known = equivalents()
    assert all(reason for reason in known.values())
    assert all(any(belongs(m, g) for g in GAMES.values()) for m in known)
    assert mutation.EQUIVALENTS.exists()


def test_the_report_gives_each_module_its_own_score() -> None:
    game = "companion.games.island.beast_master."
    verdicts = {
        game + "play.x_f__mutmut_1": "killed",
        game + "play.x_f__mutmut_2": "timeout",
        game + "play.x_f__mutmut_3": "survived",
        game + "play.x_f__mutmut_4": "survived",
        game + "views.x_g__mutmut_1": "no tests",
        game + "views.x_g__mutmut_2": "not checked",
    }
    known = {game + "play.x_f__mutmut_4": "the same value"}
    assert module_lines(verdicts, known) == [
        "    play: 4 mutants, 2 killed, 1 equivalent, 1 not killed: 66.7 %",
        "    views: 2 mutants, 0 killed, 0 equivalent, 1 not killed: 0.0 % (1 not checked yet)",
    ]


def test_a_recorded_equivalent_not_checked_yet_is_left_out_of_the_score_once() -> None:
    """A recorded equivalent whose function a run has not reached yet was subtracted as
    equivalent and again as not checked: a partial run scored 100.4 %."""
    game = "companion.games.kolossus."
    verdicts = {
        game + "play.x_f__mutmut_1": "killed",
        game + "play.x_f__mutmut_2": "killed",
        game + "play.x_f__mutmut_3": "not checked",
        game + "play.x_f__mutmut_4": "not checked",
        game + "play.x_f__mutmut_5": "survived",
    }
    known = {game + "play.x_f__mutmut_3": "unreachable", game + "play.x_f__mutmut_5": "same"}
    line, score = game_line("kolossus", verdicts, known)
    assert score == 100.0
    assert line == (
        "kolossus: 5 mutants, 2 killed, 2 equivalent (2 not checked, 1 survived): score 100.0 %"
        " — 1 not checked yet, the run is incomplete"
    )


def test_a_work_folder_copied_from_another_checkout_runs_this_ones_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's folder copied with its verdicts from another checkout (another worktree)
    kept links to that checkout's code and tests: its re-runs tested the wrong tests."""
    monkeypatch.setattr(mutation, "WORK", tmp_path)
    work = tmp_path / "builders"
    work.mkdir()
    elsewhere = tmp_path / "other-checkout"
    for part in ("companion", "tests", "docs", "bench"):
        (elsewhere / part).mkdir(parents=True)
        (work / part).symlink_to(elsewhere / part)
    assert mutation.prepare("builders") == work
    for part in ("companion", "tests", "docs", "bench"):
        assert (work / part).readlink() == REPO / part


def test_a_re_run_by_name_maps_the_tests_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """mutmut keeps which tests call a function by test name: a test rewritten after the
    map was made was not run for the function it now calls, and its mutant stayed
    "survived" (Kolossus's strike_squares on square 0)."""
    monkeypatch.setattr(mutation, "WORK", tmp_path)
    test_map = tmp_path / "kolossus" / mutation.TEST_MAP
    test_map.parent.mkdir(parents=True)
    test_map.write_text("{}", encoding="utf-8")
    mutation.prepare("kolossus")
    assert test_map.exists()  # a run of what is not checked yet keeps it
    mutation.prepare("kolossus", fresh_test_map=True)
    assert not test_map.exists()


def test_a_verdict_of_a_mutant_the_code_no_longer_makes_is_not_counted(tmp_path: Path) -> None:
    """A function that lost two mutants kept their verdicts in mutmut's record (Kolossus's
    occupancy, 43 names for 41 mutants): only the names the mutated copy registers count."""
    mutated = tmp_path / "companion" / "games" / "kolossus" / "position.py"
    mutated.parent.mkdir(parents=True)
    mutated.write_text(
        "def x_occupancy__mutmut_1(): pass\n"
        "mutants_x_occupancy__mutmut['x_occupancy__mutmut_1'] = x_occupancy__mutmut_1\n"
        "mutants_xǁEndsǁ__getitem____mutmut['xǁEndsǁ__getitem____mutmut_26'] = f\n"
        "# 'x_occupancy__mutmut_42' only named in a comment\n",
        encoding="utf-8",
    )
    package = tmp_path / "companion" / "games" / "__init__.py"
    package.write_text("mutants_x_rules__mutmut['x_rules__mutmut_2'] = f\n", encoding="utf-8")
    assert mutation.made_mutants(tmp_path) == {
        "companion.games.kolossus.position.x_occupancy__mutmut_1",
        "companion.games.kolossus.position.xǁEndsǁ__getitem____mutmut_26",
        "companion.games.x_rules__mutmut_2",  # a package's own code is named without __init__
    }
