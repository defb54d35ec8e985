"""No kiosk module names a game's action type or piece kind: roles come from the rules.

The kiosk plays five games through one contract. What an action is to the table's
controls (the "End turn" button's, the roll, a region move's arrow, a form that opens
by itself, a piece put on the board) is ``Rules.action_role``; which pieces a sensing
board sees is ``Piece.sensed`` on the board view. This test reads every string in the
kiosk's Python code and fails on one that is an action type or a piece kind of any
game (or the prefix of one, as ``startswith("enter_")`` guessed an entry form).
"""

from __future__ import annotations

import ast
import typing
from pathlib import Path

from companion.games import available_games, get_rules
from companion.rules import ROLL_TYPE
from companion.views import PieceKind

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"

#: Words that are an action type of some game and also something else the kiosk names,
#: by the module that names them and what they are there.
OTHER_MEANINGS: dict[tuple[str, str], str] = {
    ("screens/play.py", "cards"): "the play screen's mode that shows a card game's table",
    ("screens/play_table.py", "cards"): "the same mode, which the table area shows",
    ("hardware.py", "end_turn"): "the table's button of that name (firmware_bridge.buttons)",
    ("presenters/sensing.py", "water"): "a terrain with no landscape piece on it",
    ("presenters/looks.py", "water"): "the colour of a Water space",
    ("redaction.py", "token"): "a setting whose value is a secret (redacted in a report)",
    ("ui_map.py", "banner"): "the play screen's banner widget (its id in the .kv file)",
    ("settings/sections.py", "colossus"): "the fleet's default topic prefix (the product's name)",
}


def _game_words() -> frozenset[str]:
    words = {ROLL_TYPE, *typing.get_args(PieceKind)}
    for name in available_games():
        words |= set(get_rules(name).action_models())
    return frozenset(words)


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    """The module's string constants, docstrings left out (prose may name an action)."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def named_game_words(root: Path, words: frozenset[str]) -> list[str]:
    """Each string under ``root`` that is one of ``words`` or the ``_``-ended prefix of
    one, as ``path:line: 'word'`` (the meanings of :data:`OTHER_MEANINGS` excepted)."""
    prefixes = {w[: i + 1] for w in words for i, c in enumerate(w) if c == "_"}
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for line, text in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            if (text in words or text in prefixes) and (where, text) not in OTHER_MEANINGS:
                found.append(f"kiosk/{where}:{line}: {text!r}")
    return found


def test_no_kiosk_module_names_an_action_type_or_a_piece_kind() -> None:
    found = named_game_words(KIOSK, _game_words())
    assert not found, "kiosk names a game's action type or piece kind:\n" + "\n".join(found)


def test_the_check_finds_a_named_action_type(tmp_path: Path) -> None:
    """The check can fail: a module that guesses an entry form by its prefix, or
    compares with a game's end-of-turn action, is named with its line."""
    (tmp_path / "guess.py").write_text(
        'def entry(kind: str) -> bool:\n    return kind.startswith("enter_") or kind == "spawn"\n',
        encoding="utf-8",
    )
    found = named_game_words(tmp_path, _game_words())
    assert found == ["kiosk/guess.py:2: 'enter_'", "kiosk/guess.py:2: 'spawn'"]
