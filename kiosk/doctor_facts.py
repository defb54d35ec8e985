"""What the kiosk's part of ``companion doctor`` reads of the machine
(:mod:`kiosk.doctor_checks` judges it): the mounts, the input devices, the journal, the
service user's groups and the configuration the service reads — everything in one
place, below a ``root`` directory, so tests invent machines.
"""

from __future__ import annotations

import os
import re
import sqlite3
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from companion.errors import JournalError
from companion.journal import Journal
from firmware_bridge.platform import Platform, detect_platform
from kiosk.fleet.state import LinkState, read_link_state
from kiosk.settings import LoadedConfig
from kiosk.storage import JOURNAL_FILE

SERVICE_NAME = "colossus-companion"
SERVICE_USER = "companion"
#: The groups deploy/install-pi puts the service user in: GPIO buttons, SPI LEDs, I2C,
#: the display (DRM card and render node), touch input and the dice tray's serial port.
SERVICE_GROUPS = ("gpio", "spi", "i2c", "video", "render", "input", "dialout")
INSTALLED_CONFIG = Path("/etc/colossus-companion/companion.toml")

VOLATILE_FILE_SYSTEMS = frozenset({"tmpfs", "ramfs"})
MIN_FREE_BYTES = 64 * 1024 * 1024  # below: a problem (SQLite needs room for its WAL)
LOW_FREE_BYTES = 256 * 1024 * 1024  # below: a warning
SQLITE_MAGIC = b"SQLite format 3\x00"

ABS_X = 0x00
ABS_MT_POSITION_X = 0x35
BTN_TOUCH = 0x14A
#: The kernel prints input capability bitmaps in words of ``unsigned long``.
LONG_BITS = struct.calcsize("l") * 8


@dataclass(frozen=True)
class Mount:
    """One line of ``/proc/self/mountinfo``: where, which file system, from what."""

    point: str
    fstype: str
    source: str = ""


@dataclass(frozen=True)
class InputDevice:
    """One block of ``/proc/bus/input/devices``."""

    name: str
    handlers: tuple[str, ...] = ()
    abs_bits: frozenset[int] = frozenset()
    key_bits: frozenset[int] = frozenset()

    @property
    def multitouch(self) -> bool:
        return ABS_MT_POSITION_X in self.abs_bits

    @property
    def single_touch(self) -> bool:
        return not self.multitouch and ABS_X in self.abs_bits and BTN_TOUCH in self.key_bits

    @property
    def event_node(self) -> str | None:
        for handler in self.handlers:
            if handler.startswith("event"):
                return f"/dev/input/{handler}"
        return None


UNRESUMABLE_SHOWN = 20
"""Games that cannot be resumed are named one finding each up to this many; the rest
by their ids in one more."""


@dataclass(frozen=True)
class JournalHealth:
    """What the journal file looks like, read without changing it."""

    path: Path
    exists: bool
    size: int = 0
    wal: bool | None = None  # from the file header; None = not an SQLite file
    integrity: tuple[str, ...] = ()  # PRAGMA integrity_check rows; ("ok",) when sound
    games: int | None = None
    error: str | None = None
    permission_denied: bool = False
    problems: tuple[str, ...] = ()  # what SQLite's check cannot see (Journal.logical_problems)
    #: A sentence per game that cannot be resumed as its header stands (rebuilt on
    #: resume, or not resumable at all: companion.session.resume_problems).
    unresumable: tuple[str, ...] = ()
    #: Finished games waiting for the fleet broker, and those let go (outbox full);
    #: None when the journal has no outbox (fleet reporting never switched on).
    outbox: tuple[int, int] | None = None
    #: What the kiosk's fleet link last knew (kiosk.fleet.state); None: no such file.
    link: LinkState | None = None

    @property
    def sound(self) -> bool:
        return (
            self.exists
            and self.error is None
            and self.integrity == ("ok",)
            and not self.problems
            and not self.unresumable
        )


@dataclass(frozen=True)
class KioskFacts:
    """Everything :func:`diagnose_kiosk` judges, gathered by :func:`gather_kiosk_facts`."""

    data_dir: Path
    data_dir_exists: bool
    data_dir_is_dir: bool
    journal: JournalHealth
    mount: Mount | None = None
    free_bytes: int | None = None
    is_pi: bool = False
    display_env: str | None = None  # "DISPLAY=:0" or "WAYLAND_DISPLAY=wayland-0"
    dri_nodes: tuple[str, ...] = ()
    input_devices: tuple[InputDevice, ...] = ()
    inaccessible: frozenset[str] = frozenset()  # device nodes this user cannot open
    service_user_groups: frozenset[str] | None = None  # None: no service user
    system_groups: frozenset[str] = frozenset()
    config_path: Path | None = None
    installed_config_exists: bool = False


# --- reading the machine ---------------------------------------------------------------


