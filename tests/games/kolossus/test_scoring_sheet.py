"""How a Kolossus game ends in words and figures: the result after round 12 (K-R18,
K-R19), an elimination (K-R20), the outcome's winners and the score sheet's rows."""

from __future__ import annotations

from typing import Any

from companion.games.kolossus import RULES
from companion.games.kolossus.model import BeatRecord, CrystalCapture, KolossusState
from companion.games.kolossus.scoring import check_elimination, final_result
from tests.games.kolossus.helpers import NE, NW, SE, SW, in_turn, new_game, pid, place


def captured(*captures: tuple[int, int], **options: Any) -> KolossusState:
    """A game whose warbands captured (warband, count) in rounds 1, 2, ..."""
    caps = tuple(
        CrystalCapture(round=n + 1, warband=wb, count=count)
        for n, (wb, count) in enumerate(captures)
    )
    return new_game(**options).model_copy(update={"captures": caps, "round": 12})


def test_K_R18_the_majority_wins_in_words() -> None:
    result = final_result(captured((NW, 2), (NE, 1), (SE, 1)))
    assert (result.alliance, result.reason) == (0, "crystal_majority")
    assert result.text == "Tua'tha and Ishtari win with 3 crystals to 1."
    seven = final_result(captured((SW, 7), (NW, 1), crystal_majority="absolute_7"))
    assert (seven.alliance, seven.text) == (1, "Krell and Firbolg win with 7 crystals to 1.")


def test_K_R19_no_majority_the_last_capture_wins_and_none_is_a_draw() -> None:
    tie = final_result(captured((NE, 2), (SE, 2)))
    assert (tie.alliance, tie.reason) == (0, "last_crystal")
    assert (
        tie.text == "Tua'tha and Ishtari took the last crystal and win (no majority: 2–2, K-R19)."
    )
    short = final_result(captured((NW, 6), (NE, 5), crystal_majority="absolute_7"))
    assert (short.alliance, short.reason) == (1, "last_crystal")
    assert (
        short.text == "Krell and Firbolg took the last crystal and win (no majority: 6–5, K-R19)."
    )
    none = final_result(captured())
    assert (none.alliance, none.reason) == (None, "no_capture")
    assert none.text == "No crystal was captured: a draw (K-R19)."


def wiped(state: KolossusState, *warbands: int) -> KolossusState:
    return place(state, {p: None for p in range(32) if p // 8 in warbands})


def test_K_R20_an_elimination_and_a_simultaneous_one_in_words() -> None:
    state = in_turn(new_game(), NE)
    assert check_elimination(state) == (state, ())
    over, events = check_elimination(wiped(state, SW))
    assert over.phase == "over" and over.dice is None
    assert over.result is not None and over.result.alliance == 0
    assert over.result.reason == "elimination"
    assert [e.text for e in events] == [
        "Krell and Firbolg lost a warband: Tua'tha and Ishtari win (K-R20)."
    ]
    both = check_elimination(wiped(state, NW, SW))[0].result
    assert both is not None and (both.alliance, both.reason) == (None, "simultaneous_elimination")
    assert both.text == "Both alliances were wiped out at once: a draw (K-R20)."
    actor = in_turn(new_game(simultaneous_elimination="active_alliance_loses"), NE)
    loses = check_elimination(wiped(actor, NW, SW))[0].result
    assert loses is not None and loses.alliance == 0
    assert (
        loses.text == "Both wiped out; the acting alliance loses: Tua'tha and Ishtari win (K-R20)."
    )


def test_K_R20_a_last_miniature_on_the_corner_square_keeps_its_warband_in() -> None:
    """The board's first square, 0,0, is a square like any other: a miniature on it keeps
    its warband in the game."""
    state = in_turn(new_game(), NE)
    last = place(wiped(state, SW), {pid(SW, "C"): "0,0"})
    assert check_elimination(last) == (last, ())
    assert check_elimination(wiped(last, SW))[0].phase == "over"


def test_K_R20_per_player_a_player_loses_only_with_every_warband() -> None:
    two = new_game(2, elimination_unit="player")  # Ann: NW and SE, Bob: NE and SW
    assert check_elimination(wiped(two, NW))[0].phase != "over"
    over = check_elimination(wiped(two, NW, SE))[0]
    assert over.result is not None and over.result.alliance == 1
    four = new_game(4, elimination_unit="player")
    assert check_elimination(wiped(four, NE))[0].result is not None


def test_K_R20_the_outcome_names_the_players_of_the_winning_alliance() -> None:
    three = new_game(3)  # Ann runs NW and SE
    over = check_elimination(wiped(three, NE))[0]
    outcome = RULES.outcome(over)
    assert outcome is not None and over.result is not None
    assert (outcome.winners, outcome.reason) == ((0,), "elimination")
    assert outcome.text == over.result.text
    draw = RULES.outcome(check_elimination(wiped(three, NW, NE))[0])
    assert draw is not None and draw.winners == ()
    assert RULES.outcome(three) is None


def test_the_score_sheet_counts_each_rounds_beats_per_warband_and_alliance() -> None:
    beats = (
        BeatRecord(round=1, piece=9, by=NW, cause="move"),
        BeatRecord(round=2, piece=10, by=NW, cause="move"),
        BeatRecord(round=2, piece=11, by=NW, cause="sword"),
        BeatRecord(round=2, piece=12, by=SE, cause="move"),
        BeatRecord(round=2, piece=1, by=SW, cause="spear"),
        BeatRecord(round=2, piece=3, by=SW, cause="move"),
        BeatRecord(round=2, piece=2, by=None, cause="correction"),
    )
    captures = (
        CrystalCapture(round=1, warband=SE, count=1),
        CrystalCapture(round=2, warband=SE, count=2),
        CrystalCapture(round=2, warband=NE, count=1),
    )
    state = new_game().model_copy(update={"round": 2, "beats": beats, "captures": captures})
    sheet = RULES.scores(state)
    assert sheet.measure == "crystals"
    assert sheet.columns == ("Tua'tha", "Krell", "Ishtari", "Firbolg", "NW+SE", "NE+SW")
    assert [(row.label, row.values) for row in sheet.rows] == [
        ("Round 1 crystals", (0, 0, 1, 0, 1, 0)),
        ("Round 1 beaten", (1, 0, 0, 0, 1, 0)),
        ("Round 2 crystals", (0, 1, 3, 0, 3, 1)),
        ("Round 2 beaten", (2, 0, 1, 2, 3, 2)),
    ]
    invasion = new_game()
    assert RULES.scores(invasion).rows == ()
    caps = (CrystalCapture(round=1, warband=SW, count=2),)
    late = invasion.model_copy(update={"round": 13, "captures": caps})
    rows = RULES.scores(late).rows
    assert len(rows) == 24 and rows[-2].values == (0, 0, 0, 2, 0, 2)
