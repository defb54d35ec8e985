"""Beast Master (seed 001): tests of each ruling BM-R01…BM-R16, plus Beast and Banner rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import Roll
from companion.errors import InvalidOptions, RuleViolation
from companion.games.island import beast_master as bm
from companion.games.island.beast_master import model as bmm
from companion.games.island.board import placeholder_board
from companion.games.island.model import (
    ApplyEffect,
    DiscardToLimit,
    DisplaceColossus,
    DrawCards,
    GainGold,
    Move,
    MoveBeast,
    MovePiece,
    PendingDiscard,
    PendingDisplace,
    PendingExplore,
    PendingLoot,
    PlayCard,
    Spawn,
    Tile,
)
from companion.highlights import Role
from companion.views import ActionCells

from .helpers import explored, grid_board, line_board, place

R = bm.RULES
NAMES = ["Ann", "Bob", "Cleo", "Dov"]


def new(players: int = 2, **options: Any) -> bm.BeastMasterState:
    return R.setup(NAMES[:players], R.parse_options(options), seed=7)


def actions(state: bm.BeastMasterState, movements: int = 4) -> bm.BeastMasterState:
    return state.model_copy(update={"phase": "actions", "movements_left": movements})


def act(state: bm.BeastMasterState, *steps: Any) -> bm.BeastMasterState:
    for step in steps:
        state, _ = R.apply(state, step)
    return state


def test_BM_R01_a_table_board_is_used_and_the_placeholder_is_the_default() -> None:
    assert new().board == placeholder_board()
    board = grid_board(3, 3)
    state = R.setup(NAMES[:2], R.parse_options({"board": board.model_dump(mode="json")}), 1)
    assert state.board == board
    assert state.colossi == ("g11", "g11")
    assert state.beasts[0].space == "g11"
    with pytest.raises(InvalidOptions):
        R.parse_options({"board": {"centre": "x", "spaces": [{"id": "y"}]}})


def test_BM_R02_player_counts_and_acolytes() -> None:
    assert new(2).acolytes_in_hand == (10, 10)
    assert new(3).acolytes_in_hand == (12, 12, 12)
    assert new(4).acolytes_in_hand == (10,) * 4
    assert new(2, acolytes_per_player=8).acolytes_in_hand == (8, 8)
    with pytest.raises(InvalidOptions):
        R.setup(["a"], R.parse_options({}), 1)
    with pytest.raises(InvalidOptions):
        R.setup(["a", "b", "c", "d", "e"], R.parse_options({}), 1)


def test_BM_R03_colossi_start_on_the_centre_with_the_beast() -> None:
    state = new(3)
    assert state.colossi == ("r3c3",) * 3
    assert [b.space for b in state.beasts] == ["r3c3"]
    assert state.phase == "choose"


def test_BM_R03_player_choice_places_colossi_in_turn_order_without_exploring() -> None:
    state = new(2, colossus_start="player_choice")
    assert state.phase == "place_colossus" and R.current_player(state) == 0
    with pytest.raises(RuleViolation):
        R.apply(state, bmm.TakeActions())
    state = act(state, bmm.PlaceColossus(space="r1c1"))
    assert R.current_player(state) == 1
    state = act(state, bmm.PlaceColossus(space="r5c5"))
    assert state.colossi == ("r1c1", "r5c5") and state.phase == "choose"
    assert state.pending == ()


def test_BM_R04_all_acolytes_and_banners_start_in_hand() -> None:
    state = new(2)
    assert all(sum(sp.acolytes) == 0 for sp in state.spaces)
    assert state.banners_in_hand == (5, 5)
    assert state.cards_in_hand == (3, 3)


def test_BM_R05_centre_is_unexplored_and_the_first_entry_explores() -> None:
    state = new(2)
    assert state.space("r3c3").tile is None
    state = place(actions(state), colossi={0: "r2c3"})
    state = act(state, Move(piece="colossus", origin="r2c3", to="r3c3"))
    assert state.pending == (PendingExplore(space="r3c3", player=0),)


def test_BM_R05_option_centre_starts_with_loot() -> None:
    state = new(2, centre_starts_with_loot=True)
    assert state.space("r3c3").tile == Tile(kind="loot")
    assert isinstance(state.pending[0], PendingLoot)
    state = act(state, bmm.EnterLoot(gold=2, cards=0))
    assert state.space("r3c3").tile == Tile(kind="loot", gold=2)


def test_BM_R06_explore_roll_and_exhausted_supplies() -> None:
    state = place(actions(new(2)), colossi={0: "r2c3"})
    moved = act(state, Move(piece="colossus", origin="r2c3", to="r2c2"))
    request = R.dice_request(moved)
    assert request is not None and request.sides == 6 and request.count == 1
    env = act(moved, Roll(values=(5,), source="manual"))
    assert env.space("r2c2").tile == Tile(kind="environment")
    loot = act(moved, Roll(values=(4,), source="manual"))
    assert isinstance(loot.pending[0], PendingLoot)
    # Loot exhausted: a Loot roll gives an Environment
    no_loot = moved.model_copy(update={"loot_left": 0})
    assert act(no_loot, Roll(values=(1,))).space("r2c2").tile == Tile(kind="environment")
    # both exhausted: bare at once (no roll), and never explored again
    none_left = state.model_copy(update={"loot_left": 0, "environments_left": 0})
    bare = act(none_left, Move(piece="colossus", origin="r2c3", to="r2c2"))
    assert bare.space("r2c2").tile == Tile(kind="bare") and bare.pending == ()
    assert R.dice_request(bare) is None
    back = act(bare, Move(piece="colossus", origin="r2c2", to="r2c3"))
    back = act(back, Move(piece="colossus", origin="r2c3", to="r2c2"))
    assert back.space("r2c2").tile == Tile(kind="bare") and back.pending == ()


def test_BM_R06_supply_counts_go_down() -> None:
    state = place(actions(new(2, loot_tokens=3, environment_tiles=1)), colossi={0: "r2c3"})
    state = act(state, Move(piece="colossus", origin="r2c3", to="r2c2"), Roll(values=(6,)))
    assert state.environments_left == 0 and state.loot_left == 3


def _explorer(**options: Any) -> bm.BeastMasterState:
    """Ann's Actions turn with her Colossus on r2c3 (explored), unexplored spaces around."""
    state = place(actions(new(2, **options)), colossi={0: "r2c3"})
    return place(state, tiles={"r2c3": Tile(kind="environment")})


