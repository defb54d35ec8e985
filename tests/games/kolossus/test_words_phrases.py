"""Kolossus in the players' words, branch by branch: the exact text of every phrase
(``phrases.py``) in the cases the broader tests of ``test_phrases.py`` do not reach
(no pending dice, an empty square, a miniature of the same player, the pool paying a
charge, each field's value). Small hand-made positions only."""

from __future__ import annotations

from companion.dice import DiceRequest, Roll
from companion.games.kolossus import phrases
from companion.games.kolossus.model import (
    Allocate,
    CorrectCrystals,
    CorrectLandscape,
    CorrectMana,
    CorrectPiece,
    Hammer,
    QuakeMove,
    Rebirth,
    Spear,
    Swap,
)
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    charge,
    in_turn,
    mv,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
    with_band,
)


def test_cells_regions_and_colours_in_words() -> None:
    assert phrases.cell_words("3,7") == "(3, 7)"
    assert phrases.cell_words(" 3 , 7 ") == "(3, 7)"
    assert phrases.cell_words("11,0") == "11,0"  # not a square: as it is
    assert phrases.cells_words(("1,2",)) == "(1, 2)"
    assert phrases.cells_words(["1,2", "x", "2,3"]) == "(1, 2), x and (2, 3)"
    assert phrases.cells_words(()) == ""
    assert phrases.colour_words("green") == "Ishtari (green)"
    assert phrases.colour_words("pink") == "pink (pink)"


def test_RULINGS_1_5_only_a_move_between_one_square_stays() -> None:
    assert phrases.stays(mv("1,2", "1,2"))
    assert phrases.stays(mv("1,2", " 1 , 2"))
    assert not phrases.stays(mv("1,2", "1,3"))
    assert not phrases.stays(mv("x", "x"))  # no square at all
    assert not phrases.stays(Spear(target="1,2"))


def test_a_roll_names_what_it_decides_or_just_the_dice() -> None:
    state = new_game()
    assert phrases.describe(state, Roll()) == "Roll the dice"
    assert phrases.describe(state, Roll(values=(3,))) == "Roll 3"
    assert phrases.describe(state, Roll(values=(3, 1, 4))) == "Roll 3, 1 and 4"
    destiny = state.evolve({"dice": DiceRequest(purpose="destiny", label="d", count=1, sides=4)})
    assert phrases.describe(destiny, Roll()) == "Roll for the Die of Destiny"
    assert phrases.describe(destiny, Roll(values=(4,))) == "Roll 4 for the Die of Destiny"
    other = state.evolve({"dice": DiceRequest(purpose="other", label="d", count=1, sides=4)})
    assert phrases.describe(other, Roll(values=(2,))) == "Roll 2 for the dice"
    colossus = act(in_turn(new_game(), NW), {"type": "choose_class", "cls": "C"})[0]
    assert phrases.describe(colossus, Roll()) == "Roll for the Colossus movement"
    warrior = act(in_turn(new_game(), NW), {"type": "choose_class", "cls": "W"})[0]
    assert phrases.describe(warrior, Roll(values=(1,))) == "Roll 1 for the Warrior movement"


def test_K_R02_a_swap_with_an_empty_square_names_only_the_squares() -> None:
    state = new_game()
    assert phrases.describe(state, Swap(a="0,0", b="5,5")) == (
        "Swap the miniatures on (0, 0) and (5, 5)"
    )
    assert phrases.describe(state, Swap(a="5,5", b="0,0")) == (
        "Swap the miniatures on (5, 5) and (0, 0)"
    )
    assert phrases.describe(state, Swap(a="1,1", b="0,0")) == (
        "Swap Tua'tha's Warrior on (1, 1) with the Colossus on (0, 0)"
    )


def test_K_R05_a_quake_move_says_the_distance_chosen_or_rolled() -> None:
    state = act(new_game(), {"type": "ready"})[0]
    assert phrases.describe(state, QuakeMove(region="row4", direction="west")) == (
        "Great Quake: move row 4 west by 1 square"  # nothing rolled yet
    )
    rolled = roll(state, 3)
    chosen = QuakeMove(region="col6", direction="south", distance=2)
    assert phrases.describe(rolled, chosen) == "Great Quake: move column 6 south by 2 squares"
    assert phrases.describe(rolled, QuakeMove(region="col6", direction="south")) == (
        "Great Quake: move column 6 south by 3 squares"
    )


