"""The shared turn pieces' refusals and log lines, word for word (turns.py): a Movement,
a spawn, a displacement and a card play, in both island games, on a small hand-made
island. Each refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.content import parse_content
from companion.games.island.mechanics import Work
from companion.games.island.model import (
    DisplaceColossus,
    ExtraMovements,
    IslandState,
    Move,
    PendingDisplace,
    PieceKind,
    PlayCard,
    Spawn,
)
from companion.games.island.turns import (
    do_displace,
    do_paid_move,
    gold_row,
    island_highlights,
    movable_spaces,
    move_actions,
    move_preview,
    moves_from,
    moving_chains,
    piece_spaces,
    pieces_at,
    resolve_play_card,
)
from companion.highlights import Highlight, Role
from companion.outcome import ScoreRow

from .helpers import BM_CFG, CA_CFG
from .island_rules_help import position, refused

GAMES = ["beast_master", "colossi"]


def rules_of(game: str) -> Any:
    return bm.RULES if game == "beast_master" else ca.RULES


def work(state: IslandState, game: str = "beast_master") -> Work[IslandState]:
    return Work(state, BM_CFG if game == "beast_master" else CA_CFG)


@pytest.mark.parametrize(
    ("move", "message", "ruling"),
    [
        (
            Move(piece="colossus", origin="o", to="zz"),
            "That space is not on this island.",
            "BM-R01",
        ),
        (
            Move(piece="colossus", origin="zz", to="o"),
            "That space is not on this island.",
            "BM-R01",
        ),
        (Move(piece="colossus", origin="a", to="e"), "Your Colossus is not on a.", None),
        (Move(piece="acolyte", origin="o", to="c"), "You have no Acolyte on o.", None),
        (
            Move(piece="colossus", origin="o", to="w"),
            "w is Water: nobody enters it voluntarily.",
            "CA-R09",
        ),
        (
            Move(piece="colossus", origin="o", to="f", path=("b",)),
            "The path must end on the destination.",
            None,
        ),
        (
            Move(piece="colossus", origin="o", to="o", path=()),
            "The path must end on the destination.",
            None,
        ),
        (
            Move(piece="colossus", origin="o", to="b", path=("b",)),
            None,  # a legal one: the Colossus joins the Beast
            None,
        ),
    ],
)
@pytest.mark.parametrize("game", GAMES)
def test_BM_R01_CA_R09_a_movement_that_cannot_be_is_refused_word_for_word(
    game: str, move: Move, message: str | None, ruling: str | None
) -> None:
    state = position(game)
    if message is None:
        after, _ = rules_of(game).apply(state, move)
        assert after.colossi[0] == move.to and after.movements_left == 3
        return
    assert refused(rules_of(game).apply, state, move) == (message, ruling)


@pytest.mark.parametrize(
    ("game", "piece", "origin", "ruling"),
    [("beast_master", "acolyte", "a", "BM-R07"), ("colossi", "acolyte", "a", None)],
)
def test_BM_R07_a_destination_out_of_reach_is_refused_with_the_games_words(
    game: str, piece: PieceKind, origin: str, ruling: str | None
) -> None:
    state = position(game)
    unit = "Movement" if game == "beast_master" else "Action"
    assert refused(rules_of(game).apply, state, Move(piece=piece, origin=origin, to="f")) == (
        f"f cannot be reached from a with one {unit} "
        "(Road Movement needs your own pieces along the way).",
        ruling,
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_paid_move_needs_one_left(game: str) -> None:
    state = position(game).model_copy(update={"movements_left": 0})
    unit = "Movement" if game == "beast_master" else "Action"
    w = work(state, game)
    move = Move(piece="colossus", origin="o", to="c")
    assert refused(do_paid_move, w, 0, move) == (f"You have no {unit} left this turn.", None)
    assert w.movements_left == 0 and w.colossi[0] == "o"
    w.movements_left = 1
    do_paid_move(w, 0, move)
    assert w.movements_left == 0 and w.colossi[0] == "c"


@pytest.mark.parametrize(
    ("update", "spawn", "message", "ruling"),
    [
        ({"colossi": (None, "f")}, Spawn(), "Your Colossus is not on the island yet.", "BM-R03"),
        (
            {"acolytes_in_hand": (0, 10)},
            Spawn(),
            "You have no Acolyte in hand to spawn.",
            None,
        ),
        ({}, Spawn(to="f"), "A spawned Acolyte cannot reach f from o.", None),
        ({}, Spawn(to="c", path=("a",)), "The path must end on the destination.", None),
        ({}, Spawn(to="c", path=()), "The path must end on the destination.", None),
    ],
)
def test_BM_R03_a_spawn_that_cannot_be_is_refused_word_for_word(
    update: dict[str, Any], spawn: Spawn, message: str, ruling: str | None
) -> None:
    state = position().model_copy(update=update)
    assert refused(bm.RULES.apply, state, spawn) == (message, ruling)


def test_BM_R07_a_spawn_on_the_beasts_space_reaches_nothing_beyond_it() -> None:
    state = position(beasts=[("Wyrm", "o")])
    assert refused(bm.RULES.apply, state, Spawn(to="c")) == (
        "A spawned Acolyte cannot reach c from o.",
        "BM-R07",
    )
    after, events = bm.RULES.apply(state, Spawn())  # placed on the Beast, it dies at once
    assert after.space("o").acolytes == (0, 0) and after.acolytes_in_hand[0] == 9
    assert [e.text for e in events] == [
        "1 Acolyte of Ann died on o (the Beast).",
        "Ann spawns an Acolyte on o.",
        "Change the table: 1 step.",
    ]
    # Colossi: Beasts have no built-in kill (CA-R08), the spawn goes on
    ca_state = position("colossi", beasts=[("Wyrm", "o")])
    went, _ = ca.RULES.apply(ca_state, Spawn(to="c"))
    assert went.space("c").acolytes == (1, 0)


def test_2_6_4_a_spawn_with_its_path_walks_it_and_says_so() -> None:
    state = position()
    after, events = bm.RULES.apply(state, Spawn(to="e", path=("a", "e")))
    assert after.space("e").acolytes == (1, 0) and after.acolytes_in_hand == (8, 10)
    assert after.movements_left == 3
    assert [e.text for e in events] == ["Ann spawns an Acolyte on o and moves it to e via a."]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("spawn", [Spawn(), Spawn(to="o"), Spawn(path=())])
def test_2_6_4_a_spawned_acolyte_that_stays_on_its_colossus_is_logged(
    game: str, spawn: Spawn
) -> None:
    """A spawn that stays was placed without a word in the log (a fault once)."""
    state = position(game, beasts=[], tiles={"o": None})
    stay, events = rules_of(game).apply(state, spawn)
    assert stay.space("o").acolytes == (1, 0) and stay.acolytes_in_hand == (8, 10)
    assert stay.movements_left == 3 and stay.pending == ()  # placed, not entering (BM-R05)
    assert [(e.type, e.text) for e in events] == [("piece_moved", "Ann spawns an Acolyte on o.")]


def displacing(game: str, reason: str) -> Any:
    state = position(game, beasts=[])
    return state.model_copy(
        update={"pending": (PendingDisplace(space="o", player=0, reason=reason),)}
    )


@pytest.mark.parametrize(("reason", "ruling"), [("Water", "CA-R18"), ("Wyrm arrived", None)])
def test_CA_R18_a_displaced_colossus_must_step_to_a_dry_neighbour(
    reason: str, ruling: str | None
) -> None:
    state = displacing("colossi", reason)
    w = work(state, "colossi")
    for to in ("w", "e", "zz"):
        assert refused(do_displace, w, state.pending[0], DisplaceColossus(to=to)) == (
            "Your Colossus must move from o to an adjacent space that is not Water.",
            ruling,
        )
    assert w.colossi[0] == "o" and len(w.pending) == 1
    after, events = ca.RULES.apply(state, DisplaceColossus(to="c"))
    assert after.colossi[0] == "c" and after.pending == ()
    assert [e.text for e in events] == [f"Ann's Colossus steps to c ({reason})."]


CONTENT = parse_content(
    {
        "cards": [
            {
                "id": "haste",
                "kind": "action",
                "effects": [{"type": "extra_movements", "amount": 2}],
            },
            {"id": "eagle", "name": "Eagle Eye", "kind": "perk"},
        ]
    }
)


@pytest.mark.parametrize(
    ("play", "content", "message", "ruling"),
    [
        (PlayCard(card="nope"), CONTENT, "The content file has no card 'nope'.", None),
        (PlayCard(card="haste"), None, "The content file has no card 'haste'.", None),
        (
            PlayCard(card="haste", effects=(ExtraMovements(amount=1),)),
            CONTENT,
            "A known card brings its own effects; do not list them too.",
            None,
        ),
        (
            PlayCard(),
            None,
            "Say which kind of card this is (or name a known card).",
            "CA-R14",
        ),
    ],
)
def test_CA_R14_a_card_play_that_cannot_be_is_refused_word_for_word(
    play: PlayCard, content: Any, message: str, ruling: str | None
) -> None:
    w = work(position())
    assert refused(resolve_play_card, w, 0, play, content) == (message, ruling)
    assert w.cards == [3, 3] and w.events == []


def test_a_card_needs_a_card_in_hand() -> None:
    state = position().model_copy(update={"cards_in_hand": (0, 3)})
    w = work(state)
    assert refused(resolve_play_card, w, 0, PlayCard(kind="action"), None) == (
        "You have no card in hand to play.",
        None,
    )
    w.cards[0] = 1
    assert resolve_play_card(w, 0, PlayCard(kind="action"), None) == "action"
    assert w.cards[0] == 0 and [e.text for e in w.events] == ["Ann plays an Action card."]


def test_BM_R11_a_known_perk_card_is_named_and_put_in_play() -> None:
    w = work(position())
    assert resolve_play_card(w, 0, PlayCard(card="eagle"), CONTENT) == "perk"
    assert w.perks[0] == "Eagle Eye"
    assert [e.text for e in w.events] == ["Ann plays the Perk card Eagle Eye."]
    w.cards[0] = 3
    resolve_play_card(w, 0, PlayCard(card="haste"), CONTENT)
    assert w.movements_left == 6 and w.perks[0] == "Eagle Eye"
    unnamed = work(position())
    resolve_play_card(unnamed, 0, PlayCard(kind="perk"), None)
    assert unnamed.perks[0] == "Perk"


# --- what may move, and what lights up -------------------------------------------------


def spread() -> IslandState:
    """Ann's Colossus on o and her Acolytes on a (one) and c (two)."""
    state: IslandState = position(acolytes={"a": {0: 1}, "c": {0: 2}})
    return state