def test_an_environment_roll_places_loot_once_the_environments_are_gone_bm_r06() -> None:
    state = _explorer(loot_tokens=2, environment_tiles=0)
    state = act(state, Move(piece="colossus", origin="r2c3", to="r2c2"))
    assert R.dice_request(state) is not None  # Loot is left: the roll still happens
    after = act(state, Roll(values=(5,), source="manual"))
    assert after.space("r2c2").tile == Tile(kind="loot")
    assert after.pending == (PendingLoot(space="r2c2", player=0),)
    assert (after.loot_left, after.environments_left) == (1, 0)


def test_the_last_loot_token_goes_out_then_a_loot_roll_gives_an_environment_bm_r06() -> None:
    state = _explorer(loot_tokens=1)
    state = act(
        state,
        Move(piece="colossus", origin="r2c3", to="r2c2"),
        Roll(values=(1,), source="manual"),
        bmm.EnterLoot(gold=1),
    )
    assert state.space("r2c2").tile == Tile(kind="loot", gold=1)
    assert (state.loot_left, state.environments_left) == (0, None)
    state = act(
        state,
        Move(piece="colossus", origin="r2c2", to="r1c2"),
        Roll(values=(3,), source="manual"),
    )
    assert state.space("r1c2").tile == Tile(kind="environment") and state.pending == ()
    assert (state.loot_left, state.environments_left) == (0, None)


