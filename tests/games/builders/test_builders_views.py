"""Builders of the Colossus: the facts panel (companion.views.PanelView) the rules build.

The values are read back from the state they show; where a line rests on a ruling, the
test names it (docs/rulings.md, BC-…).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.builders import RULES
from companion.games.builders.content import COLOSSI_TO_BUILD
from companion.games.builders.model import (
    Build,
    BuildersState,
    CorrectBuilt,
    Curse,
    Draw,
    EndTurn,
    PickWinner,
    Reveal,
    Trade,
)
from companion.games.builders.views import MODE_PHASES
from companion.views import ActionCells, CardView, PanelView
from tests.games.random_play import random_game
from tests.helpers.builders import TABLE, act, new_game, with_builds, with_runes


def build(slot: int = 1, cost: int = 3) -> Build:
    return Build(slot=slot, rune_cost=cost, accessories=0, cards=5)


def rows(panel: PanelView) -> dict[str, tuple[str, ...]]:
    return {row.label: row.values for row in panel.rows}


def check_panel_matches(state: BuildersState) -> None:
    """The panel shows the state's own numbers, one value per player."""
    panel = RULES.panel(state)
    assert panel.columns == state.players
    assert [row.label for row in panel.rows] == ["Runes", "Hand", "Built"]
    for row in panel.rows:
        assert len(row.values) == len(panel.columns), row.label
    seats = range(len(state.players))
    assert rows(panel) == {
        "Runes": tuple(str(r) for r in state.runes),
        "Hand": tuple(str(h) for h in state.hands),
        "Built": tuple(str(state.builds_by(s)) for s in seats),
    }
    assert panel.turn == RULES.current_player(state)
    assert panel.facts[0] == f"Colossi built: {state.built}/{COLOSSI_TO_BUILD}"  # BC-R01
    assert panel.facts[1] == f"Parts deck: {state.deck} cards"
    assert panel.facts[2].startswith(f"Turn {state.turn}: ")
    if state.result is not None:
        assert panel.phase == "over" and panel.turn is None
    elif state.tied:
        assert panel.phase == "players decide the winner"
    else:
        assert panel.phase == MODE_PHASES[state.mode]
    zero_facts = [f for f in panel.facts if " at 0 Runes: " in f]
    if state.result is None and not state.tied:
        assert len(zero_facts) == sum(due is not None for due in state.zero_checks)
    else:  # the game has ended: no check can fall due any more
        assert zero_facts == []


def test_fresh_game_panel_shows_every_player_and_the_first_turn() -> None:
    state = new_game(3)
    panel = RULES.panel(state)
    assert panel.columns == ("Ann", "Bob", "Cleo")
    assert rows(panel) == {
        "Runes": ("10", "10", "10"),
        "Hand": ("10", "10", "10"),
        "Built": ("0", "0", "0"),
    }
    assert panel.facts == (
        "Colossi built: 0/10",
        "Parts deck: 105 cards",
        "Turn 1: Curse, or gain cards",
    )
    assert panel.turn == 0
    assert panel.phase == "Curse, or gain cards"
    assert panel.turn_colour is None
    check_panel_matches(state)


def test_panel_follows_actions_curses_and_turns() -> None:
    state = act(new_game(3), Draw())
    panel = RULES.panel(state)
    assert rows(panel)["Runes"] == ("11", "10", "10")
    assert rows(panel)["Hand"] == ("11", "10", "10")
    assert "Parts deck: 104 cards" in panel.facts
    assert "Turn 1: actions used: Draw" in panel.facts
    assert panel.phase == "actions"
    loaded = state.model_copy(update={"actions_used": ()})  # a hand-made position
    assert "Turn 1: actions used: none yet" in RULES.panel(loaded).facts
    check_panel_matches(state)

    state = act(state, Trade(partner=1, cards_received=1, runes_given=2))
    assert "Turn 1: actions used: Draw, Trade" in RULES.panel(state).facts
    check_panel_matches(state)

    state = act(state, EndTurn(), Curse(runes=(1, 0, 1)))  # BC-R02: Bob curses
    panel = RULES.panel(state)
    assert panel.turn == 1
    assert panel.phase == "cursed"
    assert "Turn 2: cursed this turn" in panel.facts
    check_panel_matches(state)


