"""What a loaded or hand-made Kolossus position must satisfy (``check_position``): each
refusal with its exact words and ruling, and the limit just inside it accepted."""

from __future__ import annotations

from typing import Any

import pytest

from companion.dice import DiceRequest
from companion.errors import InvalidPosition
from companion.games.kolossus.checks import check_position
from companion.games.kolossus.model import BeatRecord, CrystalCapture, KolossusState
from tests.games.kolossus.helpers import NE, NW, act, in_turn, new_game, pid, with_band


def refusal(state: KolossusState) -> InvalidPosition:
    with pytest.raises(InvalidPosition) as refused:
        check_position(state)
    return refused.value


def edit(state: KolossusState, **update: Any) -> KolossusState:
    return state.model_copy(update=update)


def with_mini(state: KolossusState, piece: int, square: int) -> KolossusState:
    minis = list(state.minis)
    minis[piece] = square
    return edit(state, minis=tuple(minis))


def beaten(state: KolossusState, piece: int) -> KolossusState:
    """``piece`` off the board with the record of its beat."""
    record = BeatRecord(round=1, piece=piece, by=NE, cause="move")
    return edit(with_mini(state, piece, -1), beats=(record,))


def test_K_R01_the_miniatures_stand_on_the_121_squares_or_off_the_board() -> None:
    state = new_game()
    check_position(state)
    check_position(with_mini(state, pid(NW, "C"), 60))
    check_position(beaten(state, pid(NW, "C")))  # -1 with its beat record
    for square in (121, -2):
        refused = refusal(with_mini(state, pid(NW, "C"), square))
        assert refused.message == "The position needs 32 miniatures on squares 0..120 or -1."
    for minis in (state.minis[:31], (*state.minis, -1)):
        refused = refusal(edit(state, minis=minis))
        assert refused.message == "The position needs 32 miniatures on squares 0..120 or -1."


def test_K_R02_two_miniatures_never_share_a_square() -> None:
    state = new_game()
    twice = with_mini(state, pid(NW, "G"), state.minis[pid(NW, "C")])
    assert refusal(twice).message == "Two miniatures stand on one square."
    # Two beaten miniatures both at -1 are no clash.
    two_off = beaten(state, pid(NW, "W"))
    record = BeatRecord(round=1, piece=pid(NW, "W2"), by=NE, cause="move")
    check_position(edit(with_mini(two_off, pid(NW, "W2"), -1), beats=(*two_off.beats, record)))


def test_K_R01_the_landscape_map_is_11_rows_of_11_known_landscapes() -> None:
    state = new_game()
    rows = list(state.terrain)
    words = "The landscape map needs 11 rows of 11 of . W H M C."
    assert refusal(edit(state, terrain=tuple(rows[:10]))).message == words
    assert refusal(edit(state, terrain=(*rows, "." * 11))).message == words
    for bad_row in ("." * 10, "." * 12, "X" + "." * 10):
        refused = refusal(edit(state, terrain=(bad_row, *rows[1:])))
        assert refused.message == words


def test_K_R41_the_citadel_stands_on_the_board_exactly_once() -> None:
    state = new_game()
    flat = "".join(state.terrain)
    for terrain in (flat.replace("C", "M"), flat.replace(".", "C", 1)):
        rows = tuple(terrain[r * 11 : r * 11 + 11] for r in range(11))
        refused = refusal(edit(state, terrain=rows))
        assert refused.message == "The Citadel must stand on the board exactly once."
        assert refused.ruling == "K-R41"


def test_K_R25_each_warbands_mana_adds_up_to_20_from_chapter_two() -> None:
    state = new_game(chapter=2)
    check_position(state)
    for supply in (19, 21):
        refused = refusal(with_band(state, NE, supply=supply))
        assert refused.message == "yellow mana does not add up to 20."
        assert refused.ruling is None
    check_position(with_band(new_game(chapter=1), NE, supply=3))  # no mana in Chapter 1