def _unescape_mount(text: str) -> str:
    """Mount points escape space, tab, newline and backslash as octal (``\\040``)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text)


def parse_mountinfo(text: str) -> tuple[Mount, ...]:
    """``/proc/self/mountinfo`` lines → mounts, in mount order."""
    mounts: list[Mount] = []
    for line in text.splitlines():
        before, sep, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if not sep or len(fields) < 5 or not tail:
            continue
        mounts.append(Mount(_unescape_mount(fields[4]), tail[0], tail[1] if len(tail) > 1 else ""))
    return tuple(mounts)


def mount_of(path: Path, mounts: Iterable[Mount]) -> Mount | None:
    """The mount that holds ``path`` (the longest mount point above it; the latest wins)."""
    text = str(path)
    best: Mount | None = None
    for mount in mounts:
        point = mount.point.rstrip("/") or "/"
        inside = text == point or text.startswith(point + "/") or point == "/"
        if inside and (best is None or len(point) >= len(best.point.rstrip("/") or "/")):
            best = mount
    return best


def parse_bitmap(text: str, word_bits: int = LONG_BITS) -> frozenset[int]:
    """A kernel capability bitmap (hex words, most significant first) → set bit numbers."""
    bits: set[int] = set()
    for index, word in enumerate(reversed(text.split())):
        value = int(word, 16)
        while value:
            low = value & -value
            bits.add(index * word_bits + low.bit_length() - 1)
            value ^= low
    return frozenset(bits)


def parse_input_devices(text: str, word_bits: int = LONG_BITS) -> tuple[InputDevice, ...]:
    """``/proc/bus/input/devices`` → one :class:`InputDevice` per block."""
    devices: list[InputDevice] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        name, handlers = "", ()
        abs_bits: frozenset[int] = frozenset()
        key_bits: frozenset[int] = frozenset()
        for line in block.splitlines():
            kind, _, value = line.partition(": ")
            if kind == "N" and value.startswith("Name="):
                name = value[len("Name=") :].strip().strip('"')
            elif kind == "H" and value.startswith("Handlers="):
                handlers = tuple(value[len("Handlers=") :].split())
            elif kind == "B" and value.startswith("ABS="):
                abs_bits = _bits_or_none(value[len("ABS=") :], word_bits)
            elif kind == "B" and value.startswith("KEY="):
                key_bits = _bits_or_none(value[len("KEY=") :], word_bits)
        if name or handlers:
            devices.append(InputDevice(name, handlers, abs_bits, key_bits))
    return tuple(devices)


def _bits_or_none(text: str, word_bits: int) -> frozenset[int]:
    try:
        return parse_bitmap(text, word_bits)
    except ValueError:
        return frozenset()


def open_journal_readonly(path: Path) -> sqlite3.Connection:
    """A read-only connection that creates no file next to the journal.

    While the companion runs, its ``-wal`` and ``-shm`` files exist and a read-only
    reader shares them (WAL lets it read while the kiosk writes). When no ``-wal`` file
    exists the kiosk is not running and the file is opened ``immutable``: otherwise a
    check run as root would leave root-owned ``-wal``/``-shm`` files that the service,
    running as ``companion``, could not open.
    """
    running = Path(f"{path}-wal").exists()
    uri = f"file:{quote(str(path))}?mode=ro" + ("" if running else "&immutable=1")
    return sqlite3.connect(uri, uri=True)


def inspect_journal(path: Path) -> JournalHealth:
    """Open the journal read-only and check it, without creating or changing any file.

    Whether it is in WAL mode is read from the file header (bytes 18 and 19 are 2): an
    ``immutable`` connection (see :func:`open_journal_readonly`) would say "delete".
    """
    try:
        size = path.stat().st_size
    except (FileNotFoundError, NotADirectoryError):  # no journal (or the data dir is a file)
        return JournalHealth(path, exists=False)
    except PermissionError as error:
        return JournalHealth(path, True, error=str(error), permission_denied=True)
    except OSError as error:  # e.g. a name too long for the file system
        return JournalHealth(path, True, error=error.strerror or str(error))
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
    except PermissionError as error:
        return JournalHealth(path, True, size, error=str(error), permission_denied=True)
    except OSError as error:
        return JournalHealth(path, True, size, error=str(error))
    if not header.startswith(SQLITE_MAGIC):
        return JournalHealth(path, True, size, error="not an SQLite database")
    wal = len(header) >= 20 and header[18] == 2 and header[19] == 2
    try:
        db = open_journal_readonly(path)
    except sqlite3.Error as error:
        return JournalHealth(path, True, size, wal, error=str(error))
    try:
        rows = tuple(str(row[0]) for row in db.execute("PRAGMA integrity_check(20)"))
        games: int | None = None
        try:
            games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.Error:
            games = None
        return JournalHealth(
            path,
            True,
            size,
            wal,
            rows,
            games,
            problems=_logical_problems(path),
            unresumable=_resume_problems(path),
            outbox=_outbox_counts(db),
            link=read_link_state(path.parent),
        )
    except sqlite3.Error as error:
        denied = "readonly" in str(error) or "unable to open" in str(error)
        return JournalHealth(path, True, size, wal, error=str(error), permission_denied=denied)
    finally:
        db.close()


def _outbox_counts(db: sqlite3.Connection) -> tuple[int, int] | None:
    """(waiting, let go) of the fleet's outbox (docs/fleet.md); None without one."""
    try:
        waiting = int(db.execute("SELECT count(*) FROM outbox").fetchone()[0])
        row = db.execute("SELECT value FROM meta WHERE key = 'outbox_dropped'").fetchone()
    except sqlite3.Error:
        return None
    return waiting, 0 if row is None else int(row[0])


