"""Builders' Trades are deals (BC-R07): a bot offers only those its partner would
conclude, so two bots cannot hand each other a card or Runes turn after turn and never
end the game."""

from __future__ import annotations

import math

from companion.bots import Budget, Level, decide, knowledge_of, make_bot
from companion.games import get_rules
from companion.games.builders.model import BuildersState, Draw, Trade

BUILDERS = get_rules("builders")


def still() -> float:
    return 0.0


def waiting_on_zero() -> BuildersState:
    """Bob to move while Ann sits at 0 Runes with her check pending (BC-R10): the
    position two bots traded in for ever (Bob took a card and handed Ann 2 Runes)."""
    state = BUILDERS.setup(("Ann", "Bob"), BUILDERS.parse_options({}), 1000)
    assert isinstance(state, BuildersState)
    return state.evolve(
        {"runes": (0, 3), "hands": (11, 10), "current": 1, "zero_checks": (1, None)}
    )


def test_bc_r07_a_bot_offers_no_trade_its_partner_loses_by() -> None:
    state = waiting_on_zero()
    legal = list(BUILDERS.legal_actions(state))
    offered = knowledge_of(BUILDERS).offers(state, legal)
    gift = Trade(partner=0, cards_received=1)
    dumped = Trade(partner=0, cards_received=1, runes_given=2)
    even = Trade(partner=0, cards_received=1, cards_given=1)
    assert gift in legal and dumped in legal and even in legal
    assert gift not in offered and dumped not in offered  # Ann would say no
    assert even in offered and Draw() in offered
    assert [a for a in legal if not isinstance(a, Trade)] == [
        a for a in offered if not isinstance(a, Trade)
    ]


def test_bc_r07_easy_draws_again_when_its_partner_would_refuse_the_deal() -> None:
    state = waiting_on_zero()
    refused = {
        a
        for a in BUILDERS.legal_actions(state)
        if isinstance(a, Trade) and a not in knowledge_of(BUILDERS).offers(state, [a])
    }
    assert len(refused) == 3  # a card for nothing, for a card and a Rune, for 2 Runes
    picks = set()
    for seed in range(40):
        budget = Budget(math.inf, still, nodes=1)
        picks.add(decide(make_bot(BUILDERS, "easy", seed), BUILDERS, state, 1, budget).action)
    assert not picks & refused
    assert len(picks) > 3  # still a random player


def test_bc_r07_a_hard_v_medium_game_of_builders_ends() -> None:
    """The bench's first Hard v Medium game (seed 1000), on small node budgets: it
    once ran to the bench's 300-action cut, each bot taking a card from the other."""
    state = BUILDERS.setup(("Ann", "Bob"), BUILDERS.parse_options({}), 1000)
    levels: dict[int, Level] = {0: "hard", 1: "medium"}
    bots = {seat: make_bot(BUILDERS, levels[seat], 10000 + seat) for seat in (0, 1)}
    actions = 0
    while BUILDERS.outcome(state) is None and actions < 100:
        seat = BUILDERS.current_player(state)
        assert seat is not None
        budget = Budget(math.inf, still, nodes=60)
        state, _ = BUILDERS.apply(state, decide(bots[seat], BUILDERS, state, seat, budget).action)
        actions += 1
    assert BUILDERS.outcome(state) is not None, f"no end after {actions} actions"
