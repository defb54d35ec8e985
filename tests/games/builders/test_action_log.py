"""What the log records of each Builders action: who took which action (the kiosk's log
and the export read ``action``), and the Runes a build is short of in words (BC-R15)."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.games.builders import RULES
from companion.games.builders.model import (
    ActionTaken,
    Build,
    BuildersAction,
    Curse,
    Draw,
    Reveal,
    Trade,
)
from tests.helpers.builders import new_game, with_runes


@pytest.mark.parametrize(
    ("action", "kind", "text"),
    [
        (Curse(runes=(0, 1, 0)), "curse", "Bob curses with 1 Rune."),
        (Trade(partner=2, cards_received=1), "trade", "Bob trades with Cleo."),
        (Draw(), "draw", "Bob draws."),
        (
            Reveal(target=0),
            "reveal",
            "Bob reveals 3 Parts cards from Ann's hand and takes none.",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_each_action_is_logged_with_its_player_and_kind(
    action: BuildersAction, kind: str, text: str
) -> None:
    state = new_game().model_copy(update={"current": 1})
    _, events = RULES.apply(state, action)
    taken = [e for e in events if isinstance(e, ActionTaken)]
    assert [(e.player, e.action, e.text) for e in taken] == [(1, kind, text)]


def test_BC_R15_a_build_short_of_runes_counts_one_accessory() -> None:
    state = with_runes(new_game(), 4, 10, 10)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, Build(slot=1, rune_cost=4, accessories=1, cards=6))
    assert (err.value.message, err.value.ruling) == (
        "This Colossus seals 5 Runes (cost 4 + 1 Accessory) but you have 4 Runes.",
        "BC-R15",
    )