def test_when_the_last_tile_is_drawn_the_spaces_still_waiting_stay_bare_bm_r06() -> None:
    """A Road chain enters two unexplored spaces; the first takes the last Environment
    (Loot is gone), so the second is left bare at once: no roll is asked or taken."""
    state = _explorer(loot_tokens=0, environment_tiles=1)
    state = place(state, acolytes={"r2c2": {0: 1}})  # placed, not entered: unexplored
    path = ("r2c2", "r2c1")
    state = act(state, Move(piece="colossus", origin="r2c3", to="r2c1", path=path))
    assert [p.space for p in state.pending if isinstance(p, PendingExplore)] == list(path)
    after, events = R.apply(state, Roll(values=(2,), source="manual"))
    assert after.space("r2c2").tile == Tile(kind="environment")
    assert after.space("r2c1").tile == Tile(kind="bare")
    assert after.pending == () and R.dice_request(after) is None
    assert (after.loot_left, after.environments_left) == (0, 0)
    assert any("BM-R06" in e.text and "B1" in e.text for e in events)  # r2c1 by its label
    assert not any(isinstance(a, Roll) for a in R.legal_actions(after))
    with pytest.raises(RuleViolation):
        R.apply(after, Roll(values=(1,), source="manual"))
    # bare for good: entering it again explores nothing
    again = act(
        after,
        Move(piece="colossus", origin="r2c1", to="r2c2"),
        Move(piece="colossus", origin="r2c2", to="r2c1"),
    )
    assert again.space("r2c1").tile == Tile(kind="bare") and again.pending == ()


def test_a_centre_loot_token_needs_a_loot_token_in_the_supply_bm_r06() -> None:
    with pytest.raises(InvalidOptions) as err:
        new(2, loot_tokens=0, centre_starts_with_loot=True)
    assert err.value.ruling == "BM-R06"
    # one token: it lies on the centre, and the supply is then empty
    state = new(2, loot_tokens=1, centre_starts_with_loot=True)
    assert state.space("r3c3").tile == Tile(kind="loot") and state.loot_left == 0


@settings(max_examples=80, deadline=None)
@given(
    loot=st.none() | st.integers(0, 4),
    environments=st.none() | st.integers(0, 4),
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=10),
)
def test_exploring_never_takes_from_an_exhausted_supply_bm_r06(
    loot: int | None, environments: int | None, faces: list[int]
) -> None:
    """A Colossus walks down a line, exploring a space a step: the rolled kind comes
    while it lasts, else the other kind, else nothing (bare) and no roll at all."""
    options = bm.BeastMasterOptions(
        board=line_board(12), loot_tokens=loot, environment_tiles=environments
    )
    state = R.setup(NAMES[:2], options, seed=3)
    state = place(actions(state), colossi={0: "a0"}, tiles={"a0": Tile(kind="environment")})
    for step, face in enumerate(faces, start=1):
        left = {"loot": state.loot_left, "environment": state.environments_left}
        move = Move(piece="colossus", origin=f"a{step - 1}", to=f"a{step}")
        state = act(actions(state), move)
        if left["loot"] == 0 and left["environment"] == 0:
            assert state.pending == () and R.dice_request(state) is None
            assert state.space(f"a{step}").tile == Tile(kind="bare")
            continue
        state = act(state, Roll(values=(face,), source="manual"))
        rolled = "loot" if face <= 4 else "environment"
        other = "environment" if rolled == "loot" else "loot"
        placed = rolled if left[rolled] != 0 else other
        tile = state.space(f"a{step}").tile
        assert tile is not None and tile.kind == placed
        for kind, before in left.items():
            now = state.loot_left if kind == "loot" else state.environments_left
            expected = None if before is None else before - (kind == placed)
            assert now == expected and (now is None or now >= 0)
        if placed == "loot":
            state = act(state, bmm.EnterLoot(gold=1))
        assert state.pending == ()


def test_BM_R07_spawn_on_the_beasts_space_dies_at_once() -> None:
    state = explored(actions(new(2)))
    after, events = R.apply(state, Spawn())
    assert after.acolytes_in_hand[0] == 10 and after.space("r3c3").acolytes[0] == 0
    assert any(e.type == "acolyte_died" for e in events)
    assert after.movements_left == 3
    with pytest.raises(RuleViolation) as err:
        R.apply(state, Spawn(to="r2c3"))
    assert err.value.ruling == "BM-R07"


def test_BM_R07_option_spawn_safe_first_step() -> None:
    state = explored(actions(new(2, spawn_safe_first_step=True)))
    after = act(state, Spawn(to="r2c3"))
    assert after.space("r2c3").acolytes[0] == 1
    died = act(state, Spawn())
    assert died.space("r3c3").acolytes[0] == 0


