"""Beast Master and Colossi in the players' words (the words contract of companion.rules).

Every legal action of many random positions is described with a verb and its objects:
spaces by the labels the board draws (``C3``), never their IDs (``r3c3``); counts spelled
by companion.words.count; no snake_case word, payload key, hedged "(s)" or cut "…".
The log's texts follow the same rules. Each family reads its title from its action
model, each form field its title, coded values (pieces, seats, spaces) their words.
A Road chain back to its start (BM-R17) is named by the space it passes through.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from companion.dice import Roll
from companion.games.island import beast_master as bm
from companion.games.island import colossi as ca
from companion.games.island.beast_master import model as bmm
from companion.games.island.colossi import model as cam
from companion.games.island.content import parse_content
from companion.games.island.model import (
    OFF_BOARD,
    ApplyEffect,
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    DrawCards,
    ExtraMovements,
    GainGold,
    KillAcolyte,
    Move,
    MoveBeast,
    MovePiece,
    PendingDiscard,
    PendingDisplace,
    PendingExplore,
    PendingLair,
    PendingLoot,
    PendingRollOff,
    PlaceCubes,
    PlaceWater,
    PlayCard,
    SetPerk,
    Spawn,
    Tile,
)
from companion.games.island.referee import IslandRules
from tests.faults.scale import scaled
from tests.games.random_play import GameRules, random_game
from tests.helpers.player_words import text_problems

from .helpers import explored, place

NAMES = ["Ann", "Bob", "Cleo"]

# --- the lint every text of the island games passes (tests/helpers/player_words.py) ----------


def test_the_lint_finds_each_fault_of_the_old_labels() -> None:
    """The labels the kiosk built from payloads before the island games had words."""
    move = {"type": "move", "piece": "colossus", "origin": "r3c3", "to": "r2c3"}
    assert text_problems("Move: piece colossus, origin r3c3, to r2c3", move)
    assert text_problems("Explore r2c4")
    assert text_problems("4 Movement(s) left")
    assert text_problems("1 cards") and text_problems("2 card") and text_problems("3 more Action")
    assert text_problems(
        "Reveal age: name Age I, beasts Beast I+Beast I b, rounds 3", {"rounds": 3}
    )
    assert text_problems("Discard to limit: discard_to_limit") and text_problems("Show …")
    assert not text_problems("Move the Colossus from C3 to B3", move)
    assert not text_problems("Ann draws 1 card; 2 more Movements this turn; 0 Gold cubes")


# --- random positions of both games -----------------------------------------------------------


def games() -> Iterator[tuple[GameRules, Any]]:
    """Starts of both games on the placeholder island (labels differ from IDs), with
    the options that bring out their rarer actions."""
    yield bm.RULES, bm.RULES.setup(NAMES, bm.BeastMasterOptions(), 1)
    options = bm.BeastMasterOptions(
        colossus_start="player_choice", tie_policy="manual", turns_per_player=2
    )
    yield bm.RULES, bm.RULES.setup(NAMES[:2], options, 2)
    yield ca.RULES, ca.RULES.setup(NAMES, ca.ColossiOptions(rounds_per_age=1), 3)
    yield ca.RULES, ca.RULES.setup(NAMES[:2], ca.ColossiOptions(rounds_per_age=1), 4)


def played() -> Iterator[tuple[GameRules, int, Any, Any]]:
    """Each state of the random games (its number in its game) and the events that led
    to it (none for the start)."""
    for k, (rules, start) in enumerate(games()):
        game = random_game(rules, start, bot_seed=k, limit=scaled(120, 2000))
        pairs = zip(game.states, [(), *game.events], strict=True)
        for n, (state, events) in enumerate(pairs):
            yield rules, n, state, events


def test_every_legal_action_and_log_line_is_said_in_players_words() -> None:
    """In many random positions of both games: every legal action's describe (and the
    log of every action played, the status line, the facts panel and the dice prompt)
    passes the lint, and names by its label every space
    the action starts from, ends on or touches."""
    faults: dict[str, str] = {}
    families: set[str] = set()
    for rules, n, state, events in played():
        for event in events:
            steps = [c.instruction for c in getattr(event, "changes", ())]
            for text in (event.text, *steps):
                for fault in text_problems(text):
                    faults.setdefault(f"{event.type}: {fault}", text)
        panel, dice = rules.panel(state), rules.dice_request(state)
        screen = [rules.status(state), *panel.facts, *(v for r in panel.rows for v in r.values)]
        for text in [*screen, *([dice.label] if dice else [])]:
            for fault in text_problems(text):
                faults.setdefault(f"screen: {fault}", text)
        if n % 3:
            continue
        corrections = rules.corrections(state) if n % 12 == 0 else ()
        for action in [*rules.legal_actions(state), *corrections]:
            families.add(action.type)
            text = rules.describe(state, action)
            payload = rules.dump_action(action)
            for fault in text_problems(text, payload):
                faults.setdefault(f"{action.type}: {fault}", text)
            for field, value in payload.items():
                if field == "type":
                    continue
                said = rules.value_words(state, action.type, field, value)
                for fault in text_problems(said):
                    faults.setdefault(f"{action.type}.{field} = {value!r}: {fault}", said)
            cells = rules.action_cells(state, action)
            named = {cells.origin, cells.target, *cells.touched} - {None}
            for space in named:
                label = state.board.label(space)
                if not re.search(rf"(?<!\w){re.escape(label)}(?!\w)", text):
                    faults.setdefault(f"{action.type}: {space} not named {label}", text)
    assert faults == {}
    # the random games reach the families this test is about
    assert {"move", "spawn", "roll", "play_card", "draw_tile", "harvest"} <= families
    assert {"correct_space", "correct_player", "place_colossus", "reveal_age"} <= families


# --- verbatim examples, family by family --------------------------------------------------


def bm_actions(**update: Any) -> bm.BeastMasterState:
    """Beast Master on the placeholder island, Ann's Actions turn, everything explored."""
    state = bm.RULES.setup(NAMES[:2], bm.BeastMasterOptions(), 1)
    return explored(state).model_copy(update={"phase": "actions", "movements_left": 4, **update})


