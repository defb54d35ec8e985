"""One person against three companion warbands in Kolossus, Chapter 3, through the real
``companion`` app under Xvfb: real clicks (``xdotool``), the simulated LED strip, and a
sensing board on a pty whose device end the *test* owns (``SimSensingBoard``: the test's
hand lifts and places its miniatures, the app's real serial reader reads them).

Setup is made by clicks: four seats, the last three the companion's at Easy, Medium and
Hard, Chapter 3. Then for each of the companion's moves: the panel says it, the board on
screen lights exactly the squares of that move (the referee's ``suggestion_marks`` for
the action whose words the panel shows, found among the legal actions of the game the
journal holds) and they include every square its words name, and the strip ships
exactly those squares' LEDs. The move is then confirmed by a real click on "Done", or —
on the sensing board — made by the test's hand (each changed square lifted, then each
filled) and played with no tap; what the journal then holds is that very action. The
person (a seeded choice among the rows on screen) plays by clicks, the dice by "Roll in
software" clicks (the companion's dice are the table's), and after each of them the
hand puts the board right.

The suite plays the first companion moves (a few confirmed by "Done", a few read off
the board); ``COMPANION_FAULTS=long`` plays two whole games, one confirmed by "Done"
and one on the sensing board, and prints their figures.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.highlights import suggestion_marks
from companion.journal import Journal
from companion.model import Frozen
from companion.session import Session
from firmware_bridge.dice.sim_board import SimSensingBoard
from firmware_bridge.layout import kolossus_layout
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.sensing import miniatures
from tests.faults.scale import is_long, report
from tests.helpers.companion_table import cells_said
from tests.helpers.xvfb_app import NEEDS_XVFB, App, brief, launched, wait_for_strip

pytestmark = [pytest.mark.slow, NEEDS_XVFB]

LEVELS = ("Companion: Easy", "Companion: Medium", "Companion: Hard")
PLAYS = re.compile(
    r"^(?P<who>.+?) plays: (?P<words>.+?)\. (Make the move on the table, then )?[Tt]ap Done"
)
DIFFERS = ("The board differs", "The board shows another move")
"""What the screen says while the sensing board and the game disagree."""
STUCK_S = 30.0
"""No action journaled for this long: the run is stuck (a loaded machine thinks slower)."""
TRANSITION_S = 0.6
"""Longer than the screen manager's slide (0.4 s)."""
SUITE_DONE, SUITE_BOARD = 1, 1
"""The suite's companion moves: this many lit and confirmed by "Done" (and every
unlit one before), then this many made on the sensing board with no tap: the Great
Quakes of the Invasion's end."""


@dataclass
class Table:
    """The running app, the test's sensing board and what the run counts."""

    app: App
    board: SimSensingBoard
    by_board: bool
    done_clicked: int = 0
    done_lit: int = 0
    """Moves confirmed by "Done" whose lights (screen and strip) were checked."""
    played_by_board: int = 0
    frames_checked: int = 0
    person_clicks: int = 0


@pytest.fixture
def table(tmp_path: Path, display: str) -> Iterator[tuple[App, SimSensingBoard]]:
    board = SimSensingBoard(str(tmp_path / "sensing-board"), device_id="test-board")
    board.start()
    config = tmp_path / "companion.toml"
    config.write_text(
        f"""
[dice]
source = "none"

[buttons]
source = "none"

[leds]
driver = "sim"

[board]
source = "serial"
settle_s = 0.05

[board.serial]
port = "{board.path}"
backoff_initial_s = 0.2

[kiosk]
idle_timeout_s = 0           # no shop demo in the middle of the test
on_boot = "home"
""",
        encoding="utf-8",
    )
    try:
        with launched(tmp_path, display, config) as app:
            yield app, board
    finally:
        board.stop()


_REPLAYED: dict[tuple[Path, int], PlayPresenter] = {}


def _referee(app: App) -> PlayPresenter:
    """The game as the app's journal holds it, replayed without touching it (again only
    when the journal has grown: no undo happens here)."""
    key = (app.journal, len(app.actions()))
    if key not in _REPLAYED:
        _REPLAYED.clear()
        _REPLAYED[key] = _replayed(app)
    return _REPLAYED[key]


