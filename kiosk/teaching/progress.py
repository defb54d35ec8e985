"""Teach mode's progress per game: on or skipped, and which rulings were shown; and
guided setup's: which step of the physical setup the table is at.

Journaled like everything else: a note beside the game's moves in the journal
(``Journal.set_note``, keys ``teaching`` and ``guided_setup``), on a commit of its own
after every tap, so a power cut resumes the lesson at the same pause and the setup at
the same step. The referee never reads it — it is the
kiosk's teaching state, not the game's, and ``companion/`` knows nothing of teaching.
A note that cannot be read starts the lesson again, and one that cannot be written is
logged: neither stops the game.

A scripted first game (``kiosk.presenters.lesson``) keeps its place the same way, in a
note of its own (key ``lesson``): the step it is at, and how each step went.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from companion.errors import JournalError
from companion.journal import Journal

NOTE_KEY = "teaching"
LESSON_KEY = "lesson"
SETUP_NOTE_KEY = "guided_setup"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TeachProgress:
    """``on``: teach mode pauses at new rules (False once "Skip teaching" is tapped);
    ``seen``: the rulings already shown in this game."""

    on: bool = True
    seen: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LessonPlace:
    """Where a scripted first game stands: ``step`` (0-based; the step count when the
    steps are done), the steps ``met`` and ``missed`` (the goal did not come up), the
    steps of ``met`` the player did ``own`` (not by "Play it" or after "Show me"), the
    actions ``waited`` in this step, the game's action count when last checked
    (``actions``) and ``ended`` ("Keep playing" or "End lesson": no more panel)."""

    step: int = 0
    met: tuple[int, ...] = ()
    missed: tuple[int, ...] = ()
    own: tuple[int, ...] = ()
    waited: int = 0
    actions: int = 0
    ended: bool = False


@dataclass(frozen=True)
class SetupProgress:
    """Guided setup: the step on screen (0-based), and whether setup is over (every
    step done, or skipped) so play is on screen."""

    step: int = 0
    finished: bool = False


#: A setup that starts at its first step.
SETUP_START = SetupProgress()


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
        self._write(game_id, NOTE_KEY, text, "Teach mode's progress")

    def load_lesson(self, game_id: int) -> LessonPlace | None:
        """The game's place in its lesson; None when it is not a lesson. A note that
        cannot be read starts the lesson at its first step."""
        try:
            text = self.journal.note(game_id, LESSON_KEY)
            if text is None:
                return None
            data = json.loads(text)
            ints = ("step", "waited", "actions")
            lists = ("met", "missed", "own")
            data.setdefault("own", [])  # a note saved before "own" was kept
            if not all(type(data[key]) is int and data[key] >= 0 for key in ints):
                raise ValueError(text)
            if not all(all(type(i) is int for i in data[key]) for key in lists):
                raise ValueError(text)
            if not isinstance(data["ended"], bool):
                raise ValueError(text)
            return LessonPlace(
                step=data["step"],
                met=tuple(data["met"]),
                missed=tuple(data["missed"]),
                own=tuple(data["own"]),
                waited=data["waited"],
                actions=data["actions"],
                ended=data["ended"],
            )
        except (JournalError, ValueError, KeyError, TypeError):
            return LessonPlace()

    def save_lesson(self, game_id: int, place: LessonPlace) -> None:
        """Replace the game's place in its lesson, durably."""
        data = {
            "step": place.step,
            "met": list(place.met),
            "missed": list(place.missed),
            "own": list(place.own),
            "waited": place.waited,
            "actions": place.actions,
            "ended": place.ended,
        }
        self._write(game_id, LESSON_KEY, json.dumps(data), "The lesson's place")

    def load_setup(self, game_id: int) -> SetupProgress | None:
        """The game's guided setup; None when it was started without one. A damaged
        note finishes the setup (play goes on; the table was being set up anyway)."""
        try:
            text = self.journal.note(game_id, SETUP_NOTE_KEY)
            if text is None:
                return None
            data = json.loads(text)
            step, finished = data["step"], data["finished"]
            if not isinstance(step, int) or step < 0 or not isinstance(finished, bool):
                raise ValueError(text)
            return SetupProgress(step=step, finished=finished)
        except (JournalError, ValueError, KeyError, TypeError):
            return SetupProgress(finished=True)

    def save_setup(self, game_id: int, progress: SetupProgress) -> None:
        """Replace the game's guided-setup step, durably (the journal's commit)."""
        text = json.dumps({"step": progress.step, "finished": progress.finished})
        self._write(game_id, SETUP_NOTE_KEY, text, "Guided setup's step")

    def _write(self, game_id: int, key: str, text: str, what: str) -> None:
        try:
            self.journal.set_note(game_id, key, text)
        except JournalError as exc:  # the lesson goes on; only its place may be lost
            log.warning("%s was not saved: %s", what, exc)
