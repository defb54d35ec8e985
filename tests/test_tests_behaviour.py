"""The tests check behaviour: what is drawn, shown, scheduled, sent, stored or answered.

A test that reads a private attribute of the object under test (``screen._shown``,
``journal._db``), calls a private method of it, patches one
(``monkeypatch.setattr(Board, "_make", spy)``) or counts calls (``mock.call_count``,
``assert_called_once``) breaks when the code is reorganised without a change of
behaviour, and passes when the behaviour breaks in a way the counted call does not see.
Such tests read a public property the product uses, the canvas, the clock's scheduled
events, the screen's widgets, the journal's file (as another program would:
tests/helpers/journal_file.py) or a simulator's public controls instead; speed goals
(how many times the rules are asked per touch) belong to bench/.

Allowed: a fake's own members (``self._x`` inside the fake, ``super()._x`` in a fake
that extends a simulator), Kivy's and the standard library's private names that a test
must name to pin or stand for them (``ALLOWED``), the module that gathers the Kivy
internals the tests need (``ALLOWED_FILES``) and a short list of single uses, each with
its reason (``ALLOWED_IN``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
#: Mock members that count or replay calls.
CALL_COUNTING = frozenset(
    {
        "call_count",
        "call_args",
        "call_args_list",
        "mock_calls",
        "method_calls",
        "assert_called",
        "assert_called_once",
        "assert_called_with",
        "assert_called_once_with",
        "assert_any_call",
        "assert_has_calls",
        "assert_not_called",
    }
)
#: Private names a test may use, whatever the file: what they stand for.
ALLOWED = {
    "_getframe": "sys._getframe: which caller measured a text",
    "_purge_by_timeout": "Kivy's own cache purge, the one repeating event the app leaves be",
    "_get_font_id": "Kivy 2.3.1's font id, pinned: kiosk/fonts/extents.py keys by its options",
    "_thread_run": "Kivy 2.3.1's touch reader loop, pinned: kiosk/touch_wake.py wraps it",
    "_label": "a Kivy Label's own text renderer: which row rendered which text",
}
#: Files that may name private members, by their path under tests/: why.
ALLOWED_FILES = {
    "helpers/kivy_internals.py": "the Kivy internals the tests need, pinned to the tested Kivy",
}
#: Single private names allowed in one file (path under tests/, name): why.
ALLOWED_IN = {
    **{
        ("games/kolossus/test_content_geometry.py", name): (
            "a board table built once when the module loads, built again so that a mutation"
            " run reaches its builder"
        )
        for name in (
            "_corner_zone",
            "_initial_terrain",
            "_build_rays",
            "_parse_region",
            "_squares_of",
        )
    },
    ("games/kolossus/test_views_highlights.py", "_square_lights"): (
        "the lights made once per role when the module loads, made again so that a mutation"
        " run reaches them"
    ),
    **{
        ("games/kolossus/test_views_cells.py", name): (
            "legal_actions_at filters this generator's answers by their cells, so an extra"
            " answer it gave would not show through the public read"
        )
        for name in ("_moves_to", "_actions_from")
    },
    ("games/kolossus/test_views.py", "_occupied"): (
        "the board view's cache under test, switched off to compare with squares made anew"
    ),
    ("games/island/test_work_reuse.py", "_spaces"): (
        "the island's reuse of unchanged spaces under test, switched off to compare"
    ),
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def offences(source: str, where: str) -> list[str]:
    """Private reads, private patches and call counting in ``source`` (the file
    ``where`` under tests/), by line."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            if node.attr in CALL_COUNTING:
                found.append(f"{where}:{node.lineno} counts calls ({node.attr})")
            elif _private(node.attr) and not _own(node.value) and _forbidden(node.attr, where):
                found.append(f"{where}:{node.lineno} reaches into {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and _patches_a_private(node):
            name = node.args[1]
            assert isinstance(name, ast.Constant) and isinstance(name.value, str)
            patched: str = name.value
            if _forbidden(patched, where):
                found.append(f"{where}:{node.lineno} patches {patched}")
    return found


def _own(owner: ast.expr) -> bool:
    """``self``, ``cls`` or ``super()``: a fake's (or a simulator's subclass's) own."""
    if isinstance(owner, ast.Name):
        return owner.id in ("self", "cls")
    return (
        isinstance(owner, ast.Call)
        and isinstance(owner.func, ast.Name)
        and owner.func.id == "super"
    )


def _forbidden(name: str, where: str) -> bool:
    return name not in ALLOWED and (where, name) not in ALLOWED_IN


def _patches_a_private(call: ast.Call) -> bool:
    function = call.func
    if not isinstance(function, ast.Attribute) or function.attr != "setattr":
        return False
    if len(call.args) < 2:
        return False
    name = call.args[1]
    return isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value)


