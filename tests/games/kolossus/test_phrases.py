"""Kolossus in the players' words (the words contract of companion.rules.Rules): every
action family described as a verb and its objects, squares as "(row, column)" numbered
as the board's edges number them, counts with their plural, never a payload key."""

from __future__ import annotations

import re
import typing

import pytest

from companion.dice import Roll
from companion.errors import RuleViolation
from companion.events import Event
from companion.games.kolossus import RULES
from companion.games.kolossus.content import cell
from companion.games.kolossus.model import (
    Allocate,
    ChooseClass,
    CorrectCrystals,
    CorrectLandscape,
    CorrectMana,
    CorrectPiece,
    CorrectRegion,
    Earthquake,
    EndTurn,
    Finish,
    Hammer,
    Initiative,
    KolossusAction,
    KolossusState,
    Move,
    QuakeMove,
    Ready,
    Rebirth,
    Spear,
    Swap,
)
from tests.faults.scale import scaled
from tests.games.kolossus.helpers import (
    NE,
    NW,
    SW,
    act,
    charge,
    in_turn,
    move,
    new_game,
    pid,
    place,
    ready_to_move,
    roll,
    set_skills,
    with_band,
)
from tests.games.random_play import random_game
from tests.helpers.player_words import text_problems

#: What only Kolossus could say wrong, beside the shared checker's faults: a raw cell key
#: ("1,2"), a region key ("row3", "col7"), a piece id ("blue-W1"), a payload key ("cls",
#: "a (", "mp =").
KOLOSSUS = {
    "raw cell key": re.compile(r"\d,\d"),
    "region key": re.compile(r"\b(row|col)\d"),
    "piece id": re.compile(r"\b(blue|yellow|green|red)-[CGW]\d?\b"),
    "payload key": re.compile(r"\b(cls|from_|a|b|mp)\s*[:=(]|\bcls\b"),
}


def lint(text: str) -> list[str]:
    """The faults of one text players read (empty when it reads as words)."""
    return text_problems(text, extra=KOLOSSUS)


def test_lint_catches_the_labels_players_saw() -> None:
    """The lint itself fails on the labels of the old screens."""
    for seen in (
        "Choose class: cls W / cls G",
        "Swap: a (0, 0), b (0, 1)",
        "Correct piece: piece blue-C, row 0, col 0",
        "Great Quake: Tua'tha moves row3 east by 2.",
        "4 Movement(s) left",
        "beats 1 squares",
        "moves 3 square",
        "Move: piece colossus, origin r3c3, to r2c3",
        "Round 2/8 · Tua'tha (Ann) · 3 AP left: choose a class, a power or end the turn",
        "Round 2/8 · Tua'tha (Ann) · move a Warrior (4 MP)",
        "Warrior on (1, 2) cannot reach (5, 5) with 2 MP",
    ):
        assert lint(seen), seen
    assert lint("Move Tua'tha's Warrior from (1, 2) to (3, 4)") == []


# --- every legal action, in many random positions -------------------------------------


def _said_actions(state: KolossusState) -> list[tuple[KolossusAction, str]]:
    actions: list[KolossusAction] = [*RULES.legal_actions(state), *RULES.corrections(state)]
    return [(a, RULES.describe(state, a)) for a in actions]


def test_every_legal_action_and_log_line_reads_as_words_in_random_positions() -> None:
    """In random positions of the three chapters: every listed action and correction,
    its values, the status line, the refusal of the actions listed in the position looked
    at before (most are refused here) and every log line."""
    checked = refusals = 0
    families: set[str] = set()
    for chapter, seed, limit in ((1, 3, 50), (2, 5, 50), (3, 7, 90)):
        start = RULES.setup(["Ann", "Bob", "Cleo"], RULES.parse_options({"chapter": chapter}), seed)
        played = random_game(RULES, start, bot_seed=seed, limit=scaled(limit, 2000))
        earlier: list[KolossusAction] = []
        for state in played.states[:: scaled(8, 1)]:
            assert lint(RULES.status(state)) == [], RULES.status(state)
            for action in earlier[::3]:
                try:
                    RULES.apply(state, action)
                except RuleViolation as refused:
                    assert lint(refused.message) == [], (refused.message, action)
                    refusals += 1
            said_here = _said_actions(state)
            earlier = [action for action, _ in said_here]
            for action, said in said_here:
                assert lint(said) == [], (said, action)
                families.add(action.type)
                checked += 1
                for field, value in action:
                    if field == "type":
                        continue
                    words = RULES.value_words(state, action.type, field, value)
                    assert lint(words) == [] or value in (None, ""), (field, value, words)
        logged: list[Event] = [e for events in played.events for e in events]
        for event in logged:
            assert lint(event.text) == [], event.text
    assert checked > 500 and refusals > 50
    assert {"move", "choose_class", "allocate", "roll", "swap", "correct_piece"} <= families