def ca_state(**update: Any) -> ca.ColossiState:
    state = ca.RULES.setup(NAMES[:2], ca.ColossiOptions(rounds_per_age=3), 1)
    return explored(state).model_copy(update=update)


ROAD = {"r2c3": {0: 1}}  # Ann's Acolyte on B3, next to her Colossus on C3


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Move(piece="colossus", origin="r3c3", to="r2c3"), "Move the Colossus from C3 to B3"),
        (
            Move(piece="acolyte", origin="r2c3", to="r1c4", path=("r2c4", "r1c4")),
            "Move an Acolyte from B3 to A4 via B4",
        ),
        (
            Move(piece="colossus", origin="r3c3", to="r3c3", path=("r2c3", "r3c3")),
            "Move the Colossus from C3 to B3 and back",
        ),
        (
            Move(piece="colossus", origin="r3c3", to="r3c3", path=("r2c3", "r2c4", "r3c3")),
            "Move the Colossus from C3 via B3 and B4 back to C3",
        ),
        (Spawn(), "Spawn an Acolyte on C3"),
        (Spawn(to="r2c3"), "Spawn an Acolyte on C3 and move it to B3"),
        (
            Spawn(to="r1c3", path=("r2c3", "r1c3")),
            "Spawn an Acolyte on C3 and move it to A3 via B3",
        ),
        (PlayCard(kind="action"), "Play an Action card"),
        (PlayCard(kind="perk", name="Perk"), "Play a Perk card"),
        (PlayCard(kind="perk", name="Eagle Eye"), "Play the Perk card Eagle Eye"),
        (
            PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=1),)),
            "Play a Divine Gift card: each player gains 1 Gold",
        ),
        (
            PlayCard(kind="beast_master", effects=(MoveBeast(to="r2c4"),)),
            "Play a Beast Master card: move the Beast from C3 to B4",
        ),
        (
            ApplyEffect(effect=MovePiece(who=1, piece="acolyte", origin="r1c1", to=OFF_BOARD)),
            "Push Bob's Acolyte from A1 off the island",
        ),
        (
            ApplyEffect(effect=KillAcolyte(who=1, space="r1c1", count=2)),
            "Kill 2 Acolytes of Bob on A1",
        ),
        (ApplyEffect(effect=GainGold(amount=-2)), "Ann loses 2 Gold"),
        (ApplyEffect(effect=DrawCards(who="others", amount=1)), "Each other player draws 1 card"),
        (ApplyEffect(effect=ExtraMovements(amount=2)), "2 more Movements this turn"),
        (ApplyEffect(effect=ExtraMovements(amount=-1)), "1 fewer Movement this turn"),
        (ApplyEffect(effect=SetPerk(name=None)), "Remove Ann's Perk"),
        (ApplyEffect(effect=PlaceWater(space="r1c2")), "Put Water on A2"),
        (ApplyEffect(effect=PlaceCubes(space="r1c2", amount=1)), "Put 1 Gold cube on A2"),
        (
            ApplyEffect(effect=MoveBeast(to="r2c3"), card_kind="beast_master"),
            "Move the Beast from C3 to B3 (part of a Beast Master card)",
        ),
        (bmm.EndActions(), "End the Actions"),
        (bmm.PlaceBanner(space="r2c3"), "Raise a Banner on B3"),
        (bmm.EndTurn(), "End the turn"),
        (bmm.NameTile(space="r2c3", name="Sunken Temple"), "Name the tile on B3 “Sunken Temple”"),
        (CorrectPlayer(player=1, gold=3, cards=1), "Correct Bob: 3 Gold, 1 card in hand"),
        (
            CorrectSpace(space="r3c3", acolytes=(2, 0), colossi=(1, 1)),
            "Correct C3: Ann's Colossus and 2 Acolytes, Bob's Colossus",
        ),
        (
            CorrectSpace(space="r1c1", acolytes=(0, 0), colossi=(0, 0)),
            "Correct A1: nobody and nothing",
        ),
        (CorrectMovements(movements=1), "Correct: 1 Movement left this turn"),
    ],
)
def test_beast_master_actions_in_words(action: Any, text: str) -> None:
    state = place(bm_actions(), acolytes=ROAD)
    assert bm.RULES.describe(state, action) == text
    assert not text_problems(text, bm.RULES.dump_action(action))


