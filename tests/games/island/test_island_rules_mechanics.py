"""The shared island mechanics' refusals and log lines, word for word (mechanics.py):
the sentence a player reads, the space by its label and the ruling it cites, on a
small hand-made island, through the scratch copy the referees work on."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.island.mechanics import Work, check_path
from companion.games.island.model import (
    OFF_BOARD,
    IslandState,
    KillAcolyte,
    MoveBeast,
    MovePiece,
    PendingExplore,
    PieceKind,
    PlaceCubes,
    SetPerk,
    Tile,
)

from .helpers import BM_CFG, CA_CFG
from .island_rules_help import position, refused

# --- Road Movement (B.3) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("piece", "origin", "path", "message", "ruling"),
    [
        ("colossus", "o", (), "A Movement must enter at least one space.", "BM-R01"),
        ("colossus", "o", ("zz",), "There is no space 'zz' on this island.", "BM-R01"),
        ("colossus", "o", ("a", "zz"), "There is no space 'zz' on this island.", "BM-R01"),
        ("colossus", "o", ("e",), "e is not adjacent to o.", "BM-R01"),
        ("colossus", "o", ("a", "b"), "b is not adjacent to a.", "BM-R01"),
        ("colossus", "o", ("w",), "w is Water: nobody enters it voluntarily.", "CA-R09"),
        (
            "colossus",
            "o",
            ("c", "o"),
            "Road Movement needs another of your pieces on c to continue.",
            None,
        ),
        # the moving piece is not "another" piece on its own start square
        (
            "acolyte",
            "a",
            ("o", "a", "e"),
            "Road Movement needs another of your pieces on a to continue.",
            None,
        ),
        (
            "colossus",
            "o",
            ("a", "o", "b"),
            "Road Movement needs another of your pieces on o to continue.",
            None,
        ),
        # the Acolyte's chain ends on the Beast's space: the ruling says why (BM-R07)
        (
            "acolyte",
            "a",
            ("o", "b", "f"),
            "Road Movement needs another of your pieces on b to continue.",
            "BM-R07",
        ),
    ],
)
def test_BM_R01_BM_R07_CA_R09_a_chain_that_is_no_road_movement_is_refused_word_for_word(
    piece: PieceKind, origin: str, path: tuple[str, ...], message: str, ruling: str | None
) -> None:
    state = position()
    assert refused(check_path, state, 0, piece, origin, path, BM_CFG) == (message, ruling)


def test_B3_legal_chains_pass_from_the_first_step_on() -> None:
    state = position()
    check_path(state, 0, "acolyte", "a", ("o", "c"), BM_CFG)  # on through the Colossus
    check_path(state, 0, "colossus", "o", ("a", "e"), BM_CFG)  # on through the Acolyte
    check_path(state, 0, "colossus", "o", ("b",), BM_CFG)  # a Colossus may join the Beast
    check_path(state, 0, "acolyte", "o", ("a",), BM_CFG, spawn=True)
    check_path(state, 0, "acolyte", "o", (), BM_CFG, spawn=True)  # a spawn may stay


def test_BM_R07_an_acolyte_passing_its_own_colossus_on_the_beasts_space_dies_there() -> None:
    state = position(beasts=[("Wyrm", "o")])
    assert refused(check_path, state, 0, "acolyte", "a", ("o", "c"), BM_CFG) == (
        "An Acolyte entering the Beast's space o dies there.",
        "BM-R07",
    )
    check_path(state, 0, "acolyte", "a", ("o", "c"), CA_CFG)  # Colossi: no built-in kill
    check_path(state, 0, "colossus", "o", ("a", "e"), BM_CFG)  # a Colossus never dies


def test_BM_R07_an_acolyte_spawned_on_the_beasts_space_cannot_step_on() -> None:
    state = position(beasts=[("Wyrm", "o")])
    assert refused(check_path, state, 0, "acolyte", "o", ("c",), BM_CFG, spawn=True) == (
        "An Acolyte spawned on the Beast's space dies at once and cannot step on.",
        "BM-R07",
    )
    check_path(state, 0, "acolyte", "o", (), BM_CFG, spawn=True)  # placed there, it dies
    safe = BM_CFG.__class__(**{**BM_CFG.__dict__, "spawn_safe_first_step": True})
    check_path(state, 0, "acolyte", "o", ("c",), safe, spawn=True)


# --- the scratch copy's refusals -----------------------------------------------------


def work(state: IslandState | None = None, cfg: Any = BM_CFG) -> Work[IslandState]:
    return Work(state or position(), cfg)


def effect(w: Work[IslandState], eff: Any, *, colossi_rules: bool = False) -> None:
    w.apply_effect(eff, 0, colossi_rules=colossi_rules)


def test_BM_R01_a_space_the_island_does_not_have_is_refused_by_name() -> None:
    assert refused(work().i, "zz") == ("There is no space 'zz' on this island.", "BM-R01")
    assert work().i("c") == 6  # o a e b f w c: the board file's order


def test_beast_moves_are_refused_word_for_word() -> None:
    w = work()
    assert refused(w.move_beast, "Kraken", "c") == (
        "There is no Beast called 'Kraken' on the island.",
        None,
    )
    assert refused(w.move_beast, None, "w") == ("w is Water: Beasts never enter it.", "CA-R09")
    assert refused(w.move_beast, None, "zz") == (
        "There is no space 'zz' on this island.",
        "BM-R01",
    )
    none = work(position(beasts=[]))
    assert refused(none.move_beast, None, "c") == ("There is no Beast on the island.", None)
    assert w.beasts == list(position().beasts) and w.events == []


def test_the_named_beast_moves_and_the_others_stay() -> None:
    w = work(position(beasts=[("Wyrm", "b"), ("Kraken", "e")]))
    effect(w, MoveBeast(beast="Kraken", to="c"))
    assert [(b.name, b.space) for b in w.beasts] == [("Wyrm", "b"), ("Kraken", "c")]
    assert [e.text for e in w.events] == ["Kraken moves to c."]
    effect(w, MoveBeast(to="a"))  # no name: the first Beast
    assert [(b.name, b.space) for b in w.beasts] == [("Wyrm", "a"), ("Kraken", "c")]


def test_cards_a_player_does_not_hold_cannot_be_discarded() -> None:
    w = work()
    assert refused(w.change_cards, 1, -4) == ("Bob has only 3 cards in hand.", None)
    assert w.cards == list(position().cards_in_hand)
    w.cards[1] = 1
    assert refused(w.change_cards, 1, -2) == ("Bob has only 1 card in hand.", None)
    w.change_cards(1, -1)
    assert w.cards[1] == 0 and [e.text for e in w.events] == ["Bob discards 1 card."]


@pytest.mark.parametrize(
    ("seat", "piece", "origin", "to", "push", "message", "ruling"),
    [
        (0, "colossus", "a", "e", True, "Ann's Colossus is not on a.", None),
        (1, "acolyte", "a", "e", True, "Bob has no Acolyte on a.", None),
        (
            0,
            "acolyte",
            "a",
            "off",
            True,
            "a is not on the edge: nothing falls off from there.",
            None,
        ),
        (0, "colossus", "o", "w", False, "w is Water: nobody enters it voluntarily.", "CA-R09"),
        (0, "acolyte", "zz", "a", True, "There is no space 'zz' on this island.", "BM-R01"),
        (0, "colossus", "o", "zz", True, "There is no space 'zz' on this island.", "BM-R01"),
    ],
)
def test_BM_R13_CA_R09_a_push_that_cannot_be_is_refused_word_for_word(
    seat: int,
    piece: PieceKind,
    origin: str,
    to: str,
    push: bool,
    message: str,
    ruling: str | None,
) -> None:
    w = work()
    assert refused(w.push_piece, seat, piece, origin, to, push) == (message, ruling)
    assert w.events == [] and w.fixes == []


def test_CA_R18_water_cannot_go_where_a_beast_stands() -> None:
    w = work()
    assert refused(w.set_water, "b", True) == (
        "A Beast stands on b; Water cannot go there.",
        "CA-R18",
    )
    assert w.water == [sp.water for sp in position().spaces]


@pytest.mark.parametrize(
    ("eff", "message", "ruling"),
    [
        (KillAcolyte(who=0, space="a", count=2), "Ann has only 1 Acolyte on a.", None),
        (KillAcolyte(who=1, space="a"), "Bob has only 0 Acolytes on a.", None),
        (KillAcolyte(who=2, space="a"), "There is no seat 2.", None),
        (KillAcolyte(who=-1, space="a"), "There is no seat -1.", None),
        (KillAcolyte(who="each", space="a"), "This effect needs one player, not several.", None),
        (PlaceCubes(space="c", amount=-1), "There are only 0 Gold cubes on c.", None),
    ],
)
def test_an_effect_that_cannot_happen_is_refused_word_for_word(
    eff: Any, message: str, ruling: str | None
) -> None:
    w = work()
    assert refused(effect, w, eff) == (message, ruling)
    assert w.acolytes == [list(sp.acolytes) for sp in position().spaces] and w.events == []


def test_CA_R14_colossi_has_no_perks() -> None:
    w = work(cfg=CA_CFG)
    assert refused(effect, w, SetPerk(name="Swift"), colossi_rules=True) == (
        "Colossi has no Perks.",
        "CA-R14",
    )
    assert w.perks == [None, None]


def test_gold_cubes_are_counted_one_by_one() -> None:
    w = work()
    effect(w, PlaceCubes(space="c", amount=2))
    assert refused(effect, w, PlaceCubes(space="c", amount=-3)) == (
        "There are only 2 Gold cubes on c.",
        None,
    )
    effect(w, PlaceCubes(space="c", amount=-2))
    assert w.cubes[w.i("c")] == 0


def test_an_explored_space_stays_as_it_is() -> None:
    state = position(tiles={"c": Tile(kind="loot", gold=2)})
    w = work(state)
    w.enter(0, "c")
    assert w.pending == []


# --- the move-or-push editor (BM-R13, CA-R09) -----------------------------------------


def pushed(state: IslandState, piece: PieceKind, origin: str, to: str) -> Work[IslandState]:
    w = work(state)
    effect(w, MovePiece(piece=piece, origin=origin, to=to))
    return w


def test_BM_R13_an_acolyte_pushed_off_the_edge_dies_one_at_a_time() -> None:
    w = pushed(position(acolytes={"e": {0: 2}}), "acolyte", "e", OFF_BOARD)
    assert w.acolytes[w.i("e")] == [1, 0] and w.in_hand[0] == 9
    assert [e.text for e in w.events] == ["1 Acolyte of Ann died on e (pushed off the edge)."]
    assert w.fixes == [("e", "Give 1 of Ann's Acolytes there back to them.")]


def test_BM_R13_a_colossus_pushed_off_the_edge_stays() -> None:
    w = pushed(position(colossi={0: "e", 1: "f"}), "colossus", "e", OFF_BOARD)
    assert w.colossi == ["e", "f"]
    assert [e.text for e in w.events] == [
        "A Colossus cannot leave the island: it stays where it is (BM-R13)."
    ]


def test_CA_R09_an_acolyte_pushed_into_water_dies_a_colossus_does_not_move() -> None:
    w = pushed(position(acolytes={"o": {0: 2}}), "acolyte", "o", "w")
    assert w.acolytes[w.i("o")] == [1, 0] and w.acolytes[w.i("w")] == [0, 0]
    assert [e.text for e in w.events] == ["1 Acolyte of Ann died on o (pushed into Water)."]
    # the Colossus stays, and the Acolyte beside it too
    w = pushed(position(acolytes={"o": {0: 1}}), "colossus", "o", "w")
    assert w.colossi == ["o", "f"] and w.acolytes[w.i("o")] == [1, 0]
    assert [e.text for e in w.events] == ["A Colossus pushed onto Water does not move (CA-R09)."]


def test_a_pushed_piece_moves_one_space_and_the_log_says_from_where_to_where() -> None:
    w = pushed(position(acolytes={"a": {0: 3}}, tiles={"e": None}), "acolyte", "a", "e")
    assert w.acolytes[w.i("a")] == [2, 0] and w.acolytes[w.i("e")] == [1, 0]
    assert [(e.type, e.text) for e in w.events] == [
        ("piece_moved", "Ann's Acolyte is moved from a to e.")
    ]
    assert w.pending == [PendingExplore(space="e", player=0)]  # it entered: exploring
    w = pushed(position(), "colossus", "o", "c")
    assert w.colossi == ["c", "f"]
    assert [e.text for e in w.events] == ["Ann's Colossus is moved from o to c."]
