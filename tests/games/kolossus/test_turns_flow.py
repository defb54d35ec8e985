"""The order of the Kolossus turns and what the game log says at each step: the
Invasion's skills and Great Quake (K-R06, K-R23, K-R25), a battle turn (K-R08), the end
of a round with its new crystal (K-R15)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import Roll
from companion.errors import RuleViolation
from companion.events import DiceRolled, Event, TableChanges
from companion.games.kolossus import RULES
from companion.games.kolossus.model import KolossusState
from tests.games.kolossus.helpers import (
    NW,
    SE,
    SW,
    act,
    in_turn,
    new_game,
    pid,
    place,
    with_band,
)


def texts(events: tuple[Event, ...]) -> list[str]:
    return [e.text for e in events]


def rolled(state: KolossusState, value: int) -> tuple[KolossusState, tuple[Event, ...]]:
    return RULES.apply(state, Roll(values=(value,), source="manual"))


def quake(state: KolossusState, region: str) -> tuple[KolossusState, tuple[Event, ...]]:
    return act(state, {"type": "quake_move", "region": region, "direction": "east"})


def test_K_R25_each_warband_in_turn_puts_its_starting_skills_then_the_quake_begins() -> None:
    state, events = act(new_game(chapter=2), {"type": "ready"})
    assert texts(events) == ["Each warband now puts 4 mana on its skills."]
    assert (state.phase, state.turn) == ("skills", 0)
    names = ["Tua'tha", "Krell", "Ishtari", "Firbolg"]
    for turn, name in enumerate(names):
        assert state.turn == turn and state.phase == "skills"
        state, events = act(state, {"type": "allocate", "warrior_attack": 4})
        assert texts(events) == [f"{name} sets its starting skills."]
    assert (state.phase, state.turn) == ("quake", 0)
    assert state.dice is not None and state.dice.label == "Great Quake: Tua'tha rolls 1d4"
    assert state.warbands[SE].skills == (4, 0, 0, 0, 0, 0)


def test_K_R06_the_invasion_begins_with_the_quake_in_chapter_one() -> None:
    state, events = act(new_game(), {"type": "ready"})
    assert texts(events) == ["The Invasion begins: the Great Quake."]
    assert (state.phase, state.turn, state.round) == ("quake", 0, 0)


def to_quake(**options: Any) -> KolossusState:
    state = act(new_game(**options), {"type": "ready"})[0]
    while state.phase == "skills":
        state = act(state, {"type": "allocate", "warrior_attack": 4})[0]
    return state


def test_K_R06_K_R23_each_warband_quakes_once_then_round_one_begins() -> None:
    state = to_quake(chapter=2)
    state, events = rolled(state, 4)  # no income: straight on to the next warband
    assert isinstance(events[0], DiceRolled)
    assert texts(events) == ["Great Quake: Tua'tha rolls 1d4: 4."]
    state, events = quake(state, "row3")
    assert texts(events) == ["Great Quake: Tua'tha moves row 3 east by 4 squares."]
    assert (state.phase, state.turn) == ("quake", 1)
    state, _ = rolled(state, 3)  # one mana: allocated at once
    state, _ = quake(state, "row4")
    assert state.phase == "quake_allocate" and state.warbands[1].income == 1
    state, events = act(state, {"type": "allocate", "guardian_attack": 1})
    assert texts(events) == ["Krell allocates its mana."]
    assert (state.phase, state.turn) == ("quake", 2)
    state, _ = quake(rolled(state, 4)[0], "row5")
    state, _ = rolled(state, 3)
    state, _ = quake(state, "row6")
    state, events = act(state, {"type": "allocate", "guardian_attack": 1})
    assert texts(events) == [
        "Firbolg allocates its mana.",
        "The Invasion is over. Round 1 begins.",
    ]
    assert (state.phase, state.round, state.turn) == ("destiny", 1, 0)
    assert state.dice is not None and state.dice.label == "Die of Destiny: Tua'tha rolls 1d4"


def test_K_R06_the_last_quake_without_income_begins_round_one() -> None:
    state = to_quake()
    for turn, region in enumerate(("row3", "row4", "row5")):
        state, events = quake(rolled(state, 1)[0], region)
        assert (state.phase, state.turn) == ("quake", turn + 1) and len(events) == 1
    state, events = quake(rolled(state, 1)[0], "row6")
    assert texts(events)[-1] == "The Invasion is over. Round 1 begins."
    assert (state.phase, state.round, state.crystals) == ("destiny", 1, 1)


def test_K_R08_a_class_costs_its_points_and_is_activated_by_name() -> None:
    state = in_turn(new_game(), NW, ap=2)
    with pytest.raises(RuleViolation) as refused:
        act(state, {"type": "choose_class", "cls": "C"})
    assert refused.value.message == "A Colossus costs 3 activation points; you have 2 left."
    assert refused.value.ruling == "K-R08"
    chosen, events = act(state, {"type": "choose_class", "cls": "G"})
    assert texts(events) == ["Tua'tha activates a Guardian."]
    assert (chosen.ap, chosen.active_class, chosen.initiative_open) == (0, "G", False)
    assert chosen.dice is not None and chosen.dice.label == "Guardian movement: Tua'tha rolls 2d4"
    moving, _ = RULES.apply(chosen, Roll(values=(1, 3), source="manual"))
    assert (moving.phase, moving.mp) == ("move", 4)
    gone = place(state, {pid(NW, "G"): None, pid(NW, "G2"): None})
    with pytest.raises(RuleViolation) as none_left:
        act(gone, {"type": "choose_class", "cls": "G"})
    assert none_left.value.message == "You have no Guardian left to activate this turn."
    assert none_left.value.ruling == "K-R08"


def test_K_R22_the_destiny_roll_opens_the_turn_with_its_points() -> None:
    start = act(in_turn(new_game(chapter=2), SW, ap=1), {"type": "end_turn"})[0]
    assert start.phase == "destiny" and start.round == 2
    turn, events = rolled(start, 2)
    assert texts(events) == ["Die of Destiny: Tua'tha rolls 1d4: 2."]
    assert (turn.phase, turn.ap, turn.initiative_open) == ("turn", 2, True)
    assert turn.warbands[NW].income == 2 and turn.warbands[NW].supply == 18


def test_K_R15_the_end_of_a_round_puts_a_crystal_on_the_citadel() -> None:
    state, events = act(in_turn(new_game(), NW, ap=1), {"type": "end_turn"})
    assert texts(events) == ["Tua'tha ends its turn."]
    assert (state.phase, state.turn, state.round) == ("destiny", 1, 1)
    last = in_turn(new_game(), SW, ap=1)
    assert last.turn == 3
    state, events = act(last, {"type": "end_turn"})
    assert texts(events) == [
        "Firbolg ends its turn.",
        "Round 2: put a Crystal of Time on the Citadel at (5, 5).",
    ]
    change = events[1]
    assert isinstance(change, TableChanges)
    assert [(c.step, c.cell, c.instruction) for c in change.changes] == [
        (1, "5,5", "Round 2: put a Crystal of Time on the Citadel at (5, 5)")
    ]
    assert (state.round, state.turn, state.crystals, state.crystal_supply) == (2, 0, 2, 10)
    assert (state.phase, state.ap, state.activated) == ("destiny", 0, ())


def test_K_R24_K_R27_the_turn_ends_with_an_allocation_only_when_there_is_mana_to_place() -> None:
    state = in_turn(new_game(chapter=3, weapons=("sword", "spear", "whip", "hammer")), NW, ap=1)
    with_income = with_band(state, NW, income=1, supply=19)
    asked, events = act(with_income, {"type": "end_turn"})
    assert texts(events) == ["Tua'tha ends its turn."]
    assert (asked.phase, asked.turn, asked.initiative_open) == ("allocate", 0, False)
    done, events = act(asked, {"type": "allocate", "warrior_attack": 1})
    assert texts(events) == ["Tua'tha allocates its mana."]
    assert (done.phase, done.turn) == ("destiny", 1)
    assert done.warbands[NW].skills == (1, 0, 0, 0, 0, 0)
    pooled = with_band(state, NW, pool=2, supply=18)
    assert act(pooled, {"type": "end_turn"})[0].phase == "destiny"  # pool mana waits
    option = pooled.model_copy(
        update={"options": pooled.options.model_copy(update={"charge_from_pool": True})}
    )
    assert act(option, {"type": "end_turn"})[0].phase == "allocate"  # it may charge now
    short = with_band(option, NW, pool=1, supply=19)
    assert act(short, {"type": "end_turn"})[0].phase == "destiny"
    spent = with_band(option, NW, charges=(2, 0, 0, 0), supply=16)
    assert act(spent, {"type": "end_turn"})[0].phase == "destiny"  # nothing to charge


def test_K_R07_a_roll_is_checked_against_the_dice_asked_for_and_logged() -> None:
    chosen = act(in_turn(new_game(), NW, ap=4), {"type": "choose_class", "cls": "G"})[0]
    with pytest.raises(RuleViolation) as refused:
        RULES.apply(chosen, Roll(values=(5, 1), source="manual"))
    assert refused.value.message == "Guardian movement: Tua'tha rolls 2d4: 5 is not a face of a d4."
    assert refused.value.ruling == "K-R07"
    with pytest.raises(RuleViolation) as too_few:
        RULES.apply(chosen, Roll(values=(2,), source="manual"))
    assert too_few.value.ruling == "K-R07"
    moving, events = RULES.apply(chosen, Roll(values=(2, 3), source="manual"))
    assert len(events) == 1 and isinstance(events[0], DiceRolled)
    assert events[0].text == "Guardian movement: Tua'tha rolls 2d4: 2, 3."
    assert (events[0].values, events[0].source) == ((2, 3), "manual")
    assert events[0].request == chosen.dice
    assert (moving.phase, moving.mp, moving.roll, moving.dice) == ("move", 5, (2, 3), None)


def test_K_R08_a_new_turn_starts_with_nothing_activated_and_no_initiative() -> None:
    state = in_turn(new_game(chapter=3), SE, ap=2).model_copy(
        update={"activated": (pid(SE, "W"),), "initiatives": 1, "roll": (2,)}
    )
    state = state.model_copy(update={"turn": 2})
    nxt, _ = act(state, {"type": "end_turn"})
    assert (nxt.phase, nxt.turn, nxt.ap, nxt.initiatives) == ("destiny", 3, 0, 0)
    assert (nxt.activated, nxt.roll, nxt.initiative_open, nxt.mp) == ((), (), False, 0)
    assert nxt.dice is not None and nxt.dice.label == "Die of Destiny: Firbolg rolls 1d4"
    assert nxt.dice.player == 3 and nxt.dice.purpose == "destiny"


def test_K_R15_refill_places_a_crystal_only_on_an_empty_citadel_and_none_from_an_empty_supply() -> (
    None
):
    last = in_turn(new_game(crystal_placement="refill_if_empty"), SW, ap=1)
    kept, events = act(last, {"type": "end_turn"})
    assert (kept.crystals, kept.crystal_supply, len(events)) == (1, 11, 1)
    empty = last.model_copy(update={"crystals": 0, "crystal_supply": 12})
    refilled, events = act(empty, {"type": "end_turn"})
    assert (refilled.crystals, refilled.crystal_supply) == (1, 11)
    assert texts(events)[-1] == "Round 2: put a Crystal of Time on the Citadel at (5, 5)."
    spent = in_turn(new_game(), SW, ap=1).model_copy(update={"crystals": 12, "crystal_supply": 0})
    after, events = act(spent, {"type": "end_turn"})
    assert (after.round, after.crystals, after.crystal_supply, len(events)) == (2, 12, 0, 1)
