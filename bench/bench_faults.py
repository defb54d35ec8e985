"""The fault suite at full size: 1,000 kills, 10⁷ bytes of noise, 100,000 protocol lines …

Runs ``tests/faults/`` (or the test files and folders named: the suite's long sizes are
all behind the same switch, see docs/testing.md) with ``COMPANION_FAULTS=long``
(``--short``: the sizes the test suite uses), collects the ``FAULTS <name> {json}``
line each fault test prints, and prints one table of what was done and what went
wrong. Asserts nothing itself: the tests inside fail on any traceback, lost move or
false roll, and the exit status says whether they all passed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FAULTS_LINE = re.compile(r"FAULTS (\S+) (\{.*\})$", re.MULTILINE)


def run(short: bool, selection: str | None, paths: list[str]) -> int:
    env = {**os.environ, "COMPANION_FAULTS": "short" if short else "long"}
    command = [
        sys.executable, "-m", "pytest", *(paths or ["tests/faults"]),
        "-s", "-q", "-p", "no:cacheprovider",
        "--timeout", "7200", "-n", "0",  # in this process: workers' prints are not shown
    ]  # fmt: skip
    if selection:
        command += ["-k", selection]
    started = time.monotonic()
    proc = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    figures = {name: json.loads(data) for name, data in FAULTS_LINE.findall(proc.stdout)}
    where = " ".join(paths or ["tests/faults"])
    print(f"{where} ({'short' if short else 'long'} sizes), {wall:.0f} s wall")
    for name, values in sorted(figures.items()):
        shown = ", ".join(f"{key} {value:,}" if isinstance(value, int) else f"{key} {value}"
                          for key, value in sorted(values.items()))  # fmt: skip
        print(f"  {name:28s} {shown}")
    summary = proc.stdout.strip().splitlines()[-1:] or ["(no pytest output)"]
    print(f"pytest: {summary[0]}")
    if proc.returncode != 0:
        print(proc.stdout[-4000:])
        print(proc.stderr[-2000:], file=sys.stderr)
    return proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="the test suite's sizes")
    parser.add_argument("-k", dest="selection", help="only these fault tests (pytest -k)")
    parser.add_argument(
        "paths", nargs="*", help="test files or folders at their long sizes (tests/faults)"
    )
    args = parser.parse_args()
    return run(args.short, args.selection, args.paths)


if __name__ == "__main__":
    sys.exit(main())