def test_every_family_has_a_title_and_every_field_a_players_word() -> None:
    for action_type, model in RULES.action_models().items():
        title = RULES.family_title(action_type)
        assert title == model.model_config.get("title") or action_type == "roll", action_type
        assert lint(title) == [], title
        for field in model.model_fields:
            if field == "type":
                continue
            said = RULES.field_words(action_type, field)
            assert model.model_fields[field].title == said or action_type == "roll", field
            assert lint(said) == [], (action_type, field, said)
    assert RULES.field_words("choose_class", "cls") == "Class"
    assert RULES.family_title("swap") == "Swap two miniatures"


# --- one example per family, verbatim -----------------------------------------------------


def _colossus_after_move(weapon: str, enemies: dict[int, str]) -> KolossusState:
    """NW's Colossus on (5, 0) with ``weapon`` charged, moved 0 squares with 3 MP."""
    state = new_game(chapter=3, titan_weapons="all_four")
    state = place(state, {pid(NW, "C"): "5,0", **enemies})
    state = ready_to_move(charge(state, NW, weapon), NW, "C", 3)
    return move(state, "5,0", "5,0")


def test_the_setup_and_turn_families_in_words() -> None:
    state = new_game()
    assert RULES.describe(state, Ready()) == "Ready: the miniatures stand as shown"
    assert (
        RULES.describe(state, Swap(a="0,0", b="0,1"))
        == "Swap Tua'tha's Colossus on (0, 0) with the Guardian on (0, 1)"
    )
    turn = in_turn(state, NW, ap=3)
    assert (
        RULES.describe(turn, ChooseClass(cls="W"))
        == "Activate a Warrior: 1 activation point, roll 1 die"
    )
    assert (
        RULES.describe(turn, ChooseClass(cls="G"))
        == "Activate a Guardian: 2 activation points, roll 2 dice"
    )
    assert RULES.describe(turn, EndTurn()) == "End the turn: 3 activation points unused"
    assert RULES.describe(turn.model_copy(update={"ap": 1}), EndTurn()) == (
        "End the turn: 1 activation point unused"
    )
    assert RULES.describe(turn.model_copy(update={"ap": 0}), EndTurn()) == "End the turn"
    assert RULES.value_words(turn, "choose_class", "cls", "G") == "Guardian"


def test_the_rolls_and_the_great_quake_in_words() -> None:
    state = new_game()
    state = act(state, {"type": "ready"})[0]
    assert RULES.describe(state, Roll()) == "Roll for the Great Quake"
    assert RULES.describe(state, Roll(values=(2,))) == "Roll 2 for the Great Quake"
    rolled = roll(state, 2)
    quake = QuakeMove(region="row3", direction="east")
    assert RULES.describe(rolled, quake) == "Great Quake: move row 3 east by 2 squares"
    assert RULES.value_words(rolled, "quake_move", "region", "col7") == "column 7"
    _, events = RULES.apply(rolled, quake)
    assert events[0].text == "Great Quake: Tua'tha moves row 3 east by 2 squares."
    one = roll(state, 1)
    assert RULES.describe(one, QuakeMove(region="col4", direction="north")) == (
        "Great Quake: move column 4 north by 1 square"
    )
    moving = act(in_turn(new_game(), NW), {"type": "choose_class", "cls": "G"})[0]
    assert RULES.describe(moving, Roll(values=(2, 3))) == "Roll 2 and 3 for the Guardian movement"


def test_a_move_names_the_miniature_its_squares_and_whom_it_beats() -> None:
    state = place(new_game(), {pid(NW, "W"): "1,2", pid(NE, "G"): "2,3"})
    state = ready_to_move(state, NW, "W", 2)
    assert (
        RULES.describe(state, Move.model_validate({"from": "1,2", "to": "1,3"}))
        == "Move Tua'tha's Warrior from (1, 2) to (1, 3)"
    )
    assert (
        RULES.describe(state, Move.model_validate({"from": "1,2", "to": "2,3"}))
        == "Move Tua'tha's Warrior from (1, 2) to (2, 3), beating Krell's Guardian (Bob)"
    )
    assert RULES.value_words(state, "move", "from_", "1,2") == "(1, 2)"
    assert RULES.value_words(state, "move", "path", ("1,3", "2,3")) == "(1, 3) → (2, 3)"
    assert RULES.cell_words(state, "10,0") == "(10, 0)"