def test_BC_R01_panel_counts_colossi_to_ten_and_names_the_last_build() -> None:
    state = act(new_game(3), build(slot=2, cost=4))
    panel = RULES.panel(state)
    assert rows(panel)["Built"] == ("1", "0", "0")
    assert rows(panel)["Runes"] == ("6", "10", "10")
    assert panel.facts[0] == "Colossi built: 1/10"
    assert panel.facts[-1] == "Last build: Ann, slot 2, 4 Runes"
    check_panel_matches(state)
    # The 10th build ends the game: nobody's turn, phase over.
    done = act(with_builds(new_game(3), 1, 2, 1, 2, 1, 2, 1, 2, 1), build())
    panel = RULES.panel(done)
    assert panel.facts[0] == "Colossi built: 10/10"
    assert panel.turn is None and panel.phase == "over"
    check_panel_matches(done)


def test_a_corrected_build_is_named_as_a_correction() -> None:
    state = act(new_game(3), CorrectBuilt(player=1, colossi=1))
    panel = RULES.panel(state)
    assert rows(panel)["Built"] == ("0", "1", "0")
    assert panel.facts[-1] == "Last build: Bob, set by a correction"


def test_BC_R10_panel_shows_the_zero_rune_check_and_its_turn() -> None:
    state = with_runes(new_game(3), 3, 10, 10)
    state = act(state, Trade(partner=1, cards_received=1, runes_given=3))
    panel = RULES.panel(state)
    assert rows(panel)["Runes"] == ("0", "13", "10")
    assert "Ann at 0 Runes: wins on turn 4 if still at 0" in panel.facts
    check_panel_matches(state)


def test_BC_R10_a_pending_check_leaves_the_panel_when_the_10th_colossus_ends_the_game() -> None:
    state = with_runes(new_game(3), 3, 10, 10)
    state = act(state, Trade(partner=1, cards_received=1, runes_given=3), EndTurn())
    assert state.zero_checks[0] == 4
    state = act(with_builds(state, 1, 2, 1, 2, 1, 2, 1, 2, 1), build())  # Bob builds the 10th
    assert RULES.outcome(state) is not None
    panel = RULES.panel(state)
    assert not any(" at 0 Runes: " in f for f in panel.facts)
    assert panel.facts[0] == "Colossi built: 10/10"
    check_panel_matches(state)


def test_BC_R11_panel_shows_each_players_zero_check() -> None:
    # Bob and Cleo both reach 0 in Ann's turn; each has their own check.
    state = with_runes(new_game(4), 10, 2, 2, 10)
    state = act(state, Reveal(target=2), Trade(partner=1, cards_received=1, runes_received=2))
    panel = RULES.panel(state)
    assert rows(panel)["Runes"] == ("14", "0", "0", "10")
    zero = [f for f in panel.facts if " at 0 Runes: " in f]
    assert zero == [
        "Bob at 0 Runes: wins on turn 2 if still at 0",
        "Cleo at 0 Runes: wins on turn 3 if still at 0",
    ]
    check_panel_matches(state)


def test_BC_R11_a_lapsed_check_leaves_the_panel_and_the_others_stay() -> None:
    # Bob and Cleo reach 0 in Dov's turn 4; Ann curses a Rune onto Bob in turn 5.
    state = with_runes(new_game(4), 10, 2, 2, 10)
    state = act(state, Draw(), EndTurn(), *(Curse(runes=(1, 0, 0, 0)), EndTurn()) * 2)
    state = act(state, Reveal(target=1), Trade(partner=2, cards_received=1, runes_received=2))
    state = act(state, EndTurn(), Curse(runes=(0, 1, 0, 0)))
    zero = [f for f in RULES.panel(state).facts if " at 0 Runes: " in f]
    assert zero == [  # Bob has a Rune again, but only his count as turn 6 begins counts
        "Bob at 0 Runes: wins on turn 6 if still at 0",
        "Cleo at 0 Runes: wins on turn 7 if still at 0",
    ]
    state = act(state, EndTurn())  # turn 6: Bob's check lapses
    zero = [f for f in RULES.panel(state).facts if " at 0 Runes: " in f]
    assert zero == ["Cleo at 0 Runes: wins on turn 7 if still at 0"]
    check_panel_matches(state)
    state = act(state, Draw(), EndTurn())  # turn 7: Cleo wins, no check is left to show
    panel = RULES.panel(state)
    assert panel.phase == "over"
    assert not any(" at 0 Runes: " in f for f in panel.facts)
    check_panel_matches(state)


