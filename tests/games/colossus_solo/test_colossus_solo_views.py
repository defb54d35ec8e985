"""Colossus (solo): the facts panel (companion.views.PanelView) the rules build.

The values are read back from the state they show; where a line rests on a ruling, the
test names it (docs/rulings.md, CS-…).
"""

from __future__ import annotations

import typing
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.colossus_solo import RULES
from companion.games.colossus_solo.content import (
    COLOSSUS_CARDS,
    CardTable,
    ColossusCard,
    ColossusLine,
    FinalBlowProfile,
    Phase,
)
from companion.games.colossus_solo.model import (
    ColossusSoloState,
    DestroyCards,
    EnterColossusCard,
    EnterFinalBlow,
    PayPenalty,
    ResolveCard,
    Stats,
)
from companion.games.colossus_solo.views import PHASES
from companion.views import PanelView
from tests.games.random_play import random_game
from tests.helpers.colossus_solo import act, stats

ROW_LABELS = ["Weakness", "Grip", "Card", "Deck", "Discard", "In play", "Hand", "Advanced"]


def card(
    attack: int | None = 2,
    grip: int | None = 2,
    bonus: int | None = 3,
    climb: int | None = 2,
    *,
    icons: tuple[str, ...] = (),
    name: str = "",
) -> ColossusCard:
    return ColossusCard(
        name=name,
        attack=ColossusLine(value=attack, destroy="attack" in icons),
        grip=ColossusLine(value=grip, destroy="grip" in icons),
        bonus=ColossusLine(value=bonus, destroy="bonus" in icons),
        climb=ColossusLine(value=climb, destroy="climb" in icons),
    )


def table() -> CardTable:
    """A made-up card table: 11 named cards, 3 Final Blow cards."""
    return CardTable(
        colossus=tuple(card(name=f"Og {i}") for i in range(COLOSSUS_CARDS)),
        final_blow=tuple(
            FinalBlowProfile(
                name=n,
                n_cards=(2, 3, 4, 5, 6, 7, 8, 9),
                grip_req=(8, 7, 6, 5, 4, 3, 2, 1),
                attack_req=5,
            )
            for n in "ABC"
        ),
    )


def new_game(seed: int = 1, card_table: CardTable | None = None) -> ColossusSoloState:
    data: dict[str, Any] = {}
    if card_table is not None:
        data["card_table"] = card_table.model_dump(mode="json")
    return RULES.setup(["Netophah"], RULES.parse_options(data), seed)


def values(panel: PanelView) -> dict[str, str]:
    """The one column's value per row label."""
    return {row.label: row.values[0] for row in panel.rows}


def check_panel_matches(state: ColossusSoloState) -> None:
    """The panel shows the state's own numbers in its one column, and never past card 11."""
    panel = RULES.panel(state)
    assert panel.columns == state.players == ("Netophah",)
    assert [row.label for row in panel.rows] == ROW_LABELS
    for row in panel.rows:
        assert len(row.values) == len(panel.columns) == 1, row.label
    shown = values(panel)
    number, of = (int(v) for v in shown["Card"].split("/"))
    assert of == COLOSSUS_CARDS and 1 <= number <= COLOSSUS_CARDS, shown["Card"]
    assert number == COLOSSUS_CARDS - max(state.colossus_left, 1) + 1
    counts = {label: shown[label] for label in ROW_LABELS if label != "Card"}
    assert counts == {
        "Weakness": str(state.weakness),
        "Grip": str(state.grip),
        "Deck": str(state.action_deck),
        "Discard": str(state.discard),
        "In play": str(state.playing_area),
        "Hand": str(state.hand),
        "Advanced": str(state.advanced_deck),
    }
    assert panel.turn == RULES.current_player(state)
    assert panel.phase == PHASES[state.phase]
    assert panel.facts[0] == f"Round {state.round}: {PHASES[state.phase]}"
    assert any(f.startswith("Stats: ") for f in panel.facts) == (state.stats is not None)
    assert any(f.startswith("Colossus card: ") for f in panel.facts) == (
        state.current_card is not None
    )
    assert any(f.startswith("Final Blow: ") for f in panel.facts) == (state.final_blow is not None)
    assert (f"Cards destroyed: {state.destroyed}" in panel.facts) == (state.destroyed > 0)


def test_every_phase_has_words() -> None:
    assert set(PHASES) == set(typing.get_args(Phase))
    assert all(PHASES.values())


def test_fresh_game_panel_shows_the_trackers_and_the_full_deck() -> None:
    state = new_game()
    panel = RULES.panel(state)
    assert panel.columns == ("Netophah",)
    assert values(panel) == {
        "Weakness": "1",  # CS-R01
        "Grip": "8",  # CS-R01
        "Card": "1/11",
        "Deck": "26",
        "Discard": "0",
        "In play": "0",
        "Hand": "0",
        "Advanced": "6",
    }
    assert panel.facts == ("Round 1: Colossus card values",)
    assert panel.turn == 0
    assert panel.phase == "Colossus card values"
    check_panel_matches(state)


