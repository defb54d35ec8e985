"""The searching levels over any game a :class:`Knowledge` describes.

* **Medium** (:class:`GreedyBot`): every legal action is applied once and the result
  scored by the game's documented evaluation; a result that waits for dice is scored as
  the average over the dice's outcomes. The best score wins; equal scores are broken by
  the bot's own seeded stream.
* **Hard** (:class:`SearchBot`): expectimax over the seat's own decisions and the dice
  between them (chance nodes: the sum of the dice, each sum weighted by its
  probability), iteratively deepened until the budget ends (anytime: the answer is the
  best of the deepest finished pass). Hidden information is sampled: the search runs
  in several *determinisations* of the seat's view (the game's ``determinise``) and
  averages each root action's value over them. Depth counts *quiet* positions (the
  game's ``quiet``: in Kolossus, between activations), so every line is followed
  through the dice and the move to the next one; inner decision nodes apply only the
  game's ``shortlist`` of their actions and search on from the ``beam`` best of them;
  the search ends at the seat's turn's end or at its depth, where ``replies`` greedy
  decisions (the rest of the turn, the other seats' replies) are played out before the
  evaluation.

Why this design rather than information-set MCTS: docs/bots.md, "Hard".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Protocol

from companion.bots.core import Budget, Decision, Level, legal_list
from companion.dice import DiceRequest, Roll
from companion.rng import Rng
from companion.rules import AnyRules

Terms = dict[str, float]
"""An evaluation: named, already weighted terms; the value is their sum."""

WIN = 1000.0
TIE_EPSILON = 1e-6


class Knowledge(Protocol):
    """What a bot knows about one game: how good a position is for a seat, why an
    action is good, and how to hide and re-sample what a seat cannot see."""

    def evaluate(self, state: Any, seat: int) -> Terms:
        """The position's worth for ``seat`` (terminal: ±WIN), as named terms."""
        ...

    def reason(self, before: Any, action: Any, after: Any, horizon: Any, seat: int) -> str:
        """One line in players' words: the main term ``action`` gains (``after`` is the
        position it makes, ``horizon`` the one the search expects at the end of its
        plan)."""
        ...

    def redact(self, state: Any, seat: int) -> Any:
        """The seat's view: ``state`` with what the seat may not see replaced by a
        fixed stand-in (so the view is the same whatever the hidden values are)."""
        ...

    def determinise(self, view: Any, seat: int, rng: Rng) -> tuple[Any, Rng]:
        """A full state consistent with ``view``: the hidden parts sampled with ``rng``."""
        ...

    def quiet(self, state: Any) -> bool:
        """Whether the evaluation can be trusted here (not half-way through a move):
        the search looks on through positions that are not."""
        ...

    def shortlist(self, state: Any, actions: list[Any], limit: int) -> list[Any]:
        """At most ``limit`` of ``actions`` worth a deeper look, judged without applying
        them (the search applies only these inside its tree)."""
        ...

    def offers(self, state: Any, actions: list[Any]) -> list[Any]:
        """The actions a bot may choose among: ``actions`` without the deals another
        player would refuse (a Builders Trade needs its partner's yes, BC-R07)."""
        ...


def value_of(terms: Terms) -> float:
    return sum(terms.values())


@dataclass(frozen=True)
class Outcome:
    """One chance outcome: the roll that makes it and its probability."""

    roll: Roll
    probability: float


