"""What the play presenter carries from one state to the next (the card
games' tap): an entry form's first view, kept for the same listed payload objects
(``KeptActions.made``; the action menu is said of its state, so made once per state),
and the log and last roll, read on from move to move (``kiosk/presenters/history.py``).
Pinned here: each is the same object while what it is made of stays, a fresh one
when any of it changed, and always equal to what a presenter that never saw the game
before makes (moves, undos and redos alike)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bot import RandomBot
from companion.events import DiceRolled
from companion.games import get_rules
from companion.games.builders.model import Curse, Draw
from companion.session import Session
from kiosk.presenters.history import LOG_LINES, History
from kiosk.presenters.payloads import KeptActions
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.play_view import LogLine
from kiosk.presenters.rolls import describe_roll

#: The card games' tap, and a game with dice for the last roll.
GAMES: list[tuple[str, tuple[str, ...]]] = [
    ("colossus_solo", ("Ann",)),
    ("builders", ("Ann", "Bob", "Cy")),
    ("kolossus", ("Ann", "Bob")),
]


def test_made_is_the_same_object_for_the_same_objects_and_fresh_for_any_other() -> None:
    kept = KeptActions(get_rules("builders"))
    draw, curse = kept.payload(Draw()), kept.payload(Curse(runes=(0, 1, 2)))
    made: list[int] = []

    def make() -> list[int]:
        made.append(1)
        return [len(made)]

    first = kept.made("menu", (draw, curse), make)
    assert kept.made("menu", (draw, curse), make) is first and len(made) == 1
    assert kept.made("menu", (dict(draw), curse), make) is not first  # an equal copy: anew
    assert kept.made("menu", (curse, draw), make) is not first  # another order: anew
    assert kept.made("other", (draw, curse), make) is not first  # another key: anew
    assert len(made) == 4


def _reference_log(session: Session) -> tuple[LogLine, ...]:
    """Every entry read afresh, newest first: what the log showed before it was carried."""
    lines: list[LogLine] = []
    entries = session.events
    for number in range(len(entries), 0, -1):
        lines.extend(LogLine(number=number, text=e.text) for e in entries[number - 1])
        if len(lines) >= LOG_LINES:
            break
    return tuple(lines[:LOG_LINES])


def _reference_roll(session: Session) -> DiceRolled | None:
    for events in reversed(session.events):
        for event in events:
            if isinstance(event, DiceRolled):
                return event
    return None


def _step(presenter: PlayPresenter, bot: RandomBot, move: int) -> None:
    """A move, an undo or a redo (an undo twice as often as a redo)."""
    session = presenter.session
    if move == 1 and session.can_undo:
        presenter.undo()
    elif move == 2 and session.can_redo:
        presenter.redo()
    else:
        action = bot.choose(presenter.rules, presenter.state)
        if action is not None:
            presenter.submit(action)


@settings(max_examples=30, deadline=None)
@given(
    game=st.integers(0, len(GAMES) - 1),
    seed=st.integers(0, 10_000),
    moves=st.lists(st.sampled_from([0, 0, 0, 1, 1, 2]), min_size=1, max_size=70),
)
def test_the_carried_log_roll_and_menu_are_what_a_fresh_presenter_makes_0_2_1(
    game: int, seed: int, moves: list[int]
) -> None:
    """After any moves, undos and redos (RULINGS 0.2.1: the undo/redo journal) the log,
    the last roll and the menu equal what a presenter new to the game makes (the menu
    is made anew for each state: its words are said of the position)."""
    name, players = GAMES[game]
    presenter = PlayPresenter(Session.new(name, players, seed=seed))
    bot = RandomBot(seed)
    for move in moves:
        before, listed = presenter.view(), tuple(presenter.queries.legal_payloads())
        _step(presenter, bot, move)
        view = presenter.view()
        session = presenter.session
        assert view.log == _reference_log(session)
        brief = presenter.queries.dice_request() is not None
        assert view.last_roll == describe_roll(_reference_roll(session), players, brief=brief)
        now = tuple(presenter.queries.legal_payloads())
        same = len(now) == len(listed) and all(a is b for a, b in zip(now, listed, strict=True))
        if view.actions is before.actions and view.actions:
            assert same and view.group == before.group  # kept only for the same objects
    fresh = PlayPresenter(presenter.session).view()
    view = presenter.view()
    assert (view.groups, view.group, view.actions) == (fresh.groups, fresh.group, fresh.actions)
    assert (view.more_actions, view.formable) == (fresh.more_actions, fresh.formable)


def test_history_starts_again_when_its_entries_are_no_longer_the_games_first_0_2_1() -> None:
    """An entry replaced (an undo, then another action) is read afresh, even when the
    newest entry is the very same object (an action with no events: the empty tuple)."""
    session = Session.new("builders", ("Ann", "Bob", "Cy"), seed=5)
    bot = RandomBot(5)
    for _ in range(4):
        session.submit(bot.choose(session.rules, session.state))
    history = History()
    entries = session.events
    history.read(entries)
    assert history.log == _reference_log(session)
    swapped = (*entries[:-2], entries[-1], ())  # other entries where the old ones were
    history.read(swapped)
    numbers = [line.number for line in history.log]
    assert numbers == sorted(numbers, reverse=True)
    expected = [
        LogLine(number=n, text=e.text) for n in range(len(swapped), 0, -1) for e in swapped[n - 1]
    ][:LOG_LINES]
    assert list(history.log) == expected


def test_an_entry_form_opens_with_the_kept_first_view_and_its_own_values_0_2_2() -> None:
    """The solo game waits for the card's values read off the table (RULINGS 0.2.2:
    unknown content is entered): the form opens with the same first view each time its
    example comes back, equal to a fresh form's, and a change in one form changes
    neither the kept view nor the next form."""
    presenter = PlayPresenter(Session.new("colossus_solo", ("Ann",), seed=2))
    form = presenter.forms.form
    assert form is not None
    first = form.view()
    again = PlayPresenter(presenter.session).forms.form
    assert again is not None and again.view() == first
    field = next(f for f in first.fields if f.kind == "stepper")
    form.step(field.key, 1)
    assert form.view() != first and form.view() is not first
    presenter.forms.cancel()
    assert presenter.submit(_any_action(presenter))
    presenter.undo()
    reopened = presenter.forms.form
    assert reopened is not None and reopened is not form
    assert reopened.view() is first  # the same example: the kept view, unchanged


def _any_action(presenter: PlayPresenter) -> Any:
    return next(iter(presenter.rules.legal_actions(presenter.state)))