def test_beast_master_choices_and_answers_in_words() -> None:
    """Beast Master's turn choice, Rest, the explore roll, the Loot, displacement,
    discard, Colossus placement and the table's pick on a tie."""
    rules, start = bm.RULES, bm_actions(phase="choose")
    assert rules.describe(start, bmm.TakeActions()) == (
        "Take Actions: draw 1 card, then up to 4 Movements"
    )
    assert rules.describe(start, bmm.Rest()) == "Rest (no Banner to collect)"
    two_out = start.model_copy(update={"banners_in_hand": (3, 5)})
    assert rules.describe(two_out, bmm.Rest()) == "Rest and collect 2 Banners"
    exploring = start.model_copy(update={"pending": (PendingExplore(space="r2c4", player=0),)})
    assert rules.describe(exploring, Roll()) == "Roll the d6 to explore B4"
    assert rules.describe(exploring, Roll(values=(5,))) == "Rolled 5 to explore B4"
    assert rules.dice_request(exploring) is not None
    assert rules.dice_request(exploring).label == "Explore B4: 1–4 Loot, 5–6 Environment"  # type: ignore[union-attr]
    loot = start.model_copy(update={"pending": (PendingLoot(space="r2c4", player=0),)})
    assert rules.describe(loot, bmm.EnterLoot(gold=2, cards=1)) == (
        "The Loot on B4 gives 2 Gold and 1 card"
    )
    assert rules.describe(loot, bmm.EnterLoot()) == "The Loot on B4 gives nothing"
    away = PendingDisplace(space="r3c3", player=1, reason="the Beast arrived")
    displacing = start.model_copy(update={"pending": (away,)})
    assert rules.describe(displacing, DisplaceColossus(to="r3c4")) == (
        "Move Bob's Colossus from C3 to C4"
    )
    full = start.model_copy(
        update={"pending": (PendingDiscard(player=0),), "cards_in_hand": (8, 3)}
    )
    assert rules.describe(full, DiscardToLimit()) == "Discard 2 cards down to 6"
    assert rules.describe(start, bmm.PlaceColossus(space="r1c1")) == "Place the Colossus on A1"
    assert rules.describe(start, bmm.PickWinners(seats=(0, 1))) == "Ann and Bob share the win"
    assert rules.describe(start, bmm.PickWinners(seats=(1,))) == "Bob wins"
    loot_tile = Tile(kind="loot", gold=2, cards=1)
    resting = place(start, tiles={"r1c1": loot_tile}).model_copy(
        update={"phase": "resting", "rest_left": ("r1c1",)}
    )
    assert rules.describe(resting, bmm.CollectReward(space="r1c1")) == (
        "Collect the Banner on A1: 2 Gold and 1 card"
    )
    assert rules.describe(resting, bmm.CollectReward(space="r1c1", gold=0, cards=0)) == (
        "Collect the Banner on A1: nothing"
    )


