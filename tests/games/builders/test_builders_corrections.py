"""Builders of the Colossus: manual corrections (RULINGS 0.2.1).

Runes, Parts hands and Colossi built can be set to what the table shows. Each is an
ordinary journaled action that undo takes back exactly; the game's own rules then judge
the consequences (refill to 10, the zero-Rune check, the 10th Colossus).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.games.builders import RULES
from companion.games.builders.content import PARTS_IN_GAME
from companion.games.builders.model import (
    BuildersState,
    CorrectBuilt,
    CorrectHand,
    CorrectRunes,
    Draw,
    EndTurn,
)
from companion.games.corrections import CORRECTION_TEXT, Corrected, is_correction
from companion.session import Session
from tests.games.correction_play import accepted_corrections, play_with_corrections

NAMES = ["Ann", "Bob", "Cleo", "Dov"]


def new_game(players: int = 3, seed: int = 7) -> BuildersState:
    return RULES.setup(NAMES[:players], RULES.parse_options({}), seed)


def refused(state: BuildersState, action: Any, ruling: str = "0.2.1") -> str:
    with pytest.raises(RuleViolation) as info:
        RULES.apply(state, action)
    assert info.value.ruling == ruling
    return info.value.message


def check_invariants(state: BuildersState) -> None:
    RULES.check_position(state)  # Runes = 10 each + stockpile flows + corrections; 135 Parts
    assert sum(state.hands) + state.deck == PARTS_IN_GAME
    assert min(state.runes) >= 0 and min(state.hands) >= 0 and state.deck >= 0
    assert state.built <= 10
    if state.deck > 0:
        assert min(state.hands) >= 10, "BC-R06: every hand is refilled while cards remain"


def test_0_2_1_builders_templates_list_every_player_with_current_counts() -> None:
    state = new_game(3)
    templates = RULES.corrections(state)
    assert len(templates) == 9
    assert CorrectRunes(player=1, runes=10) in templates
    assert CorrectHand(player=2, cards=10) in templates
    assert CorrectBuilt(player=0, colossi=0) in templates
    assert not any(is_correction(a) for a in RULES.legal_actions(state))
    for template in templates:  # unchanged templates change nothing and are refused
        assert "Nothing to correct" in refused(state, template)


def test_0_2_1_builders_set_runes_then_undo() -> None:
    session = Session.new(RULES, NAMES[:3], seed=3)
    before = session.state
    events = session.submit({"type": "correct_runes", "player": 1, "runes": 4})
    assert isinstance(events[0], Corrected)
    assert events[0].text == CORRECTION_TEXT + "Bob's Runes 10 → 4 (stockpile)."
    assert session.state.runes == (10, 4, 10)
    assert session.state.rune_corrections == (0, -6, 0)
    RULES.check_position(session.state)
    session.undo()
    assert session.state == before
    session.redo()
    assert session.state.runes == (10, 4, 10)


def test_0_2_1_builders_refuses_negative_runes_and_unknown_players() -> None:
    state = new_game()
    assert "less than 0" in refused(state, CorrectRunes(player=0, runes=-1))
    assert refused(state, CorrectRunes(player=5, runes=3)) == (
        "There is no player 6: the table has 3 players."
    )
    assert "no player" in refused(state, CorrectHand(player=-1, cards=3))


def test_0_2_1_BC_R10_runes_corrected_to_zero_set_the_zero_check() -> None:
    state = new_game(2)
    after, events = RULES.apply(state, CorrectRunes(player=1, runes=0))
    assert after.zero_checks == (None, 2)
    assert any("0 Runes" in e.text for e in events)
    after = RULES.apply(after, Draw())[0]
    after, _ = RULES.apply(after, EndTurn())
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "zero_runes"


def test_0_2_1_BC_R06_a_short_hand_is_refilled_from_the_deck() -> None:
    state = new_game(3)
    after, events = RULES.apply(state, CorrectHand(player=0, cards=7))
    assert after.hands == (10, 10, 10) and after.deck == state.deck  # drew 3 back at once
    texts = [e.text for e in events]
    assert texts[0] == CORRECTION_TEXT + "Ann's Parts cards 10 → 7 (Parts deck)."
    assert "Ann refills: draws 3 Parts cards." in texts
    bigger, _ = RULES.apply(state, CorrectHand(player=2, cards=14))
    assert bigger.hands == (10, 10, 14) and bigger.deck == state.deck - 4
    check_invariants(bigger)


def test_0_2_1_builders_hand_cannot_take_more_cards_than_the_deck_holds() -> None:
    state = new_game(2)
    assert state.deck == PARTS_IN_GAME - 20
    message = refused(state, CorrectHand(player=0, cards=10 + state.deck + 1))
    assert "135" in message
    RULES.apply(state, CorrectHand(player=0, cards=10 + state.deck))  # the whole deck is fine


def test_0_2_1_BC_R01_built_colossi_corrected_to_ten_ends_the_game() -> None:
    state = new_game(2)
    after, events = RULES.apply(state, CorrectBuilt(player=1, colossi=10))
    assert events[0].text == CORRECTION_TEXT + "Colossi built by Bob 0 → 10 (built 10/10)."
    assert after.built == 10 and after.builds_by(1) == 10
    assert all(b.corrected for b in after.builds)
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winners == (1,)  # Runes tie, Bob built more
    assert outcome.reason == "more_colossi"
    assert list(RULES.legal_actions(after)) == [] and RULES.corrections(after) == ()
    assert "undo" in refused(after, CorrectRunes(player=0, runes=3))


def test_0_2_1_a_corrected_build_names_no_blueprint_slot() -> None:
    """Protocol truth: ``correct_built`` recorded slot 0 where builds use slots 1–3; a
    correction has no slot. A position saved with the old 0 still loads."""
    after, _ = RULES.apply(new_game(2), CorrectBuilt(player=1, colossi=2))
    dumped = RULES.dump_position(after)
    assert [b["slot"] for b in dumped["builds"]] == [None, None]
    for record in dumped["builds"]:
        record["slot"] = 0
    assert RULES.load_position(dumped).builds_by(1) == 2


def test_0_2_1_BC_R01_no_more_than_ten_colossi() -> None:
    state = RULES.apply(new_game(3), CorrectBuilt(player=0, colossi=6))[0]
    assert refused(state, CorrectBuilt(player=1, colossi=5), "BC-R01")
    state = RULES.apply(state, CorrectBuilt(player=0, colossi=2))[0]
    assert state.builds_by(0) == 2
    assert RULES.outcome(RULES.apply(state, CorrectBuilt(player=2, colossi=8))[0]) is not None


def test_0_2_1_BC_R12_a_tie_waiting_for_the_players_takes_no_corrections() -> None:
    state = RULES.apply(new_game(2), CorrectBuilt(player=0, colossi=5))[0]
    state = RULES.apply(state, CorrectBuilt(player=1, colossi=5))[0]
    assert state.tied == (0, 1)  # same Runes, same builds: the players decide
    assert RULES.corrections(state) == ()
    refused(state, CorrectRunes(player=0, runes=2))


def test_0_2_1_builders_correction_replays_from_the_journal() -> None:
    from companion.journal import Journal

    journal = Journal(":memory:")
    session = Session.new(RULES, NAMES[:2], seed=11, journal=journal)
    session.submit({"type": "correct_runes", "player": 0, "runes": 2})
    session.submit({"type": "draw"})
    session.submit({"type": "correct_hand", "player": 1, "cards": 12})
    session.submit({"type": "correct_built", "player": 1, "colossi": 3})
    resumed, damage = Session.resume(journal, session.game_id or 0)
    assert damage is None and resumed.state == session.state
    assert resumed.events[0][0].text.startswith(CORRECTION_TEXT)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), play_seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_0_2_1_builders_random_corrections_keep_counts_and_replay(
    seed: int, play_seed: int, players: int
) -> None:
    play_with_corrections(RULES, new_game(players, seed), play_seed, 120, check_invariants)


def test_0_2_1_builders_random_corrections_are_often_accepted() -> None:
    starts = ((new_game(3, seed), seed) for seed in range(6))
    assert accepted_corrections(RULES, starts, 80, check_invariants) >= 10


def test_0_2_1_each_correction_refusal_says_what_word_for_word() -> None:
    state = with_build_by(new_game(3), 1)
    assert CorrectBuilt(player=1, colossi=1) in RULES.corrections(state)  # its own count
    cases = [
        (CorrectRunes(player=1, runes=10), "Nothing to correct: Bob already has 10 Runes."),
        (
            CorrectRunes(player=1, runes=-1),
            "Bob's Runes cannot be less than 0; -1 is not possible.",
        ),
        (CorrectHand(player=2, cards=10), "Nothing to correct: Cleo already holds 10 Parts cards."),
        (
            CorrectHand(player=2, cards=-2),
            "Cleo's Parts cards cannot be less than 0; -2 is not possible.",
        ),
        (
            CorrectBuilt(player=1, colossi=1),
            "Nothing to correct: Bob has already built 1 Colossus.",
        ),
        (
            CorrectBuilt(player=1, colossi=-1),
            "Colossi built by Bob cannot be less than 0; -1 is not possible.",
        ),
    ]
    for action, message in cases:
        assert refused(state, action) == message


def test_0_2_1_a_corrected_build_records_no_runes_accessories_or_cards() -> None:
    after, _ = RULES.apply(new_game(3), CorrectBuilt(player=2, colossi=1))
    record = after.builds[-1]
    assert (record.player, record.slot, record.blueprint, record.corrected) == (2, None, None, True)
    assert (record.rune_cost, record.accessories, record.cards) == (0, 0, 0)


def with_build_by(state: BuildersState, seat: int) -> BuildersState:
    after, _ = RULES.apply(state, CorrectBuilt(player=seat, colossi=1))
    return after
