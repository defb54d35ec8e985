"""Test helpers that never import Kivy (presenter tests use them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def assert_imports_without_kivy(*modules: str) -> None:
    """Import ``modules`` in a fresh interpreter and fail if that pulled in Kivy."""
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + "bad = sorted(m for m in sys.modules if m == 'kivy' or m.startswith('kivy.'))\n"
        + "print(' '.join(bad[:5]))\n"
        + "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, f"Kivy was imported: {result.stdout} {result.stderr[-500:]}"


def screenshot_dir() -> Path:
    """Where screenshot tests save their PNGs (to be opened and looked at).

    ``artifacts/screenshots`` by default, so a test run leaves the tree clean;
    ``COMPANION_SCREENSHOTS=docs`` refreshes the ones the docs show in ``docs/images``.
    """
    import os

    if os.environ.get("COMPANION_SCREENSHOTS", "").strip().lower() == "docs":
        folder = ROOT / "docs" / "images"
    else:
        folder = ROOT / "artifacts" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
