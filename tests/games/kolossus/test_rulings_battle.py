"""Rulings on turns, movement, crystals and the end (K-R08..K-R20, K-R37, K-R39, K-R40)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.events import GameEnded, TableChanges
from companion.games.kolossus import RULES
from companion.games.kolossus.content import cell
from companion.games.kolossus.model import CorrectCrystals, CrystalCapture, KolossusState
from companion.games.kolossus.position import all_destinations, blocked_squares, destinations
from companion.games.kolossus.turns import start_turn
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    charge,
    in_turn,
    listed,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
    set_skills,
    sq,
)
from tests.games.random_play import random_game
from tests.helpers.kolossus import game_options


def ends(state: KolossusState, piece: int) -> set[str]:
    return {cell(s) for s in all_destinations(state, piece, state.mp)}


def end_turn(state: KolossusState) -> KolossusState:
    state, _ = act(state, {"type": "end_turn"})
    if state.phase == "allocate":
        state, _ = act(state, {"type": "allocate"})
    return state


# --- K-R08 ----------------------------------------------------------------------------


def test_K_R08_class_before_dice_costs_and_one_activation_each() -> None:
    state = in_turn(new_game(), NW, ap=2)
    with pytest.raises(RuleViolation, match="K-R08"):
        act(state, {"type": "choose_class", "cls": "C"})  # costs 3
    chosen, _ = act(state, {"type": "choose_class", "cls": "W"})
    assert chosen.phase == "move_roll" and chosen.dice is not None and chosen.dice.count == 1
    with pytest.raises(RuleViolation, match="K-R07"):  # the dice come first
        act(chosen, {"type": "move", "from": "1,1", "to": "1,1"})
    rolled = roll(chosen, 2)
    warrior = cell(rolled.minis[pid(NW, "W")])
    moved = move(rolled, warrior, warrior)  # 0 squares is an activation
    assert moved.ap == 1 and pid(NW, "W") in moved.activated
    again = roll(act(moved, {"type": "choose_class", "cls": "W"})[0], 1)
    with pytest.raises(RuleViolation, match="K-R08"):
        move(again, warrior, warrior)
    # a class with no miniature left cannot be chosen
    no_guardians = place(state, {pid(NW, "G"): None, pid(NW, "G2"): None})
    with pytest.raises(RuleViolation, match="K-R08"):
        act(no_guardians, {"type": "choose_class", "cls": "G"})
    # leftover AP are forfeited
    after = end_turn(moved)
    assert after.phase == "destiny" and after.ap == 0 and RULES.current_player(after) == 1


def test_K_R08_an_opponents_miniature_of_the_activated_class_is_refused() -> None:
    state = ready_to_move(place(new_game(), {pid(NE, "W"): "4,4"}), NW, "W", 1)
    with pytest.raises(RuleViolation, match=r"No miniature of yours stands on .*K-R08"):
        move(state, "4,4", "4,3")
    assert state.minis[pid(NE, "W")] == sq("4,4")


def test_K_R08_legal_activation_sets_follow_the_destiny_table() -> None:
    """Seed table: 1 -> W; 2 -> WW or G; 3 -> WWW, GW, C; 4 -> WWWW, GWW, GG, CW."""

    def full_spends(state: KolossusState) -> set[tuple[str, ...]]:
        out: set[tuple[str, ...]] = set()

        def go(s: KolossusState, taken: tuple[str, ...]) -> None:
            if s.ap == 0:
                out.add(tuple(sorted(taken)))
                return
            for a in listed(s, "choose_class"):
                cls = a["cls"]
                nxt = roll(act(s, a)[0], *([1] * {"W": 1, "G": 2, "C": 3}[cls]))
                piece = next(p for p in range(8) if p not in nxt.activated and "CGGWWWWW"[p] == cls)
                at = cell(nxt.minis[piece])
                go(move(nxt, at, at), (*taken, cls))

        go(state, ())
        return out

    expected = {
        1: {("W",)},
        2: {("W", "W"), ("G",)},
        3: {("W", "W", "W"), ("G", "W"), ("C",)},
        4: {("W", "W", "W", "W"), ("G", "W", "W"), ("G", "G"), ("C", "W")},
    }
    for ap, sets in expected.items():
        assert full_spends(in_turn(new_game(), NW, ap=ap)) == sets


# --- movement -------------------------------------------------------------------------


def test_K_R09_guardian_turns_once_in_any_direction_including_reversal() -> None:
    state = place(new_game(), {pid(NW, "G"): "5,0"})
    guardian = ready_to_move(state, NW, "G", 4)
    reversed_ = move(guardian, "5,0", "6,0", path=["4,0", "5,0", "6,0"])
    assert reversed_.minis[pid(NW, "G")] == sq("6,0")
    with pytest.raises(RuleViolation, match="K-R09"):
        move(guardian, "5,0", "5,1", path=["4,0", "4,1", "5,1"])  # two changes
    warrior = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 4)
    with pytest.raises(RuleViolation, match="K-R09"):
        move(warrior, "5,0", "6,0", path=["4,0", "5,0", "6,0"])
    assert "3,1" not in ends(warrior, pid(NW, "W"))  # a knight's move needs a turn
    assert "3,1" in ends(guardian, pid(NW, "G"))


def test_K_R10_levels_compare_origin_and_destination_and_colossus_ignores_them() -> None:
    state = new_game()
    terrain = [list(row) for row in state.terrain]
    terrain[5][2] = "M"  # level 4 next to bare (5,1)
    terrain[5][1] = "."
    terrain[6][2] = "M"  # the "corners" of the diagonal (6,1)->(5,2)... are irrelevant
    terrain[4][1] = "M"
    state = state.model_copy(update={"terrain": tuple("".join(r) for r in terrain)})
    warrior = ready_to_move(place(state, {pid(NW, "W"): "5,1"}), NW, "W", 3)
    assert "5,2" not in ends(warrior, pid(NW, "W"))
    with pytest.raises(RuleViolation, match="K-R10"):
        move(warrior, "5,1", "5,2")
    terrain[5][2] = "W"
    diag = state.model_copy(update={"terrain": tuple("".join(r) for r in terrain)})
    w2 = ready_to_move(place(diag, {pid(NW, "W"): "6,1"}), NW, "W", 1)
    assert "5,2" in ends(w2, pid(NW, "W"))  # (5,1) and (6,2) do not block the diagonal
    colossus = ready_to_move(place(state, {pid(NW, "C"): "5,1"}), NW, "C", 1)
    assert "5,2" in ends(colossus, pid(NW, "C"))  # level 1 -> 4, one MP


def test_K_R11_own_and_allied_pieces_are_passed_not_ended_on() -> None:
    base = place(new_game(), {pid(NW, "W"): "5,0", pid(NW, "W2"): "4,0", pid(SE, "W"): "5,1"})
    state = ready_to_move(base, NW, "W", 2)
    reach = ends(state, pid(NW, "W"))
    assert "3,0" in reach and "4,0" not in reach  # own piece passed
    assert "5,2" in reach and "5,1" not in reach  # ally passed
    with pytest.raises(RuleViolation, match="K-R11"):
        move(state, "5,0", "5,1")
    hostile = ready_to_move(
        base.model_copy(
            update={"options": base.options.model_copy(update={"allies_are_friendly": False})}
        ),
        NW,
        "W",
        2,
    )
    reach = ends(hostile, pid(NW, "W"))
    assert "5,1" in reach and "5,2" not in reach  # the ally is beaten, not passed


def test_K_R12_defence_is_needed_after_the_step_and_consumed() -> None:
    state = set_skills(new_game(chapter=3), NE, guardian_defence=2)
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "G"): "5,1"})
    state = charge(state, NW, "sword")
    colossus = ready_to_move(state, NW, "C", 4)
    found = destinations(colossus, pid(NW, "C"), 4, sword=True, whip=False)
    r = {cell(s): w for s, w in found.ends.items()}
    assert r["5,1"].left == 1  # 4 - 1 step - 2 Defence
    assert "5,2" in r and "5,3" not in r
    with pytest.raises(RuleViolation, match="K-R12"):  # the Defence used up the MP
        move(colossus, "5,0", "5,3", path=["5,1", "5,2", "5,3"])
    loose = colossus.model_copy(
        update={"options": colossus.options.model_copy(update={"defence_consumed": False})}
    )
    r2 = {cell(s) for s in all_destinations(loose, pid(NW, "C"), 4)}
    assert {"5,2", "5,3", "5,4"} <= r2


def test_K_R13_too_few_points_block_the_enemy_square_and_the_line() -> None:
    state = set_skills(new_game(chapter=2), NE, warrior_defence=2)
    state = place(state, {pid(NW, "W"): "5,0", pid(NE, "W"): "4,0"})
    warrior = ready_to_move(state, NW, "W", 2)
    reach = ends(warrior, pid(NW, "W"))
    assert "4,0" not in reach and "3,0" not in reach
    assert sq("4,0") in blocked_squares(warrior, pid(NW, "W"), 2)
    with pytest.raises(RuleViolation, match="K-R13"):
        move(warrior, "5,0", "4,0")
    strong = ready_to_move(state, NW, "W", 3)
    beaten = move(strong, "5,0", "4,0")
    assert beaten.minis[pid(NE, "W")] == -1 and beaten.minis[pid(NW, "W")] == sq("4,0")


def test_K_R14_the_colossus_can_be_beaten() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,0", pid(NE, "C"): "4,0"})
    after = move(ready_to_move(state, NW, "W", 1), "5,0", "4,0")
    assert after.minis[pid(NE, "C")] == -1
    assert after.beats[-1].piece == pid(NE, "C")


def test_K_R14_a_warband_left_with_only_its_colossus_is_wiped_out_when_it_falls() -> None:
    """K-R14: "immortal" is flavour. A warband whose last miniature is its Colossus is
    wiped out when a Warrior beats it, and its alliance loses at once (K-R20)."""
    last_one: dict[int, str | None] = {p: None for p in range(NE * 8, NE * 8 + 8)}
    last_one[pid(NE, "C")] = "4,0"
    state = ready_to_move(place(new_game(), {**last_one, pid(NW, "W"): "5,0"}), NW, "W", 1)
    assert "4,0" in {a["to"] for a in listed(state, "move")}
    over, events = act(state, {"type": "move", "from": "5,0", "to": "4,0"})
    assert over.minis[pid(NE, "C")] == -1 and over.phase == "over"
    outcome = RULES.outcome(over)
    assert outcome is not None and outcome.reason == "elimination" and outcome.winners == (0, 2)
    assert any(isinstance(e, GameEnded) for e in events)


def test_K_R39_moves_never_leave_the_board_and_go_square_by_square() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "C"): "0,0"}), NW, "C", 12)
    for s in all_destinations(state, pid(NW, "C"), 12):
        assert 0 <= s < 121
    with pytest.raises(RuleViolation, match=r"\(1\.6\.2\)"):  # square by square (1.6.2)
        move(state, "0,0", "3,3", path=["3,3"])
    with pytest.raises(RuleViolation, match="K-R01"):
        move(state, "0,0", "0,11")


# --- crystals ---------------------------------------------------------------------------


def finish_round(state: KolossusState) -> KolossusState:
    """End every remaining turn of this round (rolling Destiny where needed)."""
    start = state.round
    while state.round == start and state.phase != "over":
        if state.phase == "destiny":
            state = roll(state, 4)
        state = end_turn(state)
    return state


def test_K_R15_one_crystal_per_round_accumulating_or_refilled() -> None:
    state = in_turn(new_game(), NW, ap=1)
    assert state.crystals == 1 and state.crystal_supply == 11
    nxt = finish_round(state)
    assert nxt.round == 2 and nxt.crystals == 2 and nxt.crystal_supply == 10
    refill = in_turn(new_game(crystal_placement="refill_if_empty"), NW, ap=1)
    assert finish_round(refill).crystals == 1


def test_K_R16_capture_when_the_activation_ends_on_the_citadel() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,4"})
    taken = move(ready_to_move(state, NW, "W", 1), "5,4", "5,5")
    assert taken.crystals == 0 and taken.captures == (CrystalCapture(round=1, warband=NW, count=1),)
    standing = place(new_game(), {pid(NW, "W"): "5,5"})
    zero = move(ready_to_move(standing, NW, "W", 3), "5,5", "5,5")
    assert zero.captures and zero.captures[0].count == 1
    strict = standing.model_copy(
        update={"options": standing.options.model_copy(update={"capture_requires_entry": True})}
    )
    assert not move(ready_to_move(strict, NW, "W", 3), "5,5", "5,5").captures
    passing = place(new_game(), {pid(NW, "G"): "5,4"})
    through = move(ready_to_move(passing, NW, "G", 2), "5,4", "5,6")
    assert not through.captures and through.crystals == 1


def test_K_R16_the_score_sheet_counts_each_rounds_crystals_captured_so_far() -> None:
    """Each round's crystal row holds every capture up to that round, per warband and per
    alliance (NW + SE, NE + SW)."""
    captures = (
        CrystalCapture(round=1, warband=NW, count=1),
        CrystalCapture(round=3, warband=NE, count=2),
        CrystalCapture(round=3, warband=SE, count=1),
    )
    state = new_game().model_copy(update={"round": 3, "captures": captures})
    rows = {row.label: row.values for row in RULES.scores(state).rows}
    assert rows["Round 1 crystals"] == (1, 0, 0, 0, 1, 0)
    assert rows["Round 2 crystals"] == (1, 0, 0, 0, 1, 0)
    assert rows["Round 3 crystals"] == (1, 2, 1, 0, 2, 2)
    assert "Round 4 crystals" not in rows


def test_K_R17_the_capturing_warband_is_first_from_the_next_round() -> None:
    state = place(new_game(), {pid(SE, "W"): "5,4"})
    state = ready_to_move(state, SE, "W", 1)
    state = move(state, "5,4", "5,5")
    state = end_turn(state)  # SE done; SW next
    assert RULES.current_player(state) == 3
    state = finish_round(state)
    assert state.round == 2 and state.first == SE and RULES.current_player(state) == 2
    # no capture in round 2: the first warband stays
    assert finish_round(state).first == SE


def finish_round_events(state: KolossusState) -> tuple[KolossusState, list[str]]:
    """Like :func:`finish_round`, with the texts of the events the round's end gave."""
    start = state.round
    texts: list[str] = []
    while state.round == start and state.phase != "over":
        if state.phase == "destiny":
            state = roll(state, 4)
        state, events = act(state, {"type": "end_turn"})
        if state.phase == "allocate":
            state, events = act(state, {"type": "allocate"})
        texts = [e.text for e in events]
    return state, texts


