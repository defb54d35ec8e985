"""The shared island referee (referee.py): one declaration of what both games share,
with each option still naming its own game's ruling."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.model import (
    DiscardToLimit,
    DisplaceColossus,
    PendingDiscard,
    PendingDisplace,
)
from companion.games.island.referee import IslandOptions, leaders, tie_choices

from .helpers import grid_board, place


def ruling(model: Any, field: str) -> str:
    extra = model.model_fields[field].json_schema_extra
    assert isinstance(extra, dict)
    value = extra["ruling"]
    assert isinstance(value, str)
    return value


def test_every_option_of_both_games_names_a_ruling_and_says_what_it_does() -> None:
    for model in (bm.BeastMasterOptions, ca.ColossiOptions):
        for name, field in model.model_fields.items():
            assert field.description, name
            assert ruling(model, name), name


def test_BM_R01_the_board_option_is_declared_once_for_both_games() -> None:
    assert issubclass(bm.BeastMasterOptions, IslandOptions)
    assert issubclass(ca.ColossiOptions, IslandOptions)
    assert ruling(bm.BeastMasterOptions, "board") == ruling(ca.ColossiOptions, "board")
    assert ruling(IslandOptions, "board") == "BM-R01"


@pytest.mark.parametrize(
    ("field", "bm_ruling", "ca_ruling"),
    [
        ("acolytes_per_player", "BM-R02", "CA-R02"),
        ("tie_policy", "BM-R12", "0.2.4"),  # Colossi has no tie ruling: principle 0.2.4
        ("content", "0.2.2", "0.2.2"),  # the user-maintained content database
    ],
)
def test_options_shared_by_name_keep_each_games_ruling(
    field: str, bm_ruling: str, ca_ruling: str
) -> None:
    assert ruling(bm.BeastMasterOptions, field) == bm_ruling
    assert ruling(ca.ColossiOptions, field) == ca_ruling


def test_BM_R02_CA_R02_acolyte_defaults_differ_per_game() -> None:
    assert bm.BeastMasterOptions().acolytes_per_player is None  # 12 with 3 players, else 10
    assert ca.ColossiOptions().acolytes_per_player == 10
    three = bm.RULES.setup(["A", "B", "C"], bm.BeastMasterOptions(), 1)
    assert three.acolytes_in_hand == (12, 12, 12)


def test_leaders_and_tie_choices() -> None:
    assert leaders((3, 5, 5, 1)) == (1, 2)
    assert leaders([4]) == (0,)
    assert list(tie_choices((3, 5, 5))) == [(1, 2), (1,), (2,)]
    assert list(tie_choices((7, 5))) == [(0,), (0,)]


@pytest.mark.parametrize("game", ["beast_master", "colossi"])
def test_shared_pending_answers_come_first_in_both_games(game: str) -> None:
    rules: Any = bm.RULES if game == "beast_master" else ca.RULES
    opts = rules.options_model(board=grid_board(3, 3))
    state = rules.setup(["Ann", "Bob"], opts, 2)
    state = place(state, colossi={0: "g11"}).model_copy(
        update={
            "phase": "actions",
            "active": 0,
            "movements_left": 4,
            "pending": (PendingDisplace(space="g11", player=0, reason="test"),),
        }
    )
    listed = list(rules.legal_actions(state))
    assert {a.to for a in listed} == set(state.board.adjacent("g11"))
    with pytest.raises(RuleViolation, match="move their Colossus off g11"):
        rules.apply(state, DiscardToLimit())
    after, _ = rules.apply(state, DisplaceColossus(to="g01"))
    assert after.colossi[0] == "g01"
    assert [(p.kind, getattr(p, "space", None)) for p in after.pending] == [("explore", "g01")]
    full = state.model_copy(
        update={"pending": (PendingDiscard(player=0),), "cards_in_hand": (8, 2)}
    )
    assert list(rules.legal_actions(full)) == [DiscardToLimit()]
    after, events = rules.apply(full, DiscardToLimit())
    assert after.cards_in_hand == (6, 2)
    assert any("discards 2 cards down to 6" in e.text for e in events)