def _replayed(app: App) -> PlayPresenter:
    with Journal(app.journal, read_only=True) as journal:
        [info] = journal.games()
        session, damage = Session.view(journal, info.game_id)
    assert damage is None
    return PlayPresenter(session)


def _stands(play: PlayPresenter) -> frozenset[str]:
    return frozenset(miniatures(play.rules.board(play.state)))


def _set_up_by_clicks(app: App) -> None:
    """Home → Kolossus → four seats, three the companion's (Easy, Medium, Hard), Chapter
    3 → Start game."""
    app.wait("Home", lambda ui: ui["screen"] == "home", 30)
    app.click("Kolossus")
    app.wait("Setup", lambda ui: ui["screen"] == "setup")
    app.click("+ Add player")
    app.click("+ Add player")

    def seats() -> list[dict[str, Any]]:
        found = [b for b in app.buttons() if b["text"] == "Person" or b["text"] in LEVELS]
        return sorted(found, key=lambda b: b["y"])

    for seat, level in enumerate(LEVELS, start=1):
        while seats()[seat]["text"] != level:
            app.click_button(seats()[seat])
    for _ in range(40):  # the chapters are below the seats: the wheel scrolls to them
        if app.find("3: Lords of Destiny") is not None:
            break
        app.xdotool("mousemove", "--window", app.window, "400", "300", "click", "5")
    app.click("3: Lords of Destiny")
    app.click("Start game", exact=True)
    app.wait("the game", lambda ui: ui["screen"] == "play", 20)
    _steady(app)
    time.sleep(TRANSITION_S)  # a tap during the screens' slide reaches neither


def _hand_puts_right(table: Table, play: PlayPresenter) -> None:
    """The hand sets the table as the game stands (after a person's move, a walk-through
    or a move confirmed by "Done"): one change per differing square."""
    stands = _stands(play)
    if table.board.occupied == stands:
        return
    table.board.set_occupied(stands)

    def agrees(ui: dict[str, Any]) -> bool:
        shown = [ui["banner"], *ui["texts"], *(b["text"] for b in ui["buttons"])]
        return not any(words in text for text in shown for words in DIFFERS)

    table.app.wait("the board read as the game stands", agrees)
    _steady(table.app)


def _steady(app: App) -> None:
    """Wait until the screen has stopped changing (its buttons laid out where the map
    says: a notice gone moves the rows under it)."""
    last = app.ui_map.read_text()
    for _ in range(40):
        time.sleep(0.1)
        now = app.ui_map.read_text()
        if now == last:
            return
        last = now


def _rows(app: App) -> list[dict[str, Any]]:
    """The action rows on screen a person may tap: above Undo, not a group's tab
    ("Move (12)"), not a form ("… set the amounts yourself"), not a notice or "Why?"."""
    shown = app.buttons()
    texts = [" ".join(b["text"].split()) for b in shown]
    end = texts.index("Undo") if "Undo" in texts else len(texts)
    return [
        button
        for button, text in zip(shown[:end], texts[:end], strict=True)
        if not re.fullmatch(r".+ \(\d+\)", text)
        and "set the amounts yourself" not in text
        and text != "Why?"
        and not any(words in text for words in DIFFERS)
    ]