def chance_outcomes(request: DiceRequest, width: int | None = None) -> tuple[Outcome, ...]:
    """The dice's outcomes by their sum (what Kolossus reads of every roll), each with
    its probability; with ``width``, neighbouring sums merged into at most that many
    outcomes, each represented by its most likely sum."""
    by_sum: dict[int, tuple[int, ...]] = {}
    counts: dict[int, int] = {}
    for faces in product(range(1, request.sides + 1), repeat=request.count):
        total = sum(faces)
        by_sum.setdefault(total, faces)
        counts[total] = counts.get(total, 0) + 1
    everything = request.sides**request.count
    sums = sorted(counts)
    groups: list[list[int]] = [[s] for s in sums]
    if width is not None and len(groups) > width:
        size = -(-len(sums) // width)
        groups = [sums[i : i + size] for i in range(0, len(sums), size)]
    found = []
    for group in groups:
        weight = sum(counts[s] for s in group)
        typical = max(group, key=lambda s: counts[s])
        found.append(Outcome(Roll(values=by_sum[typical]), weight / everything))
    return tuple(found)


class _OutOfBudget(Exception):
    """The budget ended (or was cancelled) inside a pass: its partial result is dropped."""


@dataclass
class _Search:
    rules: AnyRules
    knowledge: Knowledge
    seat: int
    budget: Budget
    beam: int
    chance_width: int | None
    replies: int
    shortlist: int | None = None

    def spend(self) -> None:
        if not self.budget.spend():
            raise _OutOfBudget

    def static(self, state: Any) -> float:
        return value_of(self.knowledge.evaluate(state, self.seat))

    def children(self, state: Any, limit: int | None = None) -> list[tuple[float, Any, Any]]:
        """(score, action, child) of every legal action (of the game's shortlist of
        ``limit`` when given), best first."""
        actions = self.knowledge.offers(state, list(self.rules.legal_actions(state)))
        if limit is not None:
            actions = self.knowledge.shortlist(state, actions, limit)
        scored = []
        for action in actions:
            self.spend()
            child, _ = self.rules.apply(state, action)
            scored.append((self.leaf(child), action, child))
        scored.sort(key=lambda item: -item[0])
        return scored

    def leaf(self, state: Any) -> float:
        """A horizon position's value: the dice it waits for averaged out."""
        request = self.rules.dice_request(state)
        if request is None or self.rules.outcome(state) is not None:
            return self.static(state)
        total = 0.0
        for outcome in chance_outcomes(request, self.chance_width):
            self.spend()
            child, _ = self.rules.apply(state, outcome.roll)
            total += outcome.probability * self.static(child)
        return total

    def value(self, state: Any, depth: int) -> tuple[float, Any]:
        """Expectimax value of ``state`` and the position its main line ends on."""
        self.spend()
        if self.rules.outcome(state) is not None:
            return self.static(state), state
        request = self.rules.dice_request(state)
        if request is not None:
            total, likeliest, leaf = 0.0, -1.0, state
            for outcome in chance_outcomes(request, self.chance_width):
                child, _ = self.rules.apply(state, outcome.roll)
                got, end = self.value(child, depth)
                total += outcome.probability * got
                if outcome.probability > likeliest:
                    likeliest, leaf = outcome.probability, end
            return total, leaf
        if self.rules.current_player(state) != self.seat:
            return self.horizon(state)
        quiet = self.knowledge.quiet(state)
        if quiet and depth <= 0:
            return self.horizon(state)
        best, leaf = -float("inf"), state
        for _, _, child in self.children(state, self.shortlist)[: self.beam]:
            got, end = self.value(child, depth - 1 if quiet else depth)
            if got > best:
                best, leaf = got, end
        return best, leaf

    def horizon(self, state: Any) -> tuple[float, Any]:
        """Where the search stops: up to ``replies`` greedy decisions (whoever makes
        them: the rest of the seat's turn, the others' replies, each from its shortlist),
        then the evaluation. Dice end the playout."""
        for _ in range(self.replies):
            player = self.rules.current_player(state)
            if player is None or self.rules.dice_request(state) is not None:
                break
            other = _Search(
                self.rules, self.knowledge, player, self.budget, 1, None, 0, self.shortlist
            )
            state = other.children(state, self.shortlist)[0][2]
        return self.static(state), state


def offered(knowledge: Knowledge, rules: AnyRules, state: Any) -> list[Any]:
    """The legal actions a bot may choose among (``Knowledge.offers``; every legal
    action if the game would leave none)."""
    actions = list(legal_list(rules, state))
    return knowledge.offers(state, actions) or actions


def _pick(best: Sequence[tuple[float, int]], rng: Rng) -> tuple[int, Rng]:
    """The index of the best value; ties broken by ``rng``."""
    top = max(value for value, _ in best)
    tied = [index for value, index in best if value >= top - TIE_EPSILON]
    index, rng = rng.randint(0, len(tied) - 1)
    return tied[index], rng


class GreedyBot:
    """Medium: one ply on the evaluation, dice averaged out."""

    level: Level = "medium"

    def __init__(self, knowledge: Knowledge, seed: int) -> None:
        self.knowledge = knowledge
        self.rng = Rng(seed=seed)

    def decide(self, rules: AnyRules, state: Any, seat: int, budget: Budget) -> Decision:
        actions = offered(self.knowledge, rules, state)
        order, self.rng = self.rng.shuffle(range(len(actions)))  # a cut-short pass samples
        search = _Search(rules, self.knowledge, seat, budget, 1, None, 0)
        scored: list[tuple[float, int]] = []
        afters: dict[int, Any] = {}
        try:
            for index in order:
                search.spend()
                afters[index], _ = rules.apply(state, actions[index])
                scored.append((search.leaf(afters[index]), index))
        except _OutOfBudget:
            pass  # anytime: the best of the actions scored so far
        if not scored:
            scored = [(0.0, order[0])]
        index, self.rng = _pick(scored, self.rng)
        after = afters.get(index)
        if after is None:
            after, _ = rules.apply(state, actions[index])
        reason = self.knowledge.reason(state, actions[index], after, after, seat)
        return Decision(
            actions[index], reason, self.level, budget.used, 1, cancelled=budget.cancelled
        )


class SearchBot:
    """Hard: determinised expectimax over the seat's turn, deepened until the budget ends."""

    level: Level = "hard"

    def __init__(
        self,
        knowledge: Knowledge,
        seed: int,
        *,
        worlds: int = 1,
        beam: int = 4,
        max_depth: int = 6,
        chance_width: int | None = 3,
        replies: int = 0,
        shortlist: int = 8,
    ) -> None:
        self.knowledge = knowledge
        self.rng = Rng(seed=seed)
        self.worlds = worlds
        self.beam = beam
        self.max_depth = max_depth
        self.chance_width = chance_width
        self.replies = replies
        self.shortlist = shortlist

    def decide(self, rules: AnyRules, state: Any, seat: int, budget: Budget) -> Decision:
        actions = offered(self.knowledge, rules, state)
        worlds = []
        for _ in range(self.worlds):
            world, self.rng = self.knowledge.determinise(state, seat, self.rng)
            worlds.append(world)
        search = _Search(
            rules,
            self.knowledge,
            seat,
            budget,
            self.beam,
            self.chance_width,
            self.replies,
            self.shortlist,
        )
        # Pass 0 is Medium's (one ply on the seat's view): the anytime fallback, and the
        # order in which the deeper passes look at the actions.
        best: list[tuple[float, int]] = []
        leaves: dict[int, Any] = {}
        try:
            for index, action in enumerate(actions):
                search.spend()
                leaves[index], _ = rules.apply(state, action)
                best.append((search.leaf(leaves[index]), index))
        except _OutOfBudget:
            pass
        if not best:
            best = [(0.0, 0)]
        order = [index for _, index in sorted(best, key=lambda item: -item[0])]
        depth_done = 0
        depth = 0
        while len(actions) > 1 and len(best) == len(actions) and depth < self.max_depth:
            depth += 1
            found: list[tuple[float, int]] = []
            found_leaves: dict[int, Any] = {}
            try:
                for index in order:
                    total = 0.0
                    for world in worlds:
                        child, _ = rules.apply(world, actions[index])
                        got, leaf = search.value(child, depth - 1)
                        total += got / len(worlds)
                        found_leaves.setdefault(index, leaf)
                    found.append((total, index))
            except _OutOfBudget:
                if found:  # the deeper look at the best so far, and at what beat it
                    best, leaves, depth_done = found, found_leaves, depth
                break
            best, leaves, depth_done = found, found_leaves, depth
            order = [index for _, index in sorted(found, key=lambda item: -item[0])]
        index, self.rng = _pick(best, self.rng)
        action = actions[index]
        after, _ = rules.apply(state, action)
        reason = self.knowledge.reason(state, action, after, leaves.get(index, after), seat)
        return Decision(action, reason, self.level, budget.used, depth_done, budget.cancelled)
