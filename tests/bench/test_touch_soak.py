"""bench/bench_touch_soak.py runs the real app under random touches and counts exits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_soak_reports_no_exit() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_touch_soak.py"), "--touches", "120"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = dict(
        line.strip().split(None, 1)
        for line in result.stdout.splitlines()
        if line.startswith("  ") and len(line.split()) >= 2
    )
    assert int(lines["touches"]) >= 120
    assert lines["exits"].split()[0] == "0", result.stdout
    assert lines["batches"].split()[0] != "0"  # multi-finger batches were sent