def test_K_R17_the_capturing_warband_not_its_player_starts_the_next_round() -> None:
    """K-R17: the *warband* that captured is first, from the next round on. With two
    players Ann holds NW and SE; SE's capture makes SE first, not Ann's other warband NW,
    and round 1 still ends after SW's turn."""
    state = place(new_game(2), {pid(SE, "W"): "5,4"})
    state = move(ready_to_move(state, SE, "W", 1), "5,4", "5,5")
    assert state.captures == (CrystalCapture(round=1, warband=SE, count=1),)
    state = end_turn(state)
    assert RULES.status(state).startswith("Round 1/12 · Firbolg (Bob)")  # this round goes on
    state, events = act(roll(state, 4), {"type": "end_turn"})  # SW's turn ends round 1
    assert state.round == 2 and state.first == SE
    assert "Ishtari is the first warband now." in [e.text for e in events]
    assert RULES.status(state).startswith("Round 2/12 · Ishtari (Ann) · roll the Die of Destiny")
    order = []
    for _ in range(4):
        order.append(RULES.status(state).split(" · ")[1])
        state = end_turn(roll(state, 4))
    assert order == ["Ishtari (Ann)", "Firbolg (Bob)", "Tua'tha (Ann)", "Krell (Bob)"]


def test_K_R17_the_latest_capture_of_the_round_decides_who_is_first() -> None:
    """K-R17: NW captures on the Citadel, then a correction credits NE with a crystal the
    table shows it took later in the round (a correction's capture is the latest): NE,
    the warband of the round's latest capture, is first next round."""
    state = place(new_game(), {pid(NW, "W"): "5,4"})
    state = end_turn(move(ready_to_move(state, NW, "W", 1), "5,4", "5,5"))
    assert RULES.status(state).startswith("Round 1/12 · Krell")
    state = RULES.apply(state, CorrectCrystals(citadel=0, supply=10, blue=1, yellow=1))[0]
    assert [c.warband for c in state.captures] == [NW, NE]
    state, texts = finish_round_events(state)
    assert state.round == 2 and state.first == NE
    assert "Krell is the first warband now." in texts
    assert RULES.current_player(state) == 1