def _logical_problems(path: Path) -> tuple[str, ...]:
    """The journal's own account of what is wrong beyond SQLite's page check (unreadable
    headers, missing entries, a vanished write-ahead log …), read-only."""
    try:
        journal = Journal(path, read_only=True)
    except JournalError as error:
        return (error.message,)
    try:
        return tuple(journal.logical_problems())
    finally:
        journal.close()


def _resume_problems(path: Path) -> tuple[str, ...]:
    """Each game that cannot be resumed as its header stands, read-only (the games table
    that cannot be read at all is the logical problems' to report)."""
    from companion.session import resume_problems

    try:
        journal = Journal(path, read_only=True)
    except JournalError:
        return ()
    try:
        return tuple(resume_problems(journal))
    except JournalError:
        return ()
    finally:
        journal.close()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _exists(path: Path) -> bool:
    """``Path.exists`` that says False where the OS cannot even look (a name too long)."""
    try:
        return path.exists()
    except OSError:
        return False


def _existing_ancestor(path: Path) -> Path:
    probe = path
    while not _exists(probe) and probe != probe.parent:
        probe = probe.parent
    return probe


def _service_user_groups(user: str) -> tuple[frozenset[str] | None, frozenset[str]]:
    """The service user's groups (None when there is no such user) and all groups."""
    try:
        import grp
        import pwd
    except ImportError:  # not Unix
        return None, frozenset()
    everything = grp.getgrall()
    names = frozenset(group.gr_name for group in everything)
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return None, names
    groups = {group.gr_name for group in everything if user in group.gr_mem}
    groups.update(group.gr_name for group in everything if group.gr_gid == entry.pw_gid)
    return frozenset(groups), names


def gather_kiosk_facts(
    loaded: LoadedConfig,
    *,
    root: Path = Path("/"),
    environ: Mapping[str, str] | None = None,
    platform: Platform | None = None,
) -> KioskFacts:
    """Look at this machine (below ``root``) for the configuration ``loaded``."""
    env = os.environ if environ is None else environ
    data_dir = loaded.config.data_dir
    found = platform if platform is not None else detect_platform(root)
    anchor = Path(os.path.realpath(_existing_ancestor(data_dir)))
    try:
        stats = os.statvfs(anchor)
        free: int | None = stats.f_bavail * stats.f_frsize
    except OSError:
        free = None
    display = next(
        (f"{key}={env[key]}" for key in ("DISPLAY", "WAYLAND_DISPLAY") if env.get(key)), None
    )
    dri = tuple(sorted(f"/dev/dri/{p.name}" for p in (root / "dev" / "dri").glob("card*")))
    devices = parse_input_devices(_read(root / "proc" / "bus" / "input" / "devices"))
    inaccessible = {
        node for node in dri if not os.access(root / node.lstrip("/"), os.R_OK | os.W_OK)
    }
    for device in devices:
        node = device.event_node
        if device.multitouch and node and not os.access(root / node.lstrip("/"), os.R_OK):
            inaccessible.add(node)
    real = root == Path("/")
    user_groups, system_groups = _service_user_groups(SERVICE_USER) if real else (None, frozenset())
    return KioskFacts(
        data_dir=data_dir,
        data_dir_exists=_exists(data_dir),
        data_dir_is_dir=_exists(data_dir) and data_dir.is_dir(),
        journal=inspect_journal(data_dir / JOURNAL_FILE),
        mount=mount_of(anchor, parse_mountinfo(_read(root / "proc" / "self" / "mountinfo"))),
        free_bytes=free,
        is_pi=found.is_raspberry_pi,
        display_env=display,
        dri_nodes=dri,
        input_devices=devices,
        inaccessible=frozenset(inaccessible),
        service_user_groups=user_groups,
        system_groups=system_groups,
        config_path=loaded.path,
        installed_config_exists=(root / str(INSTALLED_CONFIG).lstrip("/")).is_file(),
    )