def test_panel_follows_a_round_card_stats_and_resolution() -> None:
    state = act(new_game(), EnterColossusCard(card=card(name="Og's heel")))  # CS-R12
    panel = RULES.panel(state)
    assert (values(panel)["Deck"], values(panel)["In play"], values(panel)["Hand"]) == (
        "22",
        "1",
        "3",
    )
    assert panel.phase == "stats"
    assert "Colossus card: Og's heel: Attack 2, Grip 2, Bonus 3, Climb 2" in panel.facts
    check_panel_matches(state)

    state = act(state, stats(attack=2, grip=2, climb=2))  # CS-R02
    panel = RULES.panel(state)
    assert panel.phase == "Netophah's power"
    assert panel.facts[0] == "Round 1: Netophah's power"
    assert "Stats: Attack 2, Grip 2, Bonus 0, Climb 2" in panel.facts
    assert (values(panel)["In play"], values(panel)["Hand"]) == ("4", "0")
    check_panel_matches(state)

    state = act(state, ResolveCard())  # Attack met: W 2 (CS-R01); Climb met: card 2
    panel = RULES.panel(state)
    assert values(panel)["Weakness"] == "2"
    assert values(panel)["Card"] == "2/11"
    assert values(panel)["Discard"] == "4"
    assert panel.facts[0] == "Round 2: Colossus card values"
    check_panel_matches(state)


def test_card_table_panel_names_the_current_card() -> None:
    state = new_game(card_table=table())
    assert state.current_card is not None
    panel = RULES.panel(state)
    assert f"Colossus card: {state.current_card.name}: " in "\n".join(panel.facts)
    assert panel.phase == "stats"
    check_panel_matches(state)


def test_the_card_counter_never_shows_past_11() -> None:
    """The status once read "Colossus card 12/11" while the round that climbed the last
    card went on; the panel reads the same card number (state.card_number)."""
    state = new_game(1, table())
    climbed = state.model_copy(
        update={"colossus_left": 0, "colossus_order": (), "current_card": None}
    )
    assert values(RULES.panel(climbed))["Card"] == "11/11"
    destroying = climbed.model_copy(update={"phase": "destroy", "destroy_rights": 1})
    assert values(RULES.panel(destroying))["Card"] == "11/11"
    last = state.model_copy(update={"colossus_left": 1, "colossus_order": state.colossus_order[:1]})
    assert values(RULES.panel(last))["Card"] == "11/11"


def _final_blow_values(state: ColossusSoloState) -> ColossusSoloState:
    """From step 4 of a round, the last Colossus card climbed: the Final Blow is next."""
    last = state.model_copy(
        update={
            "phase": "power",
            "colossus_left": 1,
            "colossus_order": state.colossus_order[:1],
            "stats": Stats(grip=5, climb=5),
        }
    )
    return act(last, ResolveCard())


def test_CS_R05_panel_shows_the_final_blow_requirements_and_the_end() -> None:
    state = act(new_game(), EnterColossusCard(card=card()), stats())
    state = _final_blow_values(state)
    panel = RULES.panel(state)
    assert panel.phase == "Final Blow values"
    assert values(panel)["Card"] == "11/11"
    check_panel_matches(state)
    state = act(state, EnterFinalBlow(n_cards=4, grip_req=3, attack_req=4))
    panel = RULES.panel(state)
    assert panel.phase == "Final Blow"
    assert "Final Blow: 4 cards, need Attack 4, Grip 3" in panel.facts
    check_panel_matches(state)
    one = act(new_game(), EnterColossusCard(card=card()), stats())
    one = act(_final_blow_values(one), EnterFinalBlow(n_cards=1, grip_req=3, attack_req=4))
    assert "Final Blow: 1 card, need Attack 4, Grip 3" in RULES.panel(one).facts
    won = act(state, stats(attack=4, grip=3))  # CS-R07
    panel = RULES.panel(won)
    assert panel.phase == "over" and panel.turn is None
    check_panel_matches(won)


def test_CS_R11_panel_counts_destroyed_cards() -> None:
    both = act(new_game(), EnterColossusCard(card=card(icons=("attack", "climb"))))
    both = act(both, stats(2, 2, 0, 2), ResolveCard())
    assert both.phase == "destroy"
    assert RULES.panel(both).phase == "destroy cards"
    gone = act(both, DestroyCards(count=2))
    panel = RULES.panel(gone)
    assert "Cards destroyed: 2" in panel.facts
    check_panel_matches(gone)


def test_CS_R01_after_a_fall_nobody_is_to_play_and_the_card_stays_the_one_fallen_from() -> None:
    state = new_game(seed=4)
    while RULES.outcome(state) is None:
        if state.phase == "colossus_card":
            state = act(state, EnterColossusCard(card=card(grip=4, climb=6)))
        elif state.phase == "penalty":
            state = act(state, PayPenalty(pay="grip"))
        else:
            state = act(state, stats(grip=1), ResolveCard())
    panel = RULES.panel(state)
    assert panel.turn is None and panel.phase == "over"
    assert values(panel)["Card"] == "1/11" and values(panel)["Grip"] == "1"
    check_panel_matches(state)


OPTIONS = st.fixed_dictionaries(
    {
        "depletion_trigger": st.sampled_from(["on_draw_attempt", "when_emptied"]),
        "card_table": st.sampled_from([None, table().model_dump(mode="json")]),
    }
)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.integers(0, 2**62), bot_seed=st.integers(0, 2**31))
def test_panel_has_one_value_per_row_over_random_play(
    options: dict[str, Any], seed: int, bot_seed: int
) -> None:
    start = RULES.setup(["Netophah"], RULES.parse_options(options), seed)
    check_panel_matches(start)
    played = random_game(RULES, start, bot_seed, limit=3000, check=check_panel_matches)
    assert RULES.outcome(played.final) is not None
