"""The kiosk's part of ``companion doctor``: storage, the journal, the screen, touch, the service.

:mod:`firmware_bridge.doctor` looks at dice, buttons and LEDs (and
:mod:`kiosk.settings.findings` at the settings file and where games are saved); this
module looks at what
a kiosk on a Raspberry Pi needs besides: games saved on persistent storage with room to
spare, a journal that opens and passes SQLite's integrity check in WAL mode (every
committed move survives a power cut), a display (a desktop session or KMS/DRM), a
touchscreen, the ``companion`` service user in the device groups, and the configuration
the service really reads.

As in the hardware doctor, :func:`gather_kiosk_facts` collects everything in one place
(below a ``root`` directory, so tests invent machines) and :func:`diagnose_kiosk` judges
it without touching the system.
"""

from __future__ import annotations

from firmware_bridge.doctor import Finding, Severity
from kiosk.doctor_facts import (
    INSTALLED_CONFIG,
    LOW_FREE_BYTES,
    MIN_FREE_BYTES,
    SERVICE_GROUPS,
    SERVICE_NAME,
    SERVICE_USER,
    UNRESUMABLE_SHOWN,
    VOLATILE_FILE_SYSTEMS,
    JournalHealth,
    KioskFacts,
    gather_kiosk_facts,
)
from kiosk.settings import LoadedConfig
from kiosk.settings.findings import doctor


def kiosk_doctor(loaded: LoadedConfig) -> list[Finding]:
    """The kiosk findings for this machine."""
    return diagnose_kiosk(gather_kiosk_facts(loaded))


def full_doctor(loaded: LoadedConfig) -> list[Finding]:
    """What ``companion doctor`` prints: the hardware findings, then the kiosk's."""
    return doctor(loaded) + kiosk_doctor(loaded)


# --- judging ---------------------------------------------------------------------------


def diagnose_kiosk(facts: KioskFacts) -> list[Finding]:
    """Every kiosk finding, storage first."""
    return [
        *_storage_findings(facts),
        *_journal_findings(facts.journal),
        *_display_findings(facts),
        *_touch_findings(facts),
        *_service_findings(facts),
        *_config_path_findings(facts),
    ]


def _megabytes(count: int) -> str:
    return f"{count / 1_000_000:.0f} MB" if count < 10_000_000_000 else f"{count / 1e9:.0f} GB"


def _storage_findings(facts: KioskFacts) -> list[Finding]:
    topic = "storage"
    out: list[Finding] = []
    if facts.data_dir_exists and not facts.data_dir_is_dir:
        return [Finding(Severity.PROBLEM, topic, f"{facts.data_dir} is a file, not a directory.")]
    if not facts.data_dir_exists:
        severity = Severity.WARNING if facts.is_pi else Severity.OK
        out.append(
            Finding(
                severity,
                topic,
                f"{facts.data_dir} does not exist yet; the companion creates it for the first "
                "game" + (" (deploy/install-pi creates it on a kiosk)." if facts.is_pi else "."),
            )
        )
    mount = facts.mount
    if mount is not None:
        where = f"{mount.fstype}" + (f" ({mount.source})" if mount.source else "")
        if mount.fstype in VOLATILE_FILE_SYSTEMS:
            out.append(
                Finding(
                    Severity.PROBLEM,
                    topic,
                    f"{facts.data_dir} is on {where}, which lives in RAM: every game is lost at "
                    "power-off. Put data_dir on the SD card or a USB stick (docs/deploy.md).",
                )
            )
        elif mount.fstype == "overlay" and facts.is_pi:
            out.append(
                Finding(
                    Severity.PROBLEM,
                    topic,
                    f"{facts.data_dir} is on the overlay root (read-mostly mode): its writes go "
                    "to RAM and are lost at power-off. Mount a writable partition there "
                    "(docs/deploy.md, read-mostly setup).",
                )
            )
        else:
            out.append(Finding(Severity.OK, topic, f"{facts.data_dir} is on {where}."))
    if facts.free_bytes is not None:
        free = facts.free_bytes
        if free < MIN_FREE_BYTES:
            out.append(
                Finding(
                    Severity.PROBLEM,
                    topic,
                    f"Only {_megabytes(free)} free for {facts.data_dir}: moves may fail to save. "
                    "Free some space (journalctl --vacuum-size=16M, old exports).",
                )
            )
        elif free < LOW_FREE_BYTES:
            out.append(
                Finding(Severity.WARNING, topic, f"Only {_megabytes(free)} free for the games.")
            )
        else:
            out.append(Finding(Severity.OK, topic, f"{_megabytes(free)} free."))
    return out


