"""Kolossus's typed views: the panel, the board, where actions happen, and the highlights
agreeing with the legal actions (companion.views; the cross-game contract is
tests/test_views_contract.py, which plays Chapter 1 with the default options)."""

from __future__ import annotations

import random
from typing import Any, NoReturn

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import Roll
from companion.games.kolossus import RULES
from companion.games.kolossus.content import CORNERS, cell
from companion.games.kolossus.model import (
    ChooseClass,
    CorrectCrystals,
    CorrectLandscape,
    CorrectPiece,
    CrystalCapture,
    Earthquake,
    EndTurn,
    Finish,
    GameResult,
    Hammer,
    KolossusAction,
    KolossusState,
    Move,
    QuakeMove,
    Ready,
    Rebirth,
    Spear,
    Swap,
)
from companion.highlights import Role
from companion.views import NO_CELLS, ActionCells, BoardView, CellView, Piece, PieceKind
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SE,
    SW,
    act,
    charge,
    in_turn,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
)
from tests.games.random_play import random_game
from tests.helpers.kolossus import OPTION_CHOICES
from tests.helpers.views_contract import check_filters, check_highlights_agree, check_views

LEVEL = {"bare": 1, "woods": 2, "hills": 3, "mountains": 4, "citadel": 5}
KIND: dict[str, PieceKind] = {"C": "colossus", "G": "guardian", "W": "warrior"}


def cells_of(state: KolossusState) -> list[tuple[KolossusAction, ActionCells]]:
    return [(a, RULES.action_cells(state, a)) for a in RULES.legal_actions(state)]


def lit(state: KolossusState, roles: set[Role], focus: str | None = None) -> set[str]:
    return {h.cell for h in RULES.highlights(state, focus) if h.role in roles}


def dumped(actions: Any) -> list[dict[str, Any]]:
    return [RULES.dump_action(a) for a in actions]


def at(view: BoardView, key: str) -> CellView:
    found = view.cell(key)
    assert found is not None, key
    return found


# --- the board -------------------------------------------------------------------------


def test_a_fresh_board_has_121_squares_with_the_pyramid_K_R01() -> None:
    view = RULES.board(new_game())
    assert view.kind == RULES.board_kind == "grid"
    assert len(view.cells) == 121
    assert [c.cell for c in view.cells] == [f"{r},{c}" for r in range(11) for c in range(11)]
    for c in view.cells:
        assert (c.y, c.x) == tuple(float(n) for n in c.cell.split(","))
        assert c.level == LEVEL[c.terrain]
        assert c.control is None
    terrain = {c.cell: c.terrain for c in view.cells}
    assert [terrain[f"{d},{d}"] for d in range(6)] == [
        "bare",
        "bare",
        "woods",
        "hills",
        "mountains",
        "citadel",
    ]