def test_K_R27_an_allocation_names_every_slot_and_the_pool_paying_a_charge() -> None:
    state = with_band(in_turn(new_game(chapter=3), NW), NW, supply=19, income=1)
    every = Allocate(
        warrior_attack=1,
        warrior_defence=2,
        guardian_attack=3,
        guardian_defence=4,
        colossus_attack=5,
        colossus_defence=6,
        charge="spear",
        charge_from_pool=1,
    )
    assert phrases.describe(state, every) == (
        "Put mana: 1 on Warrior Attack, 2 on Warrior Defence, 3 on Guardian Attack, "
        "4 on Guardian Defence, 5 on Colossus Attack, 6 on Colossus Defence, "
        "charge the Spear of Vengeance (1 from the pool)"
    )
    assert phrases.describe(state, Allocate(pool=2)) == "Put mana: 2 in the pool"
    assert phrases.describe(state, Allocate(charge="hammer")) == (
        "Put mana: charge the Hammer of Doom"
    )
    assert phrases.describe(state, Allocate()) == "Put no mana: 1 mana back to the supply"
    nothing = with_band(state, NW, supply=20, income=0)
    assert phrases.describe(nothing, Allocate()) == "Put no mana: 0 mana back to the supply"


def test_a_move_from_an_empty_square_names_the_miniature_generically() -> None:
    state = ready_to_move(new_game(), NW, "W", 2)
    assert phrases.describe(state, mv("4,4", "4,5")) == ("Move the miniature from (4, 4) to (4, 5)")
    assert phrases.describe(state, mv("4,4", "4,4")) == "Stay on (4, 4) with the miniature"


def test_K_R16_staying_on_the_citadel_takes_one_crystal_or_none() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,5"}), NW, "W", 1)
    stay = mv("5,5", "5,5")
    assert phrases.describe(state, stay) == (
        "Stay on (5, 5) with Tua'tha's Warrior, taking 1 Crystal of Time"
    )
    empty = state.evolve({"crystals": 0, "crystal_supply": 12})
    assert phrases.describe(empty, stay) == "Stay on (5, 5) with Tua'tha's Warrior"
    away = ready_to_move(place(new_game(), {pid(NW, "W"): "4,4"}), NW, "W", 1)
    assert phrases.describe(away, mv("4,4", "4,4")) == "Stay on (4, 4) with Tua'tha's Warrior"


def test_K_R11_outside_the_move_phase_a_move_beats_only_an_enemy_on_its_end() -> None:
    state = place(new_game(), {pid(NW, "W"): "4,4", pid(NE, "G"): "4,5", pid(SE, "W"): "3,4"})
    turn = in_turn(state, NW)  # no movement rolled: the move's words come from its squares
    assert phrases.describe(turn, mv("4,4", "4,5")) == (
        "Move Tua'tha's Warrior from (4, 4) to (4, 5), beating Krell's Guardian (Bob)"
    )
    assert phrases.describe(turn, mv("4,4", "3,4")) == (
        "Move Tua'tha's Warrior from (4, 4) to (3, 4)"  # an ally is never beaten
    )
    assert (
        phrases.describe(turn, mv("4,4", "4,3")) == "Move Tua'tha's Warrior from (4, 4) to (4, 3)"
    )
    assert phrases.describe(turn, mv("9,9", "4,5")) == "Move the miniature from (9, 9) to (4, 5)"
    asked = mv("4,4", "4,5", sword=True, whip=True)
    assert phrases.describe(turn, asked) == (
        "Move Tua'tha's Warrior from (4, 4) to (4, 5), beating Krell's Guardian (Bob) "
        "with the Sword of Storm and the Whip of Wrath"
    )
    assert phrases.describe(turn, mv("4,4", "4,5", whip=True)).endswith(
        "beating Krell's Guardian (Bob) with the Whip of Wrath"
    )


def test_K_R13_a_move_the_referee_refuses_is_said_as_asked() -> None:
    state = place(new_game(), {pid(NW, "W"): "4,4", pid(NE, "G"): "4,6"})
    state = ready_to_move(state, NW, "W", 1)  # (4, 6) is out of reach
    assert phrases.describe(state, mv("4,4", "4,6")) == (
        "Move Tua'tha's Warrior from (4, 4) to (4, 6), beating Krell's Guardian (Bob)"
    )


def test_K_R32_a_whip_beat_in_the_move_phase_says_the_whip() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0"})
    state = with_band(state, NE, skills=(0, 3, 0, 0, 0, 0), supply=17)
    state = ready_to_move(charge(state, NW, "whip"), NW, "C", 1)
    assert phrases.describe(state, mv("5,0", "4,0")) == (
        "Move Tua'tha's Colossus from (5, 0) to (4, 0), beating Krell's Warrior (Bob) "
        "with the Whip of Wrath"
    )


