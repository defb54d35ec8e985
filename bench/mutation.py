"""Mutation testing of the rule engines in companion/games, one game at a time (mutmut).

Each game is mutated against its own tests only, so a rule is counted as guarded only when
a test of that game notices the change. mutmut works in ``build/mutation/<game>/`` (its
``mutants/`` copy, its results and its log stay there, so a re-run tests only what
changed); this script writes that folder's configuration, runs ``mutmut run`` there and
prints, per game, the score and every surviving mutant that is not recorded as equivalent
in ``bench/mutation-equivalents.txt`` (one line each: the mutant's name, then why no test
can tell it from the original).

    scripts/mutation                  every game, one after the other
    scripts/mutation builders         the games named (kolossus, beast_master, colossi,
                                      island, colossus_solo, builders, shared)
    scripts/mutation --report         the last results again, without running
    scripts/mutation --max-children 1 fewer parallel mutants (default 2)
    scripts/mutation builders --mutants 'companion.games.builders.rules.*'
                                      only (and again) the mutants of one module

See docs/testing.md for the figures of the last full run and how to read them.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "build" / "mutation"
EQUIVALENTS = ROOT / "bench" / "mutation-equivalents.txt"
MUTMUT = Path(sys.executable).with_name("mutmut")
ISLAND = "companion/games/island/"


@dataclass(frozen=True)
class Game:
    """What one run mutates and the tests it runs (globs from the project root)."""

    mutate: tuple[str, ...]
    tests: tuple[str, ...]
    skip: tuple[str, ...] = ()


GAMES: dict[str, Game] = {
    "kolossus": Game(("companion/games/kolossus/*",), ("tests/games/kolossus",)),
    "beast_master": Game((ISLAND + "beast_master/*",), ("tests/games/island",)),
    "colossi": Game((ISLAND + "colossi/*",), ("tests/games/island",)),
    # the island code Beast Master and Colossi share, against both games' tests
    "island": Game(
        (ISLAND + "*",),
        ("tests/games/island",),
        skip=(ISLAND + "beast_master/*", ISLAND + "colossi/*"),
    ),
    # Each game's tests are a folder: a new test file keeps the list of test paths the
    # same, and mutmut 3.8.1 tests every mutant again when that list changes.
    "colossus_solo": Game(("companion/games/colossus_solo/*",), ("tests/games/colossus_solo",)),
    "builders": Game(("companion/games/builders/*",), ("tests/games/builders",)),
    # the helpers every game uses (option and action parsing, corrections), against the
    # games' correction and load tests
    "shared": Game(
        ("companion/games/*.py",),
        (
            "tests/games/test_load_validation.py",
            "tests/games/test_shared_*.py",
            "tests/games/kolossus/test_corrections.py",
            "tests/games/island/test_corrections.py",
            "tests/games/colossus_solo/test_colossus_solo_corrections.py",
            "tests/games/builders/test_builders_corrections.py",
        ),
        skip=("companion/games/*/*",),
    ),
}

#: What the tests read besides the package and themselves (docs' examples, bench helpers).
ALSO_COPY = ("docs", "bench")

#: mutmut's verdicts that count as the tests noticing the mutant.
KILLED = {"killed", "timeout", "segfault", "caught by type check"}


def _toml_list(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def game_tests(game: Game) -> tuple[str, ...]:
    """The game's test files and folders, its globs expanded (a new test file joins)."""
    found = (
        str(path.relative_to(ROOT)) for pattern in game.tests for path in sorted(ROOT.glob(pattern))
    )
    return tuple(found)


def config_text(game: Game) -> str:
    """The pyproject.toml of a game's work folder: mutmut's settings and pytest's, run
    in one process (no xdist workers: mutmut forks a process per mutant itself)."""
    markers = '"slow: longer property, crash and soak runs", "pi: needs a real Raspberry Pi"'
    return (
        "# Written by bench/mutation.py for one game; edit GAMES there, not this file.\n"
        "[tool.mutmut]\n"
        'source_paths = ["companion"]\n'
        f"only_mutate = {_toml_list(game.mutate)}\n"
        f"do_not_mutate = {_toml_list(game.skip)}\n"
        f"also_copy = {_toml_list(ALSO_COPY)}\n"
        f"pytest_add_cli_args_test_selection = {_toml_list(game_tests(game))}\n"
        'pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider"]\n'
        "use_git_change_detection = false\n"
        # a mutant still running after 5 times its tests' clean time is taken as an endless
        # loop (killed); mutmut's default of 15 times spends most of a run waiting on those
        "timeout_multiplier = 5.0\n"
        "\n[tool.pytest.ini_options]\n"
        'testpaths = ["tests"]\n'
        'addopts = "--strict-markers"\n'
        f"markers = [{markers}]\n"
        "timeout = 300\n"
    )


