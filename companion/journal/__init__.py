"""The crash-safe journal: every accepted action, committed before it is acknowledged.

The only module of :mod:`companion` that does I/O. One SQLite file holds every game:
a ``games`` row (game, players, options, seed or start position, outcome, how many
entries it has) and an append-only list of ``entries`` — ``act`` (an action as JSON),
``undo`` and ``redo`` — so a game is recovered by replaying its entries. WAL with
``synchronous=FULL`` makes each commit survive a power cut (SQLite's documentation; an
SD card can lose the last commit with ``NORMAL``). Each entry carries a CRC-32 of its
text: a damaged row is reported with its position and moved to ``damaged_entries``,
never silently dropped.

Trust rules, each from a fault found by testing:

* **One writer per game.** A game is claimed with an exclusive ``flock`` on a small
  file beside the journal, naming the holder's process and start time. The kernel
  drops the lock when the process dies, so a crash or power cut never leaves a lock
  that blocks; a second program gets :class:`GameInUse` instead of writing the same
  game and tearing its history.
* **One action, one transaction.** An entry, the game's entry count and its finished
  mark are committed together: what the reply calls saved is exactly what is saved.
* **Damage costs a row, not the journal.** Rows and headers are read one by one; what
  cannot be read is named, the rest stays usable.
* **Nothing is lost silently.** The schema version is checked, entry counts are kept
  in the header, a vanished write-ahead log, an emptied file and dropped tables are
  noticed when the journal opens and reported by :meth:`Journal.check`.
"""

from companion.journal.outbox import Outbox, OutboxMessage
from companion.journal.records import (
    ENTRY_KINDS,
    Damage,
    Entry,
    EntryKind,
    GameInfo,
    GameStatus,
    LockHolder,
    OutcomeMark,
    Snapshot,
    entry_crc,
)
from companion.journal.schema import SCHEMA_VERSION, TABLES
from companion.journal.store import Journal
from companion.journal.transaction import immediate

__all__ = [
    "ENTRY_KINDS",
    "SCHEMA_VERSION",
    "TABLES",
    "Damage",
    "Entry",
    "EntryKind",
    "GameInfo",
    "GameStatus",
    "Journal",
    "LockHolder",
    "Outbox",
    "OutboxMessage",
    "OutcomeMark",
    "Snapshot",
    "entry_crc",
    "immediate",
]
