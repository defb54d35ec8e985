"""The scratch copy's consequences (mechanics.Work), word for word: Gold and its ledger
(CA-R17), cards and the hand limit (BM-R08), deaths and kill Gold (BM-R10), exploring,
the Beast's arrival (2.6.6, CA-R08), Water (CA-R18) and the generic effects."""

from __future__ import annotations

from companion.events import TableChanges
from companion.games.island.mechanics import Work, empty_spaces, ledger_totals
from companion.games.island.model import (
    DrawCards,
    ExtraMovements,
    GainGold,
    GoldEntry,
    IslandState,
    KillAcolyte,
    PendingDiscard,
    PendingDisplace,
    PendingExplore,
    SetPerk,
    SpaceState,
    Tile,
)
from companion.games.island.turns import run_effects
from companion.highlights import TableChange

from .helpers import BM_CFG, CA_CFG
from .island_rules_help import BOARD, position


def texts(w: Work[IslandState]) -> list[str]:
    return [e.text for e in w.events]


def test_gold_and_its_ledger_line_in_beast_master_gold_may_drop_below_zero() -> None:
    w = Work(position(), BM_CFG)
    assert w.add_gold(0, -2, "effect") == -2
    assert w.gold == [-2, 0] and texts(w) == ["Ann −2 Gold (effect)."]
    assert w.ledger == [GoldEntry(player=0, amount=-2, source="effect", label="")]
    w.label = "Turn 3"
    assert w.add_gold(1, 3, "banner") == 3
    assert texts(w)[-1] == "Bob +3 Gold (Banner)."
    assert w.ledger[-1] == GoldEntry(player=1, amount=3, source="banner", label="Turn 3")
    assert w.add_gold(1, 0, "effect") == 0  # nothing changes: no line, no word
    assert len(w.ledger) == 2 and len(w.events) == 2


def test_CA_R17_a_loss_is_capped_at_the_gold_a_player_has() -> None:
    w = Work(position("colossi"), CA_CFG)
    assert w.add_gold(0, -2, "effect") == 0
    assert w.gold == [0, 0] and w.ledger == [] and w.events == []
    rich = Work(position("colossi").model_copy(update={"gold": (3, 0)}), CA_CFG)
    assert rich.add_gold(0, -5, "harvest") == -3
    assert rich.gold == [0, 0] and texts(rich) == ["Ann −3 Gold (harvest)."]
    assert rich.add_gold(1, 2, "harvest") == 2 and rich.gold == [0, 2]


def test_BM_R08_a_hand_of_seven_discards_at_once_and_is_asked_once() -> None:
    w = Work(position(), BM_CFG)
    w.change_cards(0, 3)
    assert w.cards == [6, 3] and w.pending == [] and texts(w) == ["Ann draws 3 cards."]
    w.change_cards(0, 1)
    assert w.pending == [PendingDiscard(player=0)]
    w.change_cards(0, 1)
    assert w.pending == [PendingDiscard(player=0)]  # already asked
    w.change_cards(1, 0)
    assert texts(w) == ["Ann draws 3 cards.", "Ann draws 1 card.", "Ann draws 1 card."]
    later = Work(position(), BM_CFG.__class__(**{**BM_CFG.__dict__, "hand_limit_immediate": False}))
    later.change_cards(0, 5)
    assert later.cards[0] == 8 and later.pending == []  # checked at the end of the turn


def test_BM_R08_the_discard_comes_before_what_waits_even_the_same_player_s_explore() -> None:
    w = Work(position(), BM_CFG)
    explore = PendingExplore(space="c", player=0)
    w.pending = [explore, PendingDiscard(player=1)]  # Bob's own discard asks nothing of Ann
    w.change_cards(0, 4)
    assert w.pending == [PendingDiscard(player=0), explore, PendingDiscard(player=1)]


def test_an_effect_s_deaths_say_an_effect_killed_them() -> None:
    w = Work(position(acolytes={"c": {1: 2}}), BM_CFG)
    w.apply_effect(KillAcolyte(who="others", space="c"), 0, colossi_rules=False)
    [line] = texts(w)
    assert line.startswith("1 Acolyte of Bob died on ") and line.endswith(" (an effect).")


def test_BM_R10_deaths_go_home_and_pay_the_card_player_for_opponents_only() -> None:
    w = Work(position(acolytes={"c": {0: 2, 1: 3}}), BM_CFG)
    w.kill_credit = 0
    w.kill(1, "c", 5, "a Beast Master card")  # only the 3 there die
    w.kill(0, "c", 1, "a Beast Master card")
    w.kill(0, "e", 1, "nothing")  # nobody there: nothing happens
    assert texts(w) == [
        "3 Acolytes of Bob died on c (a Beast Master card).",
        "Ann +3 Gold (kill).",
        "1 Acolyte of Ann died on c (a Beast Master card).",
    ]
    assert w.gold == [3, 0] and w.in_hand == [9, 10]
    assert w.acolytes[w.i("c")] == [1, 0]
    assert w.fixes == [
        ("c", "Give 3 of Bob's Acolytes there back to them."),
        ("c", "Give 1 of Ann's Acolytes there back to them."),
    ]