def test_K_R17_a_round_without_capture_keeps_the_first_warband() -> None:
    """K-R17: with no capture the first warband is unchanged, round after round; it is
    not passed on clockwise, and a capture in an earlier round is not announced again."""
    state = in_turn(new_game(), NW, ap=1, round_=2).model_copy(
        update={
            "first": NE,
            "turn": 3,
            "crystals": 1,
            "crystal_supply": 10,
            "captures": (CrystalCapture(round=1, warband=NE, count=1),),
        }
    )
    for expected_round in (3, 4):
        state, texts = finish_round_events(state)
        assert state.round == expected_round and state.first == NE
        assert not any("first warband" in t for t in texts)
        assert RULES.status(state).startswith(f"Round {expected_round}/12 · Krell")


def final_turn(captures: tuple[CrystalCapture, ...], **options: Any) -> KolossusState:
    state = in_turn(new_game(**options), SW, ap=1, round_=12)
    return state.model_copy(update={"captures": captures})


def test_K_R18_relative_majority_or_absolute_seven() -> None:
    caps = (
        CrystalCapture(round=2, warband=NW, count=3),
        CrystalCapture(round=5, warband=NE, count=2),
    )
    over = end_turn(final_turn(caps))
    outcome = RULES.outcome(over)
    assert outcome is not None and outcome.reason == "crystal_majority"
    assert outcome.winners == (0, 2)  # the NW+SE alliance's players
    absolute = end_turn(final_turn(caps, crystal_majority="absolute_7"))
    outcome = RULES.outcome(absolute)
    assert outcome is not None and outcome.reason == "last_crystal" and outcome.winners == (1, 3)
    seven = (
        CrystalCapture(round=2, warband=SE, count=7),
        CrystalCapture(round=9, warband=SW, count=5),
    )
    outcome = RULES.outcome(end_turn(final_turn(seven, crystal_majority="absolute_7")))
    assert outcome is not None and outcome.winners == (0, 2)


