"""The shared island referee (referee.py), word for word: manual corrections (0.2.1) in
both games, the table's pick of a tie's winner (BM-R12) and a paid move called as each
game calls it."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import InvalidPosition
from companion.games.builders.model import CorrectRunes
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.beast_master.model import PickWinners
from companion.games.island.mechanics import Work
from companion.games.island.model import (
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    ExtraMovements,
    GoldEntry,
    Move,
    PendingDiscard,
    PendingDisplace,
    PendingRollOff,
)
from companion.outcome import Outcome, ScoreSheet

from .island_rules_help import position, refused

GAMES = ["beast_master", "colossi"]
UNIT = {"beast_master": "Movement", "colossi": "Action"}


def rules_of(game: str) -> Any:
    return bm.RULES if game == "beast_master" else ca.RULES


def texts(game: str, state: Any, action: Any) -> list[str]:
    return [e.text for e in rules_of(game).apply(state, action)[1]]


@pytest.mark.parametrize("game", GAMES)
def test_0_2_1_the_movements_left_are_corrected_in_the_games_words(game: str) -> None:
    rules, unit, state = rules_of(game), UNIT[game], position(game)
    assert refused(rules.apply, state, CorrectMovements(movements=4)) == (
        f"Nothing to correct: 4 {unit}s are already left.",
        "0.2.1",
    )
    one = state.model_copy(update={"movements_left": 1})
    assert refused(rules.apply, one, CorrectMovements(movements=1)) == (
        f"Nothing to correct: 1 {unit} is already left.",
        "0.2.1",
    )
    assert refused(rules.apply, state, CorrectMovements(movements=-1)) == (
        f"{unit}s left cannot be less than 0; -1 is not possible.",
        "0.2.1",
    )
    assert texts(game, state, CorrectMovements(movements=2)) == [
        f"Manual correction: {unit}s left 4 → 2."
    ]


@pytest.mark.parametrize("game", GAMES)
def test_0_2_1_a_players_gold_and_cards_are_corrected_word_for_word(game: str) -> None:
    rules = rules_of(game)
    state = position(game).model_copy(
        update={
            "gold": (3, 0),
            "ledger": (GoldEntry(player=0, amount=3, source="effect", label="Turn 1"),),
            "cards_in_hand": (1, 3),
        }
    )
    assert refused(rules.apply, state, CorrectPlayer(player=0, gold=3, cards=1)) == (
        "Nothing to correct: Ann already has 3 Gold and 1 card.",
        "0.2.1",
    )
    assert refused(rules.apply, state, CorrectPlayer(player=0, gold=3, cards=-1)) == (
        "Ann's cards in hand cannot be less than 0; -1 is not possible.",
        "0.2.1",
    )
    after, events = rules.apply(state, CorrectPlayer(player=0, gold=5, cards=2))
    assert [e.text for e in events] == [
        "Manual correction: Ann: Gold 3 → 5, cards in hand 1 → 2.",
        "Ann +2 Gold (correction).",
    ]
    assert after.gold == (5, 0) and after.cards_in_hand == (2, 3)
    assert after.ledger[-1] == GoldEntry(
        player=0, amount=2, source="correction", label="Correction"
    )


@pytest.mark.parametrize("game", GAMES)
def test_0_2_1_gold_cubes_on_a_space_are_corrected_word_for_word(game: str) -> None:
    rules, state = rules_of(game), position(game)
    nobody = CorrectSpace(space="c", acolytes=(0, 0), colossi=(0, 0), cubes=-1)
    assert refused(rules.apply, state, nobody) == (
        "Gold cubes on c cannot be less than 0; -1 is not possible.",
        "0.2.1",
    )
    three = nobody.model_copy(update={"cubes": 3})
    after, events = rules.apply(state, three)
    assert [e.text for e in events] == ["Manual correction: c: Gold cubes 0 → 3."]
    assert after.space("c").cubes == 3
    assert texts(game, after, nobody.model_copy(update={"cubes": 1})) == [
        "Manual correction: c: Gold cubes 3 → 1."
    ]


def tied(phase: str) -> bm.BeastMasterState:
    state: bm.BeastMasterState = position()
    return state.model_copy(
        update={
            "phase": phase,
            "gold": (2, 2),
            "ledger": (
                GoldEntry(player=0, amount=2, source="effect", label="Turn 1"),
                GoldEntry(player=1, amount=2, source="effect", label="Turn 1"),
            ),
        }
    )


def test_BM_R12_the_table_picks_among_the_tied_players_only_on_a_tie() -> None:
    refusal = (
        "Pick the winner among the tied players (or several to share the win).",
        "BM-R12",
    )
    assert refused(bm.RULES.apply, tied("actions"), PickWinners(seats=(0,))) == refusal
    assert refused(bm.RULES.apply, tied("tie"), PickWinners(seats=())) == refusal
    after, events = bm.RULES.apply(tied("tie"), PickWinners(seats=(1, 0)))  # all of them
    assert after.phase == "over" and after.winners == (0, 1)
    assert [e.text for e in events] == ["The table picked the winner of the tie."]


def test_a_paid_move_is_called_as_each_game_calls_it_in_every_title_and_value() -> None:
    # a field without a title reads as its name, in the game's words
    assert bm.RULES.field_words("correct_movements", "movements_left") == "Movements left"
    assert ca.RULES.field_words("correct_movements", "movements_left") == "Actions left"
    for game in GAMES:
        rules, state = rules_of(game), position(game)
        value = rules.value_words(state, "effect", "effect", ExtraMovements(amount=2))
        assert value == f"2 more {UNIT[game]}s this turn"


def space(sid: str, acolytes: tuple[int, ...], colossi: tuple[int, ...]) -> CorrectSpace:
    return CorrectSpace(space=sid, acolytes=acolytes, colossi=colossi)


@pytest.mark.parametrize(
    ("correction", "message", "bm_ruling", "ca_ruling"),
    [
        (space("zz", (0, 0), (0, 0)), "There is no space 'zz' on this island.", "BM-R01", None),
        (space("c", (0,), (0, 0)), "Give the Acolytes and the Colossi of all 2 players.", "", None),
        (space("c", (0, 0), (0,)), "Give the Acolytes and the Colossi of all 2 players.", "", None),
        (
            space("c", (-1, 0), (0, 0)),
            "Ann's Acolytes on c cannot be less than 0; -1 is not possible.",
            "",
            None,
        ),
        (
            space("c", (10, 0), (0, 0)),
            "Ann has only 9 Acolytes for c (the others are elsewhere on the island).",
            "BM-R02",
            "CA-R02",
        ),
        (
            space("c", (0, 0), (2, 0)),
            "Each player has one Colossus: say 1 if it stands here, else 0.",
            "",
            None,
        ),
        (
            space("o", (0, 0), (0, 0)),
            "Ann's Colossus never leaves the island: correct the space it stands on instead.",
            "BM-R13",
            "CA-R09",
        ),
        (space("w", (1, 0), (0, 0)), "w is Water: nobody stands there.", "CA-R09", None),
        (space("w", (0, 0), (0, 1)), "w is Water: nobody stands there.", "CA-R09", None),
        (space("o", (0, 0), (1, 0)), "Nothing to correct: o already looks like this.", "", None),
    ],
)
@pytest.mark.parametrize("game", GAMES)
def test_0_2_1_a_space_the_box_or_the_rules_cannot_hold_is_refused_word_for_word(
    game: str, correction: CorrectSpace, message: str, bm_ruling: str, ca_ruling: str | None
) -> None:
    """The ruling is the game's own where the games differ; "" is the corrections' 0.2.1."""
    ruling = bm_ruling or "0.2.1"
    if game == "colossi" and ca_ruling is not None:
        ruling = ca_ruling
    assert refused(rules_of(game).apply, position(game), correction) == (message, ruling)


def test_BM_R07_no_acolyte_is_corrected_onto_the_beasts_space_in_beast_master_only() -> None:
    wrong = space("b", (0, 1), (0, 0))
    assert refused(bm.RULES.apply, position(), wrong) == (
        "An Acolyte on the Beast's space (b) dies at once.",
        "BM-R07",
    )
    assert texts("colossi", position("colossi"), wrong) == [  # CA-R08: no built-in kill
        "Manual correction: b: Bob's Acolytes 0 → 1."
    ]
    # a Colossus may stand with the Beast: placed there, it is not displaced
    after, events = bm.RULES.apply(position(), space("b", (0, 0), (1, 0)))
    assert [e.text for e in events] == ["Manual correction: b: Ann's Colossus is here."]
    assert after.colossi == ("b", "f") and after.pending == ()


@pytest.mark.parametrize("game", GAMES)
def test_0_2_1_a_corrected_space_says_every_change_and_the_hands_follow(game: str) -> None:
    state = position(game)
    after, events = rules_of(game).apply(state, space("c", (2, 3), (0, 1)))
    assert [e.text for e in events] == [
        "Manual correction: c: Ann's Acolytes 0 → 2, Bob's Acolytes 0 → 3, Bob's Colossus is here."
    ]
    assert after.space("c").acolytes == (2, 3) and after.acolytes_in_hand == (7, 7)
    assert after.colossi == ("o", "c")
    after, events = rules_of(game).apply(state, space("a", (10, 0), (0, 0)))
    assert [e.text for e in events] == ["Manual correction: a: Ann's Acolytes 1 → 10."]
    assert after.acolytes_in_hand == (0, 10)


@pytest.mark.parametrize("game", GAMES)
def test_0_2_1_the_correction_forms_show_the_table_as_it_stands(game: str) -> None:
    rules, state = rules_of(game), position(game)
    cubes = 0 if game == "colossi" else None  # only Colossi has Gold cubes
    cards = state.cards_in_hand[0]
    assert rules.corrections(state)[:5] == (
        CorrectPlayer(player=0, gold=0, cards=cards),
        CorrectPlayer(player=1, gold=0, cards=cards),
        CorrectMovements(movements=4),
        CorrectSpace(space="o", acolytes=(0, 0), colossi=(1, 0), cubes=cubes),
        CorrectSpace(space="a", acolytes=(1, 0), colossi=(0, 0), cubes=cubes),
    )
    assert len(rules.corrections(state)) == 2 + 1 + 7
    # the Movements left are counted only in an Actions turn
    assert CorrectMovements(movements=4) not in rules.corrections(
        state.model_copy(update={"phase": "rest"})
    )
    for phase in ("over", "tie"):
        assert rules.corrections(state.model_copy(update={"phase": phase})) == ()
    over = state.model_copy(update={"phase": "over", "winners": (0,)})
    assert refused(rules.apply, over, CorrectMovements(movements=1)) == (
        "The game has ended; take actions back with undo to correct it.",
        "0.2.1",
    )


@pytest.mark.parametrize(("game", "ruling"), [("beast_master", "BM-R16"), ("colossi", None)])
def test_BM_R12_the_end_most_gold_wins_and_a_tie_is_shared(game: str, ruling: str | None) -> None:
    rules, state = rules_of(game), position(game)
    won = state.model_copy(update={"phase": "over", "winners": (1,), "gold": (2, 5)})
    assert rules.outcome(won) == Outcome(
        winners=(1,), reason="most_gold", text="Bob wins with 5 Gold."
    )
    assert rules.status(won) == "Bob wins with 5 Gold."
    assert rules.current_player(won) is None and list(rules.legal_actions(won)) == []
    assert refused(rules.apply, won, Move(piece="colossus", origin="o", to="c")) == (
        "The game is over.",
        ruling,
    )
    shared = won.model_copy(update={"winners": (0, 1), "gold": (5, 5)})
    assert rules.outcome(shared) == Outcome(
        winners=(0, 1), reason="shared_gold", text="Ann and Bob share the win with 5 Gold."
    )
    assert rules.outcome(state) is None
    assert rules.scores(state) == ScoreSheet(measure="gold", columns=("Ann", "Bob"), rows=())


@pytest.mark.parametrize(("game", "ruling"), [("beast_master", "BM-R12"), ("colossi", "0.2.4")])
def test_BM_R12_a_tie_is_shared_or_left_to_the_table(game: str, ruling: str) -> None:
    rules, state = rules_of(game), position(game)
    for gold, policy, update, said in [
        ((3, 3), "shared", {"phase": "over", "winners": (0, 1)}, "The end."),
        ((3, 1), "shared", {"phase": "over", "winners": (0,)}, "The end."),
        (
            (3, 3),
            "manual",
            {"phase": "tie"},
            f"Gold is tied: the table picks the winner ({ruling}).",
        ),
        ((1, 3), "manual", {"phase": "over", "winners": (1,)}, "The end."),
    ]:
        w = Work(state.model_copy(update={"gold": gold}), rules.island_config(state))
        rules.finish_game(w, policy, "The end.")
        assert (w.update, [e.text for e in w.events]) == (update, [said])


@pytest.mark.parametrize("game", GAMES)
def test_who_answers_is_the_pending_heads_player_else_the_active_one(game: str) -> None:
    rules, state = rules_of(game), position(game)
    assert rules.current_player(state) == 0
    bob = PendingDisplace(space="f", player=1, reason="Water")
    assert rules.current_player(state.model_copy(update={"pending": (bob,)})) == 1
    anyone = state.model_copy(
        update={"pending": (PendingRollOff(purpose="mantle", contenders=(0, 1)),)}
    )
    assert rules.current_player(anyone.model_copy(update={"active": 1})) == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_loaded_position_that_does_not_add_up_is_refused_by_name(game: str) -> None:
    rules, state = rules_of(game), position(game)
    rules.check_position(state)
    for update, message in [
        ({"gold": (1, 0)}, "Gold does not match the gold ledger."),
        ({"spaces": state.spaces[:-1]}, "The spaces do not match the board."),
        ({"active": 2}, "active is seat 2; the seats are 0..1."),
    ]:
        with pytest.raises(InvalidPosition) as err:
            rules.check_position(state.model_copy(update=update))
        assert err.value.message == message
    rules.check_position(state.model_copy(update={"active": 1}))


def test_CA_R03_a_loaded_colossi_position_with_the_mantle_on_no_seat_is_refused() -> None:
    state = position("colossi")
    with pytest.raises(InvalidPosition) as err:
        ca.RULES.check_position(state.model_copy(update={"mantle": 2}))
    assert err.value.message == "mantle is seat 2; the seats are 0..1."
    ca.RULES.check_position(state.model_copy(update={"mantle": 1}))


@pytest.mark.parametrize(("game", "ruling"), [("beast_master", "BM-R08"), ("colossi", None)])
def test_BM_R08_while_a_hand_is_too_full_only_its_discard_is_taken(
    game: str, ruling: str | None
) -> None:
    rules = rules_of(game)
    full = position(game).model_copy(
        update={"pending": (PendingDiscard(player=1),), "cards_in_hand": (3, 8)}
    )
    for action in (Move(piece="colossus", origin="o", to="c"), DisplaceColossus(to="c")):
        assert refused(rules.apply, full, action) == (
            "Bob must first discard down to 6 cards.",
            ruling,
        )
    after, events = rules.apply(full, DiscardToLimit())
    assert after.cards_in_hand == (3, 6) and after.pending == ()
    assert [e.text for e in events] == ["Bob discards 2 cards down to 6."]
    # a hand already down to 6 (corrected meanwhile) discards nothing
    six = full.model_copy(update={"cards_in_hand": (3, 6)})
    after, events = rules.apply(six, DiscardToLimit())
    assert after.cards_in_hand == (3, 6) and after.pending == () and events == ()


@pytest.mark.parametrize("game", GAMES)
def test_2_6_6_while_a_colossus_must_leave_only_its_step_is_taken(game: str) -> None:
    rules = rules_of(game)
    leaving = position(game).model_copy(
        update={"pending": (PendingDisplace(space="f", player=1, reason="Water"),)}
    )
    assert refused(rules.apply, leaving, DiscardToLimit()) == (
        "Bob must first move their Colossus off f.",
        None,
    )
    assert list(rules.legal_actions_at(leaving, origin="f")) == [DisplaceColossus(to="b")]
    assert list(rules.legal_actions_at(leaving, origin="o")) == []


@pytest.mark.parametrize("game", GAMES)
def test_the_moves_from_a_space_are_the_active_players_and_filtered_by_their_cells(
    game: str,
) -> None:
    rules, state = rules_of(game), position(game)
    assert list(rules.legal_actions_at(state, origin="f")) == []  # Bob's: not his turn
    assert list(rules.legal_actions_at(state, origin="c")) == []
    assert list(rules.legal_actions_at(state, origin="o", target="c")) == [
        Move(piece="colossus", origin="o", to="c")
    ]
    assert list(rules.legal_actions_at(state, origin="o", touching="e")) == [
        Move(piece="colossus", origin="o", to="e")
    ]
    spent = state.model_copy(update={"movements_left": 0})
    assert list(rules.legal_actions_at(spent, origin="o")) == []
    over = state.model_copy(update={"phase": "over", "winners": (0,)})
    assert list(rules.legal_actions_at(over, origin="o")) == []
    # over is over, even with a displacement left waiting
    left = PendingDisplace(space="o", player=0, reason="Water")
    ended = over.model_copy(update={"pending": (left,)})
    assert list(rules.legal_actions_at(ended, origin="o")) == list(rules.legal_actions(ended)) == []


def test_each_phase_refuses_what_it_does_not_take_in_its_own_words() -> None:
    move = Move(piece="colossus", origin="o", to="c")
    choose = position().model_copy(update={"phase": "choose"})
    assert refused(bm.RULES.apply, choose, move) == ("First choose: take Actions or Rest.", "2.5")
    tie = position().model_copy(update={"phase": "tie"})
    assert refused(bm.RULES.apply, tie, move) == ("That is not possible now.", None)
    reveal = position("colossi").model_copy(update={"phase": "age_reveal"})
    assert refused(ca.RULES.apply, reveal, move) == ("Reveal the card of Age I first.", "CA-R19")


@pytest.mark.parametrize("game", GAMES)
def test_2_6_6_a_displacement_whose_colossus_has_left_is_void(game: str) -> None:
    rules = rules_of(game)
    state = position(game).model_copy(
        update={"pending": (PendingDisplace(space="f", player=1, reason="Water"),)}
    )
    moved, _ = rules.apply(state, CorrectSpace(space="c", acolytes=(0, 0), colossi=(0, 1)))
    assert moved.colossi == ("o", "c") and moved.pending == ()
    still, _ = rules.apply(state, CorrectPlayer(player=1, gold=2, cards=3))
    assert still.pending == state.pending


def test_a_phase_the_game_does_not_name_reads_as_its_id_in_words() -> None:
    state = position()
    assert bm.RULES.panel(state).phase == "Actions"
    assert bm.RULES.panel(state.model_copy(update={"phase": "age_scoring"})).phase == "Age scoring"


@pytest.mark.parametrize(
    ("game", "title"), [("beast_master", "Beast Master"), ("colossi", "Colossi")]
)
def test_0_2_1_a_correction_of_another_game_is_refused_by_name(game: str, title: str) -> None:
    foreign = CorrectRunes(player=0, runes=3)
    assert refused(rules_of(game).apply, position(game), foreign) == (
        f"{title} has no such correction.",
        "0.2.1",
    )


@pytest.mark.parametrize(("game", "banners"), [("beast_master", True), ("colossi", False)])
def test_the_board_lights_what_the_player_to_act_may_do_and_banners_in_beast_master(
    game: str, banners: bool
) -> None:
    rules, state = rules_of(game), position(game)
    idx = state.board.graph.index["e"]
    spaces = list(state.spaces)
    spaces[idx] = spaces[idx].model_copy(update={"banner": 1})
    state = state.model_copy(update={"spaces": tuple(spaces)})
    overview = [(h.cell, h.role.value, h.player) for h in rules.highlights(state)]
    assert overview == [
        ("o", "control", 0),
        ("a", "control", 0),
        ("f", "control", 1),
        ("b", "beast", None),
        *([("e", "banner", 1)] if banners else []),
        ("a", "selectable", 0),
        ("o", "selectable", 0),
    ]
    focus = [(h.cell, h.role.value) for h in rules.highlights(state, "o>c")]
    assert focus == [
        ("o", "selected"),
        ("a", "reachable"),
        ("b", "reachable"),
        ("c", "reachable"),
        ("e", "reachable"),
        ("c", "path"),
    ]
    spent = state.model_copy(update={"movements_left": 0})  # nothing may move now
    assert [h.role.value for h in rules.highlights(spent, "o>c")] == [
        "control",
        "control",
        "control",
        "beast",
        *(["banner"] if banners else []),
    ]