def test_the_miniatures_stand_on_their_start_squares_in_warband_colours_K_R02() -> None:
    state = new_game()
    view = RULES.board(state)
    minis = [
        (c.cell, p) for c in view.cells for p in c.pieces if p.kind != "crystal"
    ]  # 4 warbands × (Colossus, 2 Guardians, 5 Warriors)
    assert len(minis) == 32
    for piece, square in enumerate(state.minis):
        band = state.warbands[piece // 8]
        assert square in band.zone
        cls = "CGGWWWWW"[piece % 8]
        expected = Piece(kind=KIND[cls], label=cls, player=band.player, colour=band.colour)
        assert at(view, cell(square)).pieces == (expected,)
    # The default arrangement puts each Colossus on its board corner.
    corners = {"0,0": "blue", "0,10": "yellow", "10,10": "green", "10,0": "red"}
    for key, colour in corners.items():
        (colossus,) = at(view, key).pieces
        assert (colossus.kind, colossus.colour) == ("colossus", colour)


def test_two_players_each_control_an_allied_pair_of_warbands_K_R21() -> None:
    view = RULES.board(new_game(players=2))
    seats = {key: at(view, key).pieces[0].player for key in ("0,0", "0,10", "10,10", "10,0")}
    assert seats == {"0,0": 0, "0,10": 1, "10,10": 0, "10,0": 1}


def test_the_crystals_wait_on_the_citadel_wherever_it_is_K_R15() -> None:
    state = new_game()
    assert at(RULES.board(state), "5,5").pieces == (Piece(kind="crystal", label="×1", count=1),)
    moved = act(state, {"type": "correct_region", "region": "row5", "direction": "east"})[0]
    moved = moved.model_copy(update={"crystals": 4, "crystal_supply": 8})
    view = RULES.board(moved)
    assert at(view, "5,5").terrain == "mountains"
    assert at(view, "5,6").terrain == "citadel"
    assert at(view, "5,6").pieces == (Piece(kind="crystal", label="×4", count=4),)
    none = RULES.board(state.model_copy(update={"crystals": 0, "crystal_supply": 12}))
    assert all(p.kind != "crystal" for c in none.cells for p in c.pieces)


def test_a_beaten_miniature_leaves_the_board_view() -> None:
    state = place(new_game(), {pid(NW, "C"): None, pid(NE, "W"): "5,0"})
    view = RULES.board(state)
    assert at(view, "0,0").pieces == ()
    (warrior,) = at(view, "5,0").pieces
    assert (warrior.kind, warrior.label, warrior.colour, warrior.player) == (
        "warrior",
        "W",
        "yellow",
        1,
    )
    assert sum(len(c.pieces) for c in view.cells) == 31 + 1  # 31 miniatures, the crystals


def test_a_square_that_shows_the_same_is_the_same_cell_from_board_to_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board is made for every state (the roll's cue on the LEDs needs it first): an
    occupied square whose pieces did not change comes back as the same CellView, and
    every board equals one whose squares are all made anew."""
    from companion.games.kolossus import views as kolossus_views

    kept = 0
    previous: BoardView | None = None
    for state in random_game(RULES, new_game(), 4, 120).states:
        view = RULES.board(state)
        with monkeypatch.context() as uncached:
            uncached.setattr(kolossus_views, "_occupied", kolossus_views._occupied.__wrapped__)
            assert view == RULES.board(state)
        if previous is not None:
            for before, after in zip(previous.cells, view.cells, strict=True):
                if before == after and after.pieces:
                    assert after is before
                    kept += 1
        previous = view
    assert kept > 0


# --- the panel -------------------------------------------------------------------------


def test_the_panel_of_a_fresh_game() -> None:
    panel = RULES.panel(new_game())
    assert panel.columns == ("Ann", "Bob", "Cleo", "Dov")
    assert [(r.label, r.values) for r in panel.rows] == [
        ("Crystals", ("0", "0", "0", "0")),
        ("Pieces", ("8", "8", "8", "8")),
    ]
    assert panel.facts == (
        "Ann: Tua'tha",
        "Bob: Krell",
        "Cleo: Ishtari",
        "Dov: Firbolg",
        "Invasion",
        "Crystals on the Citadel: 1 (supply 11)",
        "Step: Placement",
    )
    assert (panel.turn, panel.phase, panel.turn_colour) == (0, "Placement", "blue")


def test_the_panel_sums_a_players_two_warbands_and_shows_mana_from_chapter_2_K_R21() -> None:
    state = place(new_game(players=2, chapter=2), {pid(SE, "W"): None})
    state = state.model_copy(
        update={
            "captures": (CrystalCapture(round=1, warband=SE, count=2),),
            "crystal_supply": 9,
        }
    )
    panel = RULES.panel(state)
    assert panel.columns == ("Ann", "Bob")
    assert [(r.label, r.values) for r in panel.rows] == [
        ("Crystals", ("2", "0")),
        ("Pieces", ("15", "16")),
        ("Mana", ("40", "40")),
    ]
    assert panel.facts[:2] == ("Ann: Tua'tha + Ishtari", "Bob: Krell + Firbolg")


def test_the_panel_follows_the_turn_the_round_and_the_phase_K_R37() -> None:
    state = act(new_game(), {"type": "ready"})[0]
    panel = RULES.panel(state)
    assert (panel.turn, panel.phase, panel.turn_colour) == (0, "Great Quake", "blue")
    state = in_turn(new_game(), SW, round_=3)
    panel = RULES.panel(state)
    assert (panel.turn, panel.phase, panel.turn_colour) == (3, "Activation", "red")
    assert "Round 3/12" in panel.facts and "Step: Activation" in panel.facts
    moving = ready_to_move(new_game(first_corner="SE"), SE, "G", 4)
    panel = RULES.panel(moving)
    assert (panel.turn, panel.phase, panel.turn_colour) == (2, "Movement", "green")


def test_the_panel_of_a_finished_game_names_no_turn() -> None:
    result = GameResult(alliance=None, reason="no_capture", text="A draw.")
    state = new_game().model_copy(update={"phase": "over", "result": result, "round": 12})
    panel = RULES.panel(state)
    assert (panel.turn, panel.phase, panel.turn_colour) == (None, "Game over", None)


# --- where actions happen ----------------------------------------------------------------


def test_a_move_touches_its_two_squares_not_its_path_K_R09() -> None:
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "5,0"}), NW, "W", 2)
    action = Move.model_validate({"from": "5,0", "to": "3,0"})
    assert RULES.action_cells(state, action) == ActionCells.move("5,0", "3,0")
    still = Move.model_validate({"from": "5,0", "to": "5,0"})  # a 0-square move
    assert RULES.action_cells(state, still) == ActionCells(
        origin="5,0", target="5,0", touched=frozenset({"5,0"})
    )


def sword_position() -> KolossusState:
    """Blue's Colossus on 6,0 with 3 MP and the Sword of Storm; Krell's Warrior on 6,1.
    6,3 is only reached through the Warrior: a beat, then on by the Sword."""
    state = place(new_game(chapter=3), {pid(NW, "C"): "6,0", pid(NE, "W"): "6,1"})
    return ready_to_move(charge(state, NW, "sword"), NW, "C", 3)


def test_a_sword_move_also_touches_the_enemy_it_beats_on_the_way_K_R31() -> None:
    state = sword_position()
    action = Move.model_validate({"from": "6,0", "to": "6,3"})
    assert dumped([action])[0] in dumped(RULES.legal_actions(state))
    assert RULES.action_cells(state, action) == ActionCells.move("6,0", "6,3", "6,1")
    explicit = Move.model_validate(
        {"from": "6,0", "to": "6,3", "path": ["6,1", "6,2", "6,3"], "sword": True}
    )
    assert RULES.action_cells(state, explicit) == ActionCells.move("6,0", "6,3", "6,1")
    assert dumped([action])[0] in dumped(RULES.legal_actions_at(state, touching="6,1"))
    # The beaten square is lit from the Colossus, as the agreement asks.
    assert "6,1" in lit(state, {Role.CAPTURABLE}, "6,0")
    after = move(state, "6,0", "6,3")
    assert after.minis[pid(NE, "W")] == -1


def strike_position() -> KolossusState:
    """After its 0-square move, Blue's Colossus on 5,0 holds the Spear and the Hammer."""
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", pid(NE, "W"): "4,0", pid(NE, "G"): "5,3"})
    state = charge(charge(state, NW, "spear"), NW, "hammer")
    return move(ready_to_move(state, NW, "C", 3), "5,0", "5,0")


def test_spear_and_hammer_start_on_the_waiting_colossus_K_R29_K_R30() -> None:
    state = strike_position()
    assert state.phase == "after_move"
    assert RULES.action_cells(state, Spear(target="5,3")) == ActionCells.move("5,0", "5,3")
    assert RULES.action_cells(state, Hammer(targets=("4,0",))) == ActionCells.move("5,0", "4,0")
    both = RULES.action_cells(state, Hammer(targets=("4,0", "5,1")))
    assert both == ActionCells(origin="5,0", touched=frozenset({"5,0", "4,0", "5,1"}))
    assert RULES.action_cells(state, Finish()) == NO_CELLS
    strikes = dumped(RULES.legal_actions_at(state, origin="5,0"))
    assert strikes == [d for d in dumped(RULES.legal_actions(state)) if d["type"] != "finish"]
    assert {h.cell for h in RULES.highlights(state) if h.role == Role.SELECTED} == {"5,0"}


def test_regions_rebirths_and_swaps_have_no_origin_K_R04_K_R35_K_R02() -> None:
    state = new_game()
    row3 = frozenset(f"3,{c}" for c in range(11))
    quake = QuakeMove(region="row3", direction="east")
    assert RULES.action_cells(state, quake) == ActionCells(touched=row3)
    col7 = RULES.action_cells(state, Earthquake(region="col7", direction="north"))
    assert col7 == ActionCells(touched=frozenset(f"{r},7" for r in range(11)))
    assert RULES.action_cells(state, Rebirth(cls="G", to="1,1")) == ActionCells.at("1,1")
    swap = RULES.action_cells(state, Swap(a="0,0", b="2,1"))
    assert swap == ActionCells(touched=frozenset({"0,0", "2,1"}))  # either may be tapped first
    named = RULES.action_cells(state, Swap(a="blue-C", b="2,1"))  # a swap names squares only
    assert named == ActionCells(touched=frozenset({"2,1"}))


def test_off_board_actions_have_no_cells() -> None:
    state = new_game()
    for action in (Roll(), Ready(), ChooseClass(cls="W"), EndTurn(), Finish()):
        assert RULES.action_cells(state, action) == NO_CELLS
    allocate = RULES.parse_action({"type": "allocate", "pool": 1})
    assert RULES.action_cells(state, allocate) == NO_CELLS


def test_corrections_that_name_a_square_touch_it() -> None:
    state = new_game()
    to_4_4 = RULES.action_cells(state, CorrectPiece(piece="blue-C", row=4, col=4))
    assert to_4_4 == ActionCells.move("0,0", "4,4")
    beaten = RULES.action_cells(state, CorrectPiece(piece="blue-C"))
    assert beaten == ActionCells(origin="0,0", touched=frozenset({"0,0"}))
    land = CorrectLandscape(row=4, col=4, landscape="bare")
    assert RULES.action_cells(state, land) == ActionCells.at("4,4")
    more = CorrectCrystals(citadel=2, supply=10)
    assert RULES.action_cells(state, more) == ActionCells.at("5,5")
    same = CorrectCrystals(citadel=1, supply=11)
    assert RULES.action_cells(state, same) == NO_CELLS


# --- legal_actions_at generates only what it is asked ----------------------------------


def boom(state: KolossusState) -> NoReturn:
    raise AssertionError("legal_actions_at enumerated every legal action")


def test_an_origin_generates_only_that_pieces_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    state = sword_position()
    state = place(state, {pid(NW, "W"): "8,5"})
    state = state.model_copy(update={"active_class": "W", "mp": 3})
    cells = cells_of(state)
    origins = sorted({c.origin for _, c in cells if c.origin is not None})
    assert len(origins) == 5  # Blue's five Warriors
    expected = {o: dumped(a for a, c in cells if c.origin == o) for o in origins}
    to_7_5 = dumped(a for a, c in cells if c.target == "7,5")
    assert to_7_5
    monkeypatch.setattr(RULES, "legal_actions", boom)
    for origin in origins:
        assert dumped(RULES.legal_actions_at(state, origin=origin)) == expected[origin]
    assert dumped(RULES.legal_actions_at(state, target="7,5")) == to_7_5
    assert list(RULES.legal_actions_at(state, origin="6,0")) == []  # not a Warrior
    assert list(RULES.legal_actions_at(state, origin=" 8,5")) == []  # not a cell key


# --- the highlights agree with the legal actions -----------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    candidates=st.sampled_from(["central10", "all22"]),
    distance=st.sampled_from(["exact", "up_to_roll"]),
    model=st.sampled_from(["rigid", "push_compress"]),
    rolls=st.lists(st.integers(1, 4), min_size=4, max_size=4),
    picks=st.lists(st.integers(0, 10**6), min_size=4, max_size=4),
)
def test_quake_regions_lit_are_the_regions_legal_quake_moves_touch_K_R03_K_R05_K_R41(
    candidates: str, distance: str, model: str, rolls: list[int], picks: list[int]
) -> None:
    """Once the die is read, the quake_region cells lit with no focus are exactly the
    squares of the legal quake moves: a region is lit only if it may move (K-R03, K-R06),
    by the distance rolled (K-R05), without pushing the Citadel off (K-R41)."""
    options: dict[str, Any] = {
        "quake_candidates": candidates,
        "quake_distance": distance,
        "region_move_model": model,
    }
    state = act(new_game(**options), {"type": "ready"})[0]
    for value, pick in zip(rolls, picks, strict=True):
        state = roll(state, value)
        cells = cells_of(state)
        assert cells and all(isinstance(a, QuakeMove) for a, _ in cells)
        assert lit(state, {Role.QUAKE_REGION}) == set().union(*(c.touched for _, c in cells))
        state = RULES.apply(state, cells[pick % len(cells)][0])[0]
    assert state.phase == "destiny"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), chapter=st.sampled_from([2, 3]))
