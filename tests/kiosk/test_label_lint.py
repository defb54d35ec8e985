"""The label lint: what the play screen says of actions is in the players' words.

Over every game, in positions a seeded random game reaches, every text that shows an
action — each listed action as the game says it (``Rules.describe``), the menu's
headings and buttons, every form's title, field labels and choices, the game log — is
checked for what a protocol says and a table does not: a snake_case word, a payload
key followed by its value ("cls W", "a (0, 0)", "no build possible no", "action deck
26"), an island
space by its ID (``r3c3``), a "(s)" plural, a literal "…" (a cut text), or a count with
the wrong plural ("1 cards", "2 card").

Each game is its own case: a game whose phrasebook (companion/rules.py, "words") is not
written yet fails here by name. Cheap: a few positions of a short game per game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion.bot import RandomBot
from companion.games import GAME_MODULES, get_rules
from companion.session import Session
from kiosk.presenters.play import PlayPresenter

REAL_GAMES = tuple(name for name in GAME_MODULES if name != "toy_pig")  # toy: tests only
MOVES = 36  # per game: a short game's first rounds
LOOK_EVERY = 4  # positions looked at: every few moves
LISTED = 24  # described actions per position
NAMES = ("Alexandra-Marie", "Bea", "Cy")

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
SPACE_ID = re.compile(r"\br\d+c\d+\b")
#: Counted nouns the games use: "1 cards" and "2 card" are wrong (companion.words.count).
NOUNS = (
    "action|card|crystal|die|game|move|piece|player|point|round|rune|space|square|step"
    "|tile|token|turn|Banner|Beast|Colossus|Lair|Movement|Rune|Crystal"
)
#: A noun may follow a name that qualifies it: "1 Parts card", "2 Action cards".
QUALIFIED = r"(?:[A-Z][a-z]+ )?"
ONE_PLURAL = re.compile(rf"(?<![\d.])-?1 {QUALIFIED}(?:(?:{NOUNS})s|dice|Colossi)\b")
#: ... and a noun may qualify the counted one: "10 Colossus cards".
MANY_SINGULAR = re.compile(
    rf"(?<![\d.-])(?:0|[2-9]|\d\d+) {QUALIFIED}(?:{NOUNS})\b(?!-| [A-Za-z]+s\b)"
)
#: Payload keys that are also the words a sentence says them with ("from (1, 2) to (3, 4)").
#: A key and its value as one item of a list, the way labels made of payloads wrote them
#: ("Swap: a (0, 0), b (0, 1)"; "in slot 1" is a sentence, not an item).
KEY_VALUE = r"(?:^|[:,;] ){key}:? {value}(?=$|[,;.]| /)"
PLAIN_WORDS = frozenset({"to", "from", "at", "on", "in", "by", "with", "for", "of", "into"})


def _value_forms(value: Any) -> set[str]:
    """How a value was written after its key when labels were made of payloads."""
    if isinstance(value, bool):
        return {"yes", "no", str(value)}
    if isinstance(value, str):
        row, sep, col = value.partition(",")
        return {value, f"({row}, {col})"} if sep else {value}
    if isinstance(value, list | tuple):  # an empty one was "none": "take none" is English
        return {"+".join(str(v) for v in value)} if value else set()
    return {str(value)}


def problems(text: str, payload: dict[str, Any] | None = None) -> list[str]:
    """What is wrong with one shown text (``payload``: the action it says, if any)."""
    found: list[str] = []
    for pattern, what in (
        (SNAKE, "a snake_case word"),
        (SPACE_ID, "a space ID"),
        (ONE_PLURAL, "one with a plural"),
        (MANY_SINGULAR, "a count with a singular"),
    ):
        hit = pattern.search(text)
        if hit:
            found.append(f"{what} {hit.group(0)!r}")
    if "(s)" in text:
        found.append('"(s)"')
    if "…" in text:
        found.append('a literal "…"')
    for key, value in (payload or {}).items():
        if key == "type" or value is None:
            continue
        spoken = key.replace("_", " ")
        if key in PLAIN_WORDS:
            continue
        for form in _value_forms(value):  # as labels made of keys wrote them
            if re.search(KEY_VALUE.format(key=re.escape(spoken), value=re.escape(form)), text):
                found.append(f"the payload key {key!r} with its value")
                break
    return found


def shown_texts(game: str, seed: int = 5) -> Iterator[tuple[str, str, dict[str, Any] | None]]:
    """(where, text, the action's payload or None) of a short seeded random game."""
    rules = get_rules(game)
    count = max(rules.min_players, min(rules.max_players, 3))
    play = PlayPresenter(Session.new(game, list(NAMES[:count]), seed=seed))
    bot = RandomBot(seed)
    for move in range(MOVES):
        if play.outcome is not None:
            break
        if move % LOOK_EVERY == 0:
            state, where = play.state, f"{game} move {move}"
            for listed in list(rules.legal_actions(state))[:LISTED]:
                payload = rules.dump_action(listed)
                yield f"{where} describe", rules.describe(state, listed), payload
            yield from _menu_texts(play, where)
            for line in play.view().log:
                yield f"{where} log", line.text, None
        while play.fix_step is not None:
            play.next_fix_step()
        action = bot.choose(rules, play.state)
        if action is None:
            break
        play.submit(action)


def _menu_texts(
    play: PlayPresenter, where: str
) -> Iterator[tuple[str, str, dict[str, Any] | None]]:
    """The menu's headings and buttons of each group, and each group's form."""
    view = play.view()
    for group in view.groups:
        yield f"{where} heading", group.button_text, group.payload
        if group.plays:
            continue
        play.choose_group(group.key)
        shown = play.view()
        for choice in shown.actions:
            yield f"{where} {group.key} button", choice.label, choice.payload
        if shown.formable:
            yield f"{where} {group.key} form row", shown.form_label, None
            if play.open_form(group.key):
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
        play.choose_group(view.group)


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
    }
    for text, payload in caught.items():
        assert problems(text, payload), text
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
    }
    for text, payload in fine.items():
        assert not problems(text, payload), (text, problems(text, payload))


@pytest.mark.parametrize("game", REAL_GAMES)
def test_every_shown_action_text_reads_as_players_say_it(game: str) -> None:
    bad: dict[str, str] = {}
    for where, text, payload in shown_texts(game):
        for problem in problems(text, payload):
            bad.setdefault(f"{text!r}: {problem}", where)
    assert not bad, f"{len(bad)} texts of {game} speak like the protocol:\n" + "\n".join(
        f"{text} ({where})" for text, where in list(bad.items())[:25]
    )
