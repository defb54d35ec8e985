"""Play against the companion, through the real presenters (no Kivy): a seat made the
companion's in Setup and journaled with the game, resumed after the journal was closed
(a power cut) still the companion's and thinking again; its move in the legal list,
said, lit and submitted by one tap; Undo or leaving while it thinks cancels the
decision and leaves the game as it was; "Why?"; teach mode's hint.

The thread seam is replaced by :class:`HeldRunner`, which runs a decision only when the
test says (``finish``), so "while it thinks" is a state a test can stand in; every
budget reads a :class:`TickingClock` (a fixed number of readings), never the machine's
speed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import bots
from companion.bot import RandomBot
from companion.games import get_rules
from companion.highlights import Role
from companion.journal import Journal
from companion.session import Session
from kiosk.presenters.companion import CompanionTurn
from kiosk.presenters.companion_seats import (
    BOT_GAMES,
    LEVELS,
    NOTE_KEY,
    CompanionSeats,
    load_seats,
)
from kiosk.presenters.home import HomePresenter
from kiosk.presenters.play import PlayPresenter
from kiosk.presenters.scores import ScoresPresenter
from kiosk.presenters.sensing import Agree
from kiosk.presenters.setup import SetupPresenter
from kiosk.teaching.progress import TeachProgress
from tests.faults.scale import is_long, report, scaled
from tests.helpers.companion_table import (
    HeldRunner,
    SettledBoard,
    started,
    turn_for,
    until_a_miniature_moves,
    until_thinking,
)
from tests.kiosk.helpers import assert_imports_without_kivy


def test_the_companion_modules_do_not_import_kivy() -> None:
    assert_imports_without_kivy("kiosk.presenters.companion", "kiosk.presenters.companion_seats")


def test_the_kiosk_names_the_games_and_levels_the_bots_play() -> None:
    assert BOT_GAMES == bots.BOT_GAMES
    assert LEVELS == bots.LEVELS


def test_setup_cycles_a_seat_through_the_companion_levels_and_back() -> None:
    setup = SetupPresenter(get_rules("builders"))
    setup.cycle_seat(1)
    row = setup.view().players[1]
    assert (row.name, row.seat_text, row.can_companion) == ("Companion", "Companion: Easy", True)
    setup.cycle_seat(1)
    setup.cycle_seat(1)
    assert setup.view().players[1].seat_text == "Companion: Hard"
    setup.cycle_seat(0)  # a second companion gets a name of its own
    assert setup.names == ["Companion 2", "Companion"]
    setup.move_up(1)  # the level moves with its seat
    assert setup.levels == ["hard", "easy"]
    setup.cycle_seat(0)
    assert (setup.names[0], setup.levels[0]) == ("Player 1", None)
    setup.rename(1, "Robo")
    setup.cycle_seat(1)  # a name someone typed stays
    assert setup.names[1] == "Robo"


def test_a_game_the_companion_does_not_play_offers_no_companion_seat() -> None:
    setup = SetupPresenter(get_rules("beast_master"))
    setup.cycle_seat(0)
    assert setup.levels[0] is None
    assert not setup.view().players[0].can_companion


def test_RULINGS_1_4_the_companion_seat_is_journaled_with_the_game_and_resumed(
    tmp_path: Path,
) -> None:
    """Two players in Kolossus: each runs two warbands (RULINGS 1.4); the companion's
    seat is a player, so both of its warbands are the companion's. The seat is in the
    journal from the game's first commit, and a game resumed from the file (the journal
    closed as by a power cut) has it and thinks again."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    session = started("kolossus", {0: "hard"}, journal)
    game_id = session.game_id
    assert game_id is not None
    assert load_seats(journal, game_id) == CompanionSeats.of({0: "hard"})
    journal.close()

    journal = Journal(path)
    resumed, _damage = Session.resume(journal, game_id)
    seats = load_seats(journal, game_id)
    assert seats.level(0) == "hard"
    assert HomePresenter(journal).view().resumable[0].players == "Companion (Hard), Player 2"
    play = PlayPresenter(resumed)
    turn, runner = turn_for(play, seats)
    request = play.queries.dice_request()
    if request is not None:  # the table rolls for it, as for a person
        assert not runner.held
        view = turn.view()
        assert view is not None and view.text == f"Roll for Companion (Hard): {request.label}"
        assert play.dice.roll_in_software()
        turn.check()
    assert runner.held, "the resumed companion thinks again"
    assert turn.who(0) == "Companion (Hard)"
    view = turn.view()
    assert view is not None and view.thinking and view.text == "Companion (Hard) is thinking"
    journal.close()


