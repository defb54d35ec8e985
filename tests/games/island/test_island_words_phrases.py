"""The island phrasebook word for word: each helper of companion/games/island/phrases.py
on a small Beast Master position of the placeholder island (labels differ from IDs:
``r3c3`` is drawn ``C3``). Every string here is what a player reads, so each test
asserts the exact text, including the branch a neighbouring count or seat takes."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.island import beast_master as bm
from companion.games.island import phrases as ph
from companion.games.island.content import parse_content
from companion.games.island.model import (
    OFF_BOARD,
    ApplyEffect,
    BeastPos,
    CorrectMovements,
    CorrectPlayer,
    CorrectSpace,
    DiscardToLimit,
    DisplaceColossus,
    DrawCards,
    ExtraMovements,
    GainGold,
    IslandState,
    KillAcolyte,
    Move,
    MoveBeast,
    MovePiece,
    PendingDiscard,
    PendingDisplace,
    PendingExplore,
    PlaceCubes,
    PlaceWater,
    PlayCard,
    SetPerk,
    Spawn,
)

START = bm.RULES.setup(["Ann", "Bob"], bm.BeastMasterOptions(), 1)
THREE = bm.RULES.setup(["Ann", "Bob", "Cleo"], bm.BeastMasterOptions(), 1)
BOARD = START.board


def state(**update: Any) -> bm.BeastMasterState:
    return START.model_copy(update=update)


# --- small words ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loot", "text"),
    [
        (None, "Grass"),
        ("none", "Grass"),
        ("gold", "Grass with Gold"),
        ("cards", "Grass with a card"),
        ("trait", "Grass with a Trait"),
    ],
)
def test_ca_r13_grass_tiles_by_their_loot(loot: Any, text: str) -> None:
    """CA-R13: a Grass tile is named by what it gives; one without Loot is plain Grass."""
    assert ph.grass_words(loot) == text


def test_capital_and_sentence_keep_players_names_as_written() -> None:
    assert ph.capital("move it") == "Move it"
    assert ph.capital("") == ""
    lower = state(players=("ann", "bob"))
    assert ph.sentence(lower, "ann gains 1 Gold") == "ann gains 1 Gold"
    assert ph.sentence(lower, "bob draws") == "bob draws"
    assert ph.sentence(lower, "each player gains") == "Each player gains"


def test_bm_r01_spaces_by_their_board_labels() -> None:
    """BM-R01: a space is read by the label its board file draws, the edge as off the island."""
    assert ph.space_name(BOARD, "r3c3") == "C3"
    assert ph.space_name(BOARD, OFF_BOARD) == "off the island"
    assert ph.spaces_words(BOARD, ["r1c1", "r1c2", "r3c3"]) == "A1, A2 and C3"
    assert ph.spaces_words(BOARD, ["r2c3"]) == "B3"
    assert ph.spaces_words(BOARD, []) == ""


@pytest.mark.parametrize(
    ("origin", "to", "path", "text"),
    [
        ("r3c3", "r2c3", None, "from C3 to B3"),
        ("r3c3", "r2c3", ("r2c3",), "from C3 to B3"),
        ("r3c3", "r2c4", ("r2c3", "r2c4"), "from C3 to B4 via B3"),
        ("r3c3", "r1c4", ("r2c3", "r2c4", "r1c4"), "from C3 to A4 via B3 and B4"),
        ("r3c3", "r3c3", None, "from C3 and back"),
        ("r3c3", "r3c3", (), "from C3 and back"),
        ("r3c3", "r3c3", ("r2c3", "r3c3"), "from C3 to B3 and back"),
        ("r3c3", "r3c3", ("r2c3", "r2c4", "r3c3"), "from C3 via B3 and B4 back to C3"),
    ],
)
def test_bm_r17_way_words(origin: str, to: str, path: Any, text: str) -> None:
    """BM-R17: a chain back is named by the space(s) it passes through."""
    assert ph.way_words(BOARD, origin, to, path) == text


def test_onward_words_of_a_spawned_acolyte() -> None:
    assert ph.onward_words(BOARD, ["r3c4"]) == "to C4"
    assert ph.onward_words(BOARD, ["r3c4", "r2c4"]) == "to B4 via C4"
    assert ph.onward_words(BOARD, ["r3c4", "r2c4", "r1c4"]) == "to A4 via C4 and B4"


@pytest.mark.parametrize(
    ("kind", "name", "text"),
    [
        (None, None, "a card"),
        (None, "", "a card"),
        (None, "Haste", "the card Haste"),
        ("action", None, "an Action card"),
        ("perk", None, "a Perk card"),
        ("perk", "Perk", "a Perk card"),
        ("perk", "Eagle Eye", "the Perk card Eagle Eye"),
        ("divine_gift", None, "a Divine Gift card"),
        ("beast_master", None, "a Beast Master card"),
        ("beast", None, "a Beast card"),
        ("other", "Omen", "the other card Omen"),
        ("other", None, "another card"),
    ],
)
def test_ca_r14_cards_by_their_printed_kind(kind: Any, name: Any, text: str) -> None:
    """CA-R14: card types are data; each is said as printed, with "an" before a vowel."""
    assert ph.card_words(kind, name) == text


@pytest.mark.parametrize(
    ("gold", "cards", "text"),
    [
        (2, 1, "2 Gold and 1 card"),
        (0, 1, "1 card"),
        (0, 2, "2 cards"),
        (3, 0, "3 Gold"),
        (0, 0, "nothing"),
    ],
)
def test_bm_r15_rewards(gold: int, cards: int, text: str) -> None:
    """BM-R15: a Loot's printed reward as entered."""
    assert ph.reward_words(gold, cards) == text