def test_RULINGS_1_5_a_move_of_0_squares_says_stay_and_is_the_only_stay() -> None:
    """Stopping early is always legal, 0 squares included (RULINGS 1.5): the menu says
    "Stay on (r, c)" and ``stays`` is True exactly for those moves."""
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "1,2"}), NW, "W", 2)
    stay = Move.model_validate({"from": "1,2", "to": "1,2"})
    assert RULES.describe(state, stay) == "Stay on (1, 2) with Tua'tha's Warrior"
    moves = [a for a in RULES.legal_actions(state) if isinstance(a, Move)]
    assert stay in moves
    for action in moves:
        said = RULES.describe(state, action)
        assert RULES.stays(state, action) == (action.from_ == action.to), action
        assert said.startswith("Stay on ") == RULES.stays(state, action), said
    assert not RULES.stays(state, EndTurn())


def test_K_R16_staying_on_the_citadel_says_it_takes_the_crystals() -> None:
    """A miniature that starts on the Citadel and moves 0 squares captures (K-R16)."""
    state = place(new_game(), {pid(NW, "W"): "5,5"})
    state = ready_to_move(state, NW, "W", 1).model_copy(update={"crystals": 2})
    stay = Move.model_validate({"from": "5,5", "to": "5,5"})
    assert RULES.describe(state, stay) == (
        "Stay on (5, 5) with Tua'tha's Warrior, taking 2 Crystals of Time"
    )
    taken = RULES.apply(state, stay)[0]
    assert taken.captures[-1].count == 2


def test_the_titan_weapons_in_words_K_R31() -> None:
    spear = _colossus_after_move("spear", {pid(NE, "W"): "5,3"})
    assert RULES.describe(spear, Spear(target="5,3")) == (
        "Spear of Vengeance: beat Krell's Warrior (Bob) on (5, 3)"
    )
    enemies = {pid(NE, "W"): "4,0", pid(NE, "W2"): "5,1"}
    hammer = _colossus_after_move("hammer", enemies)
    assert RULES.describe(hammer, Hammer(targets=("4,0",))) == (
        "Hammer of Doom: beat Krell's Warrior (Bob) on (4, 0)"
    )
    assert RULES.describe(hammer, Hammer(targets=("4,0", "5,1"))) == (
        "Hammer of Doom: beat 2 miniatures on (4, 0) and (5, 1)"
    )
    _, events = RULES.apply(hammer, Hammer(targets=("4,0", "5,1")))
    assert events[0].text == "Hammer of Doom: Tua'tha beats 2 miniatures."
    assert RULES.describe(hammer, Finish()) == "Finish: the Colossus uses no Spear or Hammer"
    sword = new_game(chapter=3, titan_weapons="all_four")
    enemies = {pid(NE, "W"): "4,0", pid(NE, "W2"): "4,1", pid(SW, "G"): "3,0"}
    sword = place(sword, {pid(NW, "C"): "5,0", **enemies})
    sword = ready_to_move(charge(sword, NW, "sword"), NW, "C", 4)
    # Every way to (3, 0) beats on (4, 0) or (4, 1) first: the Sword carries on (K-R31).
    through = Move.model_validate({"from": "5,0", "to": "3,0"})
    assert RULES.describe(sword, through) == (
        "Move Tua'tha's Colossus from (5, 0) to (3, 0), beating 2 miniatures "
        "with the Sword of Storm"
    )
    _, events = RULES.apply(sword, through)
    assert events[0].text.startswith(
        "Tua'tha's Colossus moves from (5, 0) to (3, 0), beating 2 miniatures (Sword of Storm)"
    )
    assert RULES.value_words(sword, "move", "sword", None) == "only if needed"
    assert RULES.value_words(sword, "allocate", "charge", "whip") == "Whip of Wrath"


