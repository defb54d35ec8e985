"""The app's seams are typed: ``Any`` in kiosk/ only where Kivy (which has no type hints)
forces it. The count is printed and may not grow; lower ANY_CEILING as seams get typed."""

from __future__ import annotations

import tokenize
from pathlib import Path

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
#: The names ``Any`` in kiosk/ today (the typing name, counted as a token: comments and
#: texts do not count). Lower it when a change types a seam; never raise it.
ANY_CEILING = 0


def any_count(root: Path) -> dict[Path, int]:
    """How many times each module under ``root`` names ``Any`` (modules naming it)."""
    counts: dict[Path, int] = {}
    for path in sorted(root.rglob("*.py")):
        with path.open("rb") as source:
            found = sum(
                1
                for token in tokenize.tokenize(source.readline)
                if token.type == tokenize.NAME and token.string == "Any"
            )
        if found:
            counts[path] = found
    return counts


def test_any_in_the_kiosk_does_not_grow() -> None:
    counts = any_count(KIOSK)
    total = sum(counts.values())
    most = sorted(counts.items(), key=lambda item: -item[1])[:5]
    print(f"Any in kiosk/: {total} (ceiling {ANY_CEILING}); most in:")
    for path, found in most:
        print(f"  {found:4d} {path.relative_to(KIOSK.parent)}")
    assert total <= ANY_CEILING, (
        f"kiosk/ names Any {total} times, more than the ceiling {ANY_CEILING}: type the new"
        f" seam with a Protocol or the real class (most in {most[0][0].name})"
    )


def test_the_count_sees_names_not_words(tmp_path: Path) -> None:
    (tmp_path / "one.py").write_text(
        'from typing import Any\n# Any in a comment\nx: Any = "Any"\nAnyway = 1\n',
        encoding="utf-8",
    )
    assert any_count(tmp_path) == {tmp_path / "one.py": 2}