def test_seats_and_players_by_name() -> None:
    assert ph.player_name(START, 0) == "Ann"
    assert ph.player_name(START, 1) == "Bob"
    assert ph.player_name(START, 2) == "player 3"
    assert ph.player_name(START, -1) == "player 0"
    assert ph.seat_words(START, "self", 1) == "Bob"
    assert ph.seat_words(START, "self", 0) == "Ann"
    assert ph.seat_words(START, 1, 0) == "Bob"
    assert ph.seat_words(START, 0, 1) == "Ann"
    assert ph.seat_words(START, "each", 0) == "each player"
    assert ph.seat_words(START, "others", 0) == "each other player"


def test_winners_words_bm_r12() -> None:
    """BM-R12: a tie is a shared victory."""
    assert ph.winners_words(THREE, [2]) == "Cleo wins"
    assert ph.winners_words(THREE, [0, 2]) == "Ann and Cleo share the win"
    assert ph.winners_words(THREE, [0, 1, 2]) == "Ann, Bob and Cleo share the win"


def test_beast_name() -> None:
    assert ph.beast_name(START, "Sand Wyrm") == "Sand Wyrm"
    assert ph.beast_name(START, None) == "the Beast"
    two = state(beasts=(BeastPos(name="Wyrm", space="r1c1"), BeastPos(name="Roc", space="r1c2")))
    assert ph.beast_name(two, None) == "Wyrm"
    assert ph.beast_name(state(beasts=()), None) == "the Beast"


# --- effects ----------------------------------------------------------------------------------

BEASTS = state(beasts=(BeastPos(name="Wyrm", space="r1c1"), BeastPos(name="Roc", space="r1c2")))


