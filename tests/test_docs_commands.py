"""The commands the docs show exist: every script README.md, hardware.md, docs/ and
bench/*.md name is in the repository, a script they run directly is executable, and a
bench or script shown with flags accepts each of them (its ``--help`` lists it).

Only what the docs quote as code is read (inline code and fenced blocks), plus the rows
of bench/README.md's table, which name a bench in the first column and its flags beside.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = sorted(
    [
        REPO / "README.md",
        REPO / "hardware.md",
        *(REPO / "docs").rglob("*.md"),
        *(REPO / "bench").glob("*.md"),
    ]
)

#: A path into one of the folders whose files the docs tell people to run.
SCRIPT = re.compile(r"(?<![\w/.-])(?:\./)?((?:scripts|deploy|bench)/[\w./-]+)")
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*)")
#: What may come before a script a shell runs directly (``sudo``, ``VAR=value``).
PREFIX = re.compile(r"^(?:sudo\s+|[A-Z_]+=\S*\s+)*$")
INLINE = re.compile(r"`([^`\n]+)`")


def code_spans(text: str) -> list[str]:
    """The inline code spans and the lines of fenced code blocks of a Markdown text."""
    spans: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            spans.append(line)
        else:
            spans.extend(INLINE.findall(line))
    return spans


def _doc_name(doc: Path) -> str:
    return str(doc.relative_to(REPO))


def _is_script(path: str) -> bool:
    file = REPO / path
    if not file.is_file():
        return False
    with file.open("rb") as opened:
        return opened.read(2) == b"#!"


def quoted_commands() -> list[tuple[str, str, bool, tuple[str, ...]]]:
    """(doc, script path, run directly?, flags shown after it) for every quoted script."""
    found: list[tuple[str, str, bool, tuple[str, ...]]] = []
    for doc in DOCS:
        for span in code_spans(doc.read_text(encoding="utf-8")):
            for command in re.split(r"\|\||&&|[|;]", span):
                match = SCRIPT.search(command)
                if match is None:
                    continue
                path = match.group(1).rstrip(".")
                prefix = command[: match.start()].strip()
                runs = prefix == "" or PREFIX.match(prefix + " ") is not None
                # A bare path runs when it is a script (a `#!` line); a bench or a
                # config file named bare is a file (the docs run benches with python).
                direct = runs and (prefix != "" or _is_script(path))
                flags = tuple(FLAG.findall(command[match.end() :]))
                found.append((_doc_name(doc), path, direct, flags))
    return found


def bench_table_flags() -> list[tuple[str, str, tuple[str, ...]]]:
    """(doc, bench path, flags) of each row of bench/README.md's table of benches."""
    rows: list[tuple[str, str, tuple[str, ...]]] = []
    doc = REPO / "bench" / "README.md"
    for line in doc.read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if len(cells) < 3 or not (first := re.fullmatch(r"\s*`(\w+\.py)`.*", cells[1])):
            continue
        flags = {flag for span in INLINE.findall(line) for flag in FLAG.findall(span)}
        rows.append((_doc_name(doc), f"bench/{first.group(1)}", tuple(sorted(flags))))
    return rows


def test_the_docs_quote_scripts_at_all() -> None:
    """The reader of the docs finds them: a parser that finds nothing checks nothing."""
    paths = {path for _, path, _, _ in quoted_commands()}
    assert {"scripts/test", "scripts/setup", "deploy/install-pi"} <= paths
    assert any(path.startswith("bench/bench_") for path in paths)
    assert len(bench_table_flags()) >= 10


def test_every_script_the_docs_name_is_in_the_repository() -> None:
    missing = sorted(
        {
            f"{doc}: {path}"
            for doc, path, _, _ in quoted_commands()
            if not (REPO / path).exists() and "*" not in path
        }
        | {f"{doc}: {path}" for doc, path, _ in bench_table_flags() if not (REPO / path).exists()}
    )
    assert not missing, "the docs name files that are not in the repository:\n" + "\n".join(missing)


def test_every_script_the_docs_run_directly_is_executable() -> None:
    """A script (a `#!` line) the docs quote, or anything they run with sudo or an
    environment variable in front, has its executable bit: `sudo deploy/install-pi`
    works as written."""
    not_executable = sorted(
        {
            f"{doc}: {path}"
            for doc, path, direct, _ in quoted_commands()
            if direct and (REPO / path).is_file() and not os.access(REPO / path, os.X_OK)
        }
    )
    assert not not_executable, "run as commands in the docs but not executable:\n" + "\n".join(
        not_executable
    )


def _flags_by_script() -> dict[str, dict[str, set[str]]]:
    """script → flag → the docs that show it."""
    shown: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    quoted = [(doc, path, flags) for doc, path, _, flags in quoted_commands()]
    for doc, path, flags in quoted + bench_table_flags():
        if _answers_help(path):
            for flag in flags:
                shown[path][flag].add(doc)
    return shown


def _answers_help(path: str) -> bool:
    """A Python script with argparse, or a shell script that handles ``--help``."""
    file = REPO / path
    if not file.is_file():
        return False
    text = file.read_text(encoding="utf-8", errors="replace")
    return "argparse" in text if path.endswith(".py") else "--help)" in text


def _help(path: str) -> str:
    runner = [sys.executable] if path.endswith(".py") else []
    done = subprocess.run(
        [*runner, str(REPO / path), "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"{path} --help failed:\n{done.stderr}"
    return done.stdout


@pytest.mark.parametrize("script", sorted(_flags_by_script()))
def test_each_flag_the_docs_show_is_one_the_script_accepts(script: str) -> None:
    listed = set(FLAG.findall(_help(script)))
    unknown = sorted(
        f"{flag} (in {', '.join(sorted(docs))})"
        for flag, docs in _flags_by_script()[script].items()
        if flag not in listed
    )
    assert not unknown, f"{script} --help does not list: " + "; ".join(unknown)
