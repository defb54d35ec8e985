"""Home presenter: games present, resumable games, recent results."""

from __future__ import annotations

from companion.games import available_games
from companion.journal import Journal
from companion.session import Session
from kiosk.presenters.home import HomePresenter, lesson_games
from kiosk.teaching.lessons import load_lessons
from tests.kiosk.helpers import assert_imports_without_kivy


def test_home_presenter_does_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.home", "tests.kiosk.test_presenters_home")


def test_learn_it_is_offered_for_exactly_the_lessons_shipped() -> None:
    # Home lists the lesson files without reading them (launch); each one is a lesson.
    assert lesson_games() == set(load_lessons())


def test_lists_the_games_of_this_build() -> None:
    view = HomePresenter(Journal(":memory:")).view()
    assert [c.name for c in view.games] == available_games()
    solo = [c for c in view.games if c.name == "colossus_solo"]
    assert not solo or solo[0].players == "1 player"


def test_a_broken_game_module_is_reported_not_fatal() -> None:
    view = HomePresenter(Journal(":memory:"), games=lambda: ["toy_pig", "no_such_game"]).view()
    assert [c.name for c in view.games] == ["toy_pig"]
    assert len(view.problems) == 1 and "no_such_game" in view.problems[0]


def test_unfinished_games_are_resumable_and_finished_ones_are_results() -> None:
    journal = Journal(":memory:")
    active = Session.new("toy_pig", ["Ann", "Bob"], seed=1, journal=journal)
    active.submit({"type": "roll", "values": [4], "source": "manual"})
    done = Session.new("toy_pig", ["Cy"], {"target": 5}, seed=2, journal=journal)
    done.submit({"type": "roll", "values": [6], "source": "manual"})
    done.submit({"type": "hold"})
    assert done.outcome is not None
    view = HomePresenter(journal, games=lambda: ["toy_pig"]).view()
    assert [r.game_id for r in view.resumable] == [active.game_id]
    assert view.resumable[0].players == "Ann, Bob"
    assert "1 moves" in view.resumable[0].detail
    assert [r.game_id for r in view.recent] == [done.game_id]
    assert "Cy wins" in view.recent[0].text


def test_lessons_never_crowd_out_real_games() -> None:
    """Every "Learn it" is journaled (a power cut resumes it) as a demo game: one
    unfinished lesson is offered beside the real games, never in their place, and a
    finished lesson is not a result."""
    journal = Journal(":memory:")
    real = [
        Session.new("builders", ["Ann", f"P{n}"], seed=n, journal=journal).game_id for n in range(6)
    ]
    for n in range(4):
        Session.new("builders", ["Ann", "Bob"], seed=90 + n, journal=journal, demo=True)
    finished = Session.new("builders", ["Ann", "Bob"], seed=99, journal=journal, demo=True)
    assert finished.game_id is not None
    journal.set_outcome(finished.game_id, {"text": "Ann wins"})
    view = HomePresenter(journal).view()
    ids = [card.game_id for card in view.resumable]
    assert set(real) <= set(ids)
    assert [c.title for c in view.resumable if c.game_id not in real] == [
        "Lesson: Builders of the Colossus"
    ]
    assert view.recent == ()


def test_a_filter_keeps_other_games_off_home() -> None:
    journal = Journal(":memory:")
    mine = Session.new("builders", ["Ann", "Bob"], seed=1, journal=journal).game_id
    Session.new("builders", ["Alice Smith", "Bob Jones"], seed=2, journal=journal)
    view = HomePresenter(journal, shown=lambda game_id: game_id == mine).view()
    assert [card.game_id for card in view.resumable] == [mine]