def test_BM_R07_an_acolyte_entering_the_beast_dies_and_its_chain_ends() -> None:
    state = explored(actions(new(2)))
    state = place(state, acolytes={"r2c3": {0: 1}}, colossi={0: "r1c3"})
    after = act(state, Move(piece="acolyte", origin="r2c3", to="r3c3"))
    assert after.space("r3c3").acolytes[0] == 0 and after.acolytes_in_hand[0] == 10
    assert after.gold == (0, 0)  # not a Beast Master card: no gold


def test_BM_R08_hand_limit_is_immediate() -> None:
    state = new(2).model_copy(update={"cards_in_hand": (6, 3)})
    state = act(state, bmm.TakeActions())
    assert state.cards_in_hand[0] == 7
    assert state.pending == (PendingDiscard(player=0),)
    with pytest.raises(RuleViolation) as err:
        R.apply(state, bmm.EndActions())
    assert err.value.ruling == "BM-R08"
    state = act(state, DiscardToLimit())
    assert state.cards_in_hand[0] == 6 and state.pending == ()


def test_BM_R08_option_end_of_turn() -> None:
    state = new(2, hand_limit_check="end_of_turn").model_copy(update={"cards_in_hand": (6, 3)})
    state = act(state, bmm.TakeActions())
    assert state.pending == ()
    state = act(state, bmm.EndActions())
    if state.phase == "banners":
        state = act(state, bmm.EndTurn())
    assert state.pending == (PendingDiscard(player=0),)
    assert R.current_player(state) == 0
    state = act(state, DiscardToLimit())
    assert R.current_player(state) == 1


def test_BM_R09_rest_allows_nothing_but_collecting() -> None:
    state = explored(new(2))
    state = place(state, acolytes={"r1c1": {0: 1}})
    state = state.model_copy(
        update={
            "spaces": tuple(
                sp.model_copy(update={"banner": 0}) if sid == "r1c1" else sp
                for sid, sp in zip(state.board.ids, state.spaces, strict=True)
            ),
            "banners_in_hand": (4, 5),
        }
    )
    rest = act(state, bmm.Rest())
    assert rest.phase == "resting" and rest.cards_in_hand[0] == 3  # no draw
    for illegal in (
        Move(piece="colossus", origin="r3c3", to="r2c3"),
        PlayCard(kind="action"),
        bmm.PlaceBanner(space="r1c1"),
        bmm.EndActions(),
    ):
        with pytest.raises(RuleViolation) as err:
            R.apply(rest, illegal)
        assert err.value.ruling == "BM-R09"
    done = act(rest, bmm.CollectReward(space="r1c1", gold=3, cards=1))
    assert done.gold[0] == 3 and done.cards_in_hand[0] == 4
    assert done.banners_in_hand[0] == 5 and done.space("r1c1").banner is None
    assert done.turns_taken == (1, 0) and done.active == 1


def test_BM_R10_beast_master_card_pays_for_opposing_kills_only() -> None:
    state = explored(actions(new(3)))
    state = place(
        state,
        acolytes={"r2c3": {0: 1, 1: 2, 2: 1}},
        colossi={0: "r1c1", 1: "r1c1", 2: "r1c1"},
    )
    card = PlayCard(kind="beast_master", effects=(MoveBeast(to="r2c3"),))
    after = act(state, card)
    assert after.space("r2c3").acolytes == (0, 0, 0)
    assert after.gold == (3, 0, 0)
    assert {e.source for e in after.ledger} == {"kill"}
    assert sorted(e.amount for e in after.ledger) == [1, 2]
    # the same Beast move as a plain correction pays nothing
    plain = act(state, ApplyEffect(effect=MoveBeast(to="r2c3")))
    assert plain.gold == (0, 0, 0)
    # ...but entered as part of a Beast Master card it does
    entered = act(state, ApplyEffect(effect=MoveBeast(to="r2c3"), card_kind="beast_master"))
    assert entered.gold == (3, 0, 0)
    # the Beast's move touches its space and where it goes, as the table shows it
    beast = state.beasts[0].space
    assert R.action_cells(state, ApplyEffect(effect=MoveBeast(to="r2c3"))) == ActionCells.at(
        "r2c3", beast
    )