@pytest.mark.parametrize(
    ("effect", "text"),
    [
        (
            MovePiece(who=1, piece="acolyte", origin="r1c1", to=OFF_BOARD),
            "push Bob's Acolyte from A1 off the island",
        ),
        (
            MovePiece(piece="colossus", origin="r3c3", to="r2c3", push=False),
            "move Ann's Colossus from C3 to B3",
        ),
        (
            MovePiece(who="each", origin="r3c3", to="r2c3"),
            "push each player's Acolyte from C3 to B3",
        ),
        (
            MovePiece(who="self", origin="r3c3", to=OFF_BOARD, push=False),
            "move Ann's Acolyte from C3 off the island",
        ),
        (MoveBeast(to="r2c4"), "move the Beast from C3 to B4"),
        (MoveBeast(beast="Ghost", to="r2c4"), "move Ghost to B4"),
        (KillAcolyte(who=1, space="r1c1"), "kill 1 Acolyte of Bob on A1"),
        (KillAcolyte(who="self", space="r1c1"), "kill 1 Acolyte of Ann on A1"),
        (
            KillAcolyte(who="others", space="r1c1", count=3),
            "kill 3 Acolytes of each other player on A1",
        ),
        (GainGold(amount=2), "Ann gains 2 Gold"),
        (GainGold(amount=0), "Ann gains 0 Gold"),
        (GainGold(who=1, amount=-3), "Bob loses 3 Gold"),
        (DrawCards(amount=1), "Ann draws 1 card"),
        (DrawCards(amount=0), "Ann draws 0 cards"),
        (DrawCards(who="each", amount=-2), "each player discards 2 cards"),
        (ExtraMovements(amount=1), "1 more Movement this turn"),
        (ExtraMovements(amount=0), "0 more Movements this turn"),
        (ExtraMovements(amount=-2), "2 fewer Movements this turn"),
        (SetPerk(name=None), "remove Ann's Perk"),
        (SetPerk(who=1, name="Eagle Eye"), "Bob's Perk becomes Eagle Eye"),
        (PlaceWater(space="r1c2"), "put Water on A2"),
        (PlaceWater(space="r1c2", on=False), "take the Water off A2"),
        (PlaceCubes(space="r1c2", amount=2), "put 2 Gold cubes on A2"),
        (PlaceCubes(space="r1c2", amount=0), "put 0 Gold cubes on A2"),
        (PlaceCubes(space="r1c2", amount=-1), "take 1 Gold cube off A2"),
    ],
)
def test_bm_r10_each_effect_editor_in_words(effect: Any, text: str) -> None:
    """BM-R10 / 0.2.2: every generic effect editor as one clause, "self" being the actor."""
    assert ph.effect_words(START, effect, 0, "Movement") == text


def test_a_named_beast_moves_from_its_own_space() -> None:
    assert ph.effect_words(BEASTS, MoveBeast(beast="Roc", to="r2c4"), 0, "x") == (
        "move Roc from A2 to B4"
    )
    assert ph.effect_words(BEASTS, MoveBeast(to="r2c4"), 0, "x") == "move Wyrm from A1 to B4"
    assert ph.effect_words(state(beasts=()), MoveBeast(to="r2c4"), 0, "x") == (
        "move the Beast to B4"
    )


def test_ca_r04_a_paid_move_is_called_by_the_game_unit_and_self_is_the_actor() -> None:
    """Colossi calls a paid move an Action; "self" is whoever acts."""
    assert ph.effect_words(START, ExtraMovements(amount=2), 1, "Action") == (
        "2 more Actions this turn"
    )
    assert ph.effect_words(START, GainGold(amount=1), 1, "Action") == "Bob gains 1 Gold"
    both = (GainGold(who="each", amount=1), MoveBeast(to="r2c4"))
    assert ph.effects_words(START, both, 0, "Movement") == (
        "each player gains 1 Gold; move the Beast from C3 to B4"
    )
    assert ph.effects_words(START, (), 0, "Movement") == ""


# --- cards ------------------------------------------------------------------------------------

CONTENT = parse_content(
    {
        "cards": [
            {
                "id": "haste",
                "name": "Haste",
                "kind": "action",
                "effects": [{"type": "extra_movements", "amount": 2}],
            },
            {"id": "omen", "kind": "perk"},
        ]
    }
)
WITH_CONTENT = bm.RULES.setup(["Ann", "Bob"], bm.BeastMasterOptions(content=CONTENT), 1)


