"""deploy/install-pi for real, as root, in a private mount namespace that looks like a Pi 4.

``/etc``, ``/var``, ``/opt`` and ``/usr/local`` are overlays whose changes land in a
temporary directory, ``/boot`` is a temporary Bookworm boot partition, and ``/proc`` is
a directory holding only ``device-tree/model``. apt-get, systemctl, udevadm and the
venv's pip are stand-ins that print what they were asked; useradd, usermod, install,
chown and the boot-file edits are the real thing. This runs the installer's real path
(owners, modes, atomic renames), then a second time, which must change nothing. The host
is never touched: the installer refuses to run unless the namespace's /proc says
"Raspberry Pi", and that mount comes last.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.install_pi_real import PYTHON3_SHIM, SHIM
from tests.helpers.install_pi_real import can_unshare as _can_unshare

REPO = Path(__file__).resolve().parents[2]

INNER = """set -e
for dir in etc var opt usr/local; do
    name=$(echo "$dir" | tr / _)
    mkdir -p "{work}/up/$name" "{work}/wk/$name"
    mount -t overlay overlay \\
        -o "lowerdir=/$dir,upperdir={work}/up/$name,workdir={work}/wk/$name" "/$dir"
done
mount --bind "{work}/boot" /boot
mount --bind "{work}/proc" /proc
export PATH="{work}/shims:$PATH"
{installer} --rotate 180 >"{work}/run1.txt" 2>&1
{installer} >"{work}/run2.txt" 2>&1
stat -c '%U:%G %a %n' /var/lib/colossus-companion /var/lib/colossus-companion/kivy \\
    /var/lib/colossus-companion/kivy/config.ini /etc/colossus-companion/companion.toml \\
    /usr/local/bin/companion >"{work}/stat.txt"
id -nG companion >"{work}/groups.txt"
cp /boot/firmware/config.txt /boot/firmware/cmdline.txt "{work}/"
"""


@pytest.mark.skipif(not _can_unshare(), reason="needs root, unshare and /boot")
def test_a_real_run_on_a_pretend_pi_installs_and_a_second_run_changes_nothing(
    tmp_path: Path,
) -> None:
    work = tmp_path
    (work / "boot/firmware").mkdir(parents=True)
    (work / "boot/firmware/config.txt").write_text(
        "dtparam=audio=on\ndtoverlay=vc4-kms-v3d\n[all]\n", encoding="utf-8"
    )
    (work / "boot/firmware/cmdline.txt").write_text(
        "console=tty1 root=PARTUUID=x-02 rootwait quiet\n", encoding="utf-8"
    )
    (work / "proc/device-tree").mkdir(parents=True)
    (work / "proc/device-tree/model").write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    shims = work / "shims"
    shims.mkdir()
    for name in ("apt-get", "systemctl", "udevadm"):
        (shims / name).write_text(SHIM, encoding="utf-8")
    (shims / "python3").write_text(PYTHON3_SHIM.replace("{python}", sys.executable), "utf-8")
    for shim in shims.iterdir():
        shim.chmod(0o755)
    script = INNER.format(work=work, installer=REPO / "deploy" / "install-pi")
    result = subprocess.run(
        ["unshare", "--mount", "--fork", "bash", "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    run1 = (work / "run1.txt").read_text(encoding="utf-8") if (work / "run1.txt").exists() else ""
    assert result.returncode == 0, result.stderr + run1
    assert "installer (real run)" in run1 and "run: useradd --system" in run1
    assert (
        "[stand-in] pip -m pip install --quiet -c /opt/colossus-companion/src/requirements.lock"
        " /opt/colossus-companion/src[pi]"
    ) in run1
    # The service runs optimised and cannot write the venv: its -O byte code is made here.
    assert "-O -m compileall -q -j 0 /opt/colossus-companion/venv" in run1
    stats = (work / "stat.txt").read_text(encoding="utf-8").splitlines()
    assert stats == [
        # PWM LEDs on a Pi 4: the service runs as root (CAP_SYS_RAWIO only, no
        # CAP_DAC_OVERRIDE), so the data directory is root's, the companion group's to read.
        "root:companion 750 /var/lib/colossus-companion",
        # Kivy's settings: root's, readable by the service, never written by it.
        "root:companion 750 /var/lib/colossus-companion/kivy",
        "root:companion 640 /var/lib/colossus-companion/kivy/config.ini",
        "root:root 644 /etc/colossus-companion/companion.toml",
        "root:root 755 /usr/local/bin/companion",
    ]
    assert {"companion", "video", "dialout"} <= set((work / "groups.txt").read_text().split())
    assert "video=DSI-1:800x480@60,rotate=180" in (work / "cmdline.txt").read_text()
    assert "dtparam=audio=off" in (work / "config.txt").read_text(encoding="utf-8")
    run2 = (work / "run2.txt").read_text(encoding="utf-8")
    assert "rotation: 180" in run2  # remembered
    for verb in (
        "wrote:",
        "copied:",
        "removed:",
        "directory:",
        "useradd",
        "usermod",
        "pip",
        "compileall",
    ):
        assert verb not in run2, run2
    assert not Path("/etc/colossus-companion").exists()  # the host is untouched
