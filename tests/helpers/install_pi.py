"""``deploy/install-pi`` run against a staged source tree and a fake Pi root folder."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


INSTALLER = REPO / "deploy" / "install-pi"


PI4 = "Raspberry Pi 4 Model B Rev 1.4"


NOBODY = 65534


BOOKWORM_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[all]
"""


BOOKWORM_CMDLINE = (
    "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
    "fsck.repair=yes rootwait quiet splash plymouth.ignore-serial-consoles "
    "cfg80211.ieee80211_regdom=GB\n"
)


def make_source(parent: Path) -> Path:
    """A minimal copy of the project: what install-pi reads and copies."""
    source = parent / "source"
    (source / "companion").mkdir(parents=True)
    (source / "companion" / "__init__.py").write_text('"""stand-in"""\n', encoding="utf-8")
    shutil.copy2(REPO / "pyproject.toml", source / "pyproject.toml")
    shutil.copytree(REPO / "examples", source / "examples")
    shutil.copytree(
        REPO / "deploy", source / "deploy", ignore=shutil.ignore_patterns("__pycache__")
    )
    for path in [source, *source.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if path.is_dir() else 0))
    return source


def make_pi_root(parent: Path, model: str = PI4) -> Path:
    """A staging root that looks like a fresh Raspberry Pi OS Bookworm boot partition."""
    root = parent / "root"
    boot = root / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text(BOOKWORM_CONFIG_TXT, encoding="utf-8")
    (boot / "cmdline.txt").write_text(BOOKWORM_CMDLINE, encoding="utf-8")
    (root / "proc" / "device-tree").mkdir(parents=True)
    (root / "proc" / "device-tree" / "model").write_bytes(model.encode() + b"\x00")
    return root


def install(
    *args: str, as_nobody: bool = False, tmpdir: Path | None = None
) -> subprocess.CompletedProcess[str]:
    command = [str(INSTALLER), *args]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8"}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    if as_nobody and os.geteuid() == 0:
        # The checkout may sit below a directory only its owner can enter (a 0700 temp
        # clone): run the copy in the world-readable ``--source`` instead.
        source = Path(args[args.index("--source") + 1])
        command = [str(source / "deploy" / "install-pi"), *args]
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=120, check=False
    )


def stage(source: Path, root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = install(
        "--source", str(source), "--root", str(root), "--python", sys.executable, *args
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result
