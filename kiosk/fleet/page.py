"""The fleet's static HTML page and its plain-text summary, made from a :class:`FleetStore`.

One self-contained file (no script, no server, no external asset): open it in a browser
or serve the folder with anything; it reloads itself every minute.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from companion.json_values import json_object
from kiosk.fleet.store import BrokerLink, FleetStore, TableState, short_time

PAGE_FILE = "index.html"
REFRESH_S = 60

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1rem; background: #15171c; color: #e8e8ea; }
.scroll { overflow-x: auto; max-width: 100%; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; } h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.when { color: #9a9ca3; font-size: .85rem; }
table { border-collapse: collapse; margin-bottom: 1rem; }
th, td { text-align: left; padding: .3rem .8rem; border-bottom: 1px solid #30333b; }
th { color: #9a9ca3; font-weight: 600; } td.nowrap { white-space: nowrap; }
.online { color: #6fcf7f; } .offline { color: #ef6b6b; } .warn { color: #f2c94c; }
ul.alerts { padding-left: 1.2rem; } ul.alerts li { color: #f2c94c; margin: .2rem 0; }
.boards { display: flex; flex-wrap: wrap; gap: 1.5rem; }
"""


def _cell(value: object) -> str:
    return f"<td>{escape(str(value)) if value not in (None, '') else '–'}</td>"


def _table_row(state: TableState) -> str:
    online = state.status is not None and state.status.state == "online"
    status = '<td class="online">online</td>' if online else '<td class="offline">offline</td>'
    table = state.table
    game = "Home" if table is None or table.game is None else table.title or table.game
    if table is not None and table.demo:
        game += " (demo)"
    turn = "" if table is None else table.turn_player or ""
    if table is not None and table.finished:
        turn = table.result or "finished"
    scores = ""
    if table is not None and table.scores:
        pairs = zip(table.players, table.scores, strict=False)
        scores = ", ".join(f"{name} {value}" for name, value in pairs)
    health = state.health
    waiting = "" if health is None else health.outbox_waiting
    devices = "" if health is None else " · ".join(d.text for d in health.devices)
    return (
        f'<tr><td class="nowrap">{escape(state.device)}</td>{status}{_cell(game)}{_cell(turn)}'
        f"{_cell(None if table is None else table.status)}{_cell(scores)}"
        f"{_cell(devices)}{_cell(waiting)}"
        f'<td class="nowrap">{escape(short_time(state.last_seen))}</td></tr>'
    )


def broker_line(link: BrokerLink) -> str:
    """Whether the watcher hears the broker, and since when (page and summary)."""
    if link.connected:
        return (
            f"Broker connected since {short_time(link.since)}; last heard {short_time(link.heard)}."
        )
    heard = f"last heard {short_time(link.heard)}" if link.heard else "never heard yet"
    why = f": {link.error}" if link.error else ""
    since = f" since {short_time(link.since)}" if link.since else ""
    return (
        f"The watcher is not connected to the broker{since}{why}. The tables' values below"
        f" are as last heard ({heard}): tables may hold records this page does not show yet."
    )


def render_page(store: FleetStore, *, days: float = 7.0, now: datetime | None = None) -> str:
    """The whole page: the broker link, tables, alerts, this week's leaderboard per game,
    recent games."""
    when = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    tables = store.tables()
    alerts = store.alerts()
    link = store.broker()
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="refresh" content="{REFRESH_S}">',
        "<title>Colossus Companion — fleet</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Colossus Companion — fleet</h1>",
        f'<div class="when">Written {escape(short_time(when))}; {len(tables)} tables,'
        f" {store.games_played()} finished games on record.</div>",
        f'<p class="{"when" if link.connected else "warn"}">{escape(broker_line(link))}</p>',
        "<h2>Tables</h2>",
        '<div class="scroll"><table><tr><th>Table</th><th>Link</th><th>Game</th>'
        "<th>Turn / result</th><th>Status</th><th>Scores</th><th>Devices</th><th>Waiting</th>"
        "<th>Last heard</th></tr>",
        *(_table_row(state) for state in tables),
        "</table></div>",
        "<h2>Alerts</h2>",
    ]
    if alerts:
        parts += ['<ul class="alerts">', *(f"<li>{escape(a)}</li>" for a in alerts), "</ul>"]
    else:
        parts.append("<p>None: every table is online and healthy.</p>")
    parts.append(f"<h2>Leaderboard — the last {days:g} days</h2>")
    boards = store.leaderboard(days=days)
    if not boards:
        parts.append("<p>No finished games yet.</p>")
    parts.append('<div class="boards">')
    for title, standings in boards.items():
        parts += [
            f"<table><tr><th colspan=3>{escape(title)}</th></tr>",
            "<tr><th>Player</th><th>Wins</th><th>Played</th></tr>",
            *(f"<tr>{_cell(s.player)}{_cell(s.wins)}{_cell(s.played)}</tr>" for s in standings),
            "</table>",
        ]
    parts.append("</div>")
    recent = store.finished_games(limit=20)
    if recent:
        parts += [
            "<h2>Recent games</h2>",
            "<table><tr><th>Finished</th><th>Table</th><th>Game</th><th>Result</th></tr>",
        ]
        for game in recent:
            outcome = json_object(game.get("outcome"))
            parts.append(
                f"<tr>{_cell(short_time(str(game['finished_at'])))}{_cell(game['device'])}"
                f"{_cell(game.get('title'))}{_cell(outcome.get('text'))}</tr>"
            )
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_page(store: FleetStore, folder: Path, *, days: float = 7.0) -> Path:
    """Write ``index.html`` into ``folder`` atomically (a reader never sees half a page)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / PAGE_FILE
    temp = folder / (PAGE_FILE + ".tmp")
    temp.write_text(render_page(store, days=days), encoding="utf-8")
    os.replace(temp, target)
    return target


def summary_text(store: FleetStore, *, days: float = 7.0) -> str:
    """The same as the page, as plain text for the terminal."""
    lines = [broker_line(store.broker()), "Tables:"]
    for state in store.tables():
        link = state.status.state if state.status is not None else "unknown"
        table = state.table
        game = "Home" if table is None or table.game is None else table.title or table.game
        turn = (
            "" if table is None or table.turn_player is None else f", {table.turn_player} to play"
        )
        lines.append(f"  {state.device}: {link}, {game}{turn}")
    alerts = store.alerts()
    lines.append("Alerts:" if alerts else "Alerts: none")
    lines += [f"  {alert}" for alert in alerts]
    lines.append(f"Leaderboard, the last {days:g} days:")
    for title, standings in store.leaderboard(days=days).items():
        lines.append(f"  {title}")
        lines += [f"    {s.player}: {s.wins} wins of {s.played}" for s in standings]
    return "\n".join(lines) + "\n"
