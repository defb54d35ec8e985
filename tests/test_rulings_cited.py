"""Every ruling the referee cites exists in the rules digest.

The IDs below are restated from RULINGS.md (the project never reads it at test time):
the rulings of each game, the principles of section 0.2, and the section numbers a
refusal may name where the rules text itself, not a ruling, decides (e.g. "1.6.2" for
movement square by square). Citations are found two ways: every ``X-Rnn`` anywhere in
``companion/`` (code, messages, docstrings), and every string constant shaped like a
section number (what ``ruling=`` arguments, ``refuse(..., "3.4")`` and option
``json_schema_extra`` hold). The options' rulings are also read from the live models.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion.errors import InvalidOptions
from companion.games import GAME_MODULES, get_rules

COMPANION = Path(__file__).resolve().parent.parent / "companion"

RULING_COUNTS = {"K": 42, "BM": 16, "CA": 19, "CS": 13, "BC": 15}
RULINGS = {
    f"{prefix}-R{number:02d}"
    for prefix, count in RULING_COUNTS.items()
    for number in range(1, count + 1)
}
PRINCIPLES = {"0.2.1", "0.2.2", "0.2.3", "0.2.4", "0.2.5"}
SECTIONS = {
    "0.1", "0.2",
    "1.1", "1.2", "1.3", "1.4", "1.5", "1.5.1", "1.5.2", "1.5.3", "1.6", "1.6.1", "1.6.2",
    "1.6.3", "1.6.4", "1.6.5", "1.7", "1.8", "1.9", "1.10",
    "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.6.1", "2.6.2", "2.6.3", "2.6.4", "2.6.5",
    "2.6.6", "2.6.7", "2.6.8", "2.7", "2.8", "2.9",
    "3.1", "3.2", "3.3", "3.4", "3.5", "3.5.1", "3.6", "3.7", "3.8", "3.9", "3.10", "3.11",
    "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "4.8", "4.9", "4.10", "4.11",
    "5.1", "5.2", "5.3", "5.4", "5.5", "5.6", "5.7", "5.8",
}  # fmt: skip
VALID = RULINGS | PRINCIPLES | SECTIONS

RULING_ID = re.compile(r"\b(?:K|BM|CA|CS|BC)-R\d+\b")
SECTION_ID = re.compile(r"^\d+\.\d+(?:\.\d+)?$")


def _sources() -> list[Path]:
    return sorted(COMPANION.rglob("*.py"))


def _section_constants(path: Path) -> list[tuple[int, str]]:
    """String constants shaped like "3.4" or "0.2.1" (not the package's version)."""
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


def test_the_restated_list_is_complete() -> None:
    assert len(RULINGS) == 42 + 16 + 19 + 13 + 15
    assert "K-R42" in RULINGS and "K-R43" not in RULINGS and "CA-R20" not in RULINGS


def test_every_ruling_id_in_companion_exists() -> None:
    unknown = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for found in RULING_ID.findall(line):
                if found not in RULINGS:
                    unknown.append(f"{path.relative_to(COMPANION.parent)}:{number}: {found}")
    assert unknown == []


def test_every_cited_section_or_principle_exists() -> None:
    unknown = [
        f"{path.relative_to(COMPANION.parent)}:{line}: {value}"
        for path in _sources()
        for line, value in _section_constants(path)
        if value not in VALID
    ]
    assert unknown == []


@pytest.mark.parametrize(
    "game", sorted(n for n, m in GAME_MODULES.items() if m.startswith("companion."))
)
def test_every_option_names_an_existing_ruling(game: str) -> None:
    model = get_rules(game).options_model
    for name, field in model.model_fields.items():
        extra = field.json_schema_extra
        assert isinstance(extra, dict), f"{game}.{name} names no ruling"
        assert extra.get("ruling") in VALID, f"{game}.{name}: {extra.get('ruling')!r}"


def test_the_corrected_citations() -> None:
    """The citations fixed in the audit stay fixed (topic, not only existence)."""

    def ruling(game: str, option: str) -> object:
        extra = get_rules(game).options_model.model_fields[option].json_schema_extra
        assert isinstance(extra, dict)
        return extra["ruling"]

    assert ruling("colossi", "tie_policy") == "0.2.4"  # no CA ruling covers the final tie
    assert ruling("colossi", "mantle_holder") == "3.4"  # setup step 6, not the award CA-R03
    assert ruling("colossi", "mantle_pass_left_after_award") == "CA-R03"
    assert ruling("beast_master", "content") == "0.2.2"  # the content database, not BM-R10
    assert ruling("colossi", "content") == "0.2.2"
    assert ruling("kolossus", "chapter") == "1.8"  # not K-R01 (board size)
    assert ruling("kolossus", "controllers") == "K-R21"
    rules = get_rules("kolossus")
    with pytest.raises(InvalidOptions) as info:
        rules.setup(["A", "B"], rules.parse_options({"controllers": [0, 1, 1, 0]}), 1)
    assert info.value.ruling == "K-R21"
    assert "K-R21" not in info.value.message  # the ID is appended once, by the error
