"""Lessons that teach, through the presenters (no Kivy): a suggestion never moves a piece
0 squares nor loses one of the player's own pieces, the summary counts only what the
player did, "Well done" only for the player's own action, every step shows its goal,
Redo is off after a take-back, and a game's first lesson uses a first game's options."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion.games import GAME_MODULES
from companion.games.island.colossi.model import ColossiState
from companion.session import Session
from companion.views import BoardView
from kiosk.presenters.lesson import KINDS, OFF_GOAL, LessonPresenter
from kiosk.presenters.play import PlayPresenter
from kiosk.teaching.lessons import lesson_for
from kiosk.teaching.progress import LessonPlace, TeachProgress
from tests.helpers.presenters import state_as

GAMES = tuple(name for name in GAME_MODULES if name != "toy_pig")
MAX_TAPS = 150


def _lesson(game: str) -> LessonPresenter:
    lesson = lesson_for(game)
    assert lesson is not None
    session = Session.new(game, lesson.players, lesson.options, seed=lesson.seed)
    play = PlayPresenter(session)
    play.teacher.start(TeachProgress())
    return LessonPresenter(play, lesson, LessonPlace())


def _taps(lesson: LessonPresenter) -> Iterator[None]:
    """Play the lesson to its end with "Got it", "Show me" and "Play it" only, stopping
    before each tap (the state it is about to act on can be read)."""
    taps = 0
    while not lesson.finished:
        taps += 1
        assert taps < MAX_TAPS, f"stuck at step {lesson.place.step + 1}"
        play = lesson.play
        if play.teacher.pause() is not None:
            play.teacher.next()
            continue
        yield
        view = lesson.view()
        assert view is not None
        if view.can_show:
            lesson.show_me()
        else:
            assert lesson.play_suggestion(), play.banner


def _own_pieces(board: BoardView | None, seat: int) -> int:
    if board is None:
        return 0
    return sum(p.count for cell in board.cells for p in cell.pieces if p.player == seat)


@pytest.mark.parametrize("game", GAMES)
def test_a_suggestion_never_moves_0_squares_nor_loses_an_own_piece(game: str) -> None:
    """Kolossus's "Moving a miniature" once suggested (1, 1) to (1, 1) while saying the
    lit squares are where it may stop; Beast Master's "Bring in an Acolyte" suggested a
    spawn onto the Beast's space, where the Acolyte dies at once (BM-R07)."""
    lesson = _lesson(game)
    rules = lesson.play.rules
    checked = 0
    for _ in _taps(lesson):
        pick, state, step = lesson.pick(), lesson.play.state, lesson.step
        if pick.action is None or step is None or lesson.play.queries.dice_request() is not None:
            continue
        cells = rules.action_cells(state, pick.action)
        assert cells.origin is None or cells.origin != cells.target, (step.title, pick.payload)
        seat = rules.current_player(state)
        if seat is not None and not step.loses:
            after, _ = rules.apply(state, pick.action)
            spawned = 1 if pick.payload is not None and pick.payload["type"] == "spawn" else 0
            before = _own_pieces(rules.board(state), seat) + spawned
            assert _own_pieces(rules.board(after), seat) >= before, (step.title, pick.payload)
        checked += 1
    assert checked >= len(lesson.lesson.steps) // 2


@pytest.mark.parametrize("game", GAMES)
def test_every_step_shows_its_goal_and_well_done_waits_for_the_player(game: str) -> None:
    """The heading (shown even beside a teach pause, when the panel is compact) names
    the step's goal, also while a roll or another player's turn comes first; "Play it"
    and "Show me" earn no "Well done": the player has not acted yet."""
    lesson = _lesson(game)
    for _ in _taps(lesson):
        view, step = lesson.view(), lesson.step
        assert view is not None and step is not None
        assert view.heading.endswith(f"{KINDS[step.kind]}: {step.goal}"), view.heading
        assert "Well done" not in view.feedback
    assert lesson.place.own == ()


@pytest.mark.parametrize("game", GAMES)
def test_the_summary_counts_only_the_steps_the_player_did(game: str) -> None:
    """With "Play it" and "Show me" throughout, the summary once said "You did 10 of
    the 11 steps yourself": those steps were the lesson's, not the player's."""
    lesson = _lesson(game)
    for _ in _taps(lesson):
        pass
    view = lesson.view()
    assert view is not None and view.finished
    total = len(lesson.lesson.steps)
    assert view.text.startswith(f"You did 0 of the {total} steps yourself")


