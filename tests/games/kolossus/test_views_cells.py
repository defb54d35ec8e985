"""Kolossus's views (``views.py``) on the edges the broader tests of test_views.py do not
reach: the Great Quake's moves by option, the strikes of a waiting Colossus, the cells of
actions named with odd keys, ``legal_actions_at``'s filters, the panel and the board."""

from __future__ import annotations

from typing import Any

from companion.games.kolossus import RULES, views
from companion.games.kolossus.content import cell
from companion.games.kolossus.model import (
    CorrectCrystals,
    CorrectPiece,
    CorrectRegion,
    CrystalCapture,
    Earthquake,
    GameResult,
    Hammer,
    KolossusState,
    QuakeMove,
    Rebirth,
    Spear,
    Swap,
)
from companion.views import NO_CELLS, ActionCells, Piece
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    charge,
    in_turn,
    move,
    mv,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
    with_band,
)


def quake(**options: Any) -> KolossusState:
    return act(new_game(**options), {"type": "ready"})[0]


def edge_citadel(state: KolossusState) -> KolossusState:
    """The Citadel moved to (5, 7): row 5 east by 4 would push it off (K-R41)."""
    return state.evolve({"terrain": (*state.terrain[:5], "..WHMMMCW..", *state.terrain[6:])})


# --- the Great Quake ---------------------------------------------------------------------


def test_K_R03_K_R06_the_quake_candidates_by_option_less_those_moved() -> None:
    central = ("row3", "row4", "row5", "row6", "row7", "col3", "col4", "col5", "col6", "col7")
    assert views.quake_candidates(quake()) == central
    moved = quake().evolve({"quake_moved": ("row5", "col3")})
    assert views.quake_candidates(moved) == tuple(r for r in central if r not in ("row5", "col3"))
    every = quake(quake_candidates="all22")
    assert views.quake_candidates(every) == (
        *(f"row{i}" for i in range(11)),
        *(f"col{i}" for i in range(11)),
    )


def test_K_R05_K_R41_exact_quake_moves_leave_out_only_the_one_pushing_the_citadel_off() -> None:
    state = roll(edge_citadel(quake()), 4)
    found = list(views.quake_moves(state))
    assert QuakeMove(region="row5", direction="east") not in found
    assert QuakeMove(region="row5", direction="west") in found
    assert len(found) == 10 * 2 - 1
    assert found[:4] == [
        QuakeMove(region="row3", direction="east"),
        QuakeMove(region="row3", direction="west"),
        QuakeMove(region="row4", direction="east"),
        QuakeMove(region="row4", direction="west"),
    ]
    assert views.quake_regions(state) == views.quake_candidates(state)  # west is still legal


def test_K_R04_K_R41_whether_the_citadel_falls_follows_the_games_move_model() -> None:
    """Woods on (5, 0), the Citadel on (5, 7) and nothing between: a rigid shift east by
    4 carries the Citadel off, a push moves the Woods up to (5, 4) and leaves it."""
    row = "W......C..."
    for model, east_listed in (("rigid", False), ("push_compress", True)):
        start = quake(region_move_model=model)
        state = roll(start.evolve({"terrain": (*start.terrain[:5], row, *start.terrain[6:])}), 4)
        listed = list(views.quake_moves(state))
        assert (QuakeMove(region="row5", direction="east") in listed) is east_listed, model
        assert QuakeMove(region="row5", direction="west") in listed, model


def test_K_R05_up_to_the_roll_every_distance_is_a_move_while_the_citadel_stays() -> None:
    state = roll(edge_citadel(quake(quake_distance="up_to_roll")), 4)
    row5 = [m for m in views.quake_moves(state) if m.region == "row5"]
    assert row5 == [
        QuakeMove(region="row5", direction="east", distance=1),
        QuakeMove(region="row5", direction="east", distance=2),
        QuakeMove(region="row5", direction="east", distance=3),
        QuakeMove(region="row5", direction="west", distance=1),
        QuakeMove(region="row5", direction="west", distance=2),
        QuakeMove(region="row5", direction="west", distance=3),
        QuakeMove(region="row5", direction="west", distance=4),
    ]
    assert len(list(views.quake_moves(state))) == 9 * 2 * 4 + 7
    two = roll(quake(quake_distance="up_to_roll"), 2)
    assert [m.distance for m in views.quake_moves(two) if m.region == "col3"] == [1, 2, 1, 2]


