"""docs/rulings.md parsed into entries, and every ruling ID the code cites, by place."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


RULINGS_DOC = REPO / "docs" / "rulings.md"


RULING_ID = re.compile(r"\b(?:K|BM|CA|CS|BC)-R\d+\b")


PRINCIPLE_ID = re.compile(r"\b0\.2\.[1-9]\b")


ENTRY_ID = re.compile(r"^(?:(?:K|BM|CA|CS|BC)-R\d{2}|\d+\.\d+(?:\.\d+)?)$")


HEADING = re.compile(r"^### (?P<id>\S+)(?: — (?P<title>.+))?$")


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    body: str
    where: tuple[str, ...]
    line: int


class RulingsFormatError(ValueError):
    """docs/rulings.md does not have the shape this test reads."""


def parse_rulings(text: str) -> dict[str, Entry]:
    """The entries of a rulings page: ``### ID — title``, a body, ``Where: `path`, …``."""
    entries: dict[str, Entry] = {}
    current: tuple[str, str, int] | None = None
    body: list[str] = []
    where: tuple[str, ...] = ()

    def close() -> None:
        if current is None:
            return
        ident, title, line = current
        if not where:
            raise RulingsFormatError(f"line {line}: {ident} has no 'Where:' line")
        if not " ".join(body).strip():
            raise RulingsFormatError(f"line {line}: {ident} says nothing")
        entries[ident] = Entry(ident, title, " ".join(body).strip(), where, line)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("## ") or line.startswith("# "):
            close()
            current, body, where = None, [], ()
        elif line.startswith("###"):
            close()
            match = HEADING.match(line)
            if match is None or not match["title"]:
                raise RulingsFormatError(f"line {number}: a heading needs '### ID — title'")
            ident = match["id"]
            if not ENTRY_ID.match(ident):
                raise RulingsFormatError(f"line {number}: {ident!r} is not a ruling ID")
            if ident in entries:
                first = entries[ident].line
                raise RulingsFormatError(f"line {number}: {ident} again (first on line {first})")
            current, body, where = (ident, match["title"], number), [], ()
        elif line.startswith("Where:") and current is not None:
            where = tuple(re.findall(r"`([^`]+)`", line))
        elif current is not None and line:
            body.append(line)
    close()
    return entries


def sources() -> list[Path]:
    return sorted(p for folder in CODE for p in (REPO / folder).rglob("*.py"))


def section_constants(path: Path) -> list[tuple[int, str]]:
    """String constants shaped like "3.4" or "0.2.1" (not a package's version)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    version_nodes = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and SECTION_ID.match(node.value)
        and id(node) not in version_nodes
    ]


def cited() -> dict[str, list[str]]:
    """Every ID the code cites → where (``path:line``)."""
    found: dict[str, list[str]] = {}
    for path in sources():
        where = path.relative_to(REPO)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for ident in RULING_ID.findall(line) + PRINCIPLE_ID.findall(line):
                found.setdefault(ident, []).append(f"{where}:{number}")
        if path.is_relative_to(REPO / "companion"):
            for number, value in section_constants(path):
                found.setdefault(value, []).append(f"{where}:{number}")
    return found


CODE = ("companion", "kiosk", "firmware_bridge")


SECTION_ID = re.compile(r"^\d+\.\d+(?:\.\d+)?$")
