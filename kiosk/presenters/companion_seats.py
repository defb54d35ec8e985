"""Which seats the companion plays, as Setup sets them, the journal keeps them and
Home, the play header and Scores show them (without Kivy, and light: Setup and Home
read it, the game's presenters are not loaded with it).

A seat is a person's or the companion's at a level (Easy, Medium, Hard; in Kolossus a
seat is a player, who runs one or two warbands, RULINGS 1.4). Which seats the companion
plays is the kiosk's state of the game, not the referee's: a note beside the game's
moves (:data:`NOTE_KEY`), written with the game's header in one commit by
``Session.new(notes=…)``, so a game resumed after a power cut has the same seats.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import JournalError
from companion.journal import Journal

if TYPE_CHECKING:
    from companion.bots.core import Level

log = logging.getLogger(__name__)

BOT_GAMES = ("kolossus", "builders")
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard")
"""The games the companion plays and its levels (``companion.bots``'s, named here so
Setup and Home do not load the bots; a test checks they agree)."""

NOTE_KEY = "companion_seats"
"""The journal note (``Journal.set_note``) that names the companion's seats."""
LEVEL_WORDS: dict[Level, str] = {"easy": "Easy", "medium": "Medium", "hard": "Hard"}


def plays(game: str) -> bool:
    """Whether the companion can take a seat in ``game`` (its ``Rules.name``)."""
    return game in BOT_GAMES


def seat_label(name: str, level: Level | None) -> str:
    """A seat as Home, the header and Scores show it: "Companion 2 (Hard)", "Robo
    (companion, Easy)" for a renamed one, a person's name alone."""
    if level is None:
        return name
    word = LEVEL_WORDS[level]
    return f"{name} ({word})" if "companion" in name.casefold() else f"{name} (companion, {word})"


@dataclass(frozen=True)
class CompanionSeats:
    """The seats the companion plays, each at its level (seat: player index)."""

    levels: tuple[tuple[int, Level], ...] = ()

    @classmethod
    def of(cls, levels: Mapping[int, Level]) -> CompanionSeats:
        return cls(tuple(sorted(levels.items())))

    def level(self, seat: int | None) -> Level | None:
        return None if seat is None else dict(self.levels).get(seat)

    def labels(self, names: Sequence[str]) -> tuple[str, ...]:
        return tuple(seat_label(name, self.level(seat)) for seat, name in enumerate(names))

    def note(self) -> str:
        return json.dumps({"seats": {str(seat): level for seat, level in self.levels}})

    @classmethod
    def from_note(cls, text: str) -> CompanionSeats:
        """The seats a note names; ValueError naming what is wrong in it."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the note {NOTE_KEY!r} is not JSON ({exc.msg})") from None
        seats = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(seats, dict):
            raise ValueError(f"the note {NOTE_KEY!r} has no object 'seats'")
        levels: dict[int, Level] = {}
        for key, value in seats.items():
            if not (isinstance(key, str) and key.isdigit()):
                raise ValueError(f"the note {NOTE_KEY!r} names a seat {key!r}, not a number")
            level = next((lv for lv in LEVELS if lv == value), None)
            if level is None:
                raise ValueError(
                    f"the note {NOTE_KEY!r} gives seat {key} the level {value!r}, "
                    f"not one of {', '.join(LEVELS)}"
                )
            levels[int(key)] = level
        return cls.of(levels)

    def notes(self) -> dict[str, str]:
        """What ``Session.new(notes=…)`` journals with the game (nothing: all people)."""
        return {NOTE_KEY: self.note()} if self.levels else {}


NO_SEATS = CompanionSeats()


def load_seats(journal: Journal | None, game_id: int | None) -> CompanionSeats:
    """The companion's seats of a journaled game; a note that cannot be read is logged
    and the game goes on with a person at every seat (nothing of the game is lost)."""
    if journal is None or game_id is None:
        return NO_SEATS
    try:
        text = journal.note(game_id, NOTE_KEY)
        return NO_SEATS if text is None else CompanionSeats.from_note(text)
    except (JournalError, ValueError) as exc:
        log.warning("Game %s: the companion's seats were not read: %s", game_id, exc)
        return NO_SEATS