def test_B3_the_pieces_that_may_move_and_their_movements_in_order() -> None:
    state = spread()
    assert piece_spaces(state, 0) == [("colossus", "o"), ("acolyte", "a"), ("acolyte", "c")]
    assert piece_spaces(state, 1) == [("colossus", "f")]
    assert pieces_at(state, 0, "o") == [("colossus", "o")]
    assert pieces_at(state, 0, "c") == [("acolyte", "c")]
    assert pieces_at(state, 0, "zz") == [] and pieces_at(state, 1, "o") == []
    # each destination once, then the chains back to the start (BM-R17), last
    assert list(moves_from(state, BM_CFG, 0, "o")) == [
        Move(piece="colossus", origin="o", to="a"),
        Move(piece="colossus", origin="o", to="b"),
        Move(piece="colossus", origin="o", to="c"),
        Move(piece="colossus", origin="o", to="e"),
        Move(piece="colossus", origin="o", to="o", path=("a", "o")),
        Move(piece="colossus", origin="o", to="o", path=("c", "o")),
    ]


def test_2_6_4_spawns_come_after_every_movement_and_need_an_acolyte_in_hand() -> None:
    state = spread()
    listed = list(move_actions(state, BM_CFG, 0))
    spawns = [a for a in listed if isinstance(a, Spawn)]
    assert spawns == [Spawn(to=s) for s in ("o", "a", "b", "c", "e")]
    assert listed[-len(spawns) :] == spawns
    assert listed[-len(spawns) - 1] == Move(piece="acolyte", origin="c", to="c", path=("o", "c"))
    empty = state.model_copy(update={"acolytes_in_hand": (0, 10)})
    assert not any(isinstance(a, Spawn) for a in move_actions(empty, BM_CFG, 0))
    last = state.model_copy(update={"acolytes_in_hand": (1, 10)})  # the last one in hand
    assert [a for a in move_actions(last, BM_CFG, 0) if isinstance(a, Spawn)] == spawns
    away = state.model_copy(update={"colossi": (None, "f")})
    assert not any(isinstance(a, Spawn) for a in move_actions(away, BM_CFG, 0))


