"""The shop's self-playing demo (see :mod:`kiosk.presenters.attract`): its own module so
that the play presenter and the bot load when a demo starts, not when the kiosk does."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.bot import RandomBot
from companion.dice import Roll
from companion.errors import JournalError
from companion.games import get_rules
from companion.journal import Journal
from companion.rules import AnyRules
from companion.session import Session
from kiosk.presenters.attract import DemoStep
from kiosk.presenters.dice_pad import DicePad
from kiosk.presenters.looks import look_for
from kiosk.presenters.play import PlayPresenter

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


class DemoDice(DicePad):
    """The demo's dice panel: a die rolled at the table is a visitor's input, it ends the
    demo instead of being played into it."""

    def __init__(self, play: PlayPresenter, on_input: Callable[[], object]) -> None:
        super().__init__(
            play.queries,
            play.submit,
            play.changed,
            play.show_banner,
            play.note,
            held=play.refused_while_held,
        )
        self._on_input = on_input

    def electronic_roll(self, roll: Roll) -> bool:
        self._on_input()
        return False


class DemoPlayPresenter(PlayPresenter):
    """A demo game on the play screen, with the demo's dice (:class:`DemoDice`)."""

    def __init__(self, session: Session, on_input: Callable[[], object]) -> None:
        super().__init__(session)
        self.on_input = on_input
        self.dice = DemoDice(self, on_input)


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
        if play.fix.step is not None:  # the walk-through, one step a move, as players do
            play.fix.next()
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
        accepted = play.dice.roll_in_software() if rolled else play.submit(action)
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