def test_ca_r14_a_known_card_is_read_from_the_content_file() -> None:
    """CA-R14: a content file's card brings its kind, name (else its ID) and effects."""
    words = ph.play_card_words
    assert words(WITH_CONTENT, PlayCard(card="haste"), 0, "Movement") == (
        "Play the Action card Haste: 2 more Movements this turn"
    )
    assert words(WITH_CONTENT, PlayCard(card="omen"), 0, "Movement") == "Play the Perk card omen"
    # a card the file does not know, and one named with no file loaded
    assert words(WITH_CONTENT, PlayCard(card="rune"), 0, "Movement") == "Play the card rune"
    assert words(START, PlayCard(card="rune"), 0, "Movement") == "Play the card rune"
    assert words(START, PlayCard(kind="beast", card="rune"), 0, "Movement") == (
        "Play the Beast card rune"
    )
    assert words(START, PlayCard(kind="action", name="Dash"), 0, "Movement") == (
        "Play the Action card Dash"
    )
    gift = PlayCard(kind="divine_gift", effects=(GainGold(amount=1),))
    assert words(START, gift, 1, "Movement") == "Play a Divine Gift card: Bob gains 1 Gold"


# --- the shared actions -----------------------------------------------------------------------


def test_bm_r07_spawns_in_words() -> None:
    """BM-R07: a spawned Acolyte may step on at once; it is said where it ends."""
    assert ph.spawn_words(START, Spawn()) == "Spawn an Acolyte on C3"
    assert ph.spawn_words(START, Spawn(to="r3c3")) == "Spawn an Acolyte on C3"
    assert ph.spawn_words(START, Spawn(to="r2c3")) == "Spawn an Acolyte on C3 and move it to B3"
    assert ph.spawn_words(START, Spawn(path=("r2c3", "r3c3"))) == (
        "Spawn an Acolyte on C3 and move it to C3 via B3"
    )
    assert ph.spawn_words(START, Spawn(to="r1c3", path=("r2c3", "r1c3"))) == (
        "Spawn an Acolyte on C3 and move it to A3 via B3"
    )
    bob = state(active=1, colossi=("r3c3", "r1c1"))
    assert ph.spawn_words(bob, Spawn()) == "Spawn an Acolyte on A1"
    gone = "Spawn an Acolyte on your Colossus's space"
    assert ph.spawn_words(state(colossi=(None, "r3c3")), Spawn()) == gone
    assert ph.spawn_words(state(active=2), Spawn()) == gone


def test_moves_in_words() -> None:
    assert ph.move_words(START, Move(piece="colossus", origin="r3c3", to="r2c3")) == (
        "Move the Colossus from C3 to B3"
    )
    assert ph.move_words(START, Move(piece="acolyte", origin="r3c3", to="r2c3")) == (
        "Move an Acolyte from C3 to B3"
    )


def test_contents_of_a_corrected_space() -> None:
    """0.2.1: a correction restates what stands on a space, seat by seat."""
    words = ph.contents_words
    assert words(THREE, CorrectSpace(space="r1c1", acolytes=(3,), colossi=(0, 1), cubes=2)) == (
        "Ann's 3 Acolytes, Bob's Colossus, 2 Gold cubes"
    )
    assert words(THREE, CorrectSpace(space="r1c1", acolytes=(0, 0, 1), colossi=(1, 0, 1))) == (
        "Ann's Colossus, Cleo's Colossus and 1 Acolyte"
    )
    assert words(THREE, CorrectSpace(space="r1c1", acolytes=(), colossi=(), cubes=1)) == (
        "1 Gold cube"
    )
    assert words(THREE, CorrectSpace(space="r1c1", acolytes=(0,), colossi=(0,), cubes=0)) == (
        "nobody and nothing"
    )


