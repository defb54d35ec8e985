"""The shop demo (attract mode) without Kivy: an idle clock and a self-playing demo.

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

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.bot import RandomBot
from companion.dice import Roll
from companion.errors import JournalError
from companion.games import available_games, get_rules
from companion.journal import Journal
from companion.rules import AnyRules
from companion.session import Session
from kiosk.presenters.looks import look_for
from kiosk.presenters.play import PlayPresenter

DemoStep = Literal["started", "acted", "rolled", "fixed", "outcome", "waiting", "refused"]
TickResult = DemoStep | Literal["idle"]
BootAction = Literal["resume", "demo", "home"]

DEMO_NAMES = ("Ada", "Bram", "Cleo", "Dev")
#: A demo game that has not ended after this many actions gives way to the next one.
MAX_DEMO_ACTIONS = 2000
#: Refusals in a row (there should be none: the bot plays listed actions) before giving up.
MAX_REFUSALS = 5


def demo_players(rules: AnyRules) -> tuple[str, ...]:
    """Sensible names for a demo of ``rules``, as many as the game likes to show."""
    wanted = look_for(rules.name).demo_seats
    count = max(rules.min_players, min(rules.max_players, wanted, len(DEMO_NAMES)))
    return tuple(DEMO_NAMES[i] if i < len(DEMO_NAMES) else f"Player {i + 1}" for i in range(count))


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


class DemoPlayPresenter(PlayPresenter):
    """A demo game on the play screen. A die rolled at the table is a visitor's input:
    it ends the demo instead of being played into it."""

    def __init__(self, session: Session, on_input: Callable[[], object]) -> None:
        super().__init__(session)
        self.on_input = on_input

    def electronic_roll(self, roll: Roll) -> bool:
        self.on_input()
        return False


@dataclass(frozen=True)
class DemoGame:
    """What a demo game was started with (for the log and the tests)."""

    game: str
    players: tuple[str, ...]
    seed: int
    bot_seed: int


class DemoDriver:
    """Plays demo games one action per ``step_s``, rotating through ``games``.

    ``seed`` gives fresh seeds (the game's and the bot's); ``on_game`` is told about each
    new demo game (the kiosk puts it on the play screen); ``on_input`` is what a die
    rolled during the demo calls.
    """

    def __init__(
        self,
        games: Sequence[str],
        *,
        seed: Callable[[], int],
        step_s: float = 1.5,
        outcome_s: float = 8.0,
        max_actions: int = MAX_DEMO_ACTIONS,
        on_game: Callable[[DemoPlayPresenter], None] | None = None,
        on_input: Callable[[], object] | None = None,
    ) -> None:
        if not games:
            raise ValueError("The demo needs at least one game.")
        self.games = tuple(games)
        self.seed = seed
        self.step_s = step_s
        self.outcome_s = outcome_s
        self.max_actions = max_actions
        self.on_game = on_game
        self.on_input: Callable[[], object] = on_input or (lambda: None)
        self.journal = Journal(":memory:")
        self.play: DemoPlayPresenter | None = None
        self.current: DemoGame | None = None
        self.bot = RandomBot(0)
        self.index = -1
        self.turns = 0  # actions played by every demo game so far
        self.games_started = 0
        self.games_finished = 0
        self.refusals = 0
        self._game_actions = 0
        self._refused_in_a_row = 0
        self._next_at = 0.0
        self._ended_at: float | None = None

    # --- the rotation -----------------------------------------------------------------

    def start(self, now: float) -> DemoPlayPresenter:
        return self._next_game(now)

    def _next_game(self, now: float) -> DemoPlayPresenter:
        self._drop_current()
        self.index = (self.index + 1) % len(self.games)
        rules = get_rules(self.games[self.index])
        game = DemoGame(rules.name, demo_players(rules), self.seed(), self.seed())
        session = Session.new(rules, game.players, seed=game.seed, journal=self.journal, demo=True)
        self.current = game
        self.bot = RandomBot(game.bot_seed)
        self.play = DemoPlayPresenter(session, self._input)
        self.games_started += 1
        self._game_actions = 0
        self._refused_in_a_row = 0
        self._ended_at = None
        self._next_at = now + self.step_s
        if self.on_game is not None:
            self.on_game(self.play)
        return self.play

    def _drop_current(self) -> None:
        """Forget the current demo game, in memory and in the private journal."""
        play, self.play = self.play, None
        if play is not None and play.session.game_id is not None:
            with contextlib.suppress(JournalError):  # an in-memory database does not fail
                self.journal.delete_game(play.session.game_id)

    def _input(self) -> None:
        self.on_input()

    # --- one tick ---------------------------------------------------------------------

    def step(self, now: float) -> DemoStep:
        """Do what is due at ``now``: at most one move (or the next game)."""
        play = self.play
        if play is None:
            self._next_game(now)
            return "started"
        if self._ended_at is not None:
            if now - self._ended_at >= self.outcome_s:
                self._next_game(now)
                return "started"
            return "outcome"
        if now < self._next_at:
            return "waiting"
        self._next_at = now + self.step_s
        if play.fix_step is not None:  # the walk-through, one step a move, as players do
            play.next_fix_step()
            return "fixed"
        if play.session.outcome is not None:
            self._ended_at = now
            self.games_finished += 1
            return "outcome"
        action = (
            self.bot.choose(play.rules, play.state)
            if self._game_actions < self.max_actions
            else None
        )
        if action is None:  # stuck or too long: show it for a moment, then the next game
            self._ended_at = now
            return "outcome"
        rolled = isinstance(action, Roll)
        accepted = play.roll_in_software() if rolled else play.submit(action)
        if not accepted:
            self.refusals += 1
            self._refused_in_a_row += 1
            if self._refused_in_a_row >= MAX_REFUSALS:
                self._ended_at = now
            return "refused"
        self._refused_in_a_row = 0
        self._game_actions += 1
        self.turns += 1
        return "rolled" if rolled else "acted"

    def close(self) -> None:
        self._drop_current()
        self.current = None
        self.journal.close()


class AttractMode:
    """Idle clock + demo driver: starts the demo when idle, ends it on any input."""

    def __init__(
        self,
        idle_timeout_s: float,
        make_driver: Callable[[], DemoDriver],
        now: float,
    ) -> None:
        self.idle = IdleClock(idle_timeout_s, now)
        self.make_driver = make_driver
        self.driver: DemoDriver | None = None

    @property
    def active(self) -> bool:
        return self.driver is not None

    def start(self, now: float) -> DemoDriver:
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
        games = journal.games()
    except JournalError:
        return BootChoice("home")
    present = set(available_games())
    for info in games:
        if info.status == "active" and info.game in present:
            return BootChoice("resume", info.game_id)
    return BootChoice("home")