def test_BM_R17_the_preview_lights_the_destinations_and_the_numbered_path_not_the_start() -> None:
    state = spread()
    assert move_preview(state, BM_CFG, 0, "o") == {
        "a": ("a",),
        "b": ("b",),
        "c": ("c",),
        "o": ("a", "o"),
        "e": ("a", "e"),
    }
    lit = island_highlights(state, BM_CFG, " o > e ", 0, can_move=True, banners=False)
    assert lit == (
        Highlight(cell="o", role=Role.SELECTED, player=0),
        *(Highlight(cell=c, role=Role.REACHABLE, player=0) for c in ("a", "b", "c", "e")),
        Highlight(cell="a", role=Role.PATH, player=0, step=1),
        Highlight(cell="e", role=Role.PATH, player=0, step=2),
    )
    back = island_highlights(state, BM_CFG, "o>o", 0, can_move=True, banners=False)
    assert [(h.cell, h.step) for h in back if h.role == Role.PATH] == [("a", 1), ("o", 2)]


def test_the_overview_lights_control_beasts_banners_and_what_may_act() -> None:
    state = spread()
    idx = state.board.graph.index["e"]
    spaces = list(state.spaces)
    spaces[idx] = spaces[idx].model_copy(update={"banner": 1})
    state = state.model_copy(update={"spaces": tuple(spaces)})
    control = (
        Highlight(cell="o", role=Role.CONTROL, player=0),
        Highlight(cell="a", role=Role.CONTROL, player=0),
        Highlight(cell="f", role=Role.CONTROL, player=1),
        Highlight(cell="c", role=Role.CONTROL, player=0),
        Highlight(cell="b", role=Role.BEAST),
    )
    mine = tuple(Highlight(cell=c, role=Role.SELECTABLE, player=0) for c in ("a", "c", "o"))
    harvest = tuple(Highlight(cell=c, role=Role.HARVESTABLE, player=0) for c in ("a", "c"))
    banner = (Highlight(cell="e", role=Role.BANNER, player=1),)
    lit = island_highlights(
        state, BM_CFG, None, 0, can_move=True, banners=True, harvestable={"c", "a"}
    )
    assert lit == control + banner + mine + harvest
    assert island_highlights(state, BM_CFG, "zz", 0, can_move=True, banners=False) == (
        control + mine
    )
    assert island_highlights(state, BM_CFG, "o", 0, can_move=False, banners=False) == control
    assert island_highlights(state, BM_CFG, "o", None, can_move=True, banners=False) == control
    nobody = island_highlights(
        state, BM_CFG, None, None, can_move=True, banners=False, harvestable={"a"}
    )
    assert nobody == control


