"""The shop demo (attract mode) without Kivy: an idle clock and a self-playing demo
(:mod:`kiosk.presenters.demo`, loaded when a demo starts).

A shop runs the companion unattended next to a demo copy of a game. After
``[kiosk] idle_timeout_s`` without a touch, a table button or a die, the kiosk leaves
the game on screen as it is (every accepted action is already in the journal; a
half-filled form or setup is simply dropped) and a demo plays itself on the same play
screen and LEDs: :class:`companion.bot.RandomBot` picks actions weighted by
``Rules.interest`` (captures, quakes, harvests), one every ``demo_step_s``; dice are
rolled in software; a "fix the table" walk-through is stepped through like a player
would. A finished demo game stays on screen for ``demo_outcome_s``, then the next game
of the rotation starts with fresh seeds. Any input ends the demo (the kiosk goes Home,
where the interrupted game waits under Resume).

Demo games never reach the real journal: they run on a private in-memory journal
(``Journal(":memory:")``, the same submit path as a real game), and each one is deleted
from it when the next starts, so a demo can run for weeks in bounded memory.

Everything here is fed timestamps (``now``) by the caller, so it is tested without a
clock, a display or Kivy; the app calls :meth:`AttractMode.tick` from ``Clock``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from companion.errors import JournalError
from companion.games import available_games
from companion.journal import Journal

DemoStep = Literal["started", "acted", "rolled", "fixed", "outcome", "waiting", "refused"]
TickResult = DemoStep | Literal["idle"]


class Demo(Protocol):
    """What attract mode runs: :class:`kiosk.presenters.demo.DemoDriver` (its module, the
    demo's games and presenter, loads when a demo starts, not at launch)."""

    def start(self, now: float) -> object: ...

    def step(self, now: float) -> DemoStep: ...

    def close(self) -> None: ...


D = TypeVar("D", bound=Demo)
BootAction = Literal["resume", "demo", "home"]


def demo_rotation(wanted: Sequence[str], present: Sequence[str] | None = None) -> tuple[str, ...]:
    """The games the demo rotates through: ``wanted`` (``[kiosk] demo_games``) that are
    present in this build, in the given order; every present game when none is left."""
    games = tuple(available_games() if present is None else present)
    chosen = tuple(name for name in wanted if name in games)
    return chosen or games


def unknown_games(wanted: Sequence[str], present: Sequence[str] | None = None) -> tuple[str, ...]:
    """Names in ``[kiosk] demo_games`` that are not games of this build (for a warning)."""
    games = set(available_games() if present is None else present)
    return tuple(name for name in wanted if name not in games)


class IdleClock:
    """Time since the last input; expires after ``timeout_s`` (0 = never)."""

    def __init__(self, timeout_s: float, now: float) -> None:
        self.timeout_s = timeout_s
        self.last_input = now

    @property
    def enabled(self) -> bool:
        return self.timeout_s > 0

    def touch(self, now: float) -> None:
        """Any input: a touch, a key, a table button, a die."""
        self.last_input = now

    def idle_for(self, now: float) -> float:
        return max(0.0, now - self.last_input)

    def expired(self, now: float) -> bool:
        return self.enabled and self.idle_for(now) >= self.timeout_s

    @property
    def due(self) -> float | None:
        """When the idle clock expires (None: never), on the clock ``now`` was read from."""
        return self.last_input + self.timeout_s if self.enabled else None


class AttractMode(Generic[D]):
    """Idle clock + demo driver: starts the demo when idle, ends it on any input."""

    def __init__(
        self,
        idle_timeout_s: float,
        make_driver: Callable[[], D],
        now: float,
    ) -> None:
        self.idle = IdleClock(idle_timeout_s, now)
        self.make_driver = make_driver
        self.driver: D | None = None

    @property
    def active(self) -> bool:
        return self.driver is not None

    def start(self, now: float) -> D:
        """Start the demo now (idle timeout, ``on_boot = "demo"``, or the admin page)."""
        if self.driver is None:
            self.driver = self.make_driver()
            self.driver.start(now)
        return self.driver

    def stop(self, now: float) -> bool:
        """End the demo; True if one was running."""
        driver, self.driver = self.driver, None
        self.idle.touch(now)
        if driver is None:
            return False
        driver.close()
        return True

    def input(self, now: float) -> bool:
        """Any input. True when it ended the demo: the caller goes Home and the input
        does nothing else (a visitor's first touch must not play a move)."""
        self.idle.touch(now)
        return self.stop(now)

    def tick(self, now: float) -> TickResult:
        if self.driver is not None:
            return self.driver.step(now)
        if self.idle.expired(now):
            self.start(now)
            return "started"
        return "idle"


RESUMABLE_LOOKED_AT = 20
"""Boot resumes the most recent of this many unfinished games whose game is present
(an indexed read, whatever the number of games)."""


@dataclass(frozen=True)
class BootChoice:
    action: BootAction
    game_id: int | None = None


def boot_choice(on_boot: BootAction, journal: Journal) -> BootChoice:
    """What the kiosk shows first. ``"resume"`` opens the most recently played unfinished
    game (Home when there is none or the journal cannot be read)."""
    if on_boot != "resume":
        return BootChoice(on_boot)
    try:
        games = journal.recent_games("active", RESUMABLE_LOOKED_AT)
    except JournalError:
        return BootChoice("home")
    present = set(available_games())
    for info in games:
        if info.game in present:
            return BootChoice("resume", info.game_id)
    return BootChoice("home")
