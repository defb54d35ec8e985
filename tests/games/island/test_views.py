"""The island games' typed views and cells (companion.views).

The facts panel and the board of a fresh game of each; where every kind of action
happens; that the highlights light exactly what the legal actions do (the cross-game
checks of tests/test_views_contract.py, here on random islands with each game's
options); the Harvest lights; and that the board view never loses or invents an
Acolyte during random play.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import Roll
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.beast_master import model as bmm
from companion.games.island.board import IslandBoard, placeholder_board
from companion.games.island.colossi import model as cam
from companion.games.island.mechanics import control_map
from companion.games.island.model import (
    ApplyEffect,
    DisplaceColossus,
    GainGold,
    KillAcolyte,
    Move,
    MoveBeast,
    MovePiece,
    PendingDisplace,
    PlaceWater,
    PlayCard,
    Spawn,
)
from companion.games.island.views import beast_label
from companion.highlights import Role
from companion.views import NO_CELLS, ActionCells, BoardView, Piece
from tests.games.random_play import GameRules, random_game
from tests.helpers.views_contract import check_filters, check_highlights_agree, check_views

from .helpers import connected_board_from, explored, graph_board, place

NAMES = ["Ann", "Bob", "Cleo", "Dov"]
CENTRE = "r3c3"
CENTRE_LABEL = "C3"  # the placeholder island's centre as its board draws it


def bm_new(players: int = 2, **options: Any) -> bm.BeastMasterState:
    return bm.RULES.setup(NAMES[:players], bm.BeastMasterOptions(**options), seed=3)


def ca_new(players: int = 2, **options: Any) -> ca.ColossiState:
    options.setdefault("use_traits", False)
    return ca.RULES.setup(NAMES[:players], ca.ColossiOptions(**options), seed=3)


def board_of(rules: GameRules, state: Any) -> BoardView:
    view = rules.board(state)
    assert isinstance(view, BoardView)
    return view


def pieces(view: BoardView, space: str) -> tuple[Piece, ...]:
    cell = view.cell(space)
    assert cell is not None
    return cell.pieces


# --- the facts panel ----------------------------------------------------------------------


def test_beast_master_panel_of_a_fresh_game() -> None:
    """BM-R02 10 Acolytes each with 2 players, 3 cards, every Colossus on the centre
    with the Beast (BM-R03); no Perk row before anyone has a Perk."""
    state = bm_new(2)
    panel = bm.RULES.panel(state)
    assert panel.columns == ("Ann", "Bob")
    assert [(r.label, r.values) for r in panel.rows] == [
        ("Gold", ("0", "0")),
        ("Acolytes", ("10", "10")),
        ("Cards", ("3", "3")),
        ("Colossus", (CENTRE_LABEL, CENTRE_LABEL)),
    ]
    assert panel.facts == (f"The Beast on {CENTRE_LABEL}",)
    assert panel.turn == 0 == bm.RULES.current_player(state)
    assert panel.phase == "Actions or Rest"
    assert panel.turn_colour is None
    assert bm.RULES.panel(bm_new(3)).rows[1].values == ("12", "12", "12")  # BM-R02


def test_beast_master_panel_perks_and_phases() -> None:
    """A Perk in play adds its row (BM-R11); placing Colossi (BM-R03) has no Colossus yet."""
    state = bm_new(2).model_copy(update={"perks": ("Swift Feet of the Hills", None)})
    assert bm.RULES.panel(state).rows[-1].label == "Perk"
    assert bm.RULES.panel(state).rows[-1].values == ("Swift Feet", "—")
    placing = bm_new(2, colossus_start="player_choice")
    panel = bm.RULES.panel(placing)
    assert panel.phase == "Placing the Colossi"
    assert panel.rows[3].values == ("—", "—")
    actions = bm.RULES.apply(state, bmm.TakeActions())[0]
    assert bm.RULES.panel(actions).phase == "Actions"


def test_colossi_panel_shows_the_age_first_and_the_mantle_last() -> None:
    """CA-R01 Colossi in the centre; the Age card, then Age I's Lair and Beast on the
    centre; CA-R04 rounds per Age; the Mantle holder (3.4)."""
    state = ca_new(3, mantle_holder=1)
    panel = ca.RULES.panel(state)
    assert panel.facts == ("Age: I, card not revealed", "Mantle: Bob")
    assert panel.rows[3].values == (CENTRE_LABEL,) * 3
    assert [r.label for r in panel.rows] == ["Gold", "Acolytes", "Cards", "Colossus"]
    assert panel.phase == "Age card" and panel.turn == 1
    revealed, _ = ca.RULES.apply(state, cam.RevealAge(name="Dawn", beasts=("Wyrm",), rounds=3))
    panel = ca.RULES.panel(revealed)
    assert panel.facts == ("Age: I (Dawn), round 1/3", f"Wyrm on {CENTRE_LABEL}", "Mantle: Bob")
    assert panel.phase == "Action Phase"
    two_turns = revealed.model_copy(update={"age_turns": 7})
    assert ca.RULES.panel(two_turns).facts[0] == "Age: I (Dawn), round 3/3"


def test_colossi_panel_marks_a_tipped_colossus() -> None:
    """A harvested Colossus lies on its side (3.7) until the next Age."""
    state = ca_new(2).model_copy(update={"tipped": (True, False), "phase": "harvest"})
    assert ca.RULES.panel(state).rows[3].values == ("tipped", CENTRE_LABEL)
    assert ca.RULES.panel(state).phase == "Harvest Phase"


# --- the board --------------------------------------------------------------------------


def test_board_of_a_fresh_beast_master_game() -> None:
    """Every space of the board file once, where the file draws it (BM-R01); the Beast
    and both Colossi on the centre (BM-R03); every Acolyte still in hand (BM-R04)."""
    state = bm_new(2)
    view = board_of(bm.RULES, state)
    assert view.kind == "island" == bm.RULES.board_kind
    assert [c.cell for c in view.cells] == list(placeholder_board().ids)
    for space, cell in zip(placeholder_board().spaces, view.cells, strict=True):
        assert (cell.x, cell.y) == (space.x, space.y)
        assert cell.terrain == "land" and cell.level is None
    assert pieces(view, CENTRE) == (
        Piece(kind="beast", label="B"),
        Piece(kind="colossus", label="K", player=0),
        Piece(kind="colossus", label="K", player=1),
    )
    assert all(not c.pieces for c in view.cells if c.cell != CENTRE)
    assert all(c.control is None for c in view.cells)  # two Colossi, no Acolytes: nobody


def test_board_of_a_fresh_colossi_game() -> None:
    """CA-R01: every Colossus on the centre, no Beast before the Age card is revealed,
    then Age I's Beast on its Lair in the centre."""
    state = ca_new(3)
    view = board_of(ca.RULES, state)
    assert view.kind == "island" == ca.RULES.board_kind
    assert len(view.cells) == len(state.board.ids) == len({c.cell for c in view.cells})
    assert [p.kind for p in pieces(view, CENTRE)] == ["colossus"] * 3
    revealed, _ = ca.RULES.apply(state, cam.RevealAge(name="Dawn", beasts=("Sand Wyrm",)))
    assert pieces(board_of(ca.RULES, revealed), CENTRE)[0] == Piece(kind="beast", label="SW")


