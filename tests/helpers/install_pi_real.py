"""Stand-in commands for the installer run in a private mount namespace (as root)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SHIM = '#!/bin/sh\necho "[stand-in] $(basename "$0") $*"\n'


PYTHON3_SHIM = """#!/bin/sh
# python3 -m venv DIR: a venv whose python runs the test's Python and fakes pip
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    printf '%s\\n' '#!/bin/sh' \\
        'if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then echo "[stand-in] pip $*"; exit 0; fi' \\
        'exec {python} "$@"' >"$3/bin/python"
    chmod +x "$3/bin/python"
    exit 0
fi
exec /usr/bin/python3 "$@"
"""


def can_unshare() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None or not Path("/boot").is_dir():
        return False
    probe = subprocess.run(
        ["unshare", "--mount", "--fork", "true"], capture_output=True, timeout=30, check=False
    )
    return probe.returncode == 0