def test_colossi_actions_in_words() -> None:
    """Colossi's Age card (the issue's "Reveal age: name Age I, beasts Beast I+Beast I
    b, rounds 3, water none"), tiles, Lairs, Traits, roll-offs, turns and Harvests."""
    rules, start = ca.RULES, ca_state()
    assert rules.describe(
        start, cam.RevealAge(name="Age I", beasts=("Beast I", "Beast I b"), rounds=3)
    ) == ("Reveal Age I: Beast I and Beast I b, 3 rounds, the Lair of Beast I on C3")
    age2 = start.model_copy(update={"age": 2})
    assert rules.describe(
        age2, cam.RevealAge(name="Flood", beasts=("Beast II",), water=("r1c1", "r1c2"))
    ) == ("Reveal Age II (Flood): Beast II, 3 rounds, Water on A1 and A2")
    drawing = start.model_copy(update={"pending": (PendingExplore(space="r2c4", player=0),)})
    assert rules.describe(drawing, cam.DrawTile()) == "Draw a tile for B4"
    assert rules.describe(drawing, cam.DrawTile(loot="cards")) == (
        "Draw a tile for B4 (Grass gives a card)"
    )
    assert rules.describe(drawing, cam.DrawTile(kind="grass", loot="gold")) == (
        "Drew Grass with Gold for B4"
    )
    assert rules.describe(drawing, cam.DrawTile(kind="bare")) == "Drew nothing for B4"
    lair = start.model_copy(update={"pending": (PendingLair(player=1, beast="Beast II"),)})
    assert rules.describe(lair, cam.PlaceLair(space="r1c5")) == ("Place the Lair of Beast II on A5")
    rolling = start.model_copy(
        update={"pending": (PendingRollOff(purpose="mantle", contenders=(0, 1)),)}
    )
    assert rules.describe(rolling, Roll()) == "Roll off for the Mantle"
    assert rules.describe(rolling, Roll(values=(3, 5))) == "Roll-off for the Mantle: Ann 3, Bob 5"
    traits = start.model_copy(update={"trait_row": ("Trait 1", "Swift", "Trait 3")})
    assert (
        rules.describe(traits, cam.TakeTrait(row=1)) == "Take the Trait Swift from the face-up row"
    )
    assert rules.describe(traits, cam.TakeTrait()) == "Take the top Trait of the deck"
    assert rules.describe(traits, cam.DiscardTrait(name="Trait 4")) == "Discard Trait 4"
    assert rules.describe(start, cam.EndTurn()) == "End the turn and draw 1 card"
    assert rules.describe(start, cam.EndActionPhase()) == "End the Action Phase now"
    assert rules.describe(start, cam.AgeScoring(gold=(2, -1))) == (
        "Age I scoring: Ann gains 2 Gold and Bob loses 1 Gold"
    )
    assert rules.describe(start, cam.AgeScoring(gold=(0, 0))) == "Age I scoring: nobody scores"
    assert rules.describe(start, cam.Harvest(space="r3c3")) == "Harvest C3"
    flood = cam.Harvest(space="r3c3", effects=(PlaceWater(space="r1c1"), GainGold(amount=1)))
    assert rules.describe(start, flood) == "Harvest C3: put Water on A1; Ann gains 1 Gold"
    assert rules.describe(start, cam.PassHarvest()) == "Pass: no more harvesting this Age"
    assert rules.describe(start, cam.PickWinners(seats=(0,))) == "Ann wins"
    assert rules.describe(start, ApplyEffect(effect=ExtraMovements(amount=1))) == (
        "1 more Action this turn"
    )
    assert rules.describe(start, CorrectMovements(movements=0)) == (
        "Correct: 0 Actions left this turn"
    )