def test_water_from_the_board_file_and_placed_in_play() -> None:
    """Water spaces (CA-R09) are water whether the board file or an Age card (CA-R18)
    put it there; a space without a drawing position goes on a 6-wide grid."""
    board = graph_board(
        [("o", "a"), ("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f"), ("f", "g")],
        "o",
        water=("g",),
    )
    state = ca_new(2, board=board)
    view = board_of(ca.RULES, state)
    assert [c.terrain for c in view.cells] == ["land"] * 7 + ["water"]
    assert [(c.x, c.y) for c in view.cells][5:] == [(5.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
    flooded, _ = ca.RULES.apply(state, cam.RevealAge(name="Flood", beasts=("Wyrm",), water=("c",)))
    cell = board_of(ca.RULES, flooded).cell("c")
    assert cell is not None and cell.terrain == "water"


def test_acolytes_banners_and_control_on_the_board() -> None:
    """Acolyte stacks per seat, a Banner (BM-R14) and the controller the highlights show."""
    state = place(bm_new(2), acolytes={"r1c1": {0: 2, 1: 1}, "r1c2": {1: 3}})
    state = state.model_copy(
        update={
            "spaces": tuple(
                sp.model_copy(update={"banner": 1}) if sid == "r1c2" else sp
                for sid, sp in zip(state.board.ids, state.spaces, strict=True)
            ),
            "banners_in_hand": (5, 4),
        }
    )
    view = board_of(bm.RULES, state)
    assert pieces(view, "r1c1") == (
        Piece(kind="acolyte", label="2", player=0, count=2),
        Piece(kind="acolyte", label="1", player=1, count=1),
    )
    assert Piece(kind="banner", label="Bn", player=1) in pieces(view, "r1c2")
    lit = {h.cell: h.player for h in bm.RULES.highlights(state) if h.role == Role.CONTROL}
    assert {c.cell: c.control for c in view.cells if c.control is not None} == lit
    assert lit == control_map(state, bmm.config(state)) == {"r1c1": 0, "r1c2": 1}


# --- the cells of actions -----------------------------------------------------------------


def test_a_movement_starts_and_ends_but_does_not_touch_its_road() -> None:
    """B.3: the chain's spaces keep what stands on them; only both ends change."""
    state = place(explored(bm_new(2)), acolytes={"r2c3": {0: 1}, "r2c4": {0: 1}, "r2c5": {0: 1}})
    move = Move(piece="acolyte", origin="r2c3", to="r1c5", path=("r2c4", "r2c5", "r1c5"))
    assert bm.RULES.action_cells(state, move) == ActionCells.move("r2c3", "r1c5")


def test_cells_of_placing_spawning_and_effects() -> None:
    state = place(explored(bm_new(2)), acolytes={"r1c1": {1: 2}})
    cells = bm.RULES.action_cells
    assert cells(state, Spawn()) == ActionCells.at(CENTRE)  # on the Colossus (BM-R07)
    assert cells(state, Spawn(to="r2c3")) == ActionCells.at("r2c3")
    assert cells(state, bmm.PlaceBanner(space="r1c1")) == ActionCells.at("r1c1")
    assert cells(state, bmm.PlaceColossus(space="r2c2")) == ActionCells.at("r2c2")
    beast_card = PlayCard(kind="beast_master", effects=(MoveBeast(to="r2c3"),))
    assert cells(state, beast_card) == ActionCells(
        target="r2c3", touched=frozenset({"r2c3", CENTRE})
    )
    kill = ApplyEffect(effect=KillAcolyte(who=1, space="r1c1"))
    assert cells(state, kill) == ActionCells.at("r1c1")
    push = ApplyEffect(effect=MovePiece(who=1, origin="r1c1", to="off"))
    assert cells(state, push) == ActionCells(origin="r1c1", touched=frozenset({"r1c1"}))
    gift = PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=1),))
    for off_board in (gift, bmm.TakeActions(), bmm.Rest(), bmm.EndTurn(), Roll()):
        assert cells(state, off_board) == NO_CELLS
    moving = bm_new(2).model_copy(update={"phase": "actions", "movements_left": 4})
    exploring, _ = bm.RULES.apply(moving, Move(piece="colossus", origin=CENTRE, to="r2c3"))
    assert cells(exploring, Roll()) == ActionCells.at("r2c3")  # 2.6.2: the roll explores it


