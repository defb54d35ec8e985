"""Every place of the kiosk that shows an action reads the game's words
(companion/rules.py, "words"), never the action's payload keys.

The game's phrasebook is replaced here by one whose every answer is recognisable
("Said: …", "Family …", "Field …", "Value …", "Cell …"), so each text on screen is seen
to come from the contract: menus and their headings (a tab that plays a group of one too),
forms (title, field labels, choices) — also for an action not yet complete — the undo
notice, the lesson's suggestion, "Why?" and the referee's ``legal``. A move that stays
where it stands (RULINGS 1.5) is listed last.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.games import GAME_MODULES, get_rules
from companion.journal import Journal
from companion.protocol import Referee
from companion.rules import Rules
from companion.session import Session
from kiosk.presenters.forms import ActionForm, FormWords
from kiosk.presenters.lesson import LessonPresenter
from kiosk.presenters.payloads import Payload
from kiosk.presenters.play import PlayPresenter
from kiosk.teaching.lessons import lesson_for
from kiosk.teaching.progress import LessonPlace


def _said(self: Any, state: Any, action: Any) -> str:
    return f"Said: {action.type} {sorted(self.dump_action(action).items())[:1]}"


def _family(self: Any, action_type: str) -> str:
    return f"Family {action_type.upper()}"


def _field(self: Any, action_type: str, field: str) -> str:
    return f"Field {field.upper()}"


def _value(self: Any, state: Any, action_type: str, field: str, value: object) -> str:
    return f"Value {value}"


def _cell(self: Any, state: Any, cell: str) -> str:
    return f"Cell {cell.replace(',', '.')}"


def _stays(self: Any, state: Any, action: Any) -> bool:
    dumped: dict[str, Any] = self.dump_action(action)
    return bool(dumped.get("type") == "move" and dumped.get("from") == dumped.get("to"))


@pytest.fixture
def phrasebook(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every game says everything in the recognisable words above (its own phrasebook,
    where it has one, replaced too)."""
    for rules_class in {Rules, *(type(get_rules(name)) for name in GAME_MODULES)}:
        for name, replacement in (
            ("describe", _said),
            ("family_title", _family),
            ("field_words", _field),
            ("value_words", _value),
            ("cell_words", _cell),
            ("stays", _stays),
        ):
            monkeypatch.setattr(rules_class, name, replacement)
    yield


def _to_a_move(seed: int = 3) -> PlayPresenter:
    """A Kolossus game at its first move phase, a warrior selected (its moves listed)."""
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=seed))
    bot = RandomBot(seed)
    for _ in range(200):
        while presenter.fix.step is not None:
            presenter.fix.next()
        moves = [p for p in presenter.queries.legal_payloads() if p.get("type") == "move"]
        if moves:
            presenter.board_input.tap_cell(str(moves[0]["from"]))
            return presenter
        action = bot.choose(presenter.rules, presenter.state)
        assert action is not None
        presenter.submit(action)
    raise AssertionError("no move phase reached")


def test_the_menu_says_what_the_game_says_and_lists_a_stay_last_1_5(phrasebook: None) -> None:
    presenter = _to_a_move()
    view = presenter.view()
    assert view.group == "move"
    for group in view.groups:  # a tab has room for the family's title, not a sentence
        if group.key != "correct_the_table":
            assert group.label == f"Family {group.key.upper()}"
    assert view.actions and all(a.label.startswith("Said: move") for a in view.actions)
    stays = [a.payload["from"] == a.payload["to"] for a in view.actions]
    assert any(stays), "the selected piece may stop where it stands (RULINGS 1.5)"
    first = stays.index(True)
    assert all(stays[first:]), f"a stay is listed before a move: {stays}"
    assert first > 0