def test_K_R41_a_citadel_region_with_no_move_left_is_not_lit() -> None:
    """A hand-made die of 0 leaves no distance at all: no region may move."""
    state = quake(quake_distance="up_to_roll").evolve({"roll": (0,)})
    assert list(views.quake_moves(state)) == []
    assert views.quake_regions(state) == ()
    exact = quake().evolve({"roll": (7,)})  # the Citadel's row and column would push it off
    assert "row5" not in views.quake_regions(exact) and "col5" not in views.quake_regions(exact)
    assert views.quake_regions(exact) == tuple(
        r for r in views.quake_candidates(exact) if r not in ("row5", "col5")
    )


# --- the strikes of the waiting Colossus ------------------------------------------------------


def waiting(*weapons: str, mp: int = 3) -> KolossusState:
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0", pid(NE, "G"): "5,3"})
    for weapon in weapons:
        state = charge(state, NW, weapon)
    return move(ready_to_move(state, NW, "C", mp), "5,0", "5,0")


def test_K_R29_K_R30_K_R42_only_a_charged_weapon_has_targets() -> None:
    both = waiting("spear", "hammer")
    # (8, 0): Firbolg's Warrior, 3 squares south in a free line
    assert views.strike_squares(both) == ((44, 58, 88), ((44,),))
    assert list(views.strikes(both)) == [
        Spear(target="4,0"),
        Spear(target="5,3"),
        Spear(target="8,0"),
        Hammer(targets=("4,0",)),
    ]
    assert views.strike_squares(waiting("spear")) == ((44, 58, 88), ())
    assert views.strike_squares(waiting("spear", mp=2)) == ((44,), ())
    hammer = waiting("hammer")
    assert views.strike_squares(hammer) == ((), ((44,),))
    assert views.strike_squares(hammer.evolve({"phase": "turn"})) == ((), ())
    assert views.strike_squares(hammer.evolve({"active_piece": None})) == ((), ())
    beaten = place(hammer, {pid(NW, "C"): None})
    assert views.strike_squares(beaten) == ((), ())


def test_K_R28_K_R42_with_no_weapon_charged_the_colossus_ends_with_its_move() -> None:
    """The same enemies in reach, nothing charged: no Spear or Hammer waits, and the turn
    goes on (a charged Hammer alone keeps the Colossus waiting)."""
    assert waiting().phase == "turn" and waiting().active_piece is None
    assert waiting("hammer").phase == "after_move"


# --- where an action happens, whatever its keys ---------------------------------------------------


def test_a_move_named_with_loose_keys_touches_the_canonical_squares() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 2)
    assert RULES.action_cells(state, mv(" 5,0", "5 , 1")) == ActionCells.move("5,0", "5,1")
    assert RULES.action_cells(state, mv("5,0", "x")) == ActionCells(touched=frozenset({"5,0"}))
    assert RULES.action_cells(state, mv("x", "12,0")) == NO_CELLS
    assert RULES.action_cells(state, mv("x", "5,1")) == ActionCells(touched=frozenset({"5,1"}))
    assert RULES.action_cells(state, mv("4,4", "4,5")) == ActionCells.move("4,4", "4,5")


def test_K_R12_a_move_with_its_path_touches_every_enemy_square_it_enters() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,0", pid(NE, "W"): "6,0", pid(SE, "W"): "7,0"})
    state = ready_to_move(state, NW, "W", 3)
    action = mv("5,0", "8,0", path=["6,0", "7,0", "8,0"])
    assert RULES.action_cells(state, action) == ActionCells.move("5,0", "8,0", "6,0")
    odd = mv("5,0", "8,0", path=["6,0", "nowhere", "8,0"])
    assert RULES.action_cells(state, odd) == ActionCells.move("5,0", "8,0", "6,0")
    no_sword = mv("5,0", "6,0")
    assert RULES.action_cells(state, no_sword) == ActionCells.move("5,0", "6,0")