def test_BM_R10_push_by_a_beast_master_card_into_the_beast_pays() -> None:
    state = explored(actions(new(2)))
    state = place(state, acolytes={"r2c3": {1: 1}})
    push = MovePiece(who=1, piece="acolyte", origin="r2c3", to="r3c3")
    after = act(state, PlayCard(kind="beast_master", effects=(push,)))
    assert after.gold == (1, 0) and after.acolytes_in_hand[1] == 10


def test_BM_R11_a_second_perk_replaces_the_first() -> None:
    state = explored(actions(new(2)))
    state = act(state, PlayCard(kind="perk", name="Swift"))
    assert state.perks == ("Swift", None) and state.cards_in_hand[0] == 2
    state = act(state, PlayCard(kind="perk", name="Strong"))
    assert state.perks == ("Strong", None)


def _finish_turns(state: bm.BeastMasterState, gold: tuple[int, ...]) -> bm.BeastMasterState:
    n = len(state.players)
    state = state.model_copy(update={"turns_taken": (14,) * n, "turns_played": 14 * n, "active": 0})
    for seat, amount in enumerate(gold):
        if amount:
            state = act(state, ApplyEffect(effect=GainGold(who=seat, amount=amount)))
    for _ in range(n):
        state = act(state, bmm.Rest())
    return state


def test_BM_R12_gold_tie_is_shared() -> None:
    state = _finish_turns(new(3), (4, 4, 1))
    out = R.outcome(state)
    assert out is not None and out.winners == (0, 1) and out.reason == "shared_gold"


def test_BM_R12_option_manual_tie() -> None:
    state = _finish_turns(new(3, tie_policy="manual"), (4, 4, 1))
    assert state.phase == "tie" and R.outcome(state) is None
    with pytest.raises(RuleViolation):
        R.apply(state, bmm.PickWinners(seats=(2,)))
    state = act(state, bmm.PickWinners(seats=(1,)))
    out = R.outcome(state)
    assert out is not None and out.winners == (1,)


def test_BM_R13_a_colossus_is_never_pushed_off_the_island() -> None:
    state = explored(actions(new(2)))
    state = place(state, acolytes={"r1c1": {1: 1}}, colossi={1: "r1c1"})
    after = act(
        state, ApplyEffect(effect=MovePiece(who=1, piece="colossus", origin="r1c1", to="off"))
    )
    assert after.colossi[1] == "r1c1"
    after = act(
        after, ApplyEffect(effect=MovePiece(who=1, piece="acolyte", origin="r1c1", to="off"))
    )
    assert after.space("r1c1").acolytes[1] == 0 and after.acolytes_in_hand[1] == 10
    with pytest.raises(RuleViolation):
        R.apply(
            state, ApplyEffect(effect=MovePiece(who=1, piece="colossus", origin="r3c3", to="off"))
        )


def test_BM_R14_banners_on_controlled_spaces_even_without_a_tile() -> None:
    state = actions(new(2))
    state = place(state, acolytes={"r1c1": {0: 1}, "r1c2": {1: 1}, "r1c3": {0: 1, 1: 1}})
    state = act(state, bmm.EndActions())
    assert state.phase == "banners"
    listed = {a.space for a in R.legal_actions(state) if isinstance(a, bmm.PlaceBanner)}
    assert listed == {"r1c1"}  # r3c3: two Colossi 0-0 → nobody; r1c3 tied
    with pytest.raises(RuleViolation) as err:
        R.apply(state, bmm.PlaceBanner(space="r1c2"))
    assert err.value.ruling == "BM-R14"
    state = act(state, bmm.PlaceBanner(space="r1c1"))
    with pytest.raises(RuleViolation):
        R.apply(state, bmm.PlaceBanner(space="r1c1"))  # already your Banner
    state = act(state, bmm.EndTurn())
    # later Ann rests: an untiled space gives nothing
    state = state.model_copy(update={"active": 0, "phase": "choose"})
    state = act(state, bmm.Rest())
    with pytest.raises(RuleViolation) as err:
        R.apply(state, bmm.CollectReward(space="r1c1", gold=2))
    assert err.value.ruling == "BM-R14"
    state = act(state, bmm.CollectReward(space="r1c1"))
    assert state.gold == (0, 0)