def _journal_findings(journal: JournalHealth) -> list[Finding]:
    topic = "journal"
    if not journal.exists:
        return [Finding(Severity.OK, topic, f"No journal yet at {journal.path} (no game played).")]
    if journal.permission_denied:
        return [
            Finding(
                Severity.WARNING,
                topic,
                f"This user cannot read {journal.path} ({journal.error}); run the check as the "
                f"kiosk's user: sudo -u {SERVICE_USER} companion doctor",
            )
        ]
    if journal.error is not None:
        return [
            Finding(
                Severity.PROBLEM,
                topic,
                f"{journal.path} cannot be read as a journal ({journal.error}). Keep a copy of "
                "the file and make a support bundle (companion support-bundle).",
            )
        ]
    out: list[Finding] = []
    if journal.problems:
        shown = " ".join(journal.problems[:3])
        more = len(journal.problems) - 3
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                f"{journal.path}: {shown}"
                + (f" (and {more} more)" if more > 0 else "")
                + " Keep a copy of the file and make a support bundle.",
            )
        )
    for sentence in journal.unresumable[:UNRESUMABLE_SHOWN]:
        out.append(Finding(Severity.PROBLEM, topic, sentence))
    if len(journal.unresumable) > UNRESUMABLE_SHOWN:
        rest = journal.unresumable[UNRESUMABLE_SHOWN:]
        ids = ", ".join(s.split()[1] for s in rest)
        out.append(Finding(Severity.PROBLEM, topic, f"And {len(rest)} more games: {ids}."))
    if journal.integrity != ("ok",):
        shown = "; ".join(journal.integrity[:3])
        out.append(
            Finding(
                Severity.PROBLEM,
                topic,
                f"{journal.path} fails SQLite's integrity check: {shown}. The companion goes on "
                "from the last good move of each game; `companion salvage --replace` (the app "
                "stopped) copies every row SQLite can still read into a new journal and keeps "
                "the damaged file beside it.",
            )
        )
    if not journal.wal:
        out.append(
            Finding(
                Severity.WARNING,
                topic,
                f"{journal.path} is not in WAL mode; the companion switches it on when it opens "
                "the journal (WAL + synchronous=FULL: every saved move survives a power cut).",
            )
        )
    if not out:
        games = "" if journal.games is None else f"{journal.games} games, "
        out.append(
            Finding(
                Severity.OK,
                topic,
                f"{journal.path}: {games}{_megabytes(journal.size)}, integrity ok, WAL mode "
                "(every saved move survives a power cut).",
            )
        )
    return out + _outbox_findings(journal)


def _outbox_findings(journal: JournalHealth) -> list[Finding]:
    """What waits for the fleet broker ([fleet], docs/fleet.md), when anything does, and
    what the kiosk's link last said was wrong (refused records, no connection)."""
    out = []
    trouble = None if journal.link is None else journal.link.trouble()
    if trouble is not None and journal.link is not None:
        out.append(
            Finding(
                Severity.PROBLEM, "fleet", f"{trouble} (the kiosk said so at {journal.link.at})"
            )
        )
    if journal.outbox is None or journal.outbox == (0, 0):
        return out
    waiting, dropped = journal.outbox
    if waiting:
        out.append(
            Finding(
                Severity.OK,
                "fleet",
                f"{waiting} finished game(s) wait in the journal's outbox for the fleet broker;"
                " they are sent when it can be reached.",
            )
        )
    if dropped:
        out.append(
            Finding(
                Severity.WARNING,
                "fleet",
                f"{dropped} finished game(s) were let go from the full outbox before the fleet"
                " broker could take them (raise [fleet] outbox_limit, or check the broker).",
            )
        )
    return out


