"""What the kiosk tells its fleet publisher: the table's game as a :class:`Table` value,
and the publisher itself, made from the settings or explained; and the same reporting
for ``companion referee`` (:func:`referee_reporting`)."""

from __future__ import annotations

import ssl
from datetime import UTC, datetime

from companion.journal import Journal
from companion.session import Session
from firmware_bridge.doctor import Severity
from kiosk.fleet.messages import PLAYS, Table
from kiosk.fleet.publisher import FleetPublisher
from kiosk.settings import LoadedConfig
from kiosk.settings.findings import doctor
from kiosk.storage import JOURNAL_FILE


def table_of(device: str, session: Session | None, *, demo: bool = False) -> Table:
    """The game on the table (``session`` None: Home)."""
    at = datetime.now(UTC).isoformat(timespec="seconds")
    if session is None:
        return Table(device=device, at=at)
    rules, state = session.rules, session.state
    players = tuple(state.players)
    outcome = session.outcome
    turn = None if outcome is not None else rules.current_player(state)
    sheet = rules.scores(state)
    return Table(
        device=device,
        at=at,
        game=rules.name,
        title=rules.title,
        game_id=session.game_id,
        players=players,
        turn=turn,
        turn_player=players[turn] if turn is not None and 0 <= turn < len(players) else None,
        status=rules.status(state),
        moves=len(session.actions),
        measure=sheet.measure,
        scores=sheet.rows[-1].values if sheet.rows else (),
        finished=outcome is not None,
        result=None if outcome is None else outcome.text,
        demo=demo,
    )


def doctor_summary(loaded: LoadedConfig) -> tuple[str, ...]:
    """The hardware doctor's problems and warnings, for health (milliseconds: it reads a
    few files; run on the forwarder's thread)."""
    return tuple(str(f) for f in doctor(loaded) if f.severity is not Severity.OK)


def make_publisher(
    loaded: LoadedConfig, *, poll_s: float | None = None
) -> tuple[FleetPublisher | None, str | None]:
    """The publisher ``[fleet]`` asks for (None when off), or None and why it cannot be:
    the table then plays on without the fleet and Home says so."""
    settings = loaded.config.fleet
    if not settings.enabled:
        return None, None
    journal_path = loaded.config.data_dir / JOURNAL_FILE
    try:
        publisher = FleetPublisher(
            settings,
            journal_path=journal_path,
            doctor=lambda: doctor_summary(loaded),
            poll_s=poll_s,
        )
        return publisher, None
    except (OSError, ssl.SSLError, ValueError) as error:
        files = [k for k in ("ca_file", "certfile", "keyfile") if getattr(settings, k) is not None]
        where = f"[fleet] {'/'.join(files)}" if files else "[fleet]"
        return None, f"Fleet reporting is off: {where} cannot be used ({error})."


#: How often ``companion referee``'s publisher looks at the outbox (it is not poked).
REFEREE_POLL_S = 1.0


def referee_reporting(
    loaded: LoadedConfig, journal: Journal | None
) -> tuple[FleetPublisher | None, str | None]:
    """``companion referee`` with ``[fleet]`` on: its journal queues each finished game
    (as the kiosk's does) and a publisher forwards them while it runs; what is not
    confirmed when it ends stays in the outbox for the next run, the referee's or the
    kiosk's. None and why not when the fleet is off or cannot start."""
    if not loaded.config.fleet.enabled or journal is None:
        return None, None
    if journal.read_only:
        return None, "Fleet reporting is off: the journal is read-only."
    publisher, problem = make_publisher(loaded, poll_s=REFEREE_POLL_S)
    if publisher is not None:
        journal.keep_outbox(loaded.config.fleet.outbox_limit, topic=PLAYS)
        publisher.start()
    return publisher, problem
