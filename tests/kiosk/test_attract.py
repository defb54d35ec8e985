"""The shop demo without Kivy: idle clock, demo driver, attract mode, boot choice.

Times are fed as numbers (``now``), so nothing here waits. The real journal is a file
in ``tmp_path``; the demo must never add a row to it.
"""

from __future__ import annotations

import gc
import itertools
import sqlite3
import weakref
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.bot import RandomBot
from companion.dice import Roll
from companion.games import available_games, get_rules
from companion.journal import Journal
from companion.session import Session
from kiosk.presenters.attract import (
    AttractMode,
    BootChoice,
    IdleClock,
    boot_choice,
    demo_rotation,
    unknown_games,
)
from kiosk.presenters.demo import MAX_REFUSALS, DemoDriver, DemoPlayPresenter, demo_players
from tests.kiosk.helpers import assert_imports_without_kivy

FIVE = ("kolossus", "beast_master", "colossi", "colossus_solo", "builders")


def counter_seed() -> Iterator[int]:
    return itertools.count(1000)


def make_driver(games: tuple[str, ...] = FIVE, **kwargs: object) -> DemoDriver:
    seeds = counter_seed()
    options: dict[str, object] = {"step_s": 1.0, "outcome_s": 5.0}
    options.update(kwargs)
    return DemoDriver(games, seed=lambda: next(seeds), **options)  # type: ignore[arg-type]


def journal_rows(path: Path) -> tuple[int, int, int]:
    """(games, entries, damaged entries) counted straight from the SQLite file."""
    with sqlite3.connect(path) as db:
        return (
            db.execute("SELECT COUNT(*) FROM games").fetchone()[0],
            db.execute("SELECT COUNT(*) FROM entries").fetchone()[0],
            db.execute("SELECT COUNT(*) FROM damaged_entries").fetchone()[0],
        )


def test_attract_and_admin_presenters_import_without_kivy() -> None:
    assert_imports_without_kivy(
        "kiosk.presenters.attract",
        "kiosk.presenters.demo",
        "kiosk.presenters.admin",
        "kiosk.presenters.long_press",
        "kiosk.admin",
        "kiosk.cli",
    )


# --- the idle clock -------------------------------------------------------------------


def test_idle_clock_expires_after_the_timeout_and_input_resets_it() -> None:
    clock = IdleClock(180, now=0)
    assert not clock.expired(179.9)
    assert clock.expired(180)
    clock.touch(150)
    assert not clock.expired(329.9)
    assert clock.expired(330)
    assert clock.idle_for(200) == 50


def test_idle_timeout_zero_never_expires() -> None:
    clock = IdleClock(0, now=0)
    assert not clock.enabled
    assert not clock.expired(10**9)


def test_attract_mode_starts_when_idle_and_input_ends_it() -> None:
    started: list[str] = []
    attract = AttractMode(
        180, lambda: make_driver(on_game=lambda p: started.append(p.rules.name)), now=0
    )
    assert attract.tick(100) == "idle"
    assert not attract.input(120)  # not running: only resets the clock
    assert attract.tick(299) == "idle"  # 179 s after the input
    assert attract.tick(300) == "started"
    assert attract.active and started == ["kolossus"]
    assert attract.tick(300.5) == "waiting"
    assert attract.input(301) is True  # the first touch ends the demo ...
    assert not attract.active
    assert attract.tick(302) == "idle"  # ... and the idle time counts from it
    assert attract.tick(481) == "started"


def test_attract_mode_off_never_starts_but_can_be_started_by_hand() -> None:
    attract = AttractMode(0, make_driver, now=0)
    assert attract.tick(10**6) == "idle"
    attract.start(10**6)
    assert attract.active
    assert attract.stop(10**6 + 1) and not attract.stop(10**6 + 2)


# --- the demo driver ------------------------------------------------------------------


def test_demo_plays_one_action_per_step_interval() -> None:
    driver = make_driver(("builders",), step_s=1.5)
    play = driver.start(0)

    def progress() -> tuple[int, int, int]:
        return len(play.session.actions), play.fix.index, len(play.fix.steps)

    start = progress()
    assert driver.step(1.0) == "waiting" and progress() == start
    assert driver.step(1.5) in ("acted", "rolled", "fixed")
    moved = progress()
    assert moved != start
    assert driver.step(2.9) == "waiting" and progress() == moved
    assert driver.step(3.0) != "waiting" and progress() != moved
    driver.close()