def test_bm_r17_a_chain_back_is_named_by_the_space_it_passes_through() -> None:
    """BM-R17: the legal list's chains back read "from C3 to B3 and back" (the Acolyte
    on B3 leads back), never a 0-square move or the start space twice; not a stay."""
    positions: list[tuple[GameRules, Any]] = [
        (bm.RULES, place(bm_actions(), acolytes=ROAD, beasts=[])),
        (ca.RULES, place(ca_state(phase="actions", movements_left=4), acolytes=ROAD)),
    ]
    for rules, state in positions:
        backs = [a for a in rules.legal_actions(state) if isinstance(a, Move) and a.to == a.origin]
        texts = {rules.describe(state, a) for a in backs}
        assert "Move the Colossus from C3 to B3 and back" in texts
        assert "Move an Acolyte from B3 to C3 and back" in texts
        assert not any(rules.stays(state, a) for a in backs)


# --- titles and values ------------------------------------------------------------------------


def models(rules: IslandRules[Any, Any, Any]) -> Iterator[tuple[str, type[BaseModel]]]:
    """Every action model of the game and every effect model its forms nest."""
    from companion.games.island.phrases import EFFECT_TYPES

    yield from rules.action_models().items()
    for effect in EFFECT_TYPES:
        yield str(effect.model_fields["type"].default), effect


@pytest.mark.parametrize("rules", [bm.RULES, ca.RULES], ids=lambda r: r.name)
def test_every_family_and_form_field_has_its_title(rules: IslandRules[Any, Any, Any]) -> None:
    """Each island action model (and effect) declares the family's title and every
    field's (the dice's Roll is every game's own)."""
    missing = []
    for tag, model in models(rules):
        if tag == "roll":
            continue
        if not model.model_config.get("title"):
            missing.append(tag)
        missing += [
            f"{tag}.{name}"
            for name, info in model.model_fields.items()
            if name != "type" and not info.title
        ]
    assert missing == []
    assert rules.family_title("move") == "Move"
    assert rules.field_words("move", "origin") == "From"


def test_families_are_called_as_each_game_calls_a_paid_move() -> None:
    assert bm.RULES.family_title("correct_movements") == "Correct the Movements left"
    assert ca.RULES.family_title("correct_movements") == "Correct the Actions left"
    assert bm.RULES.family_title("take_actions") == "Take Actions"
    assert ca.RULES.family_title("reveal_age") == "Reveal the Age card"


