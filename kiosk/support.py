"""``companion support-bundle``: one zip file that a shop sends when something is wrong.

The bundle holds what a helper needs to see what the kiosk sees, and nothing personal:

- ``config.toml`` — the configuration file as written, with secrets redacted, and
  ``config-effective.json`` — the settings in force (defaults and "auto" resolved);
- ``versions.txt`` — the companion, Python, Kivy and hardware libraries, OS, kernel, Pi
  model;
- ``doctor.txt`` — the ``companion doctor`` report;
- ``log.txt`` — the last lines of ``journalctl -u colossus-companion`` (when journalctl
  exists and this user may read the system journal);
- ``hardware.txt`` — devices, serial ports with USB IDs, input devices, boot settings,
  the service's state, under-voltage flags;
- ``journal.json`` — the journal in numbers only: games per game and status, entries,
  damaged entries, size, integrity check;
- ``kivy-config.ini`` — Kivy's settings of the service, if readable;
- ``bench.txt`` — with ``--bench`` only: the figures of ``bench/bench_interactions.py
  --quick`` and ``bench/bench_referee.py --quick`` run on this machine (temporary
  folders and simulated devices: never the kiosk's journal, dice or LEDs).

**Personal data is left out.** Player names are personal data: the bundle has no player
names, no moves and no game records. Every name found in the journal is also replaced
by ``<player>`` in every text of the bundle (a log line may quote one). ``admin.json``
(the admin PIN's hash) and exported games are never included.

**Secrets are redacted** in the configuration: any key whose name contains password,
secret, token, passphrase or credential, or has the word hash, salt, key or auth, and any
PIN that is not a GPIO pin number (``pin``, ``admin_pin``, ``pin_hash`` …; ``confirm_pin
= 5`` is a GPIO and stays).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform as python_platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from firmware_bridge.doctor import Finding
from firmware_bridge.platform import PlatformFacts, gather_facts
from kiosk.doctor_checks import full_doctor
from kiosk.doctor_facts import SERVICE_NAME, inspect_journal, open_journal_readonly
from kiosk.redaction import redact_config_text, redact_table, scrub_names
from kiosk.settings import LoadedConfig
from kiosk.storage import JOURNAL_FILE

DEFAULT_LOG_LINES = 500
KIVY_CONFIG = Path("/var/lib/colossus-companion/kivy/config.ini")
DISTRIBUTIONS = (
    "colossus-companion",
    "kivy",
    "pydantic",
    "pyserial",
    "gpiozero",
    "rpi-ws281x",
    "spidev",
    "lgpio",
    "godice",
    "pillow",
)


#: ``run(argv) -> (returncode, stdout, stderr)``; tests replace it.
Runner = Callable[[Sequence[str]], tuple[int, str, str]]
#: What makes ``bench.txt`` (``--bench``); tests replace it.
BenchRunner = Callable[[], str]

#: The benches of ``--bench``: script, arguments. Minutes on a Pi Zero 2 W (bench/pi.md).
BENCHES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bench_interactions.py", ("--quick",)),
    ("bench_referee.py", ("--quick",)),
)
BENCH_TIMEOUT_S = 20 * 60
#: deploy/install-pi copies the source here (bench/ included); the venv's package is not
#: next to it, so the folder is looked for there too.
INSTALLED_SOURCE = Path("/opt/colossus-companion/src")
#: Settings of the kiosk a bench must not pick up: it runs on temporary folders only.
BENCH_CLEARED_ENV = (
    "COMPANION_CONFIG",
    "COMPANION_DATA_DIR",
    "COMPANION_UI_MAP",
    "COMPANION_SIM_LEDS",
    "KIVY_HOME",
)


def run_command(argv: Sequence[str]) -> tuple[int, str, str]:
    """Run a read-only system tool; a missing tool or a time-out is an answer, not an error."""
    if shutil.which(argv[0]) is None:
        return 127, "", f"{argv[0]} is not available on this machine"
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        return 1, "", str(error)
    return done.returncode, done.stdout, done.stderr


# --- sections --------------------------------------------------------------------------


@dataclass
class JournalSummary:
    """The journal in numbers; ``names`` (never written out) feed :func:`scrub_names`."""

    data: dict[str, object] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)


def journal_summary(path: Path) -> JournalSummary:
    """Counts only: games per game, status and demo flag, entries and damaged entries."""
    health = inspect_journal(path)
    data: dict[str, object] = {
        "path": str(path),
        "exists": health.exists,
        "size_bytes": health.size,
        "wal_mode": health.wal,
        "integrity_check": list(health.integrity),
        "error": health.error,
    }
    summary = JournalSummary(data)
    if not health.exists or health.error is not None:
        return summary
    try:
        db = open_journal_readonly(path)
    except Exception as error:  # sqlite3.Error and OSError: reported, not raised
        data["error"] = str(error)
        return summary
    try:
        data["games"] = [
            {"game": game, "status": status, "demo": bool(demo), "count": count}
            for game, status, demo, count in db.execute(
                "SELECT game, status, demo, count(*) FROM games "
                "GROUP BY game, status, demo ORDER BY game, status, demo"
            )
        ]
        data["entries"] = db.execute("SELECT count(*) FROM entries").fetchone()[0]
        first, last = db.execute("SELECT min(created), max(updated) FROM games").fetchone()
        data["first_game_created"], data["last_change"] = first, last
        data["damaged_entries"] = [
            {"game_id": game_id, "seq": seq, "reason": reason, "found": found}
            for game_id, seq, reason, found in db.execute(
                "SELECT game_id, seq, reason, found FROM damaged_entries ORDER BY found"
            )
        ]
        for (players,) in db.execute("SELECT players FROM games"):
            try:
                summary.names.update(str(name) for name in json.loads(players))
            except (ValueError, TypeError):
                continue
    except Exception as error:  # a foreign or damaged file: say so in the bundle
        data["error"] = str(error)
    finally:
        db.close()
    return summary


def versions_text(facts: PlatformFacts) -> str:
    lines = [f"{name}: {_version(name)}" for name in DISTRIBUTIONS]
    lines += [
        f"python: {python_platform.python_implementation()} {python_platform.python_version()}",
        f"executable: {sys.executable}",
        f"os: {_os_release()}",
        f"kernel: {python_platform.release()} ({python_platform.machine()})",
        f"model: {facts.platform.describe()}",
    ]
    return "\n".join(lines) + "\n"


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _os_release(path: Path = Path("/etc/os-release")) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return python_platform.platform()
    found = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', text, re.MULTILINE)
    return found.group(1) if found else python_platform.platform()


def log_text(lines: int, run: Runner) -> str:
    """The service's last log lines, or why there are none."""
    code, out, err = run(
        ["journalctl", "-u", SERVICE_NAME, "-n", str(lines), "--no-pager", "-o", "short-iso"]
    )
    if code == 127:
        return f"(no log: {err.strip()})\n"
    text = out if out.endswith("\n") or not out else out + "\n"
    if code != 0 or "insufficient permissions" in err or "not seeing messages" in err:
        text += (
            f"(journalctl said, exit {code}: {err.strip()})\n"
            "(Reading the service's log needs root or the adm group: "
            "sudo companion support-bundle)\n"
        )
    return text


