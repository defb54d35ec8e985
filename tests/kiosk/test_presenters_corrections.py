"""The play screen's "Correct the table" group (RULINGS 0.2.1).

Every game's manual corrections appear as one extra group of the action menu; a tap on
one opens its form prefilled with the current values (never sends it unchanged), and the
submitted correction is an ordinary undoable action.
"""

from __future__ import annotations

from companion.games.builders.model import BuildersState
from companion.session import Session
from kiosk.presenters.play import CORRECTIONS_GROUP, CORRECTIONS_LABEL, PlayPresenter
from tests.helpers.presenters import state_as


def builders() -> PlayPresenter:
    return PlayPresenter(Session.new("builders", ("Ann", "Bob"), seed=5))


def test_0_2_1_corrections_are_one_extra_group_not_the_default() -> None:
    presenter = builders()
    view = presenter.view()
    last = view.groups[-1]
    assert (last.key, last.label, last.count) == (CORRECTIONS_GROUP, CORRECTIONS_LABEL, 6)
    assert view.group != CORRECTIONS_GROUP
    assert not any(str(a.payload["type"]).startswith("correct_") for a in view.actions)
    presenter.action_menu.choose_group(CORRECTIONS_GROUP)
    view = presenter.view()
    assert view.group == CORRECTIONS_GROUP and not view.formable
    rules, state = presenter.rules, presenter.state
    first = rules.parse_action(view.actions[0].payload)
    assert view.actions[0].label == rules.describe(state, first)  # the game's words


def test_0_2_1_a_tap_opens_the_prefilled_form_and_submitting_corrects() -> None:
    presenter = builders()
    presenter.action_menu.choose_group(CORRECTIONS_GROUP)
    payloads = [a.payload for a in presenter.view().actions]
    index = next(i for i, p in enumerate(payloads) if p["type"] == "correct_runes" and p["player"])
    assert presenter.action_menu.choose(index) is True
    assert presenter.session.actions == ()  # opened, not sent
    form = presenter.view().form
    assert form is not None and form.title == presenter.rules.family_title("correct_runes")
    fields = {f.key: f for f in form.fields}
    assert fields["player"].value_text == "Bob" and fields["runes"].value == 10
    presenter.forms.step("runes", -3)
    assert presenter.forms.submit() is True
    assert state_as(presenter, BuildersState).runes == (10, 7)
    assert presenter.view().log[0].text == "Manual correction: Bob's Runes 10 → 7 (stockpile)."
    presenter.undo()
    assert state_as(presenter, BuildersState).runes == (10, 10)


def test_0_2_1_an_unchanged_correction_is_refused_with_its_ruling() -> None:
    presenter = builders()
    presenter.action_menu.choose_group(CORRECTIONS_GROUP)
    presenter.action_menu.choose(0)
    assert presenter.forms.submit() is False
    banner = presenter.view().banner
    assert banner is not None and banner.ruling == "0.2.1"
    assert "Nothing to correct" in banner.message
    assert presenter.view().form is not None  # stays open to be edited


def test_0_2_1_focus_narrows_corrections_to_that_space() -> None:
    presenter = PlayPresenter(Session.new("beast_master", ("Ann", "Bob"), seed=2))
    presenter.action_menu.choose_group(CORRECTIONS_GROUP)
    everything = presenter.view().actions
    presenter.board_input.tap_cell("r1c1")
    focused = presenter.view().actions
    assert len(focused) == 1 < len(everything)
    assert focused[0].payload == {
        "type": "correct_space",
        "space": "r1c1",
        "acolytes": [0, 0],
        "colossi": [0, 0],
        "cubes": None,
    }


def test_0_2_1_games_without_corrections_or_over_show_no_group() -> None:
    pig = PlayPresenter(Session.new("toy_pig", ("Ann",), seed=1))
    assert all(g.key != CORRECTIONS_GROUP for g in pig.view().groups)
    presenter = builders()
    presenter.submit({"type": "correct_built", "player": 0, "colossi": 10})
    assert presenter.session.outcome is not None
    assert presenter.queries.correction_payloads() == []
    assert all(g.key != CORRECTIONS_GROUP for g in presenter.view().groups)
