"""One shape for the five games: the same modules with the same roles in every package,
the same short list of exports, and one way to refuse an action."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

from companion.games import GAME_MODULES, SUMMARIES

GAMES_DIR = Path(__file__).resolve().parents[2] / "companion" / "games"

#: The modules every game package has: fixed data, the state and its actions, the action
#: handlers, the ``Rules`` class, and what a screen reads.
ENTRY_MODULES = ("content", "model", "play", "rules", "views")


@pytest.mark.parametrize("game", sorted(SUMMARIES))  # the five games (not the toy)
def test_each_game_package_has_the_five_modules(game: str) -> None:
    package = GAME_MODULES[game]
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.submodule_search_locations, f"{package} is no package"
    missing = [m for m in ENTRY_MODULES if importlib.util.find_spec(f"{package}.{m}") is None]
    assert not missing, f"{package} lacks {missing}"


@pytest.mark.parametrize("game", sorted(SUMMARIES))  # the five games (not the toy)
def test_each_game_package_exports_its_rules_and_their_models(game: str) -> None:
    """``RULES`` (from the package's rules module), its class, the options, the state
    and the action union: the same five names in every package."""
    package = importlib.import_module(GAME_MODULES[game])
    rules_module = importlib.import_module(f"{GAME_MODULES[game]}.rules")
    rules = package.RULES
    assert rules is rules_module.RULES
    assert rules.name == game
    expected = {
        "RULES",
        type(rules).__name__,
        rules.options_model.__name__,
        rules.state_model.__name__,
        f"{rules.state_model.__name__.removesuffix('State')}Action",
    }
    assert set(package.__all__) == expected
    for name in expected:
        assert hasattr(package, name), f"{package.__name__} does not define {name}"
    assert package.__dict__[f"{rules.state_model.__name__.removesuffix('State')}Action"] is (
        type(rules).action_type
    )


def _direct_refusals(path: Path) -> list[str]:
    """Where ``path`` builds a RuleViolation itself instead of through ``refuse``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == "RuleViolation":
                found.append(f"{path.relative_to(GAMES_DIR)}:{node.lineno}")
    return found


def test_games_refuse_only_through_the_one_helper() -> None:
    """Every refusal of a game goes through ``companion.rules.refuse`` (the message and
    the ruling ID), never a RuleViolation of its own making or a copy of the helper."""
    direct = [hit for path in sorted(GAMES_DIR.rglob("*.py")) for hit in _direct_refusals(path)]
    assert not direct, f"RuleViolation raised directly at {direct}"
    copies = [
        f"{path.relative_to(GAMES_DIR)}:{node.lineno}"
        for path in sorted(GAMES_DIR.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name in ("refuse", "violation")
    ]
    assert not copies, f"a copy of companion.rules.refuse at {copies}"