def test_scores_show_the_companion_seat_with_its_level(tmp_path: Path) -> None:
    session = started("builders", {1: "medium"})
    seats = CompanionSeats.of({1: "medium"})
    view = ScoresPresenter(session, tmp_path, seats.labels(session.state.players)).view()
    assert view.columns == ("Player 1", "Companion (Medium)")


def test_a_damaged_seat_note_leaves_every_seat_to_a_person(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    session = started("builders", {}, journal)
    assert session.game_id is not None
    journal.set_note(session.game_id, NOTE_KEY, '{"seats": {"0": "brilliant"}}')
    assert load_seats(journal, session.game_id) == CompanionSeats()
    with pytest.raises(ValueError, match="seat 0 the level 'brilliant'"):
        CompanionSeats.from_note('{"seats": {"0": "brilliant"}}')
    journal.close()


def _companion_to_move(
    game: str, seed: int, level: Any = "easy", seats: tuple[int, ...] = (0,)
) -> tuple[CompanionTurn, HeldRunner]:
    """A new game whose first seat (and ``seats``) the companion plays, at its turn."""
    levels = dict.fromkeys(seats, level)
    session = Session.new(game, started(game, levels).state.players, seed=seed)
    play = PlayPresenter(session)
    turn, runner = turn_for(play, CompanionSeats.of(levels))
    until_thinking(turn, runner)
    return turn, runner


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["kolossus", "builders"]), seed=st.integers(0, 10_000))
def test_the_companions_move_is_legal_said_lit_and_played_by_one_tap(game: str, seed: int) -> None:
    turn, runner = _companion_to_move(game, seed)
    play = turn.play
    legal = play.queries.legal_payloads()
    before = len(play.session.actions)
    runner.finish()
    proposal = turn.proposal
    assert proposal is not None
    assert proposal.payload in legal
    view = turn.view()
    assert view is not None and view.can_confirm and "…" not in view.text
    assert proposal.words in view.text and view.text.startswith("Companion (Easy) plays: ")
    assert turn.marks() == proposal.marks
    if proposal.marks:  # a move on the board: what the board and the LEDs light
        assert play.highlights() == proposal.marks
    cells = play.rules.action_cells(play.state, play.rules.parse_action(proposal.payload))
    assert {m.cell for m in proposal.marks} == set(cells.touched) | {
        c for c in (cells.origin, cells.target) if c is not None
    }
    assert turn.confirm()
    assert len(play.session.actions) == before + 1
    assert play.rules.dump_action(play.session.actions[-1]) == proposal.payload
    assert turn.proposal is None


def test_why_gives_the_companions_reason_in_one_line() -> None:
    turn, runner = _companion_to_move("kolossus", 3, "medium")
    decision = runner.finish()
    view = turn.view()
    assert view is not None and view.can_explain and view.why == ""
    turn.explain()
    view = turn.view()
    assert view is not None and view.why == decision.reason and "\n" not in view.why


def test_undo_while_the_companion_thinks_cancels_it_and_leaves_the_game_unchanged() -> None:
    turn, runner = _companion_to_move("builders", 11, seats=(0, 1))  # it plays on
    play = turn.play
    runner.finish()
    before = play.state
    assert turn.confirm()  # its first action made; it thinks about its next one
    until_thinking(turn, runner)
    thinking = turn.thinking
    assert thinking is not None
    play.undo()
    turn.check()
    assert thinking.budget.cancelled and turn.thinking is None
    late = runner.finish()  # its answer comes after the Undo: dropped
    assert late.cancelled or turn.proposal is None
    assert turn.proposal is None and turn.marks() == ()
    assert play.state == before
    view = turn.view()
    assert view is not None and view.paused  # waits for "Let the companion play"
    assert not runner.held
    turn.resume()
    assert runner.held


def test_leaving_the_screen_while_the_companion_thinks_drops_its_answer() -> None:
    turn, runner = _companion_to_move("kolossus", 5)
    play = turn.play
    state, count = play.state, len(play.session.actions)
    turn.close()
    runner.finish()
    assert turn.proposal is None and play.guide is None
    assert play.state is state and len(play.session.actions) == count


