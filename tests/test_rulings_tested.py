"""Every ruling that applies to a feature is named by a test that exercises it.

The team's bar: each game ruling in docs/rulings.md (``K-R14``, ``CS-R06`` …) is named by
at least one test — in a test function's name (``..._cs_r06``), its docstring, its body or
its parametrize ids — so a reader can find the test that holds the ruling, and a change
that breaks it fails a test that says which. Helpers and fixtures do not count: only a
``test_*`` function's own source does.

A ruling that declares something out of scope is held too: its test shows the thing is
not offered (``CS-R13``: no "Colossus in Eden" mode among the options).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.helpers.rulings import RULINGS_DOC, parse_rulings

TESTS = Path(__file__).resolve().parent
GAME_RULING = re.compile(r"^(?:K|BM|CA|CS|BC)-R\d{2}$")
#: An ID as written in prose (``CS-R06``) or in a function's name (``cs_r06``).
NAMED = re.compile(r"(?<![A-Za-z0-9])(K|BM|CA|CS|BC)[-_]R(\d{2})(?!\d)", re.IGNORECASE)


def named_by_tests(root: Path = TESTS) -> dict[str, list[str]]:
    """Each game ruling ID → the tests (``path::name``) under ``root`` whose own source
    names it."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.encode("utf-8").splitlines(keepends=True)
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not node.name.startswith("test_"):
                continue
            source = "\n".join([node.name, *(segment(lines, d) for d in node.decorator_list)])
            source += "\n" + segment(lines, node)
            where = f"{path.relative_to(root.parent)}::{node.name}"
            for prefix, number in set(NAMED.findall(source)):
                found.setdefault(f"{prefix.upper()}-R{number}", []).append(where)
    return found


def segment(lines: list[bytes], node: ast.expr | ast.stmt) -> str:
    """``node``'s source, cut from the file's ``lines`` (as bytes: the offsets count
    UTF-8 bytes). ``ast.get_source_segment`` splits the whole file again at each call,
    which made this search take seconds."""
    assert node.end_lineno is not None and node.end_col_offset is not None
    first, last = node.lineno - 1, node.end_lineno - 1
    if first == last:
        return lines[first][node.col_offset : node.end_col_offset].decode("utf-8")
    middle = b"".join(lines[first + 1 : last])
    cut = lines[first][node.col_offset :] + middle + lines[last][: node.end_col_offset]
    return cut.decode("utf-8")


def game_rulings() -> set[str]:
    entries = parse_rulings(RULINGS_DOC.read_text(encoding="utf-8"))
    return {ident for ident in entries if GAME_RULING.match(ident)}


def test_every_game_ruling_is_named_by_a_test() -> None:
    untested = sorted(game_rulings() - set(named_by_tests()))
    assert untested == [], "write a test that names (and exercises) each of these rulings"


def test_the_search_finds_an_id_in_a_name_a_docstring_and_a_decorator(tmp_path: Path) -> None:
    """The reader itself: a function's name, its docstring and its parametrize ids count;
    a helper's does not."""
    source = '''
import pytest

def helper_k_r01():
    """K-R02"""

def test_quake_k_r03():
    pass

def test_doc():
    """The ruling BM-R04 holds."""

@pytest.mark.parametrize("x", [1], ids=["CS-R05"])
def test_param(x):
    pass
'''
    folder = tmp_path / "tests"
    folder.mkdir()
    (folder / "test_sample.py").write_text(source, encoding="utf-8")
    found = named_by_tests(folder)
    assert sorted(found) == ["BM-R04", "CS-R05", "K-R03"]
    assert found["K-R03"] == ["tests/test_sample.py::test_quake_k_r03"]


def test_a_segment_is_the_source_ast_gives() -> None:
    """The cut by byte offsets equals ``ast.get_source_segment``, non-ASCII text too."""
    text = (
        '@mark(ids=["K·R01"])\ndef test_x(a: str = "×") -> None:\n    """Ruling — K-R02."""\n'
        '    y = {"é": 1}; z = [y,\n        y]\n'
    )
    lines = text.encode("utf-8").splitlines(keepends=True)
    nodes = [n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.expr | ast.stmt)]
    assert len(nodes) > 10
    assert all(segment(lines, n) == ast.get_source_segment(text, n) for n in nodes)
