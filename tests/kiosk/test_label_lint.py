"""The label lint: what the play screen says is in the players' words.

Over every game, in positions a seeded random game reaches, every text a player reads —
each listed action as the game says it (``Rules.describe``), the menu's headings and
buttons, every form's title, field labels and choices, the game log, the status line,
the facts panel, the dice prompt and the refusal of an action listed a few moves before
— is checked by the one checker of tests/helpers/player_words.py for what a protocol
says and a table does not: a snake_case word, a payload key followed by its value ("cls
W", "a (0, 0)", "no build possible no", "action deck 26"), an island space by its ID
(``r3c3``), a "(s)" plural, a literal "…" (a cut text), a count with the wrong plural
("1 cards", "2 card"), or an abbreviation ("4 MP", "3 AP left", "W 1 · G 8").

Each game is its own case: a game whose phrasebook (companion/rules.py, "words") is not
written yet fails here by name. Cheap: a few positions of a short game per game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.errors import RuleViolation
from companion.games import GAME_MODULES, get_rules
from companion.rules import AnyRules
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from tests.helpers.player_words import text_problems

REAL_GAMES = tuple(name for name in GAME_MODULES if name != "toy_pig")  # toy: tests only
MOVES = 36  # per game: a short game's first rounds
LOOK_EVERY = 4  # positions looked at: every few moves
LISTED = 24  # described actions per position
REFUSED = 8  # actions of the position before applied to this one: their refusals
NAMES = ("Alexandra-Marie", "Bea", "Cy")


def shown_texts(game: str, seed: int = 5) -> Iterator[tuple[str, str, dict[str, Any] | None]]:
    """(where, text, the action's payload or None) of a short seeded random game."""
    rules = get_rules(game)
    count = max(rules.min_players, min(rules.max_players, 3))
    play = PlayPresenter(Session.new(game, list(NAMES[:count]), seed=seed))
    bot = RandomBot(seed)
    earlier: list[Any] = []  # the actions listed in the position looked at before
    for move in range(MOVES):
        if play.queries.outcome is not None:
            break
        if move % LOOK_EVERY == 0:
            state, where = play.state, f"{game} move {move}"
            yield from _table_texts(rules, state, where, earlier)
            earlier = list(rules.legal_actions(state))[:LISTED]
            for listed in earlier:
                payload = rules.dump_action(listed)
                yield f"{where} describe", rules.describe(state, listed), payload
            yield from _menu_texts(play, where)
            for line in play.view().log:
                yield f"{where} log", line.text, None
        while play.fix.step is not None:
            play.fix.next()
        action = bot.choose(rules, play.state)
        if action is None:
            break
        play.submit(action)


def _table_texts(
    rules: AnyRules, state: Any, where: str, earlier: list[Any]
) -> Iterator[tuple[str, str, dict[str, Any] | None]]:
    """The status line, the facts panel, the dice prompt, and the refusal of each action
    listed in the position looked at before (most are refused here)."""
    yield f"{where} status", rules.status(state), None
    panel = rules.panel(state)
    for text in (*panel.facts, *(value for row in panel.rows for value in row.values)):
        yield f"{where} panel", text, None
    dice = rules.dice_request(state)
    if dice is not None:
        yield f"{where} dice", dice.label, None
    for action in earlier[:REFUSED]:
        try:
            rules.apply(state, action)
        except RuleViolation as refused:
            yield f"{where} refusal", refused.message, None


def _menu_texts(
    play: PlayPresenter, where: str
) -> Iterator[tuple[str, str, dict[str, Any] | None]]:
    """The menu's headings and buttons of each group, and each group's form."""
    view = play.view()
    for group in view.groups:
        yield f"{where} heading", group.button_text, group.payload
        if group.plays:
            continue
        play.action_menu.choose_group(group.key)
        shown = play.view()
        for choice in shown.actions:
            yield f"{where} {group.key} button", choice.label, choice.payload
        if shown.formable:
            yield f"{where} {group.key} form row", shown.form_label, None
            if play.action_menu.open_form(group.key):
                form = play.view().form
                assert form is not None
                yield f"{where} {group.key} form title", form.title, None
                for field in form.fields:
                    yield f"{where} {group.key} field", field.label, None
                    yield f"{where} {group.key} value", field.value_text, None
                    for label in field.choice_labels:
                        yield f"{where} {group.key} choice", label, None
                play.forms.cancel()
    if view.group is not None:
        play.action_menu.choose_group(view.group)


def test_the_lint_catches_the_labels_players_could_not_read() -> None:
    """What the table showed when labels were made of payloads: each is caught."""
    caught: dict[str, dict[str, Any] | None] = {
        "Choose class: cls W": {"type": "choose_class", "cls": "W"},
        "Swap: a (0, 0), b (0, 1)": {"type": "swap", "a": "0,0", "b": "0,1"},
        "Move: piece colossus, origin r3c3, to r2c3": {"type": "move", "origin": "r3c3"},
        "End turn: no build possible no": {"type": "end_turn", "no_build_possible": False},
        "4 Movement(s) left": None,
        "1 Parts cards go from the deck to Ann": None,
        "2 card for Bea": None,
        "3 Colossus left": None,
        "Set the cards: action deck 26, hand 0": {"type": "c", "action_deck": 26, "hand": 0},
        "Start zone layout: Corner3x3 minus in…": None,
        "final_blow": None,
        "Round 2/8 · Tua'tha (Bea) · 3 AP left: choose a class": None,
        "move a Warrior (4 MP)": None,
        "Round 1 · Colossus card 1/11 · W 1 · G 8 · reveal the next card": None,
        "A Guardian costs 2 AP; you have 1 left.": None,
        "Grip req 5": None,
    }
    for text, payload in caught.items():
        assert text_problems(text, payload), text
    fine: dict[str, dict[str, Any] | None] = {
        "Move the Colossus from (1, 2) to (3, 4)": {"type": "move", "from": "1,2", "to": "3,4"},
        "Stay on (1, 2)": {"type": "move", "from": "1,2", "to": "1,2"},
        "1 Parts card goes from the deck to Ann": None,
        "2 cards, 1 die, 3 Colossi, 0 Runes": None,
        "Curse: Alexandra-Marie loses 1 Rune": {"type": "curse", "runes": [1, 0]},
        "Climb: discard the Colossus card (10 Colossus cards left).": None,
        "Play the Final Blow card": {"type": "play", "final_blow": True},
        "Build from the Blueprint in slot 1": {"type": "build", "slot": 1},
        "Visible stats: Attack 0, Grip 2": {"type": "stats", "attack": 0, "grip": 2},
        "see 3 Parts cards, take none": {"type": "reveal", "take": []},
        "Round 2/8 · Tua'tha (Bea) · 1 activation point left": None,
        "move a Warrior (4 movement points)": None,
        "Round 1 · Colossus card 1/11 · Weakness 1 · Grip 8": None,
        "Explore B4: roll the d6; Tua'tha rolls 2d4; Age I: Beast I b": None,
        "Ann draws 1 card; 2 more Movements this turn; 0 Gold cubes": None,
        "Put 1 Gold cube on A2; 1 listed Part; 1 Weakness level; 2 Crystals of Time": None,
    }
    for text, payload in fine.items():
        assert not text_problems(text, payload), (text, text_problems(text, payload))


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_shown_action_text_reads_as_players_say_it(game: str) -> None:
    bad: dict[str, str] = {}
    for where, text, payload in shown_texts(game):
        for problem in text_problems(text, payload):
            bad.setdefault(f"{text!r}: {problem}", where)
    assert not bad, f"{len(bad)} texts of {game} speak like the protocol:\n" + "\n".join(
        f"{text} ({where})" for text, where in list(bad.items())[:25]
    )


def test_teaching_texts_and_lessons_read_as_players_say_them() -> None:
    """The "Why?" texts, setup steps and the scripted first games' steps: the same checker
    (they once said "action points (AP)" and "1 movement point (MP)")."""
    from kiosk.teaching import load_teaching
    from kiosk.teaching.lessons import load_lessons

    bad: list[str] = []
    for name, file in load_teaching().files.items():
        said = [(f"{name} {ruling}", t.title, t.text) for ruling, t in file.texts.items()]
        said += [(f"{name} setup {n}", s.title, s.text) for n, s in enumerate(file.setup)]
        for where, *texts in said:
            bad += [f"{where}: {p} in {t!r}" for t in texts for p in text_problems(t)]
    for game, lesson in load_lessons().items():
        for number, step in enumerate(lesson.steps, start=1):
            for text in (step.title, step.text, step.goal):
                bad += [f"{game} step {number}: {p} in {text!r}" for p in text_problems(text)]
    assert bad == []


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_option_text_reads_as_players_say_it(game: str) -> None:
    """Setup's option texts (labels, values, descriptions, choices, "More rules")."""
    from kiosk.presenters.setup import SetupPresenter

    presenter = SetupPresenter(get_rules(game))
    presenter.toggle_more()
    view = presenter.view()
    texts = [view.more_text]
    for group in (*view.groups, *view.more):
        texts.append(group.title)
        for option in group.options:
            texts += [option.label, option.value_text, option.about, *option.choice_labels]
            for element in option.elements:
                texts += [element.label, *element.choice_labels]
    bad = {
        f"{problem} in {text!r}"
        for text in texts
        if text.strip()
        for problem in text_problems(text)
    }
    assert bad == set()