def test_teach_mode_asks_what_the_companion_would_do_for_a_person() -> None:
    session = Session.new("builders", ["Ann", "Bo"], seed=2)
    play = PlayPresenter(session)
    play.teacher.start(TeachProgress())
    turn, runner = turn_for(play, CompanionSeats())
    view = turn.view()
    assert view is not None and view.can_hint
    turn.hint()
    assert runner.held and turn.view() == turn.view()  # thinking, said once
    runner.finish()
    proposal = turn.proposal
    assert (
        proposal is not None and proposal.hint and proposal.payload in play.queries.legal_payloads()
    )
    view = turn.view()
    assert view is not None and view.text.startswith("The companion would: ")


def test_on_the_sensing_board_the_companions_move_made_by_hand_plays_itself() -> None:
    """No "Done": the board reads the companion's move where a hand made it (Kolossus,
    Chapter 3: the companion plays both seats up to its first move of a miniature, its
    other actions confirmed on the screen)."""
    play = PlayPresenter(Session.new("kolossus", ["Ann", "Bob"], {"chapter": 3}, seed=1))
    turn, runner = turn_for(play, CompanionSeats.of({0: "easy", 1: "easy"}))
    rolls: list[str] = []
    proposal = until_a_miniature_moves(turn, runner, rolls)
    assert rolls, "the table rolled the companion's dice"
    board = SettledBoard(play)
    occupied = board.shows()
    assert board.settle(occupied) == Agree()
    lit = {mark.role: mark.cell for mark in play.highlights()}  # the LEDs, as a hand reads them
    origin, target = lit[Role.SELECTED], lit[Role.REACHABLE]
    count = len(play.session.actions)
    verdict = board.settle((occupied - {origin}) | {target})  # the hand's move
    assert len(play.session.actions) == count + 1, verdict
    assert play.rules.dump_action(play.session.actions[-1]) == proposal.payload
    board.driver.close()


def test_one_person_against_three_companion_warbands_in_chapter_3() -> None:
    """Kolossus, Chapter 3, four players: a person (a seeded random player taps for
    them) against the companion at Easy, Medium and Hard. Each companion move is legal,
    and what the board shows is what the LEDs get (``PlayPresenter.highlights``): the
    move's lights. The suite plays the first actions; the long run (``scaled``) plays
    the game to its end."""
    players = ["Ann", "Companion", "Companion 2", "Companion 3"]
    session = Session.new("kolossus", players, {"chapter": 3}, seed=4)
    play = PlayPresenter(session)
    turn, runner = turn_for(play, CompanionSeats.of({1: "easy", 2: "medium", 3: "hard"}))
    person = RandomBot(4)
    companion_moves = 0
    for _ in range(scaled(30, 5000)):
        if play.queries.outcome is not None:
            break
        if play.fix.step is not None:
            play.fix.finish()
        elif play.queries.dice_request() is not None:
            assert play.dice.roll_in_software()
        elif turn.seats.level(play.queries.seat()) is None:
            action = person.choose(play.rules, play.state)
            assert action is not None and play.submit(action), play.banner
        else:
            runner.finish()
            proposal = turn.proposal
            assert proposal is not None and proposal.payload in play.queries.legal_payloads()
            if proposal.marks:
                assert play.highlights() == proposal.marks
                board = play.board_view()
                assert board is not None
                assert {cell: look.role for cell, look in board.looks.items()} == {
                    mark.cell: mark.role for mark in proposal.marks
                }
            assert turn.confirm(), play.banner
            companion_moves += 1
    assert companion_moves > 0
    if is_long():
        assert play.queries.outcome is not None, "the game did not end"
        report("companion_chapter_3", actions=len(play.session.actions), companion=companion_moves)


def test_a_decision_that_fails_is_said_and_waits_to_be_asked_again() -> None:
    turn, runner = _companion_to_move("builders", 1)
    _think, done = runner.held.pop(0)
    done(RuntimeError("the budget's clock stopped"))
    view = turn.view()
    assert view is not None and view.paused
    assert view.text == "The companion could not decide: the budget's clock stopped"
    assert not runner.held  # not tried again by itself
    turn.resume()
    assert runner.held and turn.view() is not None and turn.failure == ""


def test_names_set_whole_give_the_new_seats_to_people() -> None:
    """A fault found once: names set as a whole (a caller's list) left the seats'
    levels a different length, and Setup's view failed."""
    setup = SetupPresenter(get_rules("kolossus"))
    setup.cycle_seat(1)
    setup.names[:] = ["Ann", "Companion", "Cy"]
    assert [row.seat_text for row in setup.view().players] == [
        "Person",
        "Companion: Easy",
        "Person",
    ]
