"""``companion salvage``: a journal whose pages SQLite cannot read, copied row by row.

A zeroed or torn page of an SD card can make SQLite refuse a whole query — an index page
lost makes every entry of a game unreadable although the rows themselves are intact.
SQLite's own recovery (the ``.recover`` command of the ``sqlite3`` shell; Python's
module does not expose the recovery API) reads every page it can, table b-trees
included, and writes what it finds as SQL: replayed into a new file it keeps every
readable row (rows whose table could not be told go to ``lost_and_found``).

``.recover`` needs SQLite's ``sqlite_dbpage`` table, which Debian's (and Raspberry Pi
OS's) shell is built without: there it stops at once with "SQL logic error". Then the
rows are copied here, table by table through each table's own b-tree (never an index,
which is what a damaged index page breaks), stepping over a page that cannot be read
to the next row that can — every row SQLite can still read is kept.

The damaged file is never changed; with ``replace`` it is moved aside
(``<journal>.damaged-<time>``) and the new one takes its place, so the app opens it next.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import JournalError
from companion.journal import TABLES, Journal
from companion.journal.locks import GameLocks

SQLITE_SHELL = "sqlite3"
"""The shell with ``.recover`` (3.29 or newer; scripts/setup installs it)."""

RECOVER_TIMEOUT_S = 600


@dataclass(frozen=True)
class Salvaged:
    """Where the rows went, and how many of each journal table the new file holds."""

    recovered: Path
    rows: dict[str, int]
    damaged_kept: Path | None  # the damaged file, moved aside (``replace``)
    lost_and_found: int  # rows SQLite found but could not place in a table
    method: str  # which recovery made it


def salvage(journal: Path, *, replace: bool = False, shell: str | None = None) -> Salvaged:
    """Copy every readable row of ``journal`` into ``<journal>.recovered`` (made anew),
    check that it opens as a journal, and with ``replace`` put it in the journal's
    place. ``shell``: the sqlite3 shell to try ``.recover`` with (default: the one on
    PATH; "" for none). JournalError with the reason when the copy fails or the app
    holds the file (a game is open in it)."""
    cli = shell if shell is not None else shutil.which(SQLITE_SHELL)
    if not journal.is_file():
        raise JournalError(f"There is no journal file at {journal}.")
    if replace:
        _check_not_playing(journal)
    recovered = journal.with_name(journal.name + ".recovered")
    for leftover in (recovered, Path(f"{recovered}-wal"), Path(f"{recovered}-shm")):
        leftover.unlink(missing_ok=True)
    # Recovery reads a copy: opening the damaged file itself could fold its -wal in.
    copy = journal.with_name(journal.name + ".salvaging")
    try:
        shutil.copyfile(journal, copy)
        if Path(f"{journal}-wal").exists():
            shutil.copyfile(f"{journal}-wal", f"{copy}-wal")
        if cli is not None and _can_recover(cli, copy):
            _run([cli, str(recovered)], _run([cli, str(copy), ".recover"], None))
            method = "the sqlite3 shell's .recover"
        else:
            copy_rows(copy, recovered)
            method = "table by table (this sqlite3 shell has no .recover)"
    except OSError as error:
        raise JournalError(f"Cannot copy {journal} to salvage it: {error}") from None
    finally:
        for name in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
            name.unlink(missing_ok=True)
    try:
        with Journal(recovered):  # adds what is missing, upgrades, marks it sound
            pass
    except JournalError as error:
        raise JournalError(f"The salvaged copy {recovered} is not usable: {error}") from None
    rows, lost = _count(recovered)
    moved: Path | None = None
    if replace:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        moved = journal.with_name(f"{journal.name}.damaged-{stamp}")
        journal.rename(moved)
        if Path(f"{journal}-wal").exists():  # left by a crash: kept with the damaged file
            Path(f"{journal}-wal").rename(f"{moved}-wal")
        Path(f"{journal}-shm").unlink(missing_ok=True)
        Path(f"{journal}-open").unlink(missing_ok=True)
        recovered.rename(journal)
        recovered = journal
    return Salvaged(
        recovered=recovered, rows=rows, damaged_kept=moved, lost_and_found=lost, method=method
    )


def _can_recover(cli: str, database: Path) -> bool:
    """Whether this shell's ``.recover`` works: it needs the ``sqlite_dbpage`` table."""
    if not cli:
        return False
    try:
        done = subprocess.run(
            [cli, "-readonly", str(database), "SELECT 1 FROM sqlite_dbpage LIMIT 0;"],
            capture_output=True,
            timeout=RECOVER_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def copy_rows(damaged: Path, into: Path) -> None:
    """Every row of ``damaged`` that SQLite can read, into a new journal at ``into``:
    each table read through its own b-tree in rowid order (no index), stepping over a
    page that cannot be read to the next row that can."""
    with closing(sqlite3.connect(damaged)) as source:
        source.text_factory = _text_or_bytes
        try:
            tables = [
                name
                for (name,) in source.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                    " AND name NOT LIKE 'sqlite_%'"
                )
            ]
        except sqlite3.DatabaseError as error:
            raise JournalError(
                f"The journal's list of tables cannot be read ({error}): nothing can be"
                " salvaged without the sqlite3 shell's .recover."
            ) from None
        with Journal(into):  # the current schema, every table made
            pass
        with closing(sqlite3.connect(into)) as target:
            made = {n for (n,) in target.execute("SELECT name FROM sqlite_master")}
            for table in tables:
                if table in made:
                    with target:
                        _copy_table(source, target, table)