def test_banner_replaces_an_opposing_banner() -> None:
    state = actions(new(2))
    state = place(state, acolytes={"r1c1": {0: 2, 1: 1}})
    spaces = list(state.spaces)
    spaces[0] = spaces[0].model_copy(update={"banner": 1})
    state = state.model_copy(update={"spaces": tuple(spaces), "banners_in_hand": (5, 4)})
    state = act(state, bmm.EndActions(), bmm.PlaceBanner(space="r1c1"))
    assert state.space("r1c1").banner == 0 and state.banners_in_hand == (4, 5)


def test_BM_R15_loot_reward_is_entered_when_placed_and_paid_at_rest() -> None:
    state = place(actions(new(2)), colossi={0: "r2c3"})
    state = act(
        state,
        Move(piece="colossus", origin="r2c3", to="r1c3"),
        Roll(values=(2,)),
        bmm.EnterLoot(gold=2, cards=1, name="2 Gold + card"),
    )
    assert state.space("r1c3").tile == Tile(kind="loot", gold=2, cards=1, name="2 Gold + card")
    state = act(state, bmm.EndActions(), bmm.PlaceBanner(space="r1c3"), bmm.EndTurn())
    state = act(state, bmm.Rest())  # Bob rests with nothing
    state = act(state, bmm.Rest(), bmm.CollectReward(space="r1c3"))
    assert state.gold == (2, 0) and state.cards_in_hand[0] == 3 + 1
    assert [(e.source, e.amount) for e in state.ledger] == [("banner", 2)]


def test_nothing_else_goes_on_until_the_loot_reward_is_entered_bm_r15() -> None:
    state = _explorer()
    state = act(
        state,
        Move(piece="colossus", origin="r2c3", to="r2c2"),
        Roll(values=(3,), source="manual"),
    )
    assert state.space("r2c2").tile == Tile(kind="loot")  # face up, its reward still blank
    assert state.pending == (PendingLoot(space="r2c2", player=0),)
    assert R.current_player(state) == 0 and R.dice_request(state) is None
    assert "enter the Loot token's reward" in R.status(state)
    legal = list(R.legal_actions(state))
    assert legal and all(isinstance(a, bmm.EnterLoot) for a in legal)
    for refused in (
        Move(piece="colossus", origin="r2c2", to="r2c1"),
        bmm.EndActions(),
        PlayCard(kind="action"),
        Roll(values=(5,), source="manual"),
        bmm.NameTile(space="r2c2", name="2 Gold"),
    ):
        with pytest.raises(RuleViolation) as err:
            R.apply(state, refused)
        assert err.value.ruling == "BM-R15" and "B2" in err.value.message  # r2c2's label
    after = act(state, bmm.EnterLoot(gold=0, cards=2, name="2 Cards"))
    assert after.space("r2c2").tile == Tile(kind="loot", cards=2, name="2 Cards")
    assert after.pending == () and after.phase == "actions" and after.movements_left == 3


def test_a_loot_token_on_the_centre_is_entered_before_the_first_turn_bm_r15() -> None:
    state = new(2, centre_starts_with_loot=True)
    assert R.current_player(state) == 0 and state.pending == (PendingLoot(space="r3c3", player=0),)
    for refused in (bmm.TakeActions(), bmm.Rest()):
        with pytest.raises(RuleViolation) as err:
            R.apply(state, refused)
        assert err.value.ruling == "BM-R15"
    state = act(state, bmm.EnterLoot(gold=3))
    assert state.space("r3c3").tile == Tile(kind="loot", gold=3) and state.phase == "choose"