def test_2_6_6_while_a_colossus_must_leave_only_it_may_move_to_a_dry_neighbour() -> None:
    state = displacing("beast_master", "Wyrm arrived")
    assert movable_spaces(state, 0, can_move=False) == {"o"}
    assert movable_spaces(state, 1, can_move=True) == set()
    assert moving_chains(state, BM_CFG, 0, "o", can_move=False) == {
        "a": ("a",),
        "b": ("b",),
        "c": ("c",),
    }
    assert moving_chains(state, BM_CFG, 0, "a", can_move=True) is None
    assert moving_chains(state, BM_CFG, 1, "o", can_move=True) is None
    calm = position(beasts=[])
    assert movable_spaces(calm, 0, can_move=False) == set()
    assert moving_chains(calm, BM_CFG, 0, "o", can_move=False) is None
    assert moving_chains(calm, BM_CFG, 0, "c", can_move=True) is None  # nothing of Ann's


def test_a_score_row_is_added_under_the_history() -> None:
    state = position().model_copy(update={"history": (ScoreRow(label="Age I", values=(1, 0)),)})
    assert gold_row(state, [3, 2], "Age II") == (
        ScoreRow(label="Age I", values=(1, 0)),
        ScoreRow(label="Age II", values=(3, 2)),
    )


def test_BM_R07_a_spawn_sent_with_its_path_is_checked_as_an_acolytes_chain() -> None:
    state = position()  # the Wyrm on b
    assert refused(bm.RULES.apply, state, Spawn(to="f", path=("b", "f"))) == (
        "Road Movement needs another of your pieces on b to continue.",
        "BM-R07",
    )
    on_beast = position(beasts=[("Wyrm", "o")])
    assert refused(bm.RULES.apply, on_beast, Spawn(to="c", path=("c",))) == (
        "An Acolyte spawned on the Beast's space dies at once and cannot step on.",
        "BM-R07",
    )
