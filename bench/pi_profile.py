"""``--pi-profile``: run a bench's measured process on one core, with a CPU quota.

A rough stand-in for a slower machine, shared by ``bench_interactions.py``,
``bench_kiosk.py`` and ``bench_referee.py``:

* **One core.** The measured process is pinned to one CPU (``os.sched_setaffinity``):
  the main thread, the device threads (tray reader, LED animator, buttons) and the GL
  driver share it, as they would on a single busy core.
* **A CPU quota** where the kernel lets this process set one (running as root, with a
  writable cgroup that has the ``cpu`` controller): a child cgroup with ``cpu.max`` (cgroup
  v2) or ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (the v1 ``cpu`` hierarchy) of
  ``period / slowdown`` per ``period`` — 2 ms of CPU in every 10 ms for the default 5×.
  The short period (the kernel's default is 100 ms) spreads the throttling out, so a
  5 ms piece of work is stretched to ≈25 ms instead of running at full speed or stalling
  for 80 ms. The cgroup is removed afterwards. Without one the run is pinned only, and
  :attr:`PiProfile.notes` says why.

What it can and cannot show (also in bench/README.md): a quota makes *wall* times longer
— frames, latencies, how the main loop keeps up when threads share a core — but the
*CPU time per operation* (``time.thread_time``) stays what it is here, because the
work is the same work: only waiting is added. Caches, memory bandwidth, the
interpreter's speed on an ARM core and the GPU are this machine's, not a Pi's. It is
a rehearsal, not a Pi: measure on the Pi itself for figures to trust (bench/pi.md).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_SLOWDOWN = 5.0
PERIOD_US = 10_000
GROUP_PREFIX = "companion-pi-profile-"
MOUNTS = Path("/proc/self/mounts")
OWN_CGROUP = Path("/proc/self/cgroup")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--pi-profile`` and ``--pi-slowdown`` on a bench's command line."""
    parser.add_argument(
        "--pi-profile",
        action="store_true",
        help="run the measured process again pinned to one core and, where a cgroup "
        "allows it, under a CPU quota (see bench/README.md), and print both",
    )
    parser.add_argument(
        "--pi-slowdown",
        type=float,
        default=DEFAULT_SLOWDOWN,
        help="the quota's slowdown: 5 ≈ a Pi 4, 10 ≈ a Pi Zero 2 W (default 5)",
    )


@dataclass
class Quota:
    """A child cgroup that limits the CPU of the processes put in it."""

    version: int  # 2: cpu.max; 1: the v1 cpu hierarchy's CFS quota
    path: Path
    quota_us: int
    period_us: int
    enabled_controller: Path | None = None  # a subtree_control we added "+cpu" to

    @property
    def procs(self) -> Path:
        return self.path / "cgroup.procs"

    def describe(self) -> str:
        files = "cpu.max" if self.version == 2 else "cpu.cfs_quota_us"
        return (
            f"CPU quota {self.quota_us / 1000:g} ms per {self.period_us / 1000:g} ms "
            f"(cgroup v{self.version} {files}, {self.path})"
        )

    def throttling(self) -> dict[str, int]:
        """The cgroup's ``cpu.stat`` counters (periods, throttled periods, time)."""
        found: dict[str, int] = {}
        with suppress(OSError, ValueError):
            for line in (self.path / "cpu.stat").read_text().splitlines():
                key, value = line.split()
                found[key] = int(value)
        return found


@dataclass
class PiProfile:
    """How the measured process runs: its core, its quota (if any) and why not."""

    slowdown: float
    cpu: int | None
    quota: Quota | None = None
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        parts = [f"pinned to CPU {self.cpu}" if self.cpu is not None else "not pinned"]
        parts.append(self.quota.describe() if self.quota else "no CPU quota")
        return "; ".join(parts)

    def preexec(self) -> None:
        """For ``subprocess`` (``preexec_fn``): pin the child and put it in the cgroup.

        Runs in the forked child before it starts the program; a failure leaves the
        child unthrottled (``throttling()`` then shows no periods), never unstarted.
        """
        if self.cpu is not None:
            with suppress(OSError):
                os.sched_setaffinity(0, {self.cpu})
        if self.quota is not None:
            with suppress(OSError):
                self.quota.procs.write_text(str(os.getpid()))

    def report(self) -> str:
        """What the quota did, from the cgroup's counters (after the runs)."""
        if self.quota is None:
            return "; ".join(self.notes) or "no CPU quota"
        stats = self.quota.throttling()
        periods = stats.get("nr_periods", 0)
        if not periods:
            return "the quota never applied: the process did not join the cgroup"
        throttled = stats.get("nr_throttled", 0)
        seconds = stats.get("throttled_usec", stats.get("throttled_time", 0) * 1e-3) * 1e-6
        return (
            f"throttled in {throttled:,} of {periods:,} periods of "
            f"{self.quota.period_us / 1000:g} ms ({seconds:.1f} s held back in all)"
        )


def parse_mounts(text: str) -> list[tuple[str, Path, set[str]]]:
    """(file system type, mount point, options) of each line of /proc/self/mounts."""
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 4:
            mounts.append((fields[2], Path(fields[1]), set(fields[3].split(","))))
    return mounts