def test_K_R19_tie_goes_to_the_last_capture_and_no_capture_is_a_draw() -> None:
    tie = (
        CrystalCapture(round=2, warband=NE, count=2),
        CrystalCapture(round=6, warband=SE, count=2),
    )
    outcome = RULES.outcome(end_turn(final_turn(tie)))
    assert outcome is not None and outcome.reason == "last_crystal" and outcome.winners == (0, 2)
    outcome = RULES.outcome(end_turn(final_turn(())))
    assert outcome is not None and outcome.is_draw and outcome.reason == "no_capture"


def alliance_seats(state: KolossusState, alliance: int) -> tuple[int, ...]:
    """The seats of the players who hold the alliance's warbands (NW+SE 0, NE+SW 1)."""
    return tuple(sorted({state.warbands[w].player for w in (alliance, alliance + 2)}))


def expected_end(
    state: KolossusState, captures: tuple[CrystalCapture, ...]
) -> tuple[tuple[int, ...], str]:
    """The winners and reason after round 12, in the words of K-R18 and K-R19."""
    if not captures:
        return (), "no_capture"
    crystals = [0, 0]
    for cap in captures:
        crystals[cap.warband % 2] += cap.count  # NW, SE even; NE, SW odd
    captured = sum(crystals)
    for alliance in (0, 1):
        if state.options.crystal_majority == "relative":
            majority = 2 * crystals[alliance] > captured  # more than half of those captured
        else:
            majority = crystals[alliance] >= 7  # at least 7 of the 12
        if majority:
            return alliance_seats(state, alliance), "crystal_majority"
    return alliance_seats(state, captures[-1].warband % 2), "last_crystal"


