"""Score history, the end-of-game summary and the export (JSON record + BG Stats link).

The chart is computed here as normalised polylines (0..1 in both axes) so the Kivy
widget only scales points to its size; the table is the ScoreSheet as text.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from pydantic import JsonValue

from companion.json_values import json_list, json_object
from companion.outcome import ScoreSheet
from companion.session import Session
from kiosk.presenters.common import RGB, humanize
from kiosk.presenters.setup import seat_colours

BGSTATS_URL = "bgstats://app.bgstatsapp.com/createPlay.html?data="
TABLE_ROWS_SHOWN = 12  # the newest rows; older ones scroll off the top


@dataclass(frozen=True)
class ChartSeries:
    name: str
    colour: RGB
    points: tuple[tuple[float, float], ...]  # normalised 0..1


@dataclass(frozen=True)
class ScoresView:
    title: str
    measure: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]  # label, one value per column
    hidden_rows: int
    series: tuple[ChartSeries, ...]
    y_range: tuple[int, int]
    outcome: str | None
    summary: tuple[str, ...]  # end-of-game lines: winner(s), final scores, actions
    export_path: str | None
    export_link: str | None
    export_error: str | None = None  # why the last export could not be written


def chart_series(
    sheet: ScoreSheet, colours: tuple[RGB, ...]
) -> tuple[tuple[ChartSeries, ...], tuple[int, int]]:
    """One polyline per column, x = row index, y = value, both scaled to 0..1."""
    if not sheet.rows:
        return (), (0, 0)
    values = [v for row in sheet.rows for v in row.values]
    low, high = min(0, *values), max(1, *values)
    span = high - low or 1
    count = len(sheet.rows)
    series = []
    for col, name in enumerate(sheet.columns):
        points = tuple(
            (0.5 if count == 1 else i / (count - 1), (row.values[col] - low) / span)
            for i, row in enumerate(sheet.rows)
            if col < len(row.values)
        )
        series.append(ChartSeries(name=name, colour=colours[col % len(colours)], points=points))
    return tuple(series), (low, high)


def final_scores(sheet: ScoreSheet) -> tuple[int, ...] | None:
    return sheet.rows[-1].values if sheet.rows else None


def bgstats_link(record: Mapping[str, JsonValue], when: datetime) -> str:
    """A BG Stats import link (``createPlay.html?data=<url-encoded JSON>``) for the play.

    Only what BG Stats needs to record the play: every optional field makes the QR code
    denser, and a phone must read it off a 7" screen. ``:`` and ``,`` may stand in a
    URL's query unencoded (RFC 3986), which saves a fifth of the length.
    """
    winners = json_list(json_object(record.get("outcome")).get("winners"))
    rows = json_list(json_object(record.get("scores")).get("rows"))
    last = json_list(json_object(rows[-1]).get("values")) if rows else []
    names = json_list(record.get("players"))
    scored = bool(last) and len(last) == len(names)
    players: list[JsonValue] = []
    for seat, name in enumerate(names):
        entry: dict[str, JsonValue] = {"name": name}
        if scored:
            entry["score"] = last[seat]
        if seat in winners:
            entry["winner"] = True
        if seat == 0:
            entry["startPlayer"] = True
        players.append(entry)
    data = {
        "sourceName": "Colossus Companion",
        "sourcePlayId": f"{record['game']}-{record.get('game_id')}",
        "playDate": when.strftime("%Y-%m-%d %H:%M:%S"),
        "game": {
            "name": record["title"],
            "sourceGameId": record["game"],
            "highestWins": True,
            "noPoints": not scored,
        },
        "players": players,
    }
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return BGSTATS_URL + quote(text, safe=":,")


def export_filename(record: Mapping[str, JsonValue], when: datetime) -> str:
    safe = re.sub(r"[^a-z0-9_]+", "_", str(record["game"]).lower())
    game_id = record.get("game_id") or "nojournal"
    return f"{safe}-{game_id}-{when.strftime('%Y%m%d-%H%M%S')}.json"


class ScoresPresenter:
    """Reads the session; ``export`` is the one thing here that writes (to exports/)."""

    def __init__(
        self, session: Session, exports_dir: Path, labels: Sequence[str] | None = None
    ) -> None:
        """``labels``: each seat's name as shown ("Companion (Hard)"); by default the
        players' names."""
        self.session = session
        self.exports_dir = exports_dir
        names = session.state.players
        self._labels = dict(zip(names, labels or names, strict=True))
        self.export_path: Path | None = None
        self.export_link: str | None = None
        self.export_error: str | None = None

    def view(self) -> ScoresView:
        rules, state = self.session.rules, self.session.state
        sheet: ScoreSheet = rules.scores(state)
        colours = seat_colours(rules.name)
        series, y_range = chart_series(sheet, colours)
        columns = tuple(self._labels.get(c, c) for c in sheet.columns)
        shown = sheet.rows[-TABLE_ROWS_SHOWN:]
        rows = tuple((r.label, tuple(str(v) for v in r.values)) for r in shown)
        outcome = self.session.outcome
        summary: list[str] = []
        if outcome is not None:
            names = [self._labels[state.players[w]] for w in outcome.winners]
            summary.append(outcome.text)
            summary.append("Winner: " + " and ".join(names) if names else "No winner.")
            last = final_scores(sheet)
            if last is not None:
                summary.append(
                    f"Final {sheet.measure}: "
                    + ", ".join(f"{c} {v}" for c, v in zip(columns, last, strict=False))
                )
            summary.append(f"{len(self.session.actions)} actions recorded.")
        return ScoresView(
            title=rules.title,
            measure=humanize(sheet.measure),
            columns=columns,
            rows=rows,
            hidden_rows=len(sheet.rows) - len(shown),
            series=series,
            y_range=y_range,
            outcome=None if outcome is None else outcome.text,
            summary=tuple(summary),
            export_path=None if self.export_path is None else str(self.export_path),
            export_link=self.export_link,
            export_error=self.export_error,
        )

    def _unchanged_export(self, record: Mapping[str, JsonValue]) -> tuple[Path, datetime] | None:
        """The newest file this game was exported to, and when, if it holds exactly
        ``record`` (nothing played or undone since); None otherwise."""
        if record.get("game_id") is None:
            return None  # a game outside the journal: no name tells its files apart
        stem = export_filename(record, datetime.now(UTC)).rsplit("-", 2)[0]
        files = sorted(self.exports_dir.glob(f"{stem}-*.json"), reverse=True)
        if not files:
            return None
        try:
            kept = json.loads(files[0].read_text(encoding="utf-8"))
            exported = datetime.fromisoformat(kept.pop("exported"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        same = kept == json.loads(json.dumps(record))
        return (files[0], exported) if same else None

    def export(self, when: datetime | None = None) -> Path | None:
        """Write the game record to ``exports_dir`` and prepare the BG Stats link; a
        game exported before and not played on since keeps its file (a tap does not
        write a new one). A file that cannot be written (a full disk, a read-only card)
        leaves no half-written file and returns None, with the reason in
        ``export_error``: the game itself is in the journal, and nothing is lost."""
        when = when or datetime.now(UTC)
        record = self.session.export()
        kept = self._unchanged_export(record)
        if kept is not None:  # the same game, not played on since: its file is reused
            path, exported = kept
            self.export_path, self.export_error = path, None
            self.export_link = bgstats_link(record, exported)
            return path
        record["exported"] = when.isoformat(timespec="seconds")
        path = self.exports_dir / export_filename(record, when)
        tmp = path.with_suffix(".tmp")
        try:
            self.exports_dir.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as err:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            reason = err.strerror or str(err)
            self.export_error = (
                f"Not exported: {reason} ({self.exports_dir}). "
                "The game is safe in the journal; free some space and tap Export again."
            )
            return None
        self.export_path, self.export_error = path, None
        self.export_link = bgstats_link(record, when)
        return path