def test_BM_R10_a_card_s_context_lasts_for_its_own_effects_only() -> None:
    """A Divine Gift's Gold is the gift's and a Beast Master card's kills pay its player;
    an Action card's Gold, and whatever happens after a card, are plain effects."""
    w = Work(position(acolytes={"c": {1: 2}}), BM_CFG)
    run_effects(w, 0, "action", [GainGold(amount=1)])
    run_effects(w, 0, "divine_gift", [GainGold(amount=2)])
    run_effects(w, 0, "beast_master", [KillAcolyte(who="others", space="c")])
    w.apply_effect(GainGold(amount=3), 0, colossi_rules=False)
    w.apply_effect(KillAcolyte(who="others", space="c"), 0, colossi_rules=False)
    assert [line for line in texts(w) if "Gold" in line] == [
        "Ann +1 Gold (effect).",
        "Ann +2 Gold (Divine Gift).",
        "Ann +1 Gold (kill).",
        "Ann +3 Gold (effect).",
    ]


def test_BM_R05_a_chain_explores_every_space_it_passes_and_names_its_end() -> None:
    state = position(acolytes={"a": {0: 1}, "b": {0: 1}}, beasts=[("Wyrm", "e")], tiles={"b": None})
    w = Work(state, BM_CFG)
    w.walk(0, "acolyte", "a", ("o", "b", "f"))
    assert w.pending == [PendingExplore(space="b", player=0)]  # the second space passed
    assert texts(w) == ["Ann moves an Acolyte from a to f via o and b."]


def test_BM_R05_an_unexplored_space_explores_once_on_entry() -> None:
    w = Work(position(tiles={"c": None}), BM_CFG)
    w.enter(0, "c")
    w.enter(1, "c")
    w.enter(1, "a")  # explored already
    assert w.pending == [PendingExplore(space="c", player=0)]


def test_2_6_6_the_beast_arriving_kills_and_displaces_from_the_active_player_on() -> None:
    state = position(acolytes={"c": {0: 1, 1: 2}}, colossi={0: "c", 1: "c"})
    w = Work(state, BM_CFG)
    w.update["active"] = 1  # Bob's turn has begun in this same action
    assert w.active == 1 and w.seats_from(w.active) == [1, 0]
    w.move_beast(None, "c")
    assert texts(w) == [
        "Wyrm moves to c.",
        "2 Acolytes of Bob died on c (Wyrm).",
        "1 Acolyte of Ann died on c (Wyrm).",
    ]
    assert w.pending == [
        PendingDisplace(space="c", player=1, reason="Wyrm arrived"),
        PendingDisplace(space="c", player=0, reason="Wyrm arrived"),
    ]
    assert w.in_hand == [10, 10]
    stays = Work(position(acolytes={"b": {1: 0}}), BM_CFG)
    stays.move_beast(None, "b")  # it does not arrive where it stands
    assert texts(stays) == ["Wyrm moves to b."] and stays.pending == []


def test_CA_R08_a_colossi_beast_neither_kills_nor_displaces() -> None:
    state = position("colossi", acolytes={"c": {0: 1, 1: 2}}, colossi={0: "c", 1: "c"})
    w = Work(state, CA_CFG)
    w.move_beast(None, "c")
    assert texts(w) == ["Wyrm moves to c."] and w.pending == []
    assert w.acolytes[w.i("c")] == [1, 2]


def test_CA_R18_water_clears_the_space_and_sends_the_colossi_away() -> None:
    state = position(
        "colossi",
        acolytes={"c": {0: 1, 1: 2}},
        colossi={0: "c", 1: "c"},
        tiles={"c": Tile(kind="loot", gold=1)},
        beasts=[],
    )
    idx = state.board.graph.index["c"]
    spaces = list(state.spaces)
    spaces[idx] = spaces[idx].model_copy(update={"banner": 1, "cubes": 2})
    queued = (PendingExplore(space="c", player=0), PendingExplore(space="a", player=0))
    state = state.model_copy(update={"spaces": tuple(spaces), "pending": queued, "active": 1})
    w = Work(state, CA_CFG)
    w.set_water("c", True)
    assert texts(w) == [
        "The tile on c is discarded for Water (CA-R18).",
        "1 Acolyte of Ann died on c (Water).",
        "2 Acolytes of Bob died on c (Water).",
    ]
    assert w.fixes[0] == ("c", "Put a Water tile here.")
    assert (w.tiles[idx], w.cubes[idx], w.banners[idx], w.water[idx]) == (None, 0, None, True)
    assert w.pending == [
        PendingExplore(space="a", player=0),  # c's exploring is void
        PendingDisplace(space="c", player=1, reason="Water"),
        PendingDisplace(space="c", player=0, reason="Water"),
    ]
    w.set_water("c", False)
    assert w.water[idx] is False and len(w.fixes) == 3