def _sources() -> dict[str, Path]:
    """Every Python file of the suite (tests, fakes, helpers), by its path under tests/."""
    every = {path.relative_to(TESTS).as_posix(): path for path in TESTS.rglob("*.py")}
    return {where: path for where, path in sorted(every.items()) if where not in ALLOWED_FILES}


def test_tests_check_behaviour_not_private_attributes_or_call_counts() -> None:
    sources = _sources()
    assert len(sources) > 200, "the tests moved: TESTS should be the suite's folder"
    found = [
        offence
        for where, path in sources.items()
        for offence in offences(path.read_text(encoding="utf-8"), where)
    ]
    assert found == [], (
        "test what is drawn, shown, scheduled, sent or stored (or give the product a small "
        "public read it documents); speed goals belong to bench/:\n" + "\n".join(found)
    )


def test_every_allowance_is_still_needed() -> None:
    """An allowance whose use is gone is removed, so the list stays the few that must be."""
    sources = _sources()
    stale = [where for where in ALLOWED_FILES if not (TESTS / where).is_file()]
    for where, name in ALLOWED_IN:
        path = sources.get(where)
        if path is None or name not in path.read_text(encoding="utf-8"):
            stale.append(f"{where}: {name}")
    assert stale == [], stale


@pytest.mark.parametrize(
    "source",
    [
        "assert screen._shown is not None\n",
        "layers = board._drawn_cells[cell]\n",
        "screen._choose(0, label)\n",
        "assert spy.call_count == 1\n",
        "spy.assert_called_once_with(3)\n",
        "hub.on_die.assert_not_called()\n",
        "monkeypatch.setattr(BoardWidget, '_look_layer', counted)\n",
        "assert clock._max_fps == 10.0\n",
        "journal._db.execute('DROP TABLE entries')\n",
        "with sim._changed:\n    pass\n",
    ],
)
def test_each_way_of_reaching_into_the_code_under_test_is_found(source: str) -> None:
    assert len(offences(source, "x.py")) == 1, source


@pytest.mark.parametrize(
    "source",
    [
        "class Fake:\n    def __init__(self):\n        self._max_fps = 30.0\n",
        "assert board.looks_made[PREMADE_FORM] == made\n",
        "monkeypatch.setattr(BoardWidget, 'texture_of', noted)\n",
        "frame = sys._getframe(1)\n",
        "assert type(x).__name__ == 'Color'\n",
        "assert not [e for e in events if e.get_callback() != Cache._purge_by_timeout]\n",
        "class Flaky(SimStrip):\n    def _ship(self, frame):\n        super()._ship(frame)\n",
    ],
)
def test_fakes_public_reads_and_named_exceptions_are_allowed(source: str) -> None:
    assert offences(source, "x.py") == []


def test_a_single_allowance_holds_in_its_own_file_only() -> None:
    source = "kolossus_views._occupied.__wrapped__\n"
    assert offences(source, "games/kolossus/test_views.py") == []
    assert offences(source, "test_cli.py") == [
        "test_cli.py:1 reaches into kolossus_views._occupied"
    ]