def test_cells_of_colossi_actions() -> None:
    """A Harvest acts on its space (CA-R07), a Lair on its (CA-R16), an Age card on the
    spaces it floods (CA-R18) and in Age I on the centre's Lair (CA-R01)."""
    state = ca_new(2)
    cells = ca.RULES.action_cells
    assert cells(state, cam.RevealAge(beasts=("Wyrm",), water=("r1c1",))) == ActionCells.area(
        frozenset({"r1c1", CENTRE})
    )
    tile_first = ca_new(2, centre_setup="random_tile")
    assert cells(tile_first, cam.RevealAge(beasts=("Wyrm",))) == NO_CELLS
    assert cells(state, cam.PlaceLair(space="r1c2")) == ActionCells.at("r1c2")
    flood = (PlaceWater(space="r5c5"),)
    assert cells(state, cam.Harvest(space="r1c2", effects=flood)) == ActionCells.at("r1c2", "r5c5")
    for off_board in (cam.EndTurn(), cam.PassHarvest(), cam.AgeScoring(gold=(1, 0)), Roll()):
        assert cells(state, off_board) == NO_CELLS


def test_a_displacement_is_a_move_and_lights_like_one() -> None:
    """2.6.6: the Beast arrives, the Colossus must step to a dry neighbour; its space is
    selectable, the neighbours reachable, exactly as the legal answers go."""
    state = place(explored(bm_new(2)), colossi={0: "r2c3"}).model_copy(
        update={"phase": "actions", "movements_left": 4}
    )
    state, _ = bm.RULES.apply(state, PlayCard(kind="beast_master", effects=(MoveBeast(to="r2c3"),)))
    assert isinstance(state.pending[0], PendingDisplace)
    answers = list(bm.RULES.legal_actions_at(state, origin="r2c3"))
    assert answers == list(bm.RULES.legal_actions(state))
    steps = state.board.adjacent("r2c3")
    assert answers == [DisplaceColossus(to=s) for s in steps]
    assert bm.RULES.action_cells(state, answers[0]) == ActionCells.move("r2c3", steps[0])
    overview = bm.RULES.highlights(state)
    assert {h.cell for h in overview if h.role == Role.SELECTABLE} == {"r2c3"}
    focused = bm.RULES.highlights(state, focus="r2c3")
    assert {h.cell for h in focused if h.role == Role.REACHABLE} == set(steps)
    assert list(bm.RULES.legal_actions_at(state, origin=CENTRE)) == []


