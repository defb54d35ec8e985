"""Bot players for Kolossus (all three Chapters) and Builders of the Colossus.

Three levels (docs/bots.md): **easy**, the interest-weighted random player of
:mod:`companion.bot`; **medium**, one ply on a documented evaluation; **hard**, a
determinised expectimax over the dice and the hidden Blueprint order, anytime within
its budget. Every level sees only a seat's view (:func:`seat_view`): :func:`decide` is
the one way in, so no bot ever receives what its seat may not see.

Pure: the budget's clock is injected and a search in another thread is stopped by
:meth:`Budget.cancel`.
"""

from __future__ import annotations

from typing import Any

from companion.bot import RandomBot
from companion.bots.builders import BuildersKnowledge
from companion.bots.core import (
    DEFAULT_BUDGET_SECONDS,
    LEVELS,
    Bot,
    Budget,
    Clock,
    Decision,
    Level,
)
from companion.bots.kolossus import KolossusKnowledge
from companion.bots.search import GreedyBot, Knowledge, SearchBot, offered
from companion.rules import AnyRules

KNOWLEDGE: dict[str, Knowledge] = {
    "kolossus": KolossusKnowledge(),
    "builders": BuildersKnowledge(),
}
"""The games bots play, by ``Rules.name``."""

BOT_GAMES: tuple[str, ...] = tuple(KNOWLEDGE)


def knowledge_of(rules: AnyRules) -> Knowledge:
    try:
        return KNOWLEDGE[rules.name]
    except KeyError:
        raise ValueError(
            f"The companion plays {' and '.join(BOT_GAMES)}, not {rules.title}."
        ) from None


DEAL_REDRAWS = 20
"""How often Easy draws again when its pick is a deal its partner would refuse."""


class EasyBot:
    """Easy: :class:`companion.bot.RandomBot` (interest-weighted random) among the
    actions a bot may offer (no Builders Trade its partner would refuse), with the
    evaluation's reason for what it happened to pick."""

    level: Level = "easy"

    def __init__(self, knowledge: Knowledge, seed: int) -> None:
        self.knowledge = knowledge
        self.random = RandomBot(seed)

    def decide(self, rules: AnyRules, state: Any, seat: int, budget: Budget) -> Decision:
        offers = offered(self.knowledge, rules, state)  # refuses a finished game
        action = offers[0]
        for _ in range(DEAL_REDRAWS):  # a deal the partner refuses: it draws again
            pick = self.random.choose(rules, state)
            if pick in offers:
                action = pick
                break
        budget.spend()
        after, _ = rules.apply(state, action)
        reason = self.knowledge.reason(state, action, after, after, seat)
        return Decision(action, reason, self.level, budget.used, 0, budget.cancelled)


def make_bot(rules: AnyRules, level: Level, seed: int) -> Bot:
    """A bot of ``level`` for the game of ``rules``, its choices drawn from ``seed``."""
    knowledge = knowledge_of(rules)
    if level == "easy":
        return EasyBot(knowledge, seed)
    if level == "medium":
        return GreedyBot(knowledge, seed)
    if level == "hard":
        if rules.name == "builders":  # hidden Blueprint order, the rivals' replies
            return SearchBot(knowledge, seed, worlds=3, beam=3, max_depth=4, replies=8)
        return SearchBot(knowledge, seed)
    raise ValueError(f"No bot level {level!r}; the levels are {', '.join(LEVELS)}.")


def seat_view(rules: AnyRules, state: Any, seat: int) -> Any:
    """What ``seat`` may see of ``state``: its hidden parts replaced by fixed stand-ins."""
    return knowledge_of(rules).redact(state, seat)


def decide(bot: Bot, rules: AnyRules, state: Any, seat: int, budget: Budget) -> Decision:
    """``bot``'s decision for ``seat``, made on the seat's view of ``state`` only."""
    return bot.decide(rules, seat_view(rules, state, seat), seat, budget)


__all__ = [
    "BOT_GAMES",
    "DEFAULT_BUDGET_SECONDS",
    "LEVELS",
    "Bot",
    "Budget",
    "Clock",
    "Decision",
    "EasyBot",
    "Level",
    "decide",
    "knowledge_of",
    "make_bot",
    "seat_view",
]
