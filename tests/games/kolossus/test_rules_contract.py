"""The Kolossus referee's contract answers: whose turn it is, the roles of the actions,
what a bot prefers (``interest``) and which actions a turn lists (K-R08, K-R33..K-R35)."""

from __future__ import annotations

from companion.dice import Roll
from companion.games.kolossus import RULES
from companion.games.kolossus.model import (
    ChooseClass,
    EndTurn,
    Finish,
    GameResult,
    Hammer,
    Initiative,
    KolossusOptions,
    KolossusState,
    Move,
    Ready,
    Rebirth,
    Spear,
)
from companion.games.kolossus.rules import KolossusRules
from companion.rules import ActionRole
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    charge,
    in_turn,
    listed,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    with_band,
)


def test_the_current_player_is_the_player_of_the_current_warband_and_none_at_the_end() -> None:
    state = new_game(players=3)  # Ann runs NW and SE
    assert RULES.current_player(in_turn(state, SE)) == 0
    assert RULES.current_player(in_turn(state, NE)) == 1
    result = GameResult(alliance=None, reason="no_capture", text="A draw.")
    over = state.model_copy(update={"phase": "over", "result": result})
    assert RULES.current_player(over) is None
    assert list(RULES.legal_actions(over)) == []


def test_the_roles_of_the_region_moves_corrections_and_the_end_of_a_turn() -> None:
    assert RULES.action_role("end_turn") is ActionRole.END_TURN
    assert RULES.action_role("quake_move") is ActionRole.REGION_MOVE
    assert RULES.action_role("earthquake") is ActionRole.REGION_MOVE
    corrections = ("correct_piece", "correct_mana", "correct_crystals", "correct_landscape")
    for correction in (*corrections, "correct_region"):
        assert RULES.action_role(correction) is ActionRole.CORRECTION
    assert RULES.action_role("roll") is ActionRole.ROLL  # the contract's own role
    assert RULES.action_role("move") is None


def colossus_near_the_citadel(crystals: int = 1) -> KolossusState:
    """NW's Colossus on 5,3 with 4 points, NE's Warrior next to it on 6,3, square 0 empty."""
    state = place(new_game(), {pid(NW, "C"): "5,3", pid(NE, "W"): "6,3", pid(NW, "W"): "3,3"})
    return ready_to_move(state, NW, "C", 4).model_copy(update={"crystals": crystals})


def test_a_bot_prefers_taking_the_crystals_then_beating_then_any_move() -> None:
    state = colossus_near_the_citadel()
    assert RULES.interest(state, Move(from_="5,3", to="5,5")) == 62  # onto the crystals
    assert RULES.interest(state, Move(from_="5,3", to="6,3")) == 17  # beats
    assert RULES.interest(state, Move(from_="5,3", to="5,4")) == 2
    empty = colossus_near_the_citadel(crystals=0)
    assert RULES.interest(empty, Move(from_="5,3", to="5,5")) == 2  # nothing to take
    assert RULES.interest(state, Move(from_="0,0", to="5,5")) == 1  # nobody stands there
    assert RULES.interest(state, Move(from_="5,3", to="11,11")) == 1  # no square
    # An unreadable start counts as square 0,0: empty here, so the move is not worth one.
    assert RULES.interest(state, Move(from_="zz", to="5,5")) == 1
    filled = place(state, {pid(NW, "W2"): "0,0"})
    assert RULES.interest(filled, Move(from_="zz", to="0,1")) == 2


def test_a_bot_weighs_the_other_actions() -> None:
    state = new_game()
    assert RULES.interest(state, Spear(target="1,1")) == 20
    assert RULES.interest(state, Hammer(targets=("1,1",))) == 20
    assert RULES.interest(state, ChooseClass(cls="W")) == 6
    assert RULES.interest(state, Ready()) == 80
    assert RULES.interest(state, Rebirth(cls="W", to="0,0")) == 2
    assert RULES.interest(state, EndTurn()) == 1
    assert RULES.interest(state, Roll()) == 1


def test_K_R07_a_pending_roll_is_the_only_action() -> None:
    state = in_turn(new_game(), NW)
    chosen = RULES.apply(state, ChooseClass(cls="W"))[0]
    assert list(RULES.legal_actions(chosen)) == [Roll()]


def test_K_R28_after_the_move_the_colossus_strikes_or_finishes() -> None:
    state = place(new_game(chapter=3, titan_weapons="all_four"), {pid(NW, "C"): "5,0"})
    state = place(state, {pid(NE, "W"): "4,0"})
    state = ready_to_move(charge(state, NW, "hammer"), NW, "C", 4)
    waiting = move(state, "5,0", "5,0")
    assert waiting.phase == "after_move"
    assert list(RULES.legal_actions(waiting)) == [Hammer(targets=("4,0",)), Finish()]