def test_demo_rotates_through_all_five_games_with_fresh_seeds_and_demo_players() -> None:
    games: list[DemoPlayPresenter] = []
    driver = make_driver(step_s=0.0, outcome_s=2.0, max_actions=40, on_game=games.append)
    now = 0.0
    while len(games) < 6:
        now += 1.0
        driver.step(now)
    assert [p.rules.name for p in games] == [*FIVE, "kolossus"]
    seeds = [p.session.seed for p in games]
    assert len(set(seeds)) == len(seeds)
    for play in games:
        rules = play.rules
        players = play.state.players
        assert rules.min_players <= len(players) <= rules.max_players
        assert len(set(players)) == len(players)
        assert play.session.game_id is not None
    assert demo_players(get_rules("colossus_solo")) == ("Ada",)
    assert len(demo_players(get_rules("kolossus"))) == 4
    driver.close()


def test_a_finished_demo_game_stays_on_screen_then_the_next_starts() -> None:
    driver = make_driver(("builders", "colossus_solo"), step_s=0.0, outcome_s=8.0)
    first = driver.start(0)
    now = 0.0
    while driver.step(now) != "outcome":
        now += 1.0
        assert now < 500, "the Builders demo did not end"
    assert first.session.outcome is not None and first.view().outcome is not None
    assert driver.step(now + 7.9) == "outcome"
    assert driver.play is first
    assert driver.step(now + 8.0) == "started"
    assert driver.play is not first and driver.play is not None
    assert driver.play.rules.name == "colossus_solo"
    assert driver.games_finished == 1
    driver.close()


def test_demo_dice_are_software_rolls_and_table_fixes_are_stepped_through() -> None:
    driver = make_driver(("kolossus",), step_s=0.0)
    play = driver.start(0)
    seen: Counter[str] = Counter()
    for now in range(1, 400):
        pending_fix = play.fix.step
        result = driver.step(float(now))
        if result == "started":  # the next game: its rolls are its own
            break
        seen[result] += 1
        if result in ("acted", "rolled"):  # the table was fixed before the next move
            assert pending_fix is None
    rolls = [a for a in play.session.actions if isinstance(a, Roll)]
    assert seen["rolled"] == len(rolls) > 0
    assert all(r.source == "software" and r.values is None for r in rolls)
    assert seen["fixed"] > 0  # the Kolossus quake asks players to move regions
    assert seen["refused"] == 0 and driver.refusals == 0
    driver.close()


def test_a_die_rolled_at_the_table_ends_the_demo_and_is_not_played() -> None:
    inputs: list[str] = []
    driver = make_driver(("kolossus",), step_s=0.0, on_input=lambda: inputs.append("die"))
    play = driver.start(0)
    now = 0.0
    while play.queries.dice_request() is None:  # until Kolossus asks for the Die of Destiny
        now += 1.0
        driver.step(now)
        assert now < 100
    before = len(play.session.actions)
    assert play.dice.electronic_roll(Roll(values=(3,), source="electronic", device="tray")) is False
    assert inputs == ["die"]
    assert len(play.session.actions) == before
    driver.close()


def test_too_long_a_demo_game_gives_way_to_the_next() -> None:
    driver = make_driver(("kolossus", "builders"), step_s=0.0, outcome_s=0.0, max_actions=5)
    driver.start(0)
    for now in range(1, 30):
        driver.step(float(now))
        if driver.play is not None and driver.play.rules.name == "builders":
            break
    assert driver.play is not None and driver.play.rules.name == "builders"
    assert driver.games_finished == 0
    driver.close()


def test_refusals_are_counted_and_end_a_stuck_demo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = make_driver(("builders",), step_s=0.0, outcome_s=0.0)
    play = driver.start(0)
    monkeypatch.setattr(play, "submit", lambda action: False)
    monkeypatch.setattr(play.dice, "roll_in_software", lambda: False)
    results = [driver.step(float(n)) for n in range(1, MAX_REFUSALS + 1)]
    assert results == ["refused"] * MAX_REFUSALS
    assert driver.step(MAX_REFUSALS + 1.0) == "started"
    driver.close()


def test_demo_games_live_in_a_private_memory_journal_one_at_a_time() -> None:
    driver = make_driver(step_s=0.0, outcome_s=0.0, max_actions=10)
    driver.start(0)
    assert driver.journal.path == ":memory:"
    for now in range(1, 200):
        driver.step(float(now))
        demo_games = driver.journal.games(include_demo=True)
        assert len(demo_games) == 1 and demo_games[0].demo
    assert driver.games_started > 5
    driver.close()