def test_coded_values_in_words() -> None:
    """Pieces, seats, spaces (never their IDs), card kinds, a per-seat list, effects."""
    state = bm_actions()
    say = bm.RULES.value_words
    assert say(state, "move", "piece", "colossus") == "Colossus"
    assert say(state, "move", "origin", "r3c3") == "C3"
    assert say(state, "move", "path", ("r2c3", "r1c3")) == "B3 and A3"
    assert say(state, "correct_player", "player", 1) == "Bob"
    assert say(state, "pick_winners", "seats", (0, 1)) == "Ann and Bob"
    assert say(state, "correct_space", "acolytes", (2, 0)) == "Ann 2, Bob 0"
    assert say(state, "play_card", "kind", "divine_gift") == "Divine Gift"
    assert say(state, "effect", "effect", MoveBeast(to="r2c3")) == "Move the Beast from C3 to B3"
    assert say(state, "move_piece", "to", OFF_BOARD) == "off the island"
    assert say(state, "end_turn", "x", True) == "yes"
    assert bm.RULES.cell_words(state, "r3c3") == "C3"
    # a field left out, and an effect as a form's payload holds it
    assert say(state, "spawn", "to", None) == "C3"
    assert say(state, "move", "path", None) == "the safest way"
    gift = {"type": "gold", "who": "each", "amount": 1}
    assert say(state, "effect", "effect", gift) == "Each player gains 1 Gold"
    assert say(state, "play_card", "effects", [gift]) == "Each player gains 1 Gold"
    assert say(state, "enter_loot", "name", "") == "none"
    # a player's name stays as written, even at the start of a sentence
    lower = state.model_copy(update={"players": ("ann", "Bob")})
    assert bm.RULES.describe(lower, ApplyEffect(effect=GainGold(amount=1))) == "ann gains 1 Gold"
    colossi = ca_state(trait_row=("Trait 1", "Swift"))
    assert ca.RULES.value_words(colossi, "draw_tile", "kind", "grass") == "Grass"
    assert ca.RULES.value_words(colossi, "draw_tile", "loot", "cards") == "a card"
    assert ca.RULES.value_words(colossi, "take_trait", "row", 1) == "Swift"


# --- the log and the refusals -----------------------------------------------------------------


def test_the_log_and_refusals_name_spaces_by_their_labels() -> None:
    state = place(bm_actions(), acolytes=ROAD, beasts=[])
    after, events = bm.RULES.apply(
        state, Move(piece="colossus", origin="r3c3", to="r3c3", path=("r2c3", "r3c3"))
    )
    assert [e.text for e in events] == ["Ann moves the Colossus from C3 to B3 and back."]
    _, spawned = bm.RULES.apply(state, Spawn(to="r1c3", path=("r2c3", "r1c3")))
    assert spawned[0].text == "Ann spawns an Acolyte on C3 and moves it to A3 via B3."
    with pytest.raises(Exception, match="A1 cannot be reached from C3 with one Movement"):
        bm.RULES.apply(state, Move(piece="colossus", origin="r3c3", to="r1c1"))
    colossi = place(ca_state(phase="actions", movements_left=4), acolytes=ROAD)
    with pytest.raises(Exception, match="A1 cannot be reached from C3 with one Action"):
        ca.RULES.apply(colossi, Move(piece="colossus", origin="r3c3", to="r1c1"))
    _, more = bm.RULES.apply(after, ApplyEffect(effect=ExtraMovements(amount=2)))
    assert more[0].text == "2 more Movements this turn."
    _, gift = bm.RULES.apply(
        after, PlayCard(kind="divine_gift", effects=(GainGold(who="each", amount=1),))
    )
    assert [e.text for e in gift][:2] == [
        "Ann plays a Divine Gift card.",
        "Ann +1 Gold (Divine Gift).",
    ]


def test_cards_and_age_cards_of_a_content_file_by_their_names() -> None:
    content = parse_content(
        {
            "cards": [
                {
                    "id": "haste",
                    "name": "Haste",
                    "kind": "action",
                    "effects": [{"type": "extra_movements", "amount": 2}],
                }
            ],
            "ages": [{"id": "dawn", "name": "Dawn", "beasts": ["Wyrm"]}],
        }
    )
    colossi = ca.RULES.setup(NAMES[:2], ca.ColossiOptions(content=content), 1)
    assert ca.RULES.describe(colossi, cam.RevealAge(card="dawn")) == "Reveal the Age card Dawn"
    assert ca.RULES.describe(colossi, cam.RevealAge()) == "Draw the Age card of Age I"
    assert ca.RULES.describe(colossi, PlayCard(card="haste")) == (
        "Play the Action card Haste: 2 more Actions this turn"
    )
    beast_master = bm.RULES.setup(NAMES[:2], bm.BeastMasterOptions(content=content), 1)
    assert bm.RULES.describe(beast_master, PlayCard(card="haste")) == (
        "Play the Action card Haste: 2 more Movements this turn"
    )