def test_views_agree_with_legal_actions_in_every_chapter_and_option(
    seed: int, chapter: int
) -> None:
    """The cross-game agreement, over Chapters 2 and 3 with random house rules: Titan
    Weapons (the Sword's beats on the way, Spear, Hammer, Whip), Rebirth, Earthquake."""
    rnd = random.Random(seed)
    options = {name: rnd.choice(values) for name, values in OPTION_CHOICES.items()}
    options["first_corner"] = rnd.choice(CORNERS)
    state = new_game(players=rnd.choice([2, 3, 4]), seed=seed, chapter=chapter, **options)
    played = random_game(RULES, state, seed, limit=300)
    for position in played.states[:: max(1, len(played.states) // 25)]:
        cells = cells_of(position)
        check_filters(RULES, position, cells)
        check_highlights_agree(RULES, position, cells)
        check_views(RULES, position, cells)


def test_pieces_and_the_turn_wear_the_colour_of_their_corner_K_R21() -> None:
    state = new_game(colours=("red", "green", "blue", "yellow"))
    view = RULES.board(state)
    colours = [at(view, k).pieces[0].colour for k in ("0,0", "0,10", "10,10", "10,0")]
    assert colours == ["red", "green", "blue", "yellow"]
    assert RULES.panel(state).turn_colour == "red"
    assert RULES.panel(in_turn(state, SW)).turn_colour == "yellow"
