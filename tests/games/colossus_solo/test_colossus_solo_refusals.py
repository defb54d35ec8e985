"""Every refusal of the solo Colossus game, word for word with its ruling: a refusal that
names the wrong ruling, says the wrong thing or moves its limit by one fails here."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.errors import RuleViolation
from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.model import (
    ColossusSoloAction,
    ColossusSoloState,
    DestroyCards,
    DiscardPowerCard,
    EnterColossusCard,
    EnterFinalBlow,
    PayPenalty,
    ResolveCard,
    UsePower,
)
from tests.helpers.colossus_solo import act, card, stats, table
from tests.helpers.colossus_solo import end_of_round as _end_of_round
from tests.helpers.colossus_solo import final_blow as _final_blow
from tests.helpers.colossus_solo import last_round as _last_round
from tests.helpers.colossus_solo import new_game as fresh

Setup = Callable[[], ColossusSoloState]


def at_stats() -> ColossusSoloState:
    return act(fresh(), EnterColossusCard(card=card()))


def at_power() -> ColossusSoloState:
    return act(at_stats(), stats())


def tabled() -> ColossusSoloState:
    return fresh(card_table=table())


def final_blow() -> ColossusSoloState:
    return _final_blow(3)


def final_blow_values() -> ColossusSoloState:
    return act(_last_round(at_power()), ResolveCard())


def won() -> ColossusSoloState:
    return act(final_blow(), stats(attack=3, grip=2))


def penalty() -> ColossusSoloState:
    return act(_end_of_round("on_draw_attempt", deck=2, weakness=4), ResolveCard())


def destroy() -> ColossusSoloState:
    icons = ("attack", "grip", "climb")
    state = act(fresh(), EnterColossusCard(card=card(climb=9, icons=icons)))
    return act(state, stats(attack=2, grip=1, climb=0), ResolveCard())  # 1 right, 4 cards


#: What each refusal says, word for word.
M = {
    "over": "The game is over.",
    "card when stats are asked": "No Colossus card is waiting for its values now.",
    "card with a card table": "The card table gives the Colossus cards' values.",
    "stats at the power": (
        "Stats are not asked for now: use Netophah's power or resolve the Colossus card."
    ),
    "discard without a power card": "There is no power card to discard.",
    "resolve before the stats": (
        "The Colossus card is not resolved now: place your 3 cards and enter the visible stats."
    ),
    "penalty in the final blow": "There is no deck penalty during the Final Blow.",
    "penalty when none is due": "No depleted-deck penalty is due now.",
    "penalty in weakness at 1": "Weakness is already at 1; the penalty must be paid in Grip.",
    "destroy when no right": "No destroy rights are being used now.",
    "destroy 2 with 1 right": (
        "You may destroy at most 1 card now (1 destroy right, 4 cards in the Playing Area)."
    ),
    "final blow values twice": "The Final Blow values are not asked for now.",
    "power in the final blow": "Netophah's power cannot be used during the Final Blow.",
    "power before the stats": (
        "Netophah's power is used at the very start of step 4, after the stats are entered."
    ),
    "power twice": "Netophah's power is used at most once per round.",
    "power paid in weakness at 1": "Weakness is at 1, so it cannot pay for the power.",
    "power paid in grip at 1": "Grip is at 1: paying it would make Netophah fall.",
    "power with no card left": "There is no Action card left to draw for the power.",
}

REFUSALS: list[tuple[str, Setup, ColossusSoloAction, str | None, str]] = [
    ("over", won, ResolveCard(), None, M["over"]),
    (
        "card when stats are asked",
        at_stats,
        EnterColossusCard(card=card()),
        "CS-R12",
        M["card when stats are asked"],
    ),
    (
        "card with a card table",
        tabled,
        EnterColossusCard(card=card()),
        "CS-R12",
        M["card with a card table"],
    ),
    (
        "a destroy icon on an empty line",
        fresh,
        EnterColossusCard(card=card(grip=None, climb=None, icons=("grip", "climb"))),
        "CS-R12",
        "This card: the Grip line has a destroy icon but no value; "
        "This card: the Climb line has a destroy icon but no value.",
    ),
    ("stats at the power", at_power, stats(), "CS-R12", M["stats at the power"]),
    (
        "discard without a power card",
        at_power,
        DiscardPowerCard(),
        "CS-R04",
        M["discard without a power card"],
    ),
    ("resolve before the stats", at_stats, ResolveCard(), None, M["resolve before the stats"]),
    (
        "penalty in the final blow",
        final_blow,
        PayPenalty(pay="grip"),
        "CS-R08",
        M["penalty in the final blow"],
    ),
    (
        "penalty when none is due",
        at_power,
        PayPenalty(pay="grip"),
        "CS-R03",
        M["penalty when none is due"],
    ),
    (
        "penalty in weakness at 1",
        lambda: penalty().model_copy(update={"weakness": 1}),
        PayPenalty(pay="weakness"),
        "CS-R04",
        M["penalty in weakness at 1"],
    ),
    (
        "destroy when no right",
        at_power,
        DestroyCards(count=0),
        "CS-R11",
        M["destroy when no right"],
    ),
    (
        "destroy 2 with 1 right",
        destroy,
        DestroyCards(count=2),
        "CS-R11",
        M["destroy 2 with 1 right"],
    ),
    (
        "final blow values twice",
        final_blow,
        EnterFinalBlow(n_cards=3, grip_req=2, attack_req=3),
        "CS-R05",
        M["final blow values twice"],
    ),
    (
        "power in the final blow",
        final_blow,
        UsePower(pay="grip"),
        "CS-R09",
        M["power in the final blow"],
    ),
    ("power before the stats", at_stats, UsePower(pay="grip"), None, M["power before the stats"]),
    (
        "power twice",
        lambda: at_power().model_copy(update={"power_used": True}),
        UsePower(pay="grip"),
        None,
        M["power twice"],
    ),
    (
        "power paid in weakness at 1",
        at_power,
        UsePower(pay="weakness"),
        "CS-R04",
        M["power paid in weakness at 1"],
    ),
    (
        "power paid in grip at 1",
        lambda: at_power().model_copy(update={"grip": 1}),
        UsePower(pay="grip"),
        "CS-R04",
        M["power paid in grip at 1"],
    ),
    (
        "power with no card left",
        lambda: at_power().model_copy(update={"action_deck": 0, "discard": 0}),
        UsePower(pay="grip"),
        None,
        M["power with no card left"],
    ),
]


@pytest.mark.parametrize(
    ("setup", "action", "ruling", "message"),
    [row[1:] for row in REFUSALS],
    ids=[row[0] for row in REFUSALS],
)
def test_each_refusal_says_what_and_names_its_ruling_cs_r03_to_cs_r12(
    setup: Setup, action: ColossusSoloAction, ruling: str | None, message: str
) -> None:
    state = setup()
    before = RULES.dump_position(state)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, action)
    assert (err.value.message, err.value.ruling) == (message, ruling)
    assert RULES.dump_position(state) == before