def test_K_R31_a_move_refused_the_sword_touches_only_its_ends() -> None:
    state = place(new_game(chapter=3), {pid(NW, "C"): "6,0", pid(NE, "W"): "6,1"})
    state = ready_to_move(charge(state, NW, "sword"), NW, "C", 3)
    assert RULES.action_cells(state, mv("6,0", "6,3")) == ActionCells.move("6,0", "6,3", "6,1")
    refused = mv("6,0", "6,3", sword=False)
    assert RULES.action_cells(state, refused) == ActionCells.move("6,0", "6,3")
    nowhere = mv("6,0", "0,5")
    assert RULES.action_cells(state, nowhere) == ActionCells.move("6,0", "0,5")


def test_K_R29_K_R30_strikes_named_loosely_or_without_a_colossus() -> None:
    state = waiting("spear", "hammer")
    assert RULES.action_cells(state, Spear(target=" 4,0")) == ActionCells.move("5,0", "4,0")
    assert RULES.action_cells(state, Spear(target="x")) == ActionCells(
        origin="5,0", touched=frozenset({"5,0"})
    )
    gone = state.evolve({"active_piece": None})
    assert RULES.action_cells(gone, Spear(target="4,0")) == ActionCells.at("4,0")
    beaten = place(state, {pid(NW, "C"): None})
    assert RULES.action_cells(beaten, Hammer(targets=("4,0", "4,1"))) == ActionCells(
        touched=frozenset({"4,0", "4,1"})
    )


def test_K_R04_K_R35_regions_and_rebirths_named_loosely() -> None:
    state = new_game()
    row3 = ActionCells(touched=frozenset(f"3,{c}" for c in range(11)))
    assert RULES.action_cells(state, QuakeMove(region="row03", direction="east")) == row3
    assert RULES.action_cells(state, Earthquake(region="line3", direction="east")) == NO_CELLS
    col10 = ActionCells(touched=frozenset(f"{r},10" for r in range(11)))
    assert RULES.action_cells(state, CorrectRegion(region="col10", direction="north")) == col10
    assert RULES.action_cells(state, Rebirth(cls="W", to=" 1,1")) == ActionCells.at("1,1")
    assert RULES.action_cells(state, Rebirth(cls="W", to="x")) == NO_CELLS
    assert RULES.action_cells(state, Swap(a="x", b="y")) == NO_CELLS


def test_0_2_1_a_piece_correction_touches_where_it_stands_and_where_it_goes() -> None:
    state = place(new_game(), {pid(SE, "W2"): None})
    assert RULES.action_cells(state, CorrectPiece(piece=" green-C ", row=6, col=6)) == (
        ActionCells.move("10,10", "6,6")
    )
    assert RULES.action_cells(state, CorrectPiece(piece="green-W2", row=6, col=6)) == (
        ActionCells.at("6,6")
    )
    assert RULES.action_cells(state, CorrectPiece(piece="green-W2")) == NO_CELLS
    assert RULES.action_cells(state, CorrectPiece(piece="pink-C", row=1, col=5)) == (
        ActionCells.at("1,5")
    )
    assert RULES.action_cells(state, CorrectPiece(piece="green-C", row=6)) == ActionCells(
        origin="10,10", touched=frozenset({"10,10"})
    )


def test_K_R15_a_crystal_correction_touches_the_citadel_where_it_stands() -> None:
    state = edge_citadel(new_game())
    fewer = CorrectCrystals(citadel=0, supply=12)
    assert RULES.action_cells(state, fewer) == ActionCells.at("5,7")


# --- legal_actions_at ---------------------------------------------------------------------------


def test_an_origin_or_target_finds_nothing_while_dice_are_asked_for() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 2)
    assert len(list(RULES.legal_actions_at(state, origin="5,0"))) == 11
    rolling = act(in_turn(new_game(), NW), {"type": "choose_class", "cls": "W"})[0]
    assert rolling.dice is not None
    assert list(RULES.legal_actions_at(rolling, origin="1,1")) == []
    assert list(RULES.legal_actions_at(rolling, target="1,1")) == []
    assert list(RULES.legal_actions_at(state, origin="5,0 ")) == []
    assert list(RULES.legal_actions_at(state, origin="12,0")) == []
    assert list(RULES.legal_actions_at(state, origin="0,0")) == []  # the Colossus may not move
    assert list(RULES.legal_actions_at(state, target="5,0 ")) == []


