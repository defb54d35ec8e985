"""The kiosk's widget tests check behaviour: what is drawn, shown, scheduled or sent.

A test that reads a private attribute of the object under test (``screen._shown``), calls
a private method of it, patches one (``monkeypatch.setattr(Board, "_make", spy)``) or
counts calls (``mock.call_count``, ``assert_called_once``) breaks when the code is
reorganised without a change of behaviour, and passes when the behaviour breaks in a
way the counted call does not see. Such tests read a public property the product uses,
the canvas, the clock's scheduled events or the screen's widgets instead; speed goals
(how many times the rules are asked per touch) belong to bench/.

Allowed: a fake's own members (``self._x`` inside the fake), and Kivy's and the standard
library's private names that a test must name to pin or stand for them (listed in
``ALLOWED`` with the reason).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
KIOSK_TESTS = TESTS / "kiosk"
#: The kiosk's widget tests: the Kivy screens, widgets, pace and touch input.
PATTERNS = ("test_widgets_*.py", "test_pace*.py", "test_text_measure.py", "test_touch_wake.py")
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


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def offences(source: str, where: str) -> list[str]:
    """Private reads, private patches and call counting in ``source``, by line."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            owner = node.value
            if node.attr in CALL_COUNTING:
                found.append(f"{where}:{node.lineno} counts calls ({node.attr})")
            elif (
                _private(node.attr)
                and not (isinstance(owner, ast.Name) and owner.id in ("self", "cls"))
                and node.attr not in ALLOWED
            ):
                found.append(f"{where}:{node.lineno} reaches into {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and _patches_a_private(node):
            name = node.args[1]
            assert isinstance(name, ast.Constant) and isinstance(name.value, str)
            patched: str = name.value
            found.append(f"{where}:{node.lineno} patches {patched}")
    return found


def _patches_a_private(call: ast.Call) -> bool:
    function = call.func
    if not isinstance(function, ast.Attribute) or function.attr != "setattr":
        return False
    if len(call.args) < 2:
        return False
    name = call.args[1]
    return isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value)


def _widget_tests() -> list[Path]:
    return sorted({path for pattern in PATTERNS for path in KIOSK_TESTS.glob(pattern)})


def test_kiosk_widget_tests_check_behaviour_not_private_attributes_or_call_counts() -> None:
    paths = _widget_tests()
    assert len(paths) > 10, "the widget tests moved: update PATTERNS"
    found = [
        offence
        for path in paths
        for offence in offences(path.read_text(encoding="utf-8"), path.name)
    ]
    assert found == [], (
        "test what is drawn, shown, scheduled or sent (or give the product a public "
        "read-only property it uses itself); speed goals belong to bench/:\n" + "\n".join(found)
    )


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
    ],
)
def test_fakes_public_reads_and_named_exceptions_are_allowed(source: str) -> None:
    assert offences(source, "x.py") == []
