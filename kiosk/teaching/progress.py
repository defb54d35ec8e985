"""Teach mode's progress per game: on or skipped, and which rulings were shown.

Kept beside the journal (``<data dir>/teaching/game-<id>.json``), written the way the
journal commits: the new file is written, flushed to the disk, then renamed over the old
one and the folder flushed, so a power cut leaves either the old progress or the new,
never half a file. The game's own moves stay in the journal: this is the kiosk's
teaching state, not the referee's, and ``companion/`` knows nothing of teaching.
A file that cannot be read starts the lesson again rather than stopping the game.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

FOLDER = "teaching"


@dataclass(frozen=True)
class TeachProgress:
    """``on``: teach mode pauses at new rules (False once "Skip teaching" is tapped);
    ``seen``: the rulings already shown in this game."""

    on: bool = True
    seen: frozenset[str] = frozenset()


class ProgressStore:
    """Each game's :class:`TeachProgress`, durable across a power cut."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = Path(data_dir) / FOLDER

    def _file(self, game_id: int) -> Path:
        return self.folder / f"game-{game_id}.json"

    def load(self, game_id: int) -> TeachProgress | None:
        """The game's progress; None when it was started without teach mode."""
        path = self._file(game_id)
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            seen = data["seen"]
            if not isinstance(data["on"], bool) or not all(isinstance(s, str) for s in seen):
                raise ValueError(path)
            return TeachProgress(on=data["on"], seen=frozenset(seen))
        except (OSError, ValueError, KeyError, TypeError):
            return TeachProgress()

    def save(self, game_id: int, progress: TeachProgress) -> None:
        """Replace the game's progress atomically (written, synced, renamed, synced)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._file(game_id)
        temporary = path.with_suffix(".tmp")
        text = json.dumps({"on": progress.on, "seen": sorted(progress.seen)})
        with open(temporary, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        folder = os.open(self.folder, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
