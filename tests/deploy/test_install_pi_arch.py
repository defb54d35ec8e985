"""deploy/install-pi refuses a 32-bit Raspberry Pi OS; deploy/arm64-proof's steps are documented.

Kivy publishes no wheel for 32-bit ARM, so on Raspberry Pi OS armhf the installer stops
before it changes anything and says which OS to write instead. The refusal is checked here
without emulation: in a private mount namespace whose ``/proc`` says "Raspberry Pi 4" and
whose ``dpkg`` says armhf, with ``/etc``, ``/var``, ``/opt`` and ``/usr/local`` as overlays
(so a refusal that failed would change only a temporary directory). The emulated proof
itself (deploy/arm64-proof) takes tens of minutes and is not part of the suite; its step
list is compared with the run shown in docs/deploy.md.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.install_pi_real import PYTHON3_SHIM, SHIM
from tests.helpers.install_pi_real import can_unshare as _can_unshare

REPO = Path(__file__).resolve().parents[2]
INSTALLER = REPO / "deploy" / "install-pi"
PROOF = REPO / "deploy" / "arm64-proof"
DEPLOY_DOC = REPO / "docs" / "deploy.md"

DPKG_SHIM = '#!/bin/sh\n[ "$1" = --print-architecture ] && echo {arch} && exit 0\nexit 1\n'
INNER = """set -e
for dir in etc var opt usr/local; do
    name=$(echo "$dir" | tr / _)
    mkdir -p "{work}/up/$name" "{work}/wk/$name"
    mount -t overlay overlay \\
        -o "lowerdir=/$dir,upperdir={work}/up/$name,workdir={work}/wk/$name" "/$dir"
done
mount --bind "{work}/proc" /proc
export PATH="{work}/shims:$PATH"
status=0
{installer} --dry-run >"{work}/dry.txt" 2>&1 || status=$?
echo "$status" >"{work}/dry-status.txt"
status=0
{installer} >"{work}/real.txt" 2>&1 || status=$?
echo "$status" >"{work}/real-status.txt"
"""


@pytest.mark.skipif(not _can_unshare(), reason="needs root, unshare and /boot")
def test_a_32_bit_raspberry_pi_os_is_refused_before_anything_changes(tmp_path: Path) -> None:
    work = tmp_path
    (work / "proc/device-tree").mkdir(parents=True)
    (work / "proc/device-tree/model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    shims = work / "shims"
    shims.mkdir()
    for name in ("apt-get", "systemctl", "udevadm", "useradd", "usermod"):
        (shims / name).write_text(SHIM, encoding="utf-8")
    # The 32-bit OS on a Pi 4 runs a 64-bit kernel: uname says aarch64, dpkg says armhf.
    (shims / "dpkg").write_text(DPKG_SHIM.format(arch="armhf"), encoding="utf-8")
    (shims / "uname").write_text("#!/bin/sh\necho aarch64\n", encoding="utf-8")
    (shims / "python3").write_text(PYTHON3_SHIM.replace("{python}", sys.executable), "utf-8")
    for shim in shims.iterdir():
        shim.chmod(0o755)
    script = INNER.format(work=work, installer=INSTALLER)
    result = subprocess.run(
        ["unshare", "--mount", "--fork", "bash", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    real = (work / "real.txt").read_text(encoding="utf-8")
    assert (work / "real-status.txt").read_text().strip() == "1", real
    assert "32-bit Raspberry Pi OS (armhf)" in real
    assert "Raspberry Pi OS Lite (64-bit)" in real and "Kivy" in real
    assert "[stand-in]" not in real and "run:" not in real  # refused before any step
    changed = [p for p in (work / "up").rglob("*") if not p.is_dir()]
    assert changed == []
    # The dry run still shows every step, and says that a real run would refuse.
    dry = (work / "dry.txt").read_text(encoding="utf-8")
    assert (work / "dry-status.txt").read_text().strip() == "0", dry
    assert "a real run would refuse: this is a 32-bit Raspberry Pi OS (armhf)" in dry
    assert "would run: apt-get update" in dry


def _proof_steps(*args: str) -> list[str]:
    listed = subprocess.run(
        ["bash", str(PROOF), "--list", *args], capture_output=True, text=True, check=True
    ).stdout
    return [line.split()[0] for line in listed.splitlines()]


def test_the_proof_lists_its_steps_without_root_or_emulation() -> None:
    steps = _proof_steps()
    assert steps[:3] == ["host", "base", "root"]
    assert {"install", "files", "again", "imports", "screenshot", "tests"} <= set(steps)
    assert _proof_steps("--arch", "armhf") == ["host", "base", "root", "refusal"]


def test_the_documented_run_shows_every_step_of_the_proof_with_its_time() -> None:
    """docs/deploy.md shows every step of an arm64 run passing, in order, with its time."""
    doc = DEPLOY_DOC.read_text(encoding="utf-8")
    passed = re.findall(r"^ok +(\S+) +(?:\d+\.\d s|\d+m\d\ds)  ", doc, flags=re.MULTILINE)
    assert list(dict.fromkeys(passed)) == [*_proof_steps(), "refusal"]  # then the armhf run
    assert (REPO / "docs/images/screen-arm64-home.png").is_file()