def test_K_R21_a_miniature_of_the_same_player_is_not_given_the_players_name() -> None:
    """With two players, Ann runs Tua'tha and Ishtari: Ishtari's pieces are hers."""
    state = new_game(players=2, chapter=3, titan_weapons="all_four")
    state = place(state, {pid(SE, "C"): "5,0", pid(SW, "W"): "5,3", pid(NE, "W"): "4,0"})
    state = ready_to_move(charge(state, SE, "spear"), SE, "C", 3)
    waiting = act(state, {"type": "move", "from": "5,0", "to": "5,0"})[0]
    assert phrases.describe(waiting, Spear(target="5,3")) == (
        "Spear of Vengeance: beat Firbolg's Warrior (Bob) on (5, 3)"
    )
    assert phrases.describe(waiting, Spear(target="6,6")) == (
        "Spear of Vengeance: beat the miniature on (6, 6)"
    )
    assert phrases.describe(waiting, Hammer(targets=("6,6",))) == (
        "Hammer of Doom: beat the miniature on (6, 6)"
    )
    assert phrases.describe(waiting, Hammer(targets=("4,0",))) == (
        "Hammer of Doom: beat Krell's Warrior (Bob) on (4, 0)"
    )
    assert phrases.describe(waiting, Hammer(targets=("5,3", "4,0", "6,6"))) == (
        "Hammer of Doom: beat 3 miniatures on (5, 3), (4, 0) and (6, 6)"
    )
    own = place(waiting, {pid(NW, "W"): "6,0"})  # Tua'tha is Ann's too
    assert phrases.describe(own, Spear(target="6,0")) == (
        "Spear of Vengeance: beat Tua'tha's Warrior on (6, 0)"
    )


def test_K_R35_a_rebirth_says_its_price_in_pool_mana() -> None:
    state = in_turn(new_game(chapter=3), SW)
    assert phrases.describe(state, Rebirth(cls="W", to="9,1")) == (
        "Rebirth: Firbolg's Warrior returns on (9, 1) for 1 pool mana"
    )
    assert phrases.describe(state, Rebirth(cls="C", to="10,0")) == (
        "Rebirth: Firbolg's Colossus returns on (10, 0) for 3 pool mana"
    )


def test_the_mana_and_landscape_corrections_in_words() -> None:
    state = new_game(chapter=3)
    charged = CorrectMana(
        warband="yellow",
        supply=2,
        warrior_defence=1,
        guardian_attack=2,
        guardian_defence=3,
        colossus_attack=1,
        colossus_defence=1,
        pool=2,
        income=1,
        sword=True,
        hammer=True,
    )
    assert phrases.describe(state, charged) == (
        "Correct Krell's mana: 2 in the supply, 8 on the skills, 2 in the pool, 1 income, "
        "charged: Sword of Storm, Hammer of Doom"
    )
    whip = CorrectMana(warband="green", supply=18, whip=True, spear=True)
    assert phrases.describe(state, whip).endswith(", charged: Whip of Wrath, Spear of Vengeance")
    for landscape, said in (
        ("bare", "bare board"),
        ("woods", "Woods"),
        ("hills", "Hills"),
        ("mountains", "Mountains"),
    ):
        action = CorrectLandscape(row=1, col=9, landscape=landscape)
        assert phrases.describe(state, action) == f"Correct (1, 9): {said}"


def test_each_fields_value_in_words() -> None:
    state = new_game()
    said = phrases.value_words
    assert [said(state, f, None) for f in ("row", "col", "distance", "path")] == [
        "beaten",
        "beaten",
        "the number rolled",
        "the referee chooses",
    ]
    assert [said(state, f, None) for f in ("sword", "whip", "values", "charge")] == [
        "only if needed",
        "only if needed",
        "the referee rolls",
        "none",
    ]
    for field in ("from", "from_", "to", "a", "b", "target"):
        assert said(state, field, "2,3") == "(2, 3)"
    assert said(state, "targets", ("2,3", "3,3")) == "(2, 3) and (3, 3)"
    assert said(state, "targets", ["2,3"]) == "(2, 3)"
    assert said(state, "path", ["2,3", "3,3", "4,4"]) == "(2, 3) → (3, 3) → (4, 4)"
    assert said(state, "cls", "C") == "Colossus"
    assert said(state, "cls", "X") == "X"
    assert said(state, "region", "row10") == "row 10"
    assert said(state, "regions", "col0") == "column 0"
    assert said(state, "charge", "spear") == "Spear of Vengeance"
    assert said(state, "weapon", "hammer") == "Hammer of Doom"
    assert said(state, "weapon", "club") == "club"
    assert said(state, "warband", "yellow") == "Krell (yellow)"
    assert said(state, "piece", "red-G1") == "Firbolg's Guardian 1"
    assert said(state, "landscape", "hills") == "Hills"
    assert said(state, "landscape", "bare") == "bare board"
    assert said(state, "landscape", "lava") == "bare board"
    assert said(state, "values", (2, 4)) == "2, 4"
    assert said(state, "values", [1]) == "1"
    assert said(state, "supply", 3) is None  # a number is its own word
    assert said(state, "direction", "east") is None
    assert said(state, "to", 5) is None
    assert said(state, "targets", "2,3") is None


