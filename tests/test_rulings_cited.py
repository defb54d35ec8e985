"""Every ruling the code cites is defined in docs/rulings.md, and every entry there is cited.

docs/rulings.md is the project's own reference of the IDs (``K-R13``, ``BC-R04`` …), the
principles (``0.2.1`` …) and the rule sections (``1.6.2`` …) a refusal may name. Citations
are found three ways: every ``X-Rnn`` anywhere in ``companion/``, ``kiosk/`` and
``firmware_bridge/`` (code, messages, docstrings); every principle ``0.2.n`` written there;
and every string constant in ``companion/`` shaped like a section number (what
``ruling=`` arguments, ``refuse(..., "3.4")`` and option ``json_schema_extra`` hold). The
options' rulings are also read from the live models.
"""

from __future__ import annotations

import pytest

from companion.errors import InvalidOptions
from companion.games import GAME_MODULES, get_rules
from tests.helpers.rulings import REPO, RULINGS_DOC, Entry, RulingsFormatError, cited, parse_rulings


@pytest.fixture(scope="module")
def entries() -> dict[str, Entry]:
    return parse_rulings(RULINGS_DOC.read_text(encoding="utf-8"))


def test_every_ruling_the_code_cites_is_defined(entries: dict[str, Entry]) -> None:
    missing = {ident: places[0] for ident, places in cited().items() if ident not in entries}
    assert missing == {}, "add these to docs/rulings.md"


def test_every_entry_is_cited_by_the_code(entries: dict[str, Entry]) -> None:
    orphans = sorted(set(entries) - set(cited()))
    assert orphans == [], "docs/rulings.md defines rulings no code cites"


def test_every_where_names_a_file_that_cites_it(entries: dict[str, Entry]) -> None:
    citations = cited()
    wrong = [
        f"{entry.id}: {path}"
        for entry in entries.values()
        for path in entry.where
        if not (REPO / path).is_file()
        or not any(place.startswith(f"{path}:") for place in citations.get(entry.id, []))
    ]
    assert wrong == []


def test_all_106_rulings_of_the_five_games_are_there(entries: dict[str, Entry]) -> None:
    counts = {prefix: 0 for prefix in ("K", "BM", "CA", "CS", "BC")}
    for ident in entries:
        if "-R" in ident:
            counts[ident.split("-")[0]] += 1
    assert counts == {"K": 42, "BM": 17, "CA": 19, "CS": 13, "BC": 15}


@pytest.mark.parametrize(
    "game", sorted(n for n, m in GAME_MODULES.items() if m.startswith("companion."))
)
def test_every_option_names_a_defined_ruling(game: str, entries: dict[str, Entry]) -> None:
    model = get_rules(game).options_model
    for name, field in model.model_fields.items():
        extra = field.json_schema_extra
        assert isinstance(extra, dict), f"{game}.{name} names no ruling"
        assert extra.get("ruling") in entries, f"{game}.{name}: {extra.get('ruling')!r}"


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


# --- the parser itself ----------------------------------------------------------------------

GOOD = """# Rulings

## A game

### K-R01 — A board

Eleven by eleven.

Where: `companion/rules.py`

### 0.2.1 — The table

It wins.
Where: `a.py`, `b.py`
"""


def test_the_parser_reads_entries_with_their_lines() -> None:
    parsed = parse_rulings(GOOD)
    assert list(parsed) == ["K-R01", "0.2.1"]
    assert parsed["K-R01"] == Entry(
        "K-R01", "A board", "Eleven by eleven.", ("companion/rules.py",), 5
    )
    assert parsed["0.2.1"].where == ("a.py", "b.py")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            GOOD + "\n### K-R01 — Again\n\nText.\n\nWhere: `x.py`\n",
            "line 16: K-R01 again (first on line 5)",
        ),
        ("### K-R02 — No where\n\nText.\n", "line 1: K-R02 has no 'Where:' line"),
        ("### K-R02\n\nText.\n\nWhere: `x.py`\n", "line 1: a heading needs '### ID — title'"),
        ("### KR-2 — Bad\n\nText.\n\nWhere: `x.py`\n", "line 1: 'KR-2' is not a ruling ID"),
        ("### K-R02 — Empty\n\nWhere: `x.py`\n", "line 1: K-R02 says nothing"),
    ],
)
def test_the_parser_refuses_a_malformed_page(text: str, message: str) -> None:
    with pytest.raises(RulingsFormatError) as refused:
        parse_rulings(text)
    assert str(refused.value) == message