@st.composite
def capture_histories(draw: st.DrawFn) -> tuple[CrystalCapture, ...]:
    """Captures in chronological order, one per round at most, 12 crystals at most."""
    rounds = sorted(draw(st.sets(st.integers(1, 12), max_size=6)))
    left = 12
    captures: list[CrystalCapture] = []
    for rnd in rounds:
        if left == 0:
            break
        count = draw(st.integers(1, min(left, 7)))
        left -= count
        captures.append(CrystalCapture(round=rnd, warband=draw(st.integers(0, 3)), count=count))
    return tuple(captures)


@settings(max_examples=300, deadline=None)
@given(
    captures=capture_histories(),
    majority=st.sampled_from(["relative", "absolute_7"]),
    players=st.sampled_from([2, 3, 4]),
)
def test_K_R18_K_R19_the_end_of_round_twelve_follows_the_crystals(
    captures: tuple[CrystalCapture, ...], majority: str, players: int
) -> None:
    """K-R18: the alliance with the majority the option asks for wins (relative: more
    than half of the crystals captured; absolute_7: at least 7). K-R19: otherwise the
    alliance of the latest capture wins, and no capture at all is a draw."""
    state = in_turn(new_game(players, crystal_majority=majority), SW, ap=1, round_=12)
    captured = sum(c.count for c in captures)
    state = state.model_copy(
        update={"captures": captures, "crystals": 12 - captured, "crystal_supply": 0}
    )
    over = end_turn(state)
    outcome = RULES.outcome(over)
    assert over.phase == "over" and outcome is not None
    assert (outcome.winners, outcome.reason) == expected_end(state, captures)
    assert RULES.status(over) == f"Game over: {outcome.text}"
    if outcome.reason != "crystal_majority":
        assert "K-R19" in outcome.text


