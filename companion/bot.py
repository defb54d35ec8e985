"""A random player that prefers interesting actions.

Used by the property tests ("random legal play never crashes and always ends") and by
the shop's self-playing demo. Its randomness is its own seeded stream, separate from the
game's, so watching a demo never changes how a game's software dice fall.
"""

from __future__ import annotations

from companion.rng import Rng
from companion.rules import ActionT, OptionsT, Rules, StateT


class RandomBot:
    """Picks a legal action with probability proportional to ``rules.interest``."""

    def __init__(self, seed: int, *, weighted: bool = True) -> None:
        """``weighted=False`` ignores ``interest`` (long, aimless games for benchmarks)."""
        self.rng = Rng(seed=seed)
        self.weighted = weighted

    def choose(self, rules: Rules[StateT, ActionT, OptionsT], state: StateT) -> ActionT | None:
        """A legal action of ``rules`` for ``state`` (the game's own action type), or None
        when there is none (game over)."""
        actions = list(rules.legal_actions(state))
        if not actions:
            return None
        if not self.weighted:
            pick, self.rng = self.rng.randint(0, len(actions) - 1)
            return actions[pick]
        weights = [max(1, rules.interest(state, a)) for a in actions]
        pick, self.rng = self.rng.randint(0, sum(weights) - 1)
        for action, weight in zip(actions, weights, strict=True):
            if pick < weight:
                return action
            pick -= weight
        return actions[-1]  # pragma: no cover - unreachable: pick < sum(weights)
