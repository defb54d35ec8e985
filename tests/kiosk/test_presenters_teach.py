"""Teach mode through the play presenter (no Kivy): a pause the first time each rule
matters, once per game, "Skip teaching" and "Show all again", and the lesson resuming at
the same step after a power cut (its progress saved per tap beside the journal)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.bot import RandomBot
from companion.journal import Journal
from companion.session import Session
from kiosk.presenters.play import PlayPresenter
from kiosk.teaching.progress import ProgressStore, TeachProgress
from tests.kiosk.helpers import assert_imports_without_kivy


def _taught(session: Session, store: ProgressStore | None = None) -> PlayPresenter:
    presenter = PlayPresenter(session)
    game_id = session.game_id
    if store is not None and game_id is not None:
        presenter.teacher.start(store.load(game_id))
        presenter.teacher.report_to(lambda progress: store.save(game_id, progress))
    else:
        presenter.teacher.start(TeachProgress())
    return presenter


def _rulings(presenter: PlayPresenter) -> list[str]:
    pause = presenter.view().teach
    return [] if pause is None else [entry.ruling for entry in pause.entries]


def test_each_rule_pauses_once_the_first_time_it_matters() -> None:
    presenter = _taught(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    first = presenter.view().teach
    assert first is not None and first.heading == "A new rule"
    assert first.entries[0].ruling == "K-R02"
    assert first.entries[0].title == "Where your warband starts"
    assert first.entries[0].here[0].startswith("Lit as may act now (32): ")
    shown: list[str] = []
    bot = RandomBot(2)
    for _ in range(30):
        while presenter.view().teach is not None:
            shown += _rulings(presenter)
            presenter.teacher.next()
        presenter.submit(bot.choose(presenter.rules, presenter.state))
        while presenter.fix.step is not None:
            presenter.fix.next()
    assert len(shown) == len(set(shown))  # once per game
    assert shown[0] == "K-R02"
    assert {"K-R05", "K-R03", "1.6.2"} <= set(shown)  # the Great Quake, a move
    assert shown.index("K-R08") > shown.index("K-R05")  # action points after the Invasion
    assert presenter.teacher.progress is not None and presenter.teacher.progress.seen == frozenset(
        shown
    )


def test_k_r08_teach_mode_explains_a_rule_when_it_first_applies_in_the_phase() -> None:
    """Before the Invasion the pieces are lit to be swapped (K-R02): teach mode explains
    that, not action points (K-R08) nor taking crystals (K-R15, K-R16), which apply from
    the first battle round; there they are explained the first time they come up."""
    presenter = _taught(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    bot = RandomBot(2)
    by_phase: dict[str, list[str]] = {}
    for _ in range(60):
        while presenter.view().teach is not None:
            by_phase.setdefault(presenter.view().panel.phase, []).extend(_rulings(presenter))
            presenter.teacher.next()
        if "K-R08" in {r for rulings in by_phase.values() for r in rulings}:
            break
        presenter.submit(bot.choose(presenter.rules, presenter.state))
        while presenter.fix.step is not None:
            presenter.fix.next()
    early = by_phase.get("Placement", []) + by_phase.get("Great Quake", [])
    assert early and not {"K-R08", "K-R15", "K-R16"} & set(early)
    assert "K-R08" in by_phase.get("Destiny roll", []) + by_phase.get("Activation", [])


def test_the_great_quake_pause_names_the_roll_and_the_regions() -> None:
    presenter = _taught(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    bot = RandomBot(2)
    while presenter.view().panel.phase != "Great Quake":
        while presenter.view().teach is not None:
            presenter.teacher.next()
        presenter.submit(bot.choose(presenter.rules, presenter.state))
    pause = presenter.view().teach
    assert pause is not None and pause.entries[0].ruling == "K-R05"
    assert pause.entries[0].here == (
        "Waiting for: Great Quake: Tua'tha rolls 1d4",
        pause.entries[0].here[1],
    )
    assert pause.entries[0].here[1].startswith("Lit as what may quake (")


def test_skip_teaching_and_show_all_again() -> None:
    saved: list[TeachProgress] = []
    presenter = _taught(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    presenter.teacher.report_to(saved.append)
    presenter.teacher.next()
    presenter.teacher.skip()
    assert presenter.view().teach is None  # an expert is never held up
    assert saved[-1] == TeachProgress(on=False, seen=frozenset({"K-R02"}))
    presenter.teacher.again()
    assert _rulings(presenter) == ["K-R02"]
    assert saved[-1] == TeachProgress()


def test_no_pause_without_teach_mode_until_why_offers_it() -> None:
    presenter = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], seed=2))
    assert presenter.view().teach is None and presenter.view().can_teach
    presenter.teacher.explain_table()
    presenter.teacher.again()  # "Teach me the rules from here" in the "Why?" panel
    view = presenter.view()
    assert view.why is None and not view.can_teach
    assert view.teach is not None and view.teach.entries[0].ruling == "K-R02"


def test_a_power_cut_resumes_the_lesson_at_the_same_step(tmp_path: Path) -> None:
    """The lesson's place is journaled like a move (a note beside the
    game's entries, on its own commit)."""
    journal = Journal(tmp_path / "journal.sqlite3")
    store = ProgressStore(journal)
    session = Session.new("kolossus", ["Ann", "Bob"], seed=2, journal=journal)
    assert session.game_id is not None
    store.save(session.game_id, TeachProgress())
    presenter = _taught(session, store)
    presenter.teacher.next()
    assert presenter.submit({"type": "ready"})  # on to the Great Quake and its rules
    presenter.teacher.next()
    presenter.teacher.next()
    before = presenter.view().teach
    assert before is not None
    journal.close()  # the power goes: only what is on disk counts

    again = Journal(tmp_path / "journal.sqlite3")
    resumed, _ = Session.resume(again, session.game_id)
    after = _taught(resumed, ProgressStore(again)).view().teach
    assert after is not None and after.entries == before.entries
    again.close()


