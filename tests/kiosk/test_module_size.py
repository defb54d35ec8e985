"""A module of the app is read in one sitting: none over 600 lines (split by concept when
one grows: the play screen's areas, the presenter's collaborators, the fleet's parts)."""

from __future__ import annotations

from pathlib import Path

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
MOST_LINES = 600


def long_modules(root: Path, most: int = MOST_LINES) -> dict[str, int]:
    """The modules under ``root`` longer than ``most`` lines, with their lengths."""
    lengths = {
        str(path.relative_to(root.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(root.rglob("*.py"))
    }
    return {name: lines for name, lines in lengths.items() if lines > most}


def test_no_kiosk_module_is_over_600_lines() -> None:
    assert long_modules(KIOSK) == {}


def test_the_check_sees_a_long_module(tmp_path: Path) -> None:
    root = tmp_path / "kiosk"
    root.mkdir()
    (root / "long.py").write_text("x = 1\n" * 601, encoding="utf-8")
    (root / "short.py").write_text("x = 1\n" * 600, encoding="utf-8")
    assert long_modules(root) == {"kiosk/long.py": 601}
