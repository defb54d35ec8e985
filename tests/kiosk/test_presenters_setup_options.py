"""Setup's options in players' words: grouped, house rules folded under "More rules",
the first game's rules named, descriptions on demand, and no identifier, raw list, "…"
or snake_case word anywhere in what the options part of Setup shows."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from companion.games import GAME_MODULES, get_rules
from companion.games.options import GROUP_TITLES
from kiosk.presenters.setup import SetupPresenter, SetupView

REAL_GAMES = tuple(name for name in GAME_MODULES if name != "toy_pig")  # toy: tests only

#: A ruling's ID ("K-R03", "BC-R12", "3.4") said after "Ruling": the one code shown.
RULING = re.compile(r"\bRulings? ([A-Z]{1,2}-R\d+|\d+(\.\d+)+)\b")
FAULTS = {
    "snake_case word": re.compile(r"\b[A-Za-z]+_[A-Za-z0-9_]+\b"),
    "identifier (letters and digits in one word)": re.compile(
        r"\b(?:[A-Za-z]+\d+[A-Za-z0-9]*|\d+[A-Za-z]+[A-Za-z0-9]*)\b"
    ),
    "camelCase word": re.compile(r"\b[a-z]+[A-Z][A-Za-z]*\b"),
    "raw list": re.compile(r"[\[\]{}]|\(\s*-?\d+(\s*,\s*-?\d+)+\s*\)"),
    "shortened text": re.compile(r"…|\.\.\."),
    "plural in brackets": re.compile(r"\(s\)"),
    "Python value": re.compile(r"\b(None|True|False)\b"),
}


def lint(text: str) -> list[str]:
    """What is wrong with one text of Setup's options part."""
    plain = RULING.sub("Ruling", text)
    return [fault for fault, pattern in FAULTS.items() if pattern.search(plain)]


def option_texts(view: SetupView) -> Iterator[tuple[str, str]]:
    """(where, text) for every text the options part of Setup shows in ``view``."""
    yield "more", view.more_text
    for group in (*view.groups, *view.more):
        yield f"group {group.key}", group.title
        for option in group.options:
            yield f"{option.name} label", option.label
            yield f"{option.name} value", option.value_text
            yield f"{option.name} about", option.about
            for choice in option.choice_labels:
                yield f"{option.name} choice", choice
            for element in option.elements:
                yield f"{option.name} entry", element.label
                for choice in element.choice_labels:
                    yield f"{option.name} entry choice", choice


def every_view(game: str) -> Iterator[SetupView]:
    """Setup as first shown, with "More rules" and every description open, with each
    list option set by hand, and with every choice of every option taken in turn."""
    rules = get_rules(game)
    names = tuple(f"Player {i + 1}" for i in range(rules.max_players))
    presenter = SetupPresenter(rules, names)
    yield presenter.view()
    presenter.toggle_more()
    for option in presenter.view().options:
        presenter.toggle_about(option.name)
        if option.kind == "list" and option.optional:
            presenter.toggle(option.name)
    yield presenter.view()
    for option in presenter.view().options:
        for choice in option.choices:
            presenter.choose(option.name, choice)
            yield presenter.view()
        if option.kind == "switch":
            presenter.toggle(option.name)
            yield presenter.view()


def test_the_lint_catches_what_setup_used_to_show() -> None:
    for shown in (
        "Start zone layout: Corner3x3 minus in…",
        "Central10",
        "All22",
        "Chapter   [1.8]",
        "(3, 2, 1, 0)",
        "quake_candidates",
        "None",
        "4 Movement(s) left",
    ):
        assert lint(shown), shown
    assert not lint("Central 10 regions. Ruling K-R03.")
    assert not lint("Seat of the player who takes the Mantle. Ruling 3.4.")


@pytest.mark.parametrize("game", REAL_GAMES)
def test_setup_options_speak_players_words(game: str) -> None:
    problems: set[str] = set()
    for view in every_view(game):
        for where, text in option_texts(view):
            if not text.strip() and not where.endswith("about"):
                problems.add(f"{where}: empty")
            problems |= {f"{where}: {fault} in {text!r}" for fault in lint(text)}
    assert not problems, "\n".join(sorted(problems))


def test_kolossus_first_screen_is_short_and_house_rules_fold() -> None:
    presenter = SetupPresenter(get_rules("kolossus"), ("Ann", "Bob"))
    view = presenter.view()
    first = [o.name for g in view.groups for o in g.options]
    assert first == ["chapter", "colours", "controllers", "first_corner", "weapons"]
    assert not view.more_open and view.more_text == "More rules: as printed"
    folded = {o.name for g in view.more for o in g.options}
    assert folded == {o.name for o in view.options if o.house_rule}
    assert len(folded) == 16
    assert all(not o.house_rule for g in view.groups for o in g.options)
    order: list[str] = list(GROUP_TITLES)
    keys = [g.key for g in view.more]
    assert keys == sorted(keys, key=lambda key: order.index(key))  # groups in the declared order
    assert [g.title for g in view.more][:2] == ["Start", "Great Quake"]
    presenter.toggle_more()
    assert presenter.view().more_open


def test_K_R03_a_changed_house_rule_is_counted_and_rules_as_printed_restores_it() -> None:
    presenter = SetupPresenter(get_rules("kolossus"), ("Ann", "Bob"))
    presenter.choose("quake_candidates", "all22")
    presenter.toggle("allies_are_friendly")
    presenter.choose("chapter", 3)  # a choice of the table, not a house rule
    view = presenter.view()
    assert view.house_rules_changed == 2
    assert view.more_text == "More rules: 2 changed from the rules as printed"
    quake = next(o for o in view.options if o.name == "quake_candidates")
    assert quake.value_text == "All 22 regions" and quake.changed
    assert quake.choice_labels == ("Central 10 regions", "All 22 regions")
    presenter.as_printed()
    assert presenter.options_dict() == {"chapter": 3}  # the journal's field names, values
    assert presenter.view().more_text == "More rules: as printed"


def test_descriptions_show_on_demand_with_the_printed_rule_and_its_ruling() -> None:
    presenter = SetupPresenter(get_rules("kolossus"), ("Ann", "Bob"))
    quake = next(o for o in presenter.view().options if o.name == "quake_candidates")
    assert not quake.about_open
    presenter.toggle_about("quake_candidates")
    quake = next(o for o in presenter.view().options if o.name == "quake_candidates")
    assert quake.about_open
    assert quake.about.startswith(quake.description)
    assert "As printed: Central 10 regions." in quake.about
    assert quake.about.endswith("Ruling K-R03.")
    presenter.toggle_about("quake_candidates")
    assert not next(o for o in presenter.view().options if o.name == "quake_candidates").about_open


def test_values_are_words_seats_are_names_and_lists_are_sentences() -> None:
    presenter = SetupPresenter(get_rules("kolossus"), ("Ann", "Bob"))
    options = {o.name: o for o in presenter.view().options}
    assert options["start_zone_layout"].value_text == "Corner blocks of 8"
    assert options["mana_table"].value_text == "3, 2, 1 and 0"
    assert options["chapter"].choice_labels[0] == "1: The Arrival"
    colossi = SetupPresenter(get_rules("colossi"), ("Ann", "Bob"))
    mantle = next(o for o in colossi.view().options if o.name == "mantle_holder")
    assert mantle.value_text == "Ann"
    colossi.step("mantle_holder", 1)
    assert next(o for o in colossi.view().options if o.name == "mantle_holder").value_text == "Bob"