def test_a_target_lists_one_move_per_piece_in_piece_order() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,0", pid(NW, "W2"): "5,2"})
    state = ready_to_move(state, NW, "W", 2)
    assert list(RULES.legal_actions_at(state, target="5,1")) == [mv("5,0", "5,1"), mv("5,2", "5,1")]
    assert list(RULES.legal_actions_at(state, origin="5,0", target="5,1")) == [mv("5,0", "5,1")]
    assert list(RULES.legal_actions_at(state, origin="5,2", target="9,9")) == []
    assert list(RULES.legal_actions_at(state, target="5,1", touching="5,2")) == [mv("5,2", "5,1")]
    touching = list(RULES.legal_actions_at(state, touching="5,1"))
    assert touching == [
        mv("5,0", "5,1"),
        mv("5,2", "5,1"),
    ]


def test_off_the_move_phase_origins_and_targets_filter_the_listed_actions() -> None:
    state = waiting("spear", "hammer")
    assert list(RULES.legal_actions_at(state, origin="5,0")) == list(views.strikes(state))
    assert list(RULES.legal_actions_at(state, origin="4,0")) == []
    assert list(RULES.legal_actions_at(state, target="5,3")) == [Spear(target="5,3")]
    assert list(RULES.legal_actions_at(state, touching="4,0")) == [
        Spear(target="4,0"),
        Hammer(targets=("4,0",)),
    ]
    turn = in_turn(new_game(), NW)
    assert list(RULES.legal_actions_at(turn, target="1,1")) == []
    assert list(RULES.legal_actions_at(turn)) == list(RULES.legal_actions(turn))


# --- the panel and the board ------------------------------------------------------------------


def test_K_R21_K_R37_the_panel_of_three_players_in_chapter_3() -> None:
    state = new_game(players=3, chapter=3)
    state = in_turn(state, SE, round_=12).evolve(
        {
            "crystals": 2,
            "crystal_supply": 5,
            "captures": (
                CrystalCapture(round=2, warband=SE, count=3),
                CrystalCapture(round=5, warband=NW, count=1),
                CrystalCapture(round=6, warband=NE, count=1),
            ),
        }
    )
    state = place(state, {pid(NE, "W"): None, pid(SW, "C"): None, pid(SW, "G"): None})
    panel = RULES.panel(state)
    assert panel.columns == ("Ann", "Bob", "Cleo")
    players = [band.player for band in state.warbands]
    assert players == [0, 1, 0, 2]  # the first player runs an allied pair
    assert [(r.label, r.values) for r in panel.rows] == [
        ("Crystals", ("4", "1", "0")),
        ("Pieces", ("16", "7", "6")),
        ("Mana", ("40", "20", "20")),
    ]
    assert panel.facts == (
        "Ann: Tua'tha + Ishtari",
        "Bob: Krell",
        "Cleo: Firbolg",
        "Round 12/12",
        "Crystals on the Citadel: 2 (supply 5)",
        "Step: Activation",
    )
    assert (panel.turn, panel.phase, panel.turn_colour) == (0, "Activation", "green")


def test_a_game_with_a_result_names_no_colour_to_move() -> None:
    result = GameResult(alliance=0, reason="elimination", text="won")
    state = in_turn(new_game(), NE).evolve({"result": result})
    assert RULES.panel(state).turn_colour is None


def test_the_phase_names_a_player_reads() -> None:
    assert views.PHASE_NAME == {
        "placement": "Placement",
        "skills": "Starting skills",
        "quake": "Great Quake",
        "quake_allocate": "Great Quake mana",
        "destiny": "Destiny roll",
        "turn": "Activation",
        "move_roll": "Movement roll",
        "move": "Movement",
        "after_move": "Spear or Hammer",
        "allocate": "Mana allocation",
        "over": "Game over",
    }