def test_the_interrupted_game_is_intact_and_the_real_journal_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    real = Session.new("builders", ("Kim", "Lou"), seed=5, journal=journal)
    bot = RandomBot(9)
    for _ in range(6):
        real.submit(bot.choose(real.rules, real.state))
    real.undo()
    before_rows = journal_rows(path)
    before_state = real.rules.dump_position(real.state)
    game_id = real.game_id
    assert game_id is not None
    driver = make_driver(step_s=0.0, outcome_s=0.0, max_actions=30)
    driver.start(0)
    now = 0.0
    while driver.turns < 250:
        now += 1.0
        driver.step(now)
        assert now < 2000
    assert driver.games_started >= 5
    driver.close()
    assert journal_rows(path) == before_rows
    resumed, damage = Session.resume(journal, game_id)
    assert damage is None
    assert resumed.rules.dump_position(resumed.state) == before_state
    assert resumed.can_redo
    journal.close()


# --- configuration helpers and boot -----------------------------------------------------


def test_demo_rotation_keeps_known_games_in_the_given_order() -> None:
    present = list(FIVE)
    assert demo_rotation((), present) == FIVE
    assert demo_rotation(("builders", "nope", "kolossus"), present) == ("builders", "kolossus")
    assert demo_rotation(("nope",), present) == FIVE
    assert unknown_games(("builders", "nope"), present) == ("nope",)
    assert set(demo_rotation(())) == set(available_games())


def test_boot_resume_opens_the_most_recent_unfinished_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    assert boot_choice("resume", journal) == BootChoice("home")
    older = Session.new("builders", ("A", "B"), seed=1, journal=journal)
    newer = Session.new("colossus_solo", ("A",), seed=2, journal=journal)
    finished = Session.new("builders", ("C", "D"), seed=3, journal=journal)
    bot = RandomBot(4)
    while finished.outcome is None:
        finished.submit(bot.choose(finished.rules, finished.state))
    # The journal keeps times to the second: date the games apart explicitly.
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        for session, day in ((newer, 1), (older, 2), (finished, 3)):
            db.execute(
                "UPDATE games SET updated = ? WHERE game_id = ?",
                (f"2026-01-0{day}T12:00:00+00:00", session.game_id),
            )
    # The finished game is the most recent; the unfinished one played last opens.
    assert boot_choice("resume", journal) == BootChoice("resume", older.game_id)
    assert newer.game_id is not None
    assert boot_choice("demo", journal) == BootChoice("demo")
    assert boot_choice("home", journal) == BootChoice("home")
    journal.close()


def test_boot_resume_skips_games_this_build_does_not_have(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.create_game("no_such_game", ("A", "B"), {}, 1)
    assert boot_choice("resume", journal) == BootChoice("home")
    journal.close()


# --- soak (presenter level) -----------------------------------------------------------


@pytest.mark.slow
def test_slow_demo_soak_across_all_games_keeps_nothing_and_stores_nothing(
    tmp_path: Path,
) -> None:
    """A few hundred demo turns through every game, redrawing the view like the screen.

    Checks: no crash, no refusal, the real journal untouched, and no demo game kept
    alive once the next one has started (weak references, counted after a collection).
    """
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    Session.new("kolossus", ("Kim", "Lou"), seed=1, journal=journal)
    before = (journal_rows(path), path.stat().st_size)
    presenters: weakref.WeakSet[DemoPlayPresenter] = weakref.WeakSet()
    sessions: weakref.WeakSet[Session] = weakref.WeakSet()
    started: list[str] = []

    def on_game(play: DemoPlayPresenter) -> None:
        presenters.add(play)
        sessions.add(play.session)
        started.append(play.rules.name)

        def redraw() -> None:  # what the play screen does after every change
            play.view()

        play.subscribe(redraw)

    driver = make_driver(step_s=0.0, outcome_s=0.0, max_actions=80, on_game=on_game)
    attract = AttractMode(60, lambda: driver, now=0)
    now = 60.0
    assert attract.tick(now) == "started"
    alive_counts = []
    while driver.turns < 600:
        now += 1.0
        if attract.tick(now) == "started":
            gc.collect()
            alive_counts.append((len(presenters), len(sessions)))
    assert set(FIVE) <= set(started)
    assert driver.refusals == 0
    assert max(alive_counts) == (1, 1), alive_counts
    attract.input(now + 1)
    gc.collect()
    assert len(presenters) == 0 and len(sessions) == 0
    assert (journal_rows(path), path.stat().st_size) == before
    journal.close()