def test_K_R18_one_crystal_is_a_relative_majority_but_not_an_absolute_one() -> None:
    """K-R18 boundaries: 1:0 wins under relative; under absolute_7 6:5 is no majority
    (the 5 captured last win, K-R19) and exactly 7 wins even against the last capture."""
    one = (CrystalCapture(round=4, warband=NE, count=1),)
    outcome = RULES.outcome(end_turn(final_turn(one)))
    assert outcome is not None and outcome.reason == "crystal_majority"
    assert (
        outcome.winners == (1, 3) and outcome.text == "Krell and Firbolg win with 1 crystal to 0."
    )
    six_five = (
        CrystalCapture(round=3, warband=SE, count=6),
        CrystalCapture(round=10, warband=SW, count=5),
    )
    outcome = RULES.outcome(end_turn(final_turn(six_five, crystal_majority="absolute_7")))
    assert outcome is not None and (outcome.reason, outcome.winners) == ("last_crystal", (1, 3))
    outcome = RULES.outcome(end_turn(final_turn(six_five)))  # relative: 6 > 5
    assert outcome is not None and (outcome.reason, outcome.winners) == ("crystal_majority", (0, 2))
    assert outcome.text == "Tua'tha and Ishtari win with 6 crystals to 5."
    seven_five = (
        CrystalCapture(round=3, warband=SE, count=7),
        CrystalCapture(round=10, warband=SW, count=5),
    )
    outcome = RULES.outcome(end_turn(final_turn(seven_five, crystal_majority="absolute_7")))
    assert outcome is not None and (outcome.reason, outcome.winners) == ("crystal_majority", (0, 2))


