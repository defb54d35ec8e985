"""Each listed action's payload and label made once per action value.

The card games list the same action objects turn after turn (made once per value, as
Kolossus's moves), and the play presenter keeps each one's dump, menu label and the
menu's form check by identity (``kiosk/presenters/payloads.py``, ``KeptActions``).
Pinned here: a kept value is the same object while its action is listed again, and a
fresh one for any other object — an equal action made anew, another state's list, a
full memo started again — so nothing stale is ever shown; and the rules list exactly
what they listed before (the same values, now the same objects).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_rules
from companion.games.builders.model import Curse, Draw, Trade
from companion.games.builders.rules import RULES as BUILDERS
from companion.games.builders.views import builders_card_cells
from companion.games.colossus_solo.views import colossus_solo_card_cells
from kiosk.presenters import payloads
from kiosk.presenters.payloads import KeptActions, Payload
from tests.helpers.cards import GAMES
from tests.helpers.cards import played as _played


def test_a_kept_payload_is_the_same_object_for_its_action_and_fresh_for_another() -> None:
    kept = KeptActions(get_rules("builders"))
    draw = Draw()
    first = kept.payload(draw)
    assert kept.payload(draw) is first
    again = Draw()  # an equal value, another object: dumped anew, never mixed up
    assert kept.payload(again) == first and kept.payload(again) is not first
    trade = Trade(partner=1, cards_received=1)
    assert kept.payload(trade) == BUILDERS.dump_action(trade)


def test_a_full_memo_starts_again_with_fresh_values(monkeypatch: Any) -> None:
    monkeypatch.setattr(payloads, "MAX_KEPT_ACTIONS", 2)
    kept = KeptActions(get_rules("builders"))
    curses = [Curse(runes=(0, k, 1)) for k in range(3)]
    first = kept.payload(curses[0])
    kept.payload(curses[1])
    kept.payload(curses[2])  # the memo was full: it starts again
    assert kept.payload(curses[0]) == first and kept.payload(curses[0]) is not first


def test_a_kept_label_is_the_games_words_for_the_payload_object_in_its_state() -> None:
    kept = KeptActions(get_rules("builders"))
    state = BUILDERS.setup(("Ann", "Bob"), BUILDERS.options_model(), seed=1)
    trade = Trade(partner=1, cards_received=1)
    payload = kept.payload(trade)
    label = kept.label(state, payload)
    assert label == BUILDERS.describe(state, trade)
    assert kept.label(state, payload) is label  # said once per payload and state
    later = BUILDERS.setup(("Ann", "Bea"), BUILDERS.options_model(), seed=1)
    assert kept.label(later, payload) == BUILDERS.describe(later, trade)
    assert kept.action(payload) is trade  # the action it was dumped from
    partial: Payload = {"type": "trade", "partner": None}  # a form not yet complete
    assert kept.label(state, partial) == BUILDERS.family_title("trade")


def test_a_verdict_is_asked_once_per_list_of_payload_objects() -> None:
    kept = KeptActions(get_rules("builders"))
    listed = tuple(kept.payload(Curse(runes=(0, 1, k))) for k in range(1, 3))
    asked: list[int] = []

    def judge() -> bool:
        asked.append(1)
        return True

    assert kept.verdict("curse", listed, judge) and kept.verdict("curse", listed, judge)
    assert len(asked) == 1
    copies = tuple(dict(p) for p in listed)  # equal payloads, other objects: asked again
    assert kept.verdict("curse", copies, judge) and len(asked) == 2
    assert kept.verdict("trade", listed, judge) and len(asked) == 3


@settings(max_examples=20, deadline=None)
@given(game=st.integers(0, len(GAMES) - 1), seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_the_menu_is_kept_until_the_state_changes_then_made_again(
    game: int, seed: int, steps: int
) -> None:
    """The derived menu is the same object while the state stands and a fresh one after
    a move that lists other payloads; each label is what ``Rules.describe`` says of its
    action, and an action listed again keeps its payload object (and so its label)
    across the move."""
    presenter = _played(game, seed, steps)
    view = presenter.view()
    if presenter.queries.outcome is not None or not view.actions:
        return
    assert presenter.view().actions is view.actions
    rules, state = presenter.rules, presenter.state
    for choice in view.actions:
        assert choice.label == rules.describe(state, rules.parse_action(choice.payload))
    listed_before = presenter.queries.legal_payloads()
    before = {id(p): p for p in listed_before}
    assert presenter.action_menu.choose(0) or presenter.forms.form is not None
    after = presenter.view()
    # A fresh menu after a move, unless the move left the very same payload objects
    # listed (then the menu made of them is kept: tests/kiosk/test_presenters_carried.py).
    unchanged = len(presenter.queries.legal_payloads()) == len(listed_before) and all(
        a is b for a, b in zip(presenter.queries.legal_payloads(), listed_before, strict=True)
    )
    assert after.actions is not view.actions or not after.actions or unchanged
    rules, state = presenter.rules, presenter.state
    for choice in after.actions:
        assert choice.label == rules.describe(state, rules.parse_action(choice.payload))
    listed = presenter.queries.legal_payloads()
    assert listed == [
        presenter.rules.dump_action(a) for a in presenter.queries.derived().actions or ()
    ]
    for payload in listed:  # a payload object seen before is the same action's
        if id(payload) in before:
            assert before[id(payload)] is payload


@settings(max_examples=20, deadline=None)
@given(game=st.integers(0, len(GAMES) - 1), seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_the_card_games_list_their_actions_as_the_same_objects_each_time_bc_r09_cs_r11(
    game: int, seed: int, steps: int
) -> None:
    """Listing twice gives the very same objects (made once per value: Curses per table
    size and seat, BC-R09; destroy choices, CS-R11; a card's stats), equal to freshly
    made ones; and each action's cells are those its dump names."""
    presenter = _played(game, seed, steps)
    rules, state = presenter.rules, presenter.state
    first, second = list(rules.legal_actions(state)), list(rules.legal_actions(state))
    assert len(first) == len(second)
    assert all(a is b for a, b in zip(first, second, strict=True))
    for action in first:
        fresh = type(action).model_validate(rules.dump_action(action))
        assert fresh == action
    cells_of = {"builders": builders_card_cells, "colossus_solo": colossus_solo_card_cells}
    for action in first:  # read off the action's fields: what its dump names
        assert rules.action_cells(state, action) == cells_of[rules.name](rules.dump_action(action))
