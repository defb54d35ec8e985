"""Kolossus manual corrections (RULINGS 0.2.1), word for word: every refusal's exact
sentence and ruling, the exact position after an accepted correction and the exact log
line a player reads. Small hand-made positions only (``tests/games/kolossus/helpers``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest

from companion.errors import RuleViolation
from companion.games.kolossus import RULES
from companion.games.kolossus.corrections import (
    activation_has_piece,
    correct_crystals,
    correct_landscape,
    correct_mana,
    correct_piece,
    correct_region,
    mana_template,
    parse_piece_id,
    piece_id,
    piece_id_words,
    templates,
)
from companion.games.kolossus.model import (
    BeatRecord,
    CorrectCrystals,
    CorrectLandscape,
    CorrectMana,
    CorrectPiece,
    CorrectRegion,
    CrystalCapture,
    KolossusState,
)
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    charge,
    in_turn,
    new_game,
    pid,
    place,
    ready_to_move,
    sq,
    with_band,
)

A = TypeVar("A")


def refusal(
    correct: Callable[[KolossusState, A], object], state: KolossusState, action: A
) -> tuple[str, str | None]:
    """The exact words and ruling of a refused correction."""
    with pytest.raises(RuleViolation) as info:
        correct(state, action)
    return info.value.message, info.value.ruling


def applied(state: KolossusState, action: object) -> tuple[KolossusState, list[str]]:
    """A correction through the rules: the state after and every log line."""
    new, events = RULES.apply(state, action)  # type: ignore[arg-type]
    return new, [e.text for e in events]


# --- piece ids ------------------------------------------------------------------------


def test_0_2_1_piece_ids_follow_the_corners_colours_K_R21() -> None:
    state = new_game(colours=("red", "green", "yellow", "blue"))
    assert piece_id(state, 0) == "red-C"
    assert piece_id(state, pid(NE, "G2")) == "green-G2"
    assert piece_id(state, pid(SE, "W")) == "yellow-W1"
    assert piece_id(state, pid(SW, "W5")) == "blue-W5"
    assert parse_piece_id(state, "  green-G2 ") == pid(NE, "G2")
    assert parse_piece_id(state, "blue-W5") == pid(SW, "W5")


def test_0_2_1_an_unknown_piece_id_is_refused_with_how_pieces_are_named() -> None:
    state = new_game()
    assert refusal(parse_piece_id, state, "pink-C") == (
        "There is no miniature 'pink-C'; pieces are named like blue-C, blue-G1, blue-W5.",
        "0.2.1",
    )
    assert refusal(correct_piece, state, CorrectPiece(piece="blue-W6", row=4, col=4)) == (
        "There is no miniature 'blue-W6'; pieces are named like blue-C, blue-G1, blue-W5.",
        "0.2.1",
    )


def test_0_2_1_a_piece_id_in_players_words() -> None:
    assert piece_id_words("blue-W1") == "Tua'tha's Warrior 1"
    assert piece_id_words(" yellow-G2 ") == "Krell's Guardian 2"
    assert piece_id_words("green-C") == "Ishtari's Colossus"
    assert piece_id_words("red-W5") == "Firbolg's Warrior 5"
    assert piece_id_words("pink-G1") == "pink's Guardian 1"  # an unknown colour as it is
    for text in ("blue", "blue-", "blue-X1", "-"):
        assert piece_id_words(text) == text
    assert piece_id_words("blue-G-2") == "Tua'tha's Guardian -2"  # the colour ends at a dash


# --- a miniature --------------------------------------------------------------------------


def test_0_2_1_a_row_without_a_column_is_refused_either_way_round() -> None:
    state = new_game()
    words = ("Give both a row and a column, or neither for a beaten miniature.", "0.2.1")
    assert refusal(correct_piece, state, CorrectPiece(piece="blue-C", row=4)) == words
    assert refusal(correct_piece, state, CorrectPiece(piece="blue-C", col=4)) == words


def test_0_2_1_a_piece_already_where_it_is_said_to_be_is_nothing_to_correct() -> None:
    state = place(new_game(), {pid(NE, "W3"): None})
    assert refusal(correct_piece, state, CorrectPiece(piece="blue-C", row=0, col=0)) == (
        "Nothing to correct: Tua'tha's Colossus is already on (0, 0).",
        "0.2.1",
    )
    assert refusal(correct_piece, state, CorrectPiece(piece="yellow-W3")) == (
        "Nothing to correct: Krell's Warrior 3 is already beaten.",
        "0.2.1",
    )


def test_0_2_1_two_miniatures_never_share_a_square_in_exact_words() -> None:
    state = new_game()
    assert refusal(correct_piece, state, CorrectPiece(piece="blue-C", row=0, col=1)) == (
        "Tua'tha's Guardian already stands on (0, 1): two miniatures cannot share a square.",
        "0.2.1",
    )
    assert refusal(correct_piece, state, CorrectPiece(piece="red-W2", row=10, col=10)) == (
        "Ishtari's Colossus already stands on (10, 10): two miniatures cannot share a square.",
        "0.2.1",
    )


def test_0_2_1_a_moved_piece_stands_on_its_new_square_and_nothing_is_beaten() -> None:
    state = in_turn(new_game(), NW, round_=3)
    new, text = correct_piece(state, CorrectPiece(piece="yellow-G1", row=3, col=4))
    assert text == "Krell's Guardian 1: (0, 9) → (3, 4)."
    minis = list(state.minis)
    minis[pid(NE, "G")] = sq("3,4")
    assert new == state.evolve({"minis": tuple(minis)})


def test_0_2_1_a_piece_corrected_away_is_beaten_by_nobody_in_this_round() -> None:
    state = in_turn(new_game(), NW, round_=3)
    new, text = correct_piece(state, CorrectPiece(piece="green-W3"))
    assert text == "Ishtari's Warrior 3: (10, 8) → beaten."
    assert new.minis[pid(SE, "W3")] == -1
    assert new.beats == (BeatRecord(round=3, piece=pid(SE, "W3"), by=None, cause="correction"),)
    back, text = correct_piece(new, CorrectPiece(piece="green-W3", row=6, col=6))
    assert text == "Ishtari's Warrior 3: beaten → (6, 6)."
    assert back.minis[pid(SE, "W3")] == sq("6,6")
    assert back.beats == new.beats  # putting a miniature back beats nobody


# --- a warband's mana -------------------------------------------------------------------


def mana(state: KolossusState, wb: int, **update: object) -> CorrectMana:
    return mana_template(state.warbands[wb]).model_copy(update=update)


def test_0_2_1_a_mana_template_reads_every_count_of_the_character_board() -> None:
    state = new_game(chapter=3)
    state = with_band(
        state, NE, supply=1, skills=(1, 2, 3, 4, 5, 0), pool=3, income=1, charges=(0, 2, 0, 0)
    )
    assert mana_template(state.warbands[NE]) == CorrectMana(
        warband="yellow",
        supply=1,
        warrior_attack=1,
        warrior_defence=2,
        guardian_attack=3,
        guardian_defence=4,
        colossus_attack=5,
        colossus_defence=0,
        pool=3,
        income=1,
        whip=True,
    )
    every = with_band(state, SW, charges=(2, 2, 2, 2), supply=12)
    template = mana_template(every.warbands[SW])
    assert (template.sword, template.whip, template.spear, template.hammer) == (True,) * 4
    assert (template.warband, template.supply) == ("red", 12)


def test_0_2_1_there_is_no_mana_to_correct_in_chapter_1() -> None:
    state = in_turn(new_game(), NW)
    assert refusal(correct_mana, state, CorrectMana(warband="blue", supply=20)) == (
        "There is no mana before Chapter 2.",
        "0.2.1",
    )


def test_0_2_1_K_R25_mana_is_corrected_only_after_the_starting_skills() -> None:
    placement = new_game(chapter=2)
    skills = placement.evolve({"phase": "skills"})
    action = CorrectMana(warband="blue", supply=16, warrior_attack=4)
    for state in (placement, skills):
        assert refusal(correct_mana, state, action) == (
            "Put the starting 4 mana on the skills first.",
            "K-R25",
        )
    assert correct_mana(in_turn(placement, NW), action)[0].warbands[NW].skills == (
        4,
        0,
        0,
        0,
        0,
        0,
    )


def test_0_2_1_mana_that_already_lies_so_is_nothing_to_correct() -> None:
    state = in_turn(new_game(chapter=2), NW)
    assert refusal(correct_mana, state, mana(state, NE)) == (
        "Nothing to correct: Krell's mana already lies like this.",
        "0.2.1",
    )


@pytest.mark.parametrize(
    ("field", "label"),
    [
        ("supply", "supply"),
        ("pool", "pool"),
        ("income", "income"),
        ("warrior_attack", "Warrior Attack"),
        ("warrior_defence", "Warrior Defence"),
        ("guardian_attack", "Guardian Attack"),
        ("guardian_defence", "Guardian Defence"),
        ("colossus_attack", "Colossus Attack"),
        ("colossus_defence", "Colossus Defence"),
    ],
)
def test_0_2_1_a_negative_mana_count_is_refused_by_its_name(field: str, label: str) -> None:
    state = in_turn(new_game(chapter=3), NW)
    action = mana(state, SE, **{field: -1})
    assert refusal(correct_mana, state, action) == (
        f"Ishtari's {label} cannot be less than 0; -1 is not possible.",
        "0.2.1",
    )


def test_0_2_1_K_R24_no_pool_and_no_charged_weapon_before_chapter_3() -> None:
    state = in_turn(new_game(chapter=2), NW)
    words = ("There is no mana pool and no Titan Weapon before Chapter 3.", "K-R24")
    assert refusal(correct_mana, state, mana(state, NE, supply=19, pool=1)) == words
    assert refusal(correct_mana, state, mana(state, NE, supply=18, whip=True)) == words
    three = in_turn(new_game(chapter=3), NW)
    new, text = correct_mana(three, mana(three, NE, supply=17, pool=1, whip=True))
    assert (new.warbands[NE].pool, new.warbands[NE].charges) == (1, (0, 2, 0, 0))
    assert text == "Krell's mana: supply 20 → 17, pool 0 → 1, Whip of Wrath charge 0 → 2."


def test_0_2_1_K_R36_the_pool_holds_at_most_5() -> None:
    state = in_turn(new_game(chapter=3), NW)
    assert refusal(correct_mana, state, mana(state, NE, supply=14, pool=6)) == (
        "The mana pool holds at most 5.",
        "K-R36",
    )
    assert correct_mana(state, mana(state, NE, supply=15, pool=5))[0].warbands[NE].pool == 5


def test_0_2_1_K_R26_only_the_warbands_own_weapon_is_charged() -> None:
    state = in_turn(new_game(chapter=3), NW)
    assert refusal(correct_mana, state, mana(state, NE, supply=18, hammer=True)) == (
        "Krell's Titan Weapon is not the Hammer of Doom.",
        "K-R26",
    )
    assert refusal(correct_mana, state, mana(state, NW, supply=18, spear=True)) == (
        "Tua'tha's Titan Weapon is not the Spear of Vengeance.",
        "K-R26",
    )
    every = in_turn(new_game(chapter=3, titan_weapons="all_four"), NW)
    new, text = correct_mana(every, mana(every, NE, supply=16, sword=True, hammer=True))
    assert new.warbands[NE].charges == (2, 0, 0, 2)
    assert text == (
        "Krell's mana: supply 20 → 16, Sword of Storm charge 0 → 2, Hammer of Doom charge 0 → 2."
    )


def test_0_2_1_K_R24_only_the_warband_on_its_turn_holds_income_after_its_roll() -> None:
    words = (
        "Only the warband whose turn it is holds unallocated income, after its roll.",
        "K-R24",
    )
    state = in_turn(new_game(chapter=2), NE)  # Krell's turn
    assert refusal(correct_mana, state, mana(state, NW, supply=19, income=1)) == words
    new, text = correct_mana(state, mana(state, NE, supply=19, income=1))
    assert new.warbands[NE].income == 1
    assert text == "Krell's mana: supply 20 → 19, income 0 → 1."
    before_roll = state.evolve({"phase": "destiny"})
    assert refusal(correct_mana, before_roll, mana(state, NE, supply=19, income=1)) == words
    later = state.evolve({"first": SE, "turn": 3})  # Ishtari first: Krell is fourth
    assert correct_mana(later, mana(later, NE, supply=19, income=1))[0].warbands[NE].income == 1


@pytest.mark.parametrize("phase", ["quake", "quake_allocate", "move_roll", "move", "after_move"])
def test_0_2_1_K_R24_income_is_held_from_the_roll_to_the_allocation(phase: str) -> None:
    state = in_turn(new_game(chapter=2), NE).evolve({"phase": phase})
    assert correct_mana(state, mana(state, NE, supply=18, income=2))[0].warbands[NE].income == 2


def test_0_2_1_K_R25_a_warbands_mana_adds_up_to_20() -> None:
    state = in_turn(new_game(chapter=3), NW)
    assert refusal(correct_mana, state, mana(state, NE, pool=1)) == (
        "A warband has 20 mana tokens; these add up to 21 (adjust the supply).",
        "0.2.1",
    )
    for update, total in (
        ({"supply": 17, "warrior_attack": 1, "guardian_defence": 1}, 19),
        ({"supply": 17, "colossus_defence": 1, "pool": 1}, 19),
        ({"supply": 17, "whip": True}, 19),
        ({"supply": 19, "warrior_defence": 1, "guardian_attack": 1, "colossus_attack": 1}, 22),
    ):
        message, _ = refusal(correct_mana, state, mana(state, NE, **update))
        assert (
            message == f"A warband has 20 mana tokens; these add up to {total} (adjust the supply)."
        )


def test_0_2_1_a_mana_correction_sets_every_count_and_names_each_change() -> None:
    state = in_turn(new_game(chapter=3), NE)
    update = {
        "supply": 0,
        "warrior_attack": 1,
        "warrior_defence": 2,
        "guardian_attack": 3,
        "guardian_defence": 4,
        "colossus_attack": 2,
        "colossus_defence": 1,
        "pool": 4,
        "income": 1,
        "whip": True,
    }
    new, text = correct_mana(state, mana(state, NE, **update))
    assert new.warbands[NE] == state.warbands[NE].evolve(
        {"supply": 0, "skills": (1, 2, 3, 4, 2, 1), "pool": 4, "income": 1, "charges": (0, 2, 0, 0)}
    )
    assert new.warbands[:1] == state.warbands[:1] and new.warbands[2:] == state.warbands[2:]
    assert text == (
        "Krell's mana: supply 20 → 0, Warrior Attack 0 → 1, Warrior Defence 0 → 2, "
        "Guardian Attack 0 → 3, Guardian Defence 0 → 4, Colossus Attack 0 → 2, "
        "Colossus Defence 0 → 1, pool 0 → 4, income 0 → 1, Whip of Wrath charge 0 → 2."
    )
    spent = charge(state, NW, "sword")
    new, text = correct_mana(spent, mana(spent, NW, supply=20, sword=False))
    assert new.warbands[NW].charges == (0, 0, 0, 0)
    assert text == "Tua'tha's mana: supply 18 → 20, Sword of Storm charge 2 → 0."


# --- the crystals ---------------------------------------------------------------------------


def test_0_2_1_negative_crystal_counts_are_refused_by_where_they_lie() -> None:
    state = in_turn(new_game(), NW)
    cases = (
        (CorrectCrystals(citadel=-1, supply=13), "Crystals on the Citadel"),
        (CorrectCrystals(citadel=13, supply=-1), "Crystals on the supply"),
        (CorrectCrystals(citadel=2, supply=11, blue=-1), "Crystals captured by Tua'tha"),
        (CorrectCrystals(citadel=2, supply=11, yellow=-1), "Crystals captured by Krell"),
        (CorrectCrystals(citadel=2, supply=11, green=-1), "Crystals captured by Ishtari"),
        (CorrectCrystals(citadel=2, supply=11, red=-1), "Crystals captured by Firbolg"),
    )
    for action, what in cases:
        assert refusal(correct_crystals, state, action) == (
            f"{what} cannot be less than 0; -1 is not possible.",
            "0.2.1",
        )


def test_0_2_1_the_12_crystals_add_up_wherever_they_lie() -> None:
    state = in_turn(new_game(), NW)
    for action, total in (
        (CorrectCrystals(citadel=2, supply=11), 13),
        (CorrectCrystals(citadel=1, supply=10), 11),
        (CorrectCrystals(citadel=0, supply=11, green=1, red=1), 13),
    ):
        assert refusal(correct_crystals, state, action) == (
            f"There are 12 Crystals of Time; these add up to {total}.",
            "0.2.1",
        )
    assert refusal(correct_crystals, state, CorrectCrystals(citadel=1, supply=11)) == (
        "Nothing to correct: the crystals already lie like this.",
        "0.2.1",
    )


def captured(state: KolossusState, *caps: tuple[int, int, int]) -> KolossusState:
    """``state`` with these captures (round, warband, count), the rest in the supply."""
    taken = sum(count for _, _, count in caps)
    return state.evolve(
        {
            "crystals": 0,
            "crystal_supply": 12 - taken,
            "captures": tuple(CrystalCapture(round=r, warband=w, count=n) for r, w, n in caps),
        }
    )


def test_0_2_1_K_R19_fewer_captured_crystals_come_off_the_latest_captures() -> None:
    state = captured(in_turn(new_game(), NW, round_=5), (1, NW, 1), (2, NE, 2), (3, NW, 2))
    new, text = correct_crystals(state, CorrectCrystals(citadel=0, supply=8, blue=2, yellow=2))
    assert new.captures == (
        CrystalCapture(round=1, warband=NW, count=1),
        CrystalCapture(round=2, warband=NE, count=2),
        CrystalCapture(round=3, warband=NW, count=1),
    )
    assert text == "Crystals on the Citadel 0 → 0, supply 7 → 8, captured: Tua'tha 3 → 2."
    new, _ = correct_crystals(state, CorrectCrystals(citadel=0, supply=9, blue=1, yellow=2))
    assert new.captures == state.captures[:2]  # the latest capture of 2 is gone whole
    new, text = correct_crystals(state, CorrectCrystals(citadel=1, supply=9, yellow=2))
    assert new.captures == state.captures[1:2]  # both of Tua'tha's captures are gone
    assert text == "Crystals on the Citadel 0 → 1, supply 7 → 9, captured: Tua'tha 3 → 0."


def test_0_2_1_K_R19_more_captured_crystals_are_a_capture_in_this_round() -> None:
    state = captured(in_turn(new_game(), NW, round_=5), (1, NW, 1), (2, NE, 2))
    action = CorrectCrystals(citadel=2, supply=3, blue=1, yellow=3, green=1, red=2)
    new, text = correct_crystals(state, action)
    assert new == state.evolve(
        {
            "crystals": 2,
            "crystal_supply": 3,
            "captures": (
                *state.captures,
                CrystalCapture(round=5, warband=NE, count=1),
                CrystalCapture(round=5, warband=SE, count=1),
                CrystalCapture(round=5, warband=SW, count=2),
            ),
        }
    )
    assert text == (
        "Crystals on the Citadel 0 → 2, supply 9 → 3, "
        "captured: Krell 2 → 3, Ishtari 0 → 1, Firbolg 0 → 2."
    )
    new, text = correct_crystals(state, CorrectCrystals(citadel=3, supply=6, blue=1, yellow=2))
    assert new.captures == state.captures
    assert text == "Crystals on the Citadel 0 → 3, supply 9 → 6."


# --- landscapes and regions ------------------------------------------------------------------


def test_0_2_1_K_R41_the_citadel_is_not_corrected_away_in_exact_words() -> None:
    state = in_turn(new_game(), NW)
    assert refusal(correct_landscape, state, CorrectLandscape(row=5, col=5, landscape="woods")) == (
        "The Citadel of Time stands on (5, 5); it never leaves the board.",
        "K-R41",
    )


def test_0_2_1_a_landscape_already_there_is_nothing_to_correct() -> None:
    state = in_turn(new_game(), NW)
    for row, col, landscape, holds in (
        (0, 0, "bare", "bare board"),
        (2, 2, "woods", "Woods"),
        (3, 4, "hills", "Hills"),
        (6, 4, "mountains", "Mountains"),
    ):
        action = CorrectLandscape(row=row, col=col, landscape=landscape)
        assert refusal(correct_landscape, state, action) == (
            f"Nothing to correct: ({row}, {col}) already holds {holds}.",
            "0.2.1",
        )


def test_0_2_1_K_R01_no_more_landscapes_than_the_box_holds() -> None:
    state = in_turn(new_game(), NW)
    for landscape, words in (
        ("woods", "The game has only 24 Woods landscapes."),
        ("hills", "The game has only 16 Hills landscapes."),
        ("mountains", "The game has only 8 Mountains landscapes."),
    ):
        action = CorrectLandscape(row=0, col=5, landscape=landscape)
        assert refusal(correct_landscape, state, action) == (words, "0.2.1")
    fewer, text = correct_landscape(state, CorrectLandscape(row=3, col=3, landscape="bare"))
    assert text == "(3, 3): Hills → bare board."
    assert fewer.terrain == (*state.terrain[:3], "..W.HHHHW..", *state.terrain[4:])
    assert state.terrain[3] == "..WHHHHHW.."
    back, text = correct_landscape(fewer, CorrectLandscape(row=0, col=5, landscape="hills"))
    assert text == "(0, 5): bare board → Hills."
    assert back.terrain == (".....H.....", *fewer.terrain[1:])
    bare, text = correct_landscape(back, CorrectLandscape(row=4, col=4, landscape="bare"))
    assert text == "(4, 4): Mountains → bare board."
    assert bare.terrain[4] == "..WH.MMHW.."


def test_0_2_1_K_R04_a_region_moves_only_along_its_own_axis() -> None:
    state = in_turn(new_game(), NW)
    for region, direction in (("row5", "north"), ("row5", "south"), ("col5", "east")):
        action = CorrectRegion(region=region, direction=direction)
        assert refusal(correct_region, state, action) == (
            "A row moves east or west, a column north or south.",
            "K-R04",
        )


def test_0_2_1_K_R41_no_region_correction_pushes_the_citadel_off() -> None:
    state = in_turn(new_game(), NW)
    action = CorrectRegion(region="col5", direction="south", distance=6)
    assert refusal(correct_region, state, action) == (
        "The Citadel of Time never leaves the board.",
        "K-R41",
    )


def test_0_2_1_a_region_with_nothing_on_it_is_nothing_to_correct() -> None:
    state = place(in_turn(new_game(), NW), {pid(NW, "C"): None, pid(NW, "G"): None})
    state = place(state, {pid(NW, "W2"): None, pid(NE, "C"): None, pid(NE, "G"): None})
    state = place(state, {pid(NE, "W2"): None})
    assert refusal(correct_region, state, CorrectRegion(region="row0", direction="east")) == (
        "Nothing to correct: row 0 holds nothing that would move.",
        "0.2.1",
    )


def test_0_2_1_K_R04_a_corrected_region_shifts_rigidly_and_beats_what_falls_off() -> None:
    state = in_turn(new_game(), NW, round_=4)
    new, text = correct_region(state, CorrectRegion(region="row0", direction="east", distance=2))
    assert text == "Row 0 shifted east by 2 squares, 2 miniatures beaten."
    assert new.beats == (
        BeatRecord(round=4, piece=pid(NE, "C"), by=None, cause="correction"),
        BeatRecord(round=4, piece=pid(NE, "G"), by=None, cause="correction"),
    )
    assert [new.minis[pid(NW, s)] for s in ("C", "G", "W2")] == [sq("0,2"), sq("0,3"), sq("0,4")]
    assert new.minis[pid(NE, "W2")] == sq("0,10")
    new, text = correct_region(state, CorrectRegion(region="row5", direction="west"))
    assert text == "Row 5 shifted west by 1 square."
    assert new.terrain[5] == ".WHMCMHW..." and new.beats == ()
    one, text = correct_region(state, CorrectRegion(region="col0", direction="north"))
    assert text == "Column 0 shifted north by 1 square, 1 miniature beaten."
    assert one.beats == (BeatRecord(round=4, piece=pid(NW, "C"), by=None, cause="correction"),)


def test_0_2_1_K_R04_a_corrected_region_follows_the_push_model() -> None:
    state = in_turn(new_game(region_move_model="push_compress"), NW)
    new, text = correct_region(state, CorrectRegion(region="row0", direction="east", distance=2))
    assert text == "Row 0 shifted east by 2 squares."  # pushed: nothing reaches the edge
    assert [new.minis[pid(NW, s)] for s in ("C", "G", "W2")] == [sq("0,2"), sq("0,3"), sq("0,4")]
    assert new.minis[8:] == state.minis[8:] and new.beats == ()


# --- the consequences ---------------------------------------------------------------------------


def test_0_2_1_K_R08_a_chosen_class_left_without_miniatures_gives_its_points_back() -> None:
    state = in_turn(new_game(), NW, ap=4)
    chosen, _ = act(state, {"type": "choose_class", "cls": "C"})
    new, texts = applied(chosen, CorrectPiece(piece="blue-C"))
    assert texts == [
        "Manual correction: Tua'tha's Colossus: (0, 0) → beaten.",
        "No Colossus is left to move: the activation is cancelled; 4 activation points left.",
    ]
    assert (new.phase, new.dice, new.ap, new.active_class, new.mp) == ("turn", None, 4, None, 0)
    moving = ready_to_move(new_game(), NW, "W", 3)
    moving = moving.evolve({"ap": 0, "activated": (pid(NW, "W"), pid(NW, "W2"))})
    for slot in ("W3", "W4"):
        moving = place(moving, {pid(NW, slot): None})
    new, texts = applied(moving, CorrectPiece(piece="blue-W5"))
    assert texts[1] == (
        "No Warrior is left to move: the activation is cancelled; 1 activation point left."
    )
    assert (new.phase, new.dice, new.ap, new.active_class, new.mp) == ("turn", None, 1, None, 0)


def test_0_2_1_K_R08_an_activated_or_other_warbands_piece_does_not_keep_the_class() -> None:
    state = ready_to_move(new_game(), NW, "G", 5)
    assert activation_has_piece(state)
    state = state.evolve({"activated": (pid(NW, "G"),)})
    assert activation_has_piece(state)
    alone = place(state, {pid(NW, "G2"): None})
    assert not activation_has_piece(alone)  # NE's Guardians are not NW's
    other_turn = ready_to_move(new_game(), NE, "G", 5)
    other_turn = place(other_turn, {pid(NE, "G"): None, pid(NE, "G2"): None})
    assert not activation_has_piece(other_turn)
    colossus = ready_to_move(new_game(), SW, "C", 5)
    assert activation_has_piece(colossus)
    home = ready_to_move(new_game(), NW, "C", 5)  # Tua'tha's Colossus on square 0, (0, 0)
    assert activation_has_piece(home)
    assert not activation_has_piece(colossus.evolve({"activated": (pid(SW, "C"),)}))


def test_0_2_1_K_R14_a_beaten_waiting_colossus_ends_its_activation() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0", pid(NE, "W2"): "4,3"})
    state = ready_to_move(charge(state, NW, "spear"), NW, "C", 4)
    waiting, _ = act(state, {"type": "move", "from": "5,0", "to": "4,0"})
    assert waiting.phase == "after_move"
    new, texts = applied(waiting, CorrectPiece(piece="blue-C"))
    assert texts == [
        "Manual correction: Tua'tha's Colossus: (4, 0) → beaten.",
        "The beaten Colossus's activation ends.",
    ]
    assert (new.phase, new.active_piece, new.mp, new.active_class) == ("turn", None, 0, None)
    kept, texts = applied(waiting, CorrectPiece(piece="green-W1", row=6, col=0))
    assert kept.phase == "after_move" and len(texts) == 1  # its Spear still has a target


# --- the templates ---------------------------------------------------------------------------


def test_0_2_1_the_templates_restate_the_whole_table() -> None:
    state = in_turn(new_game(chapter=2), NW)
    state = place(state, {pid(SE, "W2"): None})
    state = captured(state, (1, NE, 2), (2, SW, 1), (3, NE, 1)).evolve({"crystals": 3})
    state = state.evolve(
        {"crystal_supply": 5, "terrain": ("W" + state.terrain[0][1:], *state.terrain[1:])}
    )
    found = templates(state)
    pieces = [t for t in found if isinstance(t, CorrectPiece)]
    assert len(pieces) == 32
    assert pieces[0] == CorrectPiece(piece="blue-C", row=0, col=0)
    assert pieces[pid(SE, "W2")] == CorrectPiece(piece="green-W2", row=None, col=None)
    assert pieces[pid(SW, "G2")] == CorrectPiece(piece="red-G2", row=10, col=1)
    assert [t for t in found if isinstance(t, CorrectMana)] == [
        mana_template(band) for band in state.warbands
    ]
    assert found[-3:] == (
        CorrectCrystals(citadel=3, supply=5, blue=0, yellow=3, green=0, red=1),
        CorrectLandscape(row=0, col=0, landscape="woods"),
        CorrectRegion(region="row5", direction="east", distance=1),
    )
    assert len(found) == 32 + 4 + 3
    assert CorrectLandscape(row=0, col=0, landscape="bare") in templates(in_turn(new_game(), NW))
    assert len(templates(in_turn(new_game(), NW))) == 32 + 3  # no mana in Chapter 1
    assert len(templates(new_game(chapter=3).evolve({"phase": "skills"}))) == 32 + 3  # K-R25


def test_0_2_1_K_R19_fewer_crystals_come_off_one_capture_after_another_latest_first() -> None:
    state = captured(in_turn(new_game(), NW), (1, NW, 1), (2, NW, 1), (3, NW, 1))
    new, _ = correct_crystals(state, CorrectCrystals(citadel=0, supply=11, blue=1))
    assert new.captures == (CrystalCapture(round=1, warband=NW, count=1),)


def test_0_2_1_the_landscape_template_of_a_citadel_corner_offers_bare_board() -> None:
    """The template names (0, 0); with the Citadel pushed there it offers bare board (the
    Citadel itself is never corrected: K-R41)."""
    state = in_turn(new_game(), NW)
    terrain = ("C" + state.terrain[0][1:], *state.terrain[1:5], "..WHMMMHW..", *state.terrain[6:])
    found = templates(state.evolve({"terrain": terrain}))
    assert CorrectLandscape(row=0, col=0, landscape="bare") in found


def test_0_2_1_a_piece_put_back_on_square_0_is_logged_on_its_square() -> None:
    state = place(in_turn(new_game(), NW), {pid(NW, "C"): None})
    new, text = correct_piece(state, CorrectPiece(piece="blue-C", row=0, col=0))
    assert text == "Tua'tha's Colossus: beaten → (0, 0)."
    assert new.minis[pid(NW, "C")] == 0


def test_0_2_1_K_R08_a_hand_made_activation_without_a_class_refunds_a_warriors_point() -> None:
    """A position loaded with a move phase but no class: the cancel says Warrior."""
    state = ready_to_move(new_game(), NW, "W", 2).evolve({"active_class": None, "ap": 2})
    new, texts = applied(state, CorrectPiece(piece="red-W1", row=5, col=5))
    assert texts[1] == (
        "No Warrior is left to move: the activation is cancelled; 3 activation points left."
    )
    assert (new.phase, new.ap, new.active_class) == ("turn", 3, None)


def test_0_2_1_K_R28_only_a_colossus_waiting_after_its_move_is_looked_after() -> None:
    """A stale waiting piece outside the Spear-or-Hammer step is left alone."""
    state = place(in_turn(new_game(), NW), {pid(NW, "C"): None})
    stale = state.evolve({"active_piece": pid(NW, "C")})
    new, texts = applied(stale, CorrectPiece(piece="red-W1", row=5, col=5))
    assert len(texts) == 1 and new.phase == "turn" and new.active_piece == pid(NW, "C")


def test_0_2_1_K_R28_a_colossus_waiting_on_square_0_keeps_waiting() -> None:
    """Tua'tha's Colossus waits on (0, 0), square 0: it is not beaten."""
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "G"): None, pid(NE, "W"): "0,1"})
    state = ready_to_move(charge(state, NW, "spear"), NW, "C", 3)
    waiting = act(state, {"type": "move", "from": "0,0", "to": "0,0"})[0]
    assert waiting.phase == "after_move"
    new, texts = applied(waiting, CorrectPiece(piece="red-W1", row=5, col=5))
    assert len(texts) == 1 and new.phase == "after_move" and new.active_piece == pid(NW, "C")


def test_0_2_1_a_mana_template_tells_the_spear_from_the_hammer() -> None:
    state = with_band(new_game(chapter=3), SE, charges=(0, 0, 2, 0), supply=18)
    template = mana_template(state.warbands[SE])
    assert (template.sword, template.whip, template.spear, template.hammer) == (
        False,
        False,
        True,
        False,
    )
