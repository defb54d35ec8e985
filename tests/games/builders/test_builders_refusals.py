"""Every refusal of Builders of the Colossus, word for word with its ruling, and the edge
just inside each limit accepted: a refusal that names the wrong ruling, says the wrong
thing or moves its limit by one fails here."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.errors import RuleViolation
from companion.games.builders import RULES
from companion.games.builders.model import (
    Build,
    BuildersAction,
    BuildersState,
    Curse,
    Draw,
    EndTurn,
    PickWinner,
    Reveal,
    Trade,
)
from tests.helpers.builders import TABLE, act, new_game, with_runes

Setup = Callable[[], BuildersState]


def plain() -> BuildersState:
    return new_game()  # 3 players, 10 Runes and 10 cards each, no Blueprint table


def tabled() -> BuildersState:
    return act(new_game(blueprints=TABLE), Draw())  # 11 Runes: room for cost 6 + 2


def slot1() -> tuple[str, int]:
    """The name and Rune Cost of the Blueprint face up in slot 1 of ``tabled()``."""
    index = tabled().face_up[0]
    assert index is not None
    return str(TABLE[index]["name"]), int(TABLE[index]["rune_cost"])


NAME, COST = slot1()
FULL = {"head": 1, "leg": 2, "arm": 1}


def cursed() -> BuildersState:
    return act(plain(), Curse(runes=(0, 1, 0)))


def drew() -> BuildersState:
    return act(plain(), Draw())


REFUSALS: list[tuple[str, Setup, BuildersAction, str | None, str]] = [
    # Trade, Draw and Reveal (BC-R02) and the Curse (BC-R09)
    (
        "curse then draw",
        cursed,
        Draw(),
        "BC-R02",
        "You cursed this turn; a Curse replaces Trade, Draw and Reveal.",
    ),
    ("draw twice", drew, Draw(), None, "Draw can be done only once per turn."),
    ("curse twice", cursed, Curse(runes=(0, 1, 0)), "BC-R02", "You have already cursed this turn."),
    (
        "curse after an action",
        drew,
        Curse(runes=(0, 1, 0)),
        "BC-R02",
        "A Curse replaces Trade, Draw and Reveal; you have already taken an action.",
    ),
    (
        "curse for 2 of 3 players",
        plain,
        Curse(runes=(0, 1)),
        "BC-R09",
        "Say how many Runes each of the 3 players gets.",
    ),
    (
        "curse taking away",
        plain,
        Curse(runes=(0, 2, -1)),
        "BC-R09",
        "A Curse cannot take Runes away from a player.",
    ),
    (
        "curse of 5",
        plain,
        Curse(runes=(0, 3, 2)),
        "BC-R09",
        "A Curse takes 1 to 4 Runes from the stockpile, not 5.",
    ),
    (
        "curse of 0",
        plain,
        Curse(runes=(0, 0, 0)),
        "BC-R09",
        "A Curse takes 1 to 4 Runes from the stockpile, not 0.",
    ),
    (
        "curse keeping 2",
        plain,
        Curse(runes=(2, 1, 0)),
        "BC-R09",
        "Curse: you may keep at most 1 of the Runes you take.",
    ),
    # Trade (BC-R08)
    (
        "trade with oneself",
        plain,
        Trade(partner=0, cards_received=1),
        "BC-R08",
        "A Trade is made with exactly one other player.",
    ),
    (
        "trade negative",
        plain,
        Trade(partner=1, cards_received=1, runes_given=-1),
        "BC-R08",
        "Trade amounts cannot be negative.",
    ),
    (
        "trade for nothing",
        plain,
        Trade(partner=1, cards_received=0, runes_given=1),
        "BC-R08",
        "A Trade must give you at least 1 Parts card.",
    ),
    (
        "trade beyond the partner's hand",
        plain,
        Trade(partner=1, cards_received=11),
        "BC-R08",
        "Bob holds only 10 Parts cards.",
    ),
    (
        "trade beyond one's hand",
        plain,
        Trade(partner=1, cards_received=1, cards_given=11),
        "BC-R08",
        "You hold only 10 Parts cards.",
    ),
    (
        "trade beyond one's Runes",
        plain,
        Trade(partner=1, cards_received=1, runes_given=11),
        "BC-R08",
        "You have only 10 Runes.",
    ),
    (
        "trade beyond the partner's Runes",
        plain,
        Trade(partner=1, cards_received=1, runes_received=11),
        "BC-R08",
        "Bob has only 10 Runes.",
    ),
    # Draw (BC-R14) and Reveal (BC-R04, BC-R05)
    (
        "draw from an empty deck",
        lambda: plain().model_copy(update={"hands": (10, 10, 130), "deck": 0}),
        Draw(),
        "BC-R14",
        "The Parts deck is empty: no card to draw.",
    ),
    (
        "reveal oneself",
        plain,
        Reveal(target=0),
        "BC-R04",
        "Reveal needs another player as the target.",
    ),
    (
        "reveal a poor target",
        lambda: with_runes(new_game(reveal_source="target_only_require_2"), 10, 1, 10),
        Reveal(target=1),
        "BC-R04",
        "Bob has fewer than 2 Runes, so you cannot Reveal them.",
    ),
    (
        "take from an empty hand",
        lambda: plain().model_copy(update={"hands": (10, 0, 130), "deck": 0}),
        Reveal(target=1, take=True),
        "BC-R05",
        "Bob has no Parts card to take.",
    ),
    # Build without a table (BC-R15)
    (
        "slot 0",
        plain,
        Build(slot=0, rune_cost=3, cards=5),
        "BC-R15",
        "There are Blueprint slots 1 to 3, not 0.",
    ),
    (
        "slot 4",
        plain,
        Build(slot=4, rune_cost=3, cards=5),
        "BC-R15",
        "There are Blueprint slots 1 to 3, not 4.",
    ),
    (
        "parts without a table",
        plain,
        Build(slot=1, rune_cost=3, parts=FULL),
        "BC-R15",
        "Without a Blueprint table the referee cannot check Parts; give the number of cards "
        "laid out instead.",
    ),
    (
        "no cost",
        plain,
        Build(slot=1, cards=5),
        "BC-R15",
        "Give the Blueprint's Rune Cost (3 to 6).",
    ),
    (
        "cost 2",
        plain,
        Build(slot=1, rune_cost=2, cards=5),
        "BC-R15",
        "A Rune Cost is 3 to 6, not 2.",
    ),
    (
        "cost 7",
        plain,
        Build(slot=1, rune_cost=7, cards=5),
        "BC-R15",
        "A Rune Cost is 3 to 6, not 7.",
    ),
    (
        "3 accessories",
        plain,
        Build(slot=1, rune_cost=3, accessories=3, cards=6),
        "BC-R15",
        "A Colossus takes 0 to 2 Accessories, not 3.",
    ),
    (
        "-1 accessories",
        plain,
        Build(slot=1, rune_cost=3, accessories=-1, cards=6),
        "BC-R15",
        "A Colossus takes 0 to 2 Accessories, not -1.",
    ),
    (
        "no card count",
        plain,
        Build(slot=1, rune_cost=3),
        "BC-R15",
        "Give the number of Parts cards laid out, Accessories included.",
    ),
    (
        "only accessories",
        plain,
        Build(slot=1, rune_cost=3, accessories=2, cards=2),
        "BC-R15",
        "A Colossus needs at least one listed Part besides its Accessories.",
    ),
    (
        "more cards than held",
        plain,
        Build(slot=1, rune_cost=3, cards=11),
        "BC-R15",
        "You hold only 10 Parts cards, not the 11 laid out.",
    ),
    (
        "more Runes than held",
        lambda: with_runes(plain(), 7, 10, 10),
        Build(slot=1, rune_cost=6, accessories=2, cards=8),
        "BC-R15",
        "This Colossus seals 8 Runes (cost 6 + 2 Accessories) but you have 7 Runes.",
    ),
    # Build with a table (BC-R15)
    (
        "empty slot",
        lambda: tabled().model_copy(update={"face_up": (None, *tabled().face_up[1:])}),
        Build(slot=1, parts=FULL),
        "BC-R15",
        "Blueprint slot 1 is empty.",
    ),
    (
        "another blueprint",
        tabled,
        Build(slot=1, parts=FULL, blueprint="Nope"),
        "BC-R15",
        f"Slot 1 holds {NAME}, not Nope.",
    ),
    (
        "another cost",
        tabled,
        Build(slot=1, parts=FULL, rune_cost=9),
        "BC-R15",
        f"{NAME} costs {COST} Runes, not 9.",
    ),
    (
        "no parts",
        tabled,
        Build(slot=1),
        "BC-R15",
        "Say which Parts you laid out (counts per type).",
    ),
    (
        "unknown part",
        tabled,
        Build(slot=1, parts={**FULL, "tail": 1}),
        "BC-R15",
        "“tail” is not a kind of Parts card; the kinds are Head, Leg, Arm, Torso, Wing, Wild "
        "and Accessory.",
    ),
    (
        "negative part",
        tabled,
        Build(slot=1, parts={**FULL, "wild": -1}),
        "BC-R15",
        "The layout gives -1 for the Wilds; a count cannot be negative.",
    ),
    (
        "accessories said wrong",
        tabled,
        Build(slot=1, parts=FULL, accessories=1),
        "BC-R15",
        "The layout has 0 Accessories, not 1.",
    ),
    (
        "3 accessories laid",
        tabled,
        Build(slot=1, parts={**FULL, "accessory": 3}),
        "BC-R15",
        "A Colossus takes 0 to 2 Accessories, not 3.",
    ),
    (
        "a listed part too many",
        tabled,
        Build(slot=1, parts={**FULL, "leg": 3}),
        "BC-R15",
        f"{NAME} lists 2 Legs, not the 3 laid out.",
    ),
    (
        "a part short",
        tabled,
        Build(slot=1, parts={**FULL, "leg": 1}),
        "BC-R15",
        f"{NAME} is missing 1 listed Part and the layout has 0 Wilds: Wilds stand in for listed "
        "Parts only, one each, never for Accessories.",
    ),
    (
        "a wild too many",
        tabled,
        Build(slot=1, parts={**FULL, "wild": 1}),
        "BC-R15",
        f"{NAME} is missing 0 listed Parts and the layout has 1 Wild: Wilds stand in for listed "
        "Parts only, one each, never for Accessories.",
    ),
    # ending the turn (BC-R07, BC-R03) and the tie (BC-R12)
    (
        "end an untouched turn",
        plain,
        EndTurn(),
        "BC-R07",
        "Before ending your turn, Curse or take at least one of Trade, Draw, Reveal; a trade "
        "that fell through does not count.",
    ),
    (
        "end without the word",
        lambda: act(new_game(forced_build=True), Draw()),
        EndTurn(),
        "BC-R03",
        "Building is compulsory at this table: confirm that you cannot complete any face-up "
        "Blueprint before you end your turn.",
    ),
    ("pick with no tie", plain, PickWinner(seats=(0,)), "BC-R12", "There is no tie to decide."),
]


@pytest.mark.parametrize(
    ("setup", "action", "ruling", "message"),
    [row[1:] for row in REFUSALS],
    ids=[row[0] for row in REFUSALS],
)
def test_each_refusal_says_what_and_names_its_ruling_bc_r02_to_bc_r15(
    setup: Setup, action: BuildersAction, ruling: str | None, message: str
) -> None:
    state = setup()
    before = RULES.dump_position(state)
    with pytest.raises(RuleViolation) as err:
        RULES.apply(state, action)
    assert (err.value.message, err.value.ruling) == (message, ruling)
    assert RULES.dump_position(state) == before


ACCEPTED: list[tuple[str, Setup, BuildersAction]] = [
    ("curse of 1", plain, Curse(runes=(0, 1, 0))),
    ("curse of 4 keeping 1", plain, Curse(runes=(1, 2, 1))),
    (
        "trade of the whole hand for all Runes",
        plain,
        Trade(partner=1, cards_received=10, cards_given=10, runes_given=10, runes_received=10),
    ),
    (
        "reveal a target with 2 Runes",
        lambda: with_runes(new_game(reveal_source="target_only_require_2"), 10, 2, 10),
        Reveal(target=1),
    ),
    ("cost 3 in slot 1", plain, Build(slot=1, rune_cost=3, cards=1)),
    (
        "cost 6, 2 accessories, every card and Rune in slot 3",
        lambda: with_runes(plain(), 8, 10, 10),
        Build(slot=3, rune_cost=6, accessories=2, cards=10),
    ),
    (
        "the blueprint named as it is",
        tabled,
        Build(slot=1, parts=FULL, blueprint=NAME, rune_cost=COST, accessories=0),
    ),
    (
        "no wild laid out, 2 accessories said and laid",
        tabled,
        Build(slot=1, parts={**FULL, "wild": 0, "accessory": 2}, accessories=2),
    ),
]


@pytest.mark.parametrize(
    ("setup", "action"), [row[1:] for row in ACCEPTED], ids=[row[0] for row in ACCEPTED]
)
def test_the_edge_inside_each_limit_is_accepted_bc_r09_bc_r08_bc_r15(
    setup: Setup, action: BuildersAction
) -> None:
    after, _ = RULES.apply(setup(), action)
    assert after != setup()