def test_CA_R18_a_colossus_with_no_dry_neighbour_stays() -> None:
    state = position("colossi", colossi={0: "e", 1: "f"}, water=("a",), acolytes={}, beasts=[])
    w = Work(state, CA_CFG)
    w.set_water("e", True)
    assert texts(w) == [
        "The tile on e is discarded for Water (CA-R18).",
        "Ann's Colossus has nowhere to go and stays on e.",
    ]
    assert w.pending == []
    bare = Work(position("colossi", tiles={"c": None}, beasts=[]), CA_CFG)
    bare.set_water("c", True)
    assert texts(bare) == []  # no tile to discard, nobody there


def test_effects_name_their_players_in_seat_order_from_the_actor() -> None:
    w = Work(position(), BM_CFG)
    assert (w.seats("self", 1), w.seats("each", 1), w.seats("others", 1), w.seats(1, 0)) == (
        [1],
        [1, 0],
        [0],
        [1],
    )
    w.apply_effect(GainGold(who="each", amount=2), 1, colossi_rules=False)
    w.apply_effect(DrawCards(who="others", amount=1), 0, colossi_rules=False)
    w.apply_effect(GainGold(amount=1, source="banner"), 0, colossi_rules=False)
    assert texts(w) == [
        "Bob +2 Gold (effect).",
        "Ann +2 Gold (effect).",
        "Bob draws 1 card.",
        "Ann +1 Gold (Banner).",
    ]


def test_more_or_fewer_movements_never_below_zero() -> None:
    w = Work(position(), BM_CFG)
    w.movements_left = 1
    w.apply_effect(ExtraMovements(amount=-3), 0, colossi_rules=False)
    assert w.movements_left == 0
    w.apply_effect(ExtraMovements(amount=1), 0, colossi_rules=False)
    w.apply_effect(ExtraMovements(amount=0), 0, colossi_rules=False)
    assert w.movements_left == 1
    assert texts(w) == [
        "3 fewer Movements this turn.",
        "1 more Movement this turn.",
        "0 more Movements this turn.",
    ]
    ca = Work(position("colossi"), CA_CFG)
    ca.apply_effect(ExtraMovements(amount=2), 0, colossi_rules=True)
    assert ca.movements_left == 6 and texts(ca) == ["2 more Actions this turn."]


def test_BM_R11_a_new_perk_discards_the_old_one() -> None:
    w = Work(position(), BM_CFG)
    for name in ("Swift", "Eagle", None):
        w.apply_effect(SetPerk(name=name), 0, colossi_rules=False)
    assert w.perks == [None, None]
    assert texts(w) == ["Ann's Perk Swift is discarded for Eagle (BM-R11)."]


def test_the_ledger_adds_up_per_player_and_a_new_island_is_empty() -> None:
    ledger = [
        GoldEntry(player=1, amount=2, source="effect", label=""),
        GoldEntry(player=1, amount=-1, source="effect", label=""),
        GoldEntry(player=0, amount=4, source="banner", label=""),
    ]
    assert ledger_totals(ledger, 3) == (4, 1, 0)
    spaces = empty_spaces(BOARD, 3)
    assert len(spaces) == 7
    assert spaces[BOARD.graph.index["w"]] == SpaceState(acolytes=(0, 0, 0), water=True)
    assert spaces[0] == SpaceState(acolytes=(0, 0, 0))


def test_what_the_table_must_change_comes_last_in_numbered_steps() -> None:
    state = position(acolytes={"c": {0: 2, 1: 1}})
    w = Work(state, BM_CFG)
    w.kill(0, "c", 2, "an effect")
    w.kill(1, "c", 1, "an effect")
    w.movements_left = 2
    after = w.finish()
    assert w.events[-1] == TableChanges(
        changes=(
            TableChange(
                step=1, cell="c", instruction="Give 2 of Ann's Acolytes there back to them."
            ),
            TableChange(
                step=2, cell="c", instruction="Give 1 of Bob's Acolytes there back to them."
            ),
        ),
        text="Change the table: 2 steps.",
    )
    assert w.fixes == []
    assert after.space("c").acolytes == (0, 0) and after.acolytes_in_hand == (10, 10)
    assert after.movements_left == 2 and after.spaces[0] is state.spaces[0]
    quiet = Work(state, BM_CFG)
    assert quiet.finish() == state and quiet.events == []