def _copy_table(source: sqlite3.Connection, target: sqlite3.Connection, table: str) -> None:
    try:
        columns = [row[1] for row in source.execute(f"PRAGMA table_info({table})")]
    except sqlite3.DatabaseError:
        return
    known = {row[1] for row in target.execute(f"PRAGMA table_info({table})")}
    columns = [c for c in columns if c in known]
    names = ", ".join(columns)
    insert = (
        f"INSERT OR IGNORE INTO {table}(rowid, {names}) VALUES (?, {', '.join('?' * len(columns))})"
    )
    # One row a query: a cursor reads a row ahead, so a page that fails mid-scan would
    # take the row before it along.
    select = (
        f"SELECT rowid, {names} FROM {table} NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1"
    )
    start = -(1 << 63)
    while True:
        try:
            row = source.execute(select, (start,)).fetchone()
        except sqlite3.DatabaseError:
            found = _next_readable(source, table, start)
            if found is None:
                return
            start = found
            continue
        if row is None:
            return
        target.execute(insert, row)
        start = row[0] + 1


def _next_readable(source: sqlite3.Connection, table: str, bad: int) -> int | None:
    """The first rowid from which the table reads again, reading from ``bad`` on having
    failed (None: none): rowids further and further on are tried, then the gap is
    narrowed by halves."""

    def first_from(rowid: int) -> int | None:  # sqlite3.DatabaseError: unreadable
        row = source.execute(
            f"SELECT rowid FROM {table} NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1",
            (rowid,),
        ).fetchone()
        return None if row is None else int(row[0])

    def readable(rowid: int) -> bool:
        try:
            first_from(rowid)
        except sqlite3.DatabaseError:
            return False
        return True

    step = 1
    while not readable(bad + step):
        bad, step = bad + step, step * 2
        if bad >= 1 << 62:
            return None
    good = bad + step
    while good - bad > 1:
        middle = (good + bad) // 2
        if readable(middle):
            good = middle
        else:
            bad = middle
    return first_from(good)


def _text_or_bytes(value: bytes) -> str | bytes:
    """Text as text; bytes that are not UTF-8 kept as they are (a row's checksum then
    says it is damaged, instead of the row being left behind)."""
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value


def _check_not_playing(journal: Path) -> None:
    """JournalError when a program plays a game of the journal now (its lock is held)."""
    locks = GameLocks(str(journal), in_memory=False)
    for lock in sorted(locks.folder.glob("game-*.lock")):
        game_id = int(lock.stem.removeprefix("game-"))
        holder = locks.holder(game_id)
        if holder is not None:
            raise JournalError(
                f"Game {game_id} is open in process {holder.pid}: stop the app"
                " (systemctl stop colossus-companion), then salvage again."
            )


def _run(argv: list[str], sql: bytes | None) -> bytes:
    try:
        done = subprocess.run(
            argv, input=sql, capture_output=True, timeout=RECOVER_TIMEOUT_S, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise JournalError(f"{argv[0]} could not run: {error}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise JournalError(
            f"{argv[0]} failed ({' '.join(argv[1:])}): {message[0] if message else done.returncode}"
        )
    return done.stdout


def _count(path: Path) -> tuple[dict[str, int], int]:
    with closing(sqlite3.connect(path)) as db:
        names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        rows = {t: int(db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) for t in TABLES}
        lost = 0
        if "lost_and_found" in names:
            lost = int(db.execute("SELECT COUNT(*) FROM lost_and_found").fetchone()[0])
    return rows, lost