def test_bm_r08_answers_and_corrections_in_words() -> None:
    """BM-R08 discarding down to 6, 2.6.6 a displaced Colossus, corrections (0.2.1)."""
    say = ph.shared_words
    away = PendingDisplace(space="r3c3", player=1, reason="the Beast arrived")
    assert say(state(pending=(away,)), DisplaceColossus(to="r3c4"), 0, "Movement") == (
        "Move Bob's Colossus from C3 to C4"
    )
    assert say(START, DisplaceColossus(to="r3c4"), 0, "Movement") == "Move the Colossus to C4"
    exploring = (PendingExplore(space="r2c4", player=0),)
    assert say(state(pending=exploring), DisplaceColossus(to="r3c4"), 0, "M") == (
        "Move the Colossus to C4"
    )
    discard = (PendingDiscard(player=1),)
    assert say(state(pending=discard, cards_in_hand=(0, 8)), DiscardToLimit(), 0, "M") == (
        "Discard 2 cards down to 6"
    )
    assert say(state(pending=discard, cards_in_hand=(9, 7)), DiscardToLimit(), 0, "M") == (
        "Discard 1 card down to 6"
    )
    assert say(state(pending=discard, cards_in_hand=(0, 6)), DiscardToLimit(), 0, "M") == (
        "Discard down to 6 cards"
    )
    assert say(state(cards_in_hand=(9, 9)), DiscardToLimit(), 0, "M") == "Discard down to 6 cards"
    assert say(START, CorrectPlayer(player=1, gold=3, cards=2), 0, "M") == (
        "Correct Bob: 3 Gold, 2 cards in hand"
    )
    assert say(START, CorrectSpace(space="r1c1", acolytes=(1, 0), colossi=(0, 0)), 0, "M") == (
        "Correct A1: Ann's 1 Acolyte"
    )
    assert say(START, CorrectMovements(movements=2), 0, "Action") == (
        "Correct: 2 Actions left this turn"
    )
    assert say(START, object(), 0, "M") is None


def test_bm_r10_applied_effects_and_played_cards_in_words() -> None:
    """BM-R10: an effect entered as part of a Beast Master card says so; a played card's
    "self" is the active player, an applied effect's the actor given."""
    say = ph.shared_words
    bob = state(active=1)
    assert say(bob, ApplyEffect(effect=GainGold(amount=1)), 0, "M") == "Ann gains 1 Gold"
    assert say(bob, ApplyEffect(effect=GainGold(amount=1), card_kind="beast_master"), 1, "M") == (
        "Bob gains 1 Gold (part of a Beast Master card)"
    )
    gift = PlayCard(kind="divine_gift", effects=(GainGold(amount=1),))
    assert say(bob, gift, 0, "M") == "Play a Divine Gift card: Bob gains 1 Gold"
    assert say(START, Move(piece="colossus", origin="r3c3", to="r2c3"), 0, "M") == (
        "Move the Colossus from C3 to B3"
    )
    assert say(START, Spawn(), 0, "M") == "Spawn an Acolyte on C3"


# --- form values ------------------------------------------------------------------------------


def test_fields_left_out_in_words() -> None:
    value = ph.value_text
    assert value(START, "to", None, "M") == "C3"
    assert value(state(active=1, colossi=("r3c3", "r1c1")), "to", None, "M") == "A1"
    assert value(state(colossi=(None, "r3c3")), "to", None, "M") == "your Colossus's space"
    assert value(state(active=2), "to", None, "M") == "your Colossus's space"
    assert value(START, "beast", None, "M") == "the Beast"
    assert value(BEASTS, "beast", None, "M") == "Wyrm"
    for field, text in {
        "path": "the safest way",
        "source": "as the card says",
        "cubes": "as they are",
        "gold": "as printed",
        "cards": "as printed",
        "kind": "not said",
        "rounds": "as the options say",
        "name": "none",
    }.items():
        assert value(START, field, None, "M") == text, field