def test_BC_R12_panel_shows_a_tie_until_the_players_pick() -> None:
    base = with_runes(with_builds(new_game(3), 1, 1, 1, 1, 1, 0, 0, 0, 0), 10, 7, 10)
    state = act(base, build())
    assert state.tied == (0, 1)
    panel = RULES.panel(state)
    assert "Tie: Ann or Bob — you decide" in panel.facts
    assert panel.phase == "players decide the winner"
    assert panel.turn == RULES.current_player(state)
    check_panel_matches(state)
    decided = act(state, PickWinner(seats=(1,)))
    panel = RULES.panel(decided)
    assert panel.phase == "over" and panel.turn is None
    assert not any(f.startswith("Tie:") for f in panel.facts)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**40),
    bot_seed=st.integers(0, 2**31),
    players=st.integers(2, 4),
    final_tie=st.sampled_from(["manual", "shared"]),
)
def test_panel_has_one_value_per_player_over_random_play(
    seed: int, bot_seed: int, players: int, final_tie: str
) -> None:
    start = new_game(players, seed, final_tie=final_tie)
    played = random_game(RULES, start, bot_seed, limit=600, check=check_panel_matches)
    check_panel_matches(played.states[0])
    assert RULES.outcome(played.final) is not None


# --- the cards a screen lays out -----------------------------------------------------------


def test_BC_R15_the_cards_show_each_blueprint_seat_stockpile_and_deck_as_they_lie() -> None:
    state = with_builds(with_runes(new_game(), 1, 10, 12), 0)
    state = state.model_copy(update={"hands": (1, 10, 11), "deck": 112})
    assert RULES.cards(state) == (
        CardView("slot:1", "Blueprint 1", ("face up", "cost 3–6 Runes")),
        CardView("slot:2", "Blueprint 2", ("face up", "cost 3–6 Runes")),
        CardView("slot:3", "Blueprint 3", ("face up", "cost 3–6 Runes")),
        CardView("seat:0", "Ann", ("1 Rune", "1 card · built 1"), seat=0, hidden=1),
        CardView("seat:1", "Bob", ("10 Runes", "10 cards · built 0"), seat=1, hidden=10),
        CardView("seat:2", "Cleo", ("12 Runes", "11 cards · built 0"), seat=2, hidden=11),
        CardView("stockpile", "Rune stockpile", ("Curse: hand out", "1–4 Runes")),
        CardView("deck", "Parts deck", ("112 cards",)),
    )


def test_BC_R15_with_a_table_each_slot_shows_its_blueprint_cost_and_listed_parts() -> None:
    """The Parts as the cards name them, in the cards' order ("1 Head, 2 Legs", never
    "1 head, 2 leg")."""
    table = [
        {"name": "Tall", "rune_cost": 4, "parts": {"head": 1, "leg": 2, "arm": 0}},
        {"name": "Wide", "rune_cost": 6, "parts": {"arm": 3}},
        {"name": "Odd", "rune_cost": 3, "parts": {"wing": 1, "leg": 1}},
        *TABLE[3:],  # 12 in all: 3 face up and 9 replacements
    ]
    state = new_game(blueprints=table)
    state = state.model_copy(update={"face_up": (1, None, 0), "blueprint_deck": (2,)})
    slots = RULES.cards(state)[:3]
    assert [(c.key, c.title, c.lines) for c in slots] == [
        ("slot:1", "Blueprint 1", ("Wide", "6 Runes", "3 Arms")),
        ("slot:2", "Blueprint 2", ("empty",)),
        ("slot:3", "Blueprint 3", ("Tall", "4 Runes", "1 Head, 2 Legs")),
    ]


def test_each_action_names_the_card_it_is_about_bc_r09_bc_r12() -> None:
    def cells(action: dict[str, object]) -> ActionCells:
        return RULES.action_cells(new_game(), RULES.parse_action(action))

    assert cells({"type": "curse", "runes": [0, 1, 0]}) == ActionCells.at("stockpile")
    assert cells({"type": "draw"}) == ActionCells.at("deck")
    assert cells({"type": "trade", "partner": 2, "cards_received": 1}) == ActionCells.at("seat:2")
    assert cells({"type": "reveal", "target": 1}) == ActionCells.at("seat:1")
    assert cells({"type": "build", "slot": 3, "rune_cost": 3, "cards": 5}) == ActionCells.at(
        "slot:3"
    )
    assert cells({"type": "pick_winner", "seats": [1]}) == ActionCells.at("seat:1")
    assert cells({"type": "pick_winner", "seats": [0, 1]}) == ActionCells()
    assert cells({"type": "end_turn"}) == ActionCells()
