"""Typed refusals. Every one carries a machine code and a sentence a player understands.

Modelled on python-chess: errors subclass :class:`ValueError`, so callers that only care
"was this input acceptable?" can catch one type.
"""

from __future__ import annotations


class RefereeError(ValueError):
    """Base of every refusal the referee gives. ``code`` is stable; ``message`` is for people."""

    code = "referee_error"

    def __init__(self, message: str, *, ruling: str | None = None) -> None:
        self.message = message
        self.ruling = ruling
        super().__init__(f"{message} ({ruling})" if ruling else message)

    def as_dict(self) -> dict[str, str]:
        """The error object of the protocol and the kiosk: code, ruling (if any), message."""
        out = {"code": self.code, "message": self.message}
        if self.ruling:
            out["ruling"] = self.ruling
        return out


class RuleViolation(RefereeError):
    """A well-formed action that the rules forbid now. Cite the ruling ID where one applies."""

    code = "illegal_action"


class InvalidAction(RefereeError):
    """An action that is not well formed (unknown type, missing or wrong-typed field)."""

    code = "invalid_action"


class InvalidPosition(RefereeError):
    """A position (state dump) that does not validate or breaks a game invariant."""

    code = "invalid_position"


class InvalidOptions(RefereeError):
    """House-rule options or a player list that the game cannot be set up with."""

    code = "invalid_options"


class InvalidContent(RefereeError):
    """A user-supplied data file (card table, board, layout) that does not validate."""

    code = "invalid_content"


class JournalError(RefereeError):
    """The journal could not be written or read. Nothing was acknowledged."""

    code = "journal_error"


class DamagedHeader(JournalError):
    """A game's header row (game, players, options) cannot be read or does not start
    the game: it is rebuilt from the game's entries and saved positions where they say
    enough (:mod:`companion.header_rebuild`)."""


class GameNotFound(RefereeError):
    """No game of this id is in the journal (a mistyped or deleted id): the journal is
    fine, so this is not a :class:`JournalError`."""

    code = "game_not_found"

    def __init__(self, game_id: int, where: str) -> None:
        self.game_id = game_id
        super().__init__(f"There is no game {game_id} in the journal {where}.")


class GameInUse(JournalError):
    """Another program plays this game now: one writer per game, so its history stays
    one line of moves. Says who holds it, so the person at the table can close it."""

    code = "game_in_use"

    def __init__(self, game_id: int, pid: int | None, since: str | None) -> None:
        self.game_id = game_id
        self.pid = pid
        self.since = since
        holder = "another program" if pid is None else f"another program (process {pid}"
        if pid is not None:
            holder += f", since {since})" if since else ")"
        super().__init__(
            f"Game {game_id} is open in {holder}; close it there first, or wait until it"
            " has stopped."
        )