def test_lists_of_spaces_seats_counts_and_effects_in_words() -> None:
    value = ph.value_text
    assert value(START, "path", ("r2c3", "r1c3"), "M") == "B3 and A3"
    assert value(START, "water", ["r1c1"], "M") == "A1"
    assert value(START, "path", (), "M") == "none"
    assert value(THREE, "seats", (2, 0), "M") == "Cleo and Ann"
    assert value(THREE, "seats", (), "M") == "nobody"
    assert value(THREE, "acolytes", (2, 0, 1), "M") == "Ann 2, Bob 0, Cleo 1"
    assert value(THREE, "colossi", (1, 0), "M") == "Ann 1, Bob 0"
    assert value(START, "gold", [4, 5], "M") == "Ann 4, Bob 5"
    gift = {"type": "gold", "who": "each", "amount": 1}
    bad = {"type": "gold", "amount": "lots"}
    assert value(START, "effects", [gift, bad, 7, ExtraMovements(amount=1)], "Action") == (
        "Each player gains 1 Gold; 1 more Action this turn"
    )
    assert value(START, "effects", [], "M") == "none"
    assert value(START, "effects", [bad], "M") == "none"
    assert value(START, "beasts", ("Wyrm",), "M") is None


def test_single_values_in_words() -> None:
    value = ph.value_text
    assert value(START, "effect", {"type": "cubes", "space": "r1c1", "amount": 1}, "M") == (
        "Put 1 Gold cube on A1"
    )
    assert value(START, "effect", PlaceWater(space="r1c1"), "M") == "Put Water on A1"
    assert value(START, "effect", {"type": "nope"}, "M") is None
    assert value(START, "effect", "gold", "M") is None
    assert value(state(active=1), "effect", GainGold(amount=1), "M") == "Bob gains 1 Gold"
    assert value(START, "player", 1, "M") == "Bob"
    assert value(START, "who", 0, "M") == "Ann"
    assert value(START, "player", True, "M") is None
    assert value(START, "amount", 3, "M") is None
    assert value(START, "name", "  ", "M") == "none"
    assert value(START, "name", "", "M") == "none"
    assert value(START, "origin", "r2c3", "M") == "B3"
    assert value(START, "to", "r1c5", "M") == "A5"
    assert value(START, "space", OFF_BOARD, "M") == "off the island"
    assert value(state(active=1), "who", "self", "M") == "Bob"
    assert value(START, "who", "each", "M") == "each player"
    assert value(START, "who", "others", "M") == "each other player"
    assert value(START, "who", "Ann", "M") is None
    assert value(START, "piece", "acolyte", "M") == "Acolyte"
    assert value(START, "piece", "dragon", "M") is None
    assert value(START, "kind", "beast_master", "M") == "Beast Master"
    assert value(START, "card_kind", "divine_gift", "M") == "Divine Gift"
    assert value(START, "source", "age_scoring", "M") == "Age scoring"
    assert value(START, "source", "gift", "M") == "Divine Gift"
    assert value(START, "name", "Eagle Eye", "M") is None


def test_unknown_coded_values_have_no_words() -> None:
    """A kind, card kind or source the game does not have is not said at all (None),
    never as an empty or made-up word."""
    value = ph.value_text
    assert value(START, "kind", "spell", "M") is None
    assert value(START, "card_kind", "spell", "M") is None
    assert value(START, "source", "theft", "M") is None


def test_effects_in_a_form_speak_of_the_active_player_and_the_game_unit() -> None:
    """A form's effect or effects: "self" is the active player, a paid move the game's unit."""
    value = ph.value_text
    bob = state(active=1)
    assert value(bob, "effect", ExtraMovements(amount=1), "Action") == "1 more Action this turn"
    assert value(bob, "effects", [GainGold(amount=1)], "Action") == "Bob gains 1 Gold"
    assert value(START, "effects", [GainGold(amount=1)], "Action") == "Ann gains 1 Gold"


def test_a_card_named_in_a_state_without_options_reads_as_named() -> None:
    """The island state both games share holds no options (each game's adds its own):
    a named card is then read by its name."""
    bare = IslandState(**{name: getattr(START, name) for name in IslandState.model_fields})
    assert ph.play_card_words(bare, PlayCard(card="rune"), 0, "Movement") == "Play the card rune"
    assert ph.play_card_words(bare, PlayCard(kind="perk"), 0, "Movement") == "Play a Perk card"
