"""One writer per game: an exclusive ``flock`` per game, naming its holder.

The lock lives on a small file beside the journal (``<journal>.locks/game-<id>.lock``)
holding the holder's process id and start time, removed when the game is released (so
only the games open now, and one left by a crash, have one). The kernel drops a ``flock`` when its
process dies, so a crash or a power cut never leaves a lock that blocks; a second
program (or a second journal object) gets :class:`GameInUse` naming the holder.
"""

from __future__ import annotations

import errno
import fcntl
import os
from contextlib import suppress
from pathlib import Path
from typing import IO

from companion.errors import GameInUse, JournalError
from companion.journal.records import LockHolder, describe_error, now

_CLAIM_TRIES = 5


def _still_there(path: Path, handle: IO[str]) -> bool:
    """Whether ``handle`` is still the file at ``path`` (its holder may have removed it
    between our open and our lock)."""
    try:
        return os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
    except OSError:
        return False


class GameLocks:
    """The games one journal object plays, and who plays the others."""

    def __init__(self, journal_path: str, *, in_memory: bool) -> None:
        self.folder = Path(journal_path + ".locks")
        self.in_memory = in_memory  # a throwaway journal has one user: nothing to lock
        self._held: dict[int, IO[str]] = {}

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._held

    def path(self, game_id: int) -> Path:
        return self.folder / f"game-{game_id}.lock"

    def claim(self, game_id: int, *, read_only: bool = False) -> None:
        """Become the one program that plays ``game_id``; GameInUse if another does.

        Claiming a game this journal object already holds is a no-op.
        """
        if self.in_memory or game_id in self._held:
            return
        path = self.path(game_id)
        for _ in range(_CLAIM_TRIES):
            handle = self._open(game_id, path, read_only=read_only)
            if handle is None:
                return  # read-only: nothing can be written anyway
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                holder = read_holder(handle)
                handle.close()
                if exc.errno not in (errno.EWOULDBLOCK, errno.EACCES):
                    raise JournalError(
                        f"Cannot lock game {game_id}: {describe_error(exc)}"
                    ) from None
                raise GameInUse(game_id, holder.pid, holder.since) from None
            if _still_there(path, handle):
                break
            handle.close()  # its holder removed the file on release: lock the new one
        else:
            raise JournalError(f"Cannot lock game {game_id}: its lock file keeps changing.")
        try:
            handle.seek(0)
            handle.write(f"{os.getpid()} {now()}\n")
            handle.flush()
            handle.truncate()  # after the line: a longer earlier holder's line is cut
        except OSError as exc:  # a full disk: the holder line cannot be written
            with suppress(OSError):
                fcntl.flock(handle, fcntl.LOCK_UN)
            with suppress(OSError):
                handle.close()
            raise JournalError(
                f"Cannot lock game {game_id} in {path.parent}: {describe_error(exc)}"
            ) from None
        self._held[game_id] = handle

    @staticmethod
    def _open(game_id: int, path: Path, *, read_only: bool) -> IO[str] | None:
        try:
            path.parent.mkdir(exist_ok=True)
            descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            return os.fdopen(descriptor, "r+", encoding="utf-8")  # held until release
        except OSError as exc:
            if read_only:
                return None
            raise JournalError(
                f"Cannot lock game {game_id} in {path.parent}: {describe_error(exc)}"
            ) from None

    def release(self, game_id: int) -> None:
        """Let another program play ``game_id`` (the kernel also does it when we die)."""
        handle = self._held.pop(game_id, None)
        if handle is not None:
            # Removed while still locked, so lock files do not pile up with the games; a
            # program that opened it meanwhile sees it gone and locks a new one.
            with suppress(OSError):
                self.path(game_id).unlink()
            with suppress(OSError):
                fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()

    def release_all(self) -> None:
        for game_id in list(self._held):
            self.release(game_id)

    def release_all_but(self, game_id: int | None) -> None:
        """Keep only ``game_id`` claimed: a journal object plays one game at a time."""
        for held in [g for g in self._held if g != game_id]:
            self.release(held)

    def holder(self, game_id: int) -> LockHolder | None:
        """Who holds ``game_id`` (this process included), or None if nobody does."""
        if self.in_memory:
            return None
        if game_id in self._held:
            return LockHolder(pid=os.getpid(), since=read_holder(self._held[game_id]).since)
        try:
            with open(self.path(game_id), encoding="utf-8") as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
                except OSError:
                    return read_holder(handle)
                fcntl.flock(handle, fcntl.LOCK_UN)
                return None
        except OSError:
            return None


def read_holder(handle: IO[str]) -> LockHolder:
    try:
        handle.seek(0)
        pid_text, _, since = handle.read(200).strip().partition(" ")
        return LockHolder(pid=int(pid_text), since=since or None)
    except (OSError, ValueError):
        return LockHolder(pid=None, since=None)