#: mutmut's map of the tests that call each mutated function, in a game's work folder.
#: It is kept by test name: a test whose body changed after the map was made is not run
#: for the functions it calls now, so its mutants stay "survived". A re-run by name
#: (``--mutants``) has mutmut make the map afresh (a minute or two of the game's tests).
TEST_MAP = Path("mutants") / "mutmut-stats.json"


def prepare(name: str, *, fresh_test_map: bool = False) -> Path:
    """The game's work folder: links to the project's code and tests, and its config."""
    work = WORK / name
    work.mkdir(parents=True, exist_ok=True)
    for part in ("companion", "tests", *ALSO_COPY):
        link, target = work / part, ROOT / part
        if link.is_symlink() and link.readlink() != target:
            link.unlink()  # a folder copied from another checkout: run this one's code
        if not link.is_symlink():
            link.symlink_to(target)
    config = work / "pyproject.toml"
    text = config_text(GAMES[name])
    if not config.exists() or config.read_text(encoding="utf-8") != text:
        config.write_text(text, encoding="utf-8")
    if fresh_test_map:
        (work / TEST_MAP).unlink(missing_ok=True)
    return work


def equivalents(path: Path = EQUIVALENTS) -> dict[str, str]:
    """Recorded equivalent mutants: name → reason. Lines are ``name  reason``; ``#``
    starts a comment line. A line without a reason is refused (say why)."""
    found: dict[str, str] = {}
    if not path.exists():
        return found
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(" ")
        if not reason.strip():
            raise SystemExit(f"{path.name} line {number}: {name} needs a reason after its name")
        found[name] = reason.strip()
    return found


RESULT = re.compile(r"^\s+(\S+): (.+)$")