def test_K_R15_a_miniature_on_the_citadel_stands_under_the_crystals() -> None:
    state = place(new_game(), {pid(SE, "G2"): "5,5"}).evolve({"crystals": 3, "crystal_supply": 9})
    view = RULES.board(state)
    citadel = view.cell("5,5")
    assert citadel is not None
    assert citadel.pieces == (
        Piece(kind="guardian", label="G", player=2, colour="green"),
        Piece(kind="crystal", label="×3", count=3),
    )
    assert (citadel.terrain, citadel.level, citadel.x, citadel.y) == ("citadel", 5, 5.0, 5.0)
    corner = view.cell("0,10")
    assert corner is not None and (corner.x, corner.y, corner.level) == (10.0, 0.0, 1)
    assert views.miniature(state, pid(SW, "W4")) == Piece(
        kind="warrior", label="W", player=3, colour="red"
    )
    assert cell(state.minis[pid(SW, "W4")]) == "8,1"


def test_K_R29_a_colossus_waiting_on_square_0_is_the_strikes_origin() -> None:
    """(0, 0) is square 0: Tua'tha's Colossus waits there on its start square."""
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "G"): None, pid(NE, "W"): "0,1"})
    state = ready_to_move(charge(state, NW, "spear"), NW, "C", 3)
    waiting_home = move(state, "0,0", "0,0")
    assert waiting_home.phase == "after_move"
    assert RULES.action_cells(waiting_home, Spear(target="0,1")) == ActionCells.move("0,0", "0,1")
    assert views.strike_squares(waiting_home) == ((1,), ())  # (0, 1) is square 1


def test_K_R19_the_panel_adds_up_every_capture_of_a_warband() -> None:
    state = new_game().evolve(
        {
            "crystals": 0,
            "crystal_supply": 9,
            "captures": (
                CrystalCapture(round=1, warband=NE, count=1),
                CrystalCapture(round=2, warband=NE, count=2),
            ),
        }
    )
    assert RULES.panel(state).rows[0].values == ("0", "3", "0", "0")


def test_a_game_over_without_a_result_yet_names_no_colour_to_move() -> None:
    assert RULES.panel(in_turn(new_game(), NE).evolve({"phase": "over"})).turn_colour is None


def test_a_move_target_that_is_not_a_key_has_no_moves_to_it() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 2)
    assert list(views._moves_to(state, "5,0 ")) == []
    assert list(views._moves_to(state, "x")) == []
    assert list(views._moves_to(state, "5,1")) == [mv("5,0", "5,1")]


def test_only_a_canonical_origin_key_of_the_acting_piece_starts_actions() -> None:
    moving = ready_to_move(new_game(), NW, "C", 2)
    assert list(views._actions_from(moving, "5,0 ")) == []
    assert list(views._actions_from(moving, "0,0 ")) == []  # the acting piece's square,
    assert list(views._actions_from(moving, "00,0")) == []  # named otherwise than its key
    assert mv("0,0", "0,0") in list(RULES.legal_actions_at(moving, origin="0,0"))  # square 0
    assert list(views._actions_from(in_turn(new_game(), NW), "1,1")) == []
    assert list(views._actions_from(waiting("spear"), "4,0")) == []  # the Colossus is on 5,0


def test_K_R32_a_move_refused_the_whip_touches_no_enemy_only_the_whip_could_beat() -> None:
    """Krell's Warrior (Defence 2) on (6, 1): with the Whip the Colossus beats it for 1
    and carries on by the Sword to (6, 3); refused the Whip, no way reaches (6, 3)."""
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "6,0", pid(NE, "W"): "6,1"})
    state = with_band(state, NE, skills=(0, 2, 0, 0, 0, 0), supply=18)
    state = ready_to_move(charge(charge(state, NW, "sword"), NW, "whip"), NW, "C", 3)
    whipped = RULES.action_cells(state, mv("6,0", "6,3"))
    assert whipped == ActionCells.move("6,0", "6,3", "6,1")
    refused = RULES.action_cells(state, mv("6,0", "6,3", whip=False))
    assert refused == ActionCells.move("6,0", "6,3")