def test_K_R15_the_crystals_add_up_to_twelve() -> None:
    state = new_game()
    capture = CrystalCapture(round=1, warband=NW, count=2)
    check_position(edit(state, crystals=0, crystal_supply=10, captures=(capture,)))
    refused = refusal(edit(state, crystals=1, crystal_supply=10, captures=(capture,)))
    assert refused.message == (
        "crystals (1 on the Citadel, 10 in the supply, 2 captured) do not add up to 12."
    )
    assert refused.ruling == "K-R15"
    assert "do not add up to 12" in refusal(edit(state, crystals=0)).message


def test_the_landscapes_never_outnumber_the_box() -> None:
    state = new_game()
    rows = list(state.terrain)
    woods = "".join(rows).count("W")
    assert woods == 24  # the whole box is on the board at the start
    rows[0] = "W" + rows[0][1:]
    refused = refusal(edit(state, terrain=tuple(rows)))
    assert refused.message == "terrain has 25 'W'; the box holds 24."
    hills = list(state.terrain)
    hills[0] = "H" + hills[0][1:]
    assert refusal(edit(state, terrain=tuple(hills))).message == (
        "terrain has 17 'H'; the box holds 16."
    )


def test_a_miniature_off_the_board_needs_the_record_of_its_beat() -> None:
    state = new_game()
    refused = refusal(with_mini(state, pid(NE, "G2"), -1))
    assert refused.message == (
        "minis[10] (Krell's Guardian) is off the board, but beats has no record of it being beaten."
    )
    # The record of another miniature's beat does not do.
    other = beaten(state, pid(NE, "G"))
    assert "minis[10]" in refusal(with_mini(other, pid(NE, "G2"), -1)).message


def test_K_R37_the_round_is_the_invasion_or_one_of_twelve() -> None:
    state = new_game()
    check_position(edit(state, round=12))
    check_position(edit(state, round=0))
    for rnd in (13, -1):
        refused = refusal(edit(state, round=rnd))
        assert refused.message == f"round {rnd} is not 0..12."
        assert refused.ruling == "K-R37"


def movement_roll(cls: str = "G") -> KolossusState:
    """The position where the first warband has chosen ``cls`` and must roll."""
    return act(in_turn(new_game(), NW, ap=4), {"type": "choose_class", "cls": cls})[0]


def test_K_R07_a_pending_roll_is_the_one_the_rules_ask_for() -> None:
    state = movement_roll()
    assert state.dice is not None
    check_position(state)
    no_class = edit(state, active_class=None)
    assert refusal(no_class).message == "dice asks for movement, but no class is chosen."
    lottery = edit(state, dice=state.dice.model_copy(update={"purpose": "lottery"}))
    assert refusal(lottery).message == ("dice.purpose 'lottery' is not quake, destiny or movement.")
    label = "Guardian movement: Tua'tha rolls 2d4"
    wrong = {
        "count": (3, "dice.count is 3; the rules ask for 2 here."),
        "sides": (6, "dice.sides is 6; the rules ask for 4 here."),
        "player": (1, "dice.player is 1; the rules ask for 0 here."),
        "label": ("x", "dice.label is 'x'; the rules ask for " + repr(label) + " here."),
    }
    for name, (value, words) in wrong.items():
        hand_made = edit(state, dice=state.dice.model_copy(update={name: value}))
        assert refusal(hand_made).message == words


@pytest.mark.parametrize(
    ("purpose", "label"),
    [("quake", "Great Quake: Tua'tha rolls 1d4"), ("destiny", "Die of Destiny: Tua'tha rolls 1d4")],
)
def test_K_R07_the_quake_and_destiny_rolls_are_one_d4_of_the_current_warband(
    purpose: str, label: str
) -> None:
    state = new_game()
    right = DiceRequest(purpose=purpose, label=label, count=1, sides=4, player=0)
    check_position(edit(state, dice=right))
    two = edit(state, dice=right.model_copy(update={"count": 2}))
    assert refusal(two).message == "dice.count is 2; the rules ask for 1 here."
