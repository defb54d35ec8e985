"""Project files say what the code does and why, never which ticket asked for it: a
ticket number means nothing to someone who joins tomorrow. History goes to CHANGELOG.md."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TICKET = re.compile(r"\b(?:[Ii]ssue|[Dd]efect)s? #?\d+\b")
HISTORY = {"CHANGELOG.md"}


def tracked_files() -> list[Path]:
    done = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=False, timeout=60
    )
    if done.returncode != 0:
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    return [REPO / name for name in done.stdout.decode().split("\0") if name]


def tickets_in(text: str) -> list[str]:
    return [match.group(0) for match in TICKET.finditer(text)]


def test_no_project_file_names_a_ticket() -> None:
    found = []
    for path in tracked_files():
        if path.name in HISTORY or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # a picture, a binary
        for number, line in enumerate(text.splitlines(), start=1):
            if tickets_in(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:100]}")
    assert not found, "say the behaviour instead:\n" + "\n".join(found)


def test_the_check_finds_a_ticket_number() -> None:
    issue, defect = "issue" + " 13", "defect" + " 7"  # spelt apart: this file is checked too
    assert tickets_in(f"a fix for {issue} (hardening {defect})") == [issue, defect]
    assert tickets_in("Kivy's own report kivy/kivy#5865; an issue with 13 dice") == []
    plural, ranged = "defects" + " 4", "Defects" + " 2"
    assert tickets_in(f"hardening {plural} and 9; {ranged}–6") == [plural, ranged]