def _own_cgroup(version: int, own: str) -> str:
    """This process's cgroup path in the v2 tree (``0::``) or the v1 ``cpu`` tree."""
    for line in own.splitlines():
        number, controllers, path = [*line.split(":", 2), "", ""][:3]
        if version == 2 and number == "0" and controllers == "":
            return path
        if version == 1 and "cpu" in controllers.split(","):
            return path
    return "/"


def _make_group(parent: Path) -> Path:
    for stale in parent.glob(GROUP_PREFIX + "*"):  # left by a killed run; empty ones go
        with suppress(OSError):
            stale.rmdir()
    group = parent / f"{GROUP_PREFIX}{os.getpid()}"
    group.mkdir()
    return group


def _v2_quota(mount: Path, quota_us: int, period_us: int) -> Quota:
    controllers = (mount / "cgroup.controllers").read_text().split()
    if "cpu" not in controllers:
        raise OSError(f"the cgroup v2 tree at {mount} has no cpu controller")
    subtree = mount / "cgroup.subtree_control"
    enabled = None
    if "cpu" not in subtree.read_text().split():
        subtree.write_text("+cpu")
        enabled = subtree
    group = _make_group(mount)
    try:
        (group / "cpu.max").write_text(f"{quota_us} {period_us}")
    except OSError:
        with suppress(OSError):
            group.rmdir()
        raise
    return Quota(2, group, quota_us, period_us, enabled_controller=enabled)


def _v1_quota(mount: Path, quota_us: int, period_us: int) -> Quota:
    group = _make_group(mount)
    try:
        (group / "cpu.cfs_period_us").write_text(str(period_us))
        (group / "cpu.cfs_quota_us").write_text(str(quota_us))
    except OSError:
        with suppress(OSError):
            group.rmdir()
        raise
    return Quota(1, group, quota_us, period_us)


def make_quota(
    slowdown: float,
    *,
    mounts: str | None = None,
    is_root: bool | None = None,
    period_us: int = PERIOD_US,
) -> tuple[Quota | None, list[str]]:
    """A cgroup with the quota, or None and the reasons (cgroup v2 first, then v1)."""
    notes: list[str] = []
    if slowdown <= 1:
        return None, [f"a slowdown of {slowdown:g} needs no quota"]
    if not (os.geteuid() == 0 if is_root is None else is_root):
        return None, ["no CPU quota: creating a cgroup needs root (run the bench with sudo)"]
    if mounts is None:
        try:
            mounts = MOUNTS.read_text()
        except OSError as error:
            return None, [f"no CPU quota: cannot read the mounts ({error})"]
    quota_us = max(1000, round(period_us / slowdown))
    found = parse_mounts(mounts)
    for fstype, point, _options in found:
        if fstype == "cgroup2":
            try:
                return _v2_quota(point, quota_us, period_us), notes
            except OSError as error:
                notes.append(f"cgroup v2 at {point}: {error}")
    for fstype, point, options in found:
        if fstype == "cgroup" and "cpu" in options:
            try:
                return _v1_quota(point, quota_us, period_us), notes
            except OSError as error:
                notes.append(f"cgroup v1 cpu at {point}: {error}")
    if not notes:
        notes.append("no cgroup file system with a cpu controller is mounted")
    return None, ["no CPU quota (pinned only): " + "; ".join(notes)]


def remove_quota(quota: Quota, *, own: str | None = None) -> None:
    """Move this process back if it joined, remove the cgroup, undo a ``+cpu``."""
    with suppress(OSError, ValueError):
        members = quota.procs.read_text().split()
        if str(os.getpid()) in members:
            text = OWN_CGROUP.read_text() if own is None else own
            home = _own_cgroup(quota.version, text)
            root = quota.path.parent
            (root / home.lstrip("/") / "cgroup.procs").write_text(str(os.getpid()))
    with suppress(OSError):
        quota.path.rmdir()
    if quota.enabled_controller is not None:
        with suppress(OSError):
            quota.enabled_controller.write_text("-cpu")


def choose_cpu(allowed: set[int] | None = None) -> int | None:
    """The core to pin to: the highest one this process may use (cpu 0 takes more of
    the machine's interrupts)."""
    try:
        cpus = os.sched_getaffinity(0) if allowed is None else allowed
    except (AttributeError, OSError):
        return None
    return max(cpus) if cpus else None


@contextmanager
def pi_profile(
    slowdown: float = DEFAULT_SLOWDOWN,
    *,
    mounts: str | None = None,
    is_root: bool | None = None,
    environ: Mapping[str, str] | None = None,
) -> Iterator[PiProfile]:
    """A :class:`PiProfile` for the duration of the block; its cgroup removed after.

    ``COMPANION_PI_PROFILE_NO_QUOTA=1`` (in ``environ``) skips the cgroup: pinned only.
    """
    env = os.environ if environ is None else environ
    profile = PiProfile(slowdown, choose_cpu())
    if profile.cpu is None:
        profile.notes.append("cannot pin: this system has no sched_setaffinity")
    if env.get("COMPANION_PI_PROFILE_NO_QUOTA"):
        profile.notes.append("no CPU quota: COMPANION_PI_PROFILE_NO_QUOTA is set (pinned only)")
    else:
        profile.quota, notes = make_quota(slowdown, mounts=mounts, is_root=is_root)
        profile.notes.extend(notes)
    try:
        yield profile
    finally:
        if profile.quota is not None:
            remove_quota(profile.quota)
