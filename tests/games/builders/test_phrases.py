"""Builders actions in the players' words beyond the first seat and slot: every slot's
Blueprint by name, Accessories counted, a Build's cards or Parts, a Reveal of the first
and of a missing seat, and Parts of kinds the cards do not have (BC-R04, BC-R05,
BC-R09, BC-R15)."""

from __future__ import annotations

from companion.games.builders import RULES
from companion.games.builders.blueprints import face_up_card
from companion.games.builders.model import Build, BuildersState, Curse, Reveal, Trade
from tests.helpers.builders import TABLE, new_game, with_runes


def bobs_turn(state: BuildersState) -> BuildersState:
    return state.model_copy(update={"current": 1})


def test_BC_R15_a_build_in_slot_3_names_its_blueprint() -> None:
    state = new_game(blueprints=TABLE)
    card = face_up_card(state, 3)
    assert card is not None
    said = RULES.describe(state, Build(slot=3, parts=dict(card.parts)))
    assert said == (
        f"Build from {card.name} in slot 3: 1 Head, 2 Legs, 1 Arm; seal {card.rune_cost} Runes"
    )


def test_BC_R15_a_build_without_accessories_seals_the_rune_cost() -> None:
    state = new_game(blueprints=TABLE)
    card = face_up_card(state, 2)
    assert card is not None
    said = RULES.describe(state, Build(slot=2, parts={"head": 1, "leg": 1, "wild": 1, "arm": 1}))
    assert said.endswith(f"; seal {card.rune_cost} Runes")


def test_BC_R15_without_a_table_the_blueprint_named_and_accessories_counted() -> None:
    state = new_game()
    named = Build(slot=2, rune_cost=4, accessories=2, cards=6, blueprint="Phalanx")
    assert RULES.describe(state, named) == (
        "Build from Phalanx in slot 2: Rune Cost 4 + 2 Accessories, seal 6 Runes, "
        "lay out 6 Parts cards"
    )
    one = Build(slot=1, rune_cost=3, accessories=1, cards=5)
    assert RULES.describe(state, one) == (
        "Build from the Blueprint in slot 1: Rune Cost 3 + 1 Accessory, seal 4 Runes, "
        "lay out 5 Parts cards"
    )


def test_BC_R15_a_build_with_a_cost_says_the_parts_laid_out_when_no_count_is_given() -> None:
    state = new_game()
    parts = Build(slot=1, rune_cost=3, parts={"head": 1, "leg": 2})
    assert RULES.describe(state, parts) == (
        "Build from the Blueprint in slot 1: Rune Cost 3, seal 3 Runes, lay out 1 Head, 2 Legs"
    )
    bare = Build(slot=1, rune_cost=3)
    assert RULES.describe(state, bare) == (
        "Build from the Blueprint in slot 1: Rune Cost 3, seal 3 Runes, lay out no Parts"
    )


def test_parts_of_a_kind_the_cards_lack_are_named_as_given_and_none_is_no_parts() -> None:
    state = new_game()
    assert RULES.value_words(state, "build", "parts", {"tail": 2, "head": 1}) == "1 Head, 2 tail"
    assert RULES.value_words(state, "build", "parts", {}) == "no Parts"
    assert RULES.describe(state, Build(slot=1, parts={})) == (
        "Build from the Blueprint in slot 1: no Parts"
    )


def test_BC_R09_a_curse_of_nothing_says_only_its_count() -> None:
    assert RULES.describe(new_game(), Curse(runes=(0, 0, 0))) == "Curse with 0 Runes"


def test_BC_R04_BC_R05_revealing_the_first_seat_s_hand() -> None:
    state = bobs_turn(new_game())
    assert RULES.describe(state, Reveal(target=0, take=True)) == (
        "Reveal Ann's hand: gain 2 Runes from Ann, see 3 Parts cards, take 1"
    )
    short = bobs_turn(with_runes(new_game(), 1, 10, 10))
    assert RULES.describe(short, Reveal(target=0)) == (
        "Reveal Ann's hand: gain 1 Rune from Ann and 1 from the stockpile, "
        "see 3 Parts cards, take none"
    )


def test_a_seat_just_past_the_table_is_a_player_by_number() -> None:
    state = new_game(3)
    assert RULES.describe(state, Reveal(target=3)) == (
        "Reveal player 4's hand: gain 2 Runes from the stockpile, see 0 Parts cards, take none"
    )
    assert RULES.describe(state, Trade(partner=3, cards_received=1)) == (
        "Trade with player 4: get 1 Parts card, give nothing"
    )
