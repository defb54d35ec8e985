"""Island games (Beast Master, Colossi): manual corrections (RULINGS 0.2.1).

Per player the Gold and the cards in hand; per space the Acolytes, whose Colossus stands
there and the Gold cubes; during an Actions turn the Movements left. Acolytes come from
(go back to) the owner's hand and never outnumber it; a Colossus never leaves the
island; nobody stands on Water. The rules then apply: the hand limit (BM-R08), a
displacement whose Colossus already left is void. Effect editors (principle 0.2.2) stay
what they were: the way to enter card and tile texts.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.games.corrections import CORRECTION_TEXT, is_correction
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.mechanics import (
    ledger_totals,
)
from companion.games.island.model import (
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    PendingDiscard,
    PendingDisplace,
)
from companion.session import Session
from tests.games.correction_play import accepted_corrections, play_with_corrections

from .helpers import grid_board, place

NAMES = ["Ann", "Bob", "Cleo", "Dov"]
RULES: dict[str, Any] = {"beast_master": bm.RULES, "colossi": ca.RULES}


def new_game(game: str, players: int = 2, seed: int = 3, **options: Any) -> Any:
    rules = RULES[game]
    opts = rules.options_model(board=grid_board(3, 3), **options)
    return rules.setup(NAMES[:players], opts, seed)


def refused(rules: Any, state: Any, action: Any, ruling: str = "0.2.1") -> str:
    with pytest.raises(RuleViolation) as info:
        rules.apply(state, action)
    assert info.value.ruling == ruling
    return str(info.value.message)


def in_actions(game: str) -> Any:
    """Ann's Actions turn with 4 Movements / Actions left."""
    state = new_game(game)
    return state.model_copy(update={"phase": "actions", "movements_left": 4, "pending": ()})


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_0_2_1_island_templates_cover_players_spaces_and_movements(game: str) -> None:
    rules = RULES[game]
    state = in_actions(game)
    templates = rules.corrections(state)
    assert CorrectPlayer(player=1, gold=0, cards=state.cards_in_hand[1]) in templates
    assert CorrectMovements(movements=4) in templates
    spaces = [t for t in templates if isinstance(t, CorrectSpace)]
    assert [t.space for t in spaces] == list(state.board.ids)
    centre = next(t for t in spaces if t.space == state.board.centre)
    assert centre.colossi == (1, 1)
    assert (centre.cubes is None) == (game == "beast_master")
    assert not any(is_correction(a) for a in rules.legal_actions(state))
    for template in templates:
        assert "Nothing to correct" in refused(rules, state, template)


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_0_2_1_island_set_gold_then_undo(game: str) -> None:
    session = Session.new(RULES[game], NAMES[:2], {"board": grid_board(3, 3).model_dump()}, seed=2)
    before = session.state
    events = session.submit(
        {"type": "correct_player", "player": 1, "gold": 5, "cards": before.cards_in_hand[1]}
    )
    assert events[0].text == CORRECTION_TEXT + "Bob: Gold 0 → 5."
    assert session.state.gold == (0, 5)
    assert session.state.ledger[-1].source == "correction"
    assert ledger_totals(session.state.ledger, 2) == session.state.gold
    session.undo()
    assert session.state == before


def test_0_2_1_CA_R17_gold_is_never_corrected_below_zero() -> None:
    state = in_actions("colossi")
    refused(ca.RULES, state, CorrectPlayer(player=0, gold=-1, cards=2), "CA-R17")
    refused(bm.RULES, in_actions("beast_master"), CorrectPlayer(player=0, gold=-1, cards=3))


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_0_2_1_BM_R08_more_than_six_cards_must_be_discarded_at_once(game: str) -> None:
    rules = RULES[game]
    state = in_actions(game)
    after, _ = rules.apply(state, CorrectPlayer(player=1, gold=0, cards=8))
    assert after.cards_in_hand[1] == 8
    assert after.pending and isinstance(after.pending[0], PendingDiscard)
    assert rules.current_player(after) == 1
    assert "less than 0" in refused(rules, state, CorrectPlayer(player=1, gold=0, cards=-1))


@pytest.mark.parametrize(("game", "ruling"), [("beast_master", "BM-R02"), ("colossi", "CA-R02")])
def test_0_2_1_island_acolytes_come_from_hand_and_never_outnumber_it(
    game: str, ruling: str
) -> None:
    rules = RULES[game]
    state = in_actions(game)
    after, events = rules.apply(state, CorrectSpace(space="g00", acolytes=(3, 1), colossi=(0, 0)))
    assert after.space("g00").acolytes == (3, 1)
    assert after.acolytes_in_hand == (7, 9)
    assert events[0].text == CORRECTION_TEXT + "g00: Ann's Acolytes 0 → 3, Bob's Acolytes 0 → 1."
    rules.check_position(after)
    message = refused(
        rules, after, CorrectSpace(space="g01", acolytes=(8, 0), colossi=(0, 0)), ruling
    )
    assert "only 7" in message
    back, _ = rules.apply(after, CorrectSpace(space="g00", acolytes=(0, 1), colossi=(0, 0)))
    assert back.acolytes_in_hand == (10, 9)