def capture_with_a_warrior(state: KolossusState, frm: str) -> KolossusState:
    """The current warband rolls Destiny 1 and moves a Warrior from ``frm`` onto the
    Citadel (5,5) with a movement roll of 1."""
    state = roll(state, 1)
    state = roll(act(state, {"type": "choose_class", "cls": "W"})[0], 1)
    return move(state, frm, "5,5")


def test_K_R19_a_tie_in_play_goes_to_the_alliance_of_the_latest_capture() -> None:
    """K-R19 in a played game: Tua'tha (NW) takes round 1's crystal, Krell (NE) beats
    it on the Citadel in round 2 and takes round 2's; nobody captures again. 1:1 after
    round 12, so NE+SW, whose warband captured last, win."""
    state = place(new_game(), {pid(NW, "W"): "5,4", pid(NE, "W"): "5,6"})
    state = start_turn(state.model_copy(update={"round": 1, "turn": 0}))
    state = end_turn(capture_with_a_warrior(state, "5,4"))
    state = finish_round(state)
    assert state.round == 2 and state.first == NW and state.crystals == 1
    state = end_turn(roll(state, 4))  # NW passes
    state = end_turn(capture_with_a_warrior(state, "5,6"))
    assert state.minis[pid(NW, "W")] == -1
    assert [(c.round, c.warband, c.count) for c in state.captures] == [(1, NW, 1), (2, NE, 1)]
    state = finish_round(state)
    assert state.round == 3 and state.first == NE  # K-R17 on the way
    while state.phase != "over":
        state = finish_round(state)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "last_crystal"
    assert (
        outcome.winners == (1, 3)
        and "no majority: 1–1" in outcome.text
        and "Krell and Firbolg" in outcome.text
    )
    assert state.crystals == 10  # rounds 3..12 piled up on the Citadel (K-R15)


def test_K_R19_no_capture_is_a_draw_under_either_majority_and_any_player_count() -> None:
    """K-R19: no crystal captured at all is a draw, whatever crystal_majority says and
    however the warbands are shared."""
    for players in (2, 3, 4):
        for majority in ("relative", "absolute_7"):
            over = end_turn(
                in_turn(new_game(players, crystal_majority=majority), SW, ap=1, round_=12)
            )
            outcome = RULES.outcome(over)
            assert outcome is not None and outcome.is_draw and outcome.winners == ()
            assert outcome.reason == "no_capture" and "K-R19" in outcome.text


def test_K_R19_corrections_that_take_every_capture_back_leave_a_draw() -> None:
    """K-R19: a correction that returns the only captured crystals to the Citadel leaves
    no capture at all, so the end of round 12 is a draw."""
    state = final_turn((CrystalCapture(round=5, warband=NE, count=3),))
    state = state.model_copy(update={"crystals": 9, "crystal_supply": 0})
    state = RULES.apply(state, CorrectCrystals(citadel=12, supply=0))[0]
    assert state.captures == ()
    outcome = RULES.outcome(end_turn(state))
    assert outcome is not None and outcome.is_draw and outcome.reason == "no_capture"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    players=st.sampled_from([2, 3, 4]),
    options=game_options(),
    bot_seed=st.integers(0, 2**31),
)
def test_K_R17_K_R18_K_R19_random_games_follow_their_own_captures(
    seed: int, players: int, options: dict[str, Any], bot_seed: int
) -> None:
    """In random games: every round starts with the warband of the latest capture so far
    (or the first warband if none, K-R17), the first warband never changes inside a
    round, and a game that reaches the end of round 12 ends as K-R18 and K-R19 say."""
    start = new_game(players, seed, **options)
    played = random_game(RULES, start, bot_seed, 4000)
    previous = start
    for state in played.states[1:]:
        if state.phase == "over":
            break
        if state.round == previous.round:
            assert state.first == previous.first
        else:
            earlier = [c for c in state.captures if c.round < state.round]
            assert state.first == (earlier[-1].warband if earlier else start.first)
            assert RULES.current_player(state) == state.warbands[state.first].player
        previous = state
    final = played.final
    outcome = RULES.outcome(final)
    assert outcome is not None
    if outcome.reason not in ("elimination", "simultaneous_elimination"):
        assert final.round == 12
        assert (outcome.winners, outcome.reason) == expected_end(final, final.captures)