# --- random play --------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> IslandBoard:
    n = draw(st.integers(3, 20), label="spaces")
    parents = draw(st.lists(st.integers(0, 1000), min_size=n - 1, max_size=n - 1))
    extra = draw(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), max_size=2 * n))
    return connected_board_from(n, parents, extra, draw(st.integers(0, n - 1)))


def _start(game: str, board: IslandBoard, players: int, seed: int, beast_rules: bool) -> Any:
    if game == "bm":
        return bm.RULES.setup(
            NAMES[:players], bm.BeastMasterOptions(board=board, turns_per_player=2), seed
        )
    options = ca.ColossiOptions(
        board=board, rounds_per_age=1, use_traits=False, beast_master_beast_rules=beast_rules
    )
    return ca.RULES.setup(NAMES[:players], options, seed)


GAMES: dict[str, GameRules] = {"bm": bm.RULES, "ca": ca.RULES}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(sorted(GAMES)),
    board=boards(),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**40),
    bot_seed=st.integers(0, 2**31),
    beast_rules=st.booleans(),
)
def test_random_play_keeps_views_cells_and_highlights_in_step(
    game: str, board: IslandBoard, players: int, seed: int, bot_seed: int, beast_rules: bool
) -> None:
    """Every position of a random game: legal_actions_at and the highlights agree with
    the legal actions' cells (incl. displacements, BM 2.6.6 / CA-R08 option); the
    HARVESTABLE lights are the legal Harvests' spaces (CA-R07); the board view holds
    every Acolyte on the island, no more (BM-R02, CA-R02), every Colossus once, and each
    Beast, Banner and Gold cube where the state has it."""
    rules = GAMES[game]
    played = random_game(rules, _start(game, board, players, seed, beast_rules), bot_seed, 600)
    for state in played.states[::3]:
        cells = [(a, rules.action_cells(state, a)) for a in rules.legal_actions(state)]
        check_filters(rules, state, cells)
        check_highlights_agree(rules, state, cells)
        check_views(rules, state, cells)
        harvests = {c.target for a, c in cells if isinstance(a, cam.Harvest)}
        lit = {h.cell for h in rules.highlights(state) if h.role == Role.HARVESTABLE}
        assert lit == harvests
    owned = played.states[0].acolytes_in_hand  # all in hand at the start (BM-R04)
    for state in played.states:
        view = board_of(rules, state)
        for seat in range(players):
            shown = sum(
                p.count
                for c in view.cells
                for p in c.pieces
                if p.kind == "acolyte" and p.player == seat
            )
            assert shown == sum(sp.acolytes[seat] for sp in state.spaces)
            assert shown + state.acolytes_in_hand[seat] == owned[seat]
            colossi = [
                c.cell for c in view.cells for p in c.pieces if p == Piece("colossus", "K", seat)
            ]
            assert colossi == ([] if state.colossi[seat] is None else [state.colossi[seat]])
        # The cells are kept between states (a move changes few spaces): none is stale.
        beasts = sorted(
            (c.cell, p.label) for c in view.cells for p in c.pieces if p.kind == "beast"
        )
        assert beasts == sorted((b.space, beast_label(b.name)) for b in state.beasts)
        tokens = {c.cell: [p for p in c.pieces if p.kind in ("banner", "gold")] for c in view.cells}
        for space, here in zip(state.board.ids, state.spaces, strict=True):
            assert [p.label for p in tokens[space]] == [
                *(["Bn"] if here.banner is not None else []),
                *([f"{here.cubes}g"] if here.cubes else []),
            ]


def test_harvest_lights_match_the_legal_harvests() -> None:
    """CA-R07: in the Harvest Phase the controlled, not yet harvested spaces light up,
    and they are exactly where the legal Harvests act."""
    state = place(ca_new(2), acolytes={"r1c1": {0: 1}, "r1c2": {0: 2}, "r5c5": {1: 1}}).model_copy(
        update={"phase": "harvest", "active": 0, "harvested": (("r1c2",), ())}
    )
    harvests = [a for a in ca.RULES.legal_actions(state) if isinstance(a, cam.Harvest)]
    assert [a.space for a in harvests] == ["r1c1"]
    assert {ca.RULES.action_cells(state, a).target for a in harvests} == {
        h.cell for h in ca.RULES.highlights(state) if h.role == Role.HARVESTABLE
    }