@pytest.mark.parametrize(("game", "ruling"), [("beast_master", "BM-R13"), ("colossi", "CA-R09")])
def test_0_2_1_island_a_colossus_is_moved_never_removed(game: str, ruling: str) -> None:
    rules = RULES[game]
    state = in_actions(game)
    centre = state.board.centre
    refused(rules, state, CorrectSpace(space=centre, acolytes=(0, 0), colossi=(0, 1)), ruling)
    moved, _ = rules.apply(state, CorrectSpace(space="g00", acolytes=(0, 0), colossi=(1, 0)))
    assert moved.colossi == ("g00", centre)
    assert not moved.pending  # placing is not entering: nothing is explored
    assert "one Colossus" in refused(
        rules, state, CorrectSpace(space="g00", acolytes=(0, 0), colossi=(2, 0))
    )


def test_0_2_1_BM_R07_no_acolyte_is_corrected_onto_the_beast() -> None:
    state = in_actions("beast_master")
    centre = state.board.centre
    refused(bm.RULES, state, CorrectSpace(space=centre, acolytes=(1, 0), colossi=(1, 1)), "BM-R07")
    ca_state = in_actions("colossi")  # Colossi Beasts do not kill (CA-R08)
    after, _ = ca.RULES.apply(ca_state, CorrectSpace(space=centre, acolytes=(1, 0), colossi=(1, 1)))
    assert after.space(centre).acolytes == (1, 0)


def test_0_2_1_CA_R09_nobody_is_corrected_onto_water() -> None:
    state = place(in_actions("colossi"), water=["g02"])
    refused(ca.RULES, state, CorrectSpace(space="g02", acolytes=(1, 0), colossi=(0, 0)), "CA-R09")
    refused(ca.RULES, state, CorrectSpace(space="g02", acolytes=(0, 0), colossi=(1, 0)), "CA-R09")


def test_0_2_1_colossi_cubes_and_movements() -> None:
    state = in_actions("colossi")
    after, _ = ca.RULES.apply(
        state, CorrectSpace(space="g22", acolytes=(0, 0), colossi=(0, 0), cubes=3)
    )
    assert after.space("g22").cubes == 3
    fewer, _ = ca.RULES.apply(after, CorrectMovements(movements=1))
    assert fewer.movements_left == 1
    assert "less than 0" in refused(ca.RULES, state, CorrectMovements(movements=-1))
    harvest = state.model_copy(update={"phase": "harvest"})
    assert "Actions turn" in refused(ca.RULES, harvest, CorrectMovements(movements=2))
    assert not any(isinstance(t, CorrectMovements) for t in ca.RULES.corrections(harvest))


def test_0_2_1_island_a_displaced_colossus_moved_by_correction_owes_nothing() -> None:
    state = in_actions("beast_master")
    centre = state.board.centre
    waiting = state.model_copy(
        update={"pending": (PendingDisplace(space=centre, player=1, reason="test"),)}
    )
    after, _ = bm.RULES.apply(waiting, CorrectSpace(space="g00", acolytes=(0, 0), colossi=(0, 1)))
    assert after.pending == () and after.colossi[1] == "g00"


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_0_2_1_island_ended_games_take_no_corrections(game: str) -> None:
    rules = RULES[game]
    over = in_actions(game).model_copy(update={"phase": "tie"})
    assert rules.corrections(over) == ()
    assert "undo" in refused(rules, over, CorrectMovements(movements=1))


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_0_2_1_island_corrections_replay_from_the_journal(game: str) -> None:
    from companion.journal import Journal

    journal = Journal(":memory:")
    options = {"board": grid_board(3, 3).model_dump()}
    session = Session.new(RULES[game], NAMES[:2], options, seed=8, journal=journal)
    session.submit({"type": "correct_space", "space": "g00", "acolytes": [2, 0], "colossi": [1, 0]})
    session.submit({"type": "correct_player", "player": 0, "gold": 4, "cards": 1})
    resumed, damage = Session.resume(journal, session.game_id or 0)
    assert damage is None and resumed.state == session.state


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["beast_master", "colossi"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**40),
    play_seed=st.integers(0, 2**31),
)
def test_0_2_1_island_random_corrections_keep_counts_and_replay(
    game: str, players: int, seed: int, play_seed: int
) -> None:
    rules = RULES[game]
    start = new_game(game, players, seed)
    final, _, _ = play_with_corrections(rules, start, play_seed, 150, rules.check_position)
    if game == "colossi":
        assert min(final.gold) >= 0  # CA-R17


def test_0_2_1_island_random_corrections_are_often_accepted() -> None:
    accepted = sum(
        accepted_corrections(
            rules, ((new_game(game, 3, seed), seed) for seed in range(4)), 60, rules.check_position
        )
        for game, rules in RULES.items()
    )
    assert accepted >= 10