def _journal_grows(app: App, count: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while len(app.actions()) <= count:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def _journaled(app: App, count: int) -> None:
    """Wait until the journal holds ``count`` actions (the app's log said if not)."""
    deadline = time.monotonic() + 20
    while len(app.actions()) < count:
        assert app.process.poll() is None, "the app exited"
        if time.monotonic() >= deadline:
            log = (app.ui_map.parent / "app.log").read_text(errors="replace")[-1500:]
            raise AssertionError(f"action {count} never journaled: {brief(app.ui())}\n{log}")
        time.sleep(0.02)


def _companion_move(table: Table, said: re.Match[str]) -> None:
    """The move the panel says: lit as said on screen and on the strip, then made."""
    app = table.app
    play = _referee(app)
    words = said["words"]
    names = play.names()
    found = [
        action
        for action in play.rules.legal_actions(play.state)
        if names.text(play.rules.describe(play.state, action)) == words
    ]
    if not found:  # the screen still shows the move just made: look again
        time.sleep(0.05)
        return
    action: Frozen = found[0]
    cells = play.rules.action_cells(play.state, action)
    lit = sorted({mark.cell for mark in suggestion_marks(cells)})
    if lit:
        ui = app.wait(f"lit: {words}", lambda ui: ui["board_lit"] == lit)
        ui = wait_for_strip(app, f"the strip for {words}")
        assert ui["board_lit"] == lit
        said_cells = cells_said(words, kolossus_layout())
        assert said_cells <= set(lit) <= said_cells | {cells.origin}, (words, lit)
        table.frames_checked += 1
    count = len(app.actions())
    before = miniatures(play.rules.board(play.state))
    after_state, _ = play.rules.apply(play.state, action)
    after = miniatures(play.rules.board(after_state))
    changed = {c for c in before.keys() | after.keys() if before.get(c) != after.get(c)}
    if table.by_board and changed:  # lifted (a beaten miniature too), then filled
        for cell in sorted(changed & before.keys()):
            table.board.lift(cell)
        for cell in sorted(changed & after.keys()):
            table.board.place(cell)
        _journaled(app, count + 1)
        table.played_by_board += 1
    else:
        app.click("Done", exact=True)
        _journaled(app, count + 1)
        table.done_clicked += 1
        table.done_lit += bool(lit)
    made = app.actions()[-1]
    assert made in [play.rules.dump_action(a) for a in found], (made, words)


def _play(table: Table, wanted: tuple[int, int] | None) -> PlayPresenter:
    """Play by clicks until the game ends, or until ``wanted`` companion moves (Done
    clicked, read off the board) were made."""
    app, person = table.app, random.Random(4)
    progress, count = time.monotonic(), -1
    while True:
        if len(app.actions()) != count:
            progress, count = time.monotonic(), len(app.actions())
        assert time.monotonic() - progress < STUCK_S, f"nothing played: {brief(app.ui())}"
        play = _referee(app)
        if play.queries.outcome is not None:
            return play
        if (
            wanted is not None
            and table.done_lit >= wanted[0]
            and (table.played_by_board >= wanted[1])
        ):
            return play
        _hand_puts_right(table, play)
        ui = app.ui()
        said = next((m for t in ui["texts"] if (m := PLAYS.match(" ".join(t.split())))), None)
        count = len(app.actions())
        if said is not None and app.find("Done", exact=True) is not None:
            if wanted is not None:  # the suite: Done first, then the board
                table.by_board = table.done_lit >= wanted[0]
            _companion_move(table, said)
            continue
        if app.find("Roll in software") is not None:
            app.click("Roll in software")
        elif app.find("Done", exact=True) is not None:  # the walk-through, step by step
            app.click("Done", exact=True)
            continue
        elif app.find("Ready", exact=True) is not None:
            for _ in range(3):  # a click during the first frames of a loaded app is lost
                app.click("Ready", exact=True)
                if _journal_grows(app, count, 5.0):
                    break
        elif play.queries.seat() == 0 and (rows := _rows(app)):
            app.click_button(person.choice(rows))
            table.person_clicks += 1
        else:
            time.sleep(0.05)  # the companion thinks
            continue
        _journaled(app, count + 1)


@pytest.mark.parametrize("mode", ["done", "board"] if is_long() else ["done-then-board"])
def test_one_person_against_three_companion_warbands_by_clicks_lit_as_said(
    table: tuple[App, SimSensingBoard], mode: str
) -> None:
    app, board = table
    started = time.monotonic()
    run = Table(app, board, by_board=mode == "board")
    _set_up_by_clicks(app)
    play = _play(run, None if is_long() else (SUITE_DONE, SUITE_BOARD))
    assert run.frames_checked > 0
    if mode != "board":
        assert run.done_lit >= SUITE_DONE
    if mode != "done":
        assert run.played_by_board >= SUITE_BOARD
    if is_long():
        assert play.queries.outcome is not None
        report(
            "companion_proof_xvfb",
            board=mode,
            actions=len(play.session.actions),
            done_clicked=run.done_clicked,
            played_by_board=run.played_by_board,
            frames_checked=run.frames_checked,
            person_clicks=run.person_clicks,
            outcome=play.queries.outcome.text,
            wall_s=round(time.monotonic() - started, 1),
        )
