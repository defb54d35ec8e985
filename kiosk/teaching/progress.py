"""Teach mode's progress per game: on or skipped, and which rulings were shown.

Journaled like everything else: a note beside the game's moves in the journal
(``Journal.set_note``, key ``teaching``), on a commit of its own after every tap, so a
power cut resumes the lesson at the same pause. The referee never reads it — it is the
kiosk's teaching state, not the game's, and ``companion/`` knows nothing of teaching.
A note that cannot be read starts the lesson again, and one that cannot be written is
logged: neither stops the game.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from companion.errors import JournalError
from companion.journal import Journal

NOTE_KEY = "teaching"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TeachProgress:
    """``on``: teach mode pauses at new rules (False once "Skip teaching" is tapped);
    ``seen``: the rulings already shown in this game."""

    on: bool = True
    seen: frozenset[str] = frozenset()


class ProgressStore:
    """Each game's :class:`TeachProgress`, kept in the journal beside its moves."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    def load(self, game_id: int) -> TeachProgress | None:
        """The game's progress; None when it was started without teach mode."""
        try:
            text = self.journal.note(game_id, NOTE_KEY)
            if text is None:
                return None
            data = json.loads(text)
            seen = data["seen"]
            if not isinstance(data["on"], bool) or not all(isinstance(s, str) for s in seen):
                raise ValueError(text)
            return TeachProgress(on=data["on"], seen=frozenset(seen))
        except (JournalError, ValueError, KeyError, TypeError):
            return TeachProgress()

    def save(self, game_id: int, progress: TeachProgress) -> None:
        """Replace the game's progress, durably (the journal's commit)."""
        text = json.dumps({"on": progress.on, "seen": sorted(progress.seen)})
        try:
            self.journal.set_note(game_id, NOTE_KEY, text)
        except JournalError as exc:  # the lesson goes on; only its place may be lost
            log.warning("Teach mode's progress was not saved: %s", exc)
