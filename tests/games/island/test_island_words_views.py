"""The island views piece by piece (companion/games/island/views.py): the facts panel's
rows and lines word for word, each space's pieces, face-up tile and grid place, and the
cells every shared action acts on, on small hand-made positions."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.island import beast_master as bm
from companion.games.island import views as vw
from companion.games.island.model import (
    OFF_BOARD,
    ApplyEffect,
    BeastPos,
    CorrectMovements,
    CorrectSpace,
    DisplaceColossus,
    DrawCards,
    GainGold,
    KillAcolyte,
    Move,
    MoveBeast,
    MovePiece,
    PendingDisplace,
    PendingExplore,
    PendingLoot,
    PlaceCubes,
    PlaceWater,
    PlayCard,
    SpaceState,
    Spawn,
    Tile,
)
from companion.views import NO_CELLS, ActionCells, BoardView, Feature, PanelRow, Piece

from .helpers import BM_CFG, line_board, place

START = bm.RULES.setup(["Ann", "Bob"], bm.BeastMasterOptions(), 1)


def state(**update: Any) -> bm.BeastMasterState:
    return START.model_copy(update=update)


# --- the facts panel ----------------------------------------------------------------------


def test_beast_titles_and_labels() -> None:
    assert vw.beast_title("the Beast") == "The Beast"
    assert vw.beast_title("") == ""
    assert vw.beast_label("the Beast") == "B"
    assert vw.beast_label("The Sand Wyrm") == "SW"
    assert vw.beast_label("the") == "t"
    assert vw.beast_label("Beast II") == "BI"
    assert vw.beast_label("Great Old Sand Wyrm") == "GOS"
    assert vw.beast_label("") == "?"


def test_bm_r11_panel_rows_word_for_word() -> None:
    """The panel's rows per seat: a Colossus by its space's label, tipped (3.7) or none;
    the Perk row only while a Perk is in play (BM-R11), cut to the panel's width."""
    plain = vw.island_panel(START, turn=0, phase="Actions")
    assert plain.columns == ("Ann", "Bob")
    assert plain.rows == (
        PanelRow("Gold", ("0", "0")),
        PanelRow("Acolytes", ("10", "10")),
        PanelRow("Cards", ("3", "3")),
        PanelRow("Colossus", ("C3", "C3")),
    )
    assert plain.facts == ("The Beast on C3",)
    assert (plain.turn, plain.phase) == (0, "Actions")
    busy = state(
        gold=(4, 7),
        acolytes_in_hand=(8, 9),
        cards_in_hand=(2, 5),
        colossi=("r1c1", None),
        tipped=(True, False),
        perks=(None, "Eagle Eye of the North"),
        beasts=(BeastPos(name="the Beast", space="r2c3"), BeastPos(name="Roc", space="r1c2")),
    )
    panel = vw.island_panel(busy, turn=None, phase="Rest", before=("Age I",), after=("Mantle",))
    assert panel.rows == (
        PanelRow("Gold", ("4", "7")),
        PanelRow("Acolytes", ("8", "9")),
        PanelRow("Cards", ("2", "5")),
        PanelRow("Colossus", ("tipped", "—")),
        PanelRow("Perk", ("—", "Eagle Eye ")),
    )
    assert panel.facts == ("Age I", "The Beast on B3", "Roc on A2", "Mantle")
    assert (panel.turn, panel.phase) == (None, "Rest")
    nine = vw.island_panel(state(perks=("Swiftness", None)), turn=1, phase="x")
    assert nine.rows[-1] == PanelRow("Perk", ("Swiftness", "—"))
    assert nine.turn == 1


# --- the board ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "feature"),
    [
        (None, Feature("unexplored")),
        (Tile(kind="loot", gold=2, cards=1), Feature("loot", "2 Gold, 1 card")),
        (Tile(kind="loot", cards=2), Feature("loot", "2 cards")),
        (Tile(kind="loot", gold=3), Feature("loot", "3 Gold")),
        (Tile(kind="loot"), Feature("loot", "Loot")),
        (Tile(kind="loot", name="Chest", gold=1), Feature("loot", "Chest")),
        (Tile(kind="grass", loot="trait"), Feature("grass", "Grass with a Trait")),
        (Tile(kind="grass"), Feature("grass", "Grass")),
        (Tile(kind="lair", beast="Wyrm"), Feature("lair", "Lair of Wyrm")),
        (Tile(kind="lair"), Feature("lair", "Lair of a Beast")),
        (Tile(kind="lair", name="Den", beast="Wyrm"), Feature("lair", "Den")),
        (Tile(kind="environment", name="Volcano"), Feature("environment", "Volcano")),
        (Tile(kind="environment"), Feature("environment", "Environment")),
        (Tile(kind="bare"), Feature("bare")),
    ],
)
def test_bm_r15_ca_r10_what_lies_face_up(tile: Tile | None, feature: Feature) -> None:
    """BM-R15 a Loot by its printed reward; CA-R10 a bare space; BM-R05 unexplored."""
    assert vw.feature(tile) == feature


