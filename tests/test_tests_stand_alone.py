"""Each test file stands alone: it imports no other test file and nothing from bench/.

Helpers shared by several test files live in tests/helpers/ (or a folder's own
``helpers.py``), fixtures in a conftest.py. A test that imports another test file runs
that file's module code, re-registers its tests' fixtures under the importer, and breaks
when the other file is split or renamed; a test that reaches into bench/ through
``sys.path`` depends on a script's internals. tests/bench/ is the exception: the
benches' own tools are what it tests.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
BENCH_TOOL_TESTS = TESTS / "bench"
PATH_CHANGES = frozenset({"insert", "append", "syspath_prepend"})


def _is_test_module(dotted: str) -> bool:
    return any(part.startswith("test_") for part in dotted.split("."))


def offences(source: str, where: str) -> list[str]:
    """What in ``source`` (a test-suite file) imports a test module or bench/, by line."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                f"{where}:{node.lineno} imports {alias.name}"
                for alias in node.names
                if _is_test_module(alias.name) or alias.name.split(".")[0] == "bench"
            ]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names = [f"{module}.{alias.name}" for alias in node.names]
            if _is_test_module(module) or module.split(".")[0] == "bench":
                found.append(f"{where}:{node.lineno} imports from {module}")
            elif module.split(".")[0] in ("tests", "") and any(map(_is_test_module, names)):
                found.append(f"{where}:{node.lineno} imports a test module from {module}")
        elif isinstance(node, ast.Call) and _adds_bench_to_the_path(node):
            found.append(f"{where}:{node.lineno} puts bench/ on sys.path")
    return found


def _adds_bench_to_the_path(call: ast.Call) -> bool:
    function = call.func
    if not isinstance(function, ast.Attribute) or function.attr not in PATH_CHANGES:
        return False
    if function.attr != "syspath_prepend" and ast.unparse(function.value) != "sys.path":
        return False
    return any("bench" in ast.unparse(arg) for arg in call.args)


def test_no_test_file_imports_another_or_the_bench() -> None:
    found = [
        offence
        for path in sorted(TESTS.rglob("*.py"))
        if not path.is_relative_to(BENCH_TOOL_TESTS)
        for offence in offences(path.read_text(encoding="utf-8"), str(path.relative_to(TESTS)))
    ]
    assert found == [], "move what is shared to tests/helpers/ or a conftest.py:\n" + "\n".join(
        found
    )


@pytest.mark.parametrize(
    "source",
    [
        "from tests.kiosk.test_widgets_shop import Shop, make_shop  # noqa: F401\n",
        "from .test_builders import TABLE\n",
        "from tests.kiosk import test_e2e_xvfb as e2e\n",
        "import tests.bridge.test_dice_serial\n",
        "def f():\n    from tests.kiosk.test_hardware_hub import TwoDicePig\n",
        "import sys\nsys.path.insert(0, str(REPO / 'bench'))\n",
        "from bench.instructions import thread_counter\n",
    ],
)
def test_each_way_of_reaching_a_test_file_or_the_bench_is_found(source: str) -> None:
    assert len(offences(source, "x.py")) == 1, source


@pytest.mark.parametrize(
    "source",
    [
        "from tests.helpers.kiosk_shop import Shop\n",
        "from tests.faults.scale import scaled\n",
        "from .helpers import place\n",
        "import sys\nsys.path.insert(0, str(FIRMWARE_DIR))\n",
        "from tests.kiosk.ui import tap\n",
    ],
)
def test_helpers_and_conftest_imports_are_allowed(source: str) -> None:
    assert offences(source, "x.py") == []