def test_the_titan_powers_and_mana_in_words() -> None:
    state = new_game(chapter=3)
    state = place(state, {pid(NW, "G"): None})
    state = with_band(in_turn(state, NW, ap=2), NW, pool=3, supply=15, income=2)
    assert RULES.describe(state, Initiative()) == (
        "Initiative: 1 pool mana for 1 more activation point"
    )
    assert RULES.describe(state, Earthquake(region="col3", direction="north")) == (
        "Earthquake: move column 3 north by 1 square"
    )
    _, events = RULES.apply(state, Earthquake(region="row0", direction="east"))
    assert events[0].text == "Earthquake: Tua'tha moves row 0 east by 1 square."
    on_row_0: dict[int, str | None] = {p: None for p, at in enumerate(state.minis) if 0 <= at < 11}
    _, events = RULES.apply(place(state, on_row_0), Earthquake(region="row0", direction="east"))
    assert [e.text for e in events] == [
        "Earthquake: Tua'tha moves row 0 east by 1 square: nothing on that line moves."
    ]
    free = cell(new_game().minis[pid(NW, "G")])
    assert RULES.describe(state, Rebirth(cls="G", to=free)) == (
        "Rebirth: Tua'tha's Guardian returns on (0, 1) for 2 pool mana"
    )
    assert RULES.describe(state, Allocate()) == "Put no mana: 2 mana back to the supply"
    alloc = Allocate(warrior_attack=1, colossus_defence=2, pool=1, charge="sword")
    assert RULES.describe(state, alloc) == (
        "Put mana: 1 on Warrior Attack, 2 on Colossus Defence, 1 in the pool, "
        "charge the Sword of Storm"
    )
    assert RULES.field_words("allocate", "guardian_defence") == "Guardian Defence"


def test_the_corrections_in_words() -> None:
    state = new_game(chapter=2)
    assert RULES.describe(state, CorrectPiece(piece="blue-C", row=0, col=0)) == (
        "Correct: Tua'tha's Colossus stands on (0, 0)"
    )
    assert RULES.describe(state, CorrectPiece(piece="yellow-W5")) == (
        "Correct: Krell's Warrior 5 is beaten"
    )
    assert RULES.value_words(state, "correct_piece", "piece", "green-G2") == (
        "Ishtari's Guardian 2"
    )
    assert RULES.value_words(state, "correct_piece", "row", None) == "beaten"
    assert RULES.describe(state, CorrectLandscape(row=3, col=4, landscape="woods")) == (
        "Correct (3, 4): Woods"
    )
    assert RULES.describe(state, CorrectCrystals(citadel=1, supply=10, red=1)) == (
        "Correct the crystals: 1 on the Citadel, 10 in the supply, 1 captured"
    )
    assert RULES.describe(state, CorrectRegion(region="col5", direction="south", distance=2)) == (
        "Correct: column 5 shifted south by 2 squares"
    )
    mana = CorrectMana(warband="blue", supply=15, warrior_attack=4, pool=1)
    assert RULES.describe(state, mana) == (
        "Correct Tua'tha's mana: 15 in the supply, 4 on the skills, 1 in the pool, 0 income"
    )
    assert RULES.value_words(state, "correct_mana", "warband", "red") == "Firbolg (red)"
    assert RULES.field_words("correct_crystals", "red") == "Captured by Firbolg (red)"


def test_a_corrected_region_and_piece_are_logged_in_words() -> None:
    state = place(new_game(), {pid(NW, "W"): "5,1"})
    _, events = RULES.apply(state, CorrectRegion(region="row5", direction="west", distance=2))
    assert events[0].text.endswith("Row 5 shifted west by 2 squares, 1 miniature beaten.")
    _, events = RULES.apply(state, CorrectPiece(piece="blue-W1", row=3, col=4))
    assert events[0].text.endswith("Tua'tha's Warrior 1: (5, 1) → (3, 4).")


def test_every_family_is_described_beyond_its_title() -> None:
    """No family falls back to the contract's default (its title alone)."""
    families = typing.get_args(typing.get_args(RULES.action_type)[0])
    assert len(families) == len(RULES.action_models())
    state = in_turn(new_game(chapter=3), NW, ap=2)
    examples: dict[str, KolossusAction] = {
        "roll": Roll(),
        "ready": Ready(),
        "swap": Swap(a="0,0", b="0,1"),
        "quake_move": QuakeMove(region="row3", direction="east"),
        "allocate": Allocate(pool=1),
        "initiative": Initiative(),
        "choose_class": ChooseClass(cls="C"),
        "move": Move.model_validate({"from": "0,0", "to": "0,1"}),
        "spear": Spear(target="0,9"),
        "hammer": Hammer(targets=("0,9",)),
        "finish": Finish(),
        "earthquake": Earthquake(region="row0", direction="east"),
        "rebirth": Rebirth(cls="W", to="2,2"),
        "end_turn": EndTurn(),
        "correct_piece": CorrectPiece(piece="red-C"),
        "correct_mana": CorrectMana(warband="red", supply=20),
        "correct_crystals": CorrectCrystals(citadel=1, supply=11),
        "correct_landscape": CorrectLandscape(row=1, col=1, landscape="bare"),
        "correct_region": CorrectRegion(region="row1", direction="east"),
    }
    assert set(examples) == set(RULES.action_models())
    for action_type, action in examples.items():
        said = RULES.describe(state, action)
        assert said != RULES.family_title(action_type) and lint(said) == [], said


