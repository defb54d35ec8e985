"""Colossus Solo for the tests: cards and card tables made to measure, a new game, actions
applied in turn, and positions at the end of a round, in the last round, or one blow from
the end."""

from __future__ import annotations

from typing import Any

from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.content import (
    ACTION_CARDS,
    CardTable,
    ColossusCard,
    ColossusLine,
    FinalBlowProfile,
)
from companion.games.colossus_solo.model import (
    ColossusSoloState,
    EnterColossusCard,
    EnterFinalBlow,
    EnterStats,
    ResolveCard,
    Stats,
)
from companion.games.colossus_solo.rules import position_problems


def card(
    attack: int | None = 2,
    grip: int | None = 2,
    bonus: int | None = 3,
    climb: int | None = 2,
    *,
    icons: tuple[str, ...] = (),
    name: str = "",
) -> ColossusCard:
    return ColossusCard(
        name=name,
        attack=line(attack, "attack" in icons),
        grip=line(grip, "grip" in icons),
        bonus=line(bonus, "bonus" in icons),
        climb=line(climb, "climb" in icons),
    )


def table(**profile: Any) -> CardTable:
    """A made-up card table: 11 identical cards, 3 Final Blow cards."""
    fb = {
        "n_cards": (2, 3, 4, 5, 6, 7, 8, 9),
        "grip_req": (8, 7, 6, 5, 4, 3, 2, 1),
        "attack_req": 5,
    } | profile
    return CardTable(
        colossus=tuple(card(name=f"Og {i}") for i in range(11)),
        final_blow=tuple(FinalBlowProfile(name=n, **fb) for n in "ABC"),
    )


def new_game(
    seed: int = 1, card_table: CardTable | None = None, trigger: str = "on_draw_attempt"
) -> ColossusSoloState:
    data: dict[str, Any] = {"depletion_trigger": trigger}
    if card_table is not None:
        data["card_table"] = card_table.model_dump(mode="json")
    return RULES.setup(["Netophah"], RULES.parse_options(data), seed)


def act(state: ColossusSoloState, *actions: Any) -> ColossusSoloState:
    for action in actions:
        state, _ = RULES.apply(state, action)
        assert not position_problems(state), position_problems(state)
    return state


def stats(attack: int = 0, grip: int = 0, bonus: int = 0, climb: int = 0) -> EnterStats:
    return EnterStats(attack=attack, grip=grip, bonus=bonus, climb=climb)


def end_of_round(trigger: str, deck: int, weakness: int = 1) -> ColossusSoloState:
    """Step 4 of a round whose Colossus card does nothing; 4 cards in the Playing Area."""
    state = new_game(trigger=trigger)
    nothing = card(attack=None, grip=None, bonus=None, climb=None)
    discard = ACTION_CARDS - deck - 4 - 5
    return at_power(
        state,
        nothing,
        action_deck=deck,
        discard=discard,
        playing_area=4,
        destroyed=5,
        weakness=weakness,
    )


def last_round(state: ColossusSoloState) -> ColossusSoloState:
    """Step 4 of a round on the last Colossus card, which the stats will climb."""
    return state.model_copy(
        update={
            "phase": "power",
            "colossus_left": 1,
            "colossus_order": state.colossus_order[:1],
            "stats": Stats(grip=5, climb=5),
        }
    )


def final_blow(n_cards: int, grip_req: int = 2, attack_req: int = 3) -> ColossusSoloState:
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    state = act(last_round(state), ResolveCard())
    return act(state, EnterFinalBlow(n_cards=n_cards, grip_req=grip_req, attack_req=attack_req))


def line(value: int | None, destroy: bool = False) -> ColossusLine:
    return ColossusLine(value=value, destroy=destroy)


def at_power(state: ColossusSoloState, current: ColossusCard, **counts: int) -> ColossusSoloState:
    """A state at the start of step 4 with the given card and card counts."""
    return state.model_copy(
        update={"phase": "power", "current_card": current, "stats": Stats(), "hand": 0} | counts
    )