def board(st: Any) -> BoardView:
    return vw.island_board(st, BM_CFG)


def cell_pieces(view: BoardView, space: str) -> tuple[Piece, ...]:
    cell = view.cell(space)
    assert cell is not None
    return cell.pieces


def test_bm_r14_pieces_banners_and_cubes_on_a_space() -> None:
    """Per space: Beasts, Colossi, Acolyte stacks per seat, a Banner (BM-R14), Gold cubes."""
    st = place(
        START,
        acolytes={"r1c1": {0: 2, 1: 1}, "r1c2": {1: 3}},
        colossi={1: "r1c1"},
        beasts=[("the Beast", "r1c1"), ("Roc", "r2c2")],
    )
    spaces = list(st.spaces)
    index = st.board.graph.index
    spaces[index["r1c1"]] = spaces[index["r1c1"]].model_copy(update={"banner": 0, "cubes": 4})
    spaces[index["r1c3"]] = spaces[index["r1c3"]].model_copy(update={"banner": 1})
    spaces[index["r1c4"]] = spaces[index["r1c4"]].model_copy(update={"cubes": 1})
    view = board(st.model_copy(update={"spaces": tuple(spaces)}))
    assert cell_pieces(view, "r1c1") == (
        Piece(kind="beast", label="B", player=None, count=1),
        Piece(kind="colossus", label="K", player=1, count=1),
        Piece(kind="acolyte", label="2", player=0, count=2),
        Piece(kind="acolyte", label="1", player=1, count=1),
        Piece(kind="banner", label="Bn", player=0, count=1),
        Piece(kind="gold", label="4g", player=None, count=4),
    )
    assert cell_pieces(view, "r1c2") == (Piece(kind="acolyte", label="3", player=1, count=3),)
    assert cell_pieces(view, "r1c3") == (Piece(kind="banner", label="Bn", player=1, count=1),)
    assert cell_pieces(view, "r1c4") == (Piece(kind="gold", label="1g", player=None, count=1),)
    assert cell_pieces(view, "r2c2") == (Piece(kind="beast", label="R", player=None, count=1),)
    assert cell_pieces(view, "r3c3") == (Piece(kind="colossus", label="K", player=0, count=1),)
    assert cell_pieces(view, "r1c5") == ()
    a1 = view.cell("r1c1")
    assert a1 is not None and a1.label == "A1" and a1.control == 1  # Bob's Colossus controls it
    assert a1.terrain == "land" and a1.feature == Feature("unexplored")


def test_bm_r01_a_board_without_drawing_positions_is_laid_on_a_grid_six_wide() -> None:
    """BM-R01: a board file may leave positions out; its spaces then fill rows of six."""
    line = line_board(8)
    spaces = tuple(SpaceState(acolytes=(0, 0)) for _ in line.ids)
    flooded = list(spaces)
    flooded[2] = SpaceState(acolytes=(0, 0), water=True, tile=Tile(kind="bare"))
    st = state(
        board=line,
        spaces=tuple(flooded),
        colossi=("a7", None),
        beasts=(BeastPos(name="Wyrm", space="a0"),),
    )
    view = board(st)
    assert view.kind == "island"
    assert [(c.cell, c.x, c.y, c.label) for c in view.cells] == [
        ("a0", 0.0, 0.0, "a0"),
        ("a1", 1.0, 0.0, "a1"),
        ("a2", 2.0, 0.0, "a2"),
        ("a3", 3.0, 0.0, "a3"),
        ("a4", 4.0, 0.0, "a4"),
        ("a5", 5.0, 0.0, "a5"),
        ("a6", 0.0, 1.0, "a6"),
        ("a7", 1.0, 1.0, "a7"),
    ]
    assert [c.terrain for c in view.cells] == ["land"] * 2 + ["water"] + ["land"] * 5
    assert view.cells[2].feature == Feature("bare")
    assert [c.control for c in view.cells] == [None] * 7 + [0]
    assert view.cells[0].pieces == (Piece(kind="beast", label="W", player=None, count=1),)


def test_placeholder_board_positions_come_from_its_file() -> None:
    view = board(START)
    cells = {c.cell: c for c in view.cells}
    graph = START.board.graph
    for space in graph.spaces:
        assert (cells[space.id].x, cells[space.id].y) == (float(space.x), float(space.y))  # type: ignore[arg-type]
    assert len(view.cells) == len(START.board.ids)


# --- the cells of an action ---------------------------------------------------------------


