"""The bundled font draws every character the app shows (no boxes on the panel).

Kivy's Roboto lacks the arrows, checks and crosses the games' texts use; the kiosk
bundles DejaVu Sans Condensed (``kiosk/fonts/``) and makes it Kivy's default font. Coverage is
read from the font's own character map (the TrueType ``cmap`` table), so the test needs
no display and no font library.
"""

from __future__ import annotations

import ast
import struct
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.games import GAME_MODULES, get_rules
from companion.session import Session
from kiosk import fonts

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("kiosk", "companion", "firmware_bridge")
REAL_GAMES = tuple(name for name in GAME_MODULES if name != "toy_pig")  # toy: tests only


@cache
def covered_codepoints(path: Path) -> frozenset[int]:
    """Code points with a glyph, from the font's Unicode ``cmap`` subtables (formats 4
    and 12; a code point mapped to glyph 0, .notdef, counts as missing)."""
    data = path.read_bytes()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    tables = {}
    for i in range(num_tables):
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = (offset, length)
    cmap, _ = tables[b"cmap"]
    codepoints: set[int] = set()
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, sub = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        start = cmap + sub
        fmt = struct.unpack_from(">H", data, start)[0]
        if fmt == 4:
            codepoints |= _format4(data, start)
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, start + 12)[0]
            for g in range(groups):
                first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * g)
                codepoints.update(c for c in range(first, last + 1) if glyph + c - first)
    return frozenset(codepoints)


def _format4(data: bytes, start: int) -> set[int]:
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, start + 14)
    starts = struct.unpack_from(f">{segments}H", data, start + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, start + 16 + 4 * segments)
    range_at = start + 16 + 6 * segments
    ranges = struct.unpack_from(f">{segments}H", data, range_at)
    found = set()
    for i in range(segments):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                at = range_at + 2 * i + ranges[i] + 2 * (code - starts[i])
                glyph = struct.unpack_from(">H", data, at)[0]
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                found.add(code)
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def source_texts() -> Iterator[tuple[str, str]]:
    """(where, text) for every string literal in the app's code (docstrings are not
    shown, so they are left out) and every layout file."""
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docs = _docstrings(tree)
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and isinstance(node.value, str)
                    and id(node) not in docs
                ):
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node.value
    for path in sorted((ROOT / "kiosk" / "kv").glob("*.kv")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def played_texts(game: str, moves: int = 60) -> Iterator[tuple[str, str]]:
    """Titles, statuses, event sentences and action labels of a short random game."""
    rules = get_rules(game)
    players = [f"P{i + 1}" for i in range(max(rules.min_players, min(3, rules.max_players)))]
    session = Session.new(game, players, seed=11)
    bot = RandomBot(5)
    yield f"{game} title", rules.title
    for _ in range(moves):
        state = session.state
        yield f"{game} status", rules.status(state)
        for listed in list(rules.legal_actions(state))[:20]:
            yield f"{game} action", rules.describe(state, listed)
        action = bot.choose(rules, state)
        if action is None:
            break
        session.submit(action)
        for event in session.events[-1]:
            yield f"{game} event", event.text
    outcome = rules.outcome(session.state)
    if outcome is not None:
        yield f"{game} outcome", outcome.text


def uncovered(texts: Iterator[tuple[str, str]], font: Path) -> dict[str, str]:
    """Characters the font cannot draw → where one of them appears."""
    have = covered_codepoints(font)
    missing: dict[str, str] = {}
    for where, text in texts:
        for ch in text:
            if ord(ch) > 127 and ord(ch) not in have and ch.isprintable():
                missing.setdefault(ch, where)
    return missing


def test_the_cmap_reader_reads_a_real_font() -> None:
    have = covered_codepoints(fonts.REGULAR)
    assert {ord(c) for c in "Aa0 ÄéßŁΩЖ→✓✗⇄−…"} <= have
    assert 0x4E00 not in have  # no CJK in DejaVu Sans: the reader does not say yes to all
    assert len(have) > 3000


def test_kivys_roboto_lacks_what_the_games_show() -> None:
    """Why the font is bundled: Roboto would draw boxes for these (the reader can fail)."""
    import kivy

    roboto = Path(kivy.__file__).parent / "data" / "fonts" / "Roboto-Regular.ttf"
    missing = uncovered(iter([("game texts", "→ ⇄ ✓ ✗")]), roboto)
    assert set(missing) == {"→", "⇄", "✓", "✗"}


@pytest.mark.parametrize("font", [fonts.REGULAR, fonts.BOLD], ids=lambda p: p.name)
def test_bundled_font_draws_every_character_of_the_app_texts(font: Path) -> None:
    texts = list(source_texts())
    assert any("→" in text for _, text in texts)  # the sources were really read
    missing = uncovered(iter(texts), font)
    assert not missing, f"{font.name} has no glyph for: " + ", ".join(
        f"{ch!r} (U+{ord(ch):04X}, {where})" for ch, where in missing.items()
    )


@pytest.mark.parametrize("game", REAL_GAMES)
def test_bundled_font_draws_the_texts_of_a_played_game(game: str) -> None:
    missing = uncovered(played_texts(game), fonts.REGULAR)
    assert not missing, ", ".join(f"{ch!r} in {where}" for ch, where in missing.items())


def test_the_licence_ships_beside_the_font() -> None:
    text = fonts.LICENCE.read_text(encoding="utf-8")
    assert "Bitstream Vera" in text and "Arev" in text and "public domain" in text
    assert fonts.REGULAR.stat().st_size > 500_000 and fonts.BOLD.stat().st_size > 500_000


def test_every_label_uses_the_bundled_font() -> None:
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.label import Label

    from kiosk.app import KV_FILES
    from kiosk.screens import load_kv

    load_kv(*KV_FILES)
    label = Label(text="Ann → Bob ✓")
    core = CoreLabel(text=label.text, font_name=label.font_name)
    core.resolve_font_name()
    assert Path(core.options["font_name_r"]) == fonts.REGULAR
    bold = CoreLabel(text="×2", bold=True)  # the board's piece letters
    bold.resolve_font_name()
    assert Path(bold.options["font_name_r"]) == fonts.BOLD


def option_texts(game: str) -> Iterator[tuple[str, str]]:
    """Setup's option texts of ``game``: headings, labels, values, choices and entries in
    words, descriptions with the rule as printed, the "More rules" line."""
    from kiosk.presenters.setup import SetupPresenter

    presenter = SetupPresenter(get_rules(game))
    presenter.toggle_more()
    view = presenter.view()
    yield f"{game} more rules", view.more_text
    for group in (*view.groups, *view.more):
        yield f"{game} group", group.title
        for option in group.options:
            for text in (option.label, option.value_text, option.about, *option.choice_labels):
                yield f"{game} option {option.name}", text
            for element in option.elements:
                for text in (element.label, *element.choice_labels):
                    yield f"{game} option {option.name}", text


@pytest.mark.parametrize("game", REAL_GAMES)
def test_bundled_font_draws_every_option_text(game: str) -> None:
    texts = list(option_texts(game))
    assert any("As printed" in text for _, text in texts)  # the descriptions were read
    missing = uncovered(iter(texts), fonts.REGULAR)
    assert not missing, ", ".join(f"{ch!r} in {where}" for ch, where in missing.items())