def test_K_R08_a_turn_lists_the_classes_its_points_pay_for() -> None:
    state = new_game()
    for ap, classes in ((1, ["W"]), (2, ["G", "W"]), (3, ["C", "G", "W"])):
        turn = in_turn(state, NW, ap=ap)
        assert sorted(a["cls"] for a in listed(turn, "choose_class")) == classes
    assert listed(in_turn(state, NW, ap=3), "end_turn") == [{"type": "end_turn"}]
    assert listed(in_turn(state, NW, ap=0), "choose_class") == []
    # a class with every miniature activated is not listed
    warriors = tuple(pid(NW, s) for s in ("W", "W2", "W3", "W4", "W5"))
    done = in_turn(state, NW, ap=1).model_copy(update={"activated": warriors})
    assert listed(done, "choose_class") == []


def test_K_R33_initiative_is_listed_with_pool_mana_in_chapter_three() -> None:
    state = with_band(new_game(chapter=3), NW, pool=1, supply=19)
    assert listed(in_turn(state, NW, ap=3), "initiative") == [{"type": "initiative"}]
    assert listed(in_turn(state, NW, ap=4), "initiative") == []
    assert listed(in_turn(with_band(state, NW, pool=0, supply=20), NW, ap=3), "initiative") == []
    assert listed(in_turn(new_game(chapter=2), NW, ap=3), "initiative") == []
    assert RULES.interest(state, Initiative()) == 1


def with_citadel_at(state: KolossusState, column: int) -> KolossusState:
    """The Citadel moved along row 5 to ``column`` (the square it left bare)."""
    rows = [list(row) for row in state.terrain]
    rows[5][5] = "."
    rows[5][column] = "C"
    return state.model_copy(update={"terrain": tuple("".join(r) for r in rows)})


def test_K_R34_every_region_and_direction_is_an_earthquake_unless_the_citadel_falls() -> None:
    state = with_band(new_game(chapter=3), NW, pool=3, supply=17)
    quakes = listed(in_turn(state, NW), "earthquake")
    assert len(quakes) == 44  # 22 regions, two directions each
    assert {"type": "earthquake", "region": "row5", "direction": "east"} in quakes
    near = listed(in_turn(with_citadel_at(state, 9), NW), "earthquake")
    assert {"type": "earthquake", "region": "row5", "direction": "east"} in near  # one square
    edge = listed(in_turn(with_citadel_at(state, 10), NW), "earthquake")
    assert {"type": "earthquake", "region": "row5", "direction": "east"} not in edge
    assert len(edge) == 43
    poor = with_band(new_game(chapter=3), NW, pool=2, supply=18)
    assert listed(in_turn(poor, NW), "earthquake") == []
    rich_ch2 = with_band(new_game(chapter=2), NW, pool=3, supply=17)
    assert listed(in_turn(rich_ch2, NW), "earthquake") == []


def test_K_R35_a_rebirth_is_listed_per_beaten_class_paid_for_and_free_start_square() -> None:
    state = place(new_game(chapter=3), {pid(NW, "W"): None, pid(NW, "G"): None})
    start = new_game(chapter=3)
    freed = {f"{start.minis[pid(NW, 'W')] // 11},{start.minis[pid(NW, 'W')] % 11}"}
    freed.add(f"{start.minis[pid(NW, 'G')] // 11},{start.minis[pid(NW, 'G')] % 11}")
    two = with_band(state, NW, pool=2, supply=18)
    rebirths = listed(in_turn(two, NW), "rebirth")
    assert {(a["cls"], a["to"]) for a in rebirths} == {
        (cls, to) for cls in ("G", "W") for to in freed
    }
    one = with_band(state, NW, pool=1, supply=19)
    assert {a["cls"] for a in listed(in_turn(one, NW), "rebirth")} == {"W"}
    assert listed(in_turn(with_band(state, NW, pool=2, supply=18), NE), "rebirth") == []
    ch2 = place(new_game(chapter=2), {pid(NW, "W"): None})
    assert listed(in_turn(with_band(ch2, NW, pool=2, supply=18), NW), "rebirth") == []


def test_a_value_without_words_of_its_own_is_said_as_it_is() -> None:
    state = new_game()
    assert RULES.value_words(state, "allocate", "pool", 3) == "3"
    assert RULES.value_words(state, "move", "sword", True) == "yes"
    assert RULES.value_words(state, "move", "whip", False) == "no"
    assert RULES.value_words(state, "choose_class", "cls", "G") == "Guardian"


def test_a_new_referee_reads_kolossus_options_and_positions() -> None:
    fresh = KolossusRules()
    assert fresh.options_model is KolossusOptions and fresh.state_model is KolossusState
    options = fresh.parse_options({"chapter": 2})
    assert isinstance(options, KolossusOptions) and options.chapter == 2
    state = fresh.setup(["Ann", "Bob"], options, 3)
    assert fresh.load_position(fresh.dump_position(state)) == state