def results(work: Path) -> dict[str, str]:
    """Every mutant the code makes now → mutmut's verdict of the game's last run."""
    out = subprocess.run(
        [str(MUTMUT), "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    verdicts = {m[1]: m[2] for line in out.splitlines() if (m := RESULT.match(line))}
    made = made_mutants(work / "mutants")
    return {name: verdict for name, verdict in verdicts.items() if name in made}


#: How a mutated file registers each mutant: ``mutants_x_f__mutmut['x_f__mutmut_3'] = …``.
REGISTERED = re.compile(r"^mutants_\S+\['(x\S+__mutmut_\d+)'\] = ", re.MULTILINE)


def made_mutants(mutants: Path) -> set[str]:
    """The names of the mutants in mutmut's copy of the code. mutmut 3.8.1 can keep the
    verdicts of names a changed function no longer makes (seen after runs by name across
    a change of the function), and lists them with the rest: they would be counted."""
    made: set[str] = set()
    for path in mutants.rglob("*.py"):
        parts = path.relative_to(mutants).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        text = path.read_text(encoding="utf-8")
        made.update(f"{module}.{name}" for name in REGISTERED.findall(text))
    return made


def diff(work: Path, mutant: str) -> str:
    """The changed lines of one mutant (``-`` original, ``+`` mutant)."""
    out = subprocess.run(
        [str(MUTMUT), "show", mutant], cwd=work, capture_output=True, text=True, check=False
    ).stdout
    lines = [
        line
        for line in out.splitlines()
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    return "\n".join(f"        {line.strip()[:1]} {line[1:].strip()}" for line in lines)


def report(name: str, work: Path, known: dict[str, str], *, show: bool = True) -> float | None:
    """Print the game's score and its new survivors; return the score in percent."""
    verdicts = results(work)
    if not verdicts:
        print(f"{name}: no results yet (run it first)")
        return None
    line, score = game_line(name, verdicts, known)
    print(line)
    survivors = sorted(m for m, v in verdicts.items() if v not in KILLED and m not in known)
    for line in module_lines(verdicts, known):
        print(line)
    for mutant in survivors:
        if verdicts[mutant] == "not checked":
            continue
        print(f"    {verdicts[mutant]}: {mutant}")
        if show:
            print(diff(work, mutant))
    stale = sorted(m for m in known if belongs(m, GAMES[name]) and m not in verdicts)
    for mutant in stale:
        print(f"    recorded as equivalent but no longer made: {mutant}")
    return score


def game_line(name: str, verdicts: dict[str, str], known: dict[str, str]) -> tuple[str, float]:
    """The game's line and score: the share of its judged mutants killed (a recorded
    equivalent is left out, checked or not; so is a mutant not checked yet)."""
    counts = Counter(verdicts.values())
    equivalent = sum(1 for m, v in verdicts.items() if v not in KILLED and m in known)
    unchecked = sum(1 for m, v in verdicts.items() if v == "not checked" and m not in known)
    killed = sum(counts[v] for v in KILLED)
    judged = len(verdicts) - equivalent - unchecked
    score = 100.0 * killed / judged if judged else 100.0
    others = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()) if v not in KILLED)
    line = (
        f"{name}: {len(verdicts)} mutants, {killed} killed, {equivalent} equivalent"
        f" ({others or 'none left'}): score {score:.1f} %"
        + (f" — {unchecked} not checked yet, the run is incomplete" if unchecked else "")
    )
    return line, score


def module_lines(verdicts: dict[str, str], known: dict[str, str]) -> list[str]:
    """One line per mutated module: its mutants, killed, equivalent, survived and score
    (the share of the judged ones killed: equivalents and not-checked ones left out)."""
    by_module: dict[str, Counter[str]] = {}
    for mutant, verdict in verdicts.items():
        kind = "killed" if verdict in KILLED else "equivalent" if mutant in known else verdict
        by_module.setdefault(source_of(mutant), Counter())[kind] += 1
    lines = []
    for path, counts in sorted(by_module.items()):
        total = sum(counts.values())
        judged = total - counts["equivalent"] - counts["not checked"]
        score = 100.0 * counts["killed"] / judged if judged else 100.0
        left = total - counts["killed"] - counts["equivalent"] - counts["not checked"]
        unchecked = counts["not checked"]
        lines.append(
            f"    {Path(path).stem}: {total} mutants, {counts['killed']} killed,"
            f" {counts['equivalent']} equivalent, {left} not killed: {score:.1f} %"
            + (f" ({unchecked} not checked yet)" if unchecked else "")
        )
    return lines


def source_of(mutant: str) -> str:
    """The file a mutant name points into: ``companion.games.x.rules.x_f__mutmut_3`` →
    ``companion/games/x/rules.py`` (a method's name is ``xǁClassǁmethod``)."""
    module = re.split(r"\.x[_ǁ]", mutant, maxsplit=1)[0]
    return module.replace(".", "/") + ".py"


def belongs(mutant: str, game: Game) -> bool:
    """Whether a game's run makes mutants in the file this one is in."""
    path = source_of(mutant)
    return any(fnmatch(path, p) for p in game.mutate) and not any(
        fnmatch(path, p) for p in game.skip
    )


def run(name: str, max_children: int, mutants: list[str]) -> None:
    """Run mutmut for one game (results are kept: a re-run tests only what changed);
    ``mutants``: only those whose names match these globs (e.g. the rule module first),
    with the map of which tests call what made afresh."""
    work = prepare(name, fresh_test_map=bool(mutants))
    log = work / "mutmut.log"
    started = time.monotonic()
    print(f"== {name}: mutmut run in {work.relative_to(ROOT)} (log: {log.name})", flush=True)
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            [str(MUTMUT), "run", "--max-children", str(max_children), *mutants],
            cwd=work,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    minutes = (time.monotonic() - started) / 60
    print(f"   finished in {minutes:.1f} min (exit {done.returncode})", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=", ".join(GAMES))
    parser.add_argument("--report", action="store_true", help="only print the last results")
    parser.add_argument("--no-diffs", action="store_true", help="names of survivors only")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument(
        "--mutants",
        action="append",
        default=[],
        metavar="GLOB",
        help="only the mutants whose names match (e.g. 'companion.games.builders.rules.*'),"
        " tested again even where a verdict is kept",
    )
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"no game {', '.join(unknown)}; the games are {', '.join(GAMES)}")
    if not MUTMUT.exists():
        print(f"mutmut is not installed in {MUTMUT.parent} (scripts/mutation installs it)")
        return 2
    known = equivalents()
    scores: dict[str, float | None] = {}
    for name in args.games or list(GAMES):
        if not args.report:
            run(name, args.max_children, args.mutants)
        scores[name] = report(name, WORK / name, known, show=not args.no_diffs)
    print("== scores: " + ", ".join(f"{n} {_pct(s)}" for n, s in scores.items()))
    return 0


def _pct(score: float | None) -> str:
    return "—" if score is None else f"{score:.1f} %"


if __name__ == "__main__":
    sys.exit(main())