def _display_findings(facts: KioskFacts) -> list[Finding]:
    topic = "display"
    if facts.display_env:
        return [Finding(Severity.OK, topic, f"Desktop session ({facts.display_env}).")]
    if not facts.dri_nodes:
        if facts.is_pi:
            return [
                Finding(
                    Severity.PROBLEM,
                    topic,
                    "No display: no DISPLAY and no /dev/dri/card*. Is the screen connected, and "
                    "is dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt?",
                )
            ]
        return [
            Finding(
                Severity.WARNING,
                topic,
                "No display (no DISPLAY, no /dev/dri/card*): the app draws on an offscreen "
                "surface.",
            )
        ]
    blocked = [node for node in facts.dri_nodes if node in facts.inaccessible]
    if blocked:
        return [
            Finding(
                Severity.PROBLEM,
                topic,
                f"This user cannot open {', '.join(blocked)}: it must be in the video and "
                "render groups.",
            )
        ]
    return [
        Finding(
            Severity.OK,
            topic,
            f"KMS/DRM display: {', '.join(facts.dri_nodes)} (the app draws with SDL's kmsdrm "
            "driver).",
        )
    ]


def _touch_findings(facts: KioskFacts) -> list[Finding]:
    topic = "touch"
    touch = [device for device in facts.input_devices if device.multitouch]
    if touch:
        out: list[Finding] = []
        for device in touch:
            node = device.event_node or "no event node"
            if node in facts.inaccessible:
                out.append(
                    Finding(
                        Severity.PROBLEM,
                        topic,
                        f'This user cannot read {node} ("{device.name}"): it must be in the '
                        "input group.",
                    )
                )
            else:
                out.append(Finding(Severity.OK, topic, f'Touchscreen "{device.name}" on {node}.'))
        return out
    single = [device for device in facts.input_devices if device.single_touch]
    if single:
        names = ", ".join(f'"{device.name}"' for device in single)
        return [
            Finding(
                Severity.WARNING,
                topic,
                f"Only a single-touch panel ({names}): the kiosk's Kivy config reads multitouch "
                "panels; change its [input] line to probesysfs,provider=hidinput,select_all=1 "
                "(docs/deploy.md, troubleshooting).",
            )
        ]
    if facts.is_pi:
        return [
            Finding(
                Severity.WARNING,
                topic,
                "No touchscreen found: players cannot tap. Check the panel's ribbon cable (the "
                'official 7" panel shows up as "raspberrypi-ts" or "generic ft5x06").',
            )
        ]
    return [Finding(Severity.OK, topic, "No touchscreen (mouse and keyboard work).")]


def _service_findings(facts: KioskFacts) -> list[Finding]:
    topic = "service"
    groups = facts.service_user_groups
    if groups is None:
        if facts.is_pi:
            return [
                Finding(
                    Severity.OK,
                    topic,
                    f"No {SERVICE_USER} user: the kiosk service is not installed "
                    "(deploy/install-pi installs it).",
                )
            ]
        return []
    wanted = [group for group in SERVICE_GROUPS if group in facts.system_groups]
    missing = [group for group in wanted if group not in groups]
    if missing:
        return [
            Finding(
                Severity.PROBLEM,
                topic,
                f"The service user {SERVICE_USER} is not in {', '.join(missing)}: sudo usermod "
                f"-aG {','.join(missing)} {SERVICE_USER}, then sudo systemctl restart "
                f"{SERVICE_NAME}.",
            )
        ]
    return [
        Finding(
            Severity.OK,
            topic,
            f"The service user {SERVICE_USER} is in {', '.join(wanted) or 'no device group'}.",
        )
    ]


def _config_path_findings(facts: KioskFacts) -> list[Finding]:
    if not facts.installed_config_exists or facts.config_path == INSTALLED_CONFIG:
        return []
    used = str(facts.config_path) if facts.config_path else "no file (the defaults)"
    return [
        Finding(
            Severity.WARNING,
            "configuration",
            f"The kiosk service reads {INSTALLED_CONFIG}, but this check read {used}: use "
            f"COMPANION_CONFIG={INSTALLED_CONFIG} (the installed /usr/local/bin/companion "
            "sets it).",
        )
    ]
