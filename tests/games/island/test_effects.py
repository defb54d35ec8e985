"""Generic effect editors, the content file, and both games through ``companion referee``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.errors import InvalidContent, InvalidOptions, RuleViolation
from companion.events import TableChanges
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.beast_master import model as bmm
from companion.games.island.colossi import model as cam
from companion.games.island.content import parse_content
from companion.games.island.model import (
    ApplyEffect,
    DrawCards,
    ExtraMovements,
    GainGold,
    KillAcolyte,
    Move,
    MoveBeast,
    MovePiece,
    PendingExplore,
    PlaceCubes,
    PlaceWater,
    PlayCard,
    SetPerk,
)
from companion.protocol import Referee

from .helpers import explored, grid_board, place

NAMES = ["Ann", "Bob", "Cleo"]


def bm_actions(**options: Any) -> bm.BeastMasterState:
    state = bm.RULES.setup(NAMES[:2], bm.RULES.parse_options(options), 5)
    return state.model_copy(update={"phase": "actions", "movements_left": 4})


def apply_all(rules: Any, state: Any, *actions: Any) -> Any:
    for action in actions:
        state, _ = rules.apply(state, action)
    return state


CONTENT = {
    "cards": [
        {
            "id": "stampede",
            "name": "Stampede",
            "kind": "beast_master",
            "effects": [{"type": "move_beast", "to": "r2c3"}],
        },
        {
            "id": "haste",
            "kind": "action",
            "effects": [{"type": "extra_movements", "amount": 2}, {"type": "cards", "amount": 1}],
        },
        {
            "id": "tithe",
            "kind": "divine_gift",
            "effects": [{"type": "gold", "who": "each", "amount": 1}],
        },
        {"id": "rage", "kind": "beast", "effects": [{"type": "move_beast", "to": "r2c3"}]},
    ],
    "environments": [{"name": "Gold Mine", "effects": [{"type": "gold", "amount": 4}]}],
}


def test_content_file_parses_and_refuses_bad_files() -> None:
    content = parse_content(json.dumps(CONTENT))
    assert content.card("stampede") is not None and content.card("nope") is None
    with pytest.raises(InvalidContent):
        parse_content({"cards": [{"id": "x", "kind": "spell"}]})
    with pytest.raises(InvalidContent):
        parse_content({"cards": [{"id": "x", "kind": "action"}, {"id": "x", "kind": "action"}]})
    with pytest.raises(InvalidContent):
        parse_content({"cards": [{"id": "x", "kind": "action", "effects": [{"type": "teleport"}]}]})
    with pytest.raises(InvalidContent):
        parse_content("[1, 2")
    with pytest.raises(InvalidContent):
        parse_content({"ages": [{"id": "a", "beasts": []}]})


def test_a_known_card_is_one_action_and_its_consequences_follow_the_rules() -> None:
    state = explored(bm_actions(content=CONTENT))
    state = place(state, acolytes={"r2c3": {0: 1, 1: 2}}, colossi={1: "r2c3"})
    after, _ = bm.RULES.apply(state, PlayCard(card="stampede"))
    assert after.space("r2c3").acolytes == (0, 0)
    assert after.gold == (2, 0)  # BM-R10: Bob's two Acolytes, not Ann's own
    assert after.pending[0].kind == "displace"
    haste = apply_all(bm.RULES, state, PlayCard(card="haste"))
    assert haste.movements_left == 6 and haste.cards_in_hand[0] == 3
    tithe = apply_all(bm.RULES, state, PlayCard(card="tithe"))
    assert tithe.gold == (1, 1) and {e.source for e in tithe.ledger} == {"gift"}
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, PlayCard(card="unknown"))
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, PlayCard(card="haste", effects=(ExtraMovements(amount=1),)))
    with pytest.raises(RuleViolation):
        bm.RULES.apply(bm_actions(), PlayCard(card="haste"))  # no content file


def test_harvest_uses_a_known_environment_text() -> None:
    opts = ca.RULES.parse_options({"content": CONTENT, "use_traits": False})
    state = ca.RULES.setup(NAMES[:2], opts, 1)
    state = apply_all(ca.RULES, state, cam.RevealAge(beasts=("Wyrm",)))
    state = apply_all(
        ca.RULES,
        state,
        Move(piece="colossus", origin="r3c3", to="r2c3"),
        cam.DrawTile(kind="environment", name="Gold Mine"),
    )
    state = apply_all(ca.RULES, state, cam.EndActionPhase(), cam.AgeScoring(gold=(0, 0)))
    state = apply_all(ca.RULES, state, cam.Harvest(space="r2c3"))
    assert state.gold == (4, 0) and state.ledger[-1].source == "harvest"
    beast = apply_all(
        ca.RULES,
        ca.RULES.setup(NAMES[:2], opts, 1),
        cam.RevealAge(beasts=("Wyrm",)),
        PlayCard(card="rage"),
    )
    assert beast.movements_left == 4 and beast.beasts[0].space == "r2c3"


def test_editors_move_kill_cards_perk_cubes() -> None:
    state = bm_actions()
    state = place(state, acolytes={"r2c3": {1: 2}}, colossi={0: "r1c1"})
    moved = apply_all(
        bm.RULES, state, ApplyEffect(effect=MovePiece(who=1, origin="r2c3", to="r5c5"))
    )
    assert moved.space("r5c5").acolytes[1] == 1
    assert PendingExplore(space="r5c5", player=1) in moved.pending  # exploring applies
    moved_col = apply_all(
        bm.RULES, state, ApplyEffect(effect=MovePiece(piece="colossus", origin="r1c1", to="r1c2"))
    )
    assert moved_col.colossi[0] == "r1c2"
    killed = apply_all(
        bm.RULES, state, ApplyEffect(effect=KillAcolyte(who=1, space="r2c3", count=2))
    )
    assert killed.acolytes_in_hand[1] == 10
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, ApplyEffect(effect=KillAcolyte(who=1, space="r2c3", count=3)))
    cards = apply_all(bm.RULES, state, ApplyEffect(effect=DrawCards(who="others", amount=-3)))
    assert cards.cards_in_hand == (3, 0)
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, ApplyEffect(effect=DrawCards(amount=-4)))
    perk = apply_all(bm.RULES, state, ApplyEffect(effect=SetPerk(name="Eagle")))
    perk = apply_all(bm.RULES, perk, ApplyEffect(effect=SetPerk(name=None)))
    assert perk.perks == (None, None)
    cubes = apply_all(bm.RULES, state, ApplyEffect(effect=PlaceCubes(space="r1c1", amount=3)))
    assert cubes.space("r1c1").cubes == 3
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, ApplyEffect(effect=PlaceCubes(space="r1c1", amount=-1)))
    beast = apply_all(bm.RULES, state, ApplyEffect(effect=MoveBeast(to="r2c3")))
    assert beast.space("r2c3").acolytes == (0, 0) and beast.gold == (0, 0)
    with pytest.raises(RuleViolation):
        bm.RULES.apply(state, ApplyEffect(effect=MoveBeast(beast="Nessie", to="r2c3")))


def test_extra_movements_are_used_this_turn() -> None:
    state = apply_all(bm.RULES, bm_actions(), ApplyEffect(effect=ExtraMovements(amount=2)))
    assert state.movements_left == 6
    state = apply_all(bm.RULES, state, bmm.EndActions())
    if state.phase == "banners":
        state = apply_all(bm.RULES, state, bmm.EndTurn())
    assert state.movements_left == 0


def test_colossi_editors_water_and_gold_floor() -> None:
    opts = ca.RULES.parse_options({"use_traits": False})
    state = apply_all(ca.RULES, ca.RULES.setup(NAMES[:2], opts, 1), cam.RevealAge(beasts=("W",)))
    state = apply_all(ca.RULES, state, ApplyEffect(effect=PlaceWater(space="r1c1")))
    assert state.space("r1c1").water
    state = apply_all(ca.RULES, state, ApplyEffect(effect=PlaceWater(space="r1c1", on=False)))
    assert not state.space("r1c1").water
    state = apply_all(ca.RULES, state, ApplyEffect(effect=GainGold(who="each", amount=-1)))
    assert state.gold == (0, 0) and state.ledger == ()
    with pytest.raises(RuleViolation) as err:
        ca.RULES.apply(state, ApplyEffect(effect=SetPerk(name="x")))
    assert err.value.ruling == "CA-R14"
    with pytest.raises(RuleViolation):
        ca.RULES.apply(state, ApplyEffect(effect=PlaceWater(space="r3c3")))  # a Beast stands there


def test_content_in_options_is_validated() -> None:
    with pytest.raises(InvalidOptions):
        bm.RULES.parse_options({"content": {"cards": [{"id": "x", "kind": "nope"}]}})


def _ask(referee: Referee, **request: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(referee.handle(json.dumps(request)))
    return reply


def test_both_games_through_the_referee_protocol() -> None:
    board = grid_board(3, 3).model_dump(mode="json")
    referee = Referee(None, lambda: 4)
    reply = _ask(
        referee, cmd="new", game="beast_master", players=["Ann", "Bob"], options={"board": board}
    )
    assert reply["status"].startswith("Turn 1/30")
    reply = _ask(referee, cmd="act", action={"type": "take_actions"})
    reply = _ask(
        referee,
        cmd="act",
        action={"type": "move", "piece": "colossus", "origin": "g11", "to": "g01"},
    )
    assert reply["dice"]["purpose"] == "explore"
    reply = _ask(referee, cmd="act", action={"type": "roll", "values": [6], "source": "manual"})
    marks = _ask(referee, cmd="highlights", focus="g01")["highlights"]
    assert {m["role"] for m in marks} >= {"selected", "reachable"}
    legal = _ask(referee, cmd="legal", limit=500)["actions"]
    assert {"type": "end_actions"} in legal
    bad = _ask(referee, cmd="act", action={"type": "place_banner", "space": "g01"})
    assert bad["error"]["code"] == "illegal_action"

    referee = Referee(None, lambda: 4)
    reply = _ask(
        referee, cmd="new", game="colossi", players=["Ann", "Bob"], options={"use_traits": False}
    )
    reply = _ask(
        referee, cmd="act", action={"type": "reveal_age", "name": "Dawn", "beasts": ["Wyrm"]}
    )
    assert "Age I" in reply["status"]
    reply = _ask(referee, cmd="act", action={"type": "spawn", "to": "r2c3"})
    reply = _ask(referee, cmd="act", action={"type": "draw_tile", "kind": "grass", "loot": "gold"})
    dump = _ask(referee, cmd="dump")
    assert ca.RULES.load_position(dump["position"]).space("r2c3").acolytes == (1, 0)


def test_table_changes_tell_players_what_the_referee_decided() -> None:
    state = explored(bm_actions())
    state = place(state, acolytes={"r2c3": {1: 2}})
    _, events = bm.RULES.apply(
        state, PlayCard(kind="beast_master", effects=(MoveBeast(to="r2c3"),))
    )
    changes = [e for e in events if isinstance(e, TableChanges)]
    assert len(changes) == 1 and changes[0].changes[0].cell == "r2c3"
    assert "Bob" in changes[0].changes[0].instruction
    opts = ca.RULES.parse_options({"use_traits": False})
    colossi = apply_all(ca.RULES, ca.RULES.setup(NAMES[:2], opts, 1), cam.RevealAge(beasts=("W",)))
    colossi = apply_all(ca.RULES, colossi, Move(piece="colossus", origin="r3c3", to="r2c3"))
    _, events = ca.RULES.apply(colossi, cam.DrawTile())
    assert any(isinstance(e, TableChanges) and e.changes[0].cell == "r2c3" for e in events)
    _, events = ca.RULES.apply(colossi, cam.DrawTile(kind="environment"))
    assert not any(isinstance(e, TableChanges) for e in events)  # the players drew it