def test_the_undo_notice_and_why_say_the_games_words(phrasebook: None) -> None:
    presenter = _to_a_move()
    focus = presenter.board_input.focus
    assert focus is not None
    presenter.teacher.explain_table()
    why = presenter.view().why
    assert why is not None
    assert f"Picked: Cell {focus.replace(',', '.')}" in why.situation
    lit = [line for entry in why.entries for line in entry.here if line.startswith("Lit as")]
    assert lit and all("Cell " in line for line in lit), lit
    payload = presenter.view().actions[0].payload
    assert presenter.submit(payload)
    presenter.undo()
    assert presenter.view().notice == "Took back: Said: move " + str(
        sorted(presenter.rules.dump_action(presenter.rules.parse_action(payload)).items())[:1]
    )


def test_a_form_says_the_games_title_fields_and_values(phrasebook: None) -> None:
    rules = get_rules("builders")
    state = rules.setup(("Ann", "Bob"), rules.options_model(), seed=1)
    model = rules.action_models()["trade"]
    partial: Payload = {  # an action not yet complete: the form still has its family's title
        "type": "trade",
        "partner": 1,
        "cards_received": 1,
        "cards_given": 0,
        "runes_received": 0,
        "runes_given": 0,
    }
    view = ActionForm(model, partial, FormWords(rules, state)).view()
    assert view.title == "Family TRADE"
    labels = {f.key: f.label for f in view.fields}
    assert labels["cards_received"] == "Field CARDS_RECEIVED"
    assert next(f for f in view.fields if f.key == "partner").value_text == "Bob"
    curse = ActionForm(
        rules.action_models()["curse"], {"type": "curse", "runes": [0, 1]}, FormWords(rules, state)
    ).view()
    assert [f.label for f in curse.fields] == ["Field RUNES: Ann", "Field RUNES: Bob"]


def test_a_choice_in_a_form_is_said_by_the_game(phrasebook: None) -> None:
    """A field of a few named values (a Literal) shows each as the game says it."""
    presenter = PlayPresenter(Session.new("colossus_solo", ["Mara"], seed=2))
    form = presenter.view().form
    assert form is not None and form.title == f"Family {form.type.upper()}"
    choices = [f for f in form.fields if f.kind == "choice" and f.choice_labels]
    for field in choices:
        assert all(
            label.startswith(("Value ", "Auto", "Yes", "No")) for label in field.choice_labels
        )
    assert all(f.label.startswith("Field ") for f in form.fields)


def test_the_lesson_suggests_in_the_games_words(phrasebook: None) -> None:
    lesson = lesson_for("builders")
    assert lesson is not None
    session = Session.new("builders", lesson.players, lesson.options, seed=lesson.seed)
    play = PlayPresenter(session)
    presenter = LessonPresenter(play, lesson, LessonPlace(), None)
    for _ in range(40):
        view = presenter.view()
        assert view is not None
        if "Said: " in view.suggestion:
            return
        if play.teacher.pause() is not None:
            play.teacher.next()
        elif view.can_show:
            presenter.show_me()
        else:
            assert presenter.play_suggestion(), play.banner
    raise AssertionError("the lesson never suggested an action in the game's words")


def test_the_referees_legal_lists_each_actions_text(phrasebook: None) -> None:
    referee = Referee(Journal(":memory:"), lambda: 1234)
    new = {"cmd": "new", "game": "builders", "players": ["Ann", "Bob"]}
    assert json.loads(referee.handle(json.dumps(new)))["ok"]
    reply = json.loads(referee.handle(json.dumps({"cmd": "legal", "limit": 5})))
    assert reply["ok"] and len(reply["texts"]) == len(reply["actions"]) > 0
    for action, text in zip(reply["actions"], reply["texts"], strict=True):
        assert text.startswith(f"Said: {action['type']}")
    again = json.dumps({"cmd": "act", "action": reply["actions"][0]})
    assert json.loads(referee.handle(again))["ok"]  # an action is sent back as listed


def test_each_button_is_what_the_game_says_of_its_action() -> None:
    """With the game's own phrasebook (or, while it is not written, the contract's
    default: the family's title), never a label made of payload keys."""
    presenter = _to_a_move()
    rules = presenter.rules
    for choice in presenter.view().actions:
        assert choice.label == rules.describe(presenter.state, rules.parse_action(choice.payload))