def test_a_damaged_progress_note_starts_the_lesson_again(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    store = ProgressStore(journal)
    game_id = Session.new("kolossus", ["Ann", "Bob"], seed=2, journal=journal).game_id
    assert game_id is not None
    assert store.load(game_id) is None  # started without teach mode
    store.save(game_id, TeachProgress(on=False, seen=frozenset({"K-R02"})))
    assert store.load(game_id) == TeachProgress(on=False, seen=frozenset({"K-R02"}))
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:  # a flipped byte on the card
        db.execute("UPDATE game_notes SET value = '{not json' WHERE game_id = ?", (game_id,))
    assert store.load(game_id) == TeachProgress()
    journal.delete_game(game_id)  # the lesson goes with its game
    assert store.load(game_id) is None
    journal.close()


def test_progress_that_cannot_be_saved_does_not_stop_the_lesson(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session.new("kolossus", ["Ann", "Bob"], seed=2, journal=journal)
    assert session.game_id is not None
    journal.close()  # every later write fails with a JournalError
    store = ProgressStore(journal)
    store.save(session.game_id, TeachProgress())  # logged, not raised


def test_teach_mode_needs_no_kivy() -> None:
    assert_imports_without_kivy("kiosk.teaching.progress", "kiosk.presenters.play")


def test_a_refusal_on_a_new_rule_explains_itself_once() -> None:
    saved: list[TeachProgress] = []
    presenter = _taught(Session.new("builders", ["Ann", "Bob", "Cleo"], seed=4))
    presenter.teacher.report_to(saved.append)
    assert presenter.submit({"type": "curse", "runes": [2, 2, 0]}) is False
    why = presenter.view().why
    assert why is not None and why.heading == "Why was that refused?"
    assert saved[-1].seen == frozenset({"BC-R09"})
    presenter.teacher.close_why()
    presenter.submit({"type": "curse", "runes": [2, 2, 0]})
    assert presenter.view().why is None and presenter.view().can_explain  # once; "Why?" stays
    plain = PlayPresenter(Session.new("builders", ["Ann", "Bob", "Cleo"], seed=4))
    plain.submit({"type": "curse", "runes": [2, 2, 0]})
    assert plain.view().why is None  # without teach mode, only when asked
