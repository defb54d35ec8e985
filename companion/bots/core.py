"""What every bot shares: the levels, the time budget, the decision and the Bot protocol.

Pure: no threads, no I/O, no wall clock. The budget reads the clock it is given (the
kiosk and the referee pass ``time.monotonic``; tests pass a clock that ticks by a fixed
step per reading, so a search's length is reproducible), and whoever runs a search in
a thread cancels it through :meth:`Budget.cancel`, which the search reads between
nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args

from companion.rules import AnyRules

Level = Literal["easy", "medium", "hard"]
LEVELS: tuple[Level, ...] = get_args(Level)
Clock = Callable[[], float]
"""Seconds from any fixed start (``time.monotonic`` in the app)."""

DEFAULT_BUDGET_SECONDS: dict[Level, float] = {"easy": 0.05, "medium": 0.06, "hard": 0.5}
"""How long a level may think when the caller does not say (docs/bots.md)."""


class TickingClock:
    """A clock that moves on by ``step`` seconds at every reading: a budget on it ends
    after a fixed number of nodes, whatever the machine (tests, a referee without a
    real clock)."""

    def __init__(self, step: float = 1e-4) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


class Budget:
    """How long a decision may take: seconds on an injected clock, optionally a cap on
    the nodes searched (machine-independent, for the bench and tests), and a cancel
    switch another thread may pull (a plain attribute write, read between nodes)."""

    def __init__(self, seconds: float, clock: Clock, *, nodes: int | None = None) -> None:
        if not seconds > 0:
            raise ValueError(f"a budget needs a positive time, not {seconds!r} s")
        if nodes is not None and nodes < 1:
            raise ValueError(f"a node cap must be at least 1, not {nodes}")
        self.seconds = seconds
        self.clock = clock
        self.nodes = nodes
        self.used = 0
        self.cancelled = False
        self._start = clock()

    def cancel(self) -> None:
        """Stop the search at its next node (Undo, leaving the screen)."""
        self.cancelled = True

    def spend(self) -> bool:
        """Count one node; True while the search may go on."""
        self.used += 1
        if self.cancelled or (self.nodes is not None and self.used > self.nodes):
            return False
        return self.clock() - self._start < self.seconds


@dataclass(frozen=True)
class Decision:
    """A bot's choice: a legal action, its one-line reason in players' words, and how
    the search went (``nodes`` visited, ``cancelled`` when it was stopped from outside:
    the caller then discards it)."""

    action: Any
    reason: str
    level: Level
    nodes: int = 0
    depth: int = 0
    cancelled: bool = False


class Bot(Protocol):
    """A player at one level. ``state`` is a seat's view (:mod:`companion.bots.view`):
    the bot never receives what that seat may not see."""

    level: Level

    def decide(self, rules: AnyRules, state: Any, seat: int, budget: Budget) -> Decision:
        """A legal action for ``seat`` in ``state`` (the game is not over)."""
        ...


def legal_list(rules: AnyRules, state: Any) -> Sequence[Any]:
    """The legal actions as a list; a ValueError when there is none (game over)."""
    actions = list(rules.legal_actions(state))
    if not actions:
        raise ValueError(f"{rules.title}: no legal action, the game is over")
    return actions