def hardware_text(facts: PlatformFacts, data_dir: Path, run: Runner) -> str:
    parts = [
        f"model: {facts.platform.describe()}",
        f"user groups: {', '.join(sorted(facts.groups)) or '-'}; root: {facts.is_root}",
        f"hardware libraries: {', '.join(sorted(facts.installed)) or 'none'}",
        f"devices: {', '.join(sorted(facts.devices)) or 'none'}",
        "serial ports: "
        + (
            ", ".join(
                f"{port.device}"
                + (f" (USB {port.vid:04x}:{port.pid:04x})" if port.vid and port.pid else "")
                + (f" {port.description}" if port.description else "")
                for port in facts.serial_ports
            )
            or "none"
        ),
        f"display nodes: {', '.join(sorted(p.name for p in Path('/dev/dri').glob('*'))) or 'none'}",
        f"data dir: {data_dir}",
    ]
    usage = _disk_usage(data_dir)
    if usage:
        parts.append(f"disk: {usage}")
    input_devices = _read_text(Path("/proc/bus/input/devices"))
    names = re.findall(r'^N: Name="(.*)"$', input_devices, re.MULTILINE)
    parts.append(f"input devices: {', '.join(names) or 'none'}")
    uptime = _read_text(Path("/proc/uptime")).split()
    if uptime:
        parts.append(f"uptime: {float(uptime[0]) / 3600:.1f} h")
    for title, argv in (
        (
            "throttling (vcgencmd get_throttled; 0x0 = never under-voltage)",
            ["vcgencmd", "get_throttled"],
        ),
        (
            "service",
            [
                "systemctl",
                "show",
                SERVICE_NAME,
                "-p",
                "ActiveState,SubState,Result,NRestarts,ExecMainStatus,ActiveEnterTimestamp,User",
            ],
        ),
    ):
        code, out, err = run(argv)
        parts.append(f"\n== {title}\n{(out or err).strip() or f'(exit {code})'}")
    parts.append(f"\n== {facts.boot_config_path or 'config.txt'}\n{facts.boot_config or '(none)'}")
    parts.append(f"\n== cmdline.txt\n{facts.boot_cmdline or '(none)'}")
    return "\n".join(parts).rstrip() + "\n"


