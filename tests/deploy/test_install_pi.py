"""deploy/install-pi: the dry run touches nothing, staging writes the kiosk's files, twice = once.

The installer only changes a machine for real on a Raspberry Pi. Here it runs three ways:
``--dry-run`` as an unprivileged user (prints every action, writes nothing), ``--root DIR``
(the file-writing parts, into a temporary root: config, unit, udev rule, boot files, Kivy
config), and for real (which must refuse on this machine). The source is a small copy of
the files the installer reads, so other work in the tree cannot change the fingerprint.
"""

from __future__ import annotations

import configparser
import hashlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.settings import parse_config_file
from tests.helpers.install_pi import (
    BOOKWORM_CMDLINE,
    BOOKWORM_CONFIG_TXT,
    PI4,
    REPO,
    install,
    make_pi_root,
    make_source,
    stage,
)

PI5 = "Raspberry Pi 5 Model B Rev 1.0"
PI3 = "Raspberry Pi 3 Model B Plus Rev 1.3"


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A temporary directory an unprivileged user can read (pytest's tmp_path is 0700)."""
    path = Path(tempfile.mkdtemp(prefix="install-pi-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def tree(root: Path) -> dict[str, str]:
    """Every path below ``root`` with its type, mode and content hash."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        mode = stat.S_IMODE(path.lstat().st_mode)
        if path.is_symlink():
            found[str(path.relative_to(root))] = f"link {os.readlink(path)}"
        elif path.is_dir():
            found[str(path.relative_to(root))] = f"dir {mode:o}"
        else:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            found[str(path.relative_to(root))] = f"file {mode:o} {digest}"
    return found


def on_a_pi() -> bool:
    try:
        return Path("/proc/device-tree/model").read_bytes().startswith(b"Raspberry Pi")
    except OSError:
        return False


# --- dry run ---------------------------------------------------------------------------


def test_dry_run_as_a_normal_user_prints_every_step_and_touches_nothing(shared_tmp: Path) -> None:
    source = make_source(shared_tmp)
    root = make_pi_root(shared_tmp)
    private_tmp = shared_tmp / "tmp"
    private_tmp.mkdir(mode=0o777)
    private_tmp.chmod(0o777)
    before = tree(shared_tmp)
    result = install(
        "--dry-run", "--source", str(source), "--root", str(root), "--rotate", "180",
        as_nobody=True, tmpdir=private_tmp,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "apt-get install -y --no-install-recommends" in out
    assert "libmtdev1" in out and "libgbm1" in out and "python3-venv" in out
    assert "useradd --system" in out and "companion" in out
    assert "usermod --append --groups gpio,spi,i2c,video,render,input,dialout companion" in out
    assert "would write: /etc/systemd/system/colossus-companion.service" in out
    assert "would write: /etc/udev/rules.d/99-colossus-dice.rules" in out
    assert "would write: /etc/colossus-companion/companion.toml" in out
    assert "would update: /boot/firmware/config.txt" in out
    assert "dtparam=spi=on" in out and "dtparam=audio=off" in out
    assert "video=DSI-1:800x480@60,rotate=180" in out and "consoleblank=0" in out
    assert "would run: systemctl enable colossus-companion.service" in out
    assert tree(shared_tmp) == before  # nothing written, the temporary files cleaned up


def test_dry_run_without_a_root_describes_the_real_paths(shared_tmp: Path) -> None:
    source = make_source(shared_tmp)
    result = install("--dry-run", "--source", str(source), as_nobody=True)
    assert result.returncode == 0, result.stderr
    assert "would add to /boot/firmware/config.txt" in result.stdout
    assert "would set in /boot/firmware/cmdline.txt (one line): consoleblank=0" in result.stdout
    assert "would write: /var/lib/colossus-companion/kivy/config.ini" in result.stdout
    assert "(dry run: nothing was changed)" in result.stdout


def test_what_tests_write_into_artifacts_is_neither_copied_nor_fingerprinted(
    shared_tmp: Path,
) -> None:
    """A screenshot test writing artifacts/ while the real-run test installed from the
    same tree made the second run copy the source again ("copied:" in run 2)."""
    source = make_source(shared_tmp)

    def would_copy() -> str:
        result = install("--dry-run", "--source", str(source), as_nobody=True)
        assert result.returncode == 0, result.stderr
        return next(line for line in result.stdout.splitlines() if "would copy:" in line)

    before = would_copy()
    (source / "artifacts" / "screenshots").mkdir(parents=True)
    (source / "artifacts" / "screenshots" / "screen-home.png").write_bytes(b"\x89PNG")
    try:
        assert would_copy() == before
    finally:
        shutil.rmtree(source / "artifacts")


@pytest.mark.skipif(on_a_pi(), reason="this machine is a Raspberry Pi")
def test_a_real_run_off_a_pi_is_refused_with_a_clear_message(shared_tmp: Path) -> None:
    source = make_source(shared_tmp)
    result = install("--source", str(source), as_nobody=True)
    assert result.returncode == 1
    assert "not a Raspberry Pi" in result.stderr and "--dry-run" in result.stderr
    assert result.stdout == ""  # refused before any step


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rotate", "45"), "--rotate takes 0, 90, 180 or 270"),
        (("--leds", "dma"), "--leds takes auto, pwm, spi or none"),
        (("--leds", "pwm", "--model", PI5), "rpi_ws281x does not support the Pi 5"),
        (("--bogus",), "unknown option: --bogus"),
    ],
)
def test_bad_options_are_refused(shared_tmp: Path, args: tuple[str, ...], message: str) -> None:
    result = install("--dry-run", "--source", str(make_source(shared_tmp)), *args, as_nobody=True)
    assert result.returncode != 0 and message in result.stderr


# --- staging: the real file-writing path into a temporary root ----------------------------


def test_staging_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    first = stage(source, root, "--rotate", "180")
    after_first = tree(root)
    second = stage(source, root, "--rotate", "180")
    assert tree(root) == after_first
    for verb in ("wrote:", "copied:", "directory:", "kept a copy"):
        assert verb in first.stdout
    for verb in ("wrote:", "copied:", "removed:", "directory:", "kept a copy"):
        assert verb not in second.stdout, second.stdout


def test_staging_installs_the_unit_rule_wrapper_and_journald_limits(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root)
    deploy = REPO / "deploy"
    pairs = {
        "etc/systemd/system/colossus-companion.service": "colossus-companion.service",
        "etc/udev/rules.d/99-colossus-dice.rules": "99-colossus-dice.rules",
        "etc/systemd/journald.conf.d/50-colossus-companion.conf": (
            "journald-colossus-companion.conf"
        ),
        "usr/local/bin/companion": "companion",
    }
    for installed, shipped in pairs.items():
        assert (root / installed).read_bytes() == (deploy / shipped).read_bytes(), installed
    assert os.access(root / "usr/local/bin/companion", os.X_OK)
    assert (root / "opt/colossus-companion/src/pyproject.toml").is_file()
    assert (root / "etc/colossus-companion/layouts/kolossus-11x11-serpentine.json").is_file()
    data = root / "var/lib/colossus-companion"
    assert stat.S_IMODE(data.stat().st_mode) == 0o750


def test_pwm_leds_on_a_pi_4_run_the_service_as_root_with_audio_off(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path, PI4)
    stage(source, root)
    dropin = root / "etc/systemd/system/colossus-companion.service.d/10-ws281x-root.conf"
    assert "User=root" in dropin.read_text(encoding="utf-8")
    config_txt = (root / "boot/firmware/config.txt").read_text(encoding="utf-8")
    block = config_txt.split("# >>> colossus-companion (deploy/install-pi) >>>\n", 1)[1]
    assert block.splitlines()[:3] == ["[all]", "dtparam=spi=on", "dtparam=audio=off"]
    assert config_txt.startswith(BOOKWORM_CONFIG_TXT.rstrip("\n"))  # the rest is kept
    saved = root / "boot/firmware/config.txt.before-colossus-companion"
    assert saved.read_text(encoding="utf-8") == BOOKWORM_CONFIG_TXT


def test_spi_leds_on_a_pi_5_stay_unprivileged_and_switching_removes_the_root_dropin(
    tmp_path: Path,
) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path, PI4)
    stage(source, root)  # auto on a Pi 4: PWM
    dropin = root / "etc/systemd/system/colossus-companion.service.d/10-ws281x-root.conf"
    assert dropin.exists()
    (root / "proc/device-tree/model").write_bytes(PI5.encode() + b"\x00")
    result = stage(source, root)  # auto on a Pi 5: SPI
    assert "removed: /etc/systemd/system/colossus-companion.service.d/10-ws281x-root.conf" in (
        result.stdout
    )
    assert not dropin.exists()
    config_txt = (root / "boot/firmware/config.txt").read_text(encoding="utf-8")
    assert "dtparam=audio=off" not in config_txt and config_txt.count("dtparam=spi=on") == 1
    assert config_txt.count("# >>> colossus-companion") == 1
    cmdline = (root / "boot/firmware/cmdline.txt").read_text(encoding="utf-8")
    assert "spidev.bufsiz=65536" in cmdline.split()


@pytest.mark.parametrize(("model", "line"), [(PI4, "core_freq_min=500"), (PI3, "core_freq=250")])
def test_spi_leds_pin_the_core_clock_on_pi_3_and_4(tmp_path: Path, model: str, line: str) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path, model)
    stage(source, root, "--leds", "spi")
    assert line in (root / "boot/firmware/config.txt").read_text(encoding="utf-8").splitlines()


def test_cmdline_keeps_one_line_and_rotation_can_be_taken_back(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    cmdline = root / "boot/firmware/cmdline.txt"
    stage(source, root, "--rotate", "180", "--connector", "DSI-1")
    words = cmdline.read_text(encoding="utf-8").split()
    assert words[: len(BOOKWORM_CMDLINE.split())] == BOOKWORM_CMDLINE.split()
    assert "video=DSI-1:800x480@60,rotate=180" in words and "consoleblank=0" in words
    assert len(cmdline.read_text(encoding="utf-8").splitlines()) == 1
    stage(source, root, "--rotate", "0")
    words = cmdline.read_text(encoding="utf-8").split()
    assert not any(word.startswith("video=DSI-1:") for word in words)
    assert words.count("consoleblank=0") == 1


def test_the_installed_config_is_valid_and_carries_the_options(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path, PI5)
    stage(source, root, "--rotate", "180", "--demo")
    config, problems = parse_config_file(root / "etc/colossus-companion/companion.toml")
    assert problems == [] and config is not None
    assert config.data_dir == Path("/var/lib/colossus-companion")
    assert config.leds.driver == "spi"
    assert config.kiosk.rotation == 180 and config.kiosk.fullscreen is True
    assert config.kiosk.on_boot == "demo"
    assert config.leds.layout == root / "etc/colossus-companion/layouts" / (
        "kolossus-11x11-serpentine.json"
    )


def test_an_edited_config_is_never_overwritten(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root)
    config = root / "etc/colossus-companion/companion.toml"
    edited = config.read_text(encoding="utf-8").replace("brightness = 0.5", "brightness = 0.3")
    config.write_text(edited, encoding="utf-8")
    result = stage(source, root, "--rotate", "180")
    assert config.read_text(encoding="utf-8") == edited
    proposal = root / "etc/colossus-companion/companion.toml.new"
    assert "rotation = 180" in proposal.read_text(encoding="utf-8")
    assert "was edited" in result.stdout and "diff " in result.stdout
    before = tree(root)
    stage(source, root, "--rotate", "180")
    assert tree(root) == before


def test_an_unedited_config_follows_new_options(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root)
    stage(source, root, "--demo")
    text = (root / "etc/colossus-companion/companion.toml").read_text(encoding="utf-8")
    assert 'on_boot = "demo"' in text
    assert not (root / "etc/colossus-companion/companion.toml.new").exists()


def test_kivy_config_has_one_touch_provider_and_no_file_log(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root, "--rotate", "180")
    ini = configparser.RawConfigParser()
    ini.read(root / "var/lib/colossus-companion/kivy/config.ini", encoding="utf-8")
    assert ini.items("input") == [("touchscreen", "probesysfs,provider=mtdev,select_all=0")]
    assert ini.get("graphics", "rotation") == "180"
    assert ini.get("kivy", "log_enable") == "0"
    assert ini.get("kivy", "exit_on_escape") == "0"
    assert ini.get("graphics", "show_cursor") == "0"


def test_an_update_without_options_keeps_the_last_ones(tmp_path: Path) -> None:
    source, root = make_source(tmp_path), make_pi_root(tmp_path)
    stage(source, root, "--rotate", "180", "--demo", "--leds", "spi")
    before = tree(root)
    stage(source, root)  # e.g. after `git pull`
    assert tree(root) == before
    options = (root / "etc/colossus-companion/install-options").read_text(encoding="utf-8")
    assert "rotate=180\ndemo=1\nleds=spi\nconnector=DSI-1\n" in options
    stage(source, root, "--no-demo", "--rotate", "0")
    text = (root / "etc/colossus-companion/companion.toml").read_text(encoding="utf-8")
    assert 'on_boot = "resume"' in text and "rotation = 0" in text
