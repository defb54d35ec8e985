"""Action forms: open amounts entered field by field, within the model's bounds."""

from __future__ import annotations

from companion.games import get_rules
from companion.games.colossus_solo.model import EnterStats
from companion.session import Session
from kiosk.presenters.forms import ActionForm, FormWords
from kiosk.presenters.payloads import Payload
from kiosk.presenters.play import PlayPresenter
from tests.kiosk.helpers import assert_imports_without_kivy


def _words(*names: str) -> FormWords:
    """What a Builders form says at a table of ``names``."""
    rules = get_rules("builders")
    return FormWords(rules, rules.setup(names, rules.options_model(), seed=1))


def test_forms_do_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.forms", "tests.kiosk.test_presenters_forms")


def test_action_models_from_the_union() -> None:
    models = get_rules("builders").action_models()
    assert {"curse", "trade", "draw", "reveal", "build", "end_turn"} <= set(models)


def test_curse_form_has_one_stepper_per_player() -> None:
    model = get_rules("builders").action_models()["curse"]
    form = ActionForm(model, {"type": "curse", "runes": [0, 1, 0]}, _words("Ann", "Bob", "Cy"))
    labels = [f.label for f in form.view().fields]
    assert labels == ["Runes: Ann", "Runes: Bob", "Runes: Cy"]
    form.step("runes.0", 1)
    form.step("runes.2", -1)  # below 0: refused
    assert form.payload() == {"type": "curse", "runes": [1, 1, 0]}


def test_trade_partner_is_a_choice_of_names() -> None:
    model = get_rules("builders").action_models()["trade"]
    form = ActionForm(
        model,
        {
            "type": "trade",
            "partner": 1,
            "cards_received": 1,
            "cards_given": 0,
            "runes_received": 0,
            "runes_given": 0,
        },
        _words("Ann", "Bob", "Cy"),
    )
    partner = next(f for f in form.view().fields if f.key == "partner")
    assert partner.kind == "choice" and partner.value_text == "Bob"
    form.choose("partner", 2)
    assert form.payload()["partner"] == 2


def test_BC_R09_curse_form_refusal_keeps_the_form_open() -> None:
    presenter = PlayPresenter(Session.new("builders", ["Ann", "Bob"], seed=1))
    presenter.action_menu.choose_group("curse")
    assert presenter.action_menu.open_form("curse")
    form = presenter.view().form
    assert form is not None
    while form.fields[0].value in (0, 1):  # the Curse's Runes stepped up to 2
        presenter.forms.step("runes.0", 1)
        form = presenter.view().form
        assert form is not None
    assert presenter.forms.submit() is False
    view = presenter.view()
    assert view.banner is not None and view.banner.ruling == "BC-R09"
    assert view.form is not None  # fix the amounts and try again
    presenter.forms.step("runes.0", -1)
    assert presenter.forms.submit() is True
    assert presenter.view().form is None


def test_solo_entry_forms_open_by_themselves_and_nest() -> None:
    presenter = PlayPresenter(Session.new("colossus_solo", ["Mara"], seed=2))
    form = presenter.view().form
    assert form is not None and form.type == "enter_colossus_card"
    kinds = {f.key: f.kind for f in form.fields}
    assert kinds["card.attack.value"] == "stepper" and kinds["card.attack.destroy"] == "switch"
    assert presenter.forms.submit()
    form = presenter.view().form
    assert form is not None and form.type == "enter_stats"
    presenter.forms.step("climb", 1)
    presenter.forms.step("climb", 1)
    assert presenter.forms.form is not None and presenter.forms.form.payload()["climb"] == 2
    assert presenter.forms.submit()
    played = presenter.session.actions[-1]
    assert isinstance(played, EnterStats) and played.climb == 2


def test_optional_amount_steps_through_none() -> None:
    model = get_rules("builders").action_models()["build"]
    form = ActionForm(
        model,
        {
            "type": "build",
            "slot": 1,
            "rune_cost": 3,
            "accessories": 0,
            "cards": 5,
            "parts": None,
            "blueprint": None,
            "colossus_name": None,
        },
        _words("Ann", "Bob"),
    )
    cost = next(f for f in form.view().fields if f.key == "rune_cost")
    assert cost.optional and cost.value == 3


def test_a_steppers_minus_and_plus_are_on_within_its_bounds() -> None:
    """The presenter decides which of − and + a number field allows (the screen only
    draws it): an optional field steps down to "—" and up again from there."""
    model = get_rules("builders").action_models()["curse"]
    form = ActionForm(model, {"type": "curse", "runes": [0, 99, 5]}, _words("Ann", "Bob", "Cy"))
    low, high, middle = form.view().fields
    assert (low.can_decrease, low.can_increase) == (False, True)
    assert (high.can_decrease, high.can_increase) == (True, False)
    assert (middle.can_decrease, middle.can_increase) == (True, True)
    model = get_rules("builders").action_models()["build"]
    build: Payload = {"type": "build", "slot": 1, "rune_cost": None, "accessories": 0, "cards": 5}
    cost = next(
        f
        for f in ActionForm(model, build, _words("Ann", "Bob")).view().fields
        if f.key == "rune_cost"
    )
    assert cost.optional and (cost.can_decrease, cost.can_increase) == (False, True)


def test_a_form_view_is_made_again_only_after_a_value_changed() -> None:
    model = get_rules("builders").action_models()["curse"]
    form = ActionForm(model, {"type": "curse", "runes": [0, 1, 0]}, _words("Ann", "Bob", "Cy"))
    view = form.view()
    assert form.view() is view
    form.step("runes.0", -1)  # below 0: refused, nothing changed
    assert form.view() is view
    form.step("runes.0", 1)
    changed = form.view()
    assert changed is not view and changed.fields[0].value == 1
    assert form.view() is changed