# --- points counted in words, never "MP" or "AP" (the rule book's words) ----------------


def _refused(state: KolossusState, action: KolossusAction) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        RULES.apply(state, action)
    assert lint(info.value.message) == [], info.value.message
    return info.value


def test_K_R08_the_status_counts_activation_and_movement_points_in_words() -> None:
    """The status line once read "3 AP left" and "move a Warrior (4 MP)"."""
    turn = in_turn(new_game(), NW, ap=3)
    assert RULES.status(turn) == (
        "Round 1/12 · Tua'tha (Ann) · 3 activation points: class, power or end of turn"
        " · crystals on the Citadel: 1"
    )
    assert "· 1 activation point: class" in RULES.status(turn.model_copy(update={"ap": 1}))
    moving = ready_to_move(place(new_game(), {pid(NW, "W"): "1,2"}), NW, "W", 4)
    assert RULES.status(moving) == (
        "Round 1/12 · Tua'tha (Ann) · move a Warrior (4 movement points)"
        " · crystals on the Citadel: 1"
    )
    one = moving.model_copy(update={"mp": 1})
    assert "move a Warrior (1 movement point)" in RULES.status(one)
    assert "Spear or Hammer (3 movement points) or finish" in RULES.status(
        _colossus_after_move("spear", {pid(NE, "W"): "5,3"})
    )


def test_K_R08_K_R10_refusals_count_points_in_words() -> None:
    turn = in_turn(new_game(), NW, ap=1)
    costly = _refused(turn, ChooseClass(cls="G"))
    assert costly.ruling == "K-R08"
    assert costly.message == "A Guardian costs 2 activation points; you have 1 left."
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "1,2"}), NW, "W", 1)
    far = _refused(state, Move.model_validate({"from": "1,2", "to": "1,4"}))
    assert far.ruling == "K-R10"
    assert far.message.startswith(
        "Warrior on (1, 2) cannot reach (1, 4) with 1 movement point (straight lines"
    )


def test_K_R29_K_R30_weapon_refusals_count_movement_points_in_words() -> None:
    spear = _colossus_after_move("spear", {pid(NE, "W"): "5,3", pid(NE, "W2"): "1,0"})
    far = _refused(spear, Spear(target="1,0"))
    assert far.ruling == "K-R29"
    assert far.message == (
        "The Spear needs an enemy on a free straight line whose distance + Defence is at "
        "most 3 movement points; (1, 0) is not."
    )
    enemies = {pid(NE, "W"): "4,0", pid(NE, "W2"): "5,1"}
    hammer = set_skills(_colossus_after_move("hammer", enemies), NE, warrior_defence=1)
    dear = _refused(hammer, Hammer(targets=("4,0", "5,1")))
    assert dear.ruling == "K-R30"
    assert dear.message == ("Those targets cost 4 movement points (1 + Defence each); you have 3.")


def test_the_log_counts_points_left_in_words() -> None:
    """A move's log line once ended "; 1 MP left."; the Initiative "now has 3 AP"."""
    state = ready_to_move(place(new_game(), {pid(NW, "W"): "1,2"}), NW, "W", 2)
    _, events = RULES.apply(state, Move.model_validate({"from": "1,2", "to": "1,3"}))
    assert events[0].text == (
        "Tua'tha's Warrior moves from (1, 2) to (1, 3); 1 movement point left."
    )
    _, events = RULES.apply(state, Move.model_validate({"from": "1,2", "to": "1,2"}))
    assert events[0].text.endswith("; 2 movement points left.")
    powers = with_band(in_turn(new_game(chapter=3), NW, ap=2), NW, pool=3, supply=15, income=2)
    _, events = RULES.apply(powers, Initiative())
    assert events[0].text == "Initiative: Tua'tha now has 3 activation points."


def test_K_R08_a_cancelled_activation_gives_its_activation_points_back_in_words() -> None:
    chosen, _ = act(in_turn(new_game(), NW, ap=4), {"type": "choose_class", "cls": "C"})
    _, events = RULES.apply(chosen, CorrectPiece(piece="blue-C"))
    assert events[-1].text == (
        "No Colossus is left to move: the activation is cancelled; 4 activation points left."
    )