def test_combined_cells_of_several_effects() -> None:
    """A card's effects together: every touched cell, the shared target, else none."""
    one = ActionCells.move("a", "b")
    assert vw.combined([NO_CELLS, one, NO_CELLS]) == one
    assert vw.combined([]) == ActionCells()
    two = vw.combined([ActionCells.at("c"), ActionCells.at("c", "d")])
    assert two == ActionCells(target="c", touched=frozenset({"c", "d"}))
    apart = vw.combined([ActionCells.at("c"), ActionCells.move("a", "b")])
    assert apart == ActionCells(target=None, touched=frozenset({"a", "b", "c"}))


BEASTS = state(beasts=(BeastPos(name="Wyrm", space="r1c1"), BeastPos(name="Roc", space="r1c2")))


@pytest.mark.parametrize(
    ("effect", "cells"),
    [
        (
            MovePiece(origin="r1c1", to="r1c2"),
            ActionCells(origin="r1c1", target="r1c2", touched=frozenset({"r1c1", "r1c2"})),
        ),
        (
            MovePiece(origin="r1c1", to=OFF_BOARD),
            ActionCells(origin="r1c1", target=None, touched=frozenset({"r1c1"})),
        ),
        (MoveBeast(to="r2c3"), ActionCells(target="r2c3", touched=frozenset({"r2c3", "r1c1"}))),
        (
            MoveBeast(beast="Roc", to="r2c3"),
            ActionCells(target="r2c3", touched=frozenset({"r2c3", "r1c2"})),
        ),
        (
            MoveBeast(beast="Ghost", to="r2c3"),
            ActionCells(target="r2c3", touched=frozenset({"r2c3"})),
        ),
        (KillAcolyte(who=1, space="r1c4"), ActionCells(target="r1c4", touched=frozenset({"r1c4"}))),
        (PlaceWater(space="r1c4"), ActionCells(target="r1c4", touched=frozenset({"r1c4"}))),
        (
            PlaceCubes(space="r1c4", amount=1),
            ActionCells(target="r1c4", touched=frozenset({"r1c4"})),
        ),
        (GainGold(amount=1), NO_CELLS),
        (DrawCards(amount=1), NO_CELLS),
    ],
)
def test_where_each_effect_happens(effect: Any, cells: ActionCells) -> None:
    assert vw.effect_cells(BEASTS, effect) == cells


def test_a_beast_move_with_no_beast_on_the_island_acts_on_its_destination() -> None:
    assert vw.effect_cells(state(beasts=()), MoveBeast(to="r2c3")) == ActionCells.at("r2c3")


def test_cells_of_the_shared_actions() -> None:
    cells = vw.shared_action_cells
    assert cells(START, Move(piece="colossus", origin="r3c3", to="r2c3")) == ActionCells.move(
        "r3c3", "r2c3"
    )
    assert cells(START, Spawn()) == ActionCells.at("r3c3")
    assert cells(START, Spawn(to="r2c3")) == ActionCells.at("r2c3")
    assert cells(state(active=1, colossi=("r3c3", "r1c1")), Spawn()) == ActionCells.at("r1c1")
    assert cells(state(colossi=(None, "r3c3")), Spawn()) == NO_CELLS
    away = PendingDisplace(space="r3c3", player=1, reason="the Beast arrived")
    assert cells(state(pending=(away,)), DisplaceColossus(to="r3c4")) == ActionCells.move(
        "r3c3", "r3c4"
    )
    assert cells(START, DisplaceColossus(to="r3c4")) == ActionCells.at("r3c4")
    loot = (PendingLoot(space="r2c4", player=0),)
    assert cells(state(pending=loot), DisplaceColossus(to="r3c4")) == ActionCells.at("r3c4")
    assert cells(START, ApplyEffect(effect=PlaceWater(space="r1c1"))) == ActionCells.at("r1c1")
    card = PlayCard(effects=(PlaceWater(space="r1c1"), KillAcolyte(who=1, space="r1c1")))
    assert cells(START, card) == ActionCells(target="r1c1", touched=frozenset({"r1c1"}))
    assert cells(START, PlayCard()) == ActionCells()
    correct = CorrectSpace(space="r2c2", acolytes=(0, 0), colossi=(0, 0))
    assert cells(START, correct) == ActionCells.at("r2c2")
    assert cells(START, CorrectMovements(movements=1)) is None


def test_the_space_waiting_to_be_explored() -> None:
    assert vw.exploring_space(START) is None
    exploring = (PendingExplore(space="r2c4", player=0), PendingLoot(space="r1c1", player=0))
    assert vw.exploring_space(state(pending=exploring)) == "r2c4"
    assert vw.exploring_space(state(pending=exploring[::-1])) is None


def test_a_state_whose_seats_or_spaces_do_not_line_up_is_never_drawn_half() -> None:
    """A panel of two Colossi but one tipped flag, a board of 27 spaces but 26 contents:
    an error, not a panel missing a seat or a board missing a space."""
    with pytest.raises(ValueError, match="zip"):
        vw.island_panel(state(tipped=(False,)), turn=0, phase="Actions")
    with pytest.raises(ValueError, match="zip"):
        board(state(spaces=START.spaces[:-1]))