def test_BM_R16_rest_and_actions_both_count_and_turns_go_clockwise() -> None:
    state = new(3, turns_per_player=2)
    order = []
    while R.outcome(state) is None:
        order.append(state.active)
        if state.turns_played % 2:
            state = act(state, bmm.Rest())
        else:
            state = act(state, bmm.TakeActions(), bmm.EndActions())
            if state.phase == "banners":
                state = act(state, bmm.EndTurn())
            while state.pending:
                state = act(state, next(iter(R.legal_actions(state))))
    assert order == [0, 1, 2, 0, 1, 2]
    assert state.turns_taken == (2, 2, 2)
    assert list(R.legal_actions(state)) == []
    assert len(R.scores(state).rows) == 6


def test_beast_displaces_colossi_in_order_from_the_active_player() -> None:
    state = explored(actions(new(3)), None)
    state = place(state, colossi={0: "r2c3", 1: "r2c3", 2: "r2c3"}, tiles={"r1c3": None})
    state = state.model_copy(update={"active": 1})
    state = act(state, PlayCard(kind="beast_master", effects=(MoveBeast(to="r2c3"),)))
    assert [p.player for p in state.pending if isinstance(p, PendingDisplace)] == [1, 2, 0]
    assert R.current_player(state) == 1
    with pytest.raises(RuleViolation):
        R.apply(state, DisplaceColossus(to="r5c5"))
    state = act(state, DisplaceColossus(to="r1c3"))  # unexplored: exploring follows
    assert state.colossi[1] == "r1c3"
    assert any(isinstance(p, PendingExplore) and p.space == "r1c3" for p in state.pending)
    assert R.current_player(state) == 2


def test_a_colossus_may_share_the_beasts_space() -> None:
    state = place(explored(actions(new(2))), colossi={0: "r2c3"})
    state = act(state, Move(piece="colossus", origin="r2c3", to="r3c3"))
    assert state.colossi[0] == "r3c3" and state.pending == ()


def test_divine_gift_gold_and_card_effects_are_recorded_by_source() -> None:
    state = explored(actions(new(2)))
    gift = PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=2),))
    state = act(state, gift, ApplyEffect(effect=DrawCards(who=1, amount=2)))
    assert state.gold == (2, 2) and {e.source for e in state.ledger} == {"gift"}
    assert state.cards_in_hand == (2, 5)


def test_gold_may_go_negative_in_beast_master() -> None:
    state = act(explored(actions(new(2))), ApplyEffect(effect=GainGold(who=0, amount=-2)))
    assert state.gold == (-2, 0)


def test_highlights_without_and_with_focus() -> None:
    state = explored(actions(new(2)))
    state = place(state, acolytes={"r2c3": {0: 1}, "r1c1": {1: 1}})
    roles = {(h.cell, h.role, h.player) for h in R.highlights(state)}
    assert ("r3c3", Role.BEAST, None) in roles
    assert ("r2c3", Role.CONTROL, 0) in roles and ("r1c1", Role.CONTROL, 1) in roles
    assert ("r2c3", Role.SELECTABLE, 0) in roles and ("r3c3", Role.SELECTABLE, 0) in roles
    focused = R.highlights(state, focus="r2c3")
    assert focused[0].role == Role.SELECTED and focused[0].cell == "r2c3"
    reach = {h.cell for h in focused if h.role == Role.REACHABLE}
    assert reach == set(state.board.adjacent("r2c3"))
    chain = place(state, acolytes={"r2c4": {0: 1}})
    steps = [h for h in R.highlights(chain, focus="r2c3") if h.role == Role.PATH]
    assert all(h.step is not None for h in steps)
    far = {h.cell for h in R.highlights(chain, focus="r2c3") if h.role == Role.REACHABLE}
    assert "r2c5" in far  # through Ann's own Acolyte on r2c4
    # focus on a space without own pieces shows the overview
    assert R.highlights(state, focus="r1c1") == R.highlights(state)


def test_banner_highlights() -> None:
    state = actions(new(2))
    state = place(state, acolytes={"r1c1": {0: 1}})
    state = act(state, bmm.EndActions(), bmm.PlaceBanner(space="r1c1"))
    assert any(
        h.role == Role.BANNER and h.cell == "r1c1" and h.player == 0 for h in R.highlights(state)
    )


def test_line_board_game_runs() -> None:
    state = R.setup(NAMES[:2], bm.BeastMasterOptions(board=line_board(4)), 3)
    assert state.colossi == ("a2", "a2")
