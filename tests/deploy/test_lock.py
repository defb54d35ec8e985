"""requirements.lock: one version of every dependency, used by every install.

``scripts/lock`` makes it from pyproject.toml (all extras, every platform); scripts/setup
and deploy/install-pi install through it as constraints, so a machine set up today gets
the versions CI tested. Nothing here reaches a package index.
"""

from __future__ import annotations

import re
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LOCK = REPO / "requirements.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+?)\s*(?:;\s*(.*))?$")
NAME = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)")


def normalised(name: str) -> str:
    """A distribution's name as package indexes compare it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(text: str) -> dict[str, tuple[str, str | None]]:
    """``name → (version, environment marker)`` of a lock's text."""
    found: dict[str, tuple[str, str | None]] = {}
    for line in text.splitlines():
        match = PIN.match(line.strip())
        if match:
            found[normalised(match[1])] = (match[2], match[3])
    return found


def requirements(pyproject: dict[str, object]) -> set[str]:
    """Every distribution pyproject.toml asks for, the extras included (itself left out)."""
    project = pyproject["project"]
    assert isinstance(project, dict)
    listed: list[str] = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        listed.extend(extra)
    names = {normalised(m[1]) for m in map(NAME.match, listed) if m}
    return names - {normalised(project["name"])}


def test_every_dependency_of_every_extra_is_pinned() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    locked = pins(LOCK.read_text(encoding="utf-8"))
    missing = sorted(requirements(pyproject) - set(locked))
    assert not missing, f"not in requirements.lock (run scripts/lock): {missing}"


def test_a_dependency_left_out_of_the_lock_is_found() -> None:
    """The check above fails on a lock that misses one (here, Kivy)."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    text = "\n".join(
        line for line in LOCK.read_text(encoding="utf-8").splitlines() if "kivy==" not in line
    )
    assert "kivy" in requirements(pyproject) - set(pins(text))


def test_the_checkers_are_pinned_exactly() -> None:
    """A new ruff or mypy release must not change CI's verdict by itself."""
    dev = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["dev"]
    for tool in ("ruff", "mypy"):
        (spec,) = [d for d in dev if NAME.match(d) and normalised(d.split("=")[0]) == tool]
        assert "==" in spec, spec


def test_this_environment_has_the_locked_versions() -> None:
    """What scripts/setup installed is what the lock says (a hand-installed upgrade, or
    a lock changed without running scripts/setup, shows here)."""
    drifted = []
    for name, (version, marker) in pins(LOCK.read_text(encoding="utf-8")).items():
        if marker is not None and "linux" not in marker:
            continue  # another platform's package
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # an extra this machine does not install (the Pi's, for one)
        if installed != version:
            drifted.append(f"{name}: locked {version}, installed {installed}")
    assert not drifted, drifted


@pytest.mark.parametrize(
    ("script", "needle"),
    [
        ("scripts/setup", '-m pip install -c requirements.lock -e ".[dev]"'),
        ("scripts/lock", "--universal"),
    ],
)
def test_the_scripts_install_and_refresh_through_the_lock(script: str, needle: str) -> None:
    assert needle in (REPO / script).read_text(encoding="utf-8")


def test_the_pi_installs_through_the_lock() -> None:
    """``deploy/install-pi --dry-run`` shows the pinned install it would run."""
    done = subprocess.run(
        [str(REPO / "deploy" / "install-pi"), "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    installs = [
        line for line in done.stdout.splitlines() if "pip install" in line and "[pi]" in line
    ]
    assert installs and all(
        "-c /opt/colossus-companion/src/requirements.lock" in line for line in installs
    ), done.stdout