def test_a_step_the_player_does_is_theirs_with_well_done() -> None:
    lesson = _lesson("builders")
    play = lesson.play
    taps = _taps(lesson)
    while lesson.step is None or lesson.step.kind != "try":
        next(taps)
    index, step = lesson.place.step, lesson.step
    while play.queries.dice_request() is not None or play.fix.step is not None:
        lesson.play_suggestion()
    payload = next(p for p in play.queries.legal_payloads() if p["type"] in step.types)
    assert play.submit(payload)  # the player's own choice, without "Show me"
    assert lesson.place.own == (index,) and lesson.feedback == f"Well done: {step.goal}."
    view = lesson.view()
    assert view is not None and lesson.place.step == index + 1


def test_redo_is_off_after_a_take_back() -> None:
    """Redo after a take-back played the refused action again (and the lesson took it
    back once more): Redo is off until the next action or Undo."""
    lesson = _lesson("builders")
    play = lesson.play
    before, moves = play.state, len(play.session.actions)
    other = next(p for p in play.queries.legal_payloads() if p["type"] != "build")
    assert play.submit(other)
    assert play.banner is not None and play.banner.code == OFF_GOAL
    assert not play.view().can_redo
    play.redo()
    assert play.state == before and len(play.session.actions) == moves
    assert play.notice != "Redone." and play.session.can_redo  # the journal kept it
    build = next(p for p in play.queries.legal_payloads() if p["type"] == "build")
    assert play.submit(build) and lesson.place.step == 1


def _first_game_options(game: str) -> dict[str, Any]:
    lesson = lesson_for(game)
    assert lesson is not None
    return dict(lesson.options)


def test_ca_r13_the_first_colossi_lesson_leaves_the_traits_out() -> None:
    """A first game of Colossi is played without Traits (the seed's designer note,
    CA-R13): the lesson used to be played with them and never explained them."""
    assert _first_game_options("colossi").get("use_traits") is False
    lesson = _lesson("colossi")
    for _ in _taps(lesson):
        assert not any(p["type"] == "take_trait" for p in lesson.play.queries.legal_payloads())
    assert state_as(lesson.play, ColossiState).options.use_traits is False


LESSON_TEXTS_FOUND_WRONG = [
    # (game, what a step must say, what a step said wrongly)
    ("colossus_solo", "If not, the same card stays", "Each round you turn up a Colossus card"),
    ("colossus_solo", "count the visible medallions", "Enter what you rolled"),
    ("colossi", "whatever the Acolytes", "stands there alone, or you have the most"),
    ("colossi", "unless its card says otherwise", "says how long the Age lasts"),
    ("beast_master", "whatever the Acolytes", "your Acolytes outnumber the rest"),
    (
        "beast_master",
        "an Acolyte spawned beside the Beast dies",
        "Spawn an Acolyte on your Colossus, or",
    ),
    ("kolossus", "that has not moved in this Quake", "any row or column from 3 to 7, east"),
    ("kolossus", "No miniature stands on the middle lines", "miniatures on it ride along"),
    ("kolossus", "A Warrior goes in one straight line", "in a straight line, one point a step"),
    ("builders", "you take 1 Rune from the stockpile", "Drawing is the simplest way."),
    ("builders", "you take 2 Runes from another player", "Reveal three cards from another hand"),
    ("builders", "The free refill to 10 Parts still happens", "No cards after a Curse"),
]


@pytest.mark.parametrize(("game", "says", "said"), LESSON_TEXTS_FOUND_WRONG)
def test_a_lesson_claim_found_wrong_now_says_what_the_rules_say(
    game: str, says: str, said: str
) -> None:
    """Every scripted first game had a false claim or a trap (a new Colossus card each
    round, dice in a game without dice, Beast Master's and Colossi's control rule, a
    quake line moving twice, Draw's cost never said): each step now says what the seed
    and the rulings say, and its examples run through the referee."""
    lesson = lesson_for(game)
    assert lesson is not None
    words = " ".join(f"{step.title} {step.text}" for step in lesson.steps)
    assert says in words and said not in words