def _disk_usage(path: Path) -> str:
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        usage = shutil.disk_usage(probe)
    except OSError:
        return ""
    return f"{usage.free / 1e6:.0f} MB free of {usage.total / 1e6:.0f} MB"


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def config_texts(loaded: LoadedConfig) -> dict[str, str]:
    """``config.toml`` (the file, redacted) and ``config-effective.json`` (the settings)."""
    files: dict[str, str] = {}
    if loaded.path is None:
        files["config.toml"] = "# No configuration file: the defaults are in force.\n"
    else:
        try:
            text = loaded.path.read_text(encoding="utf-8", errors="replace")
            files["config.toml"] = f"# {loaded.path}\n" + redact_config_text(text)
        except OSError as error:
            files["config.toml"] = f"# {loaded.path}: cannot read it ({error})\n"
    effective = redact_table(loaded.config.model_dump(mode="json"))
    effective["problems"] = [str(problem) for problem in loaded.problems]
    files["config-effective.json"] = json.dumps(effective, indent=2, sort_keys=True) + "\n"
    return files


# --- benchmarks (--bench) ----------------------------------------------------------------


def bench_folders() -> list[Path]:
    """Where ``bench/`` may be: ``COMPANION_BENCH_DIR``, beside this package (a checkout,
    an editable install) and the installed copy of the source."""
    found = (
        [Path(os.environ["COMPANION_BENCH_DIR"])] if os.environ.get("COMPANION_BENCH_DIR") else []
    )
    return [*found, Path(__file__).resolve().parents[1] / "bench", INSTALLED_SOURCE / "bench"]


def run_bench_script(argv: Sequence[str]) -> tuple[int, str, str]:
    """Run one bench (its own folder's parent as working directory), bounded in time."""
    env = {k: v for k, v in os.environ.items() if k not in BENCH_CLEARED_ENV}
    env["COMPANION_HARDWARE"] = "sim"
    try:
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=BENCH_TIMEOUT_S,
            check=False,
            env=env,
            cwd=Path(argv[1]).parent.parent,
        )
    except subprocess.TimeoutExpired as error:
        partial = error.stdout or b""  # bytes, even with text=True
        out = partial if isinstance(partial, str) else partial.decode(errors="replace")
        return 124, out, f"stopped after {BENCH_TIMEOUT_S} s"
    except OSError as error:
        return 1, "", str(error)
    return done.returncode, done.stdout, done.stderr


