"""A Movement with an end that is not a space of the island is refused by name (BM-R01),
in both island games, whichever end is off the island."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.colossi import model as cam
from companion.games.island.model import Move, PieceKind

from .helpers import place


def _bm_actions() -> bm.BeastMasterState:
    state = bm.RULES.setup(["Ann", "Bob"], bm.RULES.parse_options({}), seed=7)
    state = place(state, acolytes={"r1c1": {0: 1}})
    return state.model_copy(update={"phase": "actions", "movements_left": 4})


@pytest.mark.parametrize(
    ("piece", "origin", "to"),
    [
        ("colossus", "r3c3", "nowhere"),
        ("acolyte", "r1c1", "r0c0"),
        ("colossus", "nowhere", "r3c2"),
        ("acolyte", "nowhere", "r1c2"),
        ("acolyte", "nowhere", "elsewhere"),
    ],
)
def test_BM_R01_a_beast_master_move_with_an_end_off_the_island_is_refused(
    piece: PieceKind, origin: str, to: str
) -> None:
    state = _bm_actions()
    with pytest.raises(RuleViolation, match="not on this island") as err:
        bm.RULES.apply(state, Move(piece=piece, origin=origin, to=to))
    assert err.value.ruling == "BM-R01"
    moved, _ = bm.RULES.apply(state, Move(piece="colossus", origin="r3c3", to="r3c2"))
    assert moved.colossi[0] == "r3c2"


def test_BM_R01_a_colossi_move_with_one_end_off_the_island_is_refused() -> None:
    state = ca.RULES.setup(["Ann", "Bob"], ca.RULES.parse_options({"use_traits": False}), 11)
    state, _ = ca.RULES.apply(state, cam.RevealAge(name="Dawn", beasts=("Wyrm",)))
    for origin, to in (("r3c3", "nowhere"), ("nowhere", "r2c3")):
        with pytest.raises(RuleViolation, match="not on this island") as err:
            ca.RULES.apply(state, Move(piece="colossus", origin=origin, to=to))
        assert err.value.ruling == "BM-R01"