def test_K_R20_a_wiped_out_warband_loses_its_alliance_at_once() -> None:
    state = new_game()
    wipe: dict[int, str | None] = {p: None for p in range(NE * 8, NE * 8 + 8)}
    wipe[pid(NE, "W")] = "4,0"
    state = place(state, {**wipe, pid(NW, "W"): "5,0"})
    over, events = act(
        ready_to_move(state, NW, "W", 1), {"type": "move", "from": "5,0", "to": "4,0"}
    )
    outcome = RULES.outcome(over)
    assert outcome is not None and outcome.reason == "elimination" and outcome.winners == (0, 2)
    assert any(isinstance(e, GameEnded) for e in events)
    assert list(RULES.legal_actions(over)) == []
    # per player: with 2 players the NE+SW player still has SW's pieces
    two = place(new_game(2, elimination_unit="player"), {**wipe, pid(NW, "W"): "5,0"})
    going = move(ready_to_move(two, NW, "W", 1), "5,0", "4,0")
    assert RULES.outcome(going) is None


def test_K_R20_simultaneous_elimination_is_a_draw_or_the_actor_loses() -> None:
    """Only a region shift can remove two warbands at once: the Quake with all22."""
    for policy, winners in (("draw", ()), ("active_alliance_loses", (1, 3))):
        state = new_game(quake_candidates="all22", simultaneous_elimination=policy)
        wipe: dict[int, str | None] = {p: None for p in range(32) if p // 8 in (NE, SE)}
        wipe[pid(NE, "W")] = "0,0"
        wipe[pid(SE, "W")] = "0,1"
        state = place(state, wipe)
        state = roll(act(state, {"type": "ready"})[0], 2)
        over, _ = act(state, {"type": "quake_move", "region": "row0", "direction": "west"})
        outcome = RULES.outcome(over)
        assert outcome is not None and outcome.reason == "simultaneous_elimination"
        assert outcome.winners == winners


def test_K_R37_the_game_ends_after_round_twelve() -> None:
    state = in_turn(new_game(), NW, ap=1, round_=11)
    state = finish_round(state)
    assert state.round == 12 and RULES.outcome(state) is None
    state = finish_round(state)
    assert state.phase == "over" and RULES.outcome(state) is not None
    assert len([r for r in RULES.scores(state).rows if r.label.endswith("crystals")]) == 12


def test_K_R40_each_round_starts_with_the_first_warband_clockwise() -> None:
    state = in_turn(new_game(), NW, ap=1).model_copy(update={"first": SW, "turn": 0})
    order = []
    for _ in range(4):
        order.append(RULES.current_player(state))
        state = end_turn(state)
        if state.phase == "destiny":
            state = roll(state, 1)
    assert order == [3, 0, 1, 2]


def test_table_changes_for_a_beat_list_removal_then_move() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,0", pid(NE, "G"): "3,0"})
    _, events = act(ready_to_move(state, NW, "W", 2), {"type": "move", "from": "5,0", "to": "3,0"})
    change = events[0]
    assert isinstance(change, TableChanges)
    assert [c.instruction for c in change.changes] == [
        "Remove Krell's Guardian from (3, 0) (beaten)",
        "Move Tua'tha's Warrior from (5, 0) to (3, 0)",
    ]
