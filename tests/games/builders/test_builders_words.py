"""Builders of the Colossus (seed 004) in the players' words: every action family's title,
every form field's title, each action with player names, Runes, Parts cards and
Blueprints as the rule book says them, the log and the refusals, with counts spelled by
``companion.words.count``."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.events import Event
from companion.games.builders import RULES, BuildersAction
from companion.games.builders.blueprints import face_up_card
from companion.games.builders.model import (
    Build,
    CorrectBuilt,
    CorrectHand,
    CorrectRunes,
    Curse,
    Draw,
    EndTurn,
    PickWinner,
    Reveal,
    Trade,
)
from tests.games.card_words import (
    assert_says_well,
    check_events,
    check_positions,
    faults,
    payload_words,
)
from tests.helpers.builders import TABLE, act, new_game, with_runes


@pytest.mark.parametrize("action_type", sorted(RULES.action_models()))
def test_every_family_and_every_form_field_has_players_words(action_type: str) -> None:
    """A family's title is declared on its model, and so is every field's (a form never
    shows "No build possible" or "Runes #2")."""
    model = RULES.action_models()[action_type]
    assert model.model_config.get("title"), f"{action_type} has no title"
    assert RULES.family_title(action_type) == model.model_config["title"]
    for name, info in model.model_fields.items():
        if name != "type":
            assert info.title, f"{action_type}.{name} has no title"
            assert not faults(info.title)
            assert RULES.field_words(action_type, name) == info.title


def test_family_titles_say_what_the_player_does() -> None:
    titles = {kind: RULES.family_title(kind) for kind in RULES.action_models()}
    assert titles == {
        "curse": "Curse",
        "trade": "Trade",
        "draw": "Draw",
        "reveal": "Reveal",
        "build": "Build a Colossus",
        "end_turn": "End the turn",
        "pick_winner": "Pick the winner",
        "correct_runes": "Correct a player's Runes",
        "correct_hand": "Correct a hand",
        "correct_built": "Correct the Colossi built",
    }


def test_words_in_random_positions_say_what_the_table_says() -> None:
    """Every listed action's words, every correction template's, every log line and
    the refusal of actions listed in the state before, for 2 to 4 players, with and
    without a Blueprint table, with forced building (BC-R03) and every Reveal source
    (BC-R04)."""
    starts = [
        new_game(players=2, seed=1),
        new_game(players=3, seed=2, blueprints=TABLE),
        new_game(players=4, seed=3, forced_build=True, reveal_source="stockpile"),
        new_game(players=3, seed=4, reveal_source="target_only_require_2", forced_build=True),
        new_game(players=2, seed=5, blueprints=TABLE, forced_build=True),
    ]
    assert check_positions(RULES, starts, limit=40) > 3000


def test_BC_R09_a_curse_names_who_gets_the_runes() -> None:
    """The label once read "Curse: runes: Alexandra-Marie 0, Bea / 1"."""
    state = RULES.setup(["Alexandra-Marie", "Bea"], RULES.parse_options({}), seed=1)
    assert RULES.describe(state, Curse(runes=(0, 1))) == "Curse with 1 Rune: give 1 to Bea"
    assert RULES.describe(state, Curse(runes=(1, 3))) == (
        "Curse with 4 Runes: keep 1, give 3 to Bea"
    )
    assert RULES.describe(state, Curse(runes=(1, 0))) == "Curse with 1 Rune: keep 1"
    three = new_game(players=3)
    assert RULES.describe(three, Curse(runes=(0, 2, 1))) == (
        "Curse with 3 Runes: give 2 to Bob and 1 to Cleo"
    )
    assert RULES.value_words(state, "curse", "runes", (0, 1)) == "Alexandra-Marie 0, Bea 1"


def test_BC_R08_a_trade_says_what_goes_each_way() -> None:
    state = new_game(players=3)
    assert RULES.describe(state, Trade(partner=1, cards_received=1)) == (
        "Trade with Bob: get 1 Parts card, give nothing"
    )
    assert RULES.describe(
        state, Trade(partner=1, cards_received=1, cards_given=1, runes_given=1)
    ) == ("Trade with Bob: get 1 Parts card, give 1 Parts card and 1 Rune")
    assert RULES.describe(state, Trade(partner=2, cards_received=2, runes_received=3)) == (
        "Trade with Cleo: get 2 Parts cards and 3 Runes, give nothing"
    )
    assert RULES.value_words(state, "trade", "partner", 2) == "Cleo"


def test_draw_takes_a_rune_and_a_card() -> None:
    assert RULES.describe(new_game(), Draw()) == (
        "Draw: take 1 Rune from the stockpile and 1 Parts card"
    )


def test_BC_R04_BC_R05_a_reveal_says_where_the_runes_come_from() -> None:
    state = new_game(players=3)
    assert RULES.describe(state, Reveal(target=1, take=True)) == (
        "Reveal Bob's hand: gain 2 Runes from Bob, see 3 Parts cards, take 1"
    )
    poor = with_runes(state, 10, 1, 10)
    assert RULES.describe(poor, Reveal(target=1)) == (
        "Reveal Bob's hand: gain 1 Rune from Bob and 1 from the stockpile, "
        "see 3 Parts cards, take none"
    )
    stockpile = new_game(players=3, reveal_source="stockpile")
    assert RULES.describe(stockpile, Reveal(target=2)) == (
        "Reveal Cleo's hand: gain 2 Runes from the stockpile, see 3 Parts cards, take none"
    )
    assert RULES.value_words(state, "reveal", "take", True) == "take 1 card"
    assert RULES.value_words(state, "reveal", "take", False) == "take none"


def test_BC_R15_a_build_names_its_blueprint_cost_and_parts() -> None:
    state = new_game()
    plain = Build(slot=2, rune_cost=4, accessories=1, cards=6)
    assert RULES.describe(state, plain) == (
        "Build from the Blueprint in slot 2: Rune Cost 4 + 1 Accessory, seal 5 Runes, "
        "lay out 6 Parts cards"
    )
    named = Build(slot=1, rune_cost=3, accessories=0, cards=5, colossus_name="Phalanx")
    assert RULES.describe(state, named) == (
        "Build Phalanx from the Blueprint in slot 1: Rune Cost 3, seal 3 Runes, "
        "lay out 5 Parts cards"
    )
    tabled = new_game(blueprints=TABLE)
    card = face_up_card(tabled, 1)
    assert card is not None
    layout = Build(slot=1, parts={"head": 1, "leg": 1, "wild": 1, "arm": 1, "accessory": 2})
    assert RULES.describe(tabled, layout) == (
        f"Build from {card.name} in slot 1: 1 Head, 1 Leg, 1 Arm, 1 Wild, 2 Accessories; "
        f"seal {card.rune_cost + 2} Runes"
    )
    assert RULES.value_words(tabled, "build", "parts", {"leg": 2, "head": 1}) == "1 Head, 2 Legs"


def test_BC_R03_ending_the_turn_in_words() -> None:
    """The label once read "End turn: no build possible no"."""
    state = new_game()
    assert RULES.describe(state, EndTurn()) == "End the turn"
    assert RULES.describe(state, EndTurn(no_build_possible=True)) == (
        "End the turn: no Blueprint can be completed"
    )
    assert RULES.value_words(state, "end_turn", "no_build_possible", True) == "confirmed"


def test_BC_R12_picking_the_winner() -> None:
    state = new_game(players=3)
    assert RULES.describe(state, PickWinner(seats=(2,))) == "Players decide: Cleo wins"
    assert RULES.describe(state, PickWinner(seats=(0, 2))) == (
        "Players decide: Ann and Cleo share the victory"
    )
    assert RULES.value_words(state, "pick_winner", "seats", (0, 2)) == "Ann and Cleo"


def test_corrections_say_what_the_table_shows() -> None:
    state = new_game()
    assert RULES.describe(state, CorrectRunes(player=1, runes=4)) == "Set Bob's Runes to 4"
    assert RULES.describe(state, CorrectHand(player=0, cards=1)) == (
        "Set Ann's hand to 1 Parts card"
    )
    assert RULES.describe(state, CorrectBuilt(player=2, colossi=1)) == (
        "Set the Colossi built by Cleo to 1"
    )
    assert RULES.value_words(state, "correct_runes", "player", 1) == "Bob"


def _texts(events: tuple[Event, ...]) -> list[str]:
    check_events(events, payload_words(RULES))
    return [e.text for e in events]


def test_log_moves_parts_cards_with_a_verb_that_agrees() -> None:
    """The log once read "1 Parts card go from the deck to Ann"."""
    state = new_game(players=3)
    _, events = RULES.apply(state, Draw())
    assert _texts(events) == [
        "Ann draws.",
        "Ann takes 1 Rune from the stockpile.",
        "Ann takes 1 Parts card from the Parts deck.",
    ]
    _, events = RULES.apply(state, Trade(partner=1, cards_received=2, cards_given=1))
    assert "Bob gives 2 Parts cards to Ann." in _texts(events)
    assert "Ann gives 1 Parts card to Bob." in _texts(events)
    assert "Bob refills: draws 1 Parts card." in _texts(events)
    played = act(state, Draw())
    _, events = RULES.apply(played, Build(slot=3, rune_cost=3, accessories=0, cards=5))
    assert "Ann puts 5 Parts cards at the bottom of the Parts deck." in _texts(events)
    assert "Ann builds a Colossus from the Blueprint in slot 3: 1/10 built." in _texts(events)


def test_BC_R15_log_of_a_named_colossus_from_a_named_blueprint() -> None:
    state = new_game(blueprints=TABLE)
    card = face_up_card(state, 1)
    assert card is not None
    parts = dict(card.parts)
    _, events = RULES.apply(state, Build(slot=1, parts=parts, colossus_name="Wanderer"))
    assert f"Ann builds “Wanderer” from {card.name}: 1/10 built." in _texts(events)


def _refusal(state: object, action: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        RULES.apply(state, action)  # type: ignore[arg-type]
    assert_says_well(info.value.message, "refusal", payload_words(RULES))
    return info.value


def test_BC_R15_refusals_name_blueprints_and_parts_in_words() -> None:
    state = new_game(blueprints=TABLE)
    card = face_up_card(state, 1)
    assert card is not None
    wrong = _refusal(state, Build(slot=1, parts={"head": 1, "tail": 2}))
    assert wrong.ruling == "BC-R15"
    assert wrong.message == (
        "“tail” is not a kind of Parts card; the kinds are Head, Leg, Arm, Torso, Wing, "
        "Wild and Accessory."
    )
    named = _refusal(state, Build(slot=1, parts=dict(card.parts), blueprint="Nope"))
    assert named.message == f"Slot 1 holds {card.name}, not Nope."
    extra = _refusal(state, Build(slot=1, parts={**card.parts, "head": 3}))
    assert extra.message == f"{card.name} lists 1 Head, not the 3 laid out."
    short = _refusal(state, Build(slot=1, parts={"head": 1, "leg": 1, "arm": 1}))
    assert short.message == (
        f"{card.name} is missing 1 listed Part and the layout has 0 Wilds: Wilds stand in "
        "for listed Parts only, one each, never for Accessories."
    )


def test_words_of_actions_the_referee_refuses_still_say_something() -> None:
    """A malformed action (a seat or slot the table lacks, a Curse with too few shares)
    is described, never an exception: the log and "Why?" show refused actions too."""
    state = new_game(players=3, blueprints=TABLE)
    odd: list[BuildersAction] = [
        Curse(runes=(1,)),
        Trade(partner=7, cards_received=1),
        Reveal(target=-1),
        Build(slot=0, parts={"head": 1}),
        Build(slot=4, rune_cost=3, cards=5),
        Build(slot=1),
        PickWinner(seats=(9,)),
        CorrectRunes(player=5, runes=1),
    ]
    said = [RULES.describe(state, action) for action in odd]
    assert said == [
        "Curse with 1 Rune",
        "Trade with player 8: get 1 Parts card, give nothing",
        "Reveal player 0's hand: gain 2 Runes from the stockpile, see 0 Parts cards, take none",
        "Build from the Blueprint in slot 0: 1 Head",
        "Build from the Blueprint in slot 4: Rune Cost 3, seal 3 Runes, lay out 5 Parts cards",
        "Build from the Blueprint in slot 1: no Parts",
        "Players decide: player 10 wins",
        "Set player 6's Runes to 1",
    ]
