"""Nothing outside the play presenter and its collaborators writes their fields.

The presenter's state lives in collaborators that own it (the selection and preview in
``BoardInput``, the walk-through in ``FixWalk``, teach mode in ``Teacher`` …); the rest
of the kiosk — the sensing driver, lessons, the hardware hub, the app — calls their
named methods, so a rule such as "a new tap clears the preview" cannot be bypassed.
This test reads the kiosk's code and fails on an assignment to an attribute of the
presenter (``play.focus = …``, ``play.fix.index += 1``) made anywhere else.
"""

from __future__ import annotations

import ast
from pathlib import Path

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"

#: The names the rest of the kiosk holds the play presenter under.
RECEIVERS = ("play", "presenter", "target", "self.play", "self.kiosk.play", "kiosk.play")


def _targets(target: ast.expr) -> list[ast.expr]:
    """``a, b.c = …`` assigns ``a`` and ``b.c`` (not ``b``)."""
    if isinstance(target, ast.Tuple | ast.List):
        return [t for item in target.elts for t in _targets(item)]
    if isinstance(target, ast.Starred):
        return _targets(target.value)
    return [target]


def _written(node: ast.AST) -> list[ast.Attribute]:
    if isinstance(node, ast.Assign):
        targets = [t for target in node.targets for t in _targets(target)]
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        targets = _targets(node.target)
    else:
        return []
    return [t for t in targets if isinstance(t, ast.Attribute)]


def presenter_writes(root: Path) -> list[str]:
    """Each assignment under ``root`` to an attribute of a presenter held under one of
    :data:`RECEIVERS` (or of one of its collaborators), as ``path:line: target``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            for attribute in _written(node):
                receiver = ast.unparse(attribute.value)
                if any(receiver == r or receiver.startswith(r + ".") for r in RECEIVERS):
                    where = path.relative_to(root).as_posix()
                    found.append(f"kiosk/{where}:{attribute.lineno}: {ast.unparse(attribute)}")
    return found


def test_no_kiosk_module_writes_the_play_presenters_fields() -> None:
    found = presenter_writes(KIOSK)
    assert not found, "fields of the play presenter written from outside:\n" + "\n".join(found)


def test_the_check_finds_a_written_field(tmp_path: Path) -> None:
    """The check can fail: the sensing driver ticking a step off by hand is named."""
    (tmp_path / "driver.py").write_text(
        "def tick(play: object) -> None:\n    play.fix.index += 1\n    play.focus = None\n",
        encoding="utf-8",
    )
    assert presenter_writes(tmp_path) == [
        "kiosk/driver.py:2: play.fix.index",
        "kiosk/driver.py:3: play.focus",
    ]