def test_K_R42_in_the_move_phase_the_sword_is_named_only_when_the_way_uses_it() -> None:
    """The referee's way decides in the move phase (a beat with no step after it does not
    spend the Sword); before it, the move is said as the action asks."""
    state = new_game(chapter=3, titan_weapons="all_four")
    state = charge(place(state, {pid(NW, "C"): "4,4", pid(NE, "G"): "4,5"}), NW, "sword")
    asked = mv("4,4", "4,5", sword=True)
    moving = ready_to_move(state, NW, "C", 1)
    assert phrases.describe(moving, asked) == (
        "Move Tua'tha's Colossus from (4, 4) to (4, 5), beating Krell's Guardian (Bob)"
    )
    turn = in_turn(state, NW).evolve({"mp": 1})
    assert phrases.describe(turn, asked) == (
        "Move Tua'tha's Colossus from (4, 4) to (4, 5), beating Krell's Guardian (Bob) "
        "with the Sword of Storm"
    )
    assert phrases.describe(moving, mv("4,4", "x")) == ("Move Tua'tha's Colossus from (4, 4) to x")


def test_K_R14_tuathas_colossus_miniature_0_is_named_when_beaten_or_beating() -> None:
    """Miniature 0 is Tua'tha's Colossus: it is a miniature like any other."""
    state = place(new_game(), {pid(NW, "C"): "4,4", pid(NE, "W"): "4,5"})
    krell = ready_to_move(state, NE, "W", 1)
    assert phrases.describe(krell, mv("4,5", "4,4")) == (
        "Move Krell's Warrior from (4, 5) to (4, 4), beating Tua'tha's Colossus (Ann)"
    )
    assert phrases.describe(in_turn(state, NE), mv("4,5", "4,4")) == (
        "Move Krell's Warrior from (4, 5) to (4, 4), beating Tua'tha's Colossus (Ann)"
    )
    assert phrases.describe(in_turn(state, NW), mv("4,4", "4,5")) == (
        "Move Tua'tha's Colossus from (4, 4) to (4, 5), beating Krell's Warrior (Bob)"
    )


def test_K_R29_K_R30_the_weapons_name_tuathas_colossus_as_their_target() -> None:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NE, "C"): "4,3", pid(NW, "C"): "4,4"})
    state = ready_to_move(charge(charge(state, NE, "spear"), NE, "hammer"), NE, "C", 3)
    waiting = act(state, {"type": "move", "from": "4,3", "to": "4,3"})[0]
    assert phrases.describe(waiting, Spear(target="4,4")) == (
        "Spear of Vengeance: beat Tua'tha's Colossus (Ann) on (4, 4)"
    )
    assert phrases.describe(waiting, Hammer(targets=("4,4",))) == (
        "Hammer of Doom: beat Tua'tha's Colossus (Ann) on (4, 4)"
    )


def test_a_square_that_is_no_square_holds_no_miniature() -> None:
    state = new_game()
    assert phrases.describe(state, Swap(a="x", b="0,1")) == ("Swap the miniatures on x and (0, 1)")
    moving = ready_to_move(state, NW, "G", 2)
    assert phrases.describe(moving, mv("x", "0,2")) == "Move the miniature from x to (0, 2)"


def test_a_movement_roll_without_a_class_is_said_as_a_warriors() -> None:
    """A hand-made position can ask for movement dice with no class chosen."""
    asked = DiceRequest(purpose="movement", label="d", count=1, sides=4)
    state = new_game().evolve({"dice": asked, "active_class": None})
    assert phrases.describe(state, Roll()) == "Roll for the Warrior movement"


def test_every_captured_crystal_is_counted_in_a_crystal_correction() -> None:
    action = CorrectCrystals(citadel=1, supply=1, blue=1, yellow=2, green=3, red=4)
    assert phrases.describe(new_game(), action) == (
        "Correct the crystals: 1 on the Citadel, 1 in the supply, 10 captured"
    )


def test_a_piece_correction_with_half_a_square_says_beaten() -> None:
    """Refused when applied; until then it reads as the beaten form it falls back to."""
    state = new_game()
    assert phrases.describe(state, CorrectPiece(piece="blue-W2", row=3)) == (
        "Correct: Tua'tha's Warrior 2 is beaten"
    )
    assert phrases.describe(state, CorrectPiece(piece="blue-W2", col=3)) == (
        "Correct: Tua'tha's Warrior 2 is beaten"
    )


def test_a_list_in_a_field_without_words_is_left_as_it_is() -> None:
    assert phrases.value_words(new_game(), "colours", ("blue", "red")) is None
    assert phrases.value_words(new_game(), "skills", [1, 2]) is None
