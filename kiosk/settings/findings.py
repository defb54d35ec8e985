"""What ``companion doctor`` says first: the settings file, the devices it configures
(:mod:`firmware_bridge.doctor`) and where games are saved.

:func:`diagnose` is pure given its inputs (the loaded settings and the machine's
:class:`~firmware_bridge.platform.PlatformFacts`), so tests invent machines.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.doctor import Finding, Severity, with_configured_port
from firmware_bridge.doctor import diagnose as diagnose_hardware
from firmware_bridge.layout import LedLayout, load_layout
from firmware_bridge.platform import PlatformFacts, gather_facts
from kiosk.settings.loading import LoadedConfig, load_config
from kiosk.settings.sections import CompanionConfig


def doctor(loaded: LoadedConfig | None = None, facts: PlatformFacts | None = None) -> list[Finding]:
    """The configuration's and the devices' findings for this machine (or the injected
    facts): what ``companion doctor`` prints before the kiosk's own."""
    found = facts if facts is not None else gather_facts()
    config = loaded if loaded is not None else load_config(platform=found.platform)
    if facts is None:
        found = with_configured_port(found, config.config)
    return diagnose(config, found)


def diagnose(
    loaded: LoadedConfig,
    facts: PlatformFacts,
    *,
    layout_loader: Callable[[Path], LedLayout] = load_layout,
    writable: Callable[[Path], bool] | None = None,
) -> list[Finding]:
    """The file's findings, then the hardware doctor's, then where games are saved."""
    return [
        *_config_findings(loaded),
        *diagnose_hardware(loaded.config, facts, layout_loader=layout_loader),
        *_data_findings(loaded.config, writable or _is_writable),
    ]


def _config_findings(loaded: LoadedConfig) -> list[Finding]:
    out = [Finding(Severity.PROBLEM, "configuration", str(problem)) for problem in loaded.problems]
    if any(problem.hardware for problem in loaded.problems):
        out.append(
            Finding(
                Severity.WARNING,
                "configuration",
                "Because of the problems above every device is simulated until the file is fixed.",
            )
        )
    elif loaded.problems:
        out.append(
            Finding(
                Severity.WARNING,
                "configuration",
                "Because of the problems above fleet reporting is off until the file is fixed;"
                " the devices start as configured.",
            )
        )
    elif loaded.path is None:
        out.append(Finding(Severity.OK, "configuration", "No configuration file; using defaults."))
    else:
        out.append(Finding(Severity.OK, "configuration", f"Read {loaded.path}."))
    fleet = loaded.config.fleet
    if fleet.enabled:
        out.append(
            Finding(
                Severity.OK,
                "fleet",
                f"Reporting to the broker {fleet.host}:{fleet.port}"
                f"{' over TLS' if fleet.tls else ''} (docs/fleet.md).",
            )
        )
    if loaded.forced_simulation:
        out.append(
            Finding(
                Severity.WARNING,
                "configuration",
                "COMPANION_HARDWARE=sim is set: every device is simulated.",
            )
        )
    return out


def _is_writable(path: Path) -> bool:
    """Whether games can be saved in ``path`` (or a folder made there): the nearest
    existing part of it must be a folder this user may write."""
    try:
        probe = path
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        return probe.is_dir() and os.access(probe, os.W_OK)
    except OSError:  # e.g. a name too long for the file system
        return False


def _data_findings(config: CompanionConfig, writable: Callable[[Path], bool]) -> list[Finding]:
    if writable(config.data_dir):
        return [Finding(Severity.OK, "data", f"Games are saved in {config.data_dir}.")]
    return [
        Finding(
            Severity.PROBLEM,
            "data",
            f"{config.data_dir} is not a folder this user can write: games could not be saved.",
        )
    ]
