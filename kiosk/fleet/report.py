"""What the kiosk tells its fleet publisher: the table's game as a :class:`Table` value,
and the publisher itself, made from the settings or explained."""

from __future__ import annotations

import ssl
from datetime import UTC, datetime
from pathlib import Path

from companion.session import Session
from firmware_bridge.config import FleetConfig
from kiosk.fleet.messages import Table
from kiosk.fleet.publisher import FleetPublisher


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


def make_publisher(
    settings: FleetConfig, journal_path: Path
) -> tuple[FleetPublisher | None, str | None]:
    """The publisher ``settings`` ask for (None when off), or None and why it cannot be:
    the table then plays on without the fleet and Home says so."""
    if not settings.enabled:
        return None, None
    try:
        return FleetPublisher(settings, journal_path=journal_path), None
    except (OSError, ssl.SSLError, ValueError) as error:
        files = [k for k in ("ca_file", "certfile", "keyfile") if getattr(settings, k) is not None]
        where = f"[fleet] {'/'.join(files)}" if files else "[fleet]"
        return None, f"Fleet reporting is off: {where} cannot be used ({error})."