def bench_text(
    benches: Sequence[tuple[str, Sequence[str]]] = BENCHES,
    *,
    folders: Sequence[Path] | None = None,
    run: Runner = run_bench_script,
    python: str = sys.executable,
) -> str:
    """``bench.txt``: what each quick bench printed on this machine, or why it did not."""
    candidates = bench_folders() if folders is None else list(folders)
    folder = next((f for f in candidates if (f / "bench_referee.py").is_file()), None)
    if folder is None:
        return (
            "(no benchmarks: bench/ was not found in "
            + ", ".join(str(f) for f in candidates)
            + "; set COMPANION_BENCH_DIR to the bench folder of the source)\n"
        )
    parts = [f"Benchmarks from {folder}, run with {python}.\n"]
    for script, args in benches:
        started = time.monotonic()
        code, out, err = run([python, str(folder / script), *args])
        took = time.monotonic() - started
        parts.append(f"== {script} {' '.join(args)}  (exit {code}, {took:.0f} s)\n{out}")
        if code != 0:
            tail = "\n".join(err.strip().splitlines()[-30:])
            parts.append(f"(it failed; the end of what it said on stderr:)\n{tail}\n")
    return "\n".join(parts)


README = """\
Colossus Companion support bundle, made {made} on {host}.

config.toml            the configuration file, secrets redacted
config-effective.json  the settings in force (defaults and "auto" resolved), redacted
versions.txt           companion, Python, Kivy, libraries, OS, kernel, Pi model
doctor.txt             the `companion doctor` report
log.txt                the last {lines} lines of the service's log (journalctl)
hardware.txt           devices, serial ports, input devices, boot settings, service state
journal.json           the journal in numbers: games per game and status, entries,
                       damaged entries, size, integrity check
kivy-config.ini        Kivy's settings of the kiosk service (if present)
{bench}
Not included: player names (personal data; any name from the journal is replaced by
<player>), moves and game records, the admin PIN file, exported games. Secrets in the
configuration (PINs, passwords, tokens, keys, hashes) are replaced by <redacted>.
"""


def collect(
    loaded: LoadedConfig,
    *,
    log_lines: int = DEFAULT_LOG_LINES,
    run: Runner = run_command,
    doctor: Callable[[LoadedConfig], list[Finding]] = full_doctor,
    facts: PlatformFacts | None = None,
    kivy_config: Path | None = None,
    now: datetime | None = None,
    bench: BenchRunner | None = None,
) -> dict[str, str]:
    """Every file of the bundle, by name, with player names scrubbed.

    ``bench`` (``--bench``: :func:`bench_text`) makes ``bench.txt``.
    """
    found = facts if facts is not None else gather_facts()
    data_dir = loaded.config.data_dir
    journal = journal_summary(data_dir / JOURNAL_FILE)
    made = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    listed = (
        "bench.txt              figures of the quick benchmarks run on this machine (--bench)\n"
        if bench is not None
        else ""
    )
    files = {
        "README.txt": README.format(
            made=made, host=python_platform.node(), lines=log_lines, bench=listed
        ),
        **config_texts(loaded),
        "versions.txt": versions_text(found),
        "doctor.txt": "\n".join(str(finding) for finding in doctor(loaded)) + "\n",
        "log.txt": log_text(log_lines, run),
        "hardware.txt": hardware_text(found, data_dir, run),
        "journal.json": json.dumps(journal.data, indent=2) + "\n",
    }
    kivy_path = kivy_config or Path(os.environ.get("KIVY_HOME", "")) / "config.ini"
    for candidate in (kivy_path, KIVY_CONFIG):
        text = _read_text(candidate) if candidate.is_file() else ""
        if text:
            files["kivy-config.ini"] = f"; {candidate}\n{text}"
            break
    if bench is not None:
        files["bench.txt"] = bench()
    return {name: scrub_names(text, journal.names) for name, text in files.items()}


def write_bundle(files: Mapping[str, str], out: Path) -> Path:
    """Write the zip atomically (a temporary file beside it, then a rename)."""
    out = out.expanduser()
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".support-", suffix=".zip", dir=out.parent)
    os.close(handle)
    try:
        with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
            for name, text in files.items():
                bundle.writestr(f"colossus-companion-support/{name}", text)
        os.chmod(temporary, 0o600)
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return out


def default_bundle_name(now: datetime | None = None) -> Path:
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    return Path(f"colossus-companion-support-{stamp}.zip")
